"""The demo floor's tables: four UTH tables on different rules, through the services.

Idempotent: what exists (by name) is kept as it is, so a second run adds nothing; the
demo's manager (`directeur`) and supervisor (`inspecteur`) are the actors in the audit log.
"""

from casino.models import Staff
from tables import services
from tables.models import Paytable, RuleSet, Table
from tables.rules.paytables import DEFAULT_ENVY, DEFAULT_PROGRESSIVE
from tables.selectors import current_dealer, dealer_current_table
from tables.services.floor import table_configure_as_approved

MANAGER, SUPERVISOR = "directeur", "inspecteur"

# The names a manager gives, in French and in English (the English pages show the latter).
ENGLISH = {
    "Jackpot progressif maison": "House progressive jackpot",
    "Bonus Envy maison": "House Envy bonus",
    "4x uniquement, Trips A": "4x only, Trips A",
    "Trips B, paiement par 0,25 €, plafond 20 000 €": "Trips B, paid by €0.25, cap €20,000",
    "Blind B, Trips D, Trips perdu au coucher": "Blind B, Trips D, Trips lost on a fold",
}

# name, kind, preset, lines
PAYTABLES = [
    ("Blind A", Paytable.Kind.BLIND, "A", None),
    ("Blind B", Paytable.Kind.BLIND, "B", None),
    ("Trips A", Paytable.Kind.TRIPS, "A", None),
    ("Trips B", Paytable.Kind.TRIPS, "B", None),
    ("Trips C", Paytable.Kind.TRIPS, "C", None),
    ("Trips D", Paytable.Kind.TRIPS, "D", None),
    ("Jackpot progressif maison", Paytable.Kind.PROGRESSIVE, "", DEFAULT_PROGRESSIVE.to_json()),
    ("Bonus Envy maison", Paytable.Kind.ENVY, "", DEFAULT_ENVY.to_json()),
]

PROGRESSIVE, ENVY = "Jackpot progressif maison", "Bonus Envy maison"

# name, blind, trips, other rule fields
RULESETS = [
    ("Standard 3x/4x, Trips C", "Blind A", "Trips C", {}),
    ("4x uniquement, Trips A", "Blind A", "Trips A", {"preflop_multiples": [4]}),
    (
        "Trips B, paiement par 0,25 €, plafond 20 000 €",
        "Blind A",
        "Trips B",
        {"payout_unit_cents": 25, "max_payout_cents": 2_000_000},
    ),
    (
        "Blind B, Trips D, Trips perdu au coucher",
        "Blind B",
        "Trips D",
        {"trips_on_fold": RuleSet.TripsOnFold.LOST},
    ),
]

# name, rule set, seats, minimum, maximum (EUR cents; 20x, 20x, 30x, 10x: the decree's ratios),
# opened, dealer
TABLES = [
    ("UTH 1", "Standard 3x/4x, Trips C", 7, 1_000, 20_000, True, "croupier"),
    ("UTH 2", "4x uniquement, Trips A", 7, 2_500, 50_000, True, "croupier2"),
    ("UTH 3", "Trips B, paiement par 0,25 €, plafond 20 000 €", 6, 500, 15_000, True, None),
    ("UTH 4", "Blind B, Trips D, Trips perdu au coucher", 7, 1_000, 10_000, False, None),
]


def _latest(model, name: str):
    return model.objects.filter(name=name).order_by("-version").first()


def _paytables(manager: Staff) -> dict[str, Paytable]:
    found = {}
    for name, kind, preset, lines in PAYTABLES:
        found[name] = _latest(Paytable, name) or services.paytable_create(
            manager=manager,
            kind=kind,
            name=name,
            name_en=ENGLISH.get(name, ""),
            preset=preset,
            lines=lines,
        )
    return found


def _rulesets(manager: Staff, paytables: dict[str, Paytable], wager_cents: int) -> dict:
    found = {}
    for name, blind, trips, extra in RULESETS:
        found[name] = _latest(RuleSet, name) or services.ruleset_create(
            manager=manager,
            name=name,
            name_en=ENGLISH.get(name, ""),
            blind_paytable_id=paytables[blind].pk,
            trips_paytable_id=paytables[trips].pk,
            progressive_paytable_id=paytables[PROGRESSIVE].pk,
            envy_paytable_id=paytables[ENVY].pk,
            progressive_wager_cents=wager_cents,
            **extra,
        )
    return found


def _link_bank(table: Table, bank, manager: Staff) -> None:
    """Join a table created before the demo bank existed to it, matching the bank's wager."""
    if bank is None or table.bank_id is not None:
        return
    ruleset_id = table.ruleset_id
    if table.ruleset.progressive_wager_cents != bank.wager_cents:
        ruleset_id = services.ruleset_revise(
            ruleset_id=table.ruleset_id,
            manager=manager,
            progressive_wager_cents=bank.wager_cents,
        ).pk
    # A table joins a bank (or changes rules) only while closed.
    was_open = table.is_open
    supervisor = Staff.objects.get(username=SUPERVISOR)
    if was_open:
        services.table_close(table_id=table.pk, supervisor=supervisor)
    # The demo loader sets its own floor up, as the console does: its rule set version
    # change is not a deployment a second manager approves (tables.services.configuration).
    table_configure_as_approved(
        table_id=table.pk,
        manager=manager,
        changes={"bank_id": bank.pk, "ruleset_id": ruleset_id},
        deployment=True,
    )
    if was_open:
        services.table_open(table_id=table.pk, supervisor=supervisor)


def load(*, pit, bank) -> list[Table]:
    manager = Staff.objects.get(username=MANAGER)
    supervisor = Staff.objects.get(username=SUPERVISOR)
    paytables = _paytables(manager)
    rulesets = _rulesets(manager, paytables, bank.wager_cents if bank else 100)
    tables = []
    for name, ruleset, seats, low, high, opened, dealer_name in TABLES:
        table = Table.objects.filter(name=name).first()
        if table is None:
            # The console's floor, not a manager's request: no second manager approves it.
            table = services.table_create_as_approved(
                manager=manager,
                name=name,
                pit_id=pit.pk,
                seats=seats,
                min_bet_cents=low,
                max_bet_cents=high,
                ruleset_id=rulesets[ruleset].pk,
                bank_id=bank.pk if bank else None,
            )
            if opened:
                table = services.table_open(table_id=table.pk, supervisor=supervisor)
        _link_bank(table, bank, manager)
        dealer = Staff.objects.filter(username=dealer_name).first() if dealer_name else None
        if dealer and current_dealer(table) is None and dealer_current_table(dealer) is None:
            services.dealer_rotate(table_id=table.pk, dealer_id=dealer.pk, supervisor=supervisor)
        tables.append(table)
    return tables
