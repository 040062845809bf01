import time

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from casino.access import wants_json
from casino.errors import SecretChangeRequired
from casino.money import reset_request_currency

SUPPORTED = {"fr", "en"}


def device_language(request) -> str:
    value = request.COOKIES.get(settings.DEVICE_LANGUAGE_COOKIE, "")
    return value if value in SUPPORTED else ""


class StaffLanguageMiddleware:
    """Which language a page speaks: the tablet's own (cookie `tapis_device_language`, since a
    tablet belongs to the table, not the person), else the staff member's, else what
    LocaleMiddleware chose (the `django_language` cookie, then the browser)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reset_request_currency()
        user = getattr(request, "user", None)
        language = device_language(request) or (
            getattr(user, "language", "") if user is not None and user.is_authenticated else ""
        )
        if language in SUPPORTED:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


class ServerTimingMiddleware:
    """`Server-Timing: app;dur=<ms>` on every response: the time the application spent on the
    request, without the network or the wait for a worker thread, so that a client such as
    `simulate_floor` can report the server's own time beside its targets."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = (time.perf_counter() - started) * 1000
        response.headers["Server-Timing"] = f"app;dur={elapsed:.1f}"
        return response


class TemporarySecretMiddleware:
    """A temporary password or PIN (set by a staff administrator, who knows it) opens one
    page only: the one where its owner chooses their own, whichever way they signed in."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and getattr(user, "must_change_secrets", False)
            and not self._exempt(request.path)
        ):
            if wants_json(request):
                error = SecretChangeRequired(
                    _("Your password or PIN is a temporary one: choose your own first.")
                )
                return JsonResponse(error.as_json(), status=error.http_status)
            page = reverse("casino:change_secrets")
            return redirect(f"{page}?{urlencode({'next': request.get_full_path()})}")
        return self.get_response(request)

    @staticmethod
    def _exempt(path: str) -> bool:
        allowed = (
            reverse("casino:change_secrets"),
            reverse("casino:logout"),
            reverse("casino:my_language"),
            reverse("casino:device_language"),
            settings.STATIC_URL,
        )
        return path.startswith(allowed)
