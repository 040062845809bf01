"""A round at the table, event by event, to its confirmed settlement (spec/round-api.md).

Every step: check the key (a retried write answers as the first time), the person (the
dealer assigned to the table now; a supervisor's PIN for approvals), lock the round row,
check `expected_seq`, let the engine apply the event to the replayed state (a refusal writes
nothing), append the event, cache the new state on the round, audit the significant steps,
and tell the table's live channel after commit.

Lock order, everywhere: the table row (opening), then the round row, then the progressive
bank (bank_lock_and_post, hit_record), then the audit chain: a bank is always
locked before this transaction audits anything.
"""

import hashlib
import hmac
import json
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit, audit_many
from casino.clock import stamp
from casino.duties import require_independent
from casino.errors import TwoPeopleRequired
from casino.live import after_commit
from casino.models import Staff
from casino.pins import Approval, pin_approve
from casino.roles import Role, has_role
from jackpot import services as jackpot
from jackpot.errors import BankClosed
from jackpot.models import Bank
from tables import events, live
from tables.engine_text import engine_field, engine_message
from tables.errors import (
    IllegalTransition,
    KeyReused,
    NotFound,
    NotThisDealersTable,
    RoundOpen,
    RoundRefused,
    StaleRound,
)
from tables.models import (
    IdempotentWrite,
    Round,
    RoundEvent,
    SettlementLine,
    Table,
)
from tables.rules.errors import RulesError
from tables.rules.export import settlement_input_json
from tables.rules.machine import (
    RoundState,
    Stage,
    apply,
    event_from_json,
    event_to_json,
    new_round,
    replay,
    settlement_input,
)
from tables.rules.ruleset import RuleSet, parse_rules
from tables.rules.settle import Meter, settle, settle_json
from tables.selectors import current_dealer
from tables.services import round_reads, round_writes
from tables.services._base import require_role
from tables.services.configuration import ruleset_mark_used
from tables.snapshots import round_snapshot

KEY_MAX = 64
APPROVALS = ("void_approved", "void_refused")
# A contribution and a hit name their round by this reference (unique per bank, forever).
BETS = ("ante", "blind", "play", "trips", "progressive", "envy")


@dataclass(frozen=True)
class Written:
    """What a write answers: the HTTP status and body, the same again for a retried key."""

    status: int
    body: dict
    replayed: bool = False

    @property
    def round_id(self) -> int:
        return self.body["id"]


def round_reference(round_id: int) -> str:
    return f"round-{round_id}"


# --- keys ----------------------------------------------------------------------------------


def _check_key(key) -> str:
    # A NUL byte reaches here from a form (the pit's void): PostgreSQL's text refuses it.
    if not isinstance(key, str) or not 1 <= len(key) <= KEY_MAX or "\x00" in key:
        raise RoundRefused(
            _("Every write needs a key of 1 to %(max)s characters, without a NUL byte.")
            % {"max": KEY_MAX},
            code="bad_key",
            field="key",
        )
    return key


