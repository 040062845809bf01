"""Rating writes, one per state change (spec/ratings.md): open, pause, resume, buy-in, move,
close, and the closes a table's close makes. Each takes the round API's `key` (a retried
write answers as the first time: the round services' kept answers), checks the role and the
person, changes rows under a lock, audits, and answers the rating as the API shows it.

Lock order: the table row (opening, moving to it, closing it), then the rating row.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.clock import current_property
from casino.live import after_commit
from casino.models import Staff
from casino.roles import Role
from tables.errors import IllegalTransition, NotFound, RoleRequired, RoundRefused
from tables.models import Table
from tables.ratings import events
from tables.ratings.models import BuyIn, Player, Rating, RatingPause
from tables.ratings.selectors import rating_json, ratings_read
from tables.services._base import require_role

# The round API's idempotency: the same keys, the same kept answers, the same refusals.
from tables.services.rounds import Outcome, RoundWrite
from tables.services.rounds.answers import check_key, remember, remembered

ALIAS_MAX = 60
CARD_MAX = 32


class PlayerExcluded(IllegalTransition):
    """A barred or self-excluded player: no rating opens for them, and the pit is told."""

    code = "player_excluded"
    http_status = 409


def _refused(message: str, code: str, field: str | None = None) -> RoundRefused:
    return RoundRefused(message, code=code, field=field)


def _answer(rating_id: int, status: int) -> RoundWrite:
    rating = ratings_read().get(pk=rating_id)
    return RoundWrite(Outcome(status), rating_json(rating))


def _table_locked(table_id) -> Table:
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        raise _refused(_("table must be a table's id."), "bad_table", "table")
    table = Table.objects.select_for_update(of=("self",), no_key=True).filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("There is no table #%(id)s.") % {"id": table_id})
    return table


def _check_seat(table: Table, seat) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seats:
        raise _refused(
            _("seat must be a seat of %(table)s (1 to %(seats)s).")
            % {"table": table, "seats": table.seats},
            "bad_seat",
            "seat",
        )
    return seat


def _check_open_table(table: Table) -> None:
    if not table.is_open:
        raise IllegalTransition(
            _("%(table)s is closed: a rating is opened at an open table.") % {"table": table},
            code="table_closed",
        )


def _check_seat_free(table: Table, seat: int) -> None:
    taken = Rating.objects.filter(table=table, seat=seat, closed_at__isnull=True).first()
    if taken is not None:
        raise IllegalTransition(
            _("Seat %(seat)s of %(table)s is already rated: close that rating first.")
            % {"seat": seat, "table": table},
            code="seat_rated",
        )


def _check_player_free(player: Player) -> None:
    elsewhere = (
        Rating.objects.filter(player=player, closed_at__isnull=True).select_related("table").first()
    )
    if elsewhere is not None:
        raise IllegalTransition(
            _("%(alias)s is already rated at %(table)s, seat %(seat)s: move that rating instead.")
            % {"alias": player.alias, "table": elsewhere.table, "seat": elsewhere.seat},
            code="player_rated",
        )


def _check_not_self(player: Player, staff: Staff) -> None:
    if player.staff_id is not None and player.staff_id == staff.pk:
        raise RoleRequired(
            _("Nobody opens, changes or closes their own rating: another supervisor does."),
            code="own_rating",
        )


def _check_active(player: Player) -> None:
    if player.status != Player.ACTIVE:
        raise PlayerExcluded(
            _("%(alias)s is %(status)s: no rating can be opened. The pit has been told.")
            % {"alias": player.alias, "status": player.get_status_display()}
        )


def _player_for(spec, staff: Staff) -> tuple[Player, bool]:
    """The player asked for: `{"card": ...}` (who must exist) or `{"anonymous": alias}` (a
    new anonymous player). Whether it was created."""
    if not isinstance(spec, dict) or len(spec) != 1 or not ({"card", "anonymous"} & set(spec)):
        raise _refused(
            _('player must be {"card": number} or {"anonymous": "a description"}.'),
            "bad_player",
            "player",
        )
    if "card" in spec:
        card = spec["card"]
        if not isinstance(card, str) or not 1 <= len(card.strip()) <= CARD_MAX:
            raise _refused(_("The card number must be a text."), "bad_card", "player.card")
        player = Player.objects.filter(property=current_property(), card=card.strip()).first()
        if player is None:
            raise NotFound(
                _("No player holds card %(card)s.") % {"card": card.strip()}, code="unknown_card"
            )
        return player, False
    alias = spec["anonymous"]
    if not isinstance(alias, str) or not 1 <= len(alias.strip()) <= ALIAS_MAX:
        raise _refused(
            _("Describe the anonymous player in 1 to %(max)s characters.") % {"max": ALIAS_MAX},
            "bad_alias",
            "player.anonymous",
        )
    player = Player.objects.create(
        property=current_property(), card=None, alias=alias.strip(), created_by=staff
    )
    return player, True


def _create(**fields) -> Rating:
    """The rating, or the refusal the database's constraints give a race's loser."""
    try:
        with transaction.atomic():
            return Rating.objects.create(**fields)
    except IntegrityError:
        _check_seat_free(fields["table"], fields["seat"])
        _check_player_free(fields["player"])
        raise


def _changed(rating: Rating) -> None:
    table_id = rating.table_id
    after_commit(lambda: events.rating_changed.send(sender=Rating, table_id=table_id))


def _cash_in_recorded(rating: Rating, at) -> None:
    # After commit: the anti-money-laundering check reads the committed cash of the day, and
    # a check that fails never undoes the buy-in.
    player_id, table_id = rating.player_id, rating.table_id
    after_commit(
        lambda: events.cash_in_recorded.send(
            sender=BuyIn, player_id=player_id, table_id=table_id, at=at
        )
    )


def _adjusted(rating: Rating, staff: Staff) -> None:
    """Told after commit: one supervisor rating one player again and again is a signal."""
    rating_id, staff_id = rating.pk, staff.pk
    after_commit(
        lambda: events.rating_adjusted.send(sender=Rating, rating_id=rating_id, staff_id=staff_id)
    )


def rating_open(*, staff: Staff, key, table, seat, player) -> RoundWrite:
    """A supervisor opens a rating for a carded or an anonymous player at an open table."""
    require_role(staff, Role.SUPERVISOR)
    key = check_key(key)
    scope, request = "ratings:open", {"table": table, "seat": seat, "player": player}
    refused_player = None
    try:
        with transaction.atomic():
            # The table first, then the kept answer: a retry racing its first send waits
            # for it and answers as it did.
            locked = _table_locked(table)
            if (again := remembered(scope, key, request)) is not None:
                return again
            seat = _check_seat(locked, seat)
            rated, created = _player_for(player, staff)
            _check_not_self(rated, staff)
            if not created and rated.status != Player.ACTIVE:
                refused_player = rated
                _check_active(rated)
            _check_open_table(locked)
            _check_seat_free(locked, seat)
            _check_player_free(rated)
            now = timezone.now()
            rating = _create(player=rated, table=locked, seat=seat, opened_at=now, opened_by=staff)
            audit(
                actor=staff,
                code="ratings.rating.opened",
                subject=rating,
                data={
                    "player": rated.pk,
                    "anonymous": created,
                    "table": locked.pk,
                    "seat": seat,
                },
            )
            written = _answer(rating.pk, 201)
            remember(scope, key, request, written, staff)
            _changed(rating)
            _adjusted(rating, staff)
            return written
    except PlayerExcluded:
        # Nothing was written; the pit hears of the attempt all the same.
        events.excluded_player_refused.send(
            sender=Player,
            player_id=refused_player.pk,
            table_id=table,
            seat=seat,
            staff_id=staff.pk,
        )
        raise


def _rating_locked(rating_id) -> Rating:
    rating = (
        Rating.objects.select_for_update(of=("self",), no_key=True)
        .select_related("player", "table")
        .filter(pk=rating_id)
        .first()
    )
    if rating is None:
        raise NotFound(_("There is no rating #%(id)s.") % {"id": rating_id})
    return rating


def _check_open(rating: Rating) -> None:
    if rating.closed_at is not None:
        raise IllegalTransition(
            _("This rating was closed at %(time)s: nobody changes a closed rating.")
            % {"time": timezone.localtime(rating.closed_at).strftime("%H:%M")},
            code="rating_closed",
        )


def _write(rating_id, *, staff: Staff, key, action: str, request: dict, change) -> RoundWrite:
    """A write to one open rating: the key, the role, the lock, the checks, `change`, the
    kept answer."""
    require_role(staff, Role.SUPERVISOR)
    key = check_key(key)
    scope = f"rating:{rating_id}:{action}"
    with transaction.atomic():
        rating = _rating_locked(rating_id)
        if (again := remembered(scope, key, request)) is not None:
            return again
        _check_not_self(rating.player, staff)
        _check_open(rating)
        status, answered = change(rating, timezone.now())
        written = _answer(answered.pk, status)
        remember(scope, key, request, written, staff)
        _changed(rating)
        if answered.pk != rating.pk:
            _changed(answered)
    return written


def _open_pause(rating: Rating) -> RatingPause | None:
    return rating.pauses.filter(ended_at__isnull=True).first()


def rating_pause(*, rating_id, staff: Staff, key) -> RoundWrite:
    """The player sits out: rounds locked from now on are not counted."""

    def change(rating, now):
        if _open_pause(rating) is not None:
            raise IllegalTransition(_("This rating is already paused."), code="rating_paused")
        RatingPause.objects.create(rating=rating, started_at=now, started_by=staff)
        audit(actor=staff, code="ratings.rating.paused", subject=rating, data={"at": now})
        return 200, rating

    return _write(rating_id, staff=staff, key=key, action="pause", request={}, change=change)


def rating_resume(*, rating_id, staff: Staff, key) -> RoundWrite:
    def change(rating, now):
        pause = _open_pause(rating)
        if pause is None:
            raise IllegalTransition(_("This rating is not paused."), code="rating_not_paused")
        pause.ended_at, pause.ended_by = now, staff
        pause.save(update_fields=["ended_at", "ended_by"])
        audit(actor=staff, code="ratings.rating.resumed", subject=rating, data={"at": now})
        return 200, rating

    return _write(rating_id, staff=staff, key=key, action="resume", request={}, change=change)


def rating_buy_in(*, rating_id, staff: Staff, key, amount_cents, instrument) -> RoundWrite:
    """Money or chips the player brings to the table, by instrument."""
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents <= 0:
        raise _refused(
            _("amount_cents must be a positive whole number of cents."),
            "bad_amount",
            "amount_cents",
        )
    if instrument not in (BuyIn.CASH, BuyIn.CHIPS, BuyIn.MARKER):
        raise _refused(
            _("instrument must be cash, chips or marker."), "bad_instrument", "instrument"
        )

    def change(rating, now):
        BuyIn.objects.create(
            rating=rating, amount_cents=amount_cents, instrument=instrument, at=now, by=staff
        )
        audit(
            actor=staff,
            code="ratings.rating.buy_in",
            subject=rating,
            data={"amount_cents": amount_cents, "instrument": instrument},
        )
        if instrument == BuyIn.CASH:
            _cash_in_recorded(rating, now)
        return 200, rating

    request = {"amount_cents": amount_cents, "instrument": instrument}
    return _write(rating_id, staff=staff, key=key, action="buy-in", request=request, change=change)


def _close(rating: Rating, *, staff: Staff, now, reason: str, walk_with=None) -> None:
    pause = _open_pause(rating)
    if pause is not None:  # a pause ends with its rating
        pause.ended_at, pause.ended_by = now, staff
        pause.save(update_fields=["ended_at", "ended_by"])
    rating.closed_at, rating.closed_by, rating.closed_reason = now, staff, reason
    rating.walk_with_cents = walk_with
    rating.save(update_fields=["closed_at", "closed_by", "closed_reason", "walk_with_cents"])


def rating_close(*, rating_id, staff: Staff, key, walk_with_cents=None) -> RoundWrite:
    """The player leaves: the rating closes with the chips they walk with (if counted)."""
    walk_with = walk_with_cents
    if walk_with is not None and (
        isinstance(walk_with, bool) or not isinstance(walk_with, int) or walk_with < 0
    ):
        raise _refused(
            _("walk_with_cents must be a whole number of cents, 0 or more."),
            "bad_amount",
            "walk_with_cents",
        )

    def change(rating, now):
        _close(rating, staff=staff, now=now, reason=Rating.CLOSED, walk_with=walk_with)
        audit(
            actor=staff,
            code="ratings.rating.closed",
            subject=rating,
            data={"walk_with_cents": walk_with},
        )
        if walk_with is not None:  # the chips-estimated result against the measured one
            rating_id = rating.pk
            after_commit(
                lambda: events.rating_closed_with_walk.send(sender=Rating, rating_id=rating_id)
            )
        return 200, rating

    request = {"walk_with_cents": walk_with}
    return _write(rating_id, staff=staff, key=key, action="close", request=request, change=change)


def rating_move(*, rating_id, staff: Staff, key, table, seat) -> RoundWrite:
    """The player changes seat or table: this rating closes (`moved`) and the next one opens
    there, linked to it by `previous`."""
    require_role(staff, Role.SUPERVISOR)
    key = check_key(key)
    scope, request = f"rating:{rating_id}:move", {"table": table, "seat": seat}
    with transaction.atomic():
        target = _table_locked(table)  # the table first, as everywhere
        rating = _rating_locked(rating_id)
        if (again := remembered(scope, key, request)) is not None:
            return again
        seat = _check_seat(target, seat)
        _check_not_self(rating.player, staff)
        _check_open(rating)
        if rating.table_id == target.pk and rating.seat == seat:
            raise IllegalTransition(_("The player already sits at this seat."), code="same_seat")
        _check_open_table(target)
        _check_seat_free(target, seat)
        now = timezone.now()
        _close(rating, staff=staff, now=now, reason=Rating.MOVED)
        following = _create(
            player=rating.player,
            table=target,
            seat=seat,
            opened_at=now,
            opened_by=staff,
            previous=rating,
        )
        audit(
            actor=staff,
            code="ratings.rating.moved",
            subject=rating,
            data={
                "from": [rating.table_id, rating.seat],
                "to": [target.pk, seat],
                "next": following.pk,
            },
        )
        written = _answer(following.pk, 201)
        remember(scope, key, request, written, staff)
        _changed(rating)
        _changed(following)
        _adjusted(following, staff)
    return written


def ratings_close_for_table(*, table_id: int, staff: Staff | None) -> int:
    """A table closes: its open ratings close with it (`table_closed`). Called inside the
    table's closing transaction, the table row locked. The number closed."""
    now = timezone.now()
    found = list(
        Rating.objects.select_for_update(of=("self",), no_key=True)
        .filter(table_id=table_id, closed_at__isnull=True)
        .order_by("pk")
    )
    for rating in found:
        _close(rating, staff=staff, now=now, reason=Rating.TABLE_CLOSED)
        audit(
            actor=staff,
            code="ratings.rating.table_closed",
            subject=rating,
            data={"table": table_id, "seat": rating.seat},
        )
    if found:
        _changed(found[0])
    return len(found)
