import time

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import redirect_to_login
from django.http import JsonResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import csrf
from django.views.decorators.http import require_http_methods, require_POST

from casino.access import public, role_required, wants_json
from casino.errors import CasinoError
from casino.ids import db_id
from casino.middleware import SUPPORTED, signed_out_notice
from casino.models import Staff
from casino.pins import pin_login, staff_pin_unlock
from casino.reauth import CurrentSecretRefused, current_secret_confirm
from casino.roles import Role, has_role
from casino.signin import (
    SigninThrottled,
    answer_no_sooner,
    refused_message,
    throttle_check,
)
from casino.staffing import staff_secrets_change

ALL_ROLES = tuple(Role)
# Whoever holds only these roles has no floor page: they land on the player file.
OFF_FLOOR_ROLES = (Role.HOST, Role.COMPLIANCE)
# A tablet's language outlives a shift: ten years.
DEVICE_COOKIE_AGE = 10 * 365 * 24 * 3600


def home_url(user) -> str:
    """Where a sign-in lands: the floor, or the admin for a staff administrator (who holds
    no floor role)."""
    if has_role(user, Role.STAFF_ADMIN):
        return resolve_url("admin:index")
    if has_role(user, *OFF_FLOOR_ROLES) and not has_role(
        user, Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR
    ):
        return "/players/"
    return resolve_url(settings.LOGIN_REDIRECT_URL)


class StaffAuthenticationForm(AuthenticationForm):
    def get_invalid_login_error(self):
        # One answer for an unknown name, a wrong password and a locked account.
        return forms.ValidationError(refused_message("password"), code="invalid_login")


class StaffLoginView(auth_views.LoginView):
    """The password sign-in; the lockout and the throttle's counting are casino.backends'."""

    template_name = "casino/login.html"
    redirect_authenticated_user = True
    authentication_form = StaffAuthenticationForm

    def get_default_redirect_url(self):
        return home_url(self.request.user)

    def post(self, request, *args, **kwargs):
        started = time.monotonic()
        try:
            throttle_check(request)
        except SigninThrottled as exc:
            # The form is not even read: a blocked source gets no answer about its guess.
            context = self.get_context_data(form=self.form_class(request), throttled=exc.message)
            return self.render_to_response(context, status=exc.http_status, headers=exc.headers)
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form came back: refused
            answer_no_sooner(started)
        return response


login_view = public(StaffLoginView.as_view())


def _next(request, default: str | None = None) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    # A path on this site only: "1234" would be taken for a URL name (NoReverseMatch, a 500).
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url(default) if default else home_url(request.user)


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
    status, headers = 200, {}
    if request.method == "POST":
        number = request.POST.get("employee_number", "").strip()
        try:
            # Throttled, counted and held to the answer floor inside, as /api/login is.
            pin_login(request, employee_number=number, pin=request.POST.get("pin", ""))
        except CasinoError as exc:
            error, status, headers = exc.message, exc.http_status, exc.headers
        else:
            return redirect(_next(request))
    notice = signed_out_notice(request.GET.get("signed_out", ""))
    context = {
        "error": error,
        "notice": notice,
        "employee_number": number,
        "next": request.GET.get("next", request.POST.get("next", "")),
        "keys": ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
    }
    response = render(request, "casino/pin_login.html", context, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


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
    return redirect(_next(request))


@role_required(Role.SUPERVISOR, Role.MANAGER)
@require_http_methods(["GET", "POST"])
def locked_pins_view(request):
    """Supervisors see whose PIN is locked and lift the lock (the unlock is audited)."""
    if request.method == "POST":
        try:
            staff = staff_pin_unlock(
                staff_id=db_id(request.POST.get("staff_id", "")) or 0, supervisor=request.user
            )
        except (CasinoError, ValueError) as exc:
            messages.error(request, getattr(exc, "message", str(exc)))
        else:
            messages.success(request, _("%(name)s's PIN is unlocked.") % {"name": staff})
        return redirect("casino:locked_pins")
    locked = Staff.objects.filter(pin_locked_until__gt=timezone.now()).order_by("pin_locked_until")
    return render(request, "casino/locked_pins.html", {"locked": locked})


class SecretsForm(forms.Form):
    # Asked first: a session left open must not choose its owner's secrets (casino.reauth).
    current = forms.CharField(
        label=gettext_lazy("current password or PIN"),
        strip=False,
        max_length=128,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    password = forms.CharField(
        label=gettext_lazy("new password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password_again = forms.CharField(
        label=gettext_lazy("new password again"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    pin = forms.CharField(
        label=gettext_lazy("new PIN"),
        required=False,
        max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    pin_again = forms.CharField(
        label=gettext_lazy("new PIN again"),
        required=False,
        max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, staff, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.staff = staff

    def clean(self):
        data = super().clean()
        for name, temporary, what in (
            ("password", self.staff.password_is_temporary, _("a new password")),
            ("pin", self.staff.pin_is_temporary, _("a new PIN")),
        ):
            if data.get(name) != data.get(f"{name}_again"):
                self.add_error(f"{name}_again", _("The two entries differ."))
            elif temporary and not data.get(name):
                self.add_error(name, _("Yours is temporary: choose %(what)s.") % {"what": what})
        if not data.get("password") and not data.get("pin"):
            raise forms.ValidationError(_("Choose a new password or a new PIN."))
        return data


@public
@require_http_methods(["GET", "POST"])
def change_secrets_view(request):
    """A staff member chooses their own password and/or PIN, after typing their current
    password or PIN (casino.reauth); the only page a temporary one opens
    (casino.middleware.TemporarySecretMiddleware). Checks its own credential: any signed-in
    person, whatever their roles (a new account may hold none yet)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = SecretsForm(request.user, request.POST if request.method == "POST" else None)
    status, headers = 200, {}
    if form.is_valid():
        try:
            current_secret_confirm(request, staff=request.user, secret=form.cleaned_data["current"])
            staff_secrets_change(
                staff=request.user,
                password=form.cleaned_data["password"] or None,
                pin=form.cleaned_data["pin"] or None,
            )
        except SigninThrottled as exc:
            form.add_error(None, exc.message)
            status, headers = exc.http_status, exc.headers
        except CurrentSecretRefused as exc:
            form.add_error("current", exc.message)
        except CasinoError as exc:
            form.add_error(None, exc.message)
        else:
            update_session_auth_hash(request, request.user)
            messages.success(request, _("Your new password or PIN is saved."))
            return redirect(_next(request))
    if form.errors and status == 200:
        status = 400
    response = render(
        request,
        "casino/change_secrets.html",
        {"form": form, "next": request.GET.get("next", request.POST.get("next", ""))},
        status=status,
    )
    for name, value in headers.items():
        response[name] = value
    return response


def csrf_failure(request, reason=""):
    """A refused CSRF check: the API's clients get the API's JSON error, pages Django's page."""
    if wants_json(request):
        message = _(
            "The request lacks a valid CSRF token: send the csrftoken cookie's value in X-CSRFToken."
        )
        return JsonResponse({"error": {"code": "csrf_failed", "message": message}}, status=403)
    return csrf.csrf_failure(request, reason=reason)
