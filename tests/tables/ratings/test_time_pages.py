"""A rating's open or close time corrected by a supervisor, through a person's page (the
player's ratings page, linked from the pit's seat map) and through the API's extension
(POST /api/ratings/<id>/time): the service's refusals shown in words, nothing changed on a
bad input, the times read and typed in the property's time zone."""

import datetime as dt
import html
import json

import pytest
from django.test import Client
from django.utils import timezone, translation

from casino.audit import seal_pending
from casino.models import AuditEntry
from casino.roles import Role
from tables.ratings import pages_time
from tables.ratings.models import Rating, RatingTimeCorrection
from tests.factories import make_staff
from tests.tables.ratings.conftest import do, rate

SAID = {
    "en": "The rating's time is corrected; surveillance sees the correction.",
    "fr": "L’heure de la cotation est corrigée\u00a0; la surveillance voit la correction.",
}


def client_of(staff, language="en") -> Client:
    staff.language = language
    staff.save(update_fields=["language"])
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def opened(felt, supervisor, marie):
    """Marie rated at seat 1 since two hours ago (the open time set in the past directly, so
    that an earlier or later correction is not in the future)."""
    body = rate(supervisor, felt.table, 1, card="400123")
    start = (timezone.now() - dt.timedelta(hours=2)).replace(microsecond=0)
    Rating.objects.filter(pk=body["id"]).update(opened_at=start)
    return Rating.objects.get(pk=body["id"])


def _page(rating) -> str:
    return f"/players/{rating.player_id}/ratings/"


def _post(client, rating, **fields) -> str:
    """The page the form returns to, as its reader reads it."""
    answer = client.post(f"{_page(rating)}{rating.pk}/time/", fields, follow=True)
    assert answer.status_code == 200
    return html.unescape(answer.content.decode())


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_supervisor_corrects_the_open_time_typed_in_the_propertys_zone(
    opened, casino_property, language
):
    other = make_staff(Role.SUPERVISOR)
    client = client_of(other, language)
    page = client.get(_page(opened)).content.decode()
    shown = casino_property.local(opened.opened_at).strftime("%Y-%m-%dT%H:%M:%S")
    assert f'name="opened_at" type="datetime-local" step="1" value="{shown}"' in page
    assert 'name="closed_at"' not in page  # an open rating has no close time to correct
    earlier = (opened.opened_at - dt.timedelta(minutes=25)).replace(second=0)
    typed = casino_property.local(earlier).strftime("%Y-%m-%dT%H:%M")
    answer = _post(client, opened, opened_at=typed, reason="the player sat down earlier")
    with translation.override(language):
        assert SAID[language] in answer
    opened.refresh_from_db()
    assert opened.opened_at == earlier
    (correction,) = RatingTimeCorrection.objects.all()
    assert (correction.field, correction.by, correction.after) == ("opened_at", other, earlier)
    seal_pending()
    entry = AuditEntry.objects.get(code="ratings.rating.time_corrected")
    assert entry.actor == other and entry.data["reason"] == "the player sat down earlier"


