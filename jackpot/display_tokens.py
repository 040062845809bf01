"""Display tokens: one credential per jackpot screen, issued and revoked by a manager.

Only the SHA-256 of a token is stored; the token itself is shown once, when it is issued.
"""

import datetime as dt
import hashlib
import secrets

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino import live
from casino.audit import audit
from casino.roles import Role, require_role
from jackpot.errors import BankNotFound, DisplayRefused, DisplayTokenInvalid, DisplayTokenNotFound
from jackpot.models import Bank, DisplayConnection, DisplayToken

LANGUAGES = ("fr", "en")
SEEN_EVERY_SECONDS = 60  # how often an open socket refreshes its token's last_seen_at
# A connection whose token was not seen for this long belongs to a server that died.
STALE_AFTER = dt.timedelta(seconds=3 * SEEN_EVERY_SECONDS)


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def new_raw_token() -> str:
    return secrets.token_urlsafe(32)


def display_authorize(*, bank_slug: str, raw_token: str | None) -> DisplayToken:
    """The token of a screen allowed to show `bank_slug`, or DisplayRefused / BankNotFound.

    The token is checked first, so nobody learns which banks exist without a valid one.
    """
    if not raw_token:
        raise DisplayRefused(str(_("A display token is required.")))
    token = (
        DisplayToken.objects.select_related("bank")
        .filter(token_hash=token_hash(raw_token), revoked_at__isnull=True)
        .first()
    )
    if token is None:
        raise DisplayRefused(str(_("This display token is unknown or has been revoked.")))
    if token.bank.slug != bank_slug:
        if not Bank.objects.filter(slug=bank_slug).exists():
            raise BankNotFound(str(_("There is no progressive bank with this name.")))
        raise DisplayRefused(str(_("This display token is for another progressive bank.")))
    return token


def display_token_issue(
    *,
    bank_slug: str,
    name: str,
    language: str = "fr",
    issued_by=None,
    raw_token: str | None = None,
) -> tuple[DisplayToken, str]:
    """Issue a token for a new screen; returns (token, the secret to give the screen once).

    `issued_by` is the manager; None means an operator at the server console (manage.py).
    `raw_token` is only for the documented demo token.
    """
    if issued_by is not None:
        require_role(issued_by, Role.MANAGER)
    name = (name or "").strip()
    if not name:
        raise DisplayTokenInvalid(str(_("Give the display a name (where the screen is).")))
    if language not in LANGUAGES:
        raise DisplayTokenInvalid(str(_("The display language must be fr or en.")))
    bank = Bank.objects.filter(slug=bank_slug).first()
    if bank is None:
        raise BankNotFound(str(_("There is no progressive bank with this name.")))
    raw = raw_token or new_raw_token()
    try:
        with transaction.atomic():
            token = DisplayToken.objects.create(
                bank=bank,
                name=name,
                token_hash=token_hash(raw),
                language=language,
                issued_by=issued_by,
                issued_at=timezone.now(),
            )
            audit(
                actor=issued_by,
                code="jackpot.display_token.issued",
                subject=token,
                data={
                    "bank": bank.slug,
                    "name": name,
                    "language": language,
                    "via": "staff" if issued_by is not None else "console",
                },
            )
    except IntegrityError as exc:
        raise DisplayTokenInvalid(
            str(_("This bank already has a display with this name; choose another name."))
        ) from exc
    return token, raw


def display_token_revoke(*, token_id: int, revoked_by=None) -> DisplayToken:
    """Revoke a screen's token; its open sockets are closed (4403) after commit."""
    if revoked_by is not None:
        require_role(revoked_by, Role.MANAGER)
    with transaction.atomic():
        token = DisplayToken.objects.select_for_update().filter(pk=token_id).first()
        if token is None:
            raise DisplayTokenNotFound(str(_("This display token does not exist.")))
        if token.revoked_at is not None:
            raise DisplayTokenInvalid(str(_("This display token is already revoked.")))
        token.revoked_at, token.revoked_by = timezone.now(), revoked_by
        token.save(update_fields=["revoked_at", "revoked_by"])
        audit(
            actor=revoked_by,
            code="jackpot.display_token.revoked",
            subject=token,
            data={
                "bank": token.bank.slug,
                "name": token.name,
                "via": "staff" if revoked_by is not None else "console",
            },
        )
        channels = list(token.connections.values_list("channel_name", flat=True))
        live.after_commit(lambda: _close_sockets(channels))
    return token


def _close_sockets(channel_names: list[str]) -> None:
    for name in channel_names:
        live.channel_send(name, {"type": "feed.revoked"})


# --- connected displays --------------------------------------------------------------------


def display_connected(*, token: DisplayToken, channel_name: str, remote: str) -> None:
    now = timezone.now()
    DisplayConnection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"token": token, "connected_at": now, "remote": remote[:80]},
    )
    DisplayToken.objects.filter(pk=token.pk).update(last_seen_at=now)


def display_seen(*, token_id: int) -> None:
    DisplayToken.objects.filter(pk=token_id).update(last_seen_at=timezone.now())


def display_disconnected(*, token_id: int, channel_name: str) -> None:
    DisplayConnection.objects.filter(channel_name=channel_name).delete()
    display_seen(token_id=token_id)


def display_connections_prune(*, now: dt.datetime | None = None) -> int:
    """Forget connections left behind by a server that died (its sockets never said goodbye).

    Each one is a display that lost its link without the server hearing it close: the audit
    log records it as a progressive communication fault (25 CFR 547.10), once.
    """
    cutoff = (now or timezone.now()) - STALE_AFTER
    stale = list(
        DisplayConnection.objects.select_related("token__bank")
        .filter(connected_at__lt=cutoff)
        .filter(Q(token__last_seen_at__isnull=True) | Q(token__last_seen_at__lt=cutoff))
    )
    for connection in stale:
        with transaction.atomic():
            deleted, _ = DisplayConnection.objects.filter(pk=connection.pk).delete()
            if deleted:
                audit(
                    actor=None,
                    code="jackpot.display.link_lost",
                    subject=connection.token,
                    data={
                        "bank": connection.token.bank.slug,
                        "display": connection.token.name,
                        "connected_at": connection.connected_at,
                        "last_seen_at": connection.token.last_seen_at,
                    },
                )
    return len(stale)
