"""The round as every write sees it: read under its row lock, replayed by the engine from its
committed events, checked against the seq the client last saw, and moved one step on."""

from django.utils import timezone
from django.utils.translation import gettext as _

from tables.engine_text import engine_field, engine_message
from tables.errors import NotFound, RoundRefused, StaleRound
from tables.models import Round, RoundEvent
from tables.rules.errors import RulesError
from tables.rules.machine import RoundState, apply, event_to_json, replay
from tables.rules.ruleset import RuleSet, parse_rules
from tables.services.rounds import answers, reads, writes
from tables.services.rounds.answers import Outcome, RoundWrite
from tables.snapshots import round_snapshot


def round_reference(round_id: int) -> str:
    """How a contribution and a hit name their round (unique per bank, forever)."""
    return f"round-{round_id}"


def round_read(round_id, *, lock: bool = True) -> Round:
    """The round locked, with `dealing_id`: who deals its table now (None for nobody).
    `lock=False`: read without the lock, for the checks made before an approval's
    transaction."""
    round_ = reads.round_locked(round_id, at=timezone.now(), lock=lock)
    if round_ is None:
        raise NotFound(_("There is no round #%(id)s.") % {"id": round_id})
    return round_


def round_relock(probe: Round) -> Round:
    """`probe`, read by `round_read(lock=False)` before an approval's PIN check, now locked.
    Read again only if a step was written meanwhile: every write to a round's row moves its
    seq (writes.step_write), so an unchanged seq means the probe is the row as locked."""
    if reads.round_seq_locked(probe.pk) == probe.seq:
        return probe
    return round_read(probe.pk)


def rules_of(round_: Round) -> RuleSet:
    return parse_rules(round_.rules)


def state_of(round_: Round) -> RoundState:
    """The round's state as the engine computes it from the committed events.

    The last event's hash is kept on `round_` for the next event's link (RoundEvent.seal):
    the caller holds the round's lock, so it is still the last when that event is written.
    """
    events = reads.round_events(round_.pk)
    round_.last_event_hash = events[-1][1] if events else None
    return replay(rules_of(round_), [data for data, _hash in events], seats=round_.seat_numbers)


def refusal(exc: RulesError) -> RoundRefused:
    return RoundRefused(engine_message(exc), code=exc.code, field=engine_field(exc))


def apply_event(state: RoundState, event) -> RoundState:
    try:
        return apply(state, event)
    except RulesError as exc:
        raise refusal(exc) from None


def check_seq(round_: Round, expected_seq) -> None:
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


def step(
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
) -> RoundWrite:
    """Append the event, store the round's new state and keep the answer under the key."""
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
    written = RoundWrite(Outcome.RECORDED, round_snapshot(round_, just_settled=just_settled))
    writes.step_write(round_, row, answers.kept(scope, key, request, written, actor))
    return written
