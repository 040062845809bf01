"""Parameters: validated, requested by one manager, approved by another, applied after the
next top-level hit or at once on a closed bank."""

import pytest
from django.utils import translation

from casino.errors import IllegalTransition, RoleRequired
from casino.models import AuditEntry
from jackpot import services
from jackpot.errors import InvalidParameters, ParameterChangePending, TwoPeopleRequired
from jackpot.models import ParameterChange
from tests.jackpot.factories import DEFAULTS, LEVELS, contribute, hit


@pytest.fixture(autouse=True)
def english():
    # The messages are translated (French by default); these tests read the English ones.
    with translation.override("en"):
        yield


def params(**changes):
    return {**DEFAULTS, **changes}


@pytest.mark.parametrize(
    "bad, why",
    [
        ({"increment_rate_ppm": 700_000, "hidden_rate_ppm": 300_001}, "100%"),
        ({"reset_cents": 0}, "reset_cents"),
        ({"cap_cents": 9_999}, "cap_cents"),
        ({"wager_cents": 0}, "wager_cents"),
        ({"increment_rate_ppm": -1}, "increment_rate_ppm"),
        ({"increment_rate_ppm": 2.5}, "increment_rate_ppm"),
        ({"levels": []}, "at least one level"),
        ({"levels": [{"level": "royal_flush", "percent": 90}]}, "100"),
        ({"levels": [*LEVELS, {"level": "mini", "percent": 0}]}, "1 to 100"),
        ({"levels": [*LEVELS, {"level": "mini", "percent": 101}]}, "1 to 100"),
        ({"levels": [*LEVELS, {"level": "royal_flush", "percent": 5}]}, "twice"),
        ({"levels": [*LEVELS, {"level": "Royal Flush!", "percent": 5}]}, "lowercase"),
        ({"levels": [*LEVELS, {"level": "jackpot2", "percent": 100}]}, "Exactly one"),
        ({"colour": "red"}, "Unknown"),
    ],
)
def test_parameters_out_of_bounds_are_refused(bad, why):
    with pytest.raises(InvalidParameters) as err:
        services.validate_parameters(params(**bad))
    assert why in err.value.message


def test_valid_parameters_come_back_sorted_with_labels():
    clean = services.validate_parameters(
        params(
            cap_cents=10_000,
            increment_rate_ppm=600_000,
            hidden_rate_ppm=400_000,
            levels=[{"level": "mini", "percent": 5}, {"level": "royal_flush", "percent": 100}],
        )
    )
    assert [t["level"] for t in clean["levels"]] == ["royal_flush", "mini"]
    assert clean["levels"][1]["label_en"] == "mini"
    assert clean["cap_cents"] == 10_000


def request(bank, manager, **changes):
    return services.parameter_change_request(
        bank_id=bank.pk,
        params=changes,
        reason="new paytable approved by the regulator",
        manager=manager,
    )


def test_an_approved_change_waits_for_the_next_top_level_hit(bank, manager, other_manager, dealer):
    change = request(bank, manager, reset_cents=20_000, increment_rate_ppm=100_000)
    services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    contribute(bank, dealer, ref="a")  # still the old rate: +20 cents
    assert bank.meter_cents == 10_020
    hit(bank, dealer, level="straight_flush")  # not the top level: nothing applies
    bank.refresh_from_db()
    assert bank.reset_cents == 10_000
    won = hit(bank, dealer, level="royal_flush")
    change.refresh_from_db()
    assert change.state == ParameterChange.State.APPLIED
    assert change.applied_after_hit == won
    assert change.before["reset_cents"] == 10_000
    # The new cycle starts on the new reset and grows at the new rate.
    assert bank.meter_cents == 20_000
    contribute(bank, dealer, ref="b")
    assert bank.meter_cents == 20_010


def test_a_change_approved_while_the_bank_is_closed_applies_at_once(
    closed_bank, manager, other_manager
):
    change = request(closed_bank, manager, wager_cents=500)
    approved = services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    closed_bank.refresh_from_db()
    assert approved.state == ParameterChange.State.APPLIED
    assert closed_bank.wager_cents == 500


def test_closing_the_bank_applies_a_change_waiting_for_a_hit(
    bank, manager, other_manager, supervisor
):
    change = request(bank, manager, hidden_rate_ppm=0)
    services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    services.bank_close(bank_id=bank.pk, actor=supervisor, reason="parameter change")
    change.refresh_from_db()
    bank.refresh_from_db()
    assert change.state == ParameterChange.State.APPLIED
    assert bank.hidden_rate_ppm == 0


def test_a_new_cap_below_the_meter_waits_for_the_hit_instead_of_applying_at_close(
    bank, manager, other_manager, supervisor, dealer
):
    contribute(bank, dealer, ref="a", wagers=50)  # meter 11,000
    change = request(bank, manager, cap_cents=10_500)
    services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    services.bank_close(bank_id=bank.pk, actor=supervisor)
    change.refresh_from_db()
    assert change.state == ParameterChange.State.APPROVED


def test_the_requester_cannot_approve_their_own_change(bank, manager):
    change = request(bank, manager, reset_cents=12_000)
    with pytest.raises(TwoPeopleRequired):
        services.parameter_change_approve(change_id=change.pk, manager=manager)
    change.refresh_from_db()
    assert change.state == ParameterChange.State.REQUESTED


def test_only_managers_request_parameter_changes(bank, supervisor):
    with pytest.raises(RoleRequired):
        request(bank, supervisor, reset_cents=12_000)


def test_one_change_at_a_time_per_bank(bank, manager, other_manager):
    request(bank, manager, reset_cents=12_000)
    with pytest.raises(ParameterChangePending):
        request(bank, other_manager, reset_cents=13_000)


def test_a_request_that_changes_nothing_is_refused(bank, manager):
    with pytest.raises(InvalidParameters):
        request(bank, manager, reset_cents=10_000)


def test_a_rejected_change_never_applies(bank, manager, other_manager, dealer):
    change = request(bank, manager, reset_cents=20_000)
    services.parameter_change_reject(change_id=change.pk, manager=other_manager, reason="not filed")
    with pytest.raises(IllegalTransition):
        services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    hit(bank, dealer)
    bank.refresh_from_db()
    assert bank.reset_cents == 10_000
    assert bank.meter_cents == 10_000


def test_every_parameter_change_step_is_in_the_audit_log_with_before_and_after(
    closed_bank, manager, other_manager
):
    change = request(closed_bank, manager, reset_cents=15_000)
    services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    entries = AuditEntry.objects.filter(code__startswith="jackpot.parameters.").order_by("pk")
    assert [e.code for e in entries] == [
        "jackpot.parameters.requested",
        "jackpot.parameters.approved",
        "jackpot.parameters.applied",
    ]
    requested, approved, applied = entries
    assert requested.actor == manager and approved.actor == other_manager
    assert requested.data["before"] == {"reset_cents": 10_000}
    assert applied.data["after"] == {"reset_cents": 15_000}


def test_the_top_level_hit_that_applies_a_change_announces_the_status(
    bank, manager, other_manager, dealer, monkeypatch, django_capture_on_commit_callbacks
):
    change = request(bank, manager, reset_cents=20_000)
    services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    sent = []
    monkeypatch.setattr(
        "jackpot.feed.send_to_group", lambda slug, payload: sent.append(payload["type"])
    )
    monkeypatch.setattr("jackpot.feed.request_meter_publish", lambda slug: sent.append("meter"))
    with django_capture_on_commit_callbacks(execute=True):
        hit(bank, dealer)
    assert sent == ["hit", "meter", "status"]
