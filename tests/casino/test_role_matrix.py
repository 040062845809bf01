"""Who may do what, cell by cell: each row of ROLE_MATRIX is tried by a person holding each
role alone, through the service itself or, for a page, its view. The role matrix of
docs/reference/roles.md is this same data (test_the_roles_page_shows_this_matrix)."""

import pathlib

import pytest
from django.test import Client
from django.urls import reverse

from casino import staffing
from casino.errors import RoleRequired
from casino.pins import pin_verify, staff_pin_unlock
from casino.roles import Role
from jackpot import services
from jackpot.models import MeterReading
from tests.factories import make_staff
from tests.jackpot.factories import adjust, hit, make_bank

D, S, M, A, X = Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR, Role.STAFF_ADMIN
H, C = Role.HOST, Role.COMPLIANCE
COLUMNS = [D, S, M, A, X, H, C]
PASSWORD = "Fresh-Felt-2026!"


class World:
    """The things an attempt acts on, made on first use by people other than the tester."""

    def __init__(self):
        self._made = {}

    def _once(self, name, make):
        if name not in self._made:
            self._made[name] = make()
        return self._made[name]

    @property
    def bank(self):
        return self._once("bank", lambda: make_bank(manager=self.other(M)))

    def other(self, role):
        return self._once(f"other-{role}", lambda: make_staff(role))

    @property
    def player(self):
        from tables.ratings.players import player_create

        return self._once(
            "player", lambda: player_create(supervisor=self.other(S), alias="Marie D.", card="1")
        )

    @property
    def colleague(self):
        return self._once("colleague", lambda: make_staff(D))


def service(call):
    """A service attempt: refused means RoleRequired; any other error fails the test."""

    def attempt(person, world):
        try:
            call(person, world)
        except RoleRequired:
            return False
        return True

    return attempt


def page(url_name, *args):
    """A page attempt: the page opens (200) or it is refused (403, or the login)."""

    def attempt(person, world):
        client = Client()
        client.force_login(person)
        response = client.get(reverse(url_name, args=args))
        assert response.status_code in (200, 302, 403), response.status_code
        return response.status_code == 200

    return attempt


def _hit_record(person, world):
    hit(world.bank, person)


def _hit_verify(person, world):
    won = hit(world.bank, world.other(D))
    services.hit_verify(hit_id=won.pk, supervisor=person)


def _approve_by_pin(person, world):
    pin_verify(employee_number=person.employee_number, pin="1234", role=S)


def _unlock(person, world):
    staff_pin_unlock(staff_id=world.colleague.pk, supervisor=person)


def _parameters_request(person, world):
    services.parameter_change_request(
        bank_id=world.bank.pk, params={"reset_cents": 20_000}, reason="matrix", manager=person
    )


def _parameters_approve(person, world):
    change = services.parameter_change_request(
        bank_id=world.bank.pk,
        params={"reset_cents": 20_000},
        reason="matrix",
        manager=world.other(M),
    )
    services.parameter_change_approve(change_id=change.pk, manager=person)


def _adjust(person, world):
    adjust(
        bank_id=world.bank.pk,
        meter_after_cents=12_000,
        reason="matrix",
        requested_by=world.other(M),
        approved_by=person,
    )


def _reading(person, world):
    services.meter_reading_take(
        bank_id=world.bank.pk, reason=MeterReading.Reason.MANUAL, actor=person
    )


def _staff_create(person, world):
    staffing.staff_create(username="newcomer", roles=[D], password=PASSWORD, actor=person)


def _grant_request(person, world):
    staffing.role_grant_request(staff_id=world.colleague.pk, role=S, actor=person)


def _grant_approve(person, world):
    grant = staffing.role_grant_request(staff_id=world.colleague.pk, role=S, actor=world.other(X))
    staffing.role_grant_approve(grant_id=grant.pk, approver=person)


def _temporary_secrets(person, world):
    staffing.staff_temporary_password_set(
        staff_id=world.colleague.pk, password=PASSWORD, actor=person
    )
    staffing.staff_temporary_pin_set(staff_id=world.colleague.pk, pin="8642", actor=person)


