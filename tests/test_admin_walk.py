"""Every admin page in French has no English word of the project's own, and the reverse.

The walk opens, with the demo floor loaded, every registered model's list, its add form and
the change form of its first row, as the manager, the auditor and the staff administrator
(each sees the pages their role opens). A text of the page (a heading, a label, a column, a
filter, an option, a help text, a message) that reads exactly as one of the project's English
strings, while French says something else, is English left on the French admin. The project's
English strings: every msgid of its catalogues, and every model's and field's English name
(which catches a field with no translatable name at all, such as "Created by")."""

import html.parser
import re
from pathlib import Path

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.urls import reverse
from django.utils import translation

from casino.permissions import sync_role_permissions

ROOT = Path(settings.BASE_DIR)
CATALOGUES = sorted(ROOT.glob("*/locale/fr/LC_MESSAGES/django.po")) + sorted(
    ROOT.glob("*/*/locale/fr/LC_MESSAGES/django.po")
)
PROJECT_APPS = ("casino", "jackpot", "tables", "pit", "accounting", "ratings")
READERS = ("directeur", "auditeur", "rh")
# Words of both languages: never foreign.
BOTH_LANGUAGES = {"jackpot"}
_PLACEHOLDER = re.compile(r"%\(\w+\)s|%s|\{\w*\}")


def _norm(text: str) -> str:
    text = text.replace("\u00a0", " ").replace("\u202f", " ").strip()
    text = re.sub(r"\s*:$", "", text)
    return re.sub(r"\s+", " ", text).casefold()


def _pairs():
    """(English, French) for every plain string of the catalogues (no placeholder)."""
    for path in CATALOGUES:
        for entry in polib.pofile(str(path)):
            if entry.obsolete or not entry.msgstr or "fuzzy" in entry.flags:
                continue
            if _PLACEHOLDER.search(entry.msgid):
                continue
            yield entry.msgid, entry.msgstr


def _model_names():
    """(English, French) names of every model and field of the project's apps."""
    for model in apps.get_models():
        if model._meta.app_label not in PROJECT_APPS:
            continue
        labels = [lambda m=model: m._meta.verbose_name, lambda m=model: m._meta.verbose_name_plural]
        labels += [lambda f=f: f.verbose_name for f in model._meta.fields]
        for label in labels:
            with translation.override("en"):
                english = str(label())
            with translation.override("fr"):
                french = str(label())
            yield english, french


def words(language: str) -> set[str]:
    """The other language's strings that must not appear on pages in `language` (the demo's
    people, whose names and usernames are French words, are data, not the interface)."""
    from casino.models import Staff

    people = {
        _norm(value)
        for row in Staff.objects.values_list("username", "first_name", "last_name")
        for value in row
    }
    found = set()
    for english, french in [*_pairs(), *_model_names()]:
        if _norm(english) == _norm(french) or len(_norm(english)) < 4:
            continue  # "Trips", "Blind", "Pit", "Code": the same word in both
        found.add(_norm(english) if language == "fr" else _norm(french))
    # Strings that read the same in the page's own language are never foreign there.
    own = {_norm(f if language == "fr" else e) for e, f in [*_pairs(), *_model_names()]}
    return found - own - people - BOTH_LANGUAGES


class _Texts(html.parser.HTMLParser):
    """The texts a person reads: text nodes and the texts of options, titles and buttons."""

    def __init__(self):
        super().__init__()
        self.texts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder") and value:
                self.texts.append(value)
            if tag == "input" and name == "value" and ("type", "submit") in attrs and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.texts.append(data)


def page_texts(content: str) -> list[str]:
    parser = _Texts()
    parser.feed(content)
    return parser.texts


def admin_urls():
    urls = [reverse("admin:index")]
    for model in admin.site._registry:
        prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls += [reverse(f"{prefix}_changelist"), reverse(f"{prefix}_add")]
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            urls.append(reverse(f"{prefix}_change", args=[first.pk]))
    return urls


@pytest.fixture
def demo_floor(db):
    from casino import demo
    from jackpot import demo as jackpot_demo
    from tables import demo as tables_demo

    sync_role_permissions()
    _prop, pit = demo.load()
    tables_demo.load(pit=pit, bank=jackpot_demo.load())


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_admin_page_speaks_only_its_readers_language(client, demo_floor, language):
    from casino.models import Staff

    foreign = words(language)
    assert len(foreign) > 200  # the list is the project's strings, not an empty set
    found, opened = {}, 0
    for username in READERS:
        reader = Staff.objects.get(username=username)
        reader.language = language
        reader.save(update_fields=["language"])
        client.force_login(reader)
        for url in admin_urls():
            response = client.get(url)
            if response.status_code != 200:
                assert response.status_code in (302, 403), (username, url, response.status_code)
                continue
            opened += 1
            for text in page_texts(response.content.decode()):
                if _norm(text) in foreign:
                    found.setdefault(url, set()).add(text.strip())
    assert opened > 60  # every reader opened their pages
    assert found == {}, "\n".join(f"{url}: {sorted(texts)}" for url, texts in sorted(found.items()))


# The catalogues whose French has been set in the no-break space before « : » (all of them).
SPACED = ("casino", "jackpot", "tables", "tables/pit", "tables/accounting", "tables/ratings")
_BARE_COLON = re.compile(r"(?<=[^\s\u00a0\u202f]) :(?=\s|$)")


@pytest.mark.parametrize("app", SPACED)
def test_french_puts_a_no_break_space_before_a_colon(app):
    po = polib.pofile(str(ROOT / app / "locale/fr/LC_MESSAGES/django.po"))
    texts = [e.msgstr for e in po if e.msgstr] + [
        s for e in po if e.msgid_plural for s in e.msgstr_plural.values()
    ]
    assert len(texts) > 10
    assert [t for t in texts if _BARE_COLON.search(t)] == []


# What a staff administrator reads in the admin: the staff and the role grants, nothing of
# the games or the money (issue 23, 7: they read the hits and the parameter changes).
STAFF_ADMIN_MODELS = {"casino.staff", "casino.rolegrant"}


def test_the_staff_administrator_opens_no_gaming_or_money_page(client, demo_floor):
    from casino.models import Staff

    client.force_login(Staff.objects.get(username="rh"))
    opened = []
    for model in admin.site._registry:
        label = model._meta.label_lower
        prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        status = client.get(reverse(f"{prefix}_changelist")).status_code
        if label in STAFF_ADMIN_MODELS:
            assert status == 200, label
            opened.append(label)
        else:
            assert status in (302, 403), (label, status)
    assert sorted(opened) == sorted(STAFF_ADMIN_MODELS)
    for name in ("admin:jackpot_hit_changelist", "admin:jackpot_parameterchange_changelist"):
        assert client.get(reverse(name)).status_code == 403
    client.force_login(Staff.objects.get(username="auditeur"))  # who reads them still does
    for name in ("admin:jackpot_hit_changelist", "admin:jackpot_parameterchange_changelist"):
        assert client.get(reverse(name)).status_code == 200
