"""casino.asgi's HTTP handler: Django's own, with the whole request (middleware and view) in
one hop to the request's thread instead of three (docs/architecture/overview.md, "Where a
tap's time goes")."""

import asyncio
import threading

import pytest
from asgiref.sync import AsyncToSync, sync_to_async
from channels.testing import HttpCommunicator
from django.core.handlers.base import BaseHandler
from django.db import connections

from casino import asgi
from casino.middleware import ServerTimingMiddleware

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


def test_the_middleware_chain_is_synchronous_from_top_to_view():
    assert not asyncio.iscoroutinefunction(asgi.django_asgi_app._middleware_chain)


async def test_a_page_comes_through_the_whole_stack_in_one_thread(monkeypatch):
    back_to_the_loop = []
    threads = []
    call_async = AsyncToSync.__call__
    timed = ServerTimingMiddleware.__call__
    resolve = BaseHandler.resolve_request

    def counted(self, *args, **kwargs):
        back_to_the_loop.append(self)
        return call_async(self, *args, **kwargs)

    def first_middleware(self, request):
        threads.append(("middleware", threading.get_ident()))
        return timed(self, request)

    def resolved(self, request):
        # Django's own handler resolves the URL on the event loop, between two hops.
        threads.append(("resolve", threading.get_ident()))
        return resolve(self, request)

    monkeypatch.setattr(AsyncToSync, "__call__", counted)
    monkeypatch.setattr(ServerTimingMiddleware, "__call__", first_middleware)
    monkeypatch.setattr(BaseHandler, "resolve_request", resolved)
    response = await answer("GET", "/login/pin/")

    assert response["status"] == 200
    headers = headers_of(response)
    assert headers["server-timing"].startswith("app;dur=")  # the first middleware ran
    assert headers["content-language"] in {"fr", "en"}  # and the inner ones
    assert b"<form" in response["body"]  # and the view
    assert back_to_the_loop == []  # Django's own handler comes back to the loop once
    (_, middleware), (_, resolving) = threads
    assert middleware == resolving != threading.get_ident()  # one thread, not the loop's


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
