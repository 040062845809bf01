"""Factories for the people and places of the floor."""

import datetime as dt

import factory

from casino.models import Pit, Property, Shift
from casino.staffing import staff_create


class PropertyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Property
        skip_postgeneration_save = True

    name = "Casino de démonstration"
    time_zone = "Europe/Paris"
    gaming_day_start_hour = 6
    currency = "EUR"
    language = "fr"

    @factory.post_generation
    def shifts(obj, create, extracted, **kwargs):
        if not create:
            return
        for code, hour in (("day", 6), ("swing", 14), ("grave", 22)):
            Shift.objects.get_or_create(
                property=obj, code=code, defaults={"starts_at": dt.time(hour)}
            )


class PitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pit

    property = factory.SubFactory(PropertyFactory)
    name = factory.Sequence(lambda n: f"Pit {n + 1}")


_counter = iter(range(1, 10**9))


def make_staff(
    *roles: str, username: str | None = None, pin: str = "1234", password: str = "pw-Tapis-2026"
):
    n = next(_counter)
    return staff_create(
        username=username or f"{'-'.join(roles) or 'nobody'}{n}",
        roles=list(roles),
        password=password,
        pin=pin,
        employee_number=f"E{n:05d}",
        first_name=(roles[0] if roles else "nobody").title(),
        last_name=str(n),
    )
