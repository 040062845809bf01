"""The second person's pages in the pit (issue 23, 2 and 7): a correction asked for at a
tablet is approved in the queue with the approver's PIN; a meter adjustment is asked for on
its page and approved in the queue by a second manager, herself. In French and English;
refusals say why and change nothing."""

import copy

import pytest
from django.utils import translation

from casino.models import AuditEntry
from jackpot.models import AdjustmentRequest, Bank, MeterEntry
from tables.models import Correction, CorrectionRequest, Round, SettlementLine
from tables.services import rounds
from tests.tables.pit.test_pit_floor import client_of
from tests.tables.rounds.conftest import deal_to, pin_of


def _ask_correction(felt, supervisor):
    deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    facts = copy.deepcopy(round_.settlement_input)
    facts["seats"][0]["hole"] = ["3c", "5d"]
    written = rounds.round_correct(
        round_id=round_.pk,
        actor=felt.dealer,
        key="fix",
        supervisor=pin_of(supervisor),
        reason="camera shows 3c 5d",
        corrected=facts,
    )
    return round_, written.body["correction_request"]["id"]


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.mark.parametrize(
    "language, waiting, approved",
    [
        ("en", "to approve", "is approved: its lines are written"),
        ("fr", "à approuver", "est approuvée\u00a0: ses lignes sont écrites"),
    ],
)
def test_a_correction_waits_in_the_queue_and_a_second_supervisor_approves_it_with_his_pin(
    felt, supervisor, other_supervisor, language, waiting, approved
):
    round_, asked = _ask_correction(felt, supervisor)
    lines = SettlementLine.objects.filter(round=round_).count()
    # The requester sees it, and may withdraw it, but not approve it.
    own = client_of(supervisor, language).get("/pit/fragments/approvals/").content.decode()
    assert f'data-kind="correction" data-id="{asked}"' in own
    assert 'value="approve"' not in own.split(f'data-id="{asked}"')[1].split("</li>")[0]
    refused = client_of(supervisor, language).post(
        f"/pit/corrections/{asked}/", {"decision": "approve", "pin": "2468"}, follow=True
    )
    assert SettlementLine.objects.filter(round=round_).count() == lines
    assert CorrectionRequest.objects.get(pk=asked).state == "requested"
    assert any(str(supervisor) in m for m in _messages(refused))
    # A second supervisor reads it in his language and approves with his PIN.
    page = client_of(other_supervisor, language).get("/pit/fragments/approvals/")
    assert waiting in page.content.decode()
    done = client_of(other_supervisor, language).post(
        f"/pit/corrections/{asked}/", {"decision": "approve", "pin": "1234"}, follow=True
    )
    assert any(approved in m for m in _messages(done)), _messages(done)
    assert Correction.objects.get().supervisor_id == other_supervisor.pk
    assert SettlementLine.objects.filter(round=round_).count() > lines


def test_a_wrong_pin_approves_no_correction(felt, supervisor, other_supervisor):
    round_, asked = _ask_correction(felt, supervisor)
    response = client_of(other_supervisor).post(
        f"/pit/corrections/{asked}/", {"decision": "approve", "pin": "0000"}, follow=True
    )
    assert "Wrong employee number or PIN." in _messages(response)
    assert not Correction.objects.exists()


def test_a_dealer_or_an_auditor_cannot_decide_a_correction(felt, supervisor, auditor):
    round_, asked = _ask_correction(felt, supervisor)
    for someone in (felt.dealer, auditor):
        response = client_of(someone).post(
            f"/pit/corrections/{asked}/", {"decision": "approve", "pin": "1234"}
        )
        assert response.status_code in (302, 403)
        assert CorrectionRequest.objects.get(pk=asked).state == "requested"