def test_a_closed_ratings_close_time_is_corrected_the_open_time_left_as_shown(
    opened, supervisor, casino_property
):
    do("close", supervisor, {"id": opened.pk})
    opened.refresh_from_db()
    client = client_of(make_staff(Role.SUPERVISOR))
    unchanged = pages_time.form_value(casino_property, opened.opened_at)
    earlier_close = (opened.closed_at - dt.timedelta(minutes=30)).replace(microsecond=0)
    _post(
        client,
        opened,
        opened_at=unchanged,
        closed_at=pages_time.form_value(casino_property, earlier_close),
        reason="closed late: the player left at the break",
    )
    before = opened.opened_at
    opened.refresh_from_db()
    assert (opened.opened_at, opened.closed_at) == (before, earlier_close)
    assert list(RatingTimeCorrection.objects.values_list("field", flat=True)) == ["closed_at"]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"opened_at": "yesterday evening", "reason": "x"}, "Type a date and a time"),
        ({"opened_at": "2026-13-45T25:00", "reason": "x"}, "Type a date and a time"),
        ({"opened_at": "later", "reason": ""}, "Type a date and a time"),
        ({"opened_at": "{earlier}", "reason": "  "}, "Say why the time is corrected"),
        ({"opened_at": "{earlier}", "reason": "r" * 301}, "Say why the time is corrected"),
        ({"opened_at": "{future}", "reason": "typo"}, "cannot be in the future"),
        ({"opened_at": "{shown}", "reason": "nothing"}, "Change the open or the close time"),
        ({"opened_at": "{shown}", "closed_at": "{earlier}", "reason": "x"}, "still open"),
    ],
)
def test_a_refusal_is_said_in_words_and_changes_nothing(opened, casino_property, fields, said):
    at = {
        "earlier": pages_time.form_value(casino_property, opened.opened_at - dt.timedelta(hours=1)),
        "future": pages_time.form_value(casino_property, timezone.now() + dt.timedelta(hours=1)),
        "shown": pages_time.form_value(casino_property, opened.opened_at),
    }
    client = client_of(make_staff(Role.SUPERVISOR))
    assert said in _post(client, opened, **{k: v.format(**at) for k, v in fields.items()})
    before = opened.opened_at
    opened.refresh_from_db()
    assert opened.opened_at == before and opened.closed_at is None
    assert not RatingTimeCorrection.objects.exists()


def test_a_time_left_as_shown_is_not_corrected_whatever_its_fraction(opened, casino_property):
    """The form shows no fraction of a second, and a browser leaves out ":00" seconds."""
    Rating.objects.filter(pk=opened.pk).update(
        opened_at=opened.opened_at.replace(second=0, microsecond=123_456)
    )
    opened.refresh_from_db()
    shown = casino_property.local(opened.opened_at).strftime("%Y-%m-%dT%H:%M")
    answer = _post(client_of(make_staff(Role.SUPERVISOR)), opened, opened_at=shown, reason="x")
    assert "Change the open or the close time" in answer
    assert Rating.objects.get(pk=opened.pk).opened_at == opened.opened_at
    assert not RatingTimeCorrection.objects.exists()


def test_a_close_before_the_open_is_refused(opened, supervisor, casino_property):
    do("close", supervisor, {"id": opened.pk})
    opened.refresh_from_db()
    client = client_of(make_staff(Role.SUPERVISOR))
    answer = _post(
        client,
        opened,
        closed_at=pages_time.form_value(casino_property, opened.opened_at - dt.timedelta(hours=1)),
        reason="typo",
    )
    assert "A rating closes after it opens." in answer
    assert not RatingTimeCorrection.objects.exists()


def test_nobody_corrects_their_own_rating(felt, supervisor, casino_property):
    from tables.ratings.models import Player

    player = make_staff(Role.SUPERVISOR)
    Player.objects.create(property=casino_property, card="7", alias="Off duty", staff=player)
    rating = Rating.objects.get(pk=rate(supervisor, felt.table, 2, card="7")["id"])
    Rating.objects.filter(pk=rating.pk).update(opened_at=rating.opened_at - dt.timedelta(hours=1))
    rating.refresh_from_db()
    answer = _post(
        client_of(player),
        rating,
        opened_at=pages_time.form_value(casino_property, rating.opened_at - dt.timedelta(hours=1)),
        reason="mine",
    )
    assert "their own rating" in answer
    assert not RatingTimeCorrection.objects.exists()


@pytest.mark.parametrize("role", [Role.MANAGER, Role.HOST, Role.AUDITOR, Role.COMPLIANCE])
def test_only_a_supervisor_sees_the_form_and_may_post_it(opened, casino_property, role):
    client = client_of(make_staff(role))
    page = client.get(_page(opened))
    assert page.status_code == 200 and 'class="time-correct"' not in page.content.decode()
    earlier = pages_time.form_value(casino_property, opened.opened_at - dt.timedelta(hours=1))
    answer = client.post(f"{_page(opened)}{opened.pk}/time/", {"opened_at": earlier, "reason": "x"})
    assert answer.status_code == 403
    assert not RatingTimeCorrection.objects.exists()


