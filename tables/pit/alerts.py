"""The pit's alerts: raised from what the services announce and from periodic checks, shown on
every open dashboard, kept until a supervisor or manager acknowledges them with a note.

One condition, one open alert: each alert carries the `key` of the condition it reports
(a round's seat, a table's idle spell, a dealer's assignment...), and `alert_raise` answers
the open alert of that key instead of raising a second one. Conditions found by the periodic
checks (`alerts_check`) also stay quiet once acknowledged, until the condition changes (a new
idle spell, another assignment): otherwise an acknowledged alert would come back every 30 s.

Nothing here stores words: an alert's params hold names, numbers, cents and instants, and
`alert_json` words them in the reader's language, amounts in the property's currency and
times in its time zone.
"""

import datetime as dt
import logging

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery, Sum
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from casino import heartbeat
from casino.audit import audit
from casino.clock import current_property
from casino.live import after_commit
from casino.models import Property, Shift, Staff
from casino.money import money
from casino.roles import Role
from tables.errors import IllegalTransition, NotFound, TablesError
from tables.models import DealerAssignment, Round, RoundEvent, SettlementLine, Table
from tables.pit.live import announce_alert
from tables.pit.models import (
    DEFAULT_BIG_WIN_CENTS,
    DEFAULT_IDLE_MINUTES,
    DEFAULT_MINUTES_PAST_ROTATION,
    DEFAULT_ROTATION_MINUTES,
    DEFAULT_VOIDS_PER_DEALER_SHIFT,
    Alert,
    AlertSettings,
    TableAlertThreshold,
)
from tables.services._base import require_role
from tables.tablet.words import WORDS

log = logging.getLogger("tables.pit.alerts")

Kind = Alert.Kind
Severity = Alert.Severity

ACKNOWLEDGING_ROLES = (Role.SUPERVISOR, Role.MANAGER)
KEY_MAX = 160
NOTE_MAX = 500

SEVERITY = {
    Kind.BIG_WIN: Severity.WARNING,
    Kind.PROGRESSIVE_HIT: Severity.CRITICAL,
    Kind.VOID_REQUESTED: Severity.WARNING,
    Kind.TABLE_IDLE: Severity.INFO,
    Kind.DEALER_OVERDUE: Severity.INFO,
    Kind.DISPLAY_LINK_LOST: Severity.WARNING,
    Kind.RECONCILIATION: Severity.CRITICAL,
    Kind.PIN_LOCKED: Severity.WARNING,
    Kind.SIGNIN_THROTTLED: Severity.WARNING,
    Kind.MANY_VOIDS: Severity.WARNING,
    Kind.VARIANCE: Severity.CRITICAL,
    Kind.EXCLUDED_PLAYER: Severity.CRITICAL,
    Kind.AML_IDENTITY: Severity.CRITICAL,
    Kind.GHOST_RATING: Severity.WARNING,
    Kind.REPEATED_RATINGS: Severity.WARNING,
    Kind.RATING_TIME_EDITED: Severity.WARNING,
    Kind.CHIPS_GAP: Severity.WARNING,
}


class AlertRefused(TablesError):
    code = "alert_refused"


# --- thresholds ----------------------------------------------------------------------------


def alert_settings() -> AlertSettings:
    """The property's thresholds (one query); the defaults, unsaved, until a manager sets
    them."""
    the_property = Property.objects.order_by("pk").values("pk")[:1]
    found = AlertSettings.objects.filter(property_id=Subquery(the_property)).first()
    if found is not None:
        return found
    return AlertSettings(
        idle_minutes=DEFAULT_IDLE_MINUTES,
        rotation_minutes=DEFAULT_ROTATION_MINUTES,
        minutes_past_rotation=DEFAULT_MINUTES_PAST_ROTATION,
        voids_per_dealer_shift=DEFAULT_VOIDS_PER_DEALER_SHIFT,
        big_win_cents=DEFAULT_BIG_WIN_CENTS,
    )


def big_win_threshold(table: Table, thresholds: AlertSettings | None = None) -> int:
    """The win on one seat (cents) from which `table` raises a big-win alert: the table's own
    threshold, else the property's. (A table read with `select_related("alert_threshold")`
    costs no query for its own.)"""
    try:
        return table.alert_threshold.big_win_cents
    except TableAlertThreshold.DoesNotExist:
        return (thresholds or alert_settings()).big_win_cents


# --- raising and acknowledging -------------------------------------------------------------


def _subject_ref(subject) -> tuple[str, str]:
    if subject is None:
        return "", ""
    return subject._meta.label_lower, str(subject.pk)


