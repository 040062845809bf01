"""Who may write to a round: the dealer assigned to its table now, a supervisor of its pit,
and everyone who had a hand in it (whom an approval must be independent of)."""

from django.db.models import Q
from django.utils.translation import gettext as _

from casino.models import Pit, Staff
from casino.roles import Role, has_role
from tables.errors import NotThisDealersTable, RoundRefused
from tables.models import Round, RoundEvent, Table
from tables.selectors import current_dealer

# The steps that decide a void: an approver's, not a hand in the round.
APPROVALS = ("void_approved", "void_refused")


def _not_the_dealer(table: Table) -> NotThisDealersTable:
    return NotThisDealersTable(
        _("Only the dealer assigned to %(table)s now can do this.") % {"table": table}
    )


def require_a_dealer(staff: Staff) -> None:
    """Checked before a kept answer is replayed (issue 23, 7): a key reused by someone who
    could not make the write tells them nothing. Whether they deal this table is checked
    after, under the lock."""
    if not has_role(staff, Role.DEALER):
        raise NotThisDealersTable(_("Only the dealer assigned to the table now can do this."))


def require_table_dealer(staff: Staff, table: Table) -> None:
    dealing = current_dealer(table)
    if dealing is None or dealing.pk != staff.pk:
        raise _not_the_dealer(table)


def require_round_dealer(staff: Staff, round_: Round) -> None:
    """The same for a round read by `state.round_read`, which knows who deals it now."""
    if round_.dealing_id is None or round_.dealing_id != staff.pk:
        raise _not_the_dealer(round_.table)  # the table read only to name it


def require_table_supervisor(staff: Staff, round_: Round, *, field) -> None:
    """A supervisor of the round's pit: one the pit names, or any when it names none."""
    named = Pit.supervisors.through.objects.filter(pit_id=round_.table.pit_id)
    if not has_role(staff, Role.SUPERVISOR) or (
        named.exists() and not named.filter(staff_id=staff.pk).exists()
    ):
        raise RoundRefused(
            _("Only a supervisor of %(table)s's pit may ask for a correction (not %(name)s).")
            % {"table": round_.table, "name": staff},
            code="not_table_supervisor",
            field=field,
        )


def round_hands(round_: Round, *, known) -> list[Staff]:
    """Everyone else who had a hand in the round: the dealer at its table now, and whoever
    wrote one of its steps (dealt, declared an irregularity, confirmed), the approvals of a
    void left aside. A supervisor who rotated himself onto the table to declare and rotated
    back is one of them. One query."""
    dealt = RoundEvent.objects.filter(round_id=round_.pk).exclude(kind__in=APPROVALS)
    hands = Q(pk__in=dealt.values("actor_id"))
    if round_.dealing_id is not None:
        hands |= Q(pk=round_.dealing_id)
    return list(Staff.objects.filter(hands).exclude(pk__in=list(known)).order_by("pk"))
