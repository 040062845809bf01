"""The paytable editor in the admin: one row per hand, the engine's math beside, every refusal
at once, warnings confirmed and audited; in French and English."""

from decimal import Decimal

import pytest
from django.urls import reverse

from casino.models import AuditEntry
from casino.permissions import sync_role_permissions
from tables import services
from tables.errors import ConfigurationRefused
from tables.forms import ROWS, PaytableEditorForm, parse_money
from tables.models import Paytable
from tables.rules.paytables import TRIPS_PRESETS
from tests.jackpot.factories import make_bank

ADD = "admin:tables_paytable_add"


@pytest.fixture
def admin_manager(manager, client):
    sync_role_permissions()
    manager.refresh_from_db()
    client.force_login(manager)
    return manager


def rows(lines: dict, kind: str = "trips", **extra) -> dict:
    """The editor's POST: every row's fields, filled from `lines` like a manager types them."""
    data = {"kind": kind, "preset": "", **extra}
    for category in ROWS:
        data.update(
            {
                f"{category}_n": "",
                f"{category}_m": "",
                f"{category}_percent": "",
                f"{category}_amount": "",
            }
        )
        value = lines.get(category)
        if value is None:
            continue
        if kind == "envy":
            data[f"{category}_amount"] = value
        elif str(value).endswith("%"):
            data[f"{category}_percent"] = str(value)[:-1]
        else:
            n, m = str(value).split(":")
            data[f"{category}_n"], data[f"{category}_m"] = n, m
    return data


TRIPS_A = TRIPS_PRESETS["A"].to_json()


@pytest.mark.parametrize(
    "text, cents",
    [
        ("1 000,50 €", 100_050),
        ("1\u202f000,50\u00a0€", 100_050),
        ("€1,000.50", 100_050),
        ("1000", 100_000),
        ("12,5", 1_250),
        ("1.000.000", 100_000_000),
        ("0,01", 1),
    ],
)
def test_an_amount_is_read_as_people_write_it(text, cents):
    assert parse_money(text) == cents


@pytest.mark.parametrize("text", ["", "-5", "1,2,3", "12,345,6", "abc", "1.5.0"])
def test_what_is_not_an_amount_is_refused(text):
    with pytest.raises(ValueError):
        parse_money(text)


def test_the_rows_become_the_paytables_lines_with_its_math(db):
    form = PaytableEditorForm(data=rows(TRIPS_A, name="Trips maison"))
    assert form.is_valid(), form.errors
    assert form.instance.lines == TRIPS_A
    assert form.math["house_edge"] == "0,9018"  # the tests read French
    assert form.findings == []


def test_a_manager_creates_a_trips_paytable_in_the_editor(client, admin_manager):
    response = client.post(reverse(ADD), rows(TRIPS_A, name="Trips maison"))
    assert response.status_code == 302, response.content.decode()[:3000]
    paytable = Paytable.objects.get(name="Trips maison")
    assert (paytable.kind, paytable.preset, paytable.lines) == ("trips", "", TRIPS_A)
    assert paytable.created_by == admin_manager
    entry = AuditEntry.objects.get(code="tables.paytable.created")
    assert entry.actor == admin_manager and entry.data["warnings"] == []
    page = client.get(reverse("admin:tables_paytable_change", args=[paytable.pk])).content.decode()
    assert 'data-figure="house-edge">0,9018 %' in page
    assert 'name="flush_n"' in page and 'value="7"' in page


def test_every_absurd_line_is_refused_at_once_on_its_row(client, admin_manager):
    data = rows(
        {"royal_flush": "1000000000:1", "three_of_a_kind": "1:1000", "flush": "0:1"},
        name="Absurde",
    )
    response = client.post(reverse(ADD), data)
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert set(form.errors) >= {"royal_flush_n", "three_of_a_kind_n", "flush_n"}
    assert "paie plus de 30940:1" in form.errors["royal_flush_n"][0]
    assert "ne paie rien" in form.errors["flush_n"][0]
    assert not Paytable.objects.filter(name="Absurde").exists()


