"""Card entry by keyboard: a refused entry never sticks to the next one, and each page takes
its language's notation (the engine's, tables/rules/cards.py), which the field names."""

import pytest
from django.utils import translation
from django.utils.translation import gettext as _

from tables.rules import NOTATIONS, CardError, read_card
from tables.rules.cards import rank_faces
from tests.e2e.tablet_support import DEALER, Tablet, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# What the dealer types on each page, and the card it is (None: refused).
TYPED = {
    "fr": [("Zc", None), ("Rc", "Kh"), ("Ks", None), ("dame de pique", "Qs"), ("10 t", "Tc")],
    "en": [("Zc", None), ("Kh", "Kh"), ("Rc", None), ("queen of spades", "Qs"), ("10c", "Tc")],
}
MIRRORED = [
    "Rc",
    "rc",
    "RC",
    "roi de cœur",
    "ROI DE CŒUR",
    "Roi de coeur",
    "Dp",
    "D pique",
    "Vk",
    "10t",
    "10 de trèfle",
    "dix de trefle",
    "As de pique",
    "Ap",
    "Ac",
    "as",
    "Kh",
    "KH",
    "kh",
    "10h",
    "Td",
    "ten of hearts",
    "Ace of Spades",
    "7♦",
    "K♥",
    "RcD",
    "",
    "1",
    "Zz",
    "toString",
]


@pytest.fixture
def tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    browser_page.set_viewport_size({"width": 1280, "height": 800})
    return Tablet(browser_page, asgi_server.url)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_refused_card_is_cleared_and_the_page_takes_its_languages_notation(tablet, language):
    tablet.sign_in(*DEALER, language)
    notation = language
    words = tablet.words
    page = tablet.page
    tablet.tap(words["new_round"])
    tablet.wagers(1, [1000])
    tablet.tap(words["no_more_bets"])
    tablet.decide(1, "bet:4")
    # The grid and the felt print the notation's indices; the buttons keep canonical names.
    face = {"fr": "R", "en": "K"}[language]
    assert page.get_attribute('[data-card="Kh"]', "data-face") == face
    assert page.get_attribute('[data-card="Kh"]', "aria-label") == "Kh"
    if language == "fr":  # one term for the board: the heading's
        assert page.inner_text("#board-title") == "Cartes communes"
        assert tablet.next_step() == "Carte suivante\u00a0: les cartes communes."
    with translation.override(language):
        assert page.inner_text("#keyboard-notation").startswith(
            "Notation française" if language == "fr" else "Notation: rank"
        )
        assert page.inner_text(".keyboard") == _("Type a card and press Enter")
    field = page.locator("[data-keyboard]")
    board = []
    for text, card in TYPED[language]:
        seq = tablet.seq
        tablet.typed(text)
        assert field.input_value() == ""  # never left to spoil the next entry
        if card is None:
            assert tablet.flash() == words["not_a_card"] % {"text": text} and tablet.seq == seq
            if board:
                tablet.screenshot(f"tablet-keyboard-{language}")
        else:
            board.append(card)
            assert tablet.seq == seq + 1 and tablet.flash() == ""
            codes = page.evaluate(
                "() => [...document.querySelectorAll('.place[data-place=\"board\"] [data-code]')]"
                ".map(c => c.dataset.code)"
            )
            assert codes == board
            felt = page.locator(f'.place[data-place="board"] [data-code="{card}"]')
            assert felt.get_attribute("data-face") == rank_faces(notation)[card[0]]


def test_the_script_reads_typed_cards_as_the_engine_does(tablet):
    tablet.sign_in(*DEALER, "en")
    for notation, table in NOTATIONS.items():
        script = tablet.page.evaluate(
            """async ([texts, notation]) => {
                const { readCard } = await import('/static/tables/tablet/format.js');
                return texts.map(t => readCard(t, notation));
            }""",
            [MIRRORED, table],
        )
        engine = []
        for text in MIRRORED:
            try:
                engine.append(str(read_card(text, notation)))
            except CardError:
                engine.append(None)
        assert script == engine, notation
        assert any(engine) and None in engine
