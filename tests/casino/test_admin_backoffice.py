"""The admin is Tapis's back office: its name, role names in words, times in the property's zone."""

import datetime as dt

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from casino.permissions import sync_role_permissions
from casino.roles import Role
from tests.factories import PropertyFactory, make_staff


@pytest.fixture
def reader(client, db):
    sync_role_permissions()

    def sign_in(*roles, language="fr"):
        person = make_staff(*roles)
        person.language = language
        person.save(update_fields=["language"])
        client.force_login(person)
        return person

    return sign_in


def test_the_admin_is_branded_tapis_in_both_languages(reader, client):
    reader(Role.MANAGER)
    page = client.get(reverse("admin:index")).content.decode()
    assert "Back-office Tapis" in page and "Django" not in page
    reader(Role.MANAGER, language="en")
    page = client.get(reverse("admin:index")).content.decode()
    assert "Tapis back office" in page and "Django" not in page


def test_roles_read_as_words_not_group_code_names(reader, client):
    reader(Role.STAFF_ADMIN)
    page = client.get(reverse("admin:casino_staff_changelist")).content.decode()
    assert "directeur des jeux" in page and ">manager<" not in page and ">dealer<" not in page
    reader(Role.MANAGER)
    groups = client.get(reverse("admin:auth_group_changelist")).content.decode()
    assert "croupier" in groups and ">staff_admin<" not in groups
    assert Group.objects.filter(name=Role.DEALER).exists()


def test_admin_times_are_in_the_propertys_time_zone(reader, client):
    PropertyFactory(time_zone="Europe/Paris")
    person = reader(Role.STAFF_ADMIN)
    locked = make_staff(Role.DEALER)
    locked.pin_locked_until = dt.datetime(2026, 12, 1, 12, 5, tzinfo=dt.UTC)
    locked.save(update_fields=["pin_locked_until"])
    page = client.get(reverse("admin:casino_staff_change", args=[locked.pk])).content.decode()
    assert "13:05" in page and "12:05" not in page
    assert person.pk and timezone.get_current_timezone_name() == "UTC"  # only for the request


def test_a_reader_sees_an_account_without_the_boxes_to_change_it(reader, client):
    reader(Role.AUDITOR)
    other = make_staff(Role.DEALER)
    page = client.get(reverse("admin:casino_staff_change", args=[other.pk])).content.decode()
    assert "Temporary password" not in page and "Grant roles" not in page
