"""The display page, the HTTP feed, and the manager's display-token pages."""

import datetime as dt

from django import forms
from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.access import public, role_required
from casino.clock import current_property
from casino.errors import CasinoError
from casino.roles import Role, has_role
from jackpot import display_tokens
from jackpot.display_tokens import SEEN_EVERY_SECONDS, STALE_AFTER, cookie_name
from jackpot.feed import localize, snapshot
from jackpot.models import Bank, DisplayToken
from jackpot.selectors import displays_connected

# The display page's cookie lasts a year: a screen is switched on for years, and a kiosk that
# loses its cookies loads its configured address (with ?token=) again and trades it again.
COOKIE_MAX_AGE = 365 * 24 * 3600


def _raw_token(request, bank: str) -> str | None:
    if request.GET.get("token"):
        return request.GET["token"]
    scheme, _, credential = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "token" and credential.strip():
        return credential.strip()
    return request.COOKIES.get(cookie_name(bank)) or None


@public
@never_cache
@require_GET
def feed_http(request, bank: str):
    """GET /api/jackpot/<bank>/: the snapshot, for players that can only poll."""
    try:
        token = display_tokens.display_authorize(
            bank_slug=bank, raw_token=_raw_token(request, bank)
        )
    except CasinoError as exc:
        return JsonResponse(exc.as_json(), status=exc.http_status, headers=exc.headers)
    cutoff = timezone.now() - dt.timedelta(seconds=SEEN_EVERY_SECONDS)
    if token.last_seen_at is None or token.last_seen_at < cutoff:
        display_tokens.display_seen(token_id=token.pk)
    response = JsonResponse(localize(snapshot(token.bank), token.language))
    # Browser-based signage players may poll from their own origin. No cookie is involved
    # (the token is the credential), so any origin may read what its token allows.
    response["Access-Control-Allow-Origin"] = "*"
    return response


@public
@never_cache
@require_GET
def display_page(request, bank: str):
    """The full-screen page for a screen or TV; it renders the public feed only.

    Its address carries `?token=` once: the page trades it for a cookie and sends the screen
    to the same address without it, so the token is not left in the address bar, the
    history or a Referer, and the socket (authenticated by the cookie) carries none."""
    try:
        token = display_tokens.display_authorize(
            bank_slug=bank, raw_token=_raw_token(request, bank)
        )
    except CasinoError as exc:
        return render(request, "jackpot/display_error.html", {"error": exc}, status=exc.http_status)
    if request.GET.get("token"):
        response = redirect(reverse("jackpot:display", args=[bank]))
        response.status_code = 303
        response.set_cookie(
            cookie_name(bank),
            request.GET["token"],
            max_age=COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
        response["Referrer-Policy"] = "no-referrer"
        return response
    prop = current_property()
    with translation.override(token.language):
        response = render(
            request,
            "jackpot/display.html",
            {
                "bank": token.bank,
                "bank_name": token.bank.name_in(token.language),
                "display": token,
                "currency": prop.currency if prop else "EUR",
                "ws_path": f"/ws/jackpot/{token.bank.slug}/",
                "http_path": reverse("jackpot:feed", args=[token.bank.slug]),
            },
        )
    # A first address with ?token= may still be in a player's history: never leak it.
    response["Referrer-Policy"] = "no-referrer"
    return response


def _displays_context(request, **extra) -> dict:
    # Only screens whose socket renewed its row lately: a row a dead server left behind is
    # not a connected screen, even before the sweep removes it.
    connections = displays_connected(since=timezone.now() - STALE_AFTER)
    return {
        "tokens": DisplayToken.objects.select_related("bank", "issued_by", "revoked_by").order_by(
            "bank__slug", "revoked_at", "name"
        ),
        "connections": connections,
        "banks": Bank.objects.order_by("name"),
        "can_manage": has_role(request.user, Role.MANAGER),
        **extra,
    }


@role_required(Role.MANAGER, Role.AUDITOR)
@require_GET
def displays(request):
    """Jackpot displays: tokens issued and revoked, and which screens are connected now."""
    return render(request, "jackpot/displays.html", _displays_context(request))


class DisplayTokenForm(forms.Form):
    """What the manager posts. Django's CharField refuses NUL bytes; the lengths are the
    columns', so a hostile value is a form error before it can be a DataError (a 500)."""

    bank = forms.SlugField(max_length=50)
    name = forms.CharField(max_length=DisplayToken._meta.get_field("name").max_length)
    language = forms.ChoiceField(choices=[(code, code) for code in display_tokens.LANGUAGES])


def _form_errors(form: forms.Form) -> str:
    labels = {"bank": _("Bank"), "name": _("Display name"), "language": _("Language")}
    return " ".join(
        f"{labels.get(field, field)}: {' '.join(messages)}"
        for field, messages in form.errors.items()
    )


@role_required(Role.MANAGER)
@require_POST
def display_issue(request):
    form = DisplayTokenForm({"language": "fr", **request.POST.dict()})
    if not form.is_valid():
        return render(
            request,
            "jackpot/displays.html",
            _displays_context(request, error=_form_errors(form)),
            status=400,
        )
    try:
        token, raw = display_tokens.display_token_issue(
            bank_slug=form.cleaned_data["bank"],
            name=form.cleaned_data["name"],
            language=form.cleaned_data["language"],
            issued_by=request.user,
        )
    except CasinoError as exc:
        return render(
            request,
            "jackpot/displays.html",
            _displays_context(request, error=exc.message),
            status=exc.http_status,
        )
    # Shown once: only the hash is kept.
    url = request.build_absolute_uri(reverse("jackpot:display", args=[token.bank.slug]))
    return render(
        request,
        "jackpot/display_issued.html",
        {"token": token, "raw": raw, "display_url": f"{url}?token={raw}"},
    )


@role_required(Role.MANAGER)
@require_POST
def display_revoke(request, pk: int):
    try:
        token = display_tokens.display_token_revoke(token_id=pk, revoked_by=request.user)
    except CasinoError as exc:
        return render(
            request,
            "jackpot/displays.html",
            _displays_context(request, error=exc.message),
            status=exc.http_status,
        )
    messages.success(
        request, _("Display “%(name)s” revoked: its screen closes.") % {"name": token.name}
    )
    return redirect("jackpot:displays")
