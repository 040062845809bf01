"""`manage.py ratings_feed_token issue <name>` / `revoke <id>` / `list`: the ratings feed's
tokens from the server console (a manager uses `/api/ratings/feed-tokens`). The secret is
printed once; only its SHA-256 is kept."""

from django.core.management.base import BaseCommand, CommandError

from casino.errors import CasinoError
from tables.ratings.feed_tokens import feed_token_issue, feed_token_revoke
from tables.ratings.models import FeedToken


class Command(BaseCommand):
    help = "Issue, revoke or list the ratings feed's bearer tokens."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["issue", "revoke", "list"])
        parser.add_argument("what", nargs="?", help="the system's name (issue) or the token's id")

    def handle(self, *args, action, what=None, **options):
        try:
            if action == "issue":
                token, raw = feed_token_issue(name=what or "")
                self.stdout.write(f"token #{token.pk} for {token.name}: {raw}")
            elif action == "revoke":
                if not (what or "").isdigit():
                    raise CommandError("revoke takes the token's id")
                token = feed_token_revoke(token_id=int(what))
                self.stdout.write(f"token #{token.pk} ({token.name}) revoked")
            else:
                for t in FeedToken.objects.order_by("pk"):
                    state = f"revoked {t.revoked_at:%Y-%m-%d %H:%M}" if t.revoked_at else "live"
                    self.stdout.write(f"#{t.pk} {t.name}: {state}")
        except CasinoError as exc:
            raise CommandError(exc.message) from exc
