"""Every rating write and refusal (issue 28, "How it must be verified", first bullet), and
the figures each leaves, read from the settlement lines."""

import copy

import pytest

from casino.audit import seal_pending
from casino.models import AuditEntry
from casino.roles import Role
from tables import services as floor
from tables.errors import IllegalTransition, KeyReused, NotFound, RoleRequired, RoundRefused
from tables.models import Round
from tables.pit.models import Alert
from tables.ratings import services
from tables.ratings.models import Player, Rating
from tables.ratings.selectors import rating_detail
from tables.services import rounds
from tests.factories import make_staff
from tests.tables.ratings.conftest import do, key, rate, seat_lines
from tests.tables.rounds.conftest import deal_to, pin_of, play_on


def _read(rating) -> dict:
    return rating_detail(rating["id"])


# --- opening -------------------------------------------------------------------------------


def test_a_supervisor_opens_a_rating_for_a_carded_player(table, supervisor, marie):
    body = rate(supervisor, table, 2, card="400123")
    assert body["player"] == {"id": marie.pk, "card": "400123", "alias": "Marie D."}
    assert (body["table"], body["seat"], body["status"], body["hands"]) == (table.pk, 2, "open", 0)
    assert body["opened_by"]["id"] == supervisor.pk
    assert body["closed_reason"] is None and body["previous"] is None
    seal_pending()
    entry = AuditEntry.objects.get(code="ratings.rating.opened")
    assert entry.data["player"] == marie.pk and entry.data["seat"] == 2


def test_an_anonymous_player_is_created_without_a_card(table, supervisor):
    body = rate(supervisor, table, 3, anonymous="man, red jacket")
    player = Player.objects.get(pk=body["player"]["id"])
    assert (player.card, player.alias, player.created_by) == (None, "man, red jacket", supervisor)


def test_a_retried_open_answers_as_the_first_time_and_a_reused_key_is_refused(
    table, supervisor, marie
):
    first = services.rating_open(
        staff=supervisor, key="same", table=table.pk, seat=1, player={"card": "400123"}
    )
    again = services.rating_open(
        staff=supervisor, key="same", table=table.pk, seat=1, player={"card": "400123"}
    )
    assert again.replayed and again.body == first.body and again.status == 201
    assert Rating.objects.count() == 1
    with pytest.raises(KeyReused):
        services.rating_open(
            staff=supervisor, key="same", table=table.pk, seat=2, player={"card": "400123"}
        )


def test_a_seat_already_rated_is_refused(table, supervisor, marie, paul):
    rate(supervisor, table, 2, card="400123")
    with pytest.raises(IllegalTransition) as refused:
        rate(supervisor, table, 2, card="400124")
    assert (refused.value.code, refused.value.http_status) == ("seat_rated", 409)


def test_a_player_rated_elsewhere_is_refused(table, supervisor, marie, uth9):
    other = uth9
    rate(supervisor, table, 2, card="400123")
    with pytest.raises(IllegalTransition) as refused:
        rate(supervisor, other, 4, card="400123")
    assert (refused.value.code, refused.value.http_status) == ("player_rated", 409)


def test_an_unknown_card_is_not_found(table, supervisor):
    with pytest.raises(NotFound) as refused:
        rate(supervisor, table, 2, card="999999")
    assert (refused.value.code, refused.value.http_status) == ("unknown_card", 404)


@pytest.mark.parametrize("status", [Player.BARRED, Player.SELF_EXCLUDED])
def test_a_barred_or_self_excluded_player_is_refused_and_the_pit_is_told(
    table, supervisor, marie, status
):
    marie.status = status
    marie.save()
    with pytest.raises(IllegalTransition) as refused:
        rate(supervisor, table, 2, card="400123")
    assert (refused.value.code, refused.value.http_status) == ("player_excluded", 409)
    assert not Rating.objects.exists()
    alert = Alert.objects.get(kind=Alert.Kind.EXCLUDED_PLAYER)
    assert (alert.table_id, alert.params["alias"], alert.params["status"]) == (
        table.pk,
        "Marie D.",
        status,
    )


def test_a_closed_table_takes_no_rating(table, supervisor, marie):
    floor.table_close(table_id=table.pk, supervisor=supervisor)
    with pytest.raises(IllegalTransition) as refused:
        rate(supervisor, table, 2, card="400123")
    assert refused.value.code == "table_closed"


