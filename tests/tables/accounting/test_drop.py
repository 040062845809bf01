"""The drop: the count room's figure, entered by a games manager or imported from its CSV;
the pit (supervisors) and auditors do not enter it."""

import datetime as dt

import pytest

from casino.audit import seal_pending
from casino.models import AuditEntry
from tables.accounting import services
from tables.accounting.errors import AccountingRefused
from tables.accounting.models import Drop
from tables.errors import RoleRequired

DAY = dt.date(2026, 11, 20)


def test_a_manager_enters_the_drop_and_entering_it_again_replaces_it(table, manager):
    services.drop_record(manager=manager, table_id=table.pk, gaming_date=DAY, cash_cents=1_000_000)
    drop = services.drop_record(
        manager=manager,
        table_id=table.pk,
        gaming_date=DAY,
        cash_cents=1_200_000,
        markers_cents=50_000,
    )
    assert Drop.objects.count() == 1
    assert (drop.cash_cents, drop.markers_cents, drop.total_cents) == (1_200_000, 50_000, 1_250_000)
    seal_pending()  # as after the commit
    last = AuditEntry.objects.filter(code="accounting.drop.entered").order_by("-position").first()
    assert last.data["before"] == {"cash": 1_000_000, "markers": 0}


@pytest.mark.parametrize("who", ["supervisor", "auditor", "dealer"])
def test_only_a_games_manager_enters_the_drop(table, who, request):
    with pytest.raises(RoleRequired):
        services.drop_record(
            manager=request.getfixturevalue(who),
            table_id=table.pk,
            gaming_date=DAY,
            cash_cents=1,
        )


def test_the_count_rooms_csv_is_imported_whole(table, manager):
    text = (
        "table,gaming_date,shift,cash_cents,markers_cents\n"
        f"{table.name},2026-11-20,,1500000,\n"
        f"{table.name},2026-11-21,swing,700000,20000\n"
    )
    drops = services.drop_import(manager=manager, text=text)
    assert [(d.gaming_date.day, d.shift, d.total_cents, d.source) for d in drops] == [
        (20, "", 1_500_000, "imported"),
        (21, "swing", 720_000, "imported"),
    ]


def test_a_csv_with_one_bad_line_imports_nothing_and_names_the_line(table, manager):
    text = (
        "table,gaming_date,shift,cash_cents,markers_cents\n"
        f"{table.name},2026-11-20,,1500000,0\n"
        "UTH 99,2026-11-20,,1,0\n"
    )
    with pytest.raises(AccountingRefused) as refused:
        services.drop_import(manager=manager, text=text)
    assert "3" in refused.value.message
    assert not Drop.objects.exists()
