"""The HTTP feed, the display page and the manager's display pages."""

import pytest
from django.test import Client
from django.urls import reverse

from casino.models import AuditEntry
from casino.roles import Role
from jackpot.models import DisplayToken
from tests.factories import make_staff

pytestmark = pytest.mark.django_db


def test_http_feed_returns_the_snapshot_with_a_query_token(client, display):
    response = client.get("/api/jackpot/grand/", {"token": display[1]})
    assert response.status_code == 200
    body = response.json()
    assert body["type"] == "snapshot" and body["bank"] == "grand"
    assert body["levels"][1] == {
        "level": "straight_flush",
        "label": "Quinte flush",
        "amount_cents": 123_456,
    }
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert response["Access-Control-Allow-Origin"] == "*"  # browser-based signage players


def test_http_feed_accepts_the_authorization_header(client, english_display):
    response = client.get(
        "/api/jackpot/grand/", headers={"Authorization": f"Token {english_display[1]}"}
    )
    assert response.status_code == 200
    assert response.json()["levels"][0]["label"] == "Royal flush"


def test_http_feed_without_token_is_403_with_a_clear_error(client, bank):
    response = client.get("/api/jackpot/grand/")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "display_token_refused"


def test_http_feed_with_revoked_token_is_403_and_changes_nothing(client, revoked_display):
    token, raw = revoked_display
    audit_before = AuditEntry.objects.count()
    response = client.get("/api/jackpot/grand/", {"token": raw})
    assert response.status_code == 403
    assert "révoqué" in response.json()["error"]["message"]  # French is the default language
    assert DisplayToken.objects.get(pk=token.pk).last_seen_at is None
    assert AuditEntry.objects.count() == audit_before


def test_http_feed_for_an_unknown_bank_is_404(client, display):
    response = client.get("/api/jackpot/nowhere/", {"token": display[1]})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "bank_not_found"


def test_http_feed_with_a_token_of_another_bank_is_403(client, display, other_bank):
    assert client.get("/api/jackpot/petit/", {"token": display[1]}).status_code == 403


def test_http_poll_marks_the_display_as_seen(client, display):
    client.get("/api/jackpot/grand/", {"token": display[1]})
    assert DisplayToken.objects.get(pk=display[0].pk).last_seen_at is not None


def test_display_page_speaks_the_displays_language(client, display, english_display):
    fr = client.get("/display/grand/", {"token": display[1]}, follow=True)
    en = Client().get("/display/grand/", {"token": english_display[1]}, follow=True)
    assert fr.status_code == en.status_code == 200
    assert "JACKPOT INDISPONIBLE" in fr.content.decode()
    assert "JACKPOT NOT AVAILABLE" in en.content.decode()
    assert 'data-ws-path="/ws/jackpot/grand/"' in fr.content.decode()
    assert fr["Referrer-Policy"] == "no-referrer"


def test_display_page_refuses_a_revoked_token_and_an_unknown_bank(client, revoked_display, display):
    assert client.get("/display/grand/", {"token": revoked_display[1]}).status_code == 403
    assert client.get("/display/nowhere/", {"token": display[1]}).status_code == 404


def test_manager_sees_tokens_and_connected_displays(client, manager, display):
    client.force_login(manager)
    page = client.get(reverse("jackpot:displays")).content.decode()
    assert "Entrée salle" in page
    assert 'action="/jackpot/displays/issue/"' in page


def test_auditor_may_view_but_not_issue(client, auditor, bank):
    client.force_login(auditor)
    page = client.get(reverse("jackpot:displays"))
    assert page.status_code == 200
    assert 'action="/jackpot/displays/issue/"' not in page.content.decode()
    response = client.post(reverse("jackpot:display_issue"), {"bank": "grand", "name": "Hall"})
    assert response.status_code == 403
    assert not DisplayToken.objects.filter(name="Hall").exists()


def test_dealer_cannot_see_the_displays_page(client, dealer, bank):
    client.force_login(dealer)
    assert client.get(reverse("jackpot:displays")).status_code == 403


def test_manager_issues_a_token_shown_once_with_its_display_url(client, manager, bank):
    client.force_login(manager)
    response = client.post(
        reverse("jackpot:display_issue"), {"bank": "grand", "name": "Hall", "language": "en"}
    )
    assert response.status_code == 200
    token = DisplayToken.objects.get(name="Hall")
    raw = response.context["raw"]
    assert "/display/grand/?token=" + raw in response.content.decode()
    assert raw not in token.token_hash and len(token.token_hash) == 64
    assert (token.language, token.issued_by) == ("en", manager)
    assert (
        AuditEntry.objects.filter(code="jackpot.display_token.issued", actor=manager).count() == 1
    )


def test_issuing_a_duplicate_name_is_a_clear_error(client, manager, display):
    client.force_login(manager)
    response = client.post(
        reverse("jackpot:display_issue"), {"bank": "grand", "name": "Entrée salle"}
    )
    assert response.status_code == 400
    assert DisplayToken.objects.filter(name="Entrée salle").count() == 1


def test_manager_revokes_a_token_from_the_page(client, manager, display):
    client.force_login(manager)
    response = client.post(reverse("jackpot:display_revoke", args=[display[0].pk]))
    assert response.status_code == 302
    token = DisplayToken.objects.get(pk=display[0].pk)
    assert token.revoked_at is not None and token.revoked_by == manager
    assert client.get("/api/jackpot/grand/", {"token": display[1]}).status_code == 403


def test_supervisor_cannot_revoke(client, display):
    client.force_login(make_staff(Role.SUPERVISOR))
    assert client.post(reverse("jackpot:display_revoke", args=[display[0].pk])).status_code == 403
    assert DisplayToken.objects.get(pk=display[0].pk).revoked_at is None


def test_a_poll_costs_three_queries(client, display, django_assert_num_queries):
    # Signage players poll this: token with its bank, the property's currency, recent hits.
    client.get("/api/jackpot/grand/", {"token": display[1]})  # first poll also marks it seen
    with django_assert_num_queries(3):
        assert client.get("/api/jackpot/grand/", {"token": display[1]}).status_code == 200


def test_display_page_trades_its_token_for_a_cookie_and_drops_it_from_the_address(client, display):
    token, raw = display
    response = client.get("/display/grand/", {"token": raw})

    assert response.status_code == 303 and response["Location"] == "/display/grand/"
    assert response["Referrer-Policy"] == "no-referrer"
    cookie = response.cookies["tapis_display_grand"]
    assert cookie.value == raw and cookie["httponly"] and cookie["samesite"] == "Lax"
    page = client.get("/display/grand/")  # the browser sends the cookie back
    assert page.status_code == 200 and raw not in page.content.decode()


def test_display_page_without_token_or_cookie_is_refused(client, display):
    assert client.get("/display/grand/").status_code == 403


def test_display_page_cookie_stops_working_when_the_token_is_revoked(client, display):
    from jackpot.display_tokens import display_token_revoke

    client.get("/display/grand/", {"token": display[1]})
    display_token_revoke(token_id=display[0].pk)
    assert client.get("/display/grand/").status_code == 403


def test_display_page_script_builds_a_socket_address_without_the_token():
    from pathlib import Path

    from django.conf import settings

    script = (Path(settings.BASE_DIR) / "static/jackpot/display.js").read_text()
    assert "?token=" not in script and "location.search" not in script
