"""The tablet speaks French or English, switchable on the tablet; the French page keeps no
English: its visible text and its controls' names are checked against the page's own English
strings (every string of the tablet's templates and script, from the catalogue)."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from tables.tablet.words import tablet_words
from tests.e2e.tablet_support import DEALER, Tablet, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CATALOGUE = Path(__file__).parents[2] / "tables" / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\{ ?\w+ ?\}\}")


def _unquote(lines: list[str]) -> str:
    return "".join(re.fullmatch(r'(?:msgid |msgstr )?"(.*)"', line).group(1) for line in lines)


def tablet_catalogue() -> dict[str, str]:
    """English -> French of every catalogue entry the tablet's files use."""
    entries: dict[str, str] = {}
    for block in CATALOGUE.read_text().split("\n\n"):
        lines = block.strip().splitlines()
        refs = " ".join(line for line in lines if line.startswith("#:"))
        if "tablet" not in refs:
            continue
        body = [
            line for line in lines if not line.startswith("#") and not line.startswith("msgctxt")
        ]
        at = next(i for i, line in enumerate(body) if line.startswith("msgstr"))
        entries[_unquote(body[:at])] = _unquote(body[at:])
    return entries


def english_strings() -> list[str]:
    """The pieces of the page's English strings that French never shares."""
    with translation.override("en"):
        english = set(tablet_words().values())
    french = tablet_catalogue()
    english |= set(french)
    french_text = "\n".join(french.values())
    pieces = set()
    for text in english:
        for piece in PLACEHOLDER.split(text):
            piece = piece.strip(" :.,·–()")
            # A word French uses too ("flush" in "quinte flush") is not English on the page.
            shared = re.search(rf"\b{re.escape(piece)}\b", french_text)
            if len(re.findall(r"[A-Za-z]", piece)) >= 4 and not shared:
                pieces.add(piece)
    return sorted(pieces, key=len, reverse=True)


def english_left_on(page) -> list[str]:
    """English pieces found in the page's visible text or its controls' accessible names."""
    text = page.evaluate(
        """() => [document.body.innerText,
            ...[...document.querySelectorAll('[aria-label]')]
               .filter(e => e.offsetParent !== null).map(e => e.getAttribute('aria-label'))
          ].join('\\n')"""
    )
    return [piece for piece in english_strings() if re.search(rf"\b{re.escape(piece)}\b", text)]


def test_the_catalogue_translates_every_tablet_string():
    entries = tablet_catalogue()
    assert entries and all(entries.values()), [k for k, v in entries.items() if not v]


def test_the_language_switches_on_the_tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    tablet = Tablet(browser_page, asgi_server.url).sign_in(*DEALER, "fr")
    assert browser_page.get_attribute("html", "lang") == "fr"
    assert browser_page.is_visible("text=Nouveau coup")
    assert english_left_on(browser_page) == []
    browser_page.click('.topbar button[value="en"]')
    browser_page.wait_for_url(f"{asgi_server.url}/tablet/")
    tablet.wait_online()
    assert browser_page.get_attribute("html", "lang") == "en"
    assert browser_page.is_visible("text=New round")