def alert_raise(
    *,
    kind: str,
    key: str,
    table: Table | None = None,
    params: dict | None = None,
    subject=None,
    once: bool = False,
) -> Alert:
    """Raise the alert of condition `key`, or answer its open alert if one is raised already.
    `once`: also answer the last acknowledged alert of that key (a periodic check's
    condition that was looked at and still holds). Audited; announced to the pit after commit.
    The answer's `is_new` says whether this call raised it."""
    kind = Kind(kind)
    if not key or len(key) > KEY_MAX:
        raise ValueError(f"an alert's key has 1 to {KEY_MAX} characters: {key!r}")
    params = dict(params or {})
    subject_type, subject_id = _subject_ref(subject)
    with transaction.atomic():
        seen = Alert.objects.filter(key=key)
        if not once:
            seen = seen.filter(acknowledged_at__isnull=True)
        existing = seen.order_by("-raised_at", "-pk").first()
        if existing is not None:
            existing.is_new = False
            return existing
        try:
            with transaction.atomic():
                alert = Alert.objects.create(
                    kind=kind,
                    severity=SEVERITY[kind],
                    key=key,
                    table=table,
                    subject_type=subject_type,
                    subject_id=subject_id,
                    params=params,
                    raised_at=timezone.now(),
                )
        except IntegrityError:  # the same condition raised by another check at this instant
            existing = Alert.objects.get(key=key, acknowledged_at__isnull=True)
            existing.is_new = False
            return existing
        alert.is_new = True
        audit(
            actor=None,
            code="pit.alert.raised",
            subject=alert,
            data={
                "kind": kind.value,
                "key": key,
                "table": table.pk if table else None,
                "params": params,
            },
        )
        alert_id = alert.pk
        after_commit(lambda: announce_alert(alert_id))
    return alert


def alert_acknowledge(*, alert_id: int, staff: Staff, note: str) -> Alert:
    """A supervisor or manager has seen the alert and says what was done. It then leaves the
    open list (it stays in the recent ones, with who, when and the note)."""
    require_role(staff, *ACKNOWLEDGING_ROLES)
    note = note.strip() if isinstance(note, str) else ""
    if not note:
        raise AlertRefused(
            _("Write a note saying what was done about this alert."), code="note_required"
        )
    if len(note) > NOTE_MAX:
        raise AlertRefused(
            _("The note is too long: at most %(max)s characters.") % {"max": NOTE_MAX},
            code="note_too_long",
        )
    with transaction.atomic():
        alert = (
            Alert.objects.select_for_update(of=("self",), no_key=True)
            .select_related("acknowledged_by")
            .filter(pk=alert_id)
            .first()
        )
        if alert is None:
            raise NotFound(_("There is no alert #%(id)s.") % {"id": alert_id})
        if alert.acknowledged:
            raise IllegalTransition(
                _("This alert was already acknowledged by %(name)s at %(time)s.")
                % {"name": alert.acknowledged_by, "time": _local(alert.acknowledged_at)},
                code="already_acknowledged",
            )
        alert.acknowledged_by = staff
        alert.acknowledged_at = timezone.now()
        alert.note = note
        alert.save(update_fields=["acknowledged_by", "acknowledged_at", "note"])
        audit(
            actor=staff,
            code="pit.alert.acknowledged",
            subject=alert,
            data={
                "kind": alert.kind,
                "key": alert.key,
                "at": alert.acknowledged_at.isoformat(),
                "note": note,
            },
        )
        after_commit(lambda: announce_alert(alert_id))
    return alert


# --- reading -------------------------------------------------------------------------------


def _alerts():
    return Alert.objects.select_related("table", "acknowledged_by")


def alerts_open() -> list[Alert]:
    """Every alert not yet acknowledged, newest first."""
    return list(_alerts().filter(acknowledged_at__isnull=True).order_by("-raised_at", "-pk"))


#: The acknowledged alerts the pit keeps in sight: the last few of about a shift, so that a
#: supervisor sees what another did about an alert that left the open list, and with what note.
ACKNOWLEDGED_SHOWN = 5
ACKNOWLEDGED_WITHIN = dt.timedelta(hours=12)


def alerts_acknowledged(*, at: dt.datetime | None = None) -> list[Alert]:
    """The latest alerts acknowledged, newest first (who, when and the note with them)."""
    since = (at or timezone.now()) - ACKNOWLEDGED_WITHIN
    return list(
        _alerts()
        .filter(acknowledged_at__gte=since)
        .order_by("-acknowledged_at", "-pk")[:ACKNOWLEDGED_SHOWN]
    )


def alerts_recent(limit: int = 50) -> list[Alert]:
    """The last `limit` alerts raised, acknowledged or not, newest first."""
    return list(_alerts().order_by("-raised_at", "-pk")[:limit])


def _zone(zone=None):
    if zone is not None:
        return zone
    prop = current_property()
    return prop.zone if prop is not None else timezone.get_current_timezone()


def _local(at: dt.datetime | None, zone=None) -> str | None:
    """`at` as the floor reads it: the property's wall clock."""
    if at is None:
        return None
    return f"{timezone.localtime(at, _zone(zone)):%Y-%m-%d %H:%M}"


