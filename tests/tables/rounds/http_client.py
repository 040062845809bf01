"""A standard-library client of the round API (spec/round-api.md), for tests that talk to a
real server process over HTTP: the session sign-in with its CSRF cookie, JSON in and out,
and round writes that carry their idempotency `key` and `expected_seq`.

    api = ApiClient("http://127.0.0.1:8431")
    api.sign_in(dealer.employee_number, "1234")
    tablet = Tablet(api, prefix="t1")
    tablet.open(table.pk)
    tablet.step("wagers_placed", seat=1, ante=1000, blind=1000, trips=0, progressive=0)

Nothing here is Django's: the server under test is a separate process.
"""

import http.client
import itertools
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from urllib.parse import urlsplit


class ApiClient:
    """One browser-like session: its own cookie jar (session and CSRF cookies)."""

    def __init__(self, base: str, *, timeout: float = 10) -> None:
        self.base, self.timeout = base.rstrip("/"), timeout
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def _headers(self, method: str) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if method not in ("GET", "HEAD", "OPTIONS"):
            headers["X-CSRFToken"] = self.cookie("csrftoken")
        return headers

    def request(self, method: str, path: str, body=None) -> tuple[int, dict | list | None]:
        """(status, JSON body); a body that is not JSON comes back as {"_not_json": text}."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path, data=data, method=method, headers=self._headers(method)
        )
        try:
            with self.opener.open(req, timeout=self.timeout) as resp:
                return resp.status, _json(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, _json(exc.read())

    def get(self, path: str):
        return self.request("GET", path)

    def post(self, path: str, body: dict):
        return self.request("POST", path, body)

    def sign_in(self, employee_number: str, pin: str) -> dict:
        """GET the PIN page for the CSRF cookie, then `POST /api/login`. Returns the staff."""
        self.opener.open(self.base + "/login/pin/", timeout=self.timeout).read()
        status, body = self.post("/api/login", {"employee_number": employee_number, "pin": pin})
        if status != 200:
            raise AssertionError(f"POST /api/login as {employee_number}: {status} {body}")
        return body["staff"]

    def send_without_reading(
        self, method: str, path: str, body: dict
    ) -> http.client.HTTPConnection:
        """Send a request with this session's cookies and never read its answer: a client
        whose connection dies before the response arrives. Close the connection returned."""
        url = urlsplit(self.base)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=self.timeout)
        headers = self._headers(method)
        headers["Cookie"] = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        conn.request(method, path, body=json.dumps(body).encode(), headers=headers)
        return conn


def _json(raw: bytes):
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return {"_not_json": raw[:300].decode(errors="replace")}


def answers(base: str, path: str = "/api/openapi.json", *, timeout: float = 1) -> bool:
    """Whether a server at `base` answers `path` with 200 now."""
    try:
        with urllib.request.urlopen(base.rstrip("/") + path, timeout=timeout) as resp:
            return resp.status == 200
    except (OSError, http.client.HTTPException):
        return False


def wait_until_answers(base: str, seconds: float, *, alive=lambda: True) -> bool:
    """Poll until the server answers, `alive()` turns false, or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if answers(base):
            return True
        if not alive():
            return False
        time.sleep(0.1)
    return answers(base)


@dataclass(frozen=True)
class Write:
    """One round write as sent and as answered (status None: never read)."""

    path: str
    body: dict
    status: int | None
    answer: dict | None


class Tablet:
    """A dealer tablet on the API: remembers the round and its seq, and uses a fresh key for
    every write (`prefix` keeps keys apart between tablets)."""

    def __init__(self, api: ApiClient, *, prefix: str = "tablet") -> None:
        self.api, self.prefix = api, prefix
        self._n = itertools.count(1)
        self.round: dict | None = None
        self.last: Write | None = None

    @property
    def round_id(self) -> int:
        return self.round["id"]

    @property
    def seq(self) -> int:
        return self.round["seq"]

    def key(self) -> str:
        return f"{self.prefix}-{next(self._n)}"

    def open(self, table_id: int) -> dict:
        path, body = f"/api/tables/{table_id}/rounds", {"key": self.key()}
        status, answer = self.api.post(path, body)
        if status != 201:
            raise AssertionError(f"POST {path}: {status} {answer}")
        self.round, self.last = answer, Write(path, body, status, answer)
        return answer

    def event_write(self, kind: str, *, supervisor: dict | None = None, **fields) -> tuple:
        """(path, body) of the next event write, without sending it."""
        body = {"key": self.key(), "expected_seq": self.seq, "event": {"kind": kind, **fields}}
        if supervisor is not None:
            body["supervisor"] = supervisor
        return f"/api/rounds/{self.round_id}/events", body

    def step(self, kind: str, **fields) -> dict:
        """One event; it must be accepted (200) and add exactly one to seq."""
        path, body = self.event_write(kind, **fields)
        status, answer = self.api.post(path, body)
        if status != 200 or answer.get("seq") != self.seq + 1:
            raise AssertionError(f"{kind} {fields} at seq {self.seq}: {status} {answer}")
        self.round, self.last = answer, Write(path, body, status, answer)
        return answer

    def refresh(self) -> dict:
        status, answer = self.api.get(f"/api/rounds/{self.round_id}")
        if status != 200:
            raise AssertionError(f"GET /api/rounds/{self.round_id}: {status} {answer}")
        self.round = answer
        return answer