def fingerprint(body: dict, *, secret: str | None = None) -> str:
    """The request body's digest, keyed with the server's secret: a PIN inside the body
    cannot be recovered from it."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    secret = settings.SECRET_KEY if secret is None else secret
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()


def _remembered(scope: str, key: str, body: dict) -> Written | None:
    kept = round_reads.write_kept(scope, key)
    if kept is None:
        return None
    body_hash, status, response = kept
    # A retry after the secret key was rotated still matches (SECRET_KEY_FALLBACKS).
    secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    if not any(hmac.compare_digest(body_hash, fingerprint(body, secret=s)) for s in secrets):
        raise KeyReused(_("This key was already used for another request: use a new key."))
    return Written(status, response, replayed=True)


def _kept(scope: str, key: str, body: dict, written: Written, staff: Staff) -> IdempotentWrite:
    """The answer to keep under the key (not saved yet)."""
    return IdempotentWrite(
        scope=scope,
        key=key,
        body_hash=fingerprint(body),
        status=written.status,
        response=written.body,
        staff=staff,
        at=timezone.now(),
    )


def _remember(scope: str, key: str, body: dict, written: Written, staff: Staff) -> Written:
    _kept(scope, key, body, written, staff).save()
    return written


# --- people --------------------------------------------------------------------------------


def _not_the_dealer(table: Table) -> NotThisDealersTable:
    return NotThisDealersTable(
        _("Only the dealer assigned to %(table)s now can do this.") % {"table": table}
    )


def _require_a_dealer(staff: Staff) -> None:
    """Checked before a kept answer is replayed (issue 23, 7): a key reused by someone who
    could not make the write tells them nothing. Whether they deal this table is checked
    after, under the lock."""
    if not has_role(staff, Role.DEALER):
        raise NotThisDealersTable(_("Only the dealer assigned to the table now can do this."))


def _require_table_dealer(staff: Staff, table: Table) -> None:
    dealing = current_dealer(table)
    if dealing is None or dealing.pk != staff.pk:
        raise _not_the_dealer(table)


def _require_round_dealer(staff: Staff, round_: Round) -> None:
    """The same for a round read by `_round_read`, which knows who deals it now."""
    if round_.dealing_id is None or round_.dealing_id != staff.pk:
        raise _not_the_dealer(round_.table)  # the table read only to name it


def _approver(credentials, *, round_: Round, actor: Staff, action: str) -> Approval:
    """The supervisor whose PIN came with the request: never the round's dealer, never the
    person at the tablet who asks, nor anyone not independent of them (casino.duties).
    `round_`: as `_round_read` reads it, with who deals its table now. The approval's audit
    entry (`Approval.entry`) is the caller's to write, with its own."""
    if not isinstance(credentials, dict) or not credentials.get("employee_number"):
        raise RoundRefused(
            _("A supervisor's employee number and PIN are needed for this."),
            code="supervisor_required",
            field="supervisor",
        )
    approval = pin_approve(
        employee_number=str(credentials.get("employee_number", "")),
        pin=str(credentials.get("pin", "")),
        role=Role.SUPERVISOR,
    )
    supervisor = approval.staff
    askers = {round_.dealer_id: round_.dealer}
    if not has_role(actor, Role.SUPERVISOR):
        askers[actor.pk] = actor  # the dealer at the tablet asks; someone else approves
    for person in _round_hands(round_, known=askers):
        askers[person.pk] = person
    for asker in askers.values():
        try:
            require_independent(
                approver=supervisor, asker=asker, action=action, subject=round_, by_pin=True
            )
        except TwoPeopleRequired as exc:
            if supervisor.pk == asker.pk:
                raise RoundRefused(
                    _("%(name)s deals this round and cannot approve it: call another supervisor.")
                    % {"name": supervisor},
                    code="supervisor_is_dealer",
                    field="supervisor",
                ) from exc
            raise RoundRefused(exc.message, code=exc.code, field="supervisor") from exc
    return approval


def _round_hands(round_: Round, *, known) -> list[Staff]:
    """Everyone else who had a hand in the round: the dealer at its table now, and whoever
    wrote one of its steps (dealt, declared an irregularity, confirmed), the approvals of a
    void left aside. A supervisor who rotated himself onto the table to declare and rotated
    back is one of them. One query."""
    dealt = RoundEvent.objects.filter(round_id=round_.pk).exclude(kind__in=APPROVALS)
    hands = Q(pk__in=dealt.values("actor_id"))
    if round_.dealing_id is not None:
        hands |= Q(pk=round_.dealing_id)
    return list(Staff.objects.filter(hands).exclude(pk__in=list(known)).order_by("pk"))


# --- the round and its replay --------------------------------------------------------------


def _round_read(round_id, *, lock: bool = True) -> Round:
    """The round locked, with `dealing_id`: who deals its table now (None for nobody).
    `lock=False`: read without the lock, for the checks made before an approval's
    transaction."""
    round_ = round_reads.round_locked(round_id, at=timezone.now(), lock=lock)
    if round_ is None:
        raise NotFound(_("There is no round #%(id)s.") % {"id": round_id})
    return round_


def _round_relock(probe: Round) -> Round:
    """`probe`, read by `_round_read(lock=False)` before an approval's PIN check, now locked.
    Read again only if a step was written meanwhile: every write to a round's row moves its
    seq (round_writes.step_write), so an unchanged seq means the probe is the row as locked."""
    if round_reads.round_seq_locked(probe.pk) == probe.seq:
        return probe
    return _round_read(probe.pk)