def _instant(value, zone) -> str:
    """An instant kept in params (ISO 8601), on the property's wall clock."""
    try:
        return _local(dt.datetime.fromisoformat(value), zone) or ""
    except (TypeError, ValueError):
        return str(value)


TITLES = {
    Kind.BIG_WIN: gettext_lazy("Big win at %(table)s"),
    Kind.PROGRESSIVE_HIT: gettext_lazy("Progressive hit at %(table)s"),
    Kind.VOID_REQUESTED: gettext_lazy("Void requested at %(table)s"),
    Kind.TABLE_IDLE: gettext_lazy("%(table)s is idle"),
    Kind.DEALER_OVERDUE: gettext_lazy("Dealer rotation overdue at %(table)s"),
    Kind.DISPLAY_LINK_LOST: gettext_lazy("Jackpot display offline: %(display)s"),
    Kind.RECONCILIATION: gettext_lazy("Meter does not reconcile: %(bank)s"),
    Kind.PIN_LOCKED: gettext_lazy("PIN locked: %(name)s"),
    Kind.SIGNIN_THROTTLED: gettext_lazy("Sign-in attempts slowed down"),
    Kind.MANY_VOIDS: gettext_lazy("Many voids by %(dealer)s"),
    Kind.VARIANCE: gettext_lazy("Counted and computed win differ at %(table)s"),
    Kind.EXCLUDED_PLAYER: gettext_lazy("Excluded player at %(table)s"),
    Kind.AML_IDENTITY: gettext_lazy("Identity needed: %(alias)s at %(table)s"),
    Kind.GHOST_RATING: gettext_lazy("Ghost rating at %(table)s"),
    Kind.REPEATED_RATINGS: gettext_lazy("Repeated ratings of %(alias)s by %(staff)s"),
    Kind.RATING_TIME_EDITED: gettext_lazy("Rating time edited at %(table)s"),
    Kind.CHIPS_GAP: gettext_lazy("Chips and measured results differ at %(table)s"),
}

DETAILS = {
    Kind.BIG_WIN: gettext_lazy(
        "Seat %(seat)s won %(amount)s in round %(round)s (alert from %(threshold)s)."
    ),
    Kind.PROGRESSIVE_HIT: gettext_lazy(
        "Seat %(seat)s, %(hand)s: %(amount)s from the meter of %(bank)s. A supervisor "
        "verifies it, another one pays it."
    ),
    Kind.VOID_REQUESTED: gettext_lazy(
        "%(dealer)s declared an irregularity in round %(round)s (%(reason)s): a supervisor "
        "approves or refuses the void."
    ),
    Kind.TABLE_IDLE: gettext_lazy(
        "Open, with no round played since %(since)s (alert after %(minutes)s minutes)."
    ),
    Kind.DEALER_OVERDUE: gettext_lazy(
        "%(dealer)s was due for relief at %(due)s and has not been relieved."
    ),
    Kind.DISPLAY_LINK_LOST: gettext_lazy(
        "The display of %(bank)s has had no live link since %(since)s."
    ),
    Kind.RECONCILIATION: gettext_lazy(
        "%(field)s: %(ledger)s by the ledger, %(cached)s on the bank. A manager resolves it."
    ),
    Kind.PIN_LOCKED: gettext_lazy(
        "Locked after too many wrong PINs, until %(until)s (a supervisor can unlock it)."
    ),
    Kind.SIGNIN_THROTTLED: gettext_lazy(
        "%(attempts)s sign-in attempts from %(source)s: someone may be guessing."
    ),
    Kind.MANY_VOIDS: gettext_lazy(
        "%(count)s rounds voided this shift (%(shift)s, %(gaming_date)s); alert from %(limit)s."
    ),
    Kind.VARIANCE: gettext_lazy(
        "Gaming day %(gaming_date)s: counted win %(counted)s, computed win %(computed)s, a "
        "variance of %(variance)s (alert beyond %(threshold)s): look for a mispay, a missing "
        "fill or credit slip, or chips gone from the tray."
    ),
    Kind.EXCLUDED_PLAYER: gettext_lazy(
        "%(staff)s tried to rate %(alias)s at seat %(seat)s, who is %(status)s: the rating was "
        "refused. Ask them to leave the game."
    ),
    Kind.AML_IDENTITY: gettext_lazy(
        "%(alias)s has brought %(amount)s in cash on gaming day %(gaming_date)s, above "
        "%(threshold)s, and no identity is on file: compliance records it before play goes on."
    ),
    Kind.GHOST_RATING: gettext_lazy(
        "%(alias)s is rated at seat %(seat)s but the seat placed no wager in the last "
        "%(rounds)s rounds (rating opened by %(staff)s): check that the player is there."
    ),
    Kind.REPEATED_RATINGS: gettext_lazy(
        "%(staff)s opened or corrected %(count)s ratings of %(alias)s in %(days)s days (alert "
        "from %(limit)s): surveillance checks the player was there."
    ),
    Kind.RATING_TIME_EDITED: gettext_lazy(
        "%(staff)s changed the %(field)s of %(alias)s’s rating at seat %(seat)s from %(before)s "
        "to %(after)s: %(reason)s"
    ),
    Kind.CHIPS_GAP: gettext_lazy(
        "%(alias)s, seat %(seat)s: walk-with less buy-ins says %(estimated)s, the rounds "
        "measured %(measured)s, a gap of %(gap)s (alert from %(threshold)s)."
    ),
}

