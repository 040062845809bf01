"""Ratings from the pit screen (issue 28, 2): the table page's seat map, each action and its
refusals through the pit's forms, and the tablet told of every rating write after commit."""

import pytest
from django.test import Client

from casino.roles import Role
from tables.ratings.models import BuyIn, Player, Rating
from tests.factories import make_staff
from tests.tables.ratings.conftest import rate
from tests.tables.rounds.conftest import deal_to


def _client(staff, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(staff)
    return client


def _said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def _post(client, url, **data):
    return client.post(url, data, follow=True)


@pytest.fixture
def screen(supervisor):
    """The supervisor's pit screen."""
    return _client(supervisor)


def test_the_table_page_shows_the_seat_map(screen, table, supervisor, marie):
    rate(supervisor, table, 2, card=marie.card)
    page = screen.get(f"/pit/tables/{table.pk}/")
    seats = page.context["seats"]
    assert [s.number for s in seats] == list(range(1, table.seats + 1))
    assert seats[1].rating.player == marie and not seats[1].paused
    assert seats[0].rating is None
    assert "Marie D." in page.content.decode()
    assert "Open a rating" in page.content.decode()


def test_a_supervisor_opens_pauses_buys_in_moves_and_closes_from_the_pit(
    screen, table, uth9, felt, marie
):
    answer = _post(screen, f"/pit/tables/{table.pk}/ratings/open/", seat=1, card=marie.card)
    assert _said(answer) == [f"A rating is open at {table}, seat 1."]
    rating = Rating.objects.get(player=marie, closed_at__isnull=True)
    deal_to(felt, "settled", seats=(1,))

    answer = _post(screen, f"/pit/ratings/{rating.pk}/pause/")
    assert _said(answer) == ["The rating of Marie D. is paused."]
    assert answer.context["seats"][0].paused
    answer = _post(screen, f"/pit/ratings/{rating.pk}/resume/")
    assert not answer.context["seats"][0].paused

    answer = _post(screen, f"/pit/ratings/{rating.pk}/buy-in/", amount="500", instrument="marker")
    assert _said(answer) == ["Buy-in recorded for Marie D. (marker)."]
    assert list(BuyIn.objects.values_list("amount_cents", "instrument")) == [(50000, "marker")]

    answer = _post(screen, f"/pit/ratings/{rating.pk}/move/", table=uth9.pk, seat=4)
    assert _said(answer) == [f"Marie D. moves to {uth9}, seat 4: the rating follows."]
    rating.refresh_from_db()
    assert rating.closed_reason == Rating.MOVED
    following = Rating.objects.get(previous=rating)
    assert (following.table_id, following.seat) == (uth9.pk, 4)

    answer = _post(screen, f"/pit/ratings/{following.pk}/close/", walk_with="1 200")
    assert _said(answer) == ["The rating of Marie D. is closed."]
    following.refresh_from_db()
    assert (following.closed_reason, following.walk_with_cents) == (Rating.CLOSED, 120000)


def test_an_anonymous_player_is_rated_then_linked_to_a_card(screen, table):
    _post(screen, f"/pit/tables/{table.pk}/ratings/open/", seat=3, anonymous="man, red jacket")
    rating = Rating.objects.get(seat=3, closed_at__isnull=True)
    assert rating.player.card is None
    page = screen.get(f"/pit/tables/{table.pk}/")
    assert page.context["seats"][2].anonymous
    answer = _post(screen, f"/pit/ratings/{rating.pk}/link/", card="400999")
    assert _said(answer) == ["man, red jacket now holds card 400999."]
    assert Player.objects.get(pk=rating.player_id).card == "400999"


def test_a_seat_already_rated_is_refused(screen, table, supervisor, marie, paul):
    rate(supervisor, table, 1, card=marie.card)
    answer = _post(screen, f"/pit/tables/{table.pk}/ratings/open/", seat=1, card=paul.card)
    assert _said(answer) == [f"Seat 1 of {table} is already rated: close that rating first."]
    assert not Rating.objects.filter(player=paul).exists()


def test_a_player_rated_elsewhere_is_refused(screen, table, uth9, supervisor, marie):
    rate(supervisor, uth9, 2, card=marie.card)
    answer = _post(screen, f"/pit/tables/{table.pk}/ratings/open/", seat=1, card=marie.card)
    assert _said(answer) == [
        f"Marie D. is already rated at {uth9}, seat 2: move that rating instead."
    ]
    assert Rating.objects.filter(player=marie).count() == 1


def test_a_barred_player_is_refused_and_the_pit_told(screen, table, marie):
    from tables.pit.models import Alert

    Player.objects.filter(pk=marie.pk).update(status=Player.BARRED)
    answer = _post(screen, f"/pit/tables/{table.pk}/ratings/open/", seat=1, card=marie.card)
    assert _said(answer) == ["Marie D. is barred: no rating can be opened. The pit has been told."]
    assert not Rating.objects.exists()
    assert Alert.objects.filter(kind=Alert.Kind.EXCLUDED_PLAYER).exists()


def test_the_form_asks_for_a_player_or_a_description_not_both(screen, table, marie):
    answer = _post(
        screen, f"/pit/tables/{table.pk}/ratings/open/", seat=1, card=marie.card, anonymous="x"
    )
    assert _said(answer) == [
        "Choose a player from the list, or describe an anonymous player (one of the two)."
    ]
    answer = _post(screen, f"/pit/tables/{table.pk}/ratings/open/", seat=9, card=marie.card)
    assert _said(answer) == ["Choose a seat of this table."]
    assert not Rating.objects.exists()


def test_a_buy_in_that_is_no_amount_is_refused(screen, table, supervisor, marie):
    rating = rate(supervisor, table, 1, card=marie.card)
    answer = _post(screen, f"/pit/ratings/{rating['id']}/buy-in/", amount="lots", instrument="cash")
    assert _said(answer) == ["Type the buy-in as an amount, such as 500 or 1234.56."]
    answer = _post(screen, f"/pit/ratings/{rating['id']}/buy-in/", amount="5", instrument="gold")
    assert _said(answer) == ["Choose cash, chips or marker."]
    assert not BuyIn.objects.exists()


@pytest.mark.parametrize("role", [Role.DEALER, Role.MANAGER, Role.AUDITOR])
def test_only_a_supervisor_writes_a_rating_from_the_pit(role, table, supervisor, marie):
    rating = rate(supervisor, table, 1, card=marie.card)
    client = _client(make_staff(role, username=f"pit-{role}"))
    for url in (
        f"/pit/tables/{table.pk}/ratings/open/",
        f"/pit/ratings/{rating['id']}/pause/",
        f"/pit/ratings/{rating['id']}/buy-in/",
        f"/pit/ratings/{rating['id']}/move/",
        f"/pit/ratings/{rating['id']}/close/",
        f"/pit/ratings/{rating['id']}/link/",
    ):
        assert client.post(url, {"seat": 2, "card": "400124"}).status_code == 403, url
    assert Rating.objects.get().closed_at is None
    page = client.get(f"/pit/tables/{table.pk}/")
    if role == Role.DEALER:
        assert page.status_code == 403
    else:  # a manager or an auditor reads the seat map, without its forms
        assert "Marie D." in page.content.decode()
        assert "Open a rating" not in page.content.decode()


def test_the_seat_map_speaks_french(supervisor, table, marie):
    rate(supervisor, table, 1, card=marie.card)
    page = _client(supervisor, "fr").get(f"/pit/tables/{table.pk}/")
    text = page.content.decode()
    assert "Places et cotations" in text and "Ouvrir une cotation" in text
    assert "Marie D." in text and "coté" in text


def test_every_rating_write_tells_the_tablet_after_commit(
    screen, table, marie, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr("tables.live.group_send", lambda group, event: sent.append((group, event)))
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        _post(screen, f"/pit/tables/{table.pk}/ratings/open/", seat=5, card=marie.card)
        assert sent == []  # nothing before commit
    for callback in waiting:
        callback()
    assert (
        f"tables.table.{table.pk}",
        {"type": "table.message", "payload": {"type": "seats", "seats": {"5": "Marie D."}}},
    ) in sent
    sent.clear()
    rating = Rating.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        _post(screen, f"/pit/ratings/{rating.pk}/close/")
    assert (
        f"tables.table.{table.pk}",
        {"type": "table.message", "payload": {"type": "seats", "seats": {}}},
    ) in sent


def test_a_failed_announcement_is_logged_and_the_rating_stays(
    screen, table, marie, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    def down(group, event):
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr("tables.live.group_send", down)
    with django_capture_on_commit_callbacks(execute=True):
        answer = _post(screen, f"/pit/tables/{table.pk}/ratings/open/", seat=2, card=marie.card)
    assert answer.status_code == 200
    assert Rating.objects.filter(player=marie, seat=2, closed_at__isnull=True).exists()
    assert "were not announced" in caplog.text
