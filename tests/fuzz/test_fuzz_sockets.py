"""The sockets under random addresses and random client text: the consumer never raises;
it refuses (4403, 4404) or accepts, and whatever a client then sends closes it (4400)."""

from urllib.parse import quote

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from hypothesis import assume, given
from hypothesis import strategies as st

from casino.asgi import application
from jackpot.display_tokens import display_token_issue
from tests.casino.test_live import OWN_ORIGIN, session_cookie
from tests.fuzz.strategies import FEW, hostile_texts
from tests.jackpot.display.support import make_bank

pytestmark = pytest.mark.django_db(transaction=True)

CLOSE_BAD_REQUEST = 4400
client_text = hostile_texts | st.sampled_from(['{"type": "subscribe"}', "[" * 5000, "{}"])


async def _exchange(path: str, headers: list, text: str) -> int:
    """Connect, read what the socket says first, send `text`: the close code it ends with."""
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await ws.connect(timeout=5)
    if not connected:
        return code
    try:
        while not await ws.receive_nothing(timeout=0.2):
            output = await ws.receive_output(timeout=5)  # raises the consumer's exception
            if output["type"] == "websocket.close":
                return output["code"]
        await ws.send_to(text_data=text or " ")  # the test client cannot send an empty frame
        while True:
            output = await ws.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                assert output["code"] == CLOSE_BAD_REQUEST
                return output["code"]
    finally:
        await ws.disconnect()


exchange = async_to_sync(_exchange)


@pytest.fixture
def grand_token(casino_property):
    bank = make_bank()
    return display_token_issue(bank_slug=bank.slug, name="Bar")[1]


@FEW
@given(slug=hostile_texts | st.just("grand"), text=client_text, with_token=st.booleans())
def test_the_display_socket_never_raises_whatever_the_address(grand_token, slug, text, with_token):
    assume(slug and "/" not in slug)  # a "/" names another route, or none: the router's 404
    query = f"?token={grand_token}" if with_token else ""
    code = exchange(f"/ws/jackpot/{quote(slug, safe='')}/{query}", [], text)
    assert code in (4403, 4404, CLOSE_BAD_REQUEST)


@pytest.fixture
def supervisor_headers(supervisor):  # noqa: F811
    return [OWN_ORIGIN, session_cookie(supervisor)]


@FEW
@given(number=st.sampled_from(["own", "0", "999999", "9" * 19, "9" * 40]), text=client_text)
def test_the_table_socket_never_raises_whatever_the_table(
    table,  # noqa: F811
    supervisor_headers,
    number,
    text,
):
    number = str(table.pk) if number == "own" else number
    assert exchange(f"/ws/tables/{number}/", supervisor_headers, text) in (
        4403,
        4404,
        CLOSE_BAD_REQUEST,
    )


@FEW
@given(text=client_text)
def test_the_pit_socket_closes_on_anything_a_client_sends(supervisor_headers, text):
    assert exchange("/ws/pit/", supervisor_headers, text) == CLOSE_BAD_REQUEST