# A rating's time, as a time-edited alert words it.
RATING_TIMES = {
    "opened_at": gettext_lazy("opening time"),
    "closed_at": gettext_lazy("closing time"),
}

# A player's status, as an excluded-player alert words it.
EXCLUSIONS = {"barred": gettext_lazy("barred"), "self_excluded": gettext_lazy("self-excluded")}

# The bank's totals a reconciliation compares (jackpot.services.readings), in words.
RECONCILED = {
    "meter_cents": gettext_lazy("Meter"),
    "reserve_cents": gettext_lazy("Reserve"),
    "overflow_cents": gettext_lazy("Above the cap"),
    "wagered_cents": gettext_lazy("Progressive wagers"),
    "paid_total_cents": gettext_lazy("Paid out in hits"),
    "house_funded_cents": gettext_lazy("Funded by the house"),
    "contributions_count": gettext_lazy("Contributions"),
    "hits_count": gettext_lazy("Hits"),
    "ledger_seq": gettext_lazy("Ledger entries"),
    "ledger_entries": gettext_lazy("Ledger entries"),
    "meter_carry_ppm": gettext_lazy("Meter carry (millionths of a cent)"),
    "reserve_carry_ppm": gettext_lazy("Reserve carry (millionths of a cent)"),
}


def _amount(cents) -> str:
    return money(cents) if isinstance(cents, int) and not isinstance(cents, bool) else "?"


def _word(key: str, fallback: str) -> str:
    word = WORDS.get(key)
    return str(word) if word is not None else fallback


def _worded_params(alert: Alert, zone) -> dict:
    """The alert's params as its sentences show them."""
    p = dict(alert.params)
    words = {k: ("" if v is None else v) for k, v in p.items()}
    words.setdefault("table", alert.table.name if alert.table else "")
    for name in (
        "amount",
        "winnings",
        "threshold",
        "counted",
        "computed",
        "variance",
        "estimated",
        "measured",
        "gap",
    ):
        if f"{name}_cents" in p:
            words[name] = _amount(p[f"{name}_cents"])
    for name in ("since", "due", "until", "before", "after"):
        if p.get(name):
            words[name] = _instant(p[name], zone)
    if p.get("bank_en") and (get_language() or "").startswith("en"):
        words["bank"] = p["bank_en"]  # the bank's name in the reader's language
    if "hand" in p:
        words["hand"] = _word(f"cat.{p['hand']}", p["hand"])
    if "reason" in p:
        words["reason"] = _word(f"irr.{p['reason']}", p["reason"] or "?")
    if "field" in p and alert.kind == Kind.RATING_TIME_EDITED:
        words["field"] = str(RATING_TIMES.get(p["field"], p["field"]))
    if "status" in p:
        words["status"] = str(EXCLUSIONS.get(p["status"], p["status"]))
    if "shift" in p:
        try:
            words["shift"] = str(Shift.Code(p["shift"]).label)
        except ValueError:
            words["shift"] = p["shift"]
    if "field" in p and alert.kind != Kind.RATING_TIME_EDITED:
        field = p["field"]
        words["field"] = str(RECONCILED.get(field, field))
        if field.endswith("_cents"):
            words["ledger"], words["cached"] = _amount(p.get("ledger")), _amount(p.get("cached"))
    return words


# The identity alert raised by a player's winnings (France: per séance), not their cash.
AML_WINNINGS_DETAIL = gettext_lazy(
    "%(alias)s has won %(winnings)s on gaming day %(gaming_date)s (measured from the rounds "
    "of their ratings), above %(threshold)s, and no identity is on file: compliance records "
    "it before the winnings are paid out."
)


def _detail_of(alert: Alert):
    if alert.kind == Kind.AML_IDENTITY and alert.params.get("by") == "winnings":
        return AML_WINNINGS_DETAIL
    return DETAILS[Kind(alert.kind)]


class _Lenient(dict):
    def __missing__(self, key):  # an older alert's params may lack a newer word
        return "?"


def _sentence(template, words: dict) -> str:
    return str(template) % _Lenient(words)


