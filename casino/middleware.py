from django.utils import translation


class StaffLanguageMiddleware:
    """A logged-in staff member's language wins over the browser's; a tablet may pin its own
    with the `tapis_device_language` cookie (the tablet belongs to the table, not the person)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        device = request.COOKIES.get("tapis_device_language")
        user = getattr(request, "user", None)
        language = device or (
            getattr(user, "language", "") if user and user.is_authenticated else ""
        )
        if language in {"fr", "en"}:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
