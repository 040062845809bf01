"""Connections a dead server left behind are forgotten, and each is logged as a link fault."""

import datetime as dt

from casino.models import AuditEntry
from jackpot.display_tokens import (
    STALE_AFTER,
    display_connected,
    display_connections_prune,
)
from jackpot.models import DisplayConnection, DisplayToken

NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


def _connect(token, channel, *, at):
    display_connected(token=token, channel_name=channel, remote="10.0.0.9")
    DisplayConnection.objects.filter(channel_name=channel).update(connected_at=at)
    DisplayToken.objects.filter(pk=token.pk).update(last_seen_at=at)


def test_a_connection_not_heard_from_is_pruned_and_logged_as_a_link_fault(display):
    token, _secret = display
    _connect(token, "dead-server.1", at=NOON - STALE_AFTER - dt.timedelta(seconds=1))

    assert display_connections_prune(now=NOON) == 1

    assert not DisplayConnection.objects.filter(channel_name="dead-server.1").exists()
    entry = AuditEntry.objects.get(code="jackpot.display.link_lost")
    assert entry.subject_id == str(token.pk)
    assert entry.data["display"] == token.name


def test_a_display_seen_recently_stays_connected(display):
    token, _secret = display
    _connect(token, "alive.1", at=NOON - STALE_AFTER + dt.timedelta(seconds=1))

    assert display_connections_prune(now=NOON) == 0

    assert DisplayConnection.objects.filter(channel_name="alive.1").exists()
    assert not AuditEntry.objects.filter(code="jackpot.display.link_lost").exists()
