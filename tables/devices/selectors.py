"""Which table a tablet opens, binding included: what the tablet page asks first.

A bound tablet opens its bound table and nothing else, whoever signs in on it; an unbound
one opens the table the signed-in dealer deals now.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tables.devices.cookie import request_binding
from tables.models import DeviceBinding, Table
from tables.selectors import current_dealer, dealer_current_table


@dataclass(frozen=True)
class TabletTable:
    """`table`: the table this tablet shows (on a bound tablet, always the bound one), or
    None. `reason` is "" when the signed-in person deals `table` now, else a stable code:
    "not_assigned" (a bound tablet, and they do not deal its table now) or "no_table" (an
    unbound tablet, and they deal no table now); `message` says it in the page's language."""

    table: Table | None
    binding: DeviceBinding | None = None
    reason: str = ""
    message: str = ""

    def opens(self, table: Table) -> bool:
        """May this tablet show `table` at all? A bound tablet shows its own table only."""
        return self.binding is None or self.binding.table_id == table.pk


def tablet_table(request) -> TabletTable:
    """The table the tablet that sent `request` opens for the person signed in on it."""
    staff = request.user
    binding = request_binding(request)
    if binding is None:
        table = dealer_current_table(staff)
        if table is None:
            return TabletTable(
                None, reason="no_table", message=_("You are not assigned to a table now.")
            )
        return TabletTable(table)
    table = binding.table
    dealer = current_dealer(table)
    if dealer is not None and dealer.pk == staff.pk:
        return TabletTable(table, binding)
    mine = dealer_current_table(staff)
    if mine is None:
        message = _("This tablet is bound to %(table)s: you are not assigned to this table.") % {
            "table": table
        }
    else:
        message = _(
            "This tablet is bound to %(table)s: you are not assigned to this table, you deal "
            "%(mine)s now."
        ) % {"table": table, "mine": mine}
    return TabletTable(table, binding, reason="not_assigned", message=message)
