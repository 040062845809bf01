"""The credential a bound tablet's browser keeps: a long-lived cookie that scripts cannot
read (HttpOnly), sent on the site's own pages and top-level navigations only (SameSite=Lax),
over HTTPS only in production (Secure)."""

from django.conf import settings

from tables.models import DeviceBinding
from tables.services.devices import device_binding_for, token_hash

BINDING_COOKIE = "tapis_tablet_binding"
# A tablet stays at its table for years; revoking the binding, not the cookie's age, ends it.
BINDING_COOKIE_AGE = 10 * 365 * 24 * 3600


def binding_credential(request) -> str | None:
    return request.COOKIES.get(BINDING_COOKIE) or None


def request_binding(request) -> DeviceBinding | None:
    """The active binding of the browser that sent `request`, or None."""
    return device_binding_for(binding_credential(request))


def carries(request, binding: DeviceBinding) -> bool:
    """Is `request` from the tablet `binding` was given to?"""
    raw = binding_credential(request)
    return raw is not None and token_hash(raw) == binding.token_hash


def set_binding_cookie(response, request, raw_token: str) -> None:
    response.set_cookie(
        BINDING_COOKIE,
        raw_token,
        max_age=BINDING_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE or request.is_secure(),
    )


def clear_binding_cookie(response) -> None:
    response.delete_cookie(BINDING_COOKIE, samesite="Lax")
