"""The supervisor's tablet bindings: the list (with revoke buttons) and, on the tablet
itself, "Bind this tablet", confirmed by the supervisor's own PIN."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.access import role_required
from casino.clock import current_property
from casino.errors import CasinoError
from casino.pins import pin_verify
from casino.roles import Role, has_role
from tables.devices.cookie import (
    binding_credential,
    carries,
    clear_binding_cookie,
    request_binding,
    set_binding_cookie,
)
from tables.models import DeviceBinding, Table
from tables.services.devices import BINDING_ROLES, NAME_MAX_LENGTH, device_bind, device_revoke

# The list keeps every active binding and the latest revoked ones (the audit log keeps all).
REVOKED_SHOWN = 50


def _zone():
    prop = current_property()
    return prop.zone if prop is not None else timezone.get_current_timezone()


@role_required(Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)
@require_GET
def device_list(request):
    bindings = DeviceBinding.objects.select_related("table", "bound_by", "revoked_by")
    return render(
        request,
        "tables/devices/list.html",
        {
            "active": bindings.filter(revoked_at__isnull=True).order_by("table__name", "name"),
            "revoked": bindings.filter(revoked_at__isnull=False).order_by("-revoked_at")[
                :REVOKED_SHOWN
            ],
            "this_tablet": request_binding(request),
            "can_manage": has_role(request.user, *BINDING_ROLES),
            "zone": _zone(),
        },
    )


@role_required(*BINDING_ROLES)
@require_http_methods(["GET", "POST"])
def device_bind_view(request):
    """Runs on the tablet being bound: the response gives this browser its credential."""
    current = request_binding(request)
    form = {
        "table": request.POST.get("table", request.GET.get("table", "")),
        "name": request.POST.get("name", current.name if current else ""),
    }
    error, status = "", 200
    if request.method == "POST":
        try:
            # The supervisor's PIN, typed on this tablet, proves they are at it now (a
            # session left open elsewhere cannot bind a tablet).
            pin_verify(
                employee_number=request.user.employee_number or "",
                pin=request.POST.get("pin", ""),
            )
            binding, raw = device_bind(
                table_id=form["table"],
                supervisor=request.user,
                name=form["name"],
                replaces=binding_credential(request),
            )
        except CasinoError as exc:
            error = exc.message
            status = exc.http_status
        else:
            messages.success(
                request,
                _("This tablet is now bound to %(table)s as “%(name)s”.")
                % {"table": binding.table, "name": binding.name},
            )
            response = redirect("tables:devices:list")
            set_binding_cookie(response, request, raw)
            return response
    context = {
        "tables": Table.objects.select_related("pit").order_by("pit__name", "name"),
        "form": form,
        "current": current,
        "error": error,
        "name_max_length": NAME_MAX_LENGTH,
        "keys": ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
    }
    return render(request, "tables/devices/bind.html", context, status=status)


@role_required(*BINDING_ROLES)
@require_POST
def device_revoke_view(request, binding_id: int):
    try:
        binding = device_revoke(binding_id=binding_id, supervisor=request.user)
    except CasinoError as exc:
        messages.error(request, exc.message)
        return redirect("tables:devices:list")
    messages.success(
        request,
        _("The tablet “%(name)s” no longer opens %(table)s.")
        % {"name": binding.name, "table": binding.table},
    )
    response = redirect("tables:devices:list")
    if carries(request, binding):
        clear_binding_cookie(response)
    return response