def test_the_seat_maps_link_opens_the_ratings_form(opened, supervisor):
    table_page = client_of(supervisor).get(f"/pit/tables/{opened.table_id}/").content.decode()
    link = f"/players/{opened.player_id}/ratings/?correct={opened.pk}#rating-{opened.pk}"
    assert link in table_page.replace("&amp;", "&")
    page = client_of(supervisor).get(link.split("#")[0]).content.decode()
    assert f'<tr id="rating-{opened.pk}"' in page
    assert '<details class="time-correct" open>' in page


def test_local_times_on_the_nights_the_clocks_change(casino_property):
    """Europe/Paris: 02:30 did not exist on 29 March 2026 (02:00 became 03:00) and happened
    twice on 25 October 2026 (03:00 became 02:00 again)."""
    with pytest.raises(pages_time.NoSuchTime):
        pages_time.local_instant(casino_property, "2026-03-29T02:30", None)
    first = dt.datetime(2026, 10, 25, 0, 30, tzinfo=dt.UTC)  # 02:30 summer time
    second = dt.datetime(2026, 10, 25, 1, 30, tzinfo=dt.UTC)  # 02:30 winter time
    near_second = second + dt.timedelta(minutes=10)
    assert pages_time.local_instant(casino_property, "2026-10-25T02:30", first) == first
    assert pages_time.local_instant(casino_property, "2026-10-25T02:30", near_second) == second
    assert pages_time.local_instant(casino_property, "2026-12-05T21:30:15", None) == dt.datetime(
        2026, 12, 5, 20, 30, 15, tzinfo=dt.UTC
    )


# --- the API's extension ------------------------------------------------------------------


def _api(client, rating_id, body):
    answer = client.post(
        f"/api/ratings/{rating_id}/time", json.dumps(body), content_type="application/json"
    )
    return answer.status_code, answer.json()


def test_the_api_corrects_a_time_with_a_key_and_a_reason(opened, supervisor):
    client = client_of(make_staff(Role.SUPERVISOR))
    earlier = opened.opened_at - dt.timedelta(minutes=10)
    body = {"key": "t1", "opened_at": earlier.isoformat(), "reason": "seen on video"}
    status, rating = _api(client, opened.pk, body)
    assert (status, rating["id"]) == (200, opened.pk)
    assert dt.datetime.fromisoformat(rating["opened_at"]) == earlier
    assert _api(client, opened.pk, body) == (200, rating)  # the same key: the same answer
    assert RatingTimeCorrection.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"key": "a", "opened_at": "{earlier}"}, 400, "reason_required"),
        ({"key": "b", "reason": "why"}, 400, "nothing_to_correct"),
        ({"key": "c", "opened_at": "2026-12-05T21:30", "reason": "why"}, 400, "bad_time"),
        ({"key": "d", "closed_at": "{earlier}", "reason": "why"}, 409, "rating_open"),
        ({"opened_at": "{earlier}", "reason": "why"}, 400, "bad_key"),
    ],
)
def test_the_apis_refusals_answer_with_their_code(opened, body, status, code):
    earlier = (opened.opened_at - dt.timedelta(minutes=10)).isoformat()
    body = {k: v.format(earlier=earlier) for k, v in body.items()}
    got, answer = _api(client_of(make_staff(Role.SUPERVISOR)), opened.pk, body)
    assert (got, answer["error"]["code"]) == (status, code)
    assert not RatingTimeCorrection.objects.exists()


@pytest.mark.parametrize("role", [Role.MANAGER, Role.AUDITOR, Role.HOST, Role.DEALER])
def test_only_a_supervisor_corrects_through_the_api(opened, role):
    earlier = (opened.opened_at - dt.timedelta(minutes=10)).isoformat()
    got, _answer = _api(
        client_of(make_staff(role)), opened.pk, {"key": "k", "opened_at": earlier, "reason": "x"}
    )
    assert got == 403
    assert not RatingTimeCorrection.objects.exists()
