from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import csrf
from django.views.decorators.http import require_http_methods, require_POST

from casino.access import public, role_required, wants_json
from casino.errors import CasinoError
from casino.middleware import SUPPORTED
from casino.models import Staff
from casino.pins import pin_login, staff_pin_unlock
from casino.roles import Role

ALL_ROLES = (Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)
# A tablet's language outlives a shift: ten years.
DEVICE_COOKIE_AGE = 10 * 365 * 24 * 3600

login_view = public(
    auth_views.LoginView.as_view(
        template_name="casino/login.html", redirect_authenticated_user=True
    )
)


def _next(request, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url(default)


@public
@require_POST
def logout_view(request):
    logout(request)
    return redirect("casino:login")


@public
@require_http_methods(["GET", "POST"])
def pin_login_view(request):
    """The tablet login: employee number and PIN on a keypad; checks its own credential."""
    error = ""
    number = ""
    if request.method == "POST":
        number = request.POST.get("employee_number", "").strip()
        try:
            pin_login(request, employee_number=number, pin=request.POST.get("pin", ""))
        except CasinoError as exc:
            error = exc.message
        else:
            return redirect(_next(request, settings.LOGIN_REDIRECT_URL))
    context = {
        "error": error,
        "employee_number": number,
        "next": request.GET.get("next", request.POST.get("next", "")),
        "keys": ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
    }
    return render(request, "casino/pin_login.html", context, status=403 if error else 200)


@public
@require_POST
def device_language_view(request):
    """Pin this device (a table's tablet) to a language, or clear it with an empty value."""
    language = request.POST.get("language", "")
    response = redirect(_next(request, "casino:pin_login"))
    if language in SUPPORTED:
        response.set_cookie(
            settings.DEVICE_LANGUAGE_COOKIE,
            language,
            max_age=DEVICE_COOKIE_AGE,
            samesite="Lax",
            secure=request.is_secure(),
        )
    else:
        response.delete_cookie(settings.DEVICE_LANGUAGE_COOKIE)
    return response


@role_required(*ALL_ROLES)
@require_POST
def my_language_view(request):
    """A staff member's own language, kept on their record (empty: follow the browser)."""
    language = request.POST.get("language", "")
    if language not in SUPPORTED:
        language = ""
    request.user.language = language
    request.user.save(update_fields=["language"])
    return redirect(_next(request, settings.LOGIN_REDIRECT_URL))


@role_required(Role.SUPERVISOR, Role.MANAGER)
@require_http_methods(["GET", "POST"])
def locked_pins_view(request):
    """Supervisors see whose PIN is locked and lift the lock (the unlock is audited)."""
    if request.method == "POST":
        try:
            staff = staff_pin_unlock(
                staff_id=int(request.POST.get("staff_id", "0") or 0), supervisor=request.user
            )
        except (CasinoError, ValueError) as exc:
            messages.error(request, getattr(exc, "message", str(exc)))
        else:
            messages.success(request, _("%(name)s's PIN is unlocked.") % {"name": staff})
        return redirect("casino:locked_pins")
    locked = Staff.objects.filter(pin_locked_until__gt=timezone.now()).order_by("pin_locked_until")
    return render(request, "casino/locked_pins.html", {"locked": locked})


def csrf_failure(request, reason=""):
    """A refused CSRF check: the API's clients get the API's JSON error, pages Django's page."""
    if wants_json(request):
        message = _(
            "The request lacks a valid CSRF token: send the csrftoken cookie's value in X-CSRFToken."
        )
        return JsonResponse({"error": {"code": "csrf_failed", "message": message}}, status=403)
    return csrf.csrf_failure(request, reason=reason)
