"""The engine's faults in the admin: all of a form's at once, each on its field, naming the
input in the manager's words and language, never by the engine's raw path."""

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from casino.permissions import sync_role_permissions
from tables.engine_text import RULE_NAMES, engine_message, path_name
from tables.forms import ROWS
from tables.models import Paytable, RuleSet
from tables.rules.paytables import CATEGORIES
from tables.rules.ruleset import RULE_KEYS, rules_errors

# A rules object's key, or a hand category, written as the engine's code.
RAW = re.compile(r"\brules\.|\b[a-z]+_[a-z_]+\b")


@pytest.fixture
def admin_manager(manager, client):
    sync_role_permissions()  # the test database's post_migrate ran before our admin loaded
    manager.refresh_from_db()
    client.force_login(manager)
    return manager


# --- the names of the engine's paths ----------------------------------------------------------


def test_every_rule_of_the_engine_has_a_name():
    assert set(RULE_NAMES) == set(RULE_KEYS)


@pytest.mark.parametrize(
    "path, english, french",
    [
        ("rules.envy_min_wager_cents", "Envy minimum wager", "Mise minimale du bonus Envy"),
        ("rules.trips_paytable.flush", "Trips paytable, flush", "Table de paiement Trips, couleur"),
        (
            "rules.progressive_paytable.royal_flush",
            "Progressive paytable, royal flush",
            "Table de paiement du jackpot progressif, quinte flush royale",
        ),
        ("rules.envy.straight_flush", "Envy bonus paytable, straight flush", None),
        (
            "rules.preflop_multiples[1]",
            "Pre-flop Play multiples, value 2",
            "Multiples de la mise Play avant le flop, valeur 2",
        ),
        ("rules.payout_unit_cents", "Payout unit", "Unité de paiement"),
        ("rules.trips_paytable.full_boat", 'Trips paytable, "full_boat"', None),
        ("rules.typo", '"typo"', '"typo"'),
    ],
)
def test_a_path_reads_in_the_managers_words(path, english, french):
    with translation.override("en"):
        assert path_name(path) == english
    if french is not None:
        with translation.override("fr"):
            assert path_name(path) == french


@pytest.mark.parametrize("path", ["seats[1].hole[1]", "cards", "progressive.meter_cents", None])
def test_a_path_outside_a_rules_object_has_no_name(path):
    assert path_name(path) is None


def _every_rules_path():
    for key in RULE_KEYS:
        yield f"rules.{key}"
    yield "rules.preflop_multiples[0]"
    for key in ("blind_paytable", "trips_paytable", "progressive_paytable", "envy"):
        for category in CATEGORIES:
            yield f"rules.{key}.{category}"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_path_of_a_rules_object_reads_as_a_code(language):
    with translation.override(language):
        names = {path: path_name(path) for path in _every_rules_path()}
    assert {p: n for p, n in names.items() if n is None or RAW.search(n)} == {}


def test_every_name_has_its_french():
    with translation.override("en"):
        english = {path: path_name(path) for path in _every_rules_path()}
    with translation.override("fr"):
        french = {path: path_name(path) for path in _every_rules_path()}
    assert {p for p in english if english[p] == french[p]} == set()


def test_a_message_on_its_field_does_not_repeat_the_name():
    (flush,) = rules_errors({"trips_paytable": {"flush": "7x1"}})
    with translation.override("en"):
        assert engine_message(flush) == 'Trips paytable, flush: "7x1" is not odds N:M'
        assert engine_message(flush, under="rules.trips_paytable") == 'flush: "7x1" is not odds N:M'
        assert engine_message(flush, under=flush.path) == '"7x1" is not odds N:M'
    (item,) = rules_errors({"preflop_multiples": [3, 0]})
    with translation.override("fr"):
        assert engine_message(item, under="rules.preflop_multiples") == (
            "0 n’est pas un multiple de mise Play (un entier, 1 ou plus)"
        )


# --- the rule set form -----------------------------------------------------------------------


def _ruleset_post(ruleset, **overrides):
    data = {
        "preflop_multiples": "[3, 4]",
        "initial-preflop_multiples": "[3, 4]",
        "blind_paytable": ruleset.blind_paytable_id,
        "trips_paytable": ruleset.trips_paytable_id,
        "progressive_paytable": "",
        "envy_paytable": "",
        "trips_on_fold": "stays",
        "ante_when_dealer_not_qualified": "push",
        "envy_min_wager_cents": "0",
        "progressive_wager_cents": "1",  # one unit of the currency, in either language
        "payout_unit_cents": "0,01",
        "max_payout_cents": "",
    }
    data.update(overrides)
    return data


