"""Hostile display-token names and bank codes (issue 11, item 6): the command, the manager's
form and the socket each answer in words (CommandError, a form error, a close code), never
a traceback, a 500 or a DataError, and no token is issued."""

import io

import pytest
from channels.testing import WebsocketCommunicator
from django.core.management import CommandError, call_command
from django.urls import reverse

from casino.asgi import application
from jackpot.display_tokens import display_token_issue
from jackpot.models import DisplayToken
from tests.jackpot.display.support import make_bank


@pytest.fixture
def grand(casino_property):
    return make_bank()


@pytest.mark.parametrize(
    "args",
    [
        ["grand", "--name", "N" * 500],
        ["grand", "--name", "Bar\x00"],
        ["grand\x00", "--name", "Bar"],
        ["grand", "--name", "Bar", "--by", "x\x00"],
        ["g" * 500, "--name", "Bar"],
    ],
    ids=["long-name", "nul-name", "nul-bank", "nul-by", "long-bank"],
)
def test_the_command_refuses_a_name_no_column_holds_in_words(grand, args):
    with pytest.raises(CommandError):
        call_command("display_token", *args, stdout=io.StringIO(), stderr=io.StringIO())
    assert not DisplayToken.objects.exists()


def test_the_command_still_issues_a_token_named_with_80_characters(grand):
    call_command(
        "display_token", "grand", "--name", "N" * 80, stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert DisplayToken.objects.get().name == "N" * 80


@pytest.mark.parametrize(
    "post",
    [
        {"bank": "grand", "name": "Bar\x00"},
        {"bank": "grand\x00", "name": "Bar"},
        {"bank": "grand", "name": "N" * 81},
        {"bank": "g" * 500, "name": "Bar"},
        {"bank": "grand", "name": "Bar", "language": "xx"},
        {"bank": "grand", "name": ""},
        {},
    ],
    ids=["nul-name", "nul-bank", "long-name", "long-bank", "language", "empty", "nothing"],
)
def test_the_token_form_answers_a_form_error_not_a_500(client, grand, manager, post):
    client.force_login(manager)
    response = client.post(reverse("jackpot:display_issue"), post)
    assert response.status_code == 400
    assert b'role="alert"' in response.content
    assert not DisplayToken.objects.exists()


def test_the_token_form_still_issues_a_token(client, grand, manager):
    client.force_login(manager)
    response = client.post(reverse("jackpot:display_issue"), {"bank": "grand", "name": "Bar"})
    assert response.status_code == 200
    assert DisplayToken.objects.get().name == "Bar"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", ["demo%00", "grand%00", "g" * 300, "gr%C3%A9"])
async def test_a_socket_for_a_bank_code_no_bank_can_have_closes_cleanly(slug, casino_property):
    from asgiref.sync import sync_to_async

    _, raw = await sync_to_async(
        lambda: display_token_issue(bank_slug=make_bank().slug, name="B")
    )()
    ws = WebsocketCommunicator(application, f"/ws/jackpot/{slug}/?token={raw}")
    connected, _ = await ws.connect()
    assert connected
    output = await ws.receive_output(timeout=2)
    assert output == {"type": "websocket.close", "code": 4404}