@pytest.mark.parametrize(
    "language, title, asked_words",
    [
        ("en", "Ask for a meter adjustment of", "a second manager approves it"),
        ("fr", "Demander un ajustement du compteur de", "un second directeur l’approuve"),
    ],
)
def test_a_meter_adjustment_is_asked_on_its_page_and_approved_by_a_second_manager(
    progressive, manager, other_manager, language, title, asked_words
):
    url = f"/pit/banks/{progressive.pk}/adjust/"
    page = client_of(manager, language).get(url)
    assert page.status_code == 200 and title in page.content.decode()
    meter = Bank.objects.get(pk=progressive.pk).meter_cents
    asked = client_of(manager, language).post(
        url, {"meter": "123,45", "reason": "display fault"}, follow=True
    )
    assert any(asked_words in m for m in _messages(asked)), _messages(asked)
    adjustment = AdjustmentRequest.objects.get()
    assert adjustment.targets == {"meter": 12_345}
    assert Bank.objects.get(pk=progressive.pk).meter_cents == meter
    client_of(manager, language).post(f"/pit/adjustments/{adjustment.pk}/", {"decision": "approve"})
    assert Bank.objects.get(pk=progressive.pk).meter_cents == meter  # not by the asker
    client_of(other_manager, language).post(
        f"/pit/adjustments/{adjustment.pk}/", {"decision": "approve"}
    )
    assert Bank.objects.get(pk=progressive.pk).meter_cents == 12_345
    line = MeterEntry.objects.filter(bank=progressive, kind="adjustment").get()
    assert line.actor_id == other_manager.pk


def test_a_mistyped_amount_asks_for_nothing(progressive, manager):
    url = f"/pit/banks/{progressive.pk}/adjust/"
    for typed in ("12,3,4", "abc", "١٢", "1.234", "99999999999999999"):
        response = client_of(manager).post(url, {"meter": typed, "reason": "x"}, follow=True)
        assert response.status_code == 200
    assert not AdjustmentRequest.objects.exists()
    assert not AuditEntry.objects.filter(code="jackpot.adjustment.requested").exists()


def test_only_a_manager_opens_the_adjustment_page(progressive, supervisor, auditor, dealer):
    for someone in (supervisor, auditor, dealer):
        response = client_of(someone).get(f"/pit/banks/{progressive.pk}/adjust/")
        assert response.status_code in (302, 403)


def test_the_french_words_are_in_the_catalogue():
    with translation.override("fr"):
        assert translation.gettext("Ask for a meter adjustment") != "Ask for a meter adjustment"


@pytest.mark.parametrize(
    "language, waiting, approved",
    [
        ("en", "Rule set deployment to approve", "is approved: the table plays it now"),
        ("fr", "Déploiement de règles du jeu à approuver", "la table les joue désormais"),
    ],
)
def test_a_rule_set_deployment_waits_in_the_queue_for_a_second_manager(
    felt, supervisor, manager, other_manager, language, waiting, approved
):
    from tables import services
    from tables.models import RulesetDeployment, Table

    newer = services.ruleset_revise(
        ruleset_id=felt.table.ruleset_id, manager=manager, max_payout_cents=5_000_000
    )
    services.table_close(table_id=felt.table.pk, supervisor=supervisor)
    asked = client_of(manager, language).post(
        f"/pit/tables/{felt.table.pk}/ruleset/", {"ruleset": newer.pk, "reason": "Trips A"}
    )
    assert asked.status_code == 302
    deployment = RulesetDeployment.objects.get(state="requested")
    own = client_of(manager, language).get("/pit/fragments/approvals/").content.decode()
    mine = own.split(f'data-kind="ruleset" data-id="{deployment.pk}"')[1].split("</li>")[0]
    assert waiting in mine and 'value="approve"' not in mine
    theirs = client_of(other_manager, language).get("/pit/fragments/approvals/")
    assert waiting in theirs.content.decode()
    done = client_of(other_manager, language).post(
        f"/pit/deployments/{deployment.pk}/", {"decision": "approve"}, follow=True
    )
    assert any(approved in m for m in _messages(done)), _messages(done)
    assert Table.objects.get(pk=felt.table.pk).ruleset_id == newer.pk
    # A supervisor cannot decide a deployment.
    assert client_of(supervisor).post(f"/pit/deployments/{deployment.pk}/", {}).status_code == 403
