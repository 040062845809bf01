"""Comps in real Chromium, in English and in French (issue 28, item 4): a host issues a comp
within their limit, another above it waits; its issuer, a host who is also a manager, cannot
approve it, a second manager does; the auditor's monthly report shows them and downloads as
CSV with the same figures."""

import csv
import io

import pytest

from casino.audit import seal_pending
from casino.models import AuditEntry, Staff
from casino.roles import Role
from tests.e2e.conftest import sign_in
from tests.e2e.tablet_support import SCREENSHOTS, axe_violations, load_floor
from tests.factories import make_staff

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")
PORTS = range(8521, 8530)  # this branch's ports on the shared machine
THEO = 100_000  # 1,000 euros of theo: the demo's budget (50 %) leaves room for both comps

WORDS = {
    "en": {
        "issue": "Issue the comp",
        "granted": "Comp granted.",
        "waits": "Above your limit: the comp awaits a manager's approval.",
        "not_own": "Whoever issued a comp does not approve it: another manager does.",
        "approved": "Comp approved.",
        "approve": "Approve",
        "report": "Monthly comp report",
        "dinner": ("Dinner", "4.50"),
        "show": ("Show for two", "120"),
    },
    "fr": {
        "issue": "Émettre la gratuité",
        "granted": "Gratuité accordée.",
        "waits": "Au-dessus de votre limite : la gratuité attend l’approbation d’un directeur des jeux.",
        "not_own": "Qui a émis une gratuité ne l’approuve pas : un autre directeur des jeux le fait.",
        "approved": "Gratuité approuvée.",
        "approve": "Approuver",
        "report": "Rapport mensuel des gratuités",
        "dinner": ("Dîner", "4,50"),
        "show": ("Spectacle pour deux", "120"),
    },
}  # fmt: skip


@pytest.fixture
def asgi_server(transactional_db, monkeypatch):
    """The project's server on the first free port of PORTS."""
    from tests.e2e.conftest import AsgiServer
    from tests.processes import port_answers

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for port in PORTS:
        if not port_answers(port):
            break
    server = AsgiServer(port).start()
    yield server
    server.stop()


