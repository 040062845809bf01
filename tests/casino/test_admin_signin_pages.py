"""The small things of the sign-in pages and the display token: the password page looks like
the PIN page, the tablet's sign-in page has one language switch, French puts its no-break
space before a colon, and the display page's link is a link."""

import re
from pathlib import Path

from django.conf import settings
from django.urls import reverse

SIGNIN_CSS = Path(settings.BASE_DIR) / "casino/static/casino/signin.css"


def test_the_password_page_is_styled_like_the_pin_page(client, db):
    password = client.get(reverse("casino:login")).content.decode()
    pin = client.get(reverse("casino:pin_login")).content.decode()
    for page in (password, pin):
        assert 'class="pin-login"' in page and "casino/signin" in page
        assert 'class="pin-form' in page and "key-ok" in page
    assert "<p><label" not in password  # no longer the bare form.as_p


def test_the_tablet_sign_in_page_has_one_language_switch(client, db):
    page = client.get(reverse("casino:pin_login")).content.decode()
    assert page.count('class="device-language"') == 1
    # The top bar's switch is drawn by base.html on every page; this page's style hides it,
    # leaving the tablet's own switch (French, English, each person's own).
    assert 'data-signin="pin"' in page and 'class="inline lang"' in page
    css = SIGNIN_CSS.read_text()
    assert re.search(
        r'body:has\(\[data-signin="pin"\]\) \.topbar form\.lang \{ display: none; \}', css
    )


def test_the_tablet_language_label_has_no_bare_colon(client, db):
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("casino:pin_login"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Langue de cette tablette" in page
    assert "tablette</span>" in page and "tablette:" not in page


def test_an_issued_display_token_links_to_its_display_page(client, manager):
    from tests.jackpot.factories import make_bank

    bank = make_bank(manager=manager)
    client.force_login(manager)
    response = client.post(
        reverse("jackpot:display_issue"), {"bank": bank.slug, "name": "Salle", "language": "fr"}
    )
    page = response.content.decode()
    link = re.search(r'<a href="([^"]+)"[^>]*data-display-url', page)
    assert link is not None, page[:2000]
    assert link.group(1).startswith("http://testserver/display/") and "token=" in link.group(1)
