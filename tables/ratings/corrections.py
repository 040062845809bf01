"""A supervisor corrects a rating's open or close time after the fact, with a reason: the
time decides which rounds the rating counts, so every correction is kept, audited and shown
to surveillance (a pit alert)."""

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.live import after_commit
from casino.models import Staff
from casino.roles import Role
from tables.errors import IllegalTransition
from tables.ratings import events
from tables.ratings.models import Rating, RatingTimeCorrection
from tables.ratings.services import _answer, _changed, _check_not_self, _rating_locked, _refused
from tables.services._base import require_role
from tables.services.rounds import RoundWrite
from tables.services.rounds.answers import check_key, remember, remembered

REASON_MAX = 300


def _instant(value, field: str) -> dt.datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            value = None
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise _refused(
            _("%(field)s must be a date and time with its offset (ISO 8601).") % {"field": field},
            "bad_time",
            field,
        )
    return value


def rating_time_correct(
    *, rating_id, staff: Staff, key, reason, opened_at=None, closed_at=None
) -> RoundWrite:
    """Set the rating's `opened_at` and/or `closed_at` (a closed rating's) to what the
    supervisor says they were; `reason` says why."""
    require_role(staff, Role.SUPERVISOR)
    key = check_key(key)
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason or len(reason) > REASON_MAX:
        raise _refused(
            _("Say why the time is corrected, in 1 to %(max)s characters.") % {"max": REASON_MAX},
            "reason_required",
            "reason",
        )
    opened = _instant(opened_at, "opened_at")
    closed = _instant(closed_at, "closed_at")
    if opened is None and closed is None:
        raise _refused(_("Give opened_at, closed_at or both."), "nothing_to_correct")
    scope = f"rating:{rating_id}:time"
    request = {"opened_at": str(opened_at), "closed_at": str(closed_at), "reason": reason}
    with transaction.atomic():
        rating = _rating_locked(rating_id)
        if (again := remembered(scope, key, request)) is not None:
            return again
        _check_not_self(rating.player, staff)
        if closed is not None and rating.closed_at is None:
            raise IllegalTransition(
                _("This rating is still open: close it before correcting its close time."),
                code="rating_open",
            )
        now = timezone.now()
        new_open = opened or rating.opened_at
        new_close = closed or rating.closed_at
        if new_open > now or (new_close is not None and new_close > now):
            raise _refused(_("A corrected time cannot be in the future."), "time_in_future")
        if new_close is not None and new_close <= new_open:
            raise _refused(_("A rating closes after it opens."), "close_before_open", "closed_at")
        corrections = []
        for field, value in (("opened_at", opened), ("closed_at", closed)):
            if value is None or value == getattr(rating, field):
                continue
            corrections.append(
                RatingTimeCorrection.objects.create(
                    rating=rating,
                    field=field,
                    before=getattr(rating, field),
                    after=value,
                    reason=reason,
                    by=staff,
                    at=now,
                )
            )
            setattr(rating, field, value)
        if not corrections:
            raise IllegalTransition(
                _("These are the rating's times already: nothing to correct."), code="same_time"
            )
        rating.save(update_fields=[c.field for c in corrections])
        for c in corrections:
            audit(
                actor=staff,
                code="ratings.rating.time_corrected",
                subject=rating,
                data={
                    "field": c.field,
                    "before": c.before.isoformat(),
                    "after": c.after.isoformat(),
                    "reason": reason,
                },
            )
        written = _answer(rating.pk, 200)
        remember(scope, key, request, written, staff)
        _changed(rating)
        ids, rating_pk, staff_pk = [c.pk for c in corrections], rating.pk, staff.pk

        def announce():
            for correction_id in ids:
                events.rating_time_corrected.send(sender=Rating, correction_id=correction_id)
            events.rating_adjusted.send(sender=Rating, rating_id=rating_pk, staff_id=staff_pk)

        after_commit(announce)
    return written
