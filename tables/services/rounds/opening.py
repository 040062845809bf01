"""A round opens: the dealer assigned to an open table opens its next round, one at a time,
under the table's row lock. The round pins the table's rule set as it then stands."""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.clock import stamp
from casino.models import Staff
from tables import live
from tables.errors import IllegalTransition, NotFound, RoundOpen
from tables.models import Round, Table
from tables.rules.machine import new_round
from tables.rules.ruleset import parse_rules
from tables.services.configuration import ruleset_mark_used
from tables.services.rounds.answers import (
    Outcome,
    RoundWrite,
    check_key,
    remember,
    remembered,
)
from tables.services.rounds.people import require_a_dealer, require_table_dealer
from tables.snapshots import round_snapshot

# The table's rule set and its paytables, read with the table: the round pins its rules.
RULES_WITH_PAYTABLES = (
    "ruleset",
    "ruleset__blind_paytable",
    "ruleset__trips_paytable",
    "ruleset__progressive_paytable",
    "ruleset__envy_paytable",
)


def round_open(*, table_id: int, dealer: Staff, key: str) -> RoundWrite:
    """The dealer assigned to an open table opens its next round (one at a time)."""
    key = check_key(key)
    require_a_dealer(dealer)
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
        if (again := remembered(scope, key, request)) is not None:
            return again
        require_table_dealer(dealer, table)
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
        opened = RoundWrite(Outcome.OPENED, round_snapshot(round_))
        written = remember(scope, key, request, opened, dealer)
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
