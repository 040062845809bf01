import time

from django.conf import settings
from django.utils import translation

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
