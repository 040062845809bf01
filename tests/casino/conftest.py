"""The people who administer accounts, and a helper to read what the audit log says of them."""

import pytest
from django.utils import translation

from casino.audit import seal_pending
from casino.models import AuditEntry
from casino.roles import Role
from tests.factories import make_staff


@pytest.fixture
def staff_admin(db):
    return make_staff(Role.STAFF_ADMIN, username="staff_admin")


@pytest.fixture
def other_staff_admin(db):
    return make_staff(Role.STAFF_ADMIN, username="other_staff_admin")


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def codes_about(staff) -> list[str]:
    seal_pending()  # as after each commit: the entries' order is the chain's
    return list(
        AuditEntry.objects.filter(subject_type="casino.staff", subject_id=str(staff.pk))
        .order_by("position")
        .values_list("code", flat=True)
    )
