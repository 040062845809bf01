from django.core.management.base import BaseCommand, CommandError

from casino.errors import CasinoError
from casino.models import Staff
from jackpot.display_tokens import display_token_issue, display_token_revoke
from jackpot.models import Bank, DisplayToken


def _check_text(what: str, value: str, *, max_length: int) -> None:
    """An argument the database could not store is refused here, in words, not with the
    DataError (or NUL-byte ValueError) it would become inside the transaction."""
    if "\x00" in value:
        raise CommandError(f"{what} must not contain a NUL byte")
    if len(value) > max_length:
        raise CommandError(f"{what} is {len(value)} characters long: at most {max_length}")


class Command(BaseCommand):
    help = (
        "Issue a display token for a jackpot screen and print it (only its hash is kept), "
        "or revoke one with --revoke."
    )

    def add_arguments(self, parser):
        parser.add_argument("bank", help="the bank's slug")
        parser.add_argument("--name", required=True, help="the display's name (where it hangs)")
        parser.add_argument("--language", default="fr", choices=["fr", "en"])
        parser.add_argument("--revoke", action="store_true", help="revoke this display's token")
        parser.add_argument(
            "--by", default="", help="username of the manager to record (default: the console)"
        )

    def handle(self, *args, bank, name, language, revoke, by, **options):
        _check_text("the bank", bank, max_length=Bank._meta.get_field("slug").max_length)
        _check_text("--name", name, max_length=DisplayToken._meta.get_field("name").max_length)
        _check_text("--by", by, max_length=Staff._meta.get_field("username").max_length)
        actor = None
        if by:
            actor = Staff.objects.filter(username=by).first()
            if actor is None:
                raise CommandError(f"no staff member named {by!r}")
        try:
            if revoke:
                token = DisplayToken.objects.filter(
                    bank__slug=bank, name=name, revoked_at__isnull=True
                ).first()
                if token is None:
                    raise CommandError(f"no active display token named {name!r} on bank {bank!r}")
                display_token_revoke(token_id=token.pk, revoked_by=actor)
                self.stdout.write(f"revoked display token {bank}/{name}")
                return
            token, raw = display_token_issue(
                bank_slug=bank, name=name, language=language, issued_by=actor
            )
        except CasinoError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(raw)
        self.stderr.write(
            f"display token for {bank}/{name} ({language}); display page: "
            f"/display/{bank}/?token={raw}  (shown once: only its hash is stored)"
        )