THREE_FAULTS = {"preflop_multiples": "[4, 4]", "payout_unit_cents": "0", "max_payout_cents": "0"}
SAID = {
    "en": {
        "preflop_multiples": ["[4, 4] lists a multiple twice"],
        "payout_unit_cents": ["€0.00 is too small: the payout unit is 1 cent or more"],
        "max_payout_cents": [
            "€0.00 is too small: a payout cap is 1 cent or more, or null for none"
        ],
    },
    "fr": {
        "preflop_multiples": ["[4, 4] donne un multiple deux fois"],
        "payout_unit_cents": [
            "0,00\u00a0€ est trop petit\u00a0: l’unité de paiement est d’au moins 1 centime"
        ],
        "max_payout_cents": [
            "0,00\u00a0€ est trop petit\u00a0: un plafond de paiement est d’au moins 1 centime,"
            " ou null pour aucun"
        ],
    },
}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_rule_set_with_three_faults_shows_the_three_at_once_each_on_its_field(
    client, admin_manager, standard_rules, language
):
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    response = client.post(
        url, _ruleset_post(standard_rules, **THREE_FAULTS), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200  # shown again, not saved
    errors = response.context["adminform"].form.errors
    assert {field: list(messages) for field, messages in errors.items()} == SAID[language]
    html = response.content.decode()
    assert "rules." not in html
    assert RuleSet.objects.get(pk=standard_rules.pk).payout_unit_cents == 1


def test_every_faulty_line_of_a_rule_sets_paytable_is_on_that_paytable(
    client, admin_manager, standard_rules
):
    # A paytable stored before the engine refused such lines (or by a script): its rule set's
    # form names each faulty line, on the paytable's field.
    bad = Paytable.objects.create(
        kind="trips", name="Trips maison", lines={"flush": "7x1", "straight": "-4:1"}
    )
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    post = _ruleset_post(standard_rules, trips_paytable=bad.pk, payout_unit_cents="0")
    for language, trips, unit in [
        (
            "fr",
            [
                'couleur\u00a0: "7x1" n’est pas une cote N:M',
                'quinte\u00a0: "-4:1" est négatif\u00a0: une cote est N:M avec N, M >= 0',
            ],
            "0,00\u00a0€ est trop petit",
        ),
        (
            "en",
            [
                'flush: "7x1" is not odds N:M',
                'straight: "-4:1" is negative: odds are N:M with N, M >= 0',
            ],
            "€0.00 is too small",
        ),
    ]:
        response = client.post(url, post, HTTP_ACCEPT_LANGUAGE=language)
        errors = response.context["adminform"].form.errors
        assert sorted(errors) == ["payout_unit_cents", "trips_paytable"]
        assert list(errors["trips_paytable"]) == trips
        assert errors["payout_unit_cents"][0].startswith(unit)


# --- the paytable editor ---------------------------------------------------------------------


def _rows(**values):
    data = {"name": "Trips maison", "kind": "trips", "preset": ""}
    for category in ROWS:
        n, m = values.get(category, ("", ""))
        data.update(
            {
                f"{category}_n": n,
                f"{category}_m": m,
                f"{category}_percent": "",
                f"{category}_amount": "",
            }
        )
    return data


def test_an_editor_row_the_engine_cannot_read_carries_its_refusal_without_repeating_its_name(
    client, admin_manager
):
    post = _rows(royal_flush=("1" + "0" * 19, "1"), flush=("7", "1"), straight=("4", "1"))
    for language, said in [
        ("en", '"10000000000000000000:1" is not odds N:M'),
        ("fr", '"10000000000000000000:1" n’est pas une cote N:M'),
    ]:
        response = client.post(
            reverse("admin:tables_paytable_add"), post, HTTP_ACCEPT_LANGUAGE=language
        )
        form = response.context["adminform"].form
        assert sorted(form.errors) == ["royal_flush_n"]
        (shown,) = form.errors["royal_flush_n"]
        assert shown == said
    assert not Paytable.objects.filter(name="Trips maison").exists()


def test_the_editor_names_every_faulty_line_of_posted_lines(client, admin_manager):
    lines = {"flush": "7x1", "straight": "4:1", "pair": "-1:1"}
    post = {"name": "Trips maison", "kind": "trips", "preset": "", "lines": json.dumps(lines)}
    response = client.post(reverse("admin:tables_paytable_add"), post, HTTP_ACCEPT_LANGUAGE="en")
    form = response.context["adminform"].form
    assert list(form.lines_errors()) == [
        'flush: "7x1" is not odds N:M',
        'pair: "-1:1" is negative: odds are N:M with N, M >= 0',
    ]
    assert "rules." not in response.content.decode()
