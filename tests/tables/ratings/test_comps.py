"""Comps on a rating: a budget as a share of the measured theo, a limit per issuing role,
above it a manager's approval (never the issuer's, never the rated player's), and the monthly
report prepared by someone who neither grants nor receives comps."""

import pytest

from casino.audit import seal_pending
from casino.errors import CasinoError
from casino.models import AuditEntry
from casino.roles import Role
from tables.ratings import comps
from tables.ratings.models import Comp, CompSettings
from tests.factories import make_staff
from tests.tables.ratings.conftest import rate
from tests.tables.rounds.conftest import deal_to

THEO = 1_000_000  # 10 000.00: a budget of 3 000.00 at the default 30 %


@pytest.fixture
def theo(monkeypatch):
    """The rating's theo, fixed (the figures are tested on their own)."""
    monkeypatch.setattr(comps, "rating_theo_cents", lambda rating: THEO)


@pytest.fixture
def host(db):
    return make_staff(Role.HOST, username="host")


@pytest.fixture
def games_manager(db):
    return make_staff(Role.MANAGER, username="games-manager")


@pytest.fixture
def rating(felt, supervisor, marie):
    return rate(supervisor, felt.table, 1, card="400123")


def refused(code, service, **kwargs):
    with pytest.raises(CasinoError) as caught:
        service(**kwargs)
    assert caught.value.code == code
    return caught.value


def issue(staff, rating, amount, what="Dinner for two"):
    return comps.comp_issue(
        staff=staff, rating_id=rating["id"], amount_cents=amount, description=what
    )


def test_the_defaults_are_30_percent_and_a_limit_per_role(casino_property):
    settings = comps.comp_settings_for(casino_property)
    assert settings.budget_percent == 30
    assert settings.supervisor_limit_cents == 10_000 and settings.host_limit_cents == 50_000


def test_the_budget_is_the_share_of_the_measured_theo(felt, supervisor, marie):
    body = rate(supervisor, felt.table, 1, card="400123")
    deal_to(felt, "settled")
    from tables.ratings.models import Rating

    one = Rating.objects.get(pk=body["id"])
    measured = comps.rating_theo_cents(one)
    assert measured > 0
    settings = comps.comp_settings_for(one.player.property)
    assert comps.budget_cents(one, settings) == measured * 30 // 100


def test_within_the_limit_a_host_grants_alone_and_it_is_audited(theo, rating, host):
    comp = issue(host, rating, 50_000)
    assert comp.status == Comp.GRANTED and comp.decided_by is None
    seal_pending()
    entry = AuditEntry.objects.get(code="ratings.comp.issued")
    assert entry.actor_id == host.pk
    assert entry.data["amount_cents"] == 50_000 and entry.data["status"] == "granted"


def test_above_the_limit_it_awaits_and_a_manager_approves(theo, rating, supervisor, games_manager):
    comp = issue(supervisor, rating, 10_001)
    assert comp.status == Comp.AWAITING
    approved = comps.comp_approve(staff=games_manager, comp_id=comp.pk)
    assert approved.status == Comp.GRANTED and approved.decided_by == games_manager
    seal_pending()
    assert AuditEntry.objects.filter(code="ratings.comp.approved", actor=games_manager).exists()


def test_over_the_limit_without_approval_it_is_not_granted(theo, rating, supervisor):
    comp = issue(supervisor, rating, 20_000)
    assert comp.status == Comp.AWAITING
    assert not Comp.objects.filter(status=Comp.GRANTED).exists()


def test_the_issuer_never_approves_their_own_comp(theo, rating, db):
    both = make_staff(Role.SUPERVISOR, Role.MANAGER, username="both")
    comp = issue(both, rating, 20_000)
    refused("comp_own_approval", comps.comp_approve, staff=both, comp_id=comp.pk)
    comp.refresh_from_db()
    assert comp.status == Comp.AWAITING and comp.decided_by is None


def test_the_rated_player_never_approves_a_comp_on_their_own_rating(
    theo, rating, supervisor, games_manager, marie
):
    marie.staff = games_manager
    marie.save(update_fields=["staff"])
    comp = issue(supervisor, rating, 20_000)
    refused("own_comp", comps.comp_approve, staff=games_manager, comp_id=comp.pk)
    assert Comp.objects.get(pk=comp.pk).status == Comp.AWAITING


def test_the_rated_player_never_issues_a_comp_to_themselves(theo, rating, host, marie):
    marie.staff = host
    marie.save(update_fields=["staff"])
    refused("own_comp", issue, staff=host, rating=rating, amount=1_000)
    assert not Comp.objects.exists()


