"""The round API over HTTP, as a tablet uses it: sign-in with CSRF, JSON in and out, every
path with and without its slash, errors in the reader's language, query budgets."""

import contextlib
import itertools
import json
import re
import subprocess
import sys

import pytest
from django.test import Client

from tables.api.openapi import OPENAPI
from tables.api.urls import urlpatterns
from tables.models import RoundEvent
from tests.tables.rounds.conftest import SUPERVISOR_PIN

_keys = itertools.count(1)


class Tablet:
    """A browser-like client: CSRF enforced, the token read from its cookie."""

    def __init__(self, staff, pin="1234", language=None):
        self.http = Client(enforce_csrf_checks=True)
        if language:
            self.http.cookies["tapis_device_language"] = language
        self.http.get("/login/pin/")
        answer = self.post("/api/login", {"employee_number": staff.employee_number, "pin": pin})
        assert answer.status_code == 200, answer.content
        self.round = None

    def csrf(self) -> str:
        return self.http.cookies["csrftoken"].value

    def post(self, path, body):
        return self.http.post(
            path, json.dumps(body), content_type="application/json", HTTP_X_CSRFTOKEN=self.csrf()
        )

    def get(self, path):
        return self.http.get(path, HTTP_ACCEPT="application/json")

    def open(self, table_id):
        answer = self.post(f"/api/tables/{table_id}/rounds", {"key": f"open-{next(_keys)}"})
        assert answer.status_code == 201, answer.content
        self.round = answer.json()
        return self.round

    def send(self, event, *, expect=200, **extra):
        body = {"key": f"k-{next(_keys)}", "expected_seq": self.round["seq"], "event": event}
        answer = self.post(f"/api/rounds/{self.round['id']}/events", {**body, **extra})
        assert answer.status_code == expect, answer.content
        if expect == 200:
            self.round = answer.json()
        return answer


SEVEN = {
    1: ["As", "Ks"],  # royal flush on the flop: the progressive's 100 %
    2: ["Ah", "Ad"],
    3: ["7c", "2h"],
    4: ["Kh", "Kd"],
    5: ["9c", "8c"],
    6: ["3d", "3s"],
    7: ["Jd", "4h"],
}
BOARD = ["Qs", "Js", "Ts", "5h", "6c"]


def test_a_seven_seat_round_over_http_settles_as_the_cli_settles_its_export(
    table, dealer, supervisor
):
    tablet = Tablet(dealer)
    tablet.open(table.pk)
    for seat in SEVEN:
        tablet.send(
            {
                "kind": "wagers_placed",
                "seat": seat,
                "ante": 1000 * seat,
                "blind": 1000 * seat,
                "trips": 1000 if seat % 2 else 0,
                "progressive": 100 if seat in (1, 2, 5) else 0,
            }
        )
    tablet.send({"kind": "bets_locked"})
    for seat in SEVEN:
        action = {"action": "bet", "multiple": 4} if seat <= 3 else {"action": "check"}
        tablet.send({"kind": "decision", "seat": seat, **action})
    tablet.send({"kind": "cards_entered", "place": "board", "cards": BOARD[:3]})
    for seat in range(4, 8):
        action = {"action": "bet", "multiple": 2} if seat == 4 else {"action": "check"}
        tablet.send({"kind": "decision", "seat": seat, **action})
    tablet.send({"kind": "cards_entered", "place": "board", "cards": BOARD[3:]})
    for seat in range(5, 8):
        action = "fold" if seat == 7 else "bet"
        tablet.send({"kind": "decision", "seat": seat, "action": action})
    tablet.send({"kind": "cards_entered", "place": "dealer", "cards": ["2c", "2d"]})
    for seat, hole in SEVEN.items():
        tablet.send({"kind": "cards_entered", "place": seat, "cards": [c.lower() for c in hole]})
    preview = tablet.get(f"/api/rounds/{tablet.round['id']}/settlement").json()
    assert preview["provisional"] is True
    done = tablet.send({"kind": "settlement_confirmed"}).json()
    assert done["stage"] == "settled" and done["seq"] == RoundEvent.objects.count()
    assert [h["seat"] for h in done["settlement"]["progressive"]["hits"]] == [1]
    assert done["settlement"]["progressive"]["hits"][0]["state"] == "pending"

    export = Tablet(supervisor, pin=SUPERVISOR_PIN).get(f"/api/rounds/{done['id']}/export")
    assert export.status_code == 200
    cli = subprocess.run(
        [sys.executable, "-m", "tables.rules", "settle", "-"],
        input=json.dumps(export.json()["input"]),
        capture_output=True,
        text=True,
        check=True,
    )
    again = json.loads(cli.stdout)
    confirmed = export.json()["output"]
    assert {s["seat"]: s for s in again["seats"]} == {s["seat"]: s for s in confirmed["seats"]}
    assert [(h["seat"], h["amount_cents"]) for h in again["progressive"]["hits"]] == [
        (h["seat"], h["amount_cents"]) for h in confirmed["progressive"]["hits"]
    ]
    payouts = {s["seat"]: s["payout"]["net"] for s in done["seats"]}
    assert payouts == {s["seat"]: s["net"] for s in confirmed["seats"]}


