"""`manage.py books_verify`, the restore drill's second check: it passes on books that hold,
with a round still being dealt, and names a round whose cached state is not its replay and a
bank whose cached meter is not its ledger."""

import io

import pytest
from django.core.management import call_command

from jackpot.models import Bank
from tables.models import Round

from .conftest import BOARD, DEALER_CARDS, HOLES


def _verify() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("books_verify", stdout=out)
    except SystemExit as exc:
        return exc.code, out.getvalue()
    return 0, out.getvalue()


@pytest.fixture
def played(felt, progressive):
    felt.open()
    felt.wagers(1, ante=1000, progressive=100)
    felt.wagers(2, ante=2000)
    felt.play_to_showdown(HOLES, board=BOARD, dealer_cards=DEALER_CARDS)
    felt.step("settlement_confirmed")
    felt.open()  # the next round, still at betting
    felt.wagers(1, ante=1000)
    return felt


def test_books_that_hold_pass_with_a_round_in_progress(played):
    code, out = _verify()
    assert code == 0, out
    assert "FAILED" not in out
    assert "each round's cached state equals the engine's replay of its events" in out
    assert "bank uth: reconciliation raises no alert" in out


def test_a_cached_state_that_is_not_the_replay_is_named(played):
    settled = Round.objects.get(stage="settled")
    Round.objects.filter(pk=settled.pk).update(state={**settled.state, "stage": "void"})
    code, out = _verify()
    assert code == 1
    assert (
        f"FAILED each round's cached state equals the engine's replay of its events (differ: [{settled.pk}])"
        in " ".join(out.split())
    )


def test_a_meter_that_is_not_its_ledger_is_named(played):
    Bank.objects.filter(slug="uth").update(meter_cents=Bank.objects.get(slug="uth").meter_cents + 1)
    code, out = _verify()
    assert code == 1
    assert "FAILED bank uth: reconciliation raises no alert" in " ".join(out.split())