def rules_of(round_: Round) -> RuleSet:
    return parse_rules(round_.rules)


def state_of(round_: Round) -> RoundState:
    """The round's state as the engine computes it from the committed events.

    The last event's hash is kept on `round_` for the next event's link (RoundEvent.seal):
    the caller holds the round's lock, so it is still the last when that event is written.
    """
    events = round_reads.round_events(round_.pk)
    round_.last_event_hash = events[-1][1] if events else None
    return replay(rules_of(round_), [data for data, _hash in events], seats=round_.seat_numbers)


def refusal(exc: RulesError) -> RoundRefused:
    return RoundRefused(engine_message(exc), code=exc.code, field=engine_field(exc))


def _apply(state: RoundState, event) -> RoundState:
    try:
        return apply(state, event)
    except RulesError as exc:
        raise refusal(exc) from None


def _step(
    round_: Round,
    state: RoundState,
    event,
    *,
    actor,
    key,
    at,
    scope,
    request,
    supervisor=None,
    just_settled=False,
) -> Written:
    """Append the event, store the round's new state and keep the answer under the key (one
    statement on PostgreSQL: tables.services.round_writes)."""
    round_.seq += 1
    row = RoundEvent(
        round=round_,
        seq=round_.seq,
        kind=event.kind,
        data=event_to_json(event),
        key=key,
        actor=actor,
        supervisor=supervisor,
        at=at,
        # Read by state_of under this lock: no second query for the chain's link.
        prev_hash=getattr(round_, "last_event_hash", None) or "",
    )
    round_.state = state.to_json()
    round_.stage = state.stage.value
    written = Written(200, round_snapshot(round_, just_settled=just_settled))
    round_writes.step_write(round_, row, _kept(scope, key, request, written, actor))
    return written


def _check_seq(round_: Round, expected_seq) -> None:
    if not isinstance(expected_seq, int) or isinstance(expected_seq, bool) or expected_seq < 0:
        raise RoundRefused(
            _("expected_seq must be the round's seq as you last saw it (a whole number)."),
            code="bad_seq",
            field="expected_seq",
        )
    if expected_seq != round_.seq:
        raise StaleRound(
            _("Someone else changed this round first: here it is as it stands now."),
            round=round_snapshot(round_),
        )


# --- opening -------------------------------------------------------------------------------


# The table's rule set and its paytables, read with the table: the round pins its rules.
RULES_WITH_PAYTABLES = (
    "ruleset",
    "ruleset__blind_paytable",
    "ruleset__trips_paytable",
    "ruleset__progressive_paytable",
    "ruleset__envy_paytable",
)


def round_open(*, table_id: int, dealer: Staff, key: str) -> Written:
    """The dealer assigned to an open table opens its next round (one at a time)."""
    key = _check_key(key)
    _require_a_dealer(dealer)
    scope, request = f"table:{table_id}:open", {}
    with transaction.atomic():
        try:
            table = (
                Table.objects.select_for_update(of=("self",), no_key=True)
                .select_related(*RULES_WITH_PAYTABLES)
                .get(pk=table_id)
            )
        except (Table.DoesNotExist, ValueError, TypeError):
            raise NotFound(_("There is no table #%(id)s.") % {"id": table_id}) from None
        if (again := _remembered(scope, key, request)) is not None:
            return again
        _require_table_dealer(dealer, table)
        if not table.is_open:
            raise IllegalTransition(
                _("%(table)s is closed: a supervisor opens it first.") % {"table": table},
                code="table_closed",
            )
        running = Round.objects.filter(table=table).exclude(stage__in=Round.FINISHED).first()
        if running is not None:
            raise RoundOpen(
                _("Round %(number)s is still in progress at %(table)s.")
                % {"number": running.number, "table": table},
                round=round_snapshot(running),
            )
        if table.ruleset.used_at is None:  # once set it stays: nothing to lock after that
            ruleset_mark_used(ruleset_id=table.ruleset_id)
        rules = parse_rules(table.ruleset.engine_rules())
        at = timezone.now()
        gaming_date, shift = stamp(at)
        last = Round.objects.filter(table=table, gaming_date=gaming_date).aggregate(
            top=Max("number")
        )["top"]
        seats = list(range(1, table.seats + 1))
        round_ = Round.objects.create(
            table=table,
            number=(last or 0) + 1,
            gaming_date=gaming_date,
            shift=shift,
            ruleset=table.ruleset,
            rules=rules.to_json(),
            seat_numbers=seats,
            bank_id=table.bank_id,
            dealer=dealer,
            state=new_round(rules, seats=seats).to_json(),
            opened_at=at,
        )
        written = _remember(scope, key, request, Written(201, round_snapshot(round_)), dealer)
        audit(
            actor=dealer,
            code="tables.round.opened",
            subject=round_,
            data={
                "table": table.pk,
                "number": round_.number,
                "gaming_date": gaming_date,
                "ruleset": table.ruleset_id,
                "bank": table.bank_id,
            },
        )
        live.announce_round(written.body)
    return written