def test_the_budget_is_never_exceeded_awaiting_comps_count(theo, rating, host, supervisor):
    assert issue(host, rating, 200_000).status == Comp.AWAITING
    issue(supervisor, rating, 90_000, "Show")  # 290 000 of 300 000
    granted = issue(host, rating, 10_000, "Room")  # within the host's limit
    assert granted.status == Comp.GRANTED
    refused("comp_budget_exceeded", issue, staff=supervisor, rating=rating, amount=1)
    assert Comp.objects.count() == 3


def test_a_declined_comp_gives_its_value_back_to_the_budget(
    theo, rating, supervisor, games_manager
):
    comp = issue(supervisor, rating, 300_000)
    refused("comp_budget_exceeded", issue, staff=supervisor, rating=rating, amount=1)
    refused("note_required", comps.comp_decline, staff=games_manager, comp_id=comp.pk, note=" ")
    comps.comp_decline(staff=games_manager, comp_id=comp.pk, note="Not a regular")
    assert issue(supervisor, rating, 5_000).status == Comp.GRANTED


def test_a_decided_comp_is_not_decided_again(theo, rating, supervisor, games_manager):
    comp = issue(supervisor, rating, 20_000)
    comps.comp_approve(staff=games_manager, comp_id=comp.pk)
    other = make_staff(Role.MANAGER)
    refused("comp_not_awaiting", comps.comp_decline, staff=other, comp_id=comp.pk, note="No")


def test_a_comp_within_the_limit_is_not_approved_it_is_granted(theo, rating, host, games_manager):
    comp = issue(host, rating, 100)
    refused("comp_not_awaiting", comps.comp_approve, staff=games_manager, comp_id=comp.pk)


@pytest.mark.parametrize("role", [Role.DEALER, Role.MANAGER, Role.AUDITOR, Role.COMPLIANCE])
def test_only_a_supervisor_or_a_host_issues(theo, rating, role):
    refused("role_required", issue, staff=make_staff(role), rating=rating, amount=100)


@pytest.mark.parametrize("role", [Role.SUPERVISOR, Role.HOST, Role.AUDITOR])
def test_only_a_manager_approves(theo, rating, supervisor, role):
    comp = issue(supervisor, rating, 20_000)
    refused("role_required", comps.comp_approve, staff=make_staff(role), comp_id=comp.pk)


@pytest.mark.parametrize("amount", [0, -5, 1.5, True, "100"])
def test_a_comp_has_a_positive_value(theo, rating, host, amount):
    refused("bad_amount", issue, staff=host, rating=rating, amount=amount)


def test_a_comp_says_what_it_is(theo, rating, host):
    refused("bad_description", issue, staff=host, rating=rating, amount=100, what="  ")
    refused("bad_description", issue, staff=host, rating=rating, amount=100, what="x" * 121)


def test_a_losing_theo_gives_no_budget(monkeypatch, rating, host):
    monkeypatch.setattr(comps, "rating_theo_cents", lambda rating: -500)
    refused("comp_budget_exceeded", issue, staff=host, rating=rating, amount=1)


def test_the_budget_share_is_a_property_setting(theo, rating, host, casino_property):
    CompSettings.objects.create(property=casino_property, budget_percent=10)
    refused("comp_budget_exceeded", issue, staff=host, rating=rating, amount=100_001)
    assert issue(host, rating, 50_000).status == Comp.GRANTED


# --- the monthly report --------------------------------------------------------------------


def test_an_auditor_prepares_the_monthly_report_audited(theo, rating, host, casino_property):
    comp = issue(host, rating, 12_000)
    auditor = make_staff(Role.AUDITOR)
    gaming = casino_property.gaming_date(comp.issued_at)
    report = comps.comp_report(
        staff=auditor, prop=casino_property, year=gaming.year, month=gaming.month
    )
    assert [c.pk for c in report["comps"]] == [comp.pk]
    assert report["granted_cents"] == 12_000
    assert report["issuers"][0]["issuer"] == host
    seal_pending()
    assert AuditEntry.objects.filter(code="ratings.comp_report.prepared", actor=auditor).exists()


@pytest.mark.parametrize(
    "roles",
    [
        (Role.AUDITOR, Role.HOST),
        (Role.AUDITOR, Role.SUPERVISOR),
        (Role.AUDITOR, Role.MANAGER),
        (Role.COMPLIANCE,),
        (Role.HOST,),
    ],
)
def test_whoever_may_grant_comps_does_not_prepare_the_report(casino_property, roles):
    refused(
        "comp_report_refused",
        comps.comp_report,
        staff=make_staff(*roles),
        prop=casino_property,
        year=2026,
        month=12,
    )


def test_an_auditor_who_plays_here_does_not_prepare_the_report(casino_property, marie):
    auditor = make_staff(Role.AUDITOR)
    marie.staff = auditor
    marie.save(update_fields=["staff"])
    refused(
        "comp_report_refused",
        comps.comp_report,
        staff=auditor,
        prop=casino_property,
        year=2026,
        month=12,
    )