def test_a_seat_beyond_the_table_is_refused(table, supervisor, marie):
    with pytest.raises(RoundRefused) as refused:
        rate(supervisor, table, table.seats + 1, card="400123")
    assert refused.value.code == "bad_seat"


def test_a_dealer_and_a_manager_open_no_rating(table, dealer, manager, marie):
    for person in (dealer, manager):
        with pytest.raises(RoleRequired):
            rate(person, table, 2, card="400123")


def test_nobody_opens_moves_or_closes_their_own_rating(table, supervisor, casino_property):
    other = make_staff(Role.SUPERVISOR, username="other_sup", pin="9753")
    Player.objects.create(property=casino_property, card="7", alias="Off duty", staff=supervisor)
    with pytest.raises(RoleRequired) as refused:
        rate(supervisor, table, 2, card="7")
    assert refused.value.code == "own_rating"
    body = rate(other, table, 2, card="7")
    for action, fields in (("close", {}), ("move", {"table": table.pk, "seat": 3}), ("pause", {})):
        with pytest.raises(RoleRequired):
            do(action, supervisor, body, **fields)


# --- what is counted -----------------------------------------------------------------------


def test_a_counted_round_gives_the_seats_stakes_and_result(felt, supervisor, marie):
    body = rate(supervisor, felt.table, 1, card="400123")
    round_id = deal_to(felt, "settled")["id"]
    got = _read(body)
    want = seat_lines([round_id], 1)
    assert got["hands"] == 1
    assert got["wagered"]["ante"] == want["stakes"]["ante"] == 1000
    assert got["wagered"]["trips"] == 1000 and got["wagered"]["progressive"] == 100
    assert got["player_result_cents"] == want["net"]
    assert got["total_wagered_cents"] == sum(got["wagered"].values())
    assert got["average_ante_cents"] == 1000


def test_a_paused_rating_does_not_count_the_round(felt, supervisor, marie):
    body = rate(supervisor, felt.table, 1, card="400123")
    assert do("pause", supervisor, body)["status"] == "paused"
    deal_to(felt, "settled")
    assert do("resume", supervisor, body)["status"] == "open"
    assert _read(body)["hands"] == 0
    deal_to(felt, "settled")
    assert _read(body)["hands"] == 1
    with pytest.raises(IllegalTransition) as refused:
        do("resume", supervisor, body)
    assert refused.value.code == "rating_not_paused"


def test_a_round_locked_before_the_open_is_not_counted(felt, supervisor, marie):
    deal_to(felt, "flop")  # bets locked already
    body = rate(supervisor, felt.table, 1, card="400123")
    play_on(felt)
    assert _read(body)["hands"] == 0
    deal_to(felt, "settled")
    assert _read(body)["hands"] == 1


def test_a_void_counts_nothing(felt, supervisor, marie):
    body = rate(supervisor, felt.table, 1, card="400123")
    deal_to(felt, "flop")
    felt.step("irregularity_declared", irregularity="community_card_exposed")
    assert felt.step("void_approved", supervisor=pin_of(supervisor))["stage"] == "void"
    got = _read(body)
    assert (got["hands"], got["total_wagered_cents"], got["player_result_cents"]) == (0, 0, 0)


def test_a_correction_after_the_close_changes_the_figures(felt, supervisor, marie, casino_property):
    casino_property.correction_threshold_cents = 10**9
    casino_property.save(update_fields=["correction_threshold_cents"])
    body = rate(supervisor, felt.table, 1, card="400123")
    round_id = deal_to(felt, "settled")["id"]
    before = do("close", supervisor, body, walk_with_cents=5000)
    round_ = Round.objects.get(pk=round_id)
    facts = copy.deepcopy(round_.settlement_input)
    for seat in facts["seats"]:
        if seat["seat"] == 1:
            seat["hole"] = ["3c", "5d"]
    rounds.round_correct(
        round_id=round_id,
        actor=supervisor,
        key="fix-1",
        supervisor=pin_of(supervisor),
        reason="the camera shows 3c 5d",
        corrected=facts,
    )
    after = _read(body)
    assert after["status"] == "closed"
    assert after["player_result_cents"] == seat_lines([round_id], 1)["net"]
    assert after["player_result_cents"] != before["player_result_cents"]
    assert after["wagered"] == before["wagered"]


