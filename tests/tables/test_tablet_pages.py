"""The tablet page: which table it opens for whom, and what it says when none."""

import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from casino.models import Staff
from tables.models import Table
from tables.tablet.selectors import declarable_irregularities
from tables.tablet.views import chips


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=io.StringIO())
    return {t.name: t for t in Table.objects.all()}


def signed_in(username: str, language: str = "en") -> Client:
    client = Client()
    client.force_login(Staff.objects.get(username=username))
    client.cookies["tapis_device_language"] = language
    return client


def page_data(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="tablet-page" type="application/json">') + 49
    return json.loads(html[start : html.index("</script>", start)])


def test_a_dealer_lands_on_the_table_they_deal_now(demo):
    response = signed_in("croupier").get("/tablet/")
    assert response.status_code == 200
    data = page_data(response)
    assert data["table"]["name"] == "UTH 1" and data["is_dealer"] is True
    assert data["money"] == {"currency": "EUR", "symbol": "€", "language": "en"}
    assert [lvl["level"] for lvl in data["meter"]][:1] == ["royal_flush"]


def test_every_card_button_is_named_by_its_code(demo):
    html = signed_in("croupier").get("/tablet/").content.decode()
    for code in ("As", "Td", "2c", "Kh"):
        assert f'data-card="{code}" aria-label="{code}"' in html
    assert html.count('class="card ') == 52


def test_a_dealer_not_assigned_anywhere_is_told_so_with_the_tables(demo):
    from tests.factories import make_staff

    make_staff("dealer", username="relief")
    response = signed_in("relief").get("/tablet/")
    text = response.content.decode()
    assert response.status_code == 200
    assert "You are not assigned to a table now." in text
    assert all(name in text for name in ("UTH 1", "UTH 2", "UTH 3", "UTH 4"))


def test_a_dealer_opening_another_tables_tablet_is_told_it_is_not_theirs(demo):
    response = signed_in("croupier").get(f"/tablet/{demo['UTH 2'].pk}/")
    text = response.content.decode()
    assert "UTH 2 is not your table: you are dealing UTH 1." in text
    assert 'id="tablet-page"' not in text


def test_a_supervisor_chooses_a_table_then_watches_it(demo):
    client = signed_in("directeur")
    choose = client.get("/tablet/").content.decode()
    assert "Choose the table to watch or help." in choose
    assert f'href="/tablet/{demo["UTH 3"].pk}/"' in choose
    data = page_data(client.get(f"/tablet/{demo['UTH 3'].pk}/"))
    assert data["table"]["name"] == "UTH 3" and data["is_dealer"] is False


def test_the_french_page_speaks_french(demo):
    text = signed_in("croupier", "fr").get("/tablet/").content.decode()
    assert "Rien ne va plus" in text and "No more bets" not in text


def test_chips_are_the_minimum_and_its_multiples_within_the_maximum():
    assert chips(1000, 20000) == [1000, 2000, 5000, 10000]
    assert chips(2500, 10000) == [2500, 5000]


def test_irregularities_come_from_the_engine_by_stage():
    by_stage = declarable_irregularities()
    assert "preflop_card_exposed" in by_stage["preflop"]
    assert "preflop_card_exposed" not in by_stage["flop"]
    assert "betting" not in by_stage


def test_the_table_list_links_a_dealer_to_their_tablet(demo):
    assert 'href="/tablet/"' in signed_in("croupier").get("/").content.decode()
    assert 'href="/tablet/"' not in signed_in("auditeur").get("/").content.decode()


# --- a tablet bound to a table -----------------------------------------------------------


def bound_to(table: Table, client: Client) -> Client:
    """Give `client`'s browser the credential of a tablet bound to `table`."""
    from tables.devices.cookie import BINDING_COOKIE
    from tables.services.devices import device_bind

    supervisor = Staff.objects.get(username="inspecteur")
    _, raw = device_bind(table_id=table.pk, supervisor=supervisor, name=f"Tablette {table.name}")
    client.cookies[BINDING_COOKIE] = raw
    return client


def test_a_bound_tablet_opens_its_table_for_the_dealer_who_deals_it(demo):
    client = bound_to(demo["UTH 1"], signed_in("croupier"))
    data = page_data(client.get("/tablet/"))
    assert data["table"]["name"] == "UTH 1" and data["is_dealer"] is True
    assert page_data(client.get(f"/tablet/{demo['UTH 1'].pk}/"))["table"]["name"] == "UTH 1"


def test_a_dealer_of_another_table_is_told_the_tablet_is_not_for_them(demo):
    client = bound_to(demo["UTH 1"], signed_in("croupier2"))
    for path in ("/tablet/", f"/tablet/{demo['UTH 1'].pk}/"):
        text = client.get(path).content.decode()
        assert (
            "This tablet is bound to UTH 1: you are not assigned to this table, you deal "
            "UTH 2 now." in text
        )
        assert 'id="tablet-page"' not in text and "UTH 3" not in text


def test_a_dealer_assigned_nowhere_is_told_so_in_the_pages_language(demo):
    from tests.factories import make_staff

    make_staff("dealer", username="relief")
    text = bound_to(demo["UTH 2"], signed_in("relief", "fr")).get("/tablet/").content.decode()
    assert "Cette tablette est liée à UTH 2" in text and 'data-reason="not_assigned"' in text
    assert 'id="tablet-page"' not in text and "UTH 4" not in text


def test_a_bound_tablet_opens_no_other_table_and_lists_none(demo):
    client = bound_to(demo["UTH 1"], signed_in("croupier"))
    text = client.get(f"/tablet/{demo['UTH 2'].pk}/").content.decode()
    assert "This tablet is bound to UTH 1: it opens that table only." in text
    assert 'href="/tablet/"' in text  # back to its own table
    assert 'id="tablet-page"' not in text and "UTH 3" not in text and "UTH 4" not in text


def test_a_supervisor_on_a_bound_tablet_watches_its_table_only(demo):
    client = bound_to(demo["UTH 3"], signed_in("directeur"))
    data = page_data(client.get("/tablet/"))
    assert data["table"]["name"] == "UTH 3" and data["is_dealer"] is False
    text = client.get(f"/tablet/{demo['UTH 1'].pk}/").content.decode()
    assert "This tablet is bound to UTH 3: it opens that table only." in text
    assert 'id="tablet-page"' not in text


def test_a_revoked_binding_opens_the_dealers_own_table_again(demo):
    from tables.models import DeviceBinding
    from tables.services.devices import device_revoke

    client = bound_to(demo["UTH 1"], signed_in("croupier2"))
    binding = DeviceBinding.objects.get()
    device_revoke(binding_id=binding.pk, supervisor=Staff.objects.get(username="inspecteur"))
    assert page_data(client.get("/tablet/"))["table"]["name"] == "UTH 2"
