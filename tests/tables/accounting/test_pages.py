"""The report and chips pages: who reads, who writes, the CSV and the printable page."""

import csv
import io

import pytest

from casino.clock import current_property
from tables.accounting.models import ChipSlip, Drop
from tests.tables.rounds.conftest import deal_to


@pytest.fixture
def today():
    return current_property().gaming_date()


@pytest.mark.parametrize("who", ["supervisor", "manager", "auditor"])
def test_supervisors_managers_and_auditors_read_the_report(client, felt, who, request):
    deal_to(felt, "settled")
    client.force_login(request.getfixturevalue(who))
    response = client.get("/reports/")
    assert response.status_code == 200
    assert b'data-testid="win-table"' in response.content
    assert b"<svg" in response.content  # the hour chart of the gaming day


def test_a_dealer_does_not_read_the_report(client, dealer):
    client.force_login(dealer)
    assert client.get("/reports/").status_code == 403


def test_the_csv_has_a_row_per_table_and_the_total_in_plain_decimals(client, felt, manager):
    deal_to(felt, "settled")
    client.force_login(manager)
    response = client.get("/reports/?format=csv&by=table")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header, table_row, total = rows
    assert table_row[0] == "UTH 1"
    computed = header.index(
        next(h for h in header if h.startswith("computed win") or h.startswith("gain calculé"))
    )
    assert table_row[computed] == total[computed] == "-18.00"


def test_the_page_prints_without_its_controls(client, felt, manager):
    client.force_login(manager)
    page = client.get("/reports/").content.decode()
    assert "accounting/reports.css" in page
    from django.contrib.staticfiles import finders

    css = open(finders.find("accounting/reports.css")).read()
    assert "@media print" in css and ".report-controls" in css


def test_an_auditor_reads_the_chips_but_enters_no_drop(client, table, auditor, today):
    client.force_login(auditor)
    assert client.get("/reports/chips/").status_code == 200
    response = client.post(
        "/reports/chips/drop/", {"table": table.pk, "date": today.isoformat(), "cash": "100"}
    )
    assert response.status_code == 403
    assert not Drop.objects.exists()


def test_a_supervisor_enters_no_drop_but_a_manager_does(client, table, supervisor, manager, today):
    client.force_login(supervisor)
    post = {"table": table.pk, "date": today.isoformat(), "cash": "1234,50"}
    assert client.post("/reports/chips/drop/", post).status_code == 403
    client.force_login(manager)
    assert client.post("/reports/chips/drop/", post).status_code == 302
    assert Drop.objects.get().cash_cents == 123_450


def test_a_fill_asked_and_approved_on_the_chips_page(
    client, table, dealer, supervisor, chip_set, today
):
    client.force_login(dealer)
    client.post("/reports/chips/slips/", {"table": table.pk, "kind": "fill", "chip_10000": "4"})
    slip = ChipSlip.objects.get()
    assert (slip.total_cents, slip.state) == (40_000, "requested")
    client.force_login(supervisor)
    client.post(
        f"/reports/chips/slips/{slip.pk}/approve/",
        {"supervisor_number": supervisor.employee_number, "supervisor_pin": "2468"},
    )
    slip.refresh_from_db()
    assert slip.state == "approved"
    page = client.get(f"/reports/chips/?date={today}").content.decode()
    assert slip.reference in page


def test_a_refused_write_says_why_on_the_page(client, table, dealer, chip_set):
    client.force_login(dealer)
    response = client.post(
        "/reports/chips/slips/", {"table": table.pk, "kind": "fill", "chip_777": "1"}, follow=True
    )
    assert not ChipSlip.objects.exists()
    assert b'class="error"' in response.content


def test_the_chips_page_flags_an_opener_that_differs_from_the_previous_closer(
    client, table, dealer, supervisor, manager, chip_set, today
):
    from tables.accounting import services
    from tests.tables.accounting.conftest import pin

    for kind, counts in (
        ("opener", {"10000": 10}),
        ("closer", {"10000": 10}),
        ("opener", {"10000": 9}),
    ):
        services.inventory_record(
            table_id=table.pk,
            kind=kind,
            counts=counts,
            recorded_by=supervisor,
            dealer_pin=pin(dealer),
            supervisor_pin=pin(supervisor),
        )
    client.force_login(manager)
    page = client.get(f"/reports/chips/?date={today}").content.decode()
    assert page.count('class="flagged"') == 1
    assert "-100,00" in page  # one black chip short


def test_the_pit_reads_each_tables_variance_of_the_day(felt, today):
    from tables.accounting.selectors import table_variances

    deal_to(felt, "settled")
    (row,) = table_variances(today)
    assert (row.label, row.computed_win, row.variance, row.alert) == ("UTH 1", -1_800, None, False)
