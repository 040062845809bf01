"""casino.asgi's HTTP side: Django's own ASGI handler, behind channels' routing."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.db import connections

from casino import asgi

pytestmark = pytest.mark.django_db(transaction=True)


async def answer(method: str, path: str, **kwargs) -> dict:
    headers = [(b"host", b"localhost"), *kwargs.pop("headers", [])]
    communicator = HttpCommunicator(asgi.application, method, path, headers=headers, **kwargs)
    try:
        return await communicator.get_response(timeout=10)
    finally:
        await sync_to_async(connections.close_all)()


def headers_of(response: dict) -> dict[str, str]:
    return {name.decode().lower(): value.decode() for name, value in response["headers"]}


async def test_an_unknown_address_and_a_refused_write_answer_as_before():
    missing = await answer("GET", "/no-such-page/")
    assert missing["status"] == 404

    refused = await answer(
        "POST",
        "/api/login",
        body=b'{"employee_number": "1", "pin": "1"}',
        headers=[(b"content-type", b"application/json")],
    )
    assert refused["status"] == 403  # no CSRF token
    assert headers_of(refused)["content-type"].startswith("application/json")