def alert_json(alert: Alert, *, zone=None) -> dict:
    """The alert as the pit shows it, worded in the current language."""
    zone = _zone(zone)
    words = _worded_params(alert, zone)
    return {
        "id": alert.pk,
        "kind": alert.kind,
        "severity": alert.severity,
        "title": _sentence(TITLES[Kind(alert.kind)], words),
        "detail": _sentence(_detail_of(alert), words),
        "table_id": alert.table_id,
        "table_name": alert.table.name if alert.table else None,
        "raised_at": alert.raised_at.isoformat(),
        "raised_at_local": _local(alert.raised_at, zone),
        "acknowledged": alert.acknowledged,
        "acknowledged_by": str(alert.acknowledged_by) if alert.acknowledged_by else None,
        "acknowledged_at_local": _local(alert.acknowledged_at, zone),
        "note": alert.note,
    }


PROCESS_TITLES = {
    "worker": gettext_lazy("The task worker (Celery worker) is silent"),
    "beat": gettext_lazy("The task scheduler (Celery beat) is silent"),
    "cache": gettext_lazy("The task worker and scheduler cannot be checked"),
}


def process_alerts_json() -> list[dict]:
    """The background processes not heard from (casino.heartbeat), as the pit shows them
    above its alerts. Read on each showing, never stored: the process that would store an
    alert may be the one that is dead; each clears itself when its heartbeat comes back."""
    silent = heartbeat.silent_processes()
    zone = _zone() if silent else None
    shown = []
    for process in silent:
        seen = process["seen"]
        if process["process"] == "cache":
            detail = _("Redis does not answer: pit alerts, meter readings and tasks wait.")
        elif seen is None:
            detail = _(
                "Not heard from since the cache started: pit alerts and meter readings may "
                "wait. It is restarted automatically; if this stays, call the operator."
            )
        else:
            detail = _(
                "Last heard from at %(time)s: pit alerts and meter readings wait. It is "
                "restarted automatically; if this stays, call the operator."
            ) % {"time": _local(dt.datetime.fromtimestamp(seen, dt.UTC), zone)}
        shown.append(
            {
                "kind": f"process_silent:{process['process']}",
                "severity": Severity.CRITICAL,
                "title": str(PROCESS_TITLES[process["process"]]),
                "detail": detail,
            }
        )
    return shown


def alerts_json(alerts: list[Alert]) -> list[dict]:
    """Several alerts worded at once (one property read for all)."""
    zone = _zone()
    return [alert_json(alert, zone=zone) for alert in alerts]


def alert_for_pit(alert_id) -> dict | None:
    """What the pit's socket sends when an alert is announced; None when there is none."""
    try:
        alert = _alerts().filter(pk=alert_id).first()
    except (TypeError, ValueError):
        return None
    return None if alert is None else alert_json(alert)


# --- raising from what happened (tables/pit/receivers.py) ----------------------------------


def _round(round_id) -> Round | None:
    return Round.objects.select_related("table", "dealer").filter(pk=round_id).first()


def big_wins_raise(*, round_id: int) -> list[Alert]:
    """Each seat of the round whose win reaches the table's threshold. The seat's win is the
    sum of its settlement lines paid by the house (corrections included); a percentage-tier
    progressive win is paid by the meter and has its own alert."""
    round_ = Round.objects.select_related("table__alert_threshold").filter(pk=round_id).first()
    if round_ is None:
        return []
    threshold = big_win_threshold(round_.table)
    nets = (
        SettlementLine.objects.filter(round=round_, paid_from=SettlementLine.PaidFrom.HOUSE)
        .values("seat")
        .annotate(net=Sum("net_cents"))
        .order_by("seat")
    )
    raised = []
    for row in nets:
        if row["net"] >= threshold:
            raised.append(
                alert_raise(
                    kind=Kind.BIG_WIN,
                    key=f"big_win:{round_.pk}:{row['seat']}",
                    table=round_.table,
                    subject=round_,
                    params={
                        "table": round_.table.name,
                        "round": round_.number,
                        "seat": row["seat"],
                        "amount_cents": row["net"],
                        "threshold_cents": threshold,
                    },
                )
            )
    return raised


def hit_alert_raise(*, hit_id: int) -> Alert | None:
    from jackpot.models import Hit

    hit = Hit.objects.select_related("bank").filter(pk=hit_id).first()
    if hit is None:
        return None
    table = Table.objects.filter(name=hit.table_label).first()
    return alert_raise(
        kind=Kind.PROGRESSIVE_HIT,
        key=f"progressive_hit:{hit.pk}",
        table=table,
        subject=hit,
        params={
            "table": hit.table_label,
            "seat": hit.seat,
            "hand": hit.level,
            "amount_cents": hit.amount_cents,
            "bank": hit.bank.name,
            "bank_en": hit.bank.name_in("en"),
        },
    )


