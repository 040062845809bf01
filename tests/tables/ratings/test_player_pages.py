"""The player file's pages for each role: a dealer sees none of it, the pit alias and status,
hosts no identity, compliance and auditors the identity, each reading audited."""

import json

import pytest
from django.test import Client

from casino.models import AuditEntry
from casino.roles import Role
from tables.ratings.identity import identity_record
from tables.ratings.models import Player, PlayerIdentity
from tests.factories import make_staff

pytestmark = pytest.mark.django_db

READERS = {Role.SUPERVISOR, Role.MANAGER, Role.HOST, Role.COMPLIANCE, Role.AUDITOR}


def client_of(role) -> Client:
    client = Client()
    client.force_login(make_staff(role))
    return client


@pytest.fixture
def identified(carded, officer):
    identity_record(
        officer=officer, player_id=carded.pk, family_name="Dupont", document_kind="passport"
    )
    return carded


def urls(player):
    base = f"/players/{player.pk}/"
    gets = ["/players/", base, base + "identity/"]
    posts = [
        "/players/new/",
        base + "link/",
        base + "identity/record/",
        base + "status/",
        base + "export/",
        base + "erase/",
    ]
    return gets, posts


WHO = {
    "/players/": READERS,
    "/players/new/": {Role.SUPERVISOR},
    "": READERS,
    "link/": {Role.SUPERVISOR},
    "identity/": {Role.COMPLIANCE, Role.AUDITOR},
    "identity/record/": {Role.COMPLIANCE},
    "status/": {Role.COMPLIANCE},
    "export/": {Role.COMPLIANCE},
    "erase/": {Role.COMPLIANCE},
}


def _who(url, player):
    return WHO.get(url) or WHO[url.removeprefix(f"/players/{player.pk}/")]


@pytest.mark.parametrize("role", list(Role))
def test_each_role_opens_exactly_its_pages(identified, role):
    client = client_of(role)
    gets, posts = urls(identified)
    for url in gets:
        status = client.get(url).status_code
        assert (status == 200) is (role in _who(url, identified)), (role, url, status)
    for url in posts:
        status = client.post(url, {}).status_code  # an empty form: refused or sent back
        assert (status != 403) is (role in _who(url, identified)), (role, url, status)
    assert Player.objects.get(pk=identified.pk).erased_at is None


def test_the_pit_sees_alias_and_status_and_no_identity(identified):
    for role in (Role.SUPERVISOR, Role.HOST, Role.MANAGER):
        page = client_of(role).get(f"/players/{identified.pk}/").content.decode()
        assert "Marie D." in page and 'data-status="active"' in page
        assert "Dupont" not in page and "data-identity-link" not in page


def test_reading_the_identity_page_is_audited_each_time(identified):
    for role in (Role.COMPLIANCE, Role.AUDITOR):
        client = client_of(role)
        page = client.get(f"/players/{identified.pk}/identity/").content.decode()
        assert "Dupont" in page
        client.get(f"/players/{identified.pk}/identity/")
    viewed = AuditEntry.objects.filter(code="player.identity.viewed", subject_id=str(identified.pk))
    assert viewed.count() == 4


def test_an_auditor_reads_the_identity_but_has_no_form(identified):
    page = client_of(Role.AUDITOR).get(f"/players/{identified.pk}/identity/").content.decode()
    assert "identity-record" not in page


def test_a_supervisor_adds_and_links_through_the_pages(casino_property, supervisor):
    client = Client()
    client.force_login(supervisor)
    answer = client.post("/players/new/", {"card": "777", "alias": "Paul"})
    player = Player.objects.get(card="777")
    assert answer.status_code == 302 and answer["Location"] == f"/players/{player.pk}/"
    refused = client.post("/players/new/", {"card": "777", "alias": "Twin"}, follow=True)
    assert "777" in refused.content.decode() and Player.objects.count() == 1
    anonymous = Player.objects.create(property=casino_property, alias="woman, green scarf")
    client.post(f"/players/{anonymous.pk}/link/", {"card": "778"})
    assert Player.objects.get(pk=anonymous.pk).card == "778"


def test_compliance_records_sets_status_exports_and_erases_through_the_pages(carded, officer):
    client = Client()
    client.force_login(officer)
    base = f"/players/{carded.pk}/"
    client.post(
        base + "identity/record/",
        {
            "family_name": "Martin",
            "given_names": "Léa",
            "birth_date": "1990-02-03",
            "document_kind": "identity_card",
        },
    )
    assert PlayerIdentity.objects.get(player=carded).family_name == "Martin"
    bad_date = client.post(base + "identity/record/", {"family_name": "M", "birth_date": "3/2/90"})
    assert bad_date.status_code == 302
    client.post(base + "status/", {"status": "barred", "reason": "fraud"})
    assert Player.objects.get(pk=carded.pk).status == "barred"
    exported = client.post(base + "export/")
    assert exported["Content-Disposition"] == f'attachment; filename="player-{carded.pk}.json"'
    assert (
        json.loads(exported.content)["items"]["ratings.playeridentity"][0]["family_name"]
        == "Martin"
    )
    client.post(base + "erase/", {"reason": "asked"})
    assert Player.objects.get(pk=carded.pk).card is None


def test_a_compliance_officer_lands_on_the_player_file(casino_property):
    from casino.views import home_url

    assert home_url(make_staff(Role.COMPLIANCE)) == "/players/"
    assert home_url(make_staff(Role.HOST)) == "/players/"
    assert home_url(make_staff(Role.HOST, Role.SUPERVISOR)) != "/players/"