# --- one step ------------------------------------------------------------------------------


def round_event_record(
    *, round_id: int, actor: Staff, key: str, expected_seq, event, supervisor=None
) -> Written:
    """One step of the round (spec/round-api.md, "Events"). `supervisor` holds the employee
    number and PIN that approvals need."""
    key = _check_key(key)
    if not isinstance(event, dict):
        raise RoundRefused(
            _("The event must be an object with its kind."), code="bad_event", field="event"
        )
    kind = event.get("kind")
    if kind == "settlement_confirmed":
        return round_settle(round_id=round_id, dealer=actor, key=key, expected_seq=expected_seq)
    if kind in APPROVALS:
        return round_void(
            round_id=round_id,
            actor=actor,
            key=key,
            expected_seq=expected_seq,
            approved=kind == "void_approved",
            supervisor=supervisor,
        )
    _require_a_dealer(actor)
    scope = f"round:{round_id}:events"
    request = {"expected_seq": expected_seq, "event": event}
    try:
        parsed = event_from_json(event)
    except RulesError as exc:
        raise refusal(exc) from None
    with transaction.atomic():
        round_ = _round_read(round_id)
        if (again := _remembered(scope, key, request)) is not None:
            return again
        _require_round_dealer(actor, round_)
        _check_seq(round_, expected_seq)
        before = state_of(round_)
        state = _apply(before, parsed)
        if parsed.kind == "wagers_placed":
            _check_limits(round_, parsed)
        if parsed.kind == "bets_locked":
            _contribute(round_, state, actor=actor)  # no lock taken; before any audit
        at = timezone.now()
        written = _step(
            round_, state, parsed, actor=actor, key=key, at=at, scope=scope, request=request
        )
        if parsed.kind == "bets_locked":
            audit(
                actor=actor,
                code="tables.round.bets_locked",
                subject=round_,
                data={"seats": [s.seat for s in state.seats], "seq": round_.seq},
            )
        elif parsed.kind == "irregularity_declared" and state.pending_void is not None:
            audit(
                actor=actor,
                code="tables.round.void_declared",
                subject=round_,
                data={"reason": state.pending_void.value, "seq": round_.seq},
            )
            after_commit(lambda: events.void_requested.send(sender=Round, round_id=round_.pk))
        live.announce_round(written.body)
    return written


def _check_limits(round_: Round, wagers) -> None:
    """The table's limits (the engine knows the game, not the table's minimums)."""
    table = round_.table
    low, high = table.min_bet_cents, table.max_bet_cents
    if not low <= wagers.ante <= high:
        raise RoundRefused(
            _("Seat %(seat)s: the Ante must be between the table's limits, %(low)s and %(high)s.")
            % {"seat": wagers.seat, "low": _money(low), "high": _money(high)},
            code="ante_outside_limits",
            field="ante",
        )
    low, high = table.trips_limits
    if wagers.trips and not low <= wagers.trips <= high:
        raise RoundRefused(
            _("Seat %(seat)s: Trips must be between %(low)s and %(high)s at this table.")
            % {"seat": wagers.seat, "low": _money(low), "high": _money(high)},
            code="trips_outside_limits",
            field="trips",
        )
    if wagers.progressive:
        if round_.bank_id is None:
            raise RoundRefused(
                _("This table has no progressive jackpot."),
                code="no_progressive",
                field="progressive",
            )
        status = Bank.objects.filter(pk=round_.bank_id).values_list("status", flat=True).first()
        if status != Bank.Status.OPEN:
            raise RoundRefused(
                _("The progressive jackpot is closed: no progressive wager now."),
                code="bank_closed",
                field="progressive",
            )


