import time

from django.conf import settings
from django.contrib.auth import logout
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from casino.access import wants_json
from casino.audit import atomic_audit
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
    """`Server-Timing: app;dur=<ms>, db;dur=<ms>;desc="<n> queries"` on every response: the
    time the application spent on the request, without the network or the wait for a worker
    thread, and the part of it spent waiting on the database's answers to its statements, so
    that a client such as `simulate_floor` can report the server's own time beside its targets
    and tell the database's share from Python's.

    Never to an anonymous client's POST (or any other method that may carry a credential: a
    sign-in, refused or throttled): there the time of the work was an oracle on the PIN check
    (issue 23: a right PIN ranked first by its Server-Timing). An anonymous GET reads a page and
    checks no credential."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        spent = [0.0, 0]

        def timed(execute, sql, params, many, context):
            began = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                spent[0] += time.perf_counter() - began
                spent[1] += 1

        started = time.perf_counter()
        with connection.execute_wrapper(timed):
            response = self.get_response(request)
        elapsed = (time.perf_counter() - started) * 1000
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        if not signed_in and request.method not in {"GET", "HEAD"}:
            return response
        response.headers["Server-Timing"] = (
            f'app;dur={elapsed:.1f}, db;dur={spent[0] * 1000:.1f};desc="{spent[1]} queries"'
        )
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


# Session keys of a shared tablet's sign-in: when it began, when it was last used.
SHARED_SINCE = "tapis_shared_since"
SHARED_SEEN = "tapis_shared_seen"
TABLET_BINDING_COOKIE = "tapis_tablet_binding"  # tables.devices.cookie.BINDING_COOKIE


def shared_session_start(request) -> None:
    """Mark this sign-in as made on a shared tablet (a PIN sign-in): it lasts a shift at most
    and ends after SHARED_TABLET_IDLE_MINUTES without a request."""
    now = time.time()
    request.session[SHARED_SINCE] = now
    request.session[SHARED_SEEN] = now
    request.session.set_expiry(settings.SHARED_TABLET_SESSION_MINUTES * 60)


def signed_out_notice(reason: str) -> str:
    """What the sign-in page says after SharedTabletSessionMiddleware ended a session."""
    if reason == "idle":
        minutes = settings.SHARED_TABLET_IDLE_MINUTES
        return _("Signed out after %(minutes)d minutes without activity: sign in again.") % {
            "minutes": minutes
        }
    if reason == "shift":
        return _("A sign-in on a shared tablet lasts one shift at most: sign in again.")
    return ""


class SharedTabletSessionMiddleware:
    """Ends a sign-in on a shared tablet (made with a PIN, or on a tablet bound to a table)
    after SHARED_TABLET_IDLE_MINUTES without a request, or SHARED_TABLET_SESSION_MINUTES (a
    shift) after it began, whichever comes first: the next person at the table must not act
    under the last one's name. Password sign-ins elsewhere keep Django's session age."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            session = request.session
            if SHARED_SINCE in session or request.COOKIES.get(TABLET_BINDING_COOKIE):
                reason = self._expired(session)
                if reason:
                    return self._sign_out(request, reason)
        return self.get_response(request)

    @staticmethod
    def _expired(session) -> str:
        now = time.time()
        since = session.setdefault(SHARED_SINCE, now)
        seen = session.get(SHARED_SEEN, now)
        idle = settings.SHARED_TABLET_IDLE_MINUTES * 60
        if now - since > settings.SHARED_TABLET_SESSION_MINUTES * 60:
            return "shift"
        if now - seen > idle:
            return "idle"
        # Saved at most every minute (a session write per request would be wasteful): the
        # sign-out may then come up to that much early.
        if now - seen >= min(60, idle / 4) or SHARED_SEEN not in session:
            session[SHARED_SEEN] = now
        return ""

    @staticmethod
    def _sign_out(request, reason: str):
        atomic_audit(
            actor=request.user,
            code="casino.session.ended",
            subject=request.user,
            data={"reason": reason},
        )
        logout(request)
        notice = signed_out_notice(reason)
        if wants_json(request):
            return JsonResponse(
                {"error": {"code": "signed_out", "message": notice, "reason": reason}}, status=401
            )
        page = reverse("casino:pin_login")
        query = urlencode({"signed_out": reason, "next": request.get_full_path()})
        return redirect(f"{page}?{query}")


class NoStoreMiddleware:
    """`Cache-Control: no-store` (with Django's never-cache headers) on the sign-in pages and
    on every answer to a signed-in person: a shared tablet's or a back-office browser's cache
    must not keep a PIN form, a person's data or a float count for the next user to find with
    the Back button. Static files are served before this (WhiteNoise) and keep their caching."""

    SIGN_IN_VIEWS = frozenset(
        {
            "casino:login",
            "casino:pin_login",
            "casino:change_secrets",
            "admin:login",
            "admin:password_change",
        }
    )

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        if signed_in or (match is not None and match.view_name in self.SIGN_IN_VIEWS):
            add_never_cache_headers(response)
        return response
