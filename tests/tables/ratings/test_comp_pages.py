"""The comp and anti-money-laundering pages, in both languages: who sees and does what, the
forms driving the services, the refusals shown as messages."""

import datetime as dt

import pytest
from django.test import Client
from django.utils import translation

from casino.audit import seal_pending
from casino.models import AuditEntry
from casino.roles import Role
from tables.ratings import comps
from tables.ratings.models import BuyIn, Comp, Rating
from tests.factories import make_staff
from tests.tables.ratings.conftest import rate

THEO = 1_000_000


@pytest.fixture(autouse=True)
def theo(monkeypatch):
    monkeypatch.setattr(comps, "rating_theo_cents", lambda rating: THEO)


@pytest.fixture
def rating(felt, supervisor, marie):
    return Rating.objects.get(pk=rate(supervisor, felt.table, 1, card="400123")["id"])


def client_of(staff, language="en") -> Client:
    staff.language = language
    staff.save(update_fields=["language"])
    client = Client()
    client.force_login(staff)
    return client


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_host_issues_a_comp_from_the_ratings_page(rating, language):
    host = make_staff(Role.HOST)
    client = client_of(host, language)
    page = client.get(f"/comps/rating/{rating.pk}/")
    assert page.status_code == 200
    assert 'class="comp-issue"' in page.content.decode()
    amount = "120,50" if language == "fr" else "120.50"
    answer = client.post(
        f"/comps/rating/{rating.pk}/issue/", {"amount": amount, "description": "Dîner"}
    )
    assert answer.status_code == 302
    comp = Comp.objects.get()
    assert (comp.amount_cents, comp.status, comp.issued_by) == (12_050, Comp.GRANTED, host)
    shown = client.get(f"/comps/rating/{rating.pk}/").content.decode()
    word = "Gratuité accordée." if language == "fr" else "Comp granted."
    assert word in shown


def test_a_refusal_is_shown_and_nothing_is_written(rating):
    client = client_of(make_staff(Role.SUPERVISOR))
    client.post(f"/comps/rating/{rating.pk}/issue/", {"amount": "5000", "description": "Suite"})
    page = client.get(f"/comps/rating/{rating.pk}/").content.decode()
    assert "exceed the rating" in page
    assert not Comp.objects.exists()


def test_a_manager_approves_from_the_page_and_the_issuer_cannot(rating, supervisor):
    comp = comps.comp_issue(
        staff=supervisor, rating_id=rating.pk, amount_cents=20_000, description="Show"
    )
    both = make_staff(Role.SUPERVISOR, Role.MANAGER)
    own = comps.comp_issue(staff=both, rating_id=rating.pk, amount_cents=20_000, description="Spa")
    manager = client_of(make_staff(Role.MANAGER))
    assert f'data-comp="{comp.pk}"' in manager.get("/comps/").content.decode()
    manager.post(f"/comps/{comp.pk}/approve/")
    comp.refresh_from_db()
    assert comp.status == Comp.GRANTED
    issuer = client_of(both)
    issuer.post(f"/comps/{own.pk}/approve/")
    own.refresh_from_db()
    assert own.status == Comp.AWAITING
    assert "does not approve it" in issuer.get(f"/comps/rating/{rating.pk}/").content.decode()


def test_declining_needs_a_reason(rating, supervisor):
    comp = comps.comp_issue(
        staff=supervisor, rating_id=rating.pk, amount_cents=20_000, description="Show"
    )
    manager = client_of(make_staff(Role.MANAGER))
    manager.post(f"/comps/{comp.pk}/decline/", {"note": ""})
    assert Comp.objects.get(pk=comp.pk).status == Comp.AWAITING
    manager.post(f"/comps/{comp.pk}/decline/", {"note": "Not a regular"})
    assert Comp.objects.get(pk=comp.pk).status == Comp.DECLINED


@pytest.mark.parametrize(
    ("roles", "status"),
    [
        ((Role.AUDITOR,), 200),
        ((Role.AUDITOR, Role.HOST), 403),
        ((Role.HOST,), 403),
        ((Role.MANAGER,), 403),
        ((Role.COMPLIANCE,), 403),
    ],
)
def test_the_monthly_report_is_for_an_auditor_who_neither_grants_nor_receives(
    rating, supervisor, roles, status
):
    comps.comp_issue(staff=supervisor, rating_id=rating.pk, amount_cents=5_000, description="Bar")
    client = client_of(make_staff(*roles))
    month = Comp.objects.get().issued_at.strftime("%Y-%m")
    answer = client.get(f"/comps/report/?month={month}")
    assert answer.status_code == status
    if status == 200:
        assert "data-comp=" in answer.content.decode()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_compliance_reads_the_log_of_a_gaming_day_audited(
    rating, supervisor, casino_property, language
):
    BuyIn.objects.create(
        rating=rating, amount_cents=250_000, instrument=BuyIn.CASH, at=rating.opened_at,
        by=supervisor,
    )  # fmt: skip
    day = casino_property.gaming_date(rating.opened_at)
    officer = make_staff(Role.COMPLIANCE)
    client = client_of(officer, language)
    page = client.get(f"/compliance/aml/?date={day.isoformat()}")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-cash-in="250000"' in text and 'data-crossed="identity"' in text
    assert 'data-identity="no"' in text
    with translation.override(language):
        assert ("non" if language == "fr" else "no: required") in text
    empty = client.get(f"/compliance/aml/?date={(day - dt.timedelta(days=3)).isoformat()}")
    assert 'data-player="' not in empty.content.decode()
    seal_pending()
    assert AuditEntry.objects.filter(code="ratings.aml_log.viewed", actor=officer).count() == 2