def test_every_answer_says_the_servers_own_time(table, dealer):
    from tables.simulator import server_time_ms

    answer = Tablet(dealer).get(f"/api/tables/{table.pk}/")
    header = answer["Server-Timing"]
    assert 0 < server_time_ms(header, "db") <= server_time_ms(header)
    assert re.search(r'db;dur=[\d.]+;desc="([1-9]\d*) queries"', header)


def test_every_path_answers_with_and_without_its_slash_without_a_redirect(table, dealer):
    tablet = Tablet(dealer)
    for path in (
        f"/api/tables/{table.pk}",
        f"/api/tables/{table.pk}/",
        "/api/tables",
        "/api/tables/",
    ):
        assert tablet.get(path).status_code == 200
    opened = tablet.post(f"/api/tables/{table.pk}/rounds/", {"key": "with-slash"})
    assert opened.status_code == 201
    assert tablet.get(f"/api/rounds/{opened.json()['id']}/").status_code == 200


def test_the_dealers_own_table_comes_first_marked_mine(table, other_table, dealer):
    tables = Tablet(dealer).get("/api/tables/").json()
    assert tables[0]["id"] == table.pk and tables[0]["mine"] is True
    assert all(t["mine"] is False for t in tables[1:])
    assert tables[0]["bank"]["progressive_wager_cents"] == 100
    assert tables[0]["trips_min_cents"] == table.min_bet_cents


def test_a_write_without_csrf_or_sign_in_is_refused(table, dealer):
    anonymous = Client()
    answer = anonymous.get(f"/api/tables/{table.pk}/")
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "login_required"
    tablet = Tablet(dealer)
    no_token = tablet.http.post(
        f"/api/tables/{table.pk}/rounds", json.dumps({"key": "x"}), content_type="application/json"
    )
    assert no_token.status_code == 403 and no_token.json()["error"]["code"] == "csrf_failed"