def void_request_alert_raise(*, round_id: int) -> Alert | None:
    """The dealer declared an irregularity that voids the round: it waits for a supervisor.
    One alert per declaration (a refused void and a second declaration raise again)."""
    round_ = _round(round_id)
    if round_ is None:
        return None
    declared = (
        RoundEvent.objects.filter(round=round_, kind="irregularity_declared")
        .select_related("actor")
        .order_by("-seq")
        .first()
    )
    if declared is None:
        return None
    return alert_raise(
        kind=Kind.VOID_REQUESTED,
        key=f"void_requested:{round_.pk}:{declared.seq}",
        table=round_.table,
        subject=round_,
        params={
            "table": round_.table.name,
            "round": round_.number,
            "dealer": str(declared.actor),
            "reason": (round_.state or {}).get("pending_void") or declared.data.get("irregularity"),
        },
    )


def variance_alert_raise(*, table_id: int, gaming_date: dt.date) -> Alert | None:
    """The table's counted win of the day (drop, tray counts, slips) against the win the
    engine settled: beyond the accounting's threshold, a mispay, a missing slip or chips
    walking away. One alert per table and gaming day; None while the drop is not counted or
    the variance is within the threshold."""
    from tables.accounting.reports import variance_alert_cents
    from tables.accounting.selectors import table_variances

    row = next((r for r in table_variances(gaming_date) if r.key == table_id), None)
    if row is None or not row.alert:
        return None
    return alert_raise(
        kind=Kind.VARIANCE,
        key=f"variance:{table_id}:{gaming_date.isoformat()}",
        table=Table.objects.get(pk=table_id),
        params={
            "gaming_date": gaming_date.isoformat(),
            "counted_cents": row.counted_win,
            "computed_cents": row.computed_win,
            "variance_cents": row.variance,
            "threshold_cents": variance_alert_cents(),
        },
    )


def many_voids_raise(*, round_id: int) -> Alert | None:
    """After an approved void: the round's dealer's voided rounds this shift, from the
    property's threshold on."""
    round_ = _round(round_id)
    if round_ is None or round_.stage != Round.Stage.VOID:
        return None
    limit = alert_settings().voids_per_dealer_shift
    count = Round.objects.filter(
        dealer=round_.dealer,
        gaming_date=round_.gaming_date,
        shift=round_.shift,
        stage=Round.Stage.VOID,
    ).count()
    if count < limit:
        return None
    return alert_raise(
        kind=Kind.MANY_VOIDS,
        key=f"many_voids:{round_.dealer_id}:{round_.gaming_date}:{round_.shift}",
        table=round_.table,
        subject=round_.dealer,
        params={
            "dealer": str(round_.dealer),
            "count": count,
            "limit": limit,
            "shift": round_.shift,
            "gaming_date": round_.gaming_date.isoformat(),
        },
    )


def reconciliation_alert_raise(*, alert_id: int) -> Alert | None:
    from jackpot.models import ReconciliationAlert

    found = ReconciliationAlert.objects.select_related("bank").filter(pk=alert_id).first()
    if found is None:
        return None
    return alert_raise(
        kind=Kind.RECONCILIATION,
        key=f"reconciliation:{found.pk}",
        subject=found,
        params={
            "bank": found.bank.name,
            "bank_en": found.bank.name_in("en"),
            "field": found.field,
            "ledger": found.ledger_value,
            "cached": found.cached_value,
        },
    )


def pin_locked_raise(*, staff_id: int) -> Alert | None:
    staff = Staff.objects.filter(pk=staff_id).first()
    if staff is None:
        return None
    until = staff.pin_locked_until.isoformat() if staff.pin_locked_until else None
    return alert_raise(
        kind=Kind.PIN_LOCKED,
        key=f"pin_locked:{staff.pk}",
        subject=staff,
        params={"name": str(staff), "until": until},
    )


def signin_throttled_raise(*, source: str, attempts: int) -> Alert:
    source = str(source)[:100]
    return alert_raise(
        kind=Kind.SIGNIN_THROTTLED,
        key=f"signin_throttled:{source}",
        params={"source": source, "attempts": attempts},
    )


def display_link_lost_raise(*, token_id: int) -> Alert | None:
    from jackpot.models import DisplayToken

    token = DisplayToken.objects.select_related("bank").filter(pk=token_id).first()
    if token is None:
        return None
    since = token.last_seen_at.isoformat() if token.last_seen_at else None
    return alert_raise(
        kind=Kind.DISPLAY_LINK_LOST,
        key=f"display_link_lost:{token.pk}",
        subject=token,
        params={
            "display": token.name,
            "bank": token.bank.name,
            "bank_en": token.bank.name_in("en"),
            "since": since,
        },
    )


# --- periodic checks (tables/pit/tasks.py) -------------------------------------------------


