"""Display tokens: one credential per jackpot screen, issued and revoked by a manager.

Only the SHA-256 of a token is stored; the token itself is shown once, when it is issued.
"""

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino import live
from casino.audit import audit
from casino.roles import Role
from jackpot import events
from jackpot.errors import BankNotFound, DisplayRefused, DisplayTokenInvalid, DisplayTokenNotFound
from jackpot.models import Bank, DisplayConnection, DisplayToken
from jackpot.selectors import displays_silent
from jackpot.services._base import require_role

LANGUAGES = ("fr", "en")
# How often an open socket renews its connection row and its token's last_seen_at.
SEEN_EVERY_SECONDS = 15
# A connection row not renewed for this long belongs to a socket or a server that died; with
# the sweep every 15 s, rows match live sockets within a minute.
STALE_AFTER = dt.timedelta(seconds=3 * SEEN_EVERY_SECONDS)


# A display page trades its `?token=` for this cookie (one per bank), so that the token stays
# out of the address bar, the browser's history and the servers' access logs.
COOKIE_PREFIX = "tapis_display_"
# A signage player that cannot send a cookie or a header offers two WebSocket subprotocols:
# FEED_SUBPROTOCOL (the one the server accepts) and TOKEN_SUBPROTOCOL_PREFIX + its token.
FEED_SUBPROTOCOL = "tapis.jackpot-feed"
TOKEN_SUBPROTOCOL_PREFIX = "tapis.token."


def cookie_name(bank_slug: str) -> str:
    return f"{COOKIE_PREFIX}{bank_slug}"


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
        token = DisplayToken.objects.select_for_update(no_key=True).filter(pk=token_id).first()
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


@dataclass(frozen=True)
class FeedCheck:
    """What a process's display sockets learn from the database at a heartbeat, whatever the
    channel layer lost: which of their tokens are revoked, and each bank's committed seq."""

    revoked: frozenset[int]
    feed_seqs: dict[int, int]


def display_connected(*, token: DisplayToken, channel_name: str, remote: str) -> None:
    """Record a live screen. Called only once its socket has joined the bank's group: a row
    for a socket that hears nothing would list a screen as connected that is not."""
    now = timezone.now()
    DisplayConnection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"token": token, "connected_at": now, "last_seen_at": now, "remote": remote[:80]},
    )
    DisplayToken.objects.filter(pk=token.pk).update(last_seen_at=now, link_lost_at=None)


def display_heartbeat(
    *, connections: dict[str, tuple[int, str]], refresh: bool = False
) -> FeedCheck:
    """The periodic check of one process's display sockets, in one query whatever their
    number: `connections` maps each socket's channel name to (token id, remote address).

    With `refresh`, also renew their connection rows (writing again any the sweep removed
    during a long pause) and their tokens' last_seen_at, in one statement each."""
    token_ids = {token_id for token_id, _remote in connections.values()}
    rows = DisplayToken.objects.filter(pk__in=token_ids).values_list(
        "pk", "revoked_at", "bank_id", "bank__feed_seq"
    )
    found, revoked, seqs = set(), set(), {}
    for pk, revoked_at, bank_id, feed_seq in rows:
        found.add(pk)
        seqs[bank_id] = feed_seq
        if revoked_at is not None:
            revoked.add(pk)
    revoked |= token_ids - found  # a token that no longer exists admits nobody
    if refresh:
        live = {name: value for name, value in connections.items() if value[0] not in revoked}
        _renew(live)
    return FeedCheck(revoked=frozenset(revoked), feed_seqs=seqs)


def _renew(live: dict[str, tuple[int, str]]) -> None:
    if not live:
        return
    now = timezone.now()
    renewed = DisplayConnection.objects.filter(channel_name__in=live).update(last_seen_at=now)
    if renewed < len(live):
        kept = set(
            DisplayConnection.objects.filter(channel_name__in=live).values_list(
                "channel_name", flat=True
            )
        )
        DisplayConnection.objects.bulk_create(
            [
                DisplayConnection(
                    token_id=token_id,
                    channel_name=name,
                    connected_at=now,
                    last_seen_at=now,
                    remote=remote[:80],
                )
                for name, (token_id, remote) in live.items()
                if name not in kept
            ],
            ignore_conflicts=True,
        )
    DisplayToken.objects.filter(pk__in={token_id for token_id, _ in live.values()}).update(
        last_seen_at=now, link_lost_at=None
    )


def display_seen(*, token_id: int) -> None:
    DisplayToken.objects.filter(pk=token_id).update(last_seen_at=timezone.now(), link_lost_at=None)


def display_disconnected(*, token_id: int, channel_name: str) -> None:
    DisplayConnection.objects.filter(channel_name=channel_name).delete()
    DisplayToken.objects.filter(pk=token_id).update(last_seen_at=timezone.now())


def display_connections_prune(*, now: dt.datetime | None = None) -> int:
    """The periodic sweep: forget connection rows whose socket stopped refreshing them (its
    server died without saying goodbye), then declare each screen that had a live socket and
    has none now a lost link: audited once as a progressive communication fault (25 CFR
    547.10) and signalled (jackpot.events.display_link_lost) after commit. Returns the number
    of rows forgotten."""
    now = now or timezone.now()
    cutoff = now - STALE_AFTER
    forgotten, _ = DisplayConnection.objects.filter(last_seen_at__lt=cutoff).delete()
    for token in displays_silent(older_than=cutoff).filter(link_lost_at__isnull=True):
        _declare_link_lost(token, now=now)
    return forgotten


def _declare_link_lost(token: DisplayToken, *, now: dt.datetime) -> None:
    with transaction.atomic():
        # Two sweeps (beat, and a web process) may meet here: the one that marks it reports.
        marked = DisplayToken.objects.filter(pk=token.pk, link_lost_at__isnull=True).update(
            link_lost_at=now
        )
        if not marked:
            return
        audit(
            actor=None,
            code="jackpot.display.link_lost",
            subject=token,
            data={
                "bank": token.bank.slug,
                "display": token.name,
                "last_seen_at": token.last_seen_at,
            },
        )
        token_id = token.pk
        live.after_commit(
            lambda: events.display_link_lost.send(sender=DisplayToken, token_id=token_id)
        )
