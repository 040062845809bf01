"""Every page in French has no English word of the project's own, and the reverse; French
pages follow French typography (issue 25, item 17).

The walk opens, with the demo floor loaded, a few days of play and a round at UTH 1, every
page of the floor, the pit, the reports, the chips, the displays and the staff pages as each
demo person (and the sign-in pages signed out), in both languages. It reads what a person
reads (texts, titles, labels, options) and looks for the other language's strings: every
msgid of the project's catalogues and every model's and field's name (tests/test_admin_walk.py
gathers them), and every name a manager gave in the other language (rule sets, paytables,
banks)."""

import datetime as dt
import re

import pytest

from casino.clock import current_property
from tests.test_admin_walk import _norm, demo_floor, page_texts, words  # noqa: F401

# "conformite" is no demo person: played_floor adds them, to read the player file's forms.
READERS = ("directeur", "inspecteur", "auditeur", "croupier", "conformite")
SIGNED_OUT = ("/login/", "/login/pin/")


@pytest.fixture
def played_floor(demo_floor):  # noqa: F811
    """Three past days at UTH 1-4 and, today, a settled round at UTH 1 with its events."""
    from casino.models import Staff
    from tables.accounting.seed import seed_days
    from tables.accounting.summary import summarize_closed_days
    from tables.models import Table
    from tables.selectors import current_dealer
    from tests.tables.rounds.conftest import Felt, deal_to

    tables = list(Table.objects.order_by("name"))
    today = current_property().gaming_date()
    seed_days(
        first=today - dt.timedelta(days=3),
        days=3,
        tables=tables,
        dealers={t.pk: Staff.objects.get(username="croupier") for t in tables},
        supervisor=Staff.objects.get(username="inspecteur"),
        manager=Staff.objects.get(username="directeur"),
        rounds_per_day=2,
    )
    summarize_closed_days()
    uth1 = Table.objects.get(name="UTH 1")
    deal_to(Felt(uth1, current_dealer(uth1)), "settled")
    player = _identified_player()
    _rated_seat(uth1, player)
    return uth1


def _rated_seat(table, player):
    """The player rated at seat 3 with a cash buy-in above the French threshold: the pit's
    seat map and the tablet show her alias; the comp and anti-money-laundering pages have her."""
    from casino.models import Staff
    from tables.ratings import services

    supervisor = Staff.objects.get(username="inspecteur")
    body = services.rating_open(
        staff=supervisor, key="walk-rating", table=table.pk, seat=3, player={"card": player.card}
    ).body
    services.rating_buy_in(
        rating_id=body["id"], staff=supervisor, key="walk-cash", amount_cents=250_000,
        instrument="cash",
    )  # fmt: skip


def _identified_player():
    """A carded player whose identity compliance recorded (the player file's pages)."""
    from casino.models import Staff
    from casino.roles import Role
    from tables.ratings.identity import identity_record
    from tables.ratings.players import player_create
    from tests.factories import make_staff

    player = player_create(
        supervisor=Staff.objects.get(username="inspecteur"), alias="Marie D.", card="400123"
    )
    identity_record(
        officer=make_staff(Role.COMPLIANCE, username="conformite"),
        player_id=player.pk,
        family_name="Dupont",
        document_kind="passport",
    )
    _rated(player)
    return player


def _rated(player):
    """A closed rating with an entered average Ante, the entry allowed (the reports' pages)."""
    import datetime as dt

    from django.utils import timezone

    from casino.clock import current_property
    from casino.models import Staff
    from tables.models import Table
    from tables.ratings.models import Rating, RatingSettings

    supervisor = Staff.objects.get(username="inspecteur")
    now = timezone.now()
    Rating.objects.create(
        player=player,
        table=Table.objects.get(name="UTH 1"),
        seat=1,
        opened_at=now - dt.timedelta(hours=1),
        opened_by=supervisor,
        closed_at=now,
        closed_by=supervisor,
        closed_reason=Rating.CLOSED,
        entered_average_ante_cents=2500,
    )
    RatingSettings.objects.create(property=current_property(), average_ante_entry=True)


def pages(table) -> list[str]:
    from jackpot.models import Bank
    from tables.ratings.models import Player, Rating

    bank = Bank.objects.first()
    player = Player.objects.order_by("pk").first()
    players = (
        ["/players/"]
        + (
            [
                f"/players/{player.pk}/",
                f"/players/{player.pk}/identity/",
                f"/players/{player.pk}/ratings/",
            ]
            if player
            else []
        )
        + ["/players/top/", "/players/accuracy/"]
    )
    rating = Rating.objects.order_by("pk").first()
    players += ["/comps/", "/comps/report/", "/compliance/aml/"] + (
        [f"/comps/rating/{rating.pk}/"] if rating else []
    )
    return players + [
        "/",
        "/tablet/",
        f"/tablet/{table.pk}/",
        "/pit/",
        f"/pit/tables/{table.pk}/",
        "/reports/",
        "/reports/?period=shift&shift=swing",
        "/reports/?period=month",
        "/reports/?period=year&by=game",
        "/reports/?period=month&by=dealer",
        "/reports/chips/",
        "/jackpot/displays/",
        "/staff/locked-pins/",
        "/account/secrets/",
        "/tables/devices/",
        f"/api/jackpot/{bank.slug}/" if bank else "/",
    ]


def _given_names(language: str) -> set[str]:
    """The names managers gave, in the other language (where they differ)."""
    from jackpot.models import Bank
    from tables.models import Paytable, RuleSet

    found = set()
    for model in (RuleSet, Paytable, Bank):
        for name, name_en in model.objects.exclude(name_en="").values_list("name", "name_en"):
            if _norm(name) != _norm(name_en):
                found.add(_norm(name if language == "en" else name_en))
    return found


# French typography: a (no-break) space before « : », typographic apostrophes.
_GLUED_COLON = re.compile(r"[^\W\d]:(\s|$)")
_STRAIGHT_APOSTROPHE = re.compile(r"[^\W\d_]'[^\W\d_]")


def _walk(client, language: str, table) -> tuple[dict, dict, int]:
    from casino.models import Staff

    foreign = words(language)
    given = _given_names(language)
    found, typography, opened = {}, {}, 0

    def read(url, content):
        for text in page_texts(content):
            norm = _norm(text)
            if norm in foreign or any(name in norm for name in given):
                found.setdefault(url, set()).add(text.strip())
            if language == "fr" and (
                _GLUED_COLON.search(text) or _STRAIGHT_APOSTROPHE.search(text)
            ):
                typography.setdefault(url, set()).add(text.strip())

    for url in SIGNED_OUT:
        client.logout()
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 200
        opened += 1
        read(url, answer.content.decode())
    for username in READERS:
        reader = Staff.objects.get(username=username)
        reader.language = language
        reader.save(update_fields=["language"])
        client.force_login(reader)
        for url in pages(table):
            answer = client.get(url)
            if answer.status_code != 200:
                assert answer.status_code in (302, 403), (username, url, answer.status_code)
                continue
            opened += 1
            if answer["Content-Type"].startswith("application/json"):
                continue  # the feed's words are its displays' (tests/jackpot)
            read(f"{username} {url}", answer.content.decode())
    return found, typography, opened


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_speaks_only_its_readers_language(client, played_floor, language):
    found, typography, opened = _walk(client, language, played_floor)
    assert opened > 30
    assert found == {}, "\n".join(f"{url}: {sorted(texts)}" for url, texts in sorted(found.items()))
    assert typography == {}, "\n".join(
        f"{url}: {sorted(texts)}" for url, texts in sorted(typography.items())
    )
