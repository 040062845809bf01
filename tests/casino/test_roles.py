from django.contrib.auth.models import Group
from django.urls import reverse

from casino.permissions import sync_role_permissions
from casino.roles import Role
from tests.factories import make_staff


def perms(role: str) -> set[str]:
    return set(Group.objects.get(name=role).permissions.values_list("codename", flat=True))


def test_managers_configure_auditors_only_look_and_the_floor_has_no_admin(db):
    sync_role_permissions()
    assert {"add_pit", "change_pit", "view_pit", "change_property", "view_staff"} <= perms(
        "manager"
    )
    assert not {"add_staff", "change_staff"} & perms("manager")
    assert not any(p.startswith("delete_") for p in perms("manager"))
    assert "change_auditentry" not in perms("manager")
    assert {"view_pit", "view_auditentry", "view_staff"} <= perms("auditor")
    assert all(p.startswith("view_") for p in perms("auditor"))
    assert perms("dealer") == set() and perms("supervisor") == set()


def test_staff_administrators_administer_accounts_and_nothing_else(db):
    sync_role_permissions()
    assert perms("staff_admin") == {"add_staff", "change_staff", "view_staff", "view_rolegrant"}


def test_syncing_twice_changes_nothing(db):
    sync_role_permissions()
    before = {role: perms(role) for role in Role.values}
    sync_role_permissions()
    assert {role: perms(role) for role in Role.values} == before


def test_sync_takes_back_a_permission_given_by_hand(db):
    from django.contrib.auth.models import Permission

    sync_role_permissions()
    Group.objects.get(name="dealer").permissions.add(Permission.objects.get(codename="change_pit"))
    sync_role_permissions()
    assert perms("dealer") == set()


def test_the_admin_door_follows_the_roles(db):
    dealer = make_staff(Role.DEALER)
    assert dealer.is_staff is False
    manager = make_staff(Role.MANAGER)
    auditor = make_staff(Role.AUDITOR)
    staff_admin = make_staff(Role.STAFF_ADMIN)
    assert manager.is_staff and auditor.is_staff and staff_admin.is_staff
    manager.groups.set([Group.objects.get(name="dealer")])
    manager.refresh_from_db()
    assert manager.is_staff is False
    dealer.groups.add(Group.objects.get(name="auditor"))
    dealer.refresh_from_db()
    assert dealer.is_staff is True


def test_only_managers_and_auditors_reach_the_admin(client, dealer, supervisor, manager, auditor):
    index = reverse("admin:index")
    for person, allowed in ((dealer, False), (supervisor, False), (manager, True), (auditor, True)):
        client.force_login(person)
        response = client.get(index)
        if allowed:
            assert response.status_code == 200, person
        else:
            assert response.status_code == 302 and "/admin/login/" in response["Location"]
    client.logout()
    assert client.get(index).status_code == 302


def test_an_auditor_can_view_but_not_change_configuration(client, auditor, casino_property):
    client.force_login(auditor)
    url = reverse("admin:casino_property_change", args=[casino_property.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Renamed"})
    assert response.status_code == 403
    casino_property.refresh_from_db()
    assert casino_property.name == "Casino de démonstration"
    assert client.get(reverse("admin:casino_pit_add")).status_code == 403


def test_a_manager_cannot_make_anyone_superuser_from_the_admin(client, manager, dealer):
    client.force_login(manager)
    url = reverse("admin:casino_staff_change", args=[dealer.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert b'name="is_superuser"' not in page.content
    assert b'name="user_permissions"' not in page.content
    assert b'name="is_staff"' not in page.content


def test_a_manager_cannot_change_a_superuser_account(client, manager):
    from casino.models import Staff

    root = Staff.objects.create_superuser("root", password="root-Pw-2026")
    client.force_login(manager)
    url = reverse("admin:casino_staff_change", args=[root.pk])
    response = client.post(url, {"username": "root", "new_password": "taken-over-2026"})
    assert response.status_code == 403
    root.refresh_from_db()
    assert root.check_password("root-Pw-2026")


def test_a_read_only_audited_admin_grants_managers_nothing_to_change():
    from django.contrib import admin

    from casino.admin_audit import AuditedModelAdmin
    from casino.models import Pit
    from casino.permissions import _admin_allows

    class ReadOnlyPits(AuditedModelAdmin):
        def has_add_permission(self, request):
            return False

        def has_change_permission(self, request, obj=None):
            return False

    assert not _admin_allows(ReadOnlyPits(Pit, admin.site), "add")
    assert not _admin_allows(ReadOnlyPits(Pit, admin.site), "change")
    assert _admin_allows(AuditedModelAdmin(Pit, admin.site), "add")
    assert _admin_allows(AuditedModelAdmin(Pit, admin.site), "change")


def test_the_signed_in_staff_member_and_their_roles_are_one_query(db, django_assert_num_queries):
    from casino.backends import LockoutBackend
    from casino.roles import Role, has_role, role_names
    from tests.factories import make_staff

    both = make_staff(Role.DEALER, Role.SUPERVISOR, username="both")
    nobody = make_staff(username="no-role")
    with django_assert_num_queries(1):
        staff = LockoutBackend().get_user(both.pk)
        assert role_names(staff) == {"dealer", "supervisor"} and has_role(staff, Role.DEALER)
    assert staff == both and staff.username == "both"
    with django_assert_num_queries(1):
        assert role_names(LockoutBackend().get_user(nobody.pk)) == set()
    assert LockoutBackend().get_user(10**12) is None
    nobody.is_active = False
    nobody.save(update_fields=["is_active"])
    assert LockoutBackend().get_user(nobody.pk) is None