def test_a_table_with_no_winning_line_is_refused(client, admin_manager):
    response = client.post(reverse(ADD), rows({}, name="Vide"))
    assert response.status_code == 200
    assert "n’a aucune ligne gagnante" in response.content.decode()
    assert not Paytable.objects.filter(name="Vide").exists()


PLAYER_EDGE = {**TRIPS_A, "three_of_a_kind": "5:1"}


def test_a_player_edge_table_is_warned_and_saved_only_once_confirmed(client, admin_manager):
    response = client.post(reverse(ADD), rows(PLAYER_EDGE, name="Généreuse"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "le joueur a l’avantage" in page
    assert 'data-code="player_edge"' in page
    assert 'class="paytable-edge player-edge"' in page  # the math shows the negative edge
    assert "confirm" in response.context["adminform"].form.errors
    assert not Paytable.objects.filter(name="Généreuse").exists()

    response = client.post(reverse(ADD), rows(PLAYER_EDGE, name="Généreuse", confirm="on"))
    assert response.status_code == 302
    paytable = Paytable.objects.get(name="Généreuse")
    entry = AuditEntry.objects.get(code="tables.paytable.warnings_confirmed")
    assert entry.actor == admin_manager and str(entry.subject_id) == str(paytable.pk)
    assert "player_edge" in [w["code"] for w in entry.data["warnings"]]


def test_the_service_refuses_unconfirmed_warnings_and_always_the_absurd(manager):
    with pytest.raises(ConfigurationRefused) as refused:
        services.paytable_create(
            manager=manager, kind="trips", name="G", lines=PLAYER_EDGE, confirm=False
        )
    assert list(refused.value.errors) == ["confirm"]
    with pytest.raises(ConfigurationRefused) as refused:
        services.paytable_create(manager=manager, kind="trips", name="Z", lines={"flush": "0:1"})
    assert list(refused.value.errors) == ["lines"]
    made = services.paytable_create(manager=manager, kind="trips", name="G", lines=PLAYER_EDGE)
    created = AuditEntry.objects.get(code="tables.paytable.created", subject_id=made.pk)
    assert "player_edge" in [w["code"] for w in created.data["warnings"]]


def test_a_preset_chosen_in_the_list_takes_the_engines_lines(client, admin_manager):
    data = {"kind": "trips", "preset": "C", "name": "Trips C maison"}
    response = client.post(reverse(ADD), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    paytable = Paytable.objects.get(name="Trips C maison")
    assert (paytable.preset, paytable.lines) == ("C", TRIPS_PRESETS["C"].to_json())


def test_the_presets_are_listed_with_their_house_edges(client, admin_manager):
    page = client.get(reverse(ADD)).content.decode()
    for edge in ("0,9018", "1,9040", "3,4979", "6,1808"):
        assert f"avantage de la maison {edge} %" in page


def test_the_editor_speaks_english_too(client, admin_manager, trips_c):
    url = reverse("admin:tables_paytable_change", args=[trips_c.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "House edge:" in page
    assert 'data-figure="house-edge">3.4979 %' in page


def test_a_progressive_table_shows_its_return_at_the_banks_meter_and_reset(client, admin_manager):
    bank = make_bank(manager=admin_manager, reset_cents=1_000_000)
    paytable = services.paytable_create(
        manager=admin_manager,
        kind="progressive",
        name="Progressif",
        lines={"royal_flush": "100%", "straight_flush": "10%", "flush": "40:1"},
    )
    page = client.get(reverse("admin:tables_paytable_change", args=[paytable.pk])).content.decode()
    assert bank.name in page
    assert 'data-figure="return-at-reset"' in page
    assert 'data-figure="break-even"' in page
    assert "10\u202f000,00\u00a0€" in page  # the reset, in the property's currency


def test_an_envy_table_shows_its_cost_per_other_seat(client, admin_manager):
    paytable = services.paytable_create(
        manager=admin_manager,
        kind="envy",
        name="Envy",
        lines={"royal_flush": 100_000, "straight_flush": 10_000},
    )
    url = reverse("admin:tables_paytable_change", args=[paytable.pk])
    page = client.get(url).content.decode()
    assert "0,2924 % de la mise" in page
    assert 'value="1\u202f000,00\u00a0€"' in page  # the amounts, as people write them


def test_an_envy_amount_typed_in_the_currency_is_kept_in_cents(client, admin_manager):
    data = rows({"royal_flush": "1 000,00 €", "straight_flush": "100"}, kind="envy", name="E")
    response = client.post(reverse(ADD), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Paytable.objects.get(name="E").lines == {
        "royal_flush": 100_000,
        "straight_flush": 10_000,
    }


def test_a_share_of_the_meter_is_typed_as_a_percentage(client, admin_manager):
    lines = {"royal_flush": "100%", "straight_flush": "12,5%", "flush": "40:1"}
    response = client.post(reverse(ADD), rows(lines, kind="progressive", name="P"))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Paytable.objects.get(name="P").lines == {
        "royal_flush": "100%",
        "straight_flush": "12.5%",
        "flush": "40:1",
    }


def test_the_math_panel_follows_the_rows_as_they_are_typed(client, admin_manager):
    url = reverse("admin:tables_paytable_math")
    response = client.post(url, rows(TRIPS_PRESETS["D"].to_json(), name="x"))
    assert response.status_code == 200
    assert 'data-figure="house-edge">6,1808 %' in response.content.decode()
    assert client.get(url).status_code == 405


def test_the_math_panel_is_for_admin_staff_only(client, dealer):
    client.force_login(dealer)
    response = client.post(reverse("admin:tables_paytable_math"), rows(TRIPS_A))
    assert response.status_code == 302  # to the admin's login


def test_a_frozen_version_shows_its_rows_without_editing_them(
    client, admin_manager, open_table, trips_c
):
    page = client.get(reverse("admin:tables_paytable_change", args=[trips_c.pk])).content.decode()
    assert 'name="flush_n"' in page and "disabled" in page.split('name="flush_n"')[1][:80]


def test_odds_for_one_when_m_is_left_empty(db):
    data = rows(TRIPS_A, name="T")
    data["flush_m"] = ""
    form = PaytableEditorForm(data=data)
    assert form.is_valid(), form.errors
    assert form.instance.lines["flush"] == "7:1"
    assert Decimal("0.0001") == form.fields["flush_percent"].min_value


def test_an_envy_amount_beyond_the_sane_bound_is_refused_in_the_currency(client, admin_manager):
    data = rows({"royal_flush": "1 000 000,00"}, kind="envy", name="Envy folle")
    response = client.post(reverse(ADD), data)
    assert response.status_code == 200
    (error,) = response.context["adminform"].form.errors["royal_flush_amount"]
    assert "1\u202f000\u202f000,00\u00a0€ dépasse 649\u202f740,00\u00a0€" in error
    assert not Paytable.objects.filter(name="Envy folle").exists()


def test_a_rule_set_shows_its_published_base_edge_and_its_exact_trips_edge(
    client, admin_manager, standard_rules
):
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    page = client.get(url).content.decode()
    assert "2,185 % de l’Ante" in page
    assert "chiffre publié, non calculé ici" in page
    assert "golden-nugget-casino-tukwila.com" in page
    assert "3,4979 % de la mise Trips" in page


def test_a_rule_set_variant_without_a_published_figure_says_so(
    client, admin_manager, blind_a, trips_c
):
    from tests.tables.factories import make_ruleset

    three_x = make_ruleset(
        admin_manager, name="3x", blind=blind_a, trips=trips_c, preflop_multiples=[3]
    )
    page = client.get(reverse("admin:tables_ruleset_change", args=[three_x.pk])).content.decode()
    assert "aucun chiffre publié pour cette variante" in page


def test_a_rule_set_shows_its_progressive_return_and_envy_cost_at_its_wager(
    client, admin_manager, blind_a, trips_c
):
    from tests.tables.factories import make_ruleset

    make_bank(manager=admin_manager, reset_cents=1_000_000, wager_cents=100)
    progressive = services.paytable_create(
        manager=admin_manager,
        kind="progressive",
        name="Progressif",
        lines={"royal_flush": "100%", "straight_flush": "10%", "flush": "40:1"},
    )
    envy = services.paytable_create(
        manager=admin_manager, kind="envy", name="Envy", lines={"royal_flush": 100_000}
    )
    ruleset = make_ruleset(
        admin_manager,
        name="Avec jackpot",
        blind=blind_a,
        trips=trips_c,
        progressive_paytable_id=progressive.pk,
        envy_paytable_id=envy.pk,
    )
    page = client.get(reverse("admin:tables_ruleset_change", args=[ruleset.pk])).content.decode()
    assert 'data-figure="progressive-return"' in page
    assert "au montant de départ" in page
    assert "0,1539 % de la mise" in page  # 4 / 2,598,960 x 100,000 cents per 100


def test_an_auditor_reads_the_rows_and_the_math_without_editing(client, auditor, trips_c):
    sync_role_permissions()
    client.force_login(auditor)
    url = reverse("admin:tables_paytable_change", args=[trips_c.pk])
    page = client.get(url).content.decode()
    assert 'data-figure="house-edge">3,4979 %' in page
    assert "disabled" in page.split('name="flush_n"')[1][:80]


def test_the_live_math_panel_says_what_the_engine_refuses_and_warns_of(client, admin_manager):
    url = reverse("admin:tables_paytable_math")
    page = client.post(url, rows({**PLAYER_EDGE, "flush": "0:1"}, name="x")).content.decode()
    assert 'data-code="pays_nothing"' in page and "Refusé\u00a0:" in page
    page = client.post(url, rows(PLAYER_EDGE, name="x")).content.decode()
    assert 'data-code="player_edge"' in page and "À confirmer\u00a0:" in page


# --- issue 25, item 14: a kept preset and edited rows; negative and zero inline ------------


def test_editing_a_row_of_a_preset_version_leaves_the_preset_and_says_so(
    client, admin_manager, manager
):
    from tables.rules import paymath  # noqa: F401 - the edge below is the engine's

    version = services.paytable_create(manager=manager, kind="trips", name="Trips C", preset="C")
    url = reverse("admin:tables_paytable_change", args=[version.pk])
    lines = {**TRIPS_PRESETS["C"].to_json(), "flush": "8:1"}
    # Before the save, the page says the preset was left and the math follows the rows.
    form = PaytableEditorForm(
        data=rows(lines, preset="C", name="Trips C"), instance=Paytable.objects.get(pk=version.pk)
    )
    form.is_valid()
    assert form.left_preset == "C"
    assert dict(form.table.to_json()) == lines
    faulty = rows({**lines, "straight": "-1:1"}, preset="C", name="Trips C")
    page = client.post(url, faulty, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "no longer follows engine preset <span data-preset-name>C</span>" in page
    assert "data-left-preset hidden" not in page
    answer = client.post(url, rows(lines, preset="C", name="Trips C", confirm="on"))
    saved = Paytable.objects.filter(name="Trips C").order_by("-version").first()
    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert (saved.preset, saved.lines["flush"]) == ("", "8:1")


def test_choosing_a_preset_while_typing_other_rows_is_still_refused(client, admin_manager):
    lines = {**TRIPS_PRESETS["C"].to_json(), "flush": "8:1"}
    answer = client.post(reverse(ADD), rows(lines, preset="C", name="Trips mix"))
    assert answer.status_code == 200
    assert not Paytable.objects.filter(name="Trips mix").exists()


@pytest.mark.parametrize(
    "value, field, words",
    [("-3:1", "flush_n", "cannot pay a negative amount"), ("3:0", "flush_m", "M is 1 or more")],
)
def test_a_negative_value_or_a_zero_denominator_is_refused_on_its_row(
    client, admin_manager, value, field, words
):
    import re

    data = rows({**TRIPS_A, "flush": value}, name="Trips faute", confirm="on")
    answer = client.post(reverse(ADD), data, HTTP_ACCEPT_LANGUAGE="en")
    html = answer.content.decode()
    assert answer.status_code == 200
    row = re.search(r'<tr data-category="flush">.*?</tr>', html, re.S)[0]
    assert f'id="id_{field}_error"' in row and words in row
    assert "Give what the line pays" not in row
    assert 'min="' not in row  # the browser's own bubble would not say it on the row
    assert not Paytable.objects.filter(name="Trips faute").exists()