def _raise_once_each(conditions: list[dict]) -> list[Alert]:
    """The alert of each condition a check found: the one already raised (open or
    acknowledged: it stays quiet), read for all in one query, else raised now. A floor that
    stays idle costs the beat one query, not one per table."""
    seen: dict[str, Alert] = {}
    keys = [condition["key"] for condition in conditions]
    for alert in Alert.objects.filter(key__in=keys).order_by("raised_at", "pk"):
        alert.is_new = False
        seen[alert.key] = alert  # the latest of a key
    return [seen.get(c["key"]) or alert_raise(**c, once=True) for c in conditions]


def tables_idle_check(*, at: dt.datetime | None = None, thresholds=None) -> list[Alert]:
    """Open tables where nothing happened for more than the idle minutes: no round event
    (an opening counts) since the table opened or its last round moved."""
    at = at or timezone.now()
    thresholds = thresholds or alert_settings()
    cutoff = at - dt.timedelta(minutes=thresholds.idle_minutes)
    latest_round = Round.objects.filter(table=OuterRef("pk")).order_by("-opened_at", "-pk")
    # The latest round's last event (one index probe each): OuterRef(OuterRef) reaches the
    # table from inside the event's subquery.
    round_of_event = Round.objects.filter(table=OuterRef(OuterRef("pk"))).order_by(
        "-opened_at", "-pk"
    )
    latest_event = RoundEvent.objects.filter(
        round_id=Subquery(round_of_event.values("pk")[:1])
    ).order_by("-seq")
    tables = Table.objects.filter(status=Table.Status.OPEN).annotate(
        round_opened_at=Subquery(latest_round.values("opened_at")[:1]),
        event_at=Subquery(latest_event.values("at")[:1]),
    )
    found = []
    for table in tables:
        moments = [t for t in (table.status_changed_at, table.round_opened_at, table.event_at) if t]
        if not moments:
            continue
        since = max(moments)
        if since > cutoff:
            continue
        found.append(
            {
                "kind": Kind.TABLE_IDLE,
                "key": f"table_idle:{table.pk}:{since.isoformat()}",
                "table": table,
                "params": {
                    "table": table.name,
                    "since": since.isoformat(),
                    "minutes": thresholds.idle_minutes,
                },
            }
        )
    return _raise_once_each(found)


def dealers_overdue_check(*, at: dt.datetime | None = None, thresholds=None) -> list[Alert]:
    """Open tables whose dealer is past their rotation time by more than the grace minutes.
    The rotation time is the assignment's planned end (`ends_at`), else its start plus the
    rotation minutes. A planned end that passed with no dealer taking over counts too: the
    table is open and its relief never came."""
    at = at or timezone.now()
    thresholds = thresholds or alert_settings()
    grace = dt.timedelta(minutes=thresholds.minutes_past_rotation)
    every = dt.timedelta(minutes=thresholds.rotation_minutes)
    open_tables = Table.objects.filter(status=Table.Status.OPEN)
    latest = (
        DealerAssignment.objects.filter(table=OuterRef("table"), starts_at__lte=at)
        .order_by("-starts_at", "-pk")
        .values("pk")[:1]
    )
    assignments = (
        DealerAssignment.objects.filter(table__in=open_tables, starts_at__lte=at)
        .filter(pk=Subquery(latest))
        .select_related("table", "dealer")
    )
    found = []
    for assignment in assignments:
        due = assignment.ends_at or assignment.starts_at + every
        if at < due + grace:
            continue
        found.append(
            {
                "kind": Kind.DEALER_OVERDUE,
                "key": f"dealer_overdue:{assignment.pk}",
                "table": assignment.table,
                "subject": assignment,
                "params": {
                    "table": assignment.table.name,
                    "dealer": str(assignment.dealer),
                    "due": due.isoformat(),
                },
            }
        )
    return _raise_once_each(found)


def alerts_check(*, at: dt.datetime | None = None) -> list[Alert]:
    """Every periodic check once (the Celery beat runs it every 30 s)."""
    at = at or timezone.now()
    thresholds = alert_settings()
    return [
        *tables_idle_check(at=at, thresholds=thresholds),
        *dealers_overdue_check(at=at, thresholds=thresholds),
    ]


def excluded_player_alert_raise(*, player_id: int, table_id: int, seat: int, staff_id: int):
    """A barred or self-excluded player was refused a rating: the pit is told (one open alert
    per player and table)."""
    from tables.ratings.models import Player

    player = Player.objects.filter(pk=player_id).first()
    table = Table.objects.filter(pk=table_id).first()
    if player is None:
        return None
    staff = Staff.objects.filter(pk=staff_id).first()
    return alert_raise(
        kind=Kind.EXCLUDED_PLAYER,
        key=f"excluded_player:{player_id}:{table_id}",
        table=table,
        params={
            "alias": player.alias,
            "status": player.status,
            "seat": seat,
            "staff": str(staff) if staff else "",
        },
        subject=player,
    )


