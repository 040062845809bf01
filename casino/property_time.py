"""Times on the back-office pages read in the property's time zone, not the server's UTC.

The database keeps UTC; a Europe/Paris casino's manager reads a PIN lockout, a display
token's times or an admin list in Paris time. Only the pages people read times on activate
the zone: the tablets' and the pit's JSON and their query budgets are left alone.
"""

import zoneinfo

from django.utils import timezone

from casino import clock

# The pages that print times for people: the admin, the display tokens, the PIN locks, the
# player file.
PREFIXES = ("/admin/", "/jackpot/displays/", "/staff/locked-pins/", "/players/")


def property_zone() -> zoneinfo.ZoneInfo | None:
    prop = clock._property_and_shifts()[0]
    if prop is None or not prop.time_zone:
        return None
    try:
        return zoneinfo.ZoneInfo(prop.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class PropertyTimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        zone = property_zone() if signed_in and request.path.startswith(PREFIXES) else None
        if zone is None:
            return self.get_response(request)
        timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
