"""`make serve`'s socket limits, tried against a real uvicorn started with the Makefile's own
UVICORN_LIMITS (issue 11 item 7): an idle or dripping handshake is dropped, an oversized
head gets 431, an oversized WebSocket message closes the socket (1009) before the
application sees it, and the display feed still works under them."""

import asyncio
import json
import re
import shlex
import socket
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from jackpot.demo import DEMO_BANK, DEMO_DISPLAY_TOKEN
from tests.jackpot.display.servers import BASE_DIR, PYTHON, Server, server_env

pytestmark = [pytest.mark.slow]

PORT = 8123
HEAD_SECONDS = 2  # SERVER_HEAD_SECONDS for this server (10 by default)


def makefile_limits() -> list[str]:
    text = (BASE_DIR / "Makefile").read_text()
    match = re.search(r"^UVICORN_LIMITS := ((?:.*\\\n)*.*)$", text, re.MULTILINE)
    assert match, "the Makefile defines UVICORN_LIMITS"
    return shlex.split(match[1].replace("\\\n", " "))


def test_make_serve_starts_uvicorn_with_the_limits():
    text = (BASE_DIR / "Makefile").read_text()
    serve = text[text.index("\nserve:") :]
    assert "$(UVICORN_LIMITS)" in serve.split("\n\n")[0]
    limits = makefile_limits()
    assert limits[limits.index("--ws-max-size") + 1] == "65536"
    assert limits[limits.index("--http") + 1] == "casino.server_limits:GuardedHttpToolsProtocol"


@pytest.fixture
def server(database, tmp_path):
    env = {**server_env(database), "SERVER_HEAD_SECONDS": str(HEAD_SECONDS)}
    command = [str(Path(PYTHON).with_name("uvicorn")), "casino.asgi:application"]
    command += ["--host", "127.0.0.1", "--port", str(PORT), *makefile_limits()]
    running = Server(command, env, PORT, tmp_path / "server.log")
    yield running
    running.stop()


def closed_after(sock: socket.socket, *, drip: bytes = b"", within: float) -> float | None:
    """Seconds until the server closes `sock` (None if it did not within `within`)."""
    started = time.monotonic()
    sock.settimeout(0.25)
    while time.monotonic() - started < within:
        if drip:
            try:
                sock.sendall(drip)
            except OSError:
                return time.monotonic() - started
        try:
            if sock.recv(1024) == b"":
                return time.monotonic() - started
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - started
    return None


def test_an_idle_handshake_is_dropped_after_the_head_deadline(server):
    with socket.create_connection(("127.0.0.1", PORT)) as idle:
        took = closed_after(idle, within=HEAD_SECONDS + 5)
    assert took is not None and HEAD_SECONDS - 0.5 <= took, took
    print(f"idle connection closed after {took:.1f} s (SERVER_HEAD_SECONDS={HEAD_SECONDS})")


def test_a_dripping_head_is_dropped_too(server):
    with socket.create_connection(("127.0.0.1", PORT)) as slow:
        slow.sendall(b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        took = closed_after(slow, drip=b"X-a: b\r\n", within=HEAD_SECONDS + 5)
    assert took is not None, "a slowloris head kept its connection"


def test_a_head_over_the_limit_gets_431(server):
    with socket.create_connection(("127.0.0.1", PORT)) as big:
        big.sendall(b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        big.sendall(b"X-Padding: " + b"a" * 20_000 + b"\r\n")
        big.settimeout(5)
        answer = big.recv(200)
    assert answer.startswith(b"HTTP/1.1 431"), answer


def test_a_normal_page_and_a_kept_alive_second_request_still_work(server):
    with socket.create_connection(("127.0.0.1", PORT)) as sock:
        sock.settimeout(10)
        for _ in range(2):
            sock.sendall(b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head = sock.recv(65536)
            assert head.startswith(b"HTTP/1.1 200"), head[:100]
            while b"</html>" not in head:
                head += sock.recv(65536)


async def test_an_oversized_socket_message_closes_the_socket_before_the_application(server):
    url = f"ws://127.0.0.1:{PORT}/ws/jackpot/{DEMO_BANK}/"
    protocols = ["tapis.jackpot-feed", f"tapis.token.{DEMO_DISPLAY_TOKEN}"]
    async with connect(url, subprotocols=protocols, open_timeout=10, max_size=None) as ws:
        assert json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"] == "snapshot"
        await ws.send("x" * 70_000)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), timeout=10)
    assert closed.value.rcvd.code == 1009  # message too big (the feed's own answer is 4400)
