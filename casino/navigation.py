"""The top bar: each person sees what they may open, nothing they may not.

Each entry is a path; whether to show it is asked of the view behind it (the roles its
`role_required` admits), so the bar can never offer a page the gate refuses, and `casino`
needs to import nothing from the apps above it.
"""

from django.urls import Resolver404, resolve
from django.utils.translation import gettext_lazy as _

from casino.roles import role_names

ENTRIES = (
    ("/", _("Floor")),
    ("/tablet/", _("Tablet")),
    ("/pit/", _("Pit")),
    ("/jackpot/displays/", _("Displays")),
    ("/staff/locked-pins/", _("Locked PINs")),
    ("/reports/", _("Reports")),
    ("/players/", _("Players")),
    ("/comps/", _("Comps")),
    ("/compliance/aml/", _("Anti-money-laundering log")),
)


def _admits(path: str, roles: set[str]) -> bool:
    try:
        view = resolve(path).func
    except Resolver404:
        return False
    allowed = getattr(view, "allowed_roles", None)
    return isinstance(allowed, frozenset) and bool(allowed & roles)


def navigation(request) -> list[dict]:
    user = getattr(request, "user", None)
    roles = role_names(user)
    if not roles:
        return []
    here = request.path
    entries = [
        {
            "path": path,
            "label": label,
            "current": here == path or (path != "/" and here.startswith(path)),
        }
        for path, label in ENTRIES
        if _admits(path, roles)
    ]
    if user.is_staff:
        entries.append(
            {"path": "/admin/", "label": _("Admin"), "current": here.startswith("/admin/")}
        )
    return entries
