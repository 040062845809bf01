"""Accounts and roles belong to staff administrators, and never to one of them alone: a
privileged grant waits for a second one, nobody grants themselves a role, and what an
administrator sets for someone else's password or PIN is temporary."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from casino import staffing
from casino.errors import CasinoError, IllegalTransition, RoleRequired, TwoPeopleRequired
from casino.models import AuditEntry, RoleGrant, Staff
from casino.roles import Role, role_names
from tests.casino.conftest import codes_about
from tests.factories import make_staff

NEW_PASSWORD = "Fresh-Felt-2026!"
pytestmark = pytest.mark.usefixtures("english")


def roles_of(staff) -> set[str]:
    return set(Staff.objects.get(pk=staff.pk).groups.values_list("name", flat=True))


def test_a_dealers_role_is_granted_at_once_and_audited(staff_admin, dealer):
    supervisor_to_be = make_staff()
    grant = staffing.role_grant_request(
        staff_id=supervisor_to_be.pk, role=Role.DEALER, actor=staff_admin
    )
    assert grant.state == RoleGrant.State.GRANTED
    assert roles_of(supervisor_to_be) == {"dealer"}
    assert codes_about(supervisor_to_be)[-1] == "casino.role.granted"


@pytest.mark.parametrize("role", [Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR, Role.STAFF_ADMIN])
def test_a_privileged_role_waits_for_a_second_staff_administrator(
    role, staff_admin, other_staff_admin
):
    someone = make_staff()
    grant = staffing.role_grant_request(
        staff_id=someone.pk, role=role, actor=staff_admin, reason="promotion"
    )
    assert grant.state == RoleGrant.State.REQUESTED and roles_of(someone) == set()
    with pytest.raises(TwoPeopleRequired):
        staffing.role_grant_approve(grant_id=grant.pk, approver=staff_admin)
    assert roles_of(someone) == set()
    staffing.role_grant_approve(grant_id=grant.pk, approver=other_staff_admin)
    assert roles_of(someone) == {str(role)}
    assert codes_about(someone)[-2:] == ["casino.role.grant_requested", "casino.role.granted"]
    granted = AuditEntry.objects.filter(code="casino.role.granted").last()
    assert granted.actor_id == other_staff_admin.pk
    assert granted.data["requested_by"] == staff_admin.pk
    refused = AuditEntry.objects.get(code="casino.duties.refused")
    assert refused.actor_id == staff_admin.pk
    assert refused.data == {
        "action": "casino.role.grant",
        "asker": staff_admin.pk,
        "approver": staff_admin.pk,
        "reason": "same_person",
    }


def test_nobody_grants_a_role_to_themselves(staff_admin):
    with pytest.raises(TwoPeopleRequired):
        staffing.role_grant_request(staff_id=staff_admin.pk, role=Role.MANAGER, actor=staff_admin)
    assert not RoleGrant.objects.exists()
    assert roles_of(staff_admin) == {"staff_admin"}
    refused = AuditEntry.objects.get(code="casino.duties.refused")
    assert refused.data["action"] == "casino.role.request"


def test_an_administrator_the_requester_armed_recently_cannot_approve(staff_admin, settings):
    accomplice = staffing.staff_create(
        username="accomplice", roles=[], password=NEW_PASSWORD, actor=staff_admin
    )
    accomplice.groups.add(Group.objects.get(name="staff_admin"))  # say it got through somehow
    grant = staffing.role_grant_request(
        staff_id=make_staff().pk, role=Role.MANAGER, actor=staff_admin
    )
    with pytest.raises(TwoPeopleRequired, match="created their account"):
        staffing.role_grant_approve(grant_id=grant.pk, approver=Staff.objects.get(pk=accomplice.pk))
    settings.SEPARATION_DAYS = 0  # the window has passed
    staffing.role_grant_approve(grant_id=grant.pk, approver=Staff.objects.get(pk=accomplice.pk))


def test_a_staff_administrator_holds_no_other_role(staff_admin, other_staff_admin, dealer):
    with pytest.raises(CasinoError) as refused:
        staffing.role_grant_request(staff_id=dealer.pk, role=Role.STAFF_ADMIN, actor=staff_admin)
    assert refused.value.code == "role_conflict"
    with pytest.raises(CasinoError):
        staffing.role_grant_request(
            staff_id=other_staff_admin.pk, role=Role.DEALER, actor=staff_admin
        )
    with pytest.raises(CasinoError):
        staffing.staff_create(username="both", roles=["manager", "staff_admin"], actor=staff_admin)


@pytest.mark.parametrize("role", [Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR])
def test_only_a_staff_administrator_administers_accounts(role, dealer):
    actor = make_staff(role)
    calls = [
        lambda: staffing.staff_create(username="x", roles=[], password=NEW_PASSWORD, actor=actor),
        lambda: staffing.role_grant_request(staff_id=dealer.pk, role=Role.MANAGER, actor=actor),
        lambda: staffing.role_revoke(staff_id=dealer.pk, role=Role.DEALER, actor=actor),
        lambda: staffing.staff_deactivate(staff_id=dealer.pk, actor=actor),
        lambda: staffing.staff_temporary_password_set(
            staff_id=dealer.pk, password=NEW_PASSWORD, actor=actor
        ),
        lambda: staffing.staff_temporary_pin_set(staff_id=dealer.pk, pin="8642", actor=actor),
    ]
    for call in calls:
        with pytest.raises(RoleRequired):
            call()
    assert roles_of(dealer) == {"dealer"} and Staff.objects.get(pk=dealer.pk).is_active


def test_a_new_account_gets_temporary_secrets_and_its_privileged_roles_wait(staff_admin):
    staff = staffing.staff_create(
        username="newcomer",
        roles=["dealer", "supervisor"],
        password=NEW_PASSWORD,
        pin="2468",
        employee_number="7001",
        actor=staff_admin,
    )
    assert staff.password_is_temporary and staff.pin_is_temporary
    assert roles_of(staff) == {"dealer"}
    assert RoleGrant.objects.get(staff=staff, state="requested").role == "supervisor"
    assert codes_about(staff) == [
        "casino.staff.created",
        "casino.role.granted",
        "casino.role.grant_requested",
    ]


def test_a_grant_is_rejected_once_and_audited(staff_admin, other_staff_admin, dealer):
    grant = staffing.role_grant_request(staff_id=dealer.pk, role=Role.SUPERVISOR, actor=staff_admin)
    staffing.role_grant_reject(grant_id=grant.pk, actor=other_staff_admin, reason="no")
    assert RoleGrant.objects.get(pk=grant.pk).state == "rejected"
    with pytest.raises(IllegalTransition):
        staffing.role_grant_approve(grant_id=grant.pk, approver=other_staff_admin)
    assert roles_of(dealer) == {"dealer"}
    assert codes_about(dealer)[-1] == "casino.role.grant_rejected"


def test_revoking_and_deactivating_are_audited_and_take_effect(staff_admin, supervisor):
    staffing.role_revoke(staff_id=supervisor.pk, role=Role.SUPERVISOR, actor=staff_admin)
    assert roles_of(supervisor) == set()
    staffing.staff_deactivate(staff_id=supervisor.pk, actor=staff_admin)
    assert not Staff.objects.get(pk=supervisor.pk).is_active
    staffing.staff_reactivate(staff_id=supervisor.pk, actor=staff_admin)
    assert codes_about(supervisor)[-3:] == [
        "casino.role.revoked",
        "casino.staff.deactivated",
        "casino.staff.reactivated",
    ]
    with pytest.raises(TwoPeopleRequired):
        staffing.staff_deactivate(staff_id=staff_admin.pk, actor=staff_admin)


def test_a_superuser_is_not_administered_from_the_floor(staff_admin):
    root = Staff.objects.create_superuser("root", password="root-Pw-2026")
    with pytest.raises(CasinoError) as refused:
        staffing.staff_temporary_password_set(
            staff_id=root.pk, password=NEW_PASSWORD, actor=staff_admin
        )
    assert refused.value.code == "superuser_account"


def test_the_console_gives_the_first_staff_administrator(db, capsys):
    from django.core.management import call_command

    first = make_staff(username="first-admin")
    call_command("role_grant", "first-admin", "staff_admin")
    assert role_names(Staff.objects.get(pk=first.pk)) == {"staff_admin"}
    entry = AuditEntry.objects.get(code="casino.role.granted")
    assert entry.actor_id is None and entry.data["role"] == "staff_admin"


# --- the admin ------------------------------------------------------------------------------


def test_a_staff_administrator_adds_staff_in_the_admin(client, staff_admin, english):
    client.force_login(staff_admin)
    response = client.post(
        reverse("admin:casino_staff_add"),
        {
            "username": "newcomer",
            "first_name": "New",
            "last_name": "Comer",
            "employee_number": "7002",
            "language": "",
            "roles": ["dealer", "manager"],
            "temporary_password": NEW_PASSWORD,
            "temporary_pin": "2468",
        },
    )
    assert response.status_code == 302, response.content
    staff = Staff.objects.get(username="newcomer")
    assert staff.password_is_temporary and staff.pin_is_temporary
    assert roles_of(staff) == {"dealer"}
    assert RoleGrant.objects.get(staff=staff, state="requested").role == "manager"
    assert not AuditEntry.objects.filter(code="admin.casino.staff.add").exists()
    assert AuditEntry.objects.get(code="casino.staff.created").actor_id == staff_admin.pk


def test_a_staff_administrator_cannot_arm_their_own_account_in_the_admin(client, staff_admin):
    client.force_login(staff_admin)
    client.cookies["django_language"] = "en"
    url = reverse("admin:casino_staff_change", args=[staff_admin.pk])
    response = client.post(
        url,
        {
            "username": staff_admin.username,
            "first_name": "",
            "last_name": "",
            "employee_number": staff_admin.employee_number,
            "language": "",
            "grant_roles": ["manager"],
        },
    )
    assert response.status_code == 200  # the form again, with the refusal
    errors = response.context["adminform"].form.non_field_errors()
    assert len(errors) == 1 and "second person" in errors[0]
    assert roles_of(staff_admin) == {"staff_admin"} and not RoleGrant.objects.exists()
    assert AuditEntry.objects.filter(code="casino.duties.refused").count() == 1


def test_a_second_staff_administrator_approves_a_grant_in_the_admin(
    client, staff_admin, other_staff_admin, dealer
):
    grant = staffing.role_grant_request(staff_id=dealer.pk, role=Role.MANAGER, actor=staff_admin)
    changelist = reverse("admin:casino_rolegrant_changelist")
    client.force_login(staff_admin)
    client.post(changelist, {"action": "approve", "_selected_action": [grant.pk]})
    assert roles_of(dealer) == {"dealer"}
    client.force_login(other_staff_admin)
    client.post(changelist, {"action": "approve", "_selected_action": [grant.pk]})
    assert roles_of(dealer) == {"dealer", "manager"}