def _money(cents: int) -> str:
    from casino.templatetags.money import money

    return money(cents)


def _contribute(round_: Round, state: RoundState, *, actor: Staff) -> None:
    """The round's progressive wagers go to the bank's queue in this transaction, keyed by
    the round: a retried lock counts once (jackpot.services.bank_contribute)."""
    wagers = [s.progressive for s in state.seats if s.progressive]
    if not wagers:
        return
    try:
        jackpot.bank_contribute(
            bank_id=round_.bank_id,
            reference=round_reference(round_.pk),
            wager_count=len(wagers),
            wager_cents=wagers[0],  # the one progressive wager (the engine allows no other)
            actor=actor,
        )
    except BankClosed:  # closed since the wagers were placed: refused like a new wager
        raise RoundRefused(
            _("The progressive jackpot is closed: no progressive wager now."),
            code="bank_closed",
            field="progressive",
        ) from None


# --- settlement ----------------------------------------------------------------------------


def _meter(bank: Bank | None) -> Meter | None:
    return None if bank is None else Meter(bank.meter_cents, bank.reset_cents)


def round_settle(*, round_id: int, dealer: Staff, key: str, expected_seq) -> Written:
    """The dealer confirms the payouts: the bank is locked and its meter read (queued
    contributions posted first), the engine settles with it, each percentage-tier hit is
    recorded (pending until a supervisor verifies it), and one line per seat and bet is
    written, all in one transaction."""
    key = _check_key(key)
    _require_a_dealer(dealer)
    scope = f"round:{round_id}:events"
    request = {"expected_seq": expected_seq, "event": {"kind": "settlement_confirmed"}}
    with transaction.atomic():
        round_ = _round_read(round_id)
        if (again := _remembered(scope, key, request)) is not None:
            return again
        _require_round_dealer(dealer, round_)
        _check_seq(round_, expected_seq)
        before = state_of(round_)
        event = event_from_json({"kind": "settlement_confirmed"})
        state = _apply(before, event)
        bank = None
        if any(s.progressive for s in state.seats):
            bank = jackpot.bank_lock_and_post(round_.bank_id)
        rules = rules_of(round_)
        settlement = settle(settlement_input(state, meter=_meter(bank)), rules)
        output = settlement.to_json()
        at = timezone.now()
        entries: list[dict] = []  # one batch for the chain: each hit, then the settlement
        hits = _record_hits(round_, output, dealer=dealer, audit_into=entries)
        _write_lines(round_, output, hits, at=at)
        round_.settlement = output
        round_.settlement_input = settlement_input_json(before, meter=_meter(bank))
        round_.settled_at = at
        written = _step(
            round_,
            state,
            event,
            actor=dealer,
            key=key,
            at=at,
            scope=scope,
            request=request,
            just_settled=True,
        )
        entries.append(
            {
                "actor": dealer,
                "code": "tables.round.settled",
                "subject": round_,
                "data": {
                    "nets": {str(s["seat"]): s["net"] for s in output["seats"]},
                    "hits": [h["hit"] for h in output["progressive"]["hits"]],
                    "meter_before_cents": output["progressive"]["meter_before_cents"],
                },
            }
        )
        audit_many(entries)
        live.announce_round(written.body)
        after_commit(lambda: events.round_settled.send(sender=Round, round_id=round_.pk))
    return written


def _record_hits(
    round_: Round, output: dict, *, dealer: Staff, audit_into: list
) -> dict[int, object]:
    """Each percentage-tier payout becomes a Hit, in the engine's seat order, each from the
    meter as it then stands; their audit entries are added to `audit_into`. Returns
    {seat: Hit}."""
    hits = {}
    paying = output["progressive"]["hits"]
    for number, paid in enumerate(paying, start=1):
        hit = jackpot.hit_record(
            bank_id=round_.bank_id,
            table_label=round_.table.name,
            seat=paid["seat"],
            level=paid["category"],
            amount_cents=paid["amount_cents"],
            actor=dealer,
            reference=round_reference(round_.pk),
            audit_into=audit_into,
            reseed=number == len(paying),  # the engine pays the next from the meter as it is
        )
        paid["hit"], paid["state"] = hit.pk, hit.state
        hits[paid["seat"]] = hit
    return hits


