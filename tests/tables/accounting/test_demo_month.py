"""`manage.py demo_month`: past days of play at the simulator's tables, rolled up, whose
reports agree with their lines; a second run over the same days refuses."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Sum

from tables.accounting.models import Drop, Inventory, SummarizedDay
from tables.models import Round, SettlementLine


def test_demo_month_plays_past_days_at_the_sim_tables_and_rolls_them_up(db):
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("demo_month", days=2, tables=2, rounds=5, stdout=out)
    assert Round.objects.filter(table__name__startswith="SIM").count() == 2 * 2 * 5
    assert SummarizedDay.objects.count() == 2
    assert Drop.objects.count() == 4
    assert Inventory.objects.filter(kind="closer").count() == 4
    summed = SettlementLine.objects.aggregate(n=Sum("net_cents"))["n"]
    from tables.accounting.models import LineSummary

    assert LineSummary.objects.aggregate(n=Sum("net_cents"))["n"] == summed
    assert "20 rounds" in out.getvalue()
    with pytest.raises(CommandError, match="already have rounds"):
        call_command("demo_month", days=2, tables=2, rounds=5, stdout=io.StringIO())
