"""The demo floor: four UTH tables on different rules, loaded as often as one likes."""

import io

from django.core.management import call_command

from casino.models import AuditEntry, Staff
from tables.models import DealerAssignment, Paytable, RuleSet, Table
from tables.selectors import current_dealer, dealer_current_table


def _counts():
    return (
        Paytable.objects.count(),
        RuleSet.objects.count(),
        Table.objects.count(),
        DealerAssignment.objects.count(),
    )


def test_loading_the_demo_twice_adds_nothing(db):
    call_command("load_demo", stdout=io.StringIO())
    first = _counts()
    audits = AuditEntry.objects.filter(code__startswith="tables.").count()
    call_command("load_demo", stdout=io.StringIO())
    assert _counts() == first == (8, 4, 4, 2)
    assert AuditEntry.objects.filter(code__startswith="tables.").count() == audits


def test_the_demo_tables_play_different_rules(db):
    call_command("load_demo", stdout=io.StringIO())
    rules = {t.name: t.ruleset.engine_rules() for t in Table.objects.select_related("ruleset")}
    assert rules["UTH 1"]["preflop_multiples"] == [3, 4]
    assert (rules["UTH 1"]["blind_paytable"], rules["UTH 1"]["trips_paytable"]) == ("A", "C")
    assert rules["UTH 2"]["preflop_multiples"] == [4]
    assert rules["UTH 2"]["trips_paytable"] == "A"
    assert rules["UTH 3"]["trips_paytable"] == "B"
    assert rules["UTH 3"]["payout_unit_cents"] == 25
    assert rules["UTH 3"]["max_payout_cents"] == 2_000_000
    assert (rules["UTH 4"]["blind_paytable"], rules["UTH 4"]["trips_paytable"]) == ("B", "D")
    assert rules["UTH 4"]["trips_on_fold"] == "lost"
    limits = {t.name: (t.min_bet_cents, t.max_bet_cents) for t in Table.objects.all()}
    assert limits == {
        "UTH 1": (1_000, 20_000),
        "UTH 2": (2_500, 50_000),
        "UTH 3": (500, 15_000),
        "UTH 4": (1_000, 10_000),
    }


def test_the_demo_dealers_are_at_their_tables(db):
    call_command("load_demo", stdout=io.StringIO())
    uth1, uth2 = Table.objects.get(name="UTH 1"), Table.objects.get(name="UTH 2")
    assert current_dealer(uth1).username == "croupier"
    assert current_dealer(uth2).username == "croupier2"
    assert dealer_current_table(Staff.objects.get(username="croupier2")) == uth2
    assert Table.objects.get(name="UTH 4").status == Table.Status.CLOSED


def test_the_demo_links_its_tables_to_the_bank_when_there_is_one(db):
    from casino import demo as casino_demo
    from tables import demo as tables_demo
    from tests.tables.factories import make_bank

    _, pit = casino_demo.load()
    tables_demo.load(pit=pit, bank=None)
    assert not Table.objects.filter(bank__isnull=False).exists()
    bank = make_bank(slug="demo-bank")
    tables_demo.load(pit=pit, bank=bank)
    assert set(Table.objects.values_list("bank", flat=True)) == {bank.pk}
    assert Table.objects.count() == 4
