"""Which table a tablet shows, and what the page needs to draw it before the first request."""

from django.utils import translation

from casino.clock import current_property
from casino.money import SYMBOLS, property_currency
from casino.roles import Role, has_role
from jackpot.feed import bank_levels, localize
from tables.devices.selectors import TabletTable, tablet_table
from tables.models import Table
from tables.rules.cards import NOTATIONS, rank_faces
from tables.rules.machine import DECLARABLE
from tables.rules.settle import VOIDING
from tables.selectors import table_watch_snapshot

#: Who may open any table's tablet to watch or help; a dealer opens only their own. An
#: auditor (surveillance) watches the felt from the pit, and enters nothing.
WATCHERS = (Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)


def tablet_table_for(request) -> TabletTable:
    """The table this tablet shows at `/tablet/`: on a tablet bound to a table, that table
    (with `reason` "not_assigned" when the person signed in does not deal it now); on an
    unbound one, the table the signed-in dealer deals now."""
    return tablet_table(request)


def may_watch_any_table(staff) -> bool:
    return has_role(staff, *WATCHERS)


def declarable_irregularities() -> dict[str, list[str]]:
    """The engine's own table of which irregularity may be declared at which stage."""
    by_stage: dict[str, list[str]] = {}
    for irregularity, stages in DECLARABLE.items():
        for stage in stages:
            by_stage.setdefault(stage.value, []).append(irregularity.value)
    return {stage: sorted(kinds) for stage, kinds in sorted(by_stage.items())}


def card_notation(language: str) -> str:
    """The engine's card notation of a page's language: a French page takes French cards."""
    return "fr" if language.startswith("fr") else "en"


def meter_levels(table: Table) -> list[dict]:
    """The progressive's levels as the meter reads now, labelled in the page's language."""
    if table.bank is None:
        return []
    payload = localize({"levels": bank_levels(table.bank)}, translation.get_language() or "fr")
    return payload["levels"]


def tablet_page(table: Table, staff) -> dict:
    """Everything the page draws on load: the table and its current round as the API and the
    channel give them, the meter, the money and clock of the property."""
    table_json, round_json = table_watch_snapshot(table.pk)
    prop = current_property()
    currency = property_currency()
    language = translation.get_language() or "fr"
    return {
        "table": table_json,
        "round": round_json,
        "meter": meter_levels(table),
        "declarable": declarable_irregularities(),
        # A correction restates the facts without the irregularities that void a round.
        "voiding": sorted(irregularity.value for irregularity in VOIDING),
        "money": {
            "currency": currency,
            "symbol": SYMBOLS.get(currency, currency),
            "language": language,
        },
        # The keyboard field takes the page's language's card notation (the engine's).
        "card_notation": NOTATIONS[card_notation(language)],
        "card_faces": rank_faces(card_notation(language)),
        "time_zone": prop.time_zone if prop else "UTC",
        "staff": {"id": staff.pk, "name": str(staff)},
        "is_dealer": table_json is not None
        and table_json["dealer"] is not None
        and table_json["dealer"]["id"] == staff.pk,
        "may_approve": has_role(staff, Role.SUPERVISOR),
    }
