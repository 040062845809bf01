"""The pit's alerts: raised from the real services (a settled round, a progressive hit, a void
declared and approved, a reconciliation), from the signals other apps send (PIN lockout,
sign-in throttling, a display's lost link), one per condition, kept until acknowledged."""

import datetime as dt
import re

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation

from casino import events as casino_events
from casino.models import AuditEntry
from jackpot import events as jackpot_events
from jackpot import services as jackpot
from jackpot.models import Bank, DisplayToken, Hit
from tables.errors import IllegalTransition, NotFound, RoleRequired
from tables.models import SettlementLine
from tables.pit import alerts
from tables.pit.alerts import AlertRefused, alert_acknowledge, alert_json, alert_raise
from tables.pit.live import PIT_GROUP
from tables.pit.models import Alert, AlertSettings, TableAlertThreshold
from tests.tables.rounds.conftest import deal_to, pin_of

Kind = Alert.Kind


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """`with committed(): ...`: at the end of the block, run what the services scheduled
    after commit (the signals, then the alerts' announcements), as a commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def announced(monkeypatch):
    sent = []
    monkeypatch.setattr(
        "tables.pit.live.group_send", lambda group, event: sent.append((group, event))
    )
    return sent


def seat_nets(round_id) -> dict[int, int]:
    nets: dict[int, int] = {}
    for line in SettlementLine.objects.filter(round_id=round_id, paid_from="house"):
        nets[line.seat] = nets.get(line.seat, 0) + line.net_cents
    return nets


def set_property_big_win(casino_property, cents):
    AlertSettings.objects.update_or_create(
        property=casino_property, defaults={"big_win_cents": cents}
    )


# --- big wins ------------------------------------------------------------------------------


def test_a_seat_winning_the_tables_threshold_raises_a_big_win_when_the_round_settles(
    felt, table, casino_property, committed
):
    set_property_big_win(casino_property, 10_000_000)  # the table's own threshold wins
    TableAlertThreshold.objects.create(table=table, big_win_cents=500)
    with committed():
        round_id = deal_to(felt, "settled")["id"]
    nets = seat_nets(round_id)
    winners = sorted(seat for seat, net in nets.items() if net >= 500)
    assert winners, nets  # the standard hands: both seats win 900 cents
    raised = Alert.objects.filter(kind=Kind.BIG_WIN).order_by("key")
    assert [a.params["seat"] for a in raised] == winners
    first = raised[0]
    assert first.table == table and first.severity == "warning"
    assert first.params["amount_cents"] == nets[winners[0]]
    assert first.params["threshold_cents"] == 500
    assert not first.acknowledged


def test_a_win_below_the_tables_threshold_raises_nothing_even_above_the_propertys(
    felt, table, casino_property, committed
):
    set_property_big_win(casino_property, 1)
    TableAlertThreshold.objects.create(table=table, big_win_cents=10_000_000)
    with committed():
        deal_to(felt, "settled")
    assert not Alert.objects.filter(kind=Kind.BIG_WIN).exists()
    TableAlertThreshold.objects.filter(table=table).delete()
    with committed():  # the same hands again, and now the property's threshold applies
        deal_to(felt, "settled")
    assert Alert.objects.filter(kind=Kind.BIG_WIN).exists()


def test_a_table_without_its_own_threshold_uses_the_propertys(
    felt, table, casino_property, committed
):
    set_property_big_win(casino_property, 1)
    with committed():
        round_id = deal_to(felt, "settled")["id"]
    winners = [seat for seat, net in seat_nets(round_id).items() if net >= 1]
    assert Alert.objects.filter(kind=Kind.BIG_WIN).count() == len(winners) >= 1
    assert alerts.big_win_threshold(table) == 1


def test_without_any_threshold_set_the_default_big_win_is_five_thousand(table):
    assert alerts.alert_settings().pk is None
    assert alerts.big_win_threshold(table) == 500_000


def test_a_settlement_not_yet_committed_raises_no_alert(felt, table, casino_property):
    """Without the commit (the test's transaction never commits), nothing is sent."""
    set_property_big_win(casino_property, 1)
    deal_to(felt, "settled")
    assert not Alert.objects.exists()


# --- a progressive hit ---------------------------------------------------------------------


def test_a_progressive_hit_raises_an_alert_with_its_seat_hand_and_amount(
    felt, table, progressive, committed
):
    felt.open()
    felt.wagers(1, progressive=100)
    felt.wagers(2, progressive=100)
    felt.play_to_showdown(
        {1: ["As", "Ks"], 2: ["2c", "3d"]},
        board=["Qs", "Js", "Ts", "3h", "4h"],
        dealer_cards=["2d", "2h"],
    )
    with committed():
        felt.step("settlement_confirmed")
    hit = Hit.objects.get()
    alert = Alert.objects.get(kind=Kind.PROGRESSIVE_HIT)
    assert alert.key == f"progressive_hit:{hit.pk}"
    assert (alert.table, alert.subject_type, alert.subject_id) == (
        table,
        "jackpot.hit",
        str(hit.pk),
    )
    assert alert.params == {
        "table": table.name,
        "seat": 1,
        "hand": "royal_flush",
        "amount_cents": hit.amount_cents,
        "bank": progressive.name,
        "bank_en": progressive.name_in("en"),
    }
    with translation.override("en"):
        shown = alert_json(alert)
    assert shown["title"] == "Progressive hit at UTH 1"
    assert "royal flush" in shown["detail"] and "Seat 1" in shown["detail"]


# --- voids ---------------------------------------------------------------------------------


def test_a_declared_void_raises_an_alert_that_stays_after_the_void_is_decided(
    felt, table, supervisor, dealer, committed
):
    deal_to(felt, "flop")
    with committed():
        felt.step("irregularity_declared", irregularity="community_card_exposed")
    alert = Alert.objects.get(kind=Kind.VOID_REQUESTED)
    assert alert.table == table
    assert alert.params["reason"] == "community_card_exposed"
    assert alert.params["dealer"] == str(dealer)
    with committed():
        felt.step("void_approved", supervisor=pin_of(supervisor))
    alert.refresh_from_db()
    assert not alert.acknowledged  # resolving the void does not acknowledge the alert
    assert alerts.alerts_open() == [alert]


def test_a_second_declaration_in_one_round_raises_a_second_void_alert(felt, supervisor, committed):
    deal_to(felt, "flop")
    for step, fields in (
        ("irregularity_declared", {"irregularity": "community_card_exposed"}),
        ("void_refused", {"supervisor": pin_of(supervisor)}),
        ("irregularity_declared", {"irregularity": "duplicate_card"}),
    ):
        with committed():  # each step commits before the next one
            felt.step(step, **fields)
    raised = Alert.objects.filter(kind=Kind.VOID_REQUESTED).order_by("pk")
    assert [a.params["reason"] for a in raised] == ["community_card_exposed", "duplicate_card"]


def test_many_voids_by_one_dealer_in_a_shift_raise_one_alert_from_the_threshold(
    felt, supervisor, dealer, casino_property, committed
):
    AlertSettings.objects.create(property=casino_property, voids_per_dealer_shift=2)

    def void_one():
        with committed():
            deal_to(felt, "preflop")
            felt.step("irregularity_declared", irregularity="preflop_card_exposed")
            felt.step("void_approved", supervisor=pin_of(supervisor))

    void_one()
    assert not Alert.objects.filter(kind=Kind.MANY_VOIDS).exists()
    void_one()
    alert = Alert.objects.get(kind=Kind.MANY_VOIDS)
    assert (alert.params["dealer"], alert.params["count"], alert.params["limit"]) == (
        str(dealer),
        2,
        2,
    )
    void_one()  # still the same condition: the open alert stands
    assert Alert.objects.filter(kind=Kind.MANY_VOIDS).count() == 1


def test_a_refused_void_does_not_count_toward_many_voids(
    felt, supervisor, casino_property, committed
):
    AlertSettings.objects.create(property=casino_property, voids_per_dealer_shift=1)
    with committed():
        deal_to(felt, "preflop")
        felt.step("irregularity_declared", irregularity="preflop_card_exposed")
        felt.step("void_refused", supervisor=pin_of(supervisor))
    assert Alert.objects.filter(kind=Kind.VOID_REQUESTED).count() == 1
    assert not Alert.objects.filter(kind=Kind.MANY_VOIDS).exists()


# --- the progressive's reconciliation, PINs, sign-ins, displays ----------------------------


def test_a_meter_that_does_not_reconcile_raises_an_alert_once(progressive, committed):
    Bank.objects.filter(pk=progressive.pk).update(meter_cents=F("meter_cents") + 500)
    with committed():
        (difference,) = jackpot.bank_reconcile(bank_id=progressive.pk)
        jackpot.bank_reconcile(bank_id=progressive.pk)  # reported again, raised once
    alert = Alert.objects.get(kind=Kind.RECONCILIATION)
    assert alert.key == f"reconciliation:{difference.pk}" and alert.severity == "critical"
    assert alert.params["field"] == "meter_cents"
    with translation.override("fr"):
        detail = alert_json(alert)["detail"]
    assert detail.startswith("Compteur") and "€" in detail


def test_a_pin_lockout_raises_an_alert(dealer):
    dealer.pin_locked_until = timezone.now() + dt.timedelta(minutes=15)
    dealer.save(update_fields=["pin_locked_until"])
    casino_events.pin_locked.send(sender=None, staff_id=dealer.pk)
    casino_events.pin_locked.send(sender=None, staff_id=dealer.pk)  # still locked: one alert
    alert = Alert.objects.get(kind=Kind.PIN_LOCKED)
    assert alert.params["name"] == str(dealer) and alert.subject_id == str(dealer.pk)
    assert alert.params["until"] == dealer.pin_locked_until.isoformat()


def test_three_wrong_pins_lock_the_pin_and_raise_an_alert(dealer, committed):
    from casino.errors import CasinoError
    from casino.pins import pin_verify

    with committed():
        for _attempt in range(3):
            with pytest.raises(CasinoError):
                pin_verify(employee_number=dealer.employee_number, pin="0000")
    dealer.refresh_from_db()
    assert dealer.pin_locked()
    alert = Alert.objects.get(kind=Kind.PIN_LOCKED)
    assert alert.params == {"name": str(dealer), "until": dealer.pin_locked_until.isoformat()}


def test_throttled_sign_ins_raise_one_alert_per_source(db):
    for _ in range(3):
        casino_events.signin_throttled.send(sender=None, source="10.0.0.9", attempts=12)
    casino_events.signin_throttled.send(sender=None, source="tablet-3", attempts=8)
    raised = Alert.objects.filter(kind=Kind.SIGNIN_THROTTLED).order_by("key")
    assert [(a.params["source"], a.params["attempts"]) for a in raised] == [
        ("10.0.0.9", 12),
        ("tablet-3", 8),
    ]


def test_a_display_that_lost_its_link_raises_an_alert(progressive, manager):
    token = DisplayToken.objects.create(
        bank=progressive, name="Entrance screen", issued_by=manager, issued_at=timezone.now()
    )
    jackpot_events.display_link_lost.send(sender=DisplayToken, token_id=token.pk)
    alert = Alert.objects.get(kind=Kind.DISPLAY_LINK_LOST)
    assert alert.params == {
        "display": "Entrance screen",
        "bank": progressive.name,
        "bank_en": progressive.name_in("en"),
        "since": None,
    }


def test_the_display_sweep_declares_a_silent_screen_and_the_pit_is_alerted_once(
    progressive, manager, committed
):
    from jackpot.display_tokens import display_connections_prune

    seen = timezone.now() - dt.timedelta(minutes=5)  # it had a live socket, then nothing
    token = DisplayToken.objects.create(
        bank=progressive, name="Bar screen", issued_by=manager, issued_at=seen, last_seen_at=seen
    )
    with committed():
        display_connections_prune()
    with committed():
        display_connections_prune()  # still silent: declared once, alerted once
    alert = Alert.objects.get(kind=Kind.DISPLAY_LINK_LOST)
    assert alert.subject_id == str(token.pk)
    assert alert.params == {
        "display": "Bar screen",
        "bank": progressive.name,
        "bank_en": progressive.name_in("en"),
        "since": seen.isoformat(),
    }


def test_a_failing_receiver_logs_and_lets_the_sender_go_on(db, monkeypatch, caplog):
    def broken(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(alerts, "pin_locked_raise", broken)
    casino_events.pin_locked.send(sender=None, staff_id=1)
    assert "pit alert from on_pin_locked failed" in caplog.text


# --- one open alert per condition ----------------------------------------------------------


def test_raising_the_same_condition_twice_answers_the_open_alert(db):
    first = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k:1", params={"source": "a"})
    again = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k:1", params={"source": "b"})
    assert (first.is_new, again.is_new) == (True, False)
    assert again.pk == first.pk and Alert.objects.count() == 1
    assert AuditEntry.objects.filter(code="pit.alert.raised").count() == 1


def test_after_acknowledgement_the_same_condition_raises_a_new_alert(db, supervisor):
    first = alert_raise(kind=Kind.PIN_LOCKED, key="pin_locked:9", params={"name": "x"})
    alert_acknowledge(alert_id=first.pk, staff=supervisor, note="Unlocked after checking ID")
    again = alert_raise(kind=Kind.PIN_LOCKED, key="pin_locked:9", params={"name": "x"})
    assert again.is_new and again.pk != first.pk


def test_a_condition_raised_once_stays_quiet_after_acknowledgement(db, supervisor):
    first = alert_raise(kind=Kind.TABLE_IDLE, key="table_idle:1:t", params={}, once=True)
    alert_acknowledge(alert_id=first.pk, staff=supervisor, note="Short of players")
    again = alert_raise(kind=Kind.TABLE_IDLE, key="table_idle:1:t", params={}, once=True)
    assert not again.is_new and again.pk == first.pk and Alert.objects.count() == 1


def test_an_alert_needs_a_known_kind_and_a_key(db):
    with pytest.raises(ValueError):
        alert_raise(kind="sunburn", key="k", params={})
    with pytest.raises(ValueError):
        alert_raise(kind=Kind.BIG_WIN, key="", params={})


# --- acknowledging -------------------------------------------------------------------------


def test_a_supervisor_acknowledges_with_a_note_and_it_is_audited(db, supervisor):
    alert = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={"source": "s"})
    done = alert_acknowledge(alert_id=alert.pk, staff=supervisor, note="  Tablet re-paired  ")
    done.refresh_from_db()
    assert done.acknowledged_by == supervisor and done.note == "Tablet re-paired"
    assert abs((timezone.now() - done.acknowledged_at).total_seconds()) < 60
    entry = AuditEntry.objects.get(code="pit.alert.acknowledged")
    assert entry.actor == supervisor and entry.subject_id == str(alert.pk)
    assert entry.data["note"] == "Tablet re-paired"
    assert entry.data["at"] == done.acknowledged_at.isoformat()
    assert alerts.alerts_open() == [] and alerts.alerts_recent(10) == [done]


def test_a_manager_may_acknowledge_too(db, manager):
    alert = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
    assert alert_acknowledge(alert_id=alert.pk, staff=manager, note="Seen").acknowledged


@pytest.mark.parametrize("who", ["dealer", "auditor"])
def test_acknowledging_needs_a_supervisor_or_a_manager(db, who, request):
    alert = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
    with pytest.raises(RoleRequired):
        alert_acknowledge(alert_id=alert.pk, staff=request.getfixturevalue(who), note="x")
    alert.refresh_from_db()
    assert not alert.acknowledged
    assert not AuditEntry.objects.filter(code="pit.alert.acknowledged").exists()


@pytest.mark.parametrize("note", ["", "   ", None])
def test_acknowledging_without_a_note_is_refused(db, supervisor, note):
    alert = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
    with pytest.raises(AlertRefused) as refused:
        alert_acknowledge(alert_id=alert.pk, staff=supervisor, note=note)
    assert refused.value.code == "note_required"


def test_an_alert_is_acknowledged_once_the_second_time_says_by_whom(
    db, supervisor, other_supervisor
):
    alert = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
    alert_acknowledge(alert_id=alert.pk, staff=supervisor, note="Seen")
    with translation.override("en"), pytest.raises(IllegalTransition) as refused:
        alert_acknowledge(alert_id=alert.pk, staff=other_supervisor, note="Me too")
    assert refused.value.code == "already_acknowledged"
    assert f"already acknowledged by {supervisor}" in refused.value.message
    alert.refresh_from_db()
    assert (alert.acknowledged_by, alert.note) == (supervisor, "Seen")
    assert AuditEntry.objects.filter(code="pit.alert.acknowledged").count() == 1


def test_acknowledging_an_alert_that_does_not_exist_says_so(db, supervisor):
    with pytest.raises(NotFound):
        alert_acknowledge(alert_id=999_999, staff=supervisor, note="x")


# --- announced to the pit after commit -----------------------------------------------------


def test_a_raised_alert_is_announced_to_the_pit_after_commit(db, announced, committed):
    with committed():
        alert = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
        assert announced == []
    assert announced == [(PIT_GROUP, {"type": "pit.alert", "alert_id": alert.pk})]


def test_an_acknowledgement_is_announced_after_commit(db, supervisor, announced, committed):
    with committed():
        alert = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
    with committed():
        alert_acknowledge(alert_id=alert.pk, staff=supervisor, note="Seen")
        assert len(announced) == 1
    assert [event["alert_id"] for _group, event in announced] == [alert.pk, alert.pk]


def test_an_alert_rolled_back_is_never_announced(db, announced, committed):
    with committed(), pytest.raises(RuntimeError), transaction.atomic():
        alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
        raise RuntimeError("the caller's transaction fails")
    assert announced == [] and not Alert.objects.exists()


def test_an_alert_raised_again_is_not_announced_again(db, announced, committed):
    with committed():
        alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
    with committed():
        alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
    assert len(announced) == 1


def test_the_announcement_reaches_a_socket_in_the_pit_group(db, committed):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(PIT_GROUP, channel)
    with committed():
        alert = alert_raise(kind=Kind.SIGNIN_THROTTLED, key="k", params={})
    message = async_to_sync(layer.receive)(channel)
    assert message == {"type": "pit.alert", "alert_id": alert.pk}
    assert alerts.alert_for_pit(message["alert_id"])["id"] == alert.pk
    assert alerts.alert_for_pit(999_999) is None and alerts.alert_for_pit("x") is None


# --- the words -----------------------------------------------------------------------------

ENGLISH = {
    "at", "the", "win", "won", "seat", "round", "from", "hit", "meter", "void", "requested",
    "declared", "approves", "refuses", "idle", "open", "with", "no", "played", "since",
    "after", "dealer", "overdue", "was", "due", "for", "relief", "and",
    "has", "not", "been", "relieved", "display", "offline", "live", "link", "does",
    "reconcile", "by", "ledger", "on", "bank", "manager", "resolves", "it", "locked", "too",
    "many", "wrong", "until", "can", "unlock", "sign", "in", "attempts", "slowed", "down",
    "someone", "may", "be", "guessing", "voids", "voided", "this", "shift", "alert", "big",
    "progressive", "verifies", "another", "one", "pays", "of", "an", "irregularity",
    "supervisor", "royal", "is", "day", "swing", "grave", "card", "exposed", "counted",
    "computed", "differ", "gaming", "variance", "beyond", "mispay", "missing", "fill", "credit",
    "slip", "or", "chips", "gone", "tray", "look", "excluded", "player", "tried", "rate", "who",
    "rating", "refused", "ask", "them", "leave", "game", "barred",
    "ghost", "placed", "wager", "last", "rounds", "opened", "there", "repeated", "corrected",
    "ratings", "days", "checks", "edited", "changed", "opening", "time",
    "less", "says", "measured", "gap", "results",
}  # fmt: skip


def one_of_each_kind(table, dealer) -> list[Alert]:
    """An alert of every kind, with the params its raiser gives it."""
    now = timezone.now().isoformat()
    made = {
        Kind.BIG_WIN: {"table": table.name, "round": 4, "seat": 2, "amount_cents": 650_000,
                       "threshold_cents": 500_000},
        Kind.PROGRESSIVE_HIT: {"table": table.name, "seat": 1, "hand": "royal_flush",
                               "amount_cents": 2_500_000, "bank": "Jackpot de la salle"},
        Kind.VOID_REQUESTED: {"table": table.name, "round": 4, "dealer": "Dupont",
                              "reason": "community_card_exposed"},
        Kind.TABLE_IDLE: {"table": table.name, "since": now, "minutes": 15},
        Kind.DEALER_OVERDUE: {"table": table.name, "dealer": "Dupont", "due": now},
        Kind.DISPLAY_LINK_LOST: {"display": "Écran 2", "bank": "Jackpot de la salle",
                                 "since": now},
        Kind.RECONCILIATION: {"bank": "Jackpot de la salle", "field": "reserve_cents",
                              "ledger": 1_000, "cached": 1_500},
        Kind.PIN_LOCKED: {"name": "Dupont", "until": now},
        Kind.SIGNIN_THROTTLED: {"source": "10.0.0.9", "attempts": 12},
        Kind.MANY_VOIDS: {"dealer": "Dupont", "count": 3, "limit": 3, "shift": "swing",
                          "gaming_date": "2026-12-01"},
        Kind.VARIANCE: {"gaming_date": "2026-12-01", "counted_cents": 250_000,
                        "computed_cents": 120_000, "variance_cents": 130_000,
                        "threshold_cents": 10_000},
        Kind.EXCLUDED_PLAYER: {"alias": "Blue cap", "status": "barred", "seat": 3,
                               "staff": "Martin"},
        Kind.AML_IDENTITY: {"alias": "Blue cap", "gaming_date": "2026-12-01",
                            "amount_cents": 250_000, "threshold_cents": 200_000,
                            "crossed": ["identity"]},
        Kind.GHOST_RATING: {"table": table.name, "alias": "Marie D.", "seat": 5, "rating": 1,
                            "rounds": 5, "staff": "Martin"},
        Kind.REPEATED_RATINGS: {"alias": "Marie D.", "staff": "Martin", "count": 3,
                                "limit": 3, "days": 7},
        Kind.RATING_TIME_EDITED: {"table": table.name, "alias": "Marie D.", "seat": 5,
                                  "rating": 1, "staff": "Martin", "field": "opened_at",
                                  "before": now, "after": now, "reason": "arrivée à 21 h"},
        Kind.CHIPS_GAP: {"table": table.name, "alias": "Marie D.", "seat": 5, "rating": 1,
                         "estimated_cents": 90_000, "measured_cents": -10_000,
                         "gap_cents": 100_000, "threshold_cents": 50_000},
    }  # fmt: skip
    assert set(made) == set(Kind)
    return [
        alert_raise(kind=kind, key=f"{kind}:1", table=table, params=params)
        for kind, params in made.items()
    ]


def words_of(shown: dict) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+", f"{shown['title']} {shown['detail']}")}


def test_every_kind_is_worded_in_french_without_an_english_word(table, dealer):
    for alert in one_of_each_kind(table, dealer):
        with translation.override("fr"):
            french = alert_json(alert)
        with translation.override("en"):
            english = alert_json(alert)
        assert french["title"] != english["title"], alert.kind
        assert french["detail"] != english["detail"], alert.kind
        left = words_of(french) & ENGLISH - {"table"}
        assert not left, (alert.kind, left, french)
        assert "?" not in french["detail"] + english["detail"], (alert.kind, english)


def test_alert_json_has_the_pits_keys_amounts_in_the_currency_and_local_times(
    table, dealer, supervisor
):
    alert = one_of_each_kind(table, dealer)[0]
    alert_acknowledge(alert_id=alert.pk, staff=supervisor, note="Surveillance informed")
    alert = Alert.objects.select_related("table", "acknowledged_by").get(pk=alert.pk)
    with translation.override("fr"):
        shown = alert_json(alert)
    assert set(shown) == {
        "id", "kind", "severity", "title", "detail", "table_id", "table_name", "raised_at",
        "raised_at_local", "acknowledged", "acknowledged_by", "acknowledged_at_local", "note",
    }  # fmt: skip
    assert shown["title"] == "Gros gain à UTH 1"
    assert "6\u202f500,00\u00a0€" in shown["detail"] and "5\u202f000,00\u00a0€" in shown["detail"]
    paris = timezone.localtime(alert.raised_at, table.pit.property.zone)
    assert shown["raised_at_local"] == f"{paris:%Y-%m-%d %H:%M}"
    assert shown["raised_at"] == alert.raised_at.isoformat()
    assert (shown["table_id"], shown["table_name"]) == (table.pk, "UTH 1")
    assert (shown["acknowledged"], shown["acknowledged_by"]) == (True, str(supervisor))
    assert shown["acknowledged_at_local"] is not None and shown["note"] == "Surveillance informed"
    with translation.override("en"):
        assert "€6,500.00" in alert_json(alert)["detail"]


def test_open_alerts_are_read_in_a_fixed_number_of_queries(
    table, dealer, django_assert_max_num_queries
):
    one_of_each_kind(table, dealer)
    with django_assert_max_num_queries(3):
        shown = alerts.alerts_json(alerts.alerts_open())
    assert len(shown) == len(Kind)
