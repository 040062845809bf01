"""Content-Security-Policy, X-Frame-Options, no-store on sign-in and personal pages, request
size limits (issue 11 item 7). They are the house's, not only the jackpot's; they live here
because the displays engineer owns them (casino/settings.py, casino/middleware.py)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.e2e.conftest import asgi_server, browser_page  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

SIGN_IN_PAGES = ["/login/", "/login/pin/", "/admin/login/"]


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parts = [part.strip().split() for part in header.split(";") if part.strip()]
    return {part[0]: part[1:] for part in parts}


@pytest.mark.parametrize("path", SIGN_IN_PAGES)
def test_sign_in_pages_are_never_stored_and_carry_the_policy(client, casino_property, path):
    response = client.get(path)
    assert response.status_code == 200
    cache = {value.strip() for value in response["Cache-Control"].split(",")}
    assert {"no-store", "private"} <= cache
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # no nonce asked for, no inline script allowed
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]


def test_a_signed_in_persons_pages_are_never_stored(client, manager):
    client.force_login(manager)
    response = client.get(reverse("jackpot:displays"))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_an_anonymous_public_answer_keeps_its_own_caching(client, casino_property):
    from jackpot.display_tokens import display_token_issue
    from tests.jackpot.display.support import make_bank

    make_bank()
    _, raw = display_token_issue(bank_slug="grand", name="Hall")
    response = client.get("/api/jackpot/grand/", HTTP_AUTHORIZATION=f"Token {raw}")
    assert response.status_code == 200 and "Content-Security-Policy" in response


def test_no_answer_may_be_framed_not_even_one_a_middleware_makes(client, manager):
    """X-Frame-Options on a page and on the redirect that a temporary password forces
    (casino.middleware.TemporarySecretMiddleware answers before any view)."""
    client.force_login(manager)
    page = client.get(reverse("jackpot:displays"))
    assert page.status_code == 200 and page["X-Frame-Options"] == "DENY"
    type(manager).objects.filter(pk=manager.pk).update(password_is_temporary=True)
    forced = client.get(reverse("jackpot:displays"))
    assert forced.status_code == 302
    assert forced["Location"].startswith(reverse("casino:change_secrets"))
    assert forced["X-Frame-Options"] == "DENY"


def test_a_request_body_over_the_limit_is_refused_before_it_is_read(client, casino_property):
    body = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post("/login/", {"username": "a", "password": body})
    assert response.status_code == 400
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 256 * 1024


# --- nothing inline in any template (the policy refuses it) --------------------------------

INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)(?![^>]*nonce=)[^>]*>"), "script"),
    (re.compile(r"<style(?![^>]*nonce=)[^>]*>"), "<style>"),
    (re.compile(r"\sstyle=\""), "style attribute"),
    (re.compile(r"\son[a-z]+=\""), "event handler attribute"),
]  # fmt: skip


def project_templates() -> list[Path]:
    base = Path(settings.BASE_DIR)
    found = list((base / "templates").rglob("*.html"))
    for app in ("casino", "jackpot", "tables"):
        found += [p for p in (base / app).rglob("templates/**/*.html")]
    return sorted(set(found))


def test_no_template_has_an_inline_script_style_or_handler():
    offenders = []
    for path in project_templates():
        text = path.read_text()
        for pattern, what in INLINE:
            for match in pattern.finditer(text):
                offenders.append(f"{path.relative_to(settings.BASE_DIR)}: {what}: {match[0]}")
    assert project_templates() and offenders == []


# --- in Chromium: the pages work under the policy ------------------------------------------


@pytest.mark.e2e
@pytest.mark.slow
def test_pages_load_in_chromium_without_a_policy_violation(
    asgi_server,  # noqa: F811
    browser_page,  # noqa: F811
    casino_property,
    manager,
):
    from django.test import Client

    from jackpot.display_tokens import display_token_issue
    from tests.jackpot.display.support import make_bank

    make_bank()
    _, raw = display_token_issue(bank_slug="grand", name="Hall")
    staff = Client()
    staff.force_login(manager)
    page = browser_page
    violations = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    for path in SIGN_IN_PAGES:
        page.goto(f"{asgi_server.url}{path}")
    page.goto(f"{asgi_server.url}/display/grand/?token={raw}")
    page.wait_for_selector('#jackpot-display[data-state="live"]', timeout=10_000)  # socket open
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": staff.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": asgi_server.url,
            }
        ]
    )
    for name in ("jackpot:displays", "admin:index"):
        response = page.goto(f"{asgi_server.url}{reverse(name)}")
        assert response.status == 200, name
    page.goto(f"{asgi_server.url}/admin/jackpot/displaytoken/")
    assert violations == []