def _line_rows(output: dict) -> dict[tuple[int, str], tuple[int, int]]:
    """{(seat, bet): (stake, net)} of a settle.md output: every bet a seat made, its Envy
    when it collects any, and the amount withheld above the maximum payout."""
    rows = {}
    for seat in output["seats"]:
        for bet in BETS:
            result = seat["bets"][bet]
            stake = result.get("stake", 0)
            if stake or result["net"]:
                rows[(seat["seat"], bet)] = (stake, result["net"])
        if seat["capped_cents"]:
            rows[(seat["seat"], SettlementLine.Bet.CAP)] = (0, -seat["capped_cents"])
    return rows


def _write_lines(round_: Round, output: dict, hits: dict, *, at, correction=None, rows=None):
    gaming_date, shift = stamp(at)
    lines = []
    for (seat, bet), (stake, net) in (rows if rows is not None else _line_rows(output)).items():
        hit = hits.get(seat) if bet == SettlementLine.Bet.PROGRESSIVE else None
        lines.append(
            SettlementLine(
                round=round_,
                correction=correction,
                seat=seat,
                bet=bet,
                stake_cents=stake,
                net_cents=net,
                paid_from=SettlementLine.PaidFrom.METER if hit else SettlementLine.PaidFrom.HOUSE,
                hit=hit,
                gaming_date=gaming_date,
                shift=shift,
                at=at,
            )
        )
    SettlementLine.objects.bulk_create(lines)


# --- voids ---------------------------------------------------------------------------------


def round_void(
    *, round_id: int, actor: Staff, key: str, expected_seq, approved: bool, supervisor
) -> Written:
    """A supervisor approves (every wager returned, the round's progressive contributions
    reversed) or refuses (the round goes on) the void the dealer declared. The PIN is checked
    first, in its own transaction, so that a wrong PIN counts toward the lockout."""
    key = _check_key(key)
    kind = "void_approved" if approved else "void_refused"
    scope = f"round:{round_id}:events"
    who = supervisor.get("employee_number") if isinstance(supervisor, dict) else None
    request = {"expected_seq": expected_seq, "event": {"kind": kind}, "supervisor": who}
    require_role(actor, Role.DEALER, Role.SUPERVISOR)  # before a kept answer is replayed
    if (again := _remembered(scope, key, request)) is not None:
        return again
    probe = _round_read(round_id, lock=False)
    if not has_role(actor, Role.SUPERVISOR):
        _require_round_dealer(actor, probe)
    approval = _approver(supervisor, round_=probe, actor=actor, action="tables.round.void")
    approver = approval.staff
    with transaction.atomic():
        round_ = _round_relock(probe)
        if (again := _remembered(scope, key, request)) is not None:
            return again
        _check_seq(round_, expected_seq)
        before = state_of(round_)
        event = event_from_json({"kind": kind})
        state = _apply(before, event)
        at = timezone.now()
        # One batch for the chain, in this order: the PIN's approval, the void (the reversal's
        # entry is written when it is posted).
        entries = [approval.entry]
        if approved:
            bank = _reverse_contributions(round_, before, approver=approver)
            round_.settlement = settle(
                settlement_input(state, meter=_meter(bank)), rules_of(round_)
            ).to_json()
            round_.settlement_input = settlement_input_json(state, meter=_meter(bank))
            round_.settled_at = at
        written = _step(
            round_,
            state,
            event,
            actor=actor,
            key=key,
            at=at,
            scope=scope,
            request=request,
            supervisor=approver,
        )
        entries.append(
            {
                "actor": approver,
                "code": f"tables.round.{kind}",
                "subject": round_,
                "data": {
                    "reason": before.pending_void.value if before.pending_void else None,
                    "asked_by": actor.pk,
                    "seq": round_.seq,
                },
            }
        )
        audit_many(entries)
        live.announce_round(written.body)
        after_commit(
            lambda: events.void_decided.send(sender=Round, round_id=round_.pk, approved=approved)
        )
    return written


