"""The tablet page: thin views that pick the table, then render; the script does the rest
through the round API and the table's channel."""

from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from casino.access import role_required
from casino.money import money
from casino.roles import Role
from tables.devices.selectors import TabletTable
from tables.models import Table
from tables.seat_labels import seat_labels
from tables.selectors import floor_tables
from tables.tablet.selectors import may_watch_any_table, tablet_page, tablet_table_for
from tables.tablet.words import tablet_words

AT_THE_TABLE = (Role.DEALER, Role.SUPERVISOR, Role.MANAGER)


SUITS = [
    {"code": "s", "symbol": "\u2660", "colour": "black"},
    {"code": "h", "symbol": "\u2665", "colour": "red"},
    {"code": "d", "symbol": "\u2666", "colour": "red"},
    {"code": "c", "symbol": "\u2663", "colour": "black"},
]


def chips(low: int, high: int) -> list[int]:
    """Chip buttons for a bet: its minimum and a few multiples of it, within its maximum."""
    return sorted({low * k for k in (1, 2, 5, 10) if low * k <= high})


def chip_labels(amounts: list[int]) -> list[dict]:
    """A chip reads short: whole amounts without their cents ("10 €", "€10")."""
    return [
        {
            "cents": c,
            "label": money(c).replace(",00", "").replace(".00", "") if c % 100 == 0 else money(c),
        }
        for c in amounts
    ]


def _page(request, table: Table):
    page = tablet_page(table, request.user)
    limits = page["table"]
    return render(
        request,
        "tables/tablet/tablet.html",
        {
            "table": table,
            "page": page,
            "words": tablet_words(),
            "seat_numbers": range(1, table.seats + 1),
            # A rated seat shows its player's alias, never a name or a card (spec/ratings.md).
            "seat_aliases": seat_labels(table.pk),
            "ante_chips": chip_labels(chips(limits["min_bet_cents"], limits["max_bet_cents"])),
            "trips_chips": chip_labels(chips(limits["trips_min_cents"], limits["trips_max_cents"])),
            "suits": SUITS,
            # Drawn with the indices of the page's notation (R, D, V on a French page); the
            # buttons keep the canonical codes as their names.
            "ranks": [{"code": r, "face": page["card_faces"][r]} for r in "AKQJT98765432"],
        },
    )


def _elsewhere(request, *, found: TabletTable, wanted: Table | None):
    """No table for this person here: say why. An unbound tablet lists the tables of the
    floor; a bound one names its own table only."""
    bound = found.binding is not None
    return render(
        request,
        "tables/tablet/elsewhere.html",
        {
            "wanted": wanted,
            "bound_to": found.table if bound else None,
            "bound_elsewhere": bound and wanted is not None and not found.opens(wanted),
            "opens_bound": bound and (not found.reason or may_watch_any_table(request.user)),
            "message": found.message,
            "mine": None if bound else found.table,
            "rows": [] if bound else floor_tables(viewer=request.user),
            "may_watch": may_watch_any_table(request.user),
        },
    )


def _may_open(request, found: TabletTable, table: Table) -> bool:
    """A bound tablet opens its own table only; there, and on an unbound tablet, a dealer
    opens the table they deal now and a supervisor or a manager any table."""
    if not found.opens(table):
        return False
    if may_watch_any_table(request.user):
        return True
    return found.table == table and not found.reason


@role_required(*AT_THE_TABLE)
@require_GET
@never_cache
def tablet_home(request):
    found = tablet_table_for(request)
    if found.table is not None and _may_open(request, found, found.table):
        return _page(request, found.table)
    return _elsewhere(request, found=found, wanted=None)


@role_required(*AT_THE_TABLE, Role.AUDITOR)
@require_GET
@never_cache
def tablet_table(request, table_id: int):
    table = Table.objects.select_related("bank").filter(pk=table_id).first()
    found = tablet_table_for(request)
    if table is not None and _may_open(request, found, table):
        return _page(request, table)
    return _elsewhere(request, found=found, wanted=table)
