"""Every answer under /api/ is JSON, errors included (docs/reference/api-errors.md).

The views answer their own refusals as JSON; what Django answers before or around them (an
address no route matches, a method the view does not take, a body over the size limit, a
crash) was an HTML page. This middleware gives those the API's error shape instead.
"""

from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext as _

API_PREFIX = "/api/"


def too_large_message() -> str:
    return _("The request body is larger than %(kib)s KiB.") % {
        "kib": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
    }


def _messages() -> dict[int, tuple[str, str]]:
    return {
        400: ("bad_request", _("The request cannot be read.")),
        403: ("forbidden", _("This request is not allowed.")),
        404: ("not_found", _("There is nothing at this address.")),
        405: ("method_not_allowed", _("This address does not take this method.")),
        413: ("too_large", too_large_message()),
        500: ("server_error", _("The server failed to answer: the request may be retried.")),
    }


def api_error(status: int) -> JsonResponse:
    code, message = _messages().get(status, _messages()[500 if status >= 500 else 400])
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class ApiErrorsMiddleware:
    """Under /api/: a body declared larger than DATA_UPLOAD_MAX_MEMORY_SIZE is a 413 before
    anything reads it (Django would raise RequestDataTooBig wherever it is first read: a 400
    page, or a 500 in a view); any answer of 400 or more that is not JSON becomes the API's
    JSON error with the same status (and its headers, such as a 405's Allow)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        if _declared_length(request) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return api_error(413)
        response = self.get_response(request)
        content_type = response.headers.get("Content-Type", "")
        if response.status_code >= 400 and not content_type.startswith("application/json"):
            replacement = api_error(response.status_code)
            for header in ("Allow", "Retry-After"):
                if header in response.headers:
                    replacement.headers[header] = response.headers[header]
            return replacement
        return response