def _reverse_contributions(round_: Round, state: RoundState, *, approver: Staff) -> Bank | None:
    """A void takes back what the round gave the progressive: the reversal is queued
    (jackpot.services.bank_reverse) and posted to the meter just after this commit. Returns
    the bank as it reads now, for the void's settlement input: a void pays no progressive,
    so the meter there is only what the bank showed."""
    if not any(s.progressive for s in state.seats):
        return None
    if state.stage is not Stage.BETTING:  # the wagers reached the bank when bets locked
        jackpot.bank_reverse(
            bank_id=round_.bank_id,
            reference=round_reference(round_.pk),
            actor=approver,
            reason=f"void of {round_}",
        )
    return Bank.objects.only("meter_cents", "reset_cents").get(pk=round_.bank_id)


def settlement_preview(round_: Round) -> dict:
    """`GET .../settlement`: what the engine pays now, with the meter as it reads now
    (provisional: the percentage tiers are fixed at confirmation). Once settled, the
    confirmed settlement."""
    if round_.settlement is not None:
        return {**round_.settlement, "provisional": False}
    state = state_of(round_)
    bank = None
    if any(s.progressive for s in state.seats):
        bank = Bank.objects.filter(pk=round_.bank_id).first()
    try:
        output = settle(settlement_input(state, meter=_meter(bank)), rules_of(round_)).to_json()
    except RulesError as exc:  # not at showdown yet, or cards still to come
        raise refusal(exc) from None
    return {**output, "provisional": True}


# --- corrections ---------------------------------------------------------------------------


def round_correct(
    *, round_id: int, actor: Staff, key: str, supervisor, reason, corrected
) -> Written:
    """One of the table's supervisors asks to correct the facts of a settled round (settle.md
    input), with their PIN, at the tablet (signed in as the table's dealer or as a
    supervisor): the engine settles the facts and the difference per seat and bet is what the
    correction writes. It waits (202, `correction_request`) for a second person, who approves
    it at the pit (tables.services.corrections), unless the property sets a threshold and the
    lines move no more than it: then it is written at once (200), as asked (issue 23, 2).
    A correction that would change a progressive hit or wager is refused: the meter is
    corrected with a jackpot adjustment, which two managers approve."""
    key = _check_key(key)
    scope = f"round:{round_id}:corrections"
    who = supervisor.get("employee_number") if isinstance(supervisor, dict) else None
    request = {"supervisor": who, "reason": reason, "round": corrected}
    require_role(actor, Role.DEALER, Role.SUPERVISOR)  # before a kept answer is replayed
    if (again := _remembered(scope, key, request)) is not None:
        return again
    if not isinstance(reason, str) or not reason.strip():
        raise RoundRefused(
            _("A correction needs its reason."), code="reason_required", field="reason"
        )
    if not isinstance(corrected, dict):
        raise RoundRefused(
            _("The corrected round must be given as settle.md input."),
            code="bad_input",
            field="round",
        )
    from tables.services.corrections import (  # the correction's second person, there
        _alone_enough,
        _announce_corrected,
        _compensation,
        _correction_ask,
        _correction_write,
        _require_table_supervisor,
    )

    probe = _round_read(round_id, lock=False)
    if has_role(actor, Role.SUPERVISOR):
        _require_table_supervisor(actor, probe, field=None)
    else:
        _require_round_dealer(actor, probe)  # not a dealer of another table
    approval = _approver(supervisor, round_=probe, actor=actor, action="tables.round.correct")
    requester = approval.staff
    _require_table_supervisor(requester, probe, field="supervisor")
    with transaction.atomic():
        round_ = _round_relock(probe)
        if (again := _remembered(scope, key, request)) is not None:
            return again
        _require_settled(round_)
        output, facts = _settle_corrected(round_, corrected)
        rows = _compensation(round_, output)
        at = timezone.now()
        if not _alone_enough(rows):
            return _correction_ask(
                round_,
                key=key,
                reason=reason.strip(),
                requester=requester,
                actor=actor,
                facts=facts,
                output=output,
                rows=rows,
                at=at,
                approval=approval,
                remember=(scope, request),
            )
        correction = _correction_write(
            round_,
            key=key,
            reason=reason.strip(),
            requested_by=actor,
            approver=requester,
            facts=facts,
            output=output,
            rows=rows,
            at=at,
            approval=approval,
            asked_by=actor,
        )
        written = _remember(scope, key, request, Written(200, round_snapshot(round_)), actor)
        live.announce_round(written.body)
        _announce_corrected(round_, correction)
    return written


