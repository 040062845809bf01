"""The demo floor's property, pit, shifts and staff (idempotent)."""

import datetime as dt

from casino.models import Pit, Property, Shift, Staff
from casino.permissions import sync_role_permissions
from casino.roles import Role
from casino.staffing import staff_create

DEMO_PASSWORD = "tapis-demo"
# username, roles, employee number, PIN, first name, last name
DEMO_STAFF = [
    ("croupier", [Role.DEALER], "1001", "1111", "Camille", "Croupier"),
    ("croupier2", [Role.DEALER], "1002", "2222", "Jules", "Donneur"),
    ("inspecteur", [Role.SUPERVISOR, Role.DEALER], "2001", "3333", "Inès", "Inspectrice"),
    ("directeur", [Role.MANAGER], "3001", "4444", "Marc", "Directeur"),
    ("directrice", [Role.MANAGER], "3002", "5555", "Léa", "Directrice"),
    ("auditeur", [Role.AUDITOR], "4001", "6666", "Aude", "Auditrice"),
    ("rh", [Role.STAFF_ADMIN], "5001", "7777", "Hélène", "Ressources"),
]
# Jules works in English: the demo shows a page following its reader's language.
DEMO_LANGUAGES = {"croupier2": "en"}


def load() -> tuple[Property, Pit]:
    prop, _ = Property.objects.get_or_create(
        name="Casino de démonstration",
        defaults={
            "time_zone": "Europe/Paris",
            "gaming_day_start_hour": 6,
            "currency": "EUR",
            "language": "fr",
        },
    )
    for code, hour in (("day", 6), ("swing", 14), ("grave", 22)):
        Shift.objects.get_or_create(property=prop, code=code, defaults={"starts_at": dt.time(hour)})
    pit, _ = Pit.objects.get_or_create(property=prop, name="Pit 1")
    for username, roles, number, pin, first, last in DEMO_STAFF:
        if not Staff.objects.filter(username=username).exists():
            staff_create(
                username=username,
                roles=roles,
                password=DEMO_PASSWORD,
                pin=pin,
                employee_number=number,
                first_name=first,
                last_name=last,
                language=DEMO_LANGUAGES.get(username, ""),
            )
    sync_role_permissions()
    return prop, pit
