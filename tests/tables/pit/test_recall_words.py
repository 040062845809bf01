"""The game recall as a surveillance analyst reads it (issue 25, item 5): every event in the
reader's language with its seat, cards drawn as cards and amounts, no event code; the
round's export offered only once it exists."""

import re

import pytest

from tests.tables.pit.test_pit_floor import client_of
from tests.tables.rounds.conftest import deal_to

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    """What a person reads: the page without its tags and attributes."""
    body = html[html.index("<main>") :]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize(
    "language,said",
    [
        (
            "en",
            [
                "Wagers: Ante €10.00, Blind €10.00, Trips €10.00, Progressive €1.00",
                "No more bets",
                "Checks",
                "Bets 1x (Play)",
                "Hole cards",
                "Settlement confirmed",
            ],
        ),
        (
            "fr",
            [
                "Mises : Ante 10,00 €, Blind 10,00 €, Trips 10,00 €, Jackpot progressif 1,00 €",
                "Rien ne va plus",
                "Checke",
                "Mise 1x (Play)",
                "Cartes privées",
                "Règlement confirmé",
            ],
        ),
    ],
)
def test_the_recall_says_what_happened_in_the_reader_s_language(felt, supervisor, language, said):
    deal_to(felt, "settled")
    html = client_of(supervisor, language).get(f"/pit/tables/{felt.table.pk}/").content.decode()
    text = _text(html).replace("\u202f", " ").replace("\xa0", " ")
    for words in said:
        assert words in text, words
    for code in ("wagers_placed", "cards_entered", "bets_locked", "settlement_confirmed"):
        assert code not in text
    king = "king of hearts" if language == "en" else "roi de cœur"
    assert f'aria-label="{king}"' in html
    assert re.search(r'<span class="pc red"[^>]*>(K|R)♥</span>', html)
    seat_one = re.search(r'<tr data-kind="cards_entered">\s*<td>[^<]*</td>\s*<td>1</td>', html)
    assert seat_one, "the seat of each player's cards"


def test_the_export_is_offered_only_for_a_round_that_has_one(felt, supervisor):
    settled = deal_to(felt, "settled")
    running = deal_to(felt, "flop")
    client = client_of(supervisor)
    html = client.get(f"/pit/tables/{felt.table.pk}/").content.decode()
    assert f'href="/api/rounds/{settled["id"]}/export"' in html
    assert f'href="/api/rounds/{running["id"]}/export"' not in html
    assert client.get(f"/api/rounds/{settled['id']}/export").status_code == 200
