"""A rating's open time corrected from the pit in real Chromium, in English and in French
(issue 28, item 7): from the seat map, a supervisor follows the rated seat's link to the
player's ratings, types a time in the future (refused in words, nothing changed), then the
time the player really sat down, in the property's time zone, with a reason; the rating and
the pit's alert for surveillance follow."""

import datetime as dt

import pytest
from django.utils import timezone

from casino.models import Staff
from tests.e2e.conftest import sign_in
from tests.e2e.tablet_support import SCREENSHOTS, axe_violations, load_floor
from tests.e2e.test_comps import asgi_server  # noqa: F401 - this branch's ports

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")

WORDS = {
    "en": {
        "link": "Correct the open time",
        "future": "A corrected time cannot be in the future.",
        "done": "The rating's time is corrected; surveillance sees the correction.",
        "button": "Correct the time",
    },
    "fr": {
        "link": "Corriger l’heure d’ouverture",
        "future": "Une heure corrigée ne peut pas être dans le futur.",
        "done": "L’heure de la cotation est corrigée ; la surveillance voit la correction.",
        "button": "Corriger l’heure",
    },
}


def _said(page) -> str:
    return page.inner_text(".messages", timeout=5000).replace("\u00a0", " ")


def _floor(language: str) -> tuple[int, int]:
    """Marie rated at UTH 1, seat 2, opened by the demo supervisor 40 minutes ago (by the
    clock; the supervisor opened it late, the player sat down 15 minutes before)."""
    from tables.models import Table
    from tables.ratings import services
    from tables.ratings.models import Player, Rating

    load_floor()
    table = Table.objects.get(name="UTH 1")
    Player.objects.get_or_create(
        property=table.pit.property, card="400123", defaults={"alias": "Marie D."}
    )
    body = services.rating_open(
        staff=Staff.objects.get(username="inspecteur"),
        key="e2e-time",
        table=table.pk,
        seat=2,
        player={"card": "400123"},
    ).body
    opened = (timezone.now() - dt.timedelta(minutes=40)).replace(microsecond=0)
    Rating.objects.filter(pk=body["id"]).update(opened_at=opened)
    Staff.objects.filter(username="inspecteur").update(language=language)
    return table.pk, body["id"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_supervisor_corrects_the_open_time_from_the_seat_map(
    asgi_server,  # noqa: F811
    browser_page,
    language,
):
    from tables.pit.models import Alert
    from tables.ratings.models import Rating, RatingTimeCorrection

    words, page, url = WORDS[language], browser_page, asgi_server.url
    table_id, rating_id = asgi_server.run_sync(_floor, language)
    rating = Rating.objects.select_related("player__property").get(pk=rating_id)
    prop = rating.player.property
    sign_in(page, asgi_server, "inspecteur")
    page.goto(f"{url}/pit/tables/{table_id}/")
    page.click(f".seat-map tr[data-seat='2'] a:has-text('{words['link']}')")
    page.wait_for_selector(f"#rating-{rating_id} details.time-correct[open]")
    field = f"#opened-{rating_id}"
    shown = page.input_value(field)
    # Chromium shows a time whose seconds are 0 without them ("…T03:16"): compare instants.
    opened = prop.local(rating.opened_at).replace(microsecond=0, tzinfo=None)
    assert dt.datetime.fromisoformat(shown) == opened
    found = [f"{v['id']}: {v['nodes'][:3]}" for v in axe_violations(page, impacts=EVERY_IMPACT)]
    assert found == [], found

    # A time in the future: refused in words, nothing changed.
    future = prop.local(timezone.now() + dt.timedelta(hours=2))
    page.fill(field, future.strftime("%Y-%m-%dT%H:%M:%S"))
    page.fill(f"#reason-{rating_id}", "typo")
    page.click(f"#rating-{rating_id} button:has-text('{words['button']}')")
    page.wait_for_selector(".messages")
    assert words["future"] in _said(page)
    rating.refresh_from_db()
    assert not RatingTimeCorrection.objects.exists()

    # The time the player sat down, as the pit's clock showed it.
    sat_down = rating.opened_at - dt.timedelta(minutes=15)
    page.wait_for_selector(f"#rating-{rating_id} details.time-correct[open]")  # still unfolded
    page.screenshot(path=str(SCREENSHOTS / f"rating-time-{language}.png"), full_page=True)
    page.fill(field, prop.local(sat_down).strftime("%Y-%m-%dT%H:%M:%S"))
    page.fill(f"#reason-{rating_id}", "opened late: the player sat down at the shift change")
    page.click(f"#rating-{rating_id} button:has-text('{words['button']}')")
    page.wait_for_selector(".messages")
    assert words["done"] in _said(page)
    opened = Rating.objects.get(pk=rating_id).opened_at
    assert opened == sat_down
    shown = page.inner_text(f"#rating-{rating_id} td:nth-child(4)")
    assert shown == prop.local(sat_down).strftime("%H:%M")
    (correction,) = RatingTimeCorrection.objects.all()
    assert (correction.field, correction.by.username) == ("opened_at", "inspecteur")
    assert Alert.objects.filter(kind=Alert.Kind.RATING_TIME_EDITED).count() == 1
