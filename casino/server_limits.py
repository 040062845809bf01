"""uvicorn's HTTP protocol with two limits it lacks: a deadline and a size for a request's
head (request line and headers, a WebSocket handshake's included).

uvicorn arms no timer on a new connection: one that opens and sends nothing, or drips its
headers a byte at a time (slowloris), is held until the client gives up, and httptools buffers
a head of any size. `make serve` runs uvicorn with `--http casino.server_limits:GuardedHttpToolsProtocol`
(see UVICORN_LIMITS in the Makefile); the limits are SERVER_HEAD_SECONDS and
SERVER_HEAD_MAX_BYTES (casino/settings.py, from the environment).
"""

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: text/plain; charset=utf-8\r\ncontent-length: 26\r\nconnection: close\r\n\r\n"
    b"Request head is too large."
)


def _limits() -> tuple[float, int]:
    from django.conf import settings

    return settings.SERVER_HEAD_SECONDS, settings.SERVER_HEAD_MAX_BYTES


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """Closes a connection whose request head is not complete within SERVER_HEAD_SECONDS of
    its opening (or of the previous answer, on a kept-alive connection), and answers 431 to a
    head over SERVER_HEAD_MAX_BYTES."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def _await_head(self) -> None:
        seconds, self._head_max = _limits()
        self._head_bytes, self._head_done = 0, False
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(seconds, self._head_too_slow)

    def data_received(self, data: bytes) -> None:
        waiting = not self._head_done
        super().data_received(data)
        if waiting and not self._head_done:
            self._head_bytes += len(data)
            if self._head_bytes > self._head_max and not self.transport.is_closing():
                self._cancel_head_timer()
                self.transport.write(HEAD_TOO_LARGE)
                self.transport.close()

    def on_headers_complete(self) -> None:
        self._head_done = True
        self._cancel_head_timer()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_head()  # the next request on this connection gets the same deadline

    def handle_websocket_upgrade(self) -> None:
        self._head_done = True
        self._cancel_head_timer()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self._head_done and not self.transport.is_closing():
            self.transport.close()
