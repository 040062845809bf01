"""The progressive's admin as a manager reads and writes it: amounts in the currency, rates as
percentages, levels as rows, every mistake at once, only the actions the reader may take."""

import pytest
from django.urls import reverse
from django.utils import translation

from casino.permissions import sync_role_permissions
from casino.roles import Role
from jackpot.admin_forms import LEVEL_ROWS, ROW_FIELDS
from jackpot.models import Bank, MeterReading, ParameterChange
from tests.factories import make_staff
from tests.jackpot.factories import LEVELS

NNBSP, NBSP = "\u202f", "\u00a0"


def levels_rows(levels) -> dict:
    """The level rows of a bank or parameter form, as a browser posts them."""
    data = {f"levels_{i}": "" for i in range(LEVEL_ROWS * ROW_FIELDS)}
    for row, tier in enumerate(levels):
        for column, key in enumerate(("level", "percent", "label_fr", "label_en")):
            data[f"levels_{row * ROW_FIELDS + column}"] = str(tier[key])
    return data


@pytest.fixture
def desk(client, db):
    sync_role_permissions()

    def sign_in(*roles, language="fr"):
        person = make_staff(*roles)
        person.language = language
        person.save(update_fields=["language"])
        client.force_login(person)
        return person

    return sign_in


def test_the_bank_list_shows_amounts_in_the_currency_in_french_and_english(desk, client, bank):
    desk(Role.MANAGER)
    page = client.get(reverse("admin:jackpot_bank_changelist")).content.decode()
    assert f"100,00{NBSP}€" in page and "10000<" not in page
    desk(Role.MANAGER, language="en")
    page = client.get(reverse("admin:jackpot_bank_changelist")).content.decode()
    assert "€100.00" in page


def test_a_bank_page_shows_rates_as_percentages_and_levels_as_rows(desk, client, bank):
    desk(Role.MANAGER)
    page = client.get(reverse("admin:jackpot_bank_change", args=[bank.pk])).content.decode()
    assert f"20{NBSP}%" in page and "200000" not in page
    assert "<td>Quinte flush royale</td>" in page and '"label_fr"' not in page


def test_the_parameter_change_form_opens_with_the_banks_parameters(desk, client, bank):
    desk(Role.MANAGER)
    page = client.get(reverse("admin:jackpot_parameterchange_add") + f"?bank={bank.pk}")
    html = page.content.decode()
    assert 'name="reset_cents" value="100,00"' in html
    assert 'name="increment_rate_ppm" value="20"' in html
    assert 'name="levels_0"' in html and 'value="royal_flush" selected' in html
    assert 'name="levels_2" value="Quinte flush royale"' in html


def test_a_parameter_change_asked_with_amounts_and_percentages_is_stored_in_cents_and_ppm(
    desk, client, bank
):
    desk(Role.MANAGER)
    response = client.post(
        reverse("admin:jackpot_parameterchange_add"),
        {
            "bank": bank.pk,
            "reason": "lettre du régulateur",
            "wager_cents": "1,00",
            "reset_cents": "2 500,50",
            "increment_rate_ppm": "12,5",
            "hidden_rate_ppm": "5",
            "cap_cents": "",
            **levels_rows(LEVELS),
        },
        follow=True,
    )
    change = ParameterChange.objects.get()
    assert change.params["reset_cents"] == 250_050
    assert change.params["increment_rate_ppm"] == 125_000
    assert "second manager" in str(response.content) or "second directeur" in (
        response.content.decode()
    )


def test_asking_for_the_parameters_in_force_says_nothing_would_change(desk, client, bank):
    desk(Role.MANAGER)
    response = client.post(
        reverse("admin:jackpot_parameterchange_add"),
        {
            "bank": bank.pk,
            "reason": "rien",
            "wager_cents": "1,00",
            "reset_cents": "100,00",
            "increment_rate_ppm": "20",
            "hidden_rate_ppm": "5",
            "cap_cents": "",
            **levels_rows(LEVELS),
        },
    )
    assert response.status_code == 200
    assert not ParameterChange.objects.exists()
    form = response.context["adminform"].form
    assert form.non_field_errors()


def test_a_bank_form_says_every_mistake_at_once(desk, client):
    desk(Role.MANAGER)
    bad_levels = levels_rows(
        [{"level": "royal_flush", "percent": 120, "label_fr": "", "label_en": ""}]
    )
    bad_levels["levels_4"] = ""  # a second row with a percentage but no hand
    bad_levels["levels_5"] = "10"
    response = client.post(
        reverse("admin:jackpot_bank_add"),
        {
            "slug": "b",
            "name": "B",
            "wager_cents": "un euro",
            "reset_cents": "100",
            "increment_rate_ppm": "90",
            "hidden_rate_ppm": "20",
            "cap_cents": "50",
            **bad_levels,
        },
    )
    assert response.status_code == 200 and not Bank.objects.filter(slug="b").exists()
    errors = response.context["adminform"].form.errors
    assert {"wager_cents", "hidden_rate_ppm", "cap_cents", "levels"} <= set(errors)
    assert len(errors["levels"]) == 2  # the row without a hand and the share above 100
    assert "ppm" not in " ".join(str(e) for field in errors.values() for e in field)


def offered(client, name) -> set[str]:
    """The actions a changelist offers its reader."""
    response = client.get(reverse(f"admin:jackpot_{name}_changelist"))
    assert response.status_code == 200
    form = response.context.get("action_form")
    return {value for value, _label in form.fields["action"].choices if value} if form else set()


def test_an_auditor_is_offered_no_action_it_cannot_take(desk, client, bank):
    desk(Role.AUDITOR)
    assert offered(client, "hit") == set()
    assert offered(client, "bank") == {"take_readings", "reconcile"}
    assert offered(client, "parameterchange") == set()


def test_a_manager_who_is_also_a_supervisor_is_offered_verify_and_mark_paid(desk, client, bank):
    desk(Role.MANAGER, Role.SUPERVISOR)
    assert offered(client, "hit") == {"verify", "pay"}
    assert offered(client, "parameterchange") == {"approve", "reject"}


def test_a_reading_taken_in_the_admin_says_so(desk, client, bank):
    desk(Role.MANAGER)
    response = client.post(
        reverse("admin:jackpot_bank_changelist"),
        {"action": "take_readings", "_selected_action": [bank.pk]},
        follow=True,
    )
    assert MeterReading.objects.filter(bank=bank).count() == 1
    texts = [str(m) for m in response.context["messages"]]
    assert texts == ["1 relevé du compteur pris."]


def test_a_banks_english_name_is_its_name_on_english_pages(bank):
    bank.name_en = "UTH progressive"
    assert bank.name_in("en") == "UTH progressive"
    assert bank.name_in("fr") == bank.name
    with translation.override("en"):
        assert Bank(name="Jackpot", name_en="").name_in(translation.get_language()) == "Jackpot"


def test_a_hits_level_reads_as_its_hand(desk, client, bank, dealer):
    from jackpot import services

    services.hit_record(
        bank_id=bank.pk,
        table_label="UTH 1",
        seat=2,
        level="royal_flush",
        amount_cents=bank.meter_cents,
        actor=dealer,
    )
    desk(Role.MANAGER)
    page = client.get(reverse("admin:jackpot_hit_changelist")).content.decode()
    assert "quinte flush royale" in page and ">royal_flush<" not in page
