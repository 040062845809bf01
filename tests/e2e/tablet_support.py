"""Driving the dealer tablet in Chromium as a dealer does: by touch, one tap per step."""

import io
import statistics
from pathlib import Path

from django.core.management import call_command
from django.test import Client

from casino.models import Staff

SCREENSHOTS = Path(__file__).parent / "screenshots"
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"  # for the tests only
TABLET_STATIC = Path(__file__).parents[2] / "tables" / "static" / "tables" / "tablet"
DEALER = ("1001", "1111")  # croupier, who deals UTH 1 in the demo
SUPERVISOR = ("2001", "3333")  # inspecteur

SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


def card_text(code: str, language: str) -> str:
    """A card as the tablet writes it in a message, in the page's notation ("R♥" in French)."""
    from tables.rules.cards import rank_faces

    return rank_faces("fr" if language.startswith("fr") else "en")[code[0]] + SUITS[code[1]]


def load_floor():
    call_command("load_demo", stdout=io.StringIO())


def staff_client(username: str) -> Client:
    client = Client()
    client.force_login(Staff.objects.get(username=username))
    return client


class Tablet:
    """One tablet (a Playwright page) signed in by employee number and PIN."""

    def __init__(self, page, url: str):
        self.page, self.url = page, url

    def sign_in(self, number: str, pin: str, language: str, *, to: str = "/tablet/") -> "Tablet":
        """Sign in on the keypad and land on `to`; on the tablet page, wait for its link."""
        page = self.page
        page.context.add_cookies(
            [{"name": "tapis_device_language", "value": language, "url": self.url}]
        )
        page.goto(f"{self.url}/login/pin/?next={to}")
        page.fill("input[name=employee_number]", number)
        self.keypad(pin)
        page.wait_for_url(f"{self.url}{to}")
        if to == "/tablet/" and page.locator("#tablet").count():
            self.wait_online()
        return self

    def keypad(self, pin: str):
        """Type `pin` on the page's keypad, then its OK key."""
        self.page.click("input[name=pin]")
        for digit in pin:
            self.page.click(f'.keypad [data-key="{digit}"]')
        self.page.click(".keypad .key-ok")

    def sign_out(self):
        self.page.locator(".topbar form[action$='logout/'] button").click()
        self.page.wait_for_load_state()

    def wait_online(self):
        self.page.wait_for_selector('[data-link][data-state="online"]', timeout=10_000)

    @property
    def seq(self) -> int:
        value = self.page.get_attribute("#tablet", "data-seq")
        return int(value) if value else -1

    @property
    def mark(self) -> list[int]:
        """Where the page is: the round's seq and how many refusals it has shown."""
        return self.page.evaluate(
            "() => { const d = document.querySelector('#tablet').dataset;"
            " return [Number(d.seq || -1), Number(d.flashes || 0)]; }"
        )

    def tap(self, name: str, *, wait: bool = True, force: bool = False):
        """Tap the button of this accessible name; wait until the round moved on or the page
        said why not. `force`: a greyed (aria-disabled) button, which a finger still taps."""
        before = self.mark
        self.page.get_by_role("button", name=name, exact=True).click(force=force)
        if wait:
            self.wait_after(before)

    def wait_after(self, mark: list[int]):
        self.page.wait_for_function(
            "([seq, flashes]) => { const d = document.querySelector('#tablet').dataset;"
            " return Number(d.seq || -1) > seq || Number(d.flashes || 0) > flashes; }",
            arg=mark,
            timeout=10_000,
        )

    def stage(self) -> str:
        return self.page.get_attribute("#tablet", "data-stage")

    def flash(self) -> str:
        node = self.page.locator("[data-flash]")
        return node.inner_text() if node.is_visible() else ""

    def next_step(self) -> str:
        return self.page.inner_text("[data-next]")

    def wagers(self, seat: int, ante: list[int], *, trips: list[int] = (), progressive=False):
        """Ante by chip taps (the chips' cents), Trips likewise, the progressive, then Record."""
        editor = f'.seat[data-seat="{seat}"] [data-wager-editor]'
        for cents in ante:
            self.page.click(f'{editor} [data-chip="ante"][data-cents="{cents}"]')
        for cents in trips:
            self.page.click(f'{editor} [data-chip="trips"][data-cents="{cents}"]')
        if progressive:
            self.page.click(f"{editor} [data-progressive]")
        self.tap(self.words["record_seat"] % {"seat": seat})

    def decide(self, seat: int, action: str):
        words = self.words
        label = {"check": words["check"], "fold": words["fold"]}.get(action)
        if label is None:
            label = words["bet"] % {"multiple": action.split(":")[1]}
        self.tap(words["action_of"] % {"seat": seat, "action": label})

    def meter(self) -> int:
        """The meter's first level on screen, in cents, once the table's channel sent it."""
        amount = self.page.locator("[data-meter] [data-amount][data-cents]").first
        amount.wait_for(state="attached", timeout=5_000)
        return int(amount.get_attribute("data-cents"))

    def card(self, code: str):
        self.tap(code)

    def typed(self, text: str):
        before = self.mark
        field = self.page.locator("[data-keyboard]")
        field.fill(text)
        field.press("Enter")
        self.wait_after(before)

    @property
    def words(self) -> dict:
        return self.page.evaluate("JSON.parse(document.getElementById('tablet-words').text)")

    def on_screen_payouts(self) -> dict:
        """{seat: {bet: net}} as the seats show them."""
        return self.page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('.seat')]
                .filter(s => s.querySelector('[data-payout] dl'))
                .map(s => [s.dataset.seat, Object.fromEntries(
                    [...s.querySelectorAll('[data-payout] [data-bet]')]
                    .map(b => [b.dataset.bet, Number(b.dataset.net)]))]))"""
        )

    def screenshot(self, name: str):
        SCREENSHOTS.mkdir(exist_ok=True)
        self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    def metrics(self) -> dict:
        return self.page.evaluate("window.tabletMetrics")


def summary(timings: list[float]) -> str:
    ordered = sorted(timings)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms over {len(ordered)} taps"


def page_weight() -> dict:
    sizes = {"js": 0, "css": 0}
    for path in TABLET_STATIC.iterdir():
        if path.suffix in (".js", ".css"):
            sizes[path.suffix[1:]] += path.stat().st_size
    return sizes


def axe_violations(page, impacts=("serious", "critical")) -> list[dict]:
    """axe-core's violations of `impacts` on the page as it stands (axe injected once)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text())  # not a <script> tag: the CSP refuses inline ones
    return page.evaluate(
        """async (impacts) => {
            const result = await axe.run(document, { resultTypes: ["violations"] });
            return result.violations.filter(v => impacts.includes(v.impact)).map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(" ")),
            }));
        }""",
        list(impacts),
    )