def _require_settled(round_: Round) -> None:
    if round_.stage != Round.Stage.SETTLED:
        raise IllegalTransition(
            _("Only a settled round can be corrected (this one is %(stage)s).")
            % {"stage": round_.get_stage_display()},
            code="not_settled",
        )


def _settle_corrected(round_: Round, corrected: dict) -> tuple[dict, dict]:
    """The corrected facts under the round's own rules and meter, settled by the engine."""
    original = round_.settlement_input
    facts = {**corrected, "rules": round_.rules}
    if "rules" in corrected:
        try:
            same = parse_rules(corrected["rules"]).to_json() == round_.rules
        except RulesError as exc:
            raise refusal(exc) from None
        if not same:
            raise RoundRefused(
                _("A correction cannot change the rules the round was dealt under."),
                code="rules_differ",
                field="round.rules",
            )
    facts.pop("progressive", None)
    if "progressive" in original:
        facts["progressive"] = original["progressive"]
    try:
        output = settle_json(facts)
    except RulesError as exc:
        raise refusal(exc) from None
    before = round_.settlement
    if _progressive_of(output) != _progressive_of(before):
        raise RoundRefused(
            _(
                "This correction would change a progressive wager or hit. The meter is "
                "corrected with a jackpot adjustment, approved by two managers."
            ),
            code="correction_changes_progressive",
            field="round",
        )
    return output, facts


def _correction_rows(round_: Round, output: dict) -> dict[tuple[int, str], tuple[int, int]]:
    """{(seat, bet): (stake, difference)}: what the corrected settlement `output` changes from
    the round's lines as they stand (the confirmed ones and earlier corrections)."""
    current = _nets_now(round_)
    wanted = _line_rows(output)
    rows = {}
    for place in sorted(set(current) | set(wanted)):
        stake, net = wanted.get(place, (0, 0))
        if net != current.get(place, 0):
            rows[place] = (stake, net - current.get(place, 0))
    return rows


def correction_preview(*, round_id: int, actor: Staff, corrected) -> dict:
    """What a correction of a settled round would write, shown before anyone signs it: the
    engine's settlement of the corrected facts and the compensating line per seat and bet.
    Writes nothing; refuses what `round_correct` would refuse about the facts."""
    require_role(actor, Role.DEALER, Role.SUPERVISOR)
    if not isinstance(corrected, dict):
        raise RoundRefused(
            _("The corrected round must be given as settle.md input."),
            code="bad_input",
            field="round",
        )
    round_ = _round_read(round_id, lock=False)
    _require_settled(round_)
    output, _facts = _settle_corrected(round_, corrected)
    rows = _correction_rows(round_, output)
    return {
        "settlement": output,
        "lines": [
            {"seat": seat, "bet": bet, "net": net} for (seat, bet), (_stake, net) in rows.items()
        ],
    }


def _progressive_of(output: dict) -> tuple:
    stakes = sorted(
        (s["seat"], s["bets"]["progressive"]["stake"])
        for s in output["seats"]
        if s["bets"]["progressive"]["stake"]
    )
    hits = [(h["seat"], h["category"], h["amount_cents"]) for h in output["progressive"]["hits"]]
    # Facts that void the round return the progressive wagers, which the meter keeps: only a
    # void approval reverses the contributions.
    returned = bool(stakes) and output.get("void") is not None
    return tuple(stakes), tuple(hits), returned


def _nets_now(round_: Round) -> dict[tuple[int, str], int]:
    return {
        (row["seat"], row["bet"]): row["net"]
        for row in round_.lines.values("seat", "bet").annotate(net=Sum("net_cents"))
    }