def _plain(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def _said(page) -> str:
    return _plain(page.inner_text(".messages", timeout=5000))


def no_axe_violation(page) -> None:
    """On the page as read again (the message shown once is gone: the site's message list
    is another page's subject)."""
    page.reload()
    found = [f"{v['id']}: {v['nodes'][:3]}" for v in axe_violations(page, impacts=EVERY_IMPACT)]
    assert found == [], (page.url, found)


def _floor(language: str) -> int:
    """The demo floor (its host 'hote', its comp policy) and Marie rated at UTH 1."""
    from tables.models import Table
    from tables.ratings import services
    from tables.ratings.models import Player

    load_floor()
    table = Table.objects.get(name="UTH 1")
    Player.objects.get_or_create(
        property=table.pit.property, card="400123", defaults={"alias": "Marie D."}
    )
    body = services.rating_open(
        staff=Staff.objects.get(username="inspecteur"),
        key="e2e-comps",
        table=table.pk,
        seat=1,
        player={"card": "400123"},
    ).body
    make_staff(Role.HOST, Role.MANAGER, username="two-hats")
    Staff.objects.filter(username__in=["hote", "two-hats", "directrice", "auditeur"]).update(
        language=language
    )
    return body["id"]


def _issue(page, url, rating_id, what, amount, button) -> None:
    page.goto(f"{url}/comps/rating/{rating_id}/")
    page.fill("#description", what)
    page.fill("#amount", amount)
    page.click(f"form.comp-issue button:has-text('{button}')")
    page.wait_for_url(f"{url}/comps/rating/{rating_id}/")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_host_comps_one_waits_a_second_manager_approves_the_auditor_downloads(
    asgi_server, browser_page, monkeypatch, language
):
    from tables.ratings import comps
    from tables.ratings.models import Comp

    # The theo measured is the ratings' own tests' subject: here, one the budget allows.
    monkeypatch.setattr(comps, "rating_theo_cents", lambda rating: THEO)
    words, page, url = WORDS[language], browser_page, asgi_server.url
    rating_id = asgi_server.run_sync(_floor, language)

    # The demo's host grants a dinner within their limit (5 euros in the demo).
    sign_in(page, asgi_server, "hote")
    _issue(page, url, rating_id, *words["dinner"], words["issue"])
    assert words["granted"] in _said(page)
    no_axe_violation(page)

    # A host who is also a manager issues a show above the host's limit: it waits, and its
    # issuer may not approve it.
    sign_in(page, asgi_server, "two-hats")
    _issue(page, url, rating_id, *words["show"], words["issue"])
    assert _plain(words["waits"]) in _said(page)
    show = Comp.objects.get(description=words["show"][0])
    assert (show.status, show.amount_cents) == (Comp.AWAITING, 12_000)
    page.click(f"tr[data-comp='{show.pk}'] form.comp-approve button")
    page.wait_for_url(f"{url}/comps/rating/{rating_id}/")
    assert _plain(words["not_own"]) in _said(page)
    show.refresh_from_db()
    assert show.status == Comp.AWAITING

    # A second manager approves it from the comps' home page.
    sign_in(page, asgi_server, "directrice")
    page.goto(f"{url}/comps/")
    page.click(f".awaiting tr[data-comp='{show.pk}'] a")
    page.click(f"tr[data-comp='{show.pk}'] form.comp-approve button:has-text('{words['approve']}')")
    page.wait_for_url(f"{url}/comps/rating/{rating_id}/")
    assert words["approved"] in _said(page)
    show.refresh_from_db()
    assert (show.status, show.decided_by.username) == (Comp.GRANTED, "directrice")
    assert page.get_attribute(f"tr[data-comp='{show.pk}'] [data-status]", "data-status") == (
        "granted"
    )

    # The auditor's monthly report shows both; the CSV carries the same figures.
    sign_in(page, asgi_server, "auditeur")
    page.goto(f"{url}/comps/")
    page.click("[data-report-link]")
    month = show.rating.player.property.gaming_date(show.issued_at).strftime("%Y-%m")
    page.fill("#month", month)
    page.click("form.comp-month button")
    page.wait_for_url(f"{url}/comps/report/?month={month}")
    assert page.inner_text("h1") == words["report"]
    dinner = Comp.objects.get(description=words["dinner"][0])
    for comp in (dinner, show):
        assert page.locator(f"tr[data-comp='{comp.pk}']").count() == 1
    granted = _plain(page.inner_text("[data-granted]"))
    assert ("124,50" if language == "fr" else "124.50") in granted
    no_axe_violation(page)
    page.screenshot(path=str(SCREENSHOTS / f"comps-report-{language}.png"), full_page=True)
    with page.expect_download() as download:
        page.click("[data-csv]")
    assert download.value.suggested_filename == f"comps-{month}.csv"
    with open(download.value.path(), encoding="utf-8") as text:
        lines = list(csv.DictReader(io.StringIO(text.read())))
    by_comp = {ln["comp"]: ln for ln in lines if ln["line"] == "comp"}
    assert by_comp[str(dinner.pk)]["amount_cents"] == "450"
    assert by_comp[str(show.pk)]["status"] == "granted"
    assert by_comp[str(show.pk)]["decided_by_id"] == str(show.decided_by_id)
    (total,) = [ln for ln in lines if ln["line"] == "month"]
    assert (total["comps"], total["granted_cents"]) == ("2", "12450")
    seal_pending()
    codes = AuditEntry.objects.filter(actor__username="auditeur").values_list("code", flat=True)
    assert {"ratings.comp_report.prepared", "ratings.comp_report.exported"} <= set(codes)