def _deactivate(person, world):
    staffing.staff_deactivate(staff_id=world.colleague.pk, actor=person)


def _own_secrets(person, world):
    staffing.staff_secrets_change(staff=person, password=PASSWORD, pin="8642")


def _player_add(person, world):
    from tables.ratings.players import player_create

    player_create(supervisor=person, alias="Paul", card="2")


def _identity_read(person, world):
    from tables.ratings.identity import identity_view

    identity_view(reader=person, player_id=world.player.pk)


def _identity_record(person, world):
    from tables.ratings.identity import identity_record

    identity_record(
        officer=person, player_id=world.player.pk, family_name="D", document_kind="passport"
    )


def _access_request(person, world):
    from tables.ratings.privacy import player_data_export

    player_data_export(officer=person, player_id=world.player.pk)


def _player_page(person, world):
    return page("players:detail", world.player.pk)(person, world)


def _comp_issue(person, world):
    from casino.errors import NotFound
    from tables.ratings.comps import comp_issue

    try:  # past the role's gate, the rating is looked up: no such rating
        comp_issue(staff=person, rating_id=0, amount_cents=100, description="Dinner")
    except NotFound:
        pass


def _comp_approve(person, world):
    from casino.errors import NotFound
    from tables.ratings.comps import comp_approve

    try:
        comp_approve(staff=person, comp_id=0)
    except NotFound:
        pass


def _comp_report(person, world):
    from casino.clock import current_property
    from tables.ratings.comps import comp_report

    comp_report(staff=person, prop=current_property(), year=2026, month=11)


def _comp_report_csv(person, world):
    from casino.clock import current_property
    from tables.ratings.comp_export import comp_report_csv

    comp_report_csv(staff=person, prop=current_property(), year=2026, month=11)


def _time_correct(person, world):
    from casino.errors import NotFound
    from tables.ratings.corrections import rating_time_correct

    try:  # past the role's gate, the rating is looked up: no such rating
        rating_time_correct(
            rating_id=10**9, staff=person, key="matrix", reason="why", opened_at=None,
            closed_at="2026-11-01T20:00:00+00:00",
        )  # fmt: skip
    except NotFound:
        pass


# action (as docs/reference/roles.md says it) -> (roles that may, how it is tried)
ROLE_MATRIX = {
    "Open the floor pages (`/tables/`)": ({D, S, M, A}, page("tables:table_list")),
    "Record a progressive hit (`hit_record`)": ({D, S}, service(_hit_record)),
    "Verify someone else's hit (`hit_verify`)": ({S}, service(_hit_verify)),
    "Approve a void or a correction with one's PIN": ({S}, service(_approve_by_pin)),
    "Unlock a locked PIN (`/staff/locked-pins/`)": ({S, M}, service(_unlock)),
    "Take a meter reading (`meter_reading_take`)": ({S, M, A}, service(_reading)),
    "Ask for a parameter change (`parameter_change_request`)": ({M}, service(_parameters_request)),
    "Approve someone else's parameter change": ({M}, service(_parameters_approve)),
    "Approve someone else's meter adjustment (`adjustment_approve`)": ({M}, service(_adjust)),
    "Configure in the admin (pits, tables, banks...)": ({M}, page("admin:casino_pit_add")),
    "Read the audit log (admin)": ({M, A}, page("admin:casino_auditentry_changelist")),
    "Enter the admin (`/admin/`)": ({M, A, X}, page("admin:index")),
    "Add staff (`staff_create`, admin)": ({X}, service(_staff_create)),
    "Add staff page (admin)": ({X}, page("admin:casino_staff_add")),
    "Ask for a role grant (`role_grant_request`)": ({X}, service(_grant_request)),
    "Approve someone else's role grant (`role_grant_approve`)": ({X}, service(_grant_approve)),
    "Set a temporary password or PIN": ({X}, service(_temporary_secrets)),
    "Deactivate or reactivate an account": ({X}, service(_deactivate)),
    "Choose one's own password and PIN (`/account/secrets/`)": (
        {D, S, M, A, X, H, C},
        service(_own_secrets),
    ),
    "Add a player or link one to a card (`player_create`, `player_link`)": (
        {S},
        service(_player_add),
    ),
    "Open a player's file: alias, card, status (`/players/<id>/`)": (
        {S, M, A, H, C},
        _player_page,
    ),
    "Read a player's identity, each reading audited (`identity_view`)": (
        {A, C},
        service(_identity_read),
    ),
    "Record identity, bar or self-exclude (`identity_record`, `player_status_set`)": (
        {C},
        service(_identity_record),
    ),
    "Answer an access request, erase a player (`player_data_export`, `player_erase`)": (
        {C},
        service(_access_request),
    ),
    "Issue a comp, within one's role's limit (`comp_issue`)": ({S, H}, service(_comp_issue)),
    "Approve or decline a comp above the issuer's limit (`comp_approve`)": (
        {M},
        service(_comp_approve),
    ),
    "Prepare the monthly comp report (`comp_report`)": ({A}, service(_comp_report)),
    "Download the monthly comp report as CSV (`comp_report_csv`)": (
        {A},
        service(_comp_report_csv),
    ),
    "Correct a rating's open or close time, with a reason (`rating_time_correct`)": (
        {S},
        service(_time_correct),
    ),
    "Read the anti-money-laundering log (`/compliance/aml/`)": ({A, C}, page("compliance:aml")),
}

