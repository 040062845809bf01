"""Who set a password or PIN is recorded on the account (issue 23, 2), by the services and,
for the accounts that existed before, by the migration from the audit log."""

import importlib

from django.apps import apps

from casino import staffing
from casino.audit import atomic_audit
from casino.models import Staff
from casino.roles import Role
from tests.factories import make_staff


def test_each_way_of_setting_someone_elses_credentials_records_who(db):
    admin = make_staff(Role.STAFF_ADMIN, username="rh-1")
    dealer = make_staff(Role.DEALER, username="d-1")
    assert Staff.objects.get(pk=dealer.pk).credentials_set_by_id is None  # the console's
    created = staffing.staff_create(
        username="new-1", roles=[], password="Fresh-Felt-2026!", pin="2468", actor=admin
    )
    assert Staff.objects.get(pk=created.pk).credentials_set_by_id == admin.pk
    staffing.staff_temporary_pin_set(staff_id=dealer.pk, pin="8642", actor=admin)
    dealer = Staff.objects.get(pk=dealer.pk)
    assert (dealer.credentials_set_by_id, dealer.credentials_set_at is not None) == (
        admin.pk,
        True,
    )
    # Choosing one's own does not clear it: it was chosen in a session the temporary opened.
    staffing.staff_secrets_change(staff=dealer, pin="9753")
    assert Staff.objects.get(pk=dealer.pk).credentials_set_by_id == admin.pk


def test_the_migration_reads_who_set_them_from_the_audit_log(db):
    admin = make_staff(Role.STAFF_ADMIN, username="rh-2")
    dealer = make_staff(Role.DEALER, username="d-2")
    atomic_audit(actor=admin, code="casino.pin.temporary_set", subject=dealer, data={})
    atomic_audit(actor=dealer, code="casino.pin.set", subject=dealer, data={})  # their own
    migration = importlib.import_module("casino.migrations.0007_credentials_set_by")
    migration.from_the_audit_log(apps, None)
    assert Staff.objects.get(pk=dealer.pk).credentials_set_by_id == admin.pk
    assert Staff.objects.get(pk=admin.pk).credentials_set_by_id is None
