"""Feed tokens: one credential per player-tracking system, issued and revoked by a manager,
as a jackpot display's (only the SHA-256 of a token is stored; the token is shown once)."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.roles import Role
from jackpot.display_tokens import new_raw_token, token_hash
from tables.errors import IllegalTransition, NotFound, RoundRefused
from tables.ratings.models import FeedToken
from tables.services._base import require_role


class FeedRefused(RoundRefused):
    code = "feed_token_refused"
    http_status = 401


def feed_token_issue(*, name: str, issued_by=None) -> tuple[FeedToken, str]:
    """A token for a new player-tracking system; (token, the secret to give it once).
    `issued_by` None: an operator at the server console (manage.py ratings_feed_token)."""
    if issued_by is not None:
        require_role(issued_by, Role.MANAGER)
    name = (name or "").strip() if isinstance(name, str) else ""
    if not 1 <= len(name) <= 80:
        raise RoundRefused(
            _("Name the system the token is for (1 to 80 characters)."),
            code="bad_name",
            field="name",
        )
    raw = new_raw_token()
    try:
        with transaction.atomic():
            token = FeedToken.objects.create(
                name=name,
                token_hash=token_hash(raw),
                issued_by=issued_by,
                issued_at=timezone.now(),
            )
            audit(
                actor=issued_by,
                code="ratings.feed_token.issued",
                subject=token,
                data={"name": name, "via": "staff" if issued_by is not None else "console"},
            )
    except IntegrityError as exc:
        raise IllegalTransition(
            _("A feed token already has this name; choose another name."), code="name_taken"
        ) from exc
    return token, raw


def feed_token_revoke(*, token_id: int, revoked_by=None) -> FeedToken:
    if revoked_by is not None:
        require_role(revoked_by, Role.MANAGER)
    with transaction.atomic():
        token = FeedToken.objects.select_for_update(no_key=True).filter(pk=token_id).first()
        if token is None:
            raise NotFound(_("There is no feed token #%(id)s.") % {"id": token_id})
        if token.revoked_at is not None:
            raise IllegalTransition(_("This feed token is already revoked."), code="revoked")
        token.revoked_at, token.revoked_by = timezone.now(), revoked_by
        token.save(update_fields=["revoked_at", "revoked_by"])
        audit(
            actor=revoked_by,
            code="ratings.feed_token.revoked",
            subject=token,
            data={"name": token.name, "via": "staff" if revoked_by is not None else "console"},
        )
    return token


def feed_authorize(header: str) -> FeedToken:
    """The live token of an `Authorization: Bearer <token>` header, or FeedRefused (401)."""
    scheme, _sep, raw = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not raw.strip():
        raise FeedRefused(_("The feed needs Authorization: Bearer <token>."), code="token_required")
    token = FeedToken.objects.filter(
        token_hash=token_hash(raw.strip()), revoked_at__isnull=True
    ).first()
    if token is None:
        raise FeedRefused(
            _("This feed token is unknown or has been revoked."), code="token_refused"
        )
    FeedToken.objects.filter(pk=token.pk).update(last_seen_at=timezone.now())
    return token
