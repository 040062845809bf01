"""Connection rows match live sockets: rows a dead server left behind expire, and each screen
that lost its link is audited and signalled once (issue 11 item 5)."""

import datetime as dt

import pytest

from casino.models import AuditEntry
from jackpot import events
from jackpot.display_tokens import (
    STALE_AFTER,
    display_connected,
    display_connections_prune,
    display_heartbeat,
)
from jackpot.models import DisplayConnection, DisplayToken
from jackpot.selectors import displays_connected, displays_silent

NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
LONG_AGO = NOON - STALE_AFTER - dt.timedelta(seconds=1)
RECENTLY = NOON - STALE_AFTER + dt.timedelta(seconds=1)


def _connect(token, channel, *, at):
    display_connected(token=token, channel_name=channel, remote="10.0.0.9")
    DisplayConnection.objects.filter(channel_name=channel).update(connected_at=at, last_seen_at=at)
    DisplayToken.objects.filter(pk=token.pk).update(last_seen_at=at)


@pytest.fixture
def lost_signals():
    heard = []

    def listen(sender, token_id, **kwargs):
        heard.append(token_id)

    events.display_link_lost.connect(listen, weak=False)
    yield heard
    events.display_link_lost.disconnect(listen)


def test_a_connection_not_heard_from_is_pruned_and_logged_as_a_link_fault_once(
    display, lost_signals, django_capture_on_commit_callbacks
):
    token, _secret = display
    _connect(token, "dead-server.1", at=LONG_AGO)

    with django_capture_on_commit_callbacks(execute=True):
        assert display_connections_prune(now=NOON) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert display_connections_prune(now=NOON + dt.timedelta(minutes=5)) == 0

    assert not DisplayConnection.objects.filter(channel_name="dead-server.1").exists()
    entry = AuditEntry.objects.get(code="jackpot.display.link_lost")
    assert entry.subject_id == str(token.pk)
    assert entry.data["display"] == token.name
    assert lost_signals == [token.pk]


def test_hundreds_of_rows_left_by_a_killed_worker_make_one_lost_link(display, lost_signals):
    token, _secret = display
    for n in range(250):
        _connect(token, f"killed-worker.{n}", at=LONG_AGO)

    assert display_connections_prune(now=NOON) == 250

    assert DisplayConnection.objects.count() == 0
    assert AuditEntry.objects.filter(code="jackpot.display.link_lost").count() == 1


def test_a_screen_that_reconnected_elsewhere_has_not_lost_its_link(display, lost_signals):
    token, _secret = display
    _connect(token, "killed-worker.1", at=LONG_AGO)
    _connect(token, "other-worker.1", at=RECENTLY)

    assert display_connections_prune(now=NOON) == 1

    assert list(DisplayConnection.objects.values_list("channel_name", flat=True)) == [
        "other-worker.1"
    ]
    assert not AuditEntry.objects.filter(code="jackpot.display.link_lost").exists()
    assert lost_signals == []


def test_a_display_seen_recently_stays_connected(display):
    token, _secret = display
    _connect(token, "alive.1", at=RECENTLY)

    assert display_connections_prune(now=NOON) == 0

    assert DisplayConnection.objects.filter(channel_name="alive.1").exists()
    assert not AuditEntry.objects.filter(code="jackpot.display.link_lost").exists()


def test_a_link_lost_then_back_then_lost_again_is_reported_twice(display):
    token, _secret = display
    _connect(token, "first.1", at=LONG_AGO)
    display_connections_prune(now=NOON)
    later = NOON + dt.timedelta(hours=1)
    _connect(token, "second.1", at=later - STALE_AFTER - dt.timedelta(seconds=1))

    display_connections_prune(now=later)

    assert AuditEntry.objects.filter(code="jackpot.display.link_lost").count() == 2


def test_displays_silent_lists_screens_that_had_a_live_socket_and_have_none(
    display, english_display, bank
):
    from jackpot.display_tokens import display_token_issue

    silent, _ = display
    alive, _ = english_display
    never, _ = display_token_issue(bank_slug=bank.slug, name="Jamais branché")
    _connect(silent, "gone.1", at=LONG_AGO)
    _connect(alive, "here.1", at=RECENTLY)

    assert list(displays_silent(older_than=NOON - STALE_AFTER)) == [silent]
    assert never not in displays_silent(older_than=NOON)


def test_displays_connected_lists_only_rows_renewed_recently(display, english_display):
    _connect(display[0], "gone.1", at=LONG_AGO)
    _connect(english_display[0], "here.1", at=RECENTLY)

    rows = displays_connected(since=NOON - STALE_AFTER)

    assert [row.channel_name for row in rows] == ["here.1"]


def test_a_heartbeat_writes_back_a_row_the_sweep_removed_during_a_long_pause(display):
    token, _secret = display
    _connect(token, "paused.1", at=LONG_AGO)
    display_connections_prune(now=NOON)

    check = display_heartbeat(connections={"paused.1": (token.pk, "10.0.0.9")}, refresh=True)

    assert token.pk not in check.revoked
    assert DisplayConnection.objects.filter(channel_name="paused.1").exists()
    assert DisplayToken.objects.get(pk=token.pk).link_lost_at is None


def test_one_heartbeat_query_serves_every_socket_of_a_process(
    display, english_display, bank, django_assert_num_queries
):
    sockets = {f"socket.{n}": (display[0].pk, "") for n in range(100)}
    sockets |= {f"other.{n}": (english_display[0].pk, "") for n in range(100)}
    with django_assert_num_queries(1):
        check = display_heartbeat(connections=sockets)
    assert check.feed_seqs == {bank.pk: 0} and check.revoked == frozenset()


def test_a_heartbeat_reports_a_revocation_and_the_banks_committed_seq(display, bank):
    from jackpot.display_tokens import display_token_revoke
    from tests.jackpot.display.support import commit_meter

    token, _secret = display
    commit_meter(bank, 1_300_000)
    sockets = {"x.1": (token.pk, "")}
    assert display_heartbeat(connections=sockets).feed_seqs == {bank.pk: 1}

    display_token_revoke(token_id=token.pk)

    assert token.pk in display_heartbeat(connections=sockets).revoked