CELLS = [(action, role) for action in ROLE_MATRIX for role in COLUMNS]


@pytest.mark.parametrize("action, role", CELLS, ids=[f"{a[:40]}-{r}" for a, r in CELLS])
def test_each_role_may_do_exactly_what_the_matrix_says(db, casino_property, action, role):
    allowed, attempt = ROLE_MATRIX[action]
    person = make_staff(role, pin="1234")
    assert attempt(person, World()) is (role in allowed), f"{role}: {action}"


def _documented_matrix() -> dict[str, set[str]]:
    text = (pathlib.Path(__file__).parents[2] / "docs" / "reference" / "roles.md").read_text()
    block = text.split("<!-- role-matrix -->")[1].split("<!-- /role-matrix -->")[0]
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    found = {}
    for line in rows[1:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        found[cells[0]] = {header[i] for i, cell in enumerate(cells) if i and cell == "✓"}
    return found, header


def test_the_roles_page_shows_this_matrix():
    found, header = _documented_matrix()
    assert header[1:] == [f"`{r}`" for r in COLUMNS]
    by_column = {f"`{r}`": r for r in COLUMNS}
    assert {action: {by_column[c] for c in cols} for action, cols in found.items()} == {
        action: {str(r) for r in roles} for action, (roles, _attempt) in ROLE_MATRIX.items()
    }


# --- the two-person rules' own matrix (docs/architecture/two-person-rules.md) ---------------


def role_first(call):
    """An attempt on a request that does not exist: the service checks the role before it
    looks for the request, so a refusal is RoleRequired and anything else (the request not
    found) means the role got through."""

    def attempt(person, world):
        from casino.errors import CasinoError

        try:
            call(person, world)
        except RoleRequired:
            return False
        except CasinoError:
            return True
        raise AssertionError("a request that does not exist was decided")

    return attempt


def _correction_approve(person, world):
    from tables.services.rounds import round_correction_approve

    round_correction_approve(request_id=10**9, approver=person, pin="1234")


def _deployment_request(person, world):
    from tables.services import ruleset_deployment_request

    ruleset_deployment_request(table_id=10**9, ruleset_id=10**9, manager=person)


def _deployment_approve(person, world):
    from tables.services import ruleset_deployment_approve

    ruleset_deployment_approve(deployment_id=10**9, manager=person)


def _table_create(person, world):
    from tables.services import table_create

    table_create(
        manager=person,
        name="Matrix",
        pit_id=10**9,
        min_bet_cents=1_000,
        max_bet_cents=20_000,
        ruleset_id=10**9,
    )


def _open_unapproved_table(person, world):
    """A table another manager created, its first rule set not yet approved: nobody opens it."""
    from casino.models import Property
    from tables.errors import IllegalTransition
    from tables.services import table_create, table_open
    from tests.factories import PitFactory
    from tests.tables.factories import make_ruleset

    creator = world.other(M)
    table = table_create(
        manager=creator,
        name="Matrix",
        pit_id=PitFactory(property=Property.objects.get()).pk,
        min_bet_cents=1_000,
        max_bet_cents=20_000,
        ruleset_id=make_ruleset(creator).pk,
    )
    try:
        table_open(table_id=table.pk, supervisor=person)
    except RoleRequired:
        return False
    except IllegalTransition as refused:
        assert refused.code == "ruleset_not_approved"
        return False
    return True


def _adjustment_request(person, world):
    services.adjustment_request(
        bank_id=world.bank.pk, meter_after_cents=12_000, reason="matrix", manager=person
    )


def _adjustment_approve(person, world):
    asked = services.adjustment_request(
        bank_id=world.bank.pk, meter_after_cents=12_000, reason="matrix", manager=world.other(M)
    )
    services.adjustment_approve(adjustment_id=asked.pk, manager=person)


def _adjustment_page(person, world):
    client = Client()
    client.force_login(person)
    response = client.get(reverse("pit:adjustment_ask", args=[world.bank.pk]))
    assert response.status_code in (200, 302, 403), response.status_code
    return response.status_code == 200


TWO_PERSON_MATRIX = {
    "Approve someone else's correction (`round_correction_approve`)": (
        {S, M},
        role_first(_correction_approve),
    ),
    "Ask for a rule set deployment (`ruleset_deployment_request`)": (
        {M},
        role_first(_deployment_request),
    ),
    "Approve someone else's rule set deployment (`ruleset_deployment_approve`)": (
        {M},
        role_first(_deployment_approve),
    ),
    "Create a table, its first rule set asked for (`table_create`, admin)": (
        {M},
        role_first(_table_create),
    ),
    "Open a table whose first rule set waits for approval (`table_open`)": (
        set(),
        _open_unapproved_table,
    ),
    "Ask for a meter adjustment (`adjustment_request`)": ({M}, service(_adjustment_request)),
    "Approve someone else's meter adjustment (`adjustment_approve`)": (
        {M},
        service(_adjustment_approve),
    ),
    "Open the meter adjustment page (`/pit/banks/<id>/adjust/`)": ({M}, _adjustment_page),
}
TWO_PERSON_CELLS = [(action, role) for action in TWO_PERSON_MATRIX for role in COLUMNS]


@pytest.mark.parametrize(
    "action, role", TWO_PERSON_CELLS, ids=[f"{a[:40]}-{r}" for a, r in TWO_PERSON_CELLS]
)
def test_each_role_may_take_exactly_its_part_in_the_two_person_rules(
    db, casino_property, action, role
):
    allowed, attempt = TWO_PERSON_MATRIX[action]
    person = make_staff(role, pin="1234")
    assert attempt(person, World()) is (role in allowed), f"{role}: {action}"


def test_this_page_shows_the_two_person_matrix():
    path = pathlib.Path(__file__).parents[2] / "docs" / "architecture" / "two-person-rules.md"
    block = path.read_text().split("<!-- two-person-matrix -->")[1]
    block = block.split("<!-- /two-person-matrix -->")[0]
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert header[1:] == [f"`{r}`" for r in COLUMNS]
    found = {}
    for line in rows[1:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        found[cells[0]] = {str(COLUMNS[i - 1]) for i, cell in enumerate(cells) if i and cell == "✓"}
    assert found == {
        action: {str(r) for r in roles} for action, (roles, _attempt) in TWO_PERSON_MATRIX.items()
    }
