"""A real ASGI server (uvicorn, websockets) in a thread, and Debian's chromium.

pytest-django's live_server is WSGI only. This server runs the project's ASGI application
in the test process, against the test database (transactional_db: other threads see the
rows), with the in-memory channel layer. Writes that must reach its sockets go through
`server.run_sync(fn)`: `fn` then runs on a thread of the server's event loop, so what it
publishes after commit lands in that loop's channel layer.
"""

import asyncio
import socket
import threading
import time

import pytest
import uvicorn
from asgiref.sync import sync_to_async
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from tests.conftest import CHROMIUM  # one place names the browser

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server(uvicorn.Server):
    async def startup(self, sockets=None):
        self.loop = asyncio.get_running_loop()
        await super().startup(sockets)


def project_application():
    from casino.asgi import application

    static = ASGIStaticFilesHandler(application)

    async def app(scope, receive, send):
        if scope["type"] == "http":
            return await static(scope, receive, send)
        return await application(scope, receive, send)

    return app


class AsgiServer:
    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            project_application(),
            host="127.0.0.1",
            port=self.port,
            lifespan="off",
            log_level="warning",
            ws="websockets",
            timeout_graceful_shutdown=2,
        )
        self.server = _Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> "AsgiServer":
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the ASGI server did not start")
            time.sleep(0.02)
        return self

    def run_sync(self, fn, *args, **kwargs):
        future = asyncio.run_coroutine_threadsafe(
            sync_to_async(fn, thread_sensitive=False)(*args, **kwargs), self.server.loop
        )
        return future.result(timeout=10)

    def stop(self) -> None:
        if self.thread.is_alive():
            self.server.should_exit = True
            self.thread.join(timeout=10)

    def restarted(self) -> "AsgiServer":
        """Stop, then serve again on the same port (a deploy, a crash and restart)."""
        self.stop()
        return AsgiServer(self.port).start()


@pytest.fixture
def asgi_server(transactional_db, monkeypatch):
    # Playwright's sync API keeps an event loop in the test thread; the ORM calls made here
    # by fixtures are still plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    server = AsgiServer().start()
    yield server
    server.stop()


@pytest.fixture
def browser_page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        yield page
        browser.close()


def sign_in(page, server, username: str) -> None:
    """Sign `page` in as `username` on `server` (a session made by Django's test client)."""
    from django.test import Client

    from casino.models import Staff

    client = Client()
    client.force_login(Staff.objects.get(username=username))
    page.context.clear_cookies()
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url}]
    )
