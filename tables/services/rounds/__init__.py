"""A round at the table, event by event, to its confirmed settlement (spec/round-api.md).

Every write: check the key (a retried write answers as the first time: answers), the person
(people; a second person's PIN for approvals: approvals), lock the round row, check
`expected_seq`, let the engine apply the event to the replayed state (state; a refusal
writes nothing), append the event, cache the new state on the round, audit the significant
steps, and tell the table's live channel after commit. Each service returns a RoundWrite;
the round API (tables.api) answers it over HTTP.

Lock order, everywhere: the table row (opening), then the round row (which also guards the
round's event chain), then the progressive bank (bank_lock_and_post, hit_record).
"""

from tables.services.rounds.answers import Outcome, RoundWrite
from tables.services.rounds.correction_approval import (
    round_correction_approve,
    round_correction_reject,
)
from tables.services.rounds.corrections import correction_preview, round_correct
from tables.services.rounds.opening import round_open
from tables.services.rounds.settlement import line_rows, round_settle, settlement_preview
from tables.services.rounds.state import round_read, round_reference, round_relock, state_of
from tables.services.rounds.step import round_event_record
from tables.services.rounds.voids import round_void

__all__ = [
    "Outcome",
    "RoundWrite",
    "correction_preview",
    "line_rows",
    "round_correct",
    "round_correction_approve",
    "round_correction_reject",
    "round_event_record",
    "round_open",
    "round_read",
    "round_reference",
    "round_relock",
    "round_settle",
    "round_void",
    "settlement_preview",
    "state_of",
]