@pytest.mark.parametrize("role", [Role.DEALER, Role.SUPERVISOR, Role.HOST, Role.MANAGER])
def test_the_log_is_for_compliance_and_auditors_only(db, role):
    assert client_of(make_staff(role)).get("/compliance/aml/").status_code == 403


@pytest.mark.parametrize("role", [Role.DEALER, Role.COMPLIANCE])
def test_dealers_and_compliance_see_no_comps(db, role):
    assert client_of(make_staff(role)).get("/comps/").status_code == 403


def _csv_lines(answer) -> list[dict]:
    import csv
    import io

    return list(csv.DictReader(io.StringIO(answer.content.decode())))


def test_the_monthly_report_downloads_as_csv_with_the_pages_figures_audited(
    rating, supervisor, casino_property
):
    host = make_staff(Role.HOST)
    within = comps.comp_issue(
        staff=host, rating_id=rating.pk, amount_cents=4_000, description="Bar"
    )
    above = comps.comp_issue(
        staff=supervisor, rating_id=rating.pk, amount_cents=20_000, description="=1+2 Show"
    )
    declined = comps.comp_issue(
        staff=supervisor, rating_id=rating.pk, amount_cents=30_000, description="Suite"
    )
    manager = make_staff(Role.MANAGER)
    comps.comp_approve(staff=manager, comp_id=above.pk)
    comps.comp_decline(staff=manager, comp_id=declined.pk, note="Not a regular")
    auditor = make_staff(Role.AUDITOR)
    client = client_of(auditor)
    month = casino_property.gaming_date(within.issued_at).strftime("%Y-%m")
    page = client.get(f"/comps/report/?month={month}").content.decode()
    assert f'href="/comps/report.csv?month={month}"' in page
    answer = client.get(f"/comps/report.csv?month={month}")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    assert f'filename="comps-{month}.csv"' in answer["Content-Disposition"]
    lines = _csv_lines(answer)
    by_kind = {
        kind: [ln for ln in lines if ln["line"] == kind] for kind in ("comp", "issuer", "month")
    }
    assert [int(ln["comp"]) for ln in by_kind["comp"]] == [within.pk, above.pk, declined.pk]
    assert [ln["status"] for ln in by_kind["comp"]] == ["granted", "granted", "declined"]
    assert by_kind["comp"][1]["description"] == "'=1+2 Show"  # no formula for a spreadsheet
    assert by_kind["comp"][1]["decided_by_id"] == str(manager.pk)
    assert by_kind["comp"][2]["decision_note"] == "Not a regular"
    report = comps.report_figures(casino_property, *map(int, month.split("-")))
    assert [(int(ln["issued_by_id"]), int(ln["comps"]), int(ln["granted_cents"])) for ln in by_kind["issuer"]] == [
        (row["issuer"].pk, row["count"], row["granted_cents"]) for row in report["issuers"]
    ]  # fmt: skip
    assert by_kind["month"] == [
        {**{k: "" for k in lines[0]}, "line": "month", "month": month, "comps": "3",
         "granted_cents": "24000"}
    ]  # fmt: skip
    assert report["granted_cents"] == 24_000
    seal_pending()
    exported = AuditEntry.objects.get(code="ratings.comp_report.exported")
    assert (exported.actor, exported.data["month"], exported.data["comps"]) == (auditor, month, 3)


@pytest.mark.parametrize(
    "roles",
    [
        (Role.AUDITOR, Role.HOST),
        (Role.HOST,),
        (Role.MANAGER,),
        (Role.SUPERVISOR,),
        (Role.COMPLIANCE,),
    ],
)
def test_the_csv_is_refused_to_whoever_may_not_prepare_the_report(db, casino_property, roles):
    answer = client_of(make_staff(*roles)).get("/comps/report.csv")
    assert answer.status_code == 403
    seal_pending()
    assert not AuditEntry.objects.filter(code="ratings.comp_report.exported").exists()


def test_an_auditor_who_is_a_player_does_not_take_the_csv(casino_property):
    from tables.ratings.models import Player

    auditor = make_staff(Role.AUDITOR)
    Player.objects.create(property=casino_property, card="9", alias="Aude", staff=auditor)
    answer = client_of(auditor).get("/comps/report.csv")
    assert answer.status_code == 403
    assert "neither grant nor receive" in answer.content.decode()