def aml_winnings_raise(*, round_id: int) -> list[Alert]:
    """After a round is settled or corrected: each rated player it counts for whose winnings
    over the gaming day may now cross the identity threshold (France)."""
    from tables.ratings.aml_log import rated_in_round

    raised = []
    for player_id, table_id, at in rated_in_round(round_id):
        alert = aml_identity_alert_raise(player_id=player_id, table_id=table_id, at=at)
        if alert is not None:
            raised.append(alert)
    return raised


def aml_identity_alert_raise(*, player_id: int, table_id: int, at: dt.datetime):
    """A cash buy-in, or a round won (France: winnings per séance), took a player over an
    anti-money-laundering threshold that needs their identity, and none is on file: the pit is
    told (one open alert per player and gaming day). Acknowledging it needs a note, like any
    alert."""
    from tables.ratings.aml_log import player_day_check

    check = player_day_check(player_id=player_id, at=at)
    if check is None or not check.day.identity_missing:
        return None
    player, day = check.player, check.day
    return alert_raise(
        kind=Kind.AML_IDENTITY,
        key=f"aml_identity:{player_id}:{day.gaming_date.isoformat()}",
        table=Table.objects.filter(pk=table_id).first(),
        params={
            "alias": player.alias,
            "gaming_date": day.gaming_date.isoformat(),
            "amount_cents": day.cash_in_cents,
            "winnings_cents": day.winnings_cents,
            "threshold_cents": check.threshold_cents,
            "crossed": list(day.crossed),
            # What took the player over: their winnings when the cash alone did not.
            "by": "cash" if day.cash_in_cents > (check.threshold_cents or 0) else "winnings",
        },
        subject=player,
    )


# --- the ratings' fraud signals (tables.ratings.signals) -----------------------------------


def _rating_params(rating) -> dict:
    return {
        "table": rating.table.name,
        "alias": rating.player.alias,
        "seat": rating.seat,
        "rating": rating.pk,
    }


def ghost_ratings_raise(*, round_id: int) -> list[Alert]:
    """After a round settles: the table's ratings open over a seat that placed no wager in
    its last N rounds. One alert per rating (once acknowledged it stays quiet)."""
    from tables.ratings.signals import ghost_ratings

    raised = []
    for found in ghost_ratings(round_id=round_id):
        rating = found["rating"]
        opener = Staff.objects.filter(pk=rating.opened_by_id).first()
        raised.append(
            alert_raise(
                kind=Kind.GHOST_RATING,
                key=f"ghost_rating:{rating.pk}",
                table=rating.table,
                subject=rating,
                params={
                    **_rating_params(rating),
                    "rounds": found["rounds"],
                    "staff": str(opener) if opener else "",
                },
                once=True,
            )
        )
    return raised


def repeated_ratings_raise(*, rating_id: int, staff_id: int) -> Alert | None:
    """After a supervisor opens, moves or corrects a rating: K of them for one player in D
    days. One open alert per supervisor and player."""
    from tables.ratings.signals import repeated_ratings

    found = repeated_ratings(rating_id=rating_id, staff_id=staff_id)
    if found is None:
        return None
    rating, staff = found["rating"], Staff.objects.filter(pk=staff_id).first()
    return alert_raise(
        kind=Kind.REPEATED_RATINGS,
        key=f"repeated_ratings:{staff_id}:{rating.player_id}",
        table=rating.table,
        subject=rating.player,
        params={
            "alias": rating.player.alias,
            "staff": str(staff) if staff else "",
            "count": found["count"],
            "limit": found["limit"],
            "days": found["days"],
        },
    )


def rating_time_edited_raise(*, correction_id: int) -> Alert | None:
    """A rating's open or close time was corrected: surveillance sees every one."""
    from tables.ratings.signals import time_corrected

    correction = time_corrected(correction_id=correction_id)
    if correction is None:
        return None
    rating = correction.rating
    return alert_raise(
        kind=Kind.RATING_TIME_EDITED,
        key=f"rating_time_edited:{correction.pk}",
        table=rating.table,
        subject=rating,
        params={
            **_rating_params(rating),
            "staff": str(correction.by),
            "field": correction.field,
            "before": correction.before.isoformat(),
            "after": correction.after.isoformat(),
            "reason": correction.reason,
        },
    )


def chips_gap_raise(*, rating_id: int) -> Alert | None:
    """At a close with the walk-with: the chips-estimated result far from the measured one."""
    from tables.ratings.signals import chips_gap

    found = chips_gap(rating_id=rating_id)
    if found is None:
        return None
    rating = found["rating"]
    return alert_raise(
        kind=Kind.CHIPS_GAP,
        key=f"chips_gap:{rating.pk}",
        table=rating.table,
        subject=rating,
        params={
            **_rating_params(rating),
            "estimated_cents": found["estimated_cents"],
            "measured_cents": found["measured_cents"],
            "gap_cents": found["gap_cents"],
            "threshold_cents": found["threshold_cents"],
        },
    )
