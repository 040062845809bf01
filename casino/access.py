"""Deny by default: every view names the roles it admits, and this is the only gate.

`tests/casino/test_access.py` walks every URL pattern and fails when a view is neither
`role_required` nor `public`, then checks each role against each view.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from casino.errors import RoleRequired
from casino.roles import has_role, role_list


def public(view):
    """Mark a view as reachable without a staff login (the login itself, or a view that
    checks its own credential, such as a display token)."""
    view.allowed_roles = "public"
    return view


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get(
        "Accept", ""
    )


def role_required(*roles: str):
    """Admit staff holding any of `roles`; anonymous users go to the login, others get 403."""

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            user = request.user
            if has_role(user, *roles):
                return view(request, *args, **kwargs)
            if wants_json(request):
                if not user.is_authenticated:
                    message = _("Log in first.")
                    return JsonResponse(
                        {"error": {"code": "login_required", "message": message}}, status=401
                    )
                err = RoleRequired(
                    _("This needs the role: %(roles)s.") % {"roles": role_list(roles)}
                )
                return JsonResponse(err.as_json(), status=403)
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            return render(request, "403.html", {"roles": role_list(roles)}, status=403)

        wrapper.allowed_roles = frozenset(str(r) for r in roles)
        return wrapper

    return decorate