def test_an_auditor_reads_but_cannot_deal(table, dealer, auditor):
    Tablet(dealer).open(table.pk)
    reader = Client()
    reader.force_login(auditor)
    assert reader.get(f"/api/tables/{table.pk}/recall?limit=5").status_code == 200
    refused = reader.post(
        f"/api/tables/{table.pk}/rounds", json.dumps({"key": "a"}), content_type="application/json"
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "role_required"


def test_a_dealer_cannot_read_the_recall_or_the_export(table, dealer):
    tablet = Tablet(dealer)
    tablet.open(table.pk)
    assert tablet.get(f"/api/tables/{table.pk}/recall").status_code == 403
    assert tablet.get(f"/api/rounds/{tablet.round['id']}/export").status_code == 403


@pytest.mark.parametrize(
    "language, words",
    [
        ("fr", ["déjà"]),
        ("en", ["already"]),
    ],
)
def test_a_refusal_speaks_the_readers_language(table, dealer, language, words):
    dealer.language = language
    dealer.save(update_fields=["language"])
    tablet = Tablet(dealer)
    tablet.open(table.pk)
    tablet.send({"kind": "wagers_placed", "seat": 1, "ante": 1000, "blind": 1000})
    tablet.send({"kind": "bets_locked"})
    tablet.send({"kind": "decision", "seat": 1, "action": "bet", "multiple": 4})
    refused = tablet.send(
        {"kind": "cards_entered", "place": "board", "cards": ["Qs", "Qs", "2d"]}, expect=400
    )
    error = refused.json()["error"]
    assert error["code"] == "duplicate_card"
    assert all(word in error["message"] for word in words), error["message"]


def test_a_stale_write_answers_409_with_the_round(table, dealer):
    tablet = Tablet(dealer)
    tablet.open(table.pk)
    tablet.send({"kind": "wagers_placed", "seat": 1, "ante": 1000, "blind": 1000})
    stale = tablet.post(
        f"/api/rounds/{tablet.round['id']}/events",
        {"key": "late", "expected_seq": 0, "event": {"kind": "bets_locked"}},
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale" and stale.json()["round"]["seq"] == 1


def test_a_body_that_is_not_json_is_refused(table, dealer):
    tablet = Tablet(dealer)
    answer = tablet.http.post(
        f"/api/tables/{table.pk}/rounds",
        "{",
        content_type="application/json",
        HTTP_X_CSRFTOKEN=tablet.csrf(),
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_json"


def test_the_openapi_description_names_every_route():
    from tables.ratings.urls import urlpatterns as ratings_urlpatterns

    described = {path.rstrip("/") for path in OPENAPI["paths"]}
    routed = set()
    for pattern in [*urlpatterns, *ratings_urlpatterns]:
        text = pattern.pattern.regex.pattern.strip("^$").replace("/?", "").replace("\\.", ".")
        for name in ("table_id", "round_id", "rating_id", "token_id"):
            text = text.replace(f"(?P<{name}>[0-9]+)", "{" + name + "}")
        routed.add("/" + text)
    assert described == routed


# --- query budgets -------------------------------------------------------------------------


# Each request also reads its session, its user and the user's roles (3 queries).
PLAIN_STEP = 16


def test_every_round_endpoint_stays_within_its_query_budget(
    table, dealer, supervisor, django_assert_max_num_queries
):
    tablet = Tablet(dealer)
    # The first round under a rule set version also marks it used (and audits that). Each
    # audit entry draws its id first, since its MAC covers it (casino.audit).
    with django_assert_max_num_queries(34):
        tablet.open(table.pk)
    rid = tablet.round["id"]
    with django_assert_max_num_queries(PLAIN_STEP):
        tablet.send(
            {"kind": "wagers_placed", "seat": 1, "ante": 1000, "blind": 1000, "progressive": 100}
        )
    tablet.send({"kind": "wagers_placed", "seat": 2, "ante": 1000, "blind": 1000})
    # + the progressive contribution, posted to the ledger and audited (SQLite posts inline),
    # + the previous event's hash for the round's chain.
    with django_assert_max_num_queries(35):
        tablet.send({"kind": "bets_locked"})
    with django_assert_max_num_queries(PLAIN_STEP):
        tablet.send({"kind": "decision", "seat": 1, "action": "bet", "multiple": 4})
    tablet.send({"kind": "decision", "seat": 2, "action": "bet", "multiple": 3})
    with django_assert_max_num_queries(PLAIN_STEP):
        tablet.send({"kind": "cards_entered", "place": "board", "cards": ["Kh", "9d", "4c"]})
    tablet.send({"kind": "cards_entered", "place": "board", "cards": ["2s", "7h"]})
    tablet.send({"kind": "cards_entered", "place": "dealer", "cards": ["Qc", "Qd"]})
    tablet.send({"kind": "cards_entered", "place": 1, "cards": ["Ks", "8d"]})
    tablet.send({"kind": "cards_entered", "place": 2, "cards": ["As", "Ad"]})
    with django_assert_max_num_queries(8):
        assert tablet.get(f"/api/rounds/{rid}/settlement").status_code == 200
    with django_assert_max_num_queries(45):
        tablet.send({"kind": "settlement_confirmed"})
    with django_assert_max_num_queries(6):
        assert tablet.get(f"/api/rounds/{rid}").status_code == 200
    with django_assert_max_num_queries(10):
        assert tablet.get(f"/api/tables/{table.pk}/").status_code == 200
    with django_assert_max_num_queries(10):
        assert tablet.get("/api/tables/").status_code == 200
    reader = Tablet(supervisor, pin=SUPERVISOR_PIN)
    with django_assert_max_num_queries(8):
        assert reader.get(f"/api/rounds/{rid}/export").status_code == 200
    with django_assert_max_num_queries(10):
        assert reader.get(f"/api/tables/{table.pk}/recall").status_code == 200


# A step's three writes are three ORM statements, the same on every database
# (tables.services.rounds.writes; one hand-written statement before issue 24) and the
# audit entry takes no lock (sealed after the commit): docs/benchmarks.md ("Round API: 8 tables
# against `make serve`") counts these, so a change that adds a round trip to a tap shows here (a
# round without progressive wagers: the tests post contributions inline, a server on a worker).
# Each count includes the request's session and its staff member with roles (2) and the test's
# savepoint (2); an audited step also reads the property's clock here (2 each time), which a
# server has cached.
POSTGRES_STATEMENTS = {
    "open": 18,
    "wagers_placed": 10,  # the table's limits come with the round
    "step": 10,
    "bets_locked": 15,  # + the audit entry: its id drawn, the entry (the chain's lock and
    # head were two more before entries were sealed after the commit)
    "settlement": 18,  # + the round's lines read for its money digest (tables.records)
}


def _play_a_round(tablet, table, counted):
    with counted("open"):
        tablet.open(table.pk)
    tablet.send({"kind": "wagers_placed", "seat": 1, "ante": 1000, "blind": 1000})
    with counted("wagers_placed"):
        tablet.send({"kind": "wagers_placed", "seat": 2, "ante": 1000, "blind": 1000})
    with counted("bets_locked"):
        tablet.send({"kind": "bets_locked"})
    with counted("step"):
        tablet.send({"kind": "decision", "seat": 1, "action": "check"})
    tablet.send({"kind": "decision", "seat": 2, "action": "check"})
    with counted("step"):
        tablet.send({"kind": "cards_entered", "place": "board", "cards": ["Kh", "9d", "4c"]})
    with counted("step"):
        tablet.send({"kind": "decision", "seat": 1, "action": "bet", "multiple": 2})
    tablet.send({"kind": "decision", "seat": 2, "action": "check"})
    tablet.send({"kind": "cards_entered", "place": "board", "cards": ["2s", "7h"]})
    tablet.send({"kind": "decision", "seat": 2, "action": "fold"})
    tablet.send({"kind": "cards_entered", "place": "dealer", "cards": ["Qc", "Qd"]})
    tablet.send({"kind": "cards_entered", "place": 1, "cards": ["Ks", "8d"]})
    tablet.send({"kind": "cards_entered", "place": 2, "cards": ["3c", "3d"]})
    with counted("settlement"):
        tablet.send({"kind": "settlement_confirmed"})


@pytest.mark.postgres
def test_on_postgresql_each_tap_makes_the_statements_the_benchmark_counts(table, dealer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seen: dict[str, list[int]] = {}

    @contextlib.contextmanager
    def counted(name):
        with CaptureQueriesContext(connection) as queries:
            yield
        seen.setdefault(name, []).append(len(queries.captured_queries))

    tablet = Tablet(dealer)
    _play_a_round(tablet, table, lambda name: contextlib.nullcontext())  # marks the rules used
    _play_a_round(tablet, table, counted)
    most = {name: max(counts) for name, counts in seen.items()}
    assert set(most) == set(POSTGRES_STATEMENTS)
    assert all(most[name] <= POSTGRES_STATEMENTS[name] for name in most), most


def test_the_settlement_preview_before_showdown_is_refused_in_the_engines_words(table, dealer):
    tablet = Tablet(dealer)
    tablet.open(table.pk)
    answer = tablet.get(f"/api/rounds/{tablet.round['id']}/settlement")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "not_ready"


# A void's approval after the bets locked: the PIN (the staff member, roles and hash in one
# read; a right PIN of a clean record writes nothing of its own), the independence of the
# supervisor from the dealer, the round as every step reads it, the reversal queued (one
# INSERT, no lock on the bank) and the bank's meter read, the step, and ONE batch of audit
# entries (the PIN's approval, the void; no lock of the chain, and the queued reversals read
# for the round's money digest). 46 here two stops before (the PIN in a transaction
# of its own, three batches), 28 before the reversal was queued (the bank locked, its queue
# posted, the contribution read, a ledger line written, the totals saved). As above, the
# count includes the request's session and staff member (2); it also includes the test's
# savepoint (2) and the clock's reads, twice (4), which a server does not make: 15 statements
# there (22 before the reversal was queued). One more since issue 23: everyone who had a hand
# in the round (its steps' writers, the dealer now) is read to check the approver against. Two
# more since issue 24: the step's writes are the ORM's three statements, not one.
VOID_APPROVAL_STATEMENTS = 24


@pytest.mark.postgres
def test_on_postgresql_a_void_approval_makes_the_statements_the_benchmark_counts(
    table, dealer, supervisor, progressive
):
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from casino.audit import seal_pending
    from casino.models import AuditEntry
    from jackpot import services as jackpot
    from jackpot.models import MeterEntry, PendingReversal

    tablet = Tablet(dealer)
    tablet.open(table.pk)
    tablet.send(
        {"kind": "wagers_placed", "seat": 1, "ante": 1000, "blind": 1000, "progressive": 100}
    )
    tablet.send({"kind": "bets_locked"})
    tablet.send({"kind": "irregularity_declared", "irregularity": "preflop_card_exposed"})
    seal_pending()  # as after each commit
    top = AuditEntry.objects.order_by("position").last().position
    credentials = {"employee_number": supervisor.employee_number, "pin": SUPERVISOR_PIN}
    # As on a server, where the bank was made long before: this transaction (the test's) has
    # not locked it, so the reversal is left to the poster, after the approval's commit.
    held, connection.jackpot_held_banks = connection.jackpot_held_banks, None
    with CaptureQueriesContext(connection) as queries:
        tablet.send({"kind": "void_approved"}, supervisor=credentials)
    connection.jackpot_held_banks = held
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) <= VOID_APPROVAL_STATEMENTS, "\n".join(statements)
    # One batch of audit entries, one INSERT, and no lock of the chain: the sealer takes it
    # after the commit (casino.audit).
    assert sum('INSERT INTO "casino_auditentry"' in sql for sql in statements) == 1
    assert not any("pg_advisory_xact_lock" in sql for sql in statements)
    assert not any("FOR NO KEY UPDATE" in sql and "jackpot_bank" in sql for sql in statements)
    waiting = PendingReversal.objects.get(bank=progressive)
    assert (waiting.entry_id, waiting.actor_id) == (None, supervisor.pk)

    with transaction.atomic():  # the next to lock the bank posts the reversal first
        jackpot.bank_lock_and_post(progressive.pk)
    waiting.refresh_from_db()
    assert waiting.entry.kind == MeterEntry.Kind.REVERSAL
    seal_pending()
    written = AuditEntry.objects.filter(position__gt=top).order_by("position")
    assert [(e.code, e.actor_id) for e in written] == [
        ("casino.pin.approved", supervisor.pk),
        ("tables.round.void_approved", supervisor.pk),
        ("jackpot.contribution.reversed", supervisor.pk),
    ]