def test_a_move_keeps_the_chain(felt, supervisor, marie, uth9):
    other = uth9
    first = rate(supervisor, felt.table, 1, card="400123")
    deal_to(felt, "settled")
    moved = do("move", supervisor, first, table=other.pk, seat=5)
    assert (moved["table"], moved["seat"], moved["previous"], moved["status"]) == (
        other.pk,
        5,
        first["id"],
        "open",
    )
    old = _read(first)
    assert (old["status"], old["closed_reason"], old["hands"]) == ("closed", "moved", 1)
    assert moved["player"] == old["player"]
    # the seat left is free again; a closed rating takes no more writes
    rate(supervisor, felt.table, 1, anonymous="next one")
    with pytest.raises(IllegalTransition) as refused:
        do("pause", supervisor, first)
    assert refused.value.code == "rating_closed"


def test_closing_a_table_closes_its_open_ratings(felt, supervisor, marie, paul):
    a = rate(supervisor, felt.table, 1, card="400123")
    b = rate(supervisor, felt.table, 2, card="400124")
    do("pause", supervisor, b)
    floor.table_close(table_id=felt.table.pk, supervisor=supervisor)
    for body in (a, b):
        got = _read(body)
        assert (got["status"], got["closed_reason"]) == ("closed", "table_closed")
        assert got["closed_by"]["id"] == supervisor.pk
    seal_pending()
    assert AuditEntry.objects.filter(code="ratings.rating.table_closed").count() == 2


def test_buy_ins_by_instrument_and_the_walk_with(table, supervisor, marie):
    body = rate(supervisor, table, 2, card="400123")
    do("buy_in", supervisor, body, amount_cents=50_000, instrument="cash")
    do("buy_in", supervisor, body, amount_cents=20_000, instrument="marker")
    closed = do("close", supervisor, body, walk_with_cents=65_000)
    assert [b["instrument"] for b in closed["buy_ins"]] == ["cash", "marker"]
    assert (closed["cash_in_cents"], closed["walk_with_cents"]) == (50_000, 65_000)
    assert closed["chips_estimated_result_cents"] == -5_000
    with pytest.raises(RoundRefused) as refused:
        services.rating_buy_in(
            rating_id=body["id"], staff=supervisor, key=key(), amount_cents=10, instrument="cheque"
        )
    assert refused.value.code == "bad_instrument"


def test_every_rating_write_is_audited(felt, supervisor, marie, uth9):
    other = uth9
    body = rate(supervisor, felt.table, 1, card="400123")
    do("pause", supervisor, body)
    do("resume", supervisor, body)
    do("buy_in", supervisor, body, amount_cents=100, instrument="chips")
    moved = do("move", supervisor, body, table=other.pk, seat=1)
    do("close", supervisor, moved)
    seal_pending()
    codes = list(
        AuditEntry.objects.filter(code__startswith="ratings.")
        .order_by("position")
        .values_list("code", flat=True)
    )
    assert codes == [
        "ratings.rating.opened",
        "ratings.rating.paused",
        "ratings.rating.resumed",
        "ratings.rating.buy_in",
        "ratings.rating.moved",
        "ratings.rating.closed",
    ]


def test_the_edges_are_the_accountings_for_a_trips_c_table(felt, supervisor, marie):
    """The table's rule set has Trips paytable C: the rating states the accounting's own edges
    (tables.accounting.reports reads them for its theoretical win), and theo is each stake
    times them, by hand."""
    from decimal import Decimal
    from fractions import Fraction

    from tables.accounting.reports import edges_by_ruleset

    body = rate(supervisor, felt.table, 1, card="400123")
    round_id = deal_to(felt, "settled")["id"]
    got = _read(body)
    accounting = edges_by_ruleset({felt.table.ruleset_id})[felt.table.ruleset_id]
    for bet in ("ante", "trips", "progressive"):
        exact = accounting.of(bet)
        assert abs(Fraction(Decimal(got["edges"][bet])) - exact) < Fraction(1, 10**12)
    stakes = seat_lines([round_id], 1)["stakes"]
    by_hand = (
        stakes["ante"] * Fraction(Decimal(got["edges"]["ante"]))
        + stakes["trips"] * Fraction(Decimal(got["edges"]["trips"]))
        + stakes["progressive"] * Fraction(Decimal(got["edges"]["progressive"]))
    )
    assert got["theo_cents"] == round(by_hand)
