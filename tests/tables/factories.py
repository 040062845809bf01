"""Paytables, rule sets and tables for the tests, made through the services like the floor's."""

from jackpot.models import Bank
from tables import services
from tables.models import Paytable


def make_paytable(manager, *, kind, name, preset="", lines=None):
    return services.paytable_create(
        manager=manager, kind=kind, name=name, preset=preset, lines=lines
    )


def make_ruleset(manager, *, name="Standard", blind=None, trips=None, **rules):
    blind = (
        blind
        or Paytable.objects.filter(name="Blind A").first()
        or make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind A", preset="A")
    )
    trips = (
        trips
        or Paytable.objects.filter(name="Trips C").first()
        or make_paytable(manager, kind=Paytable.Kind.TRIPS, name="Trips C", preset="C")
    )
    return services.ruleset_create(
        manager=manager,
        name=name,
        blind_paytable_id=blind.pk,
        trips_paytable_id=trips.pk,
        **rules,
    )


def make_table(manager, *, pit, ruleset, name="UTH 1", low=1_000, high=20_000, **extra):
    # The console's floor: a table a manager asks for waits for a second manager
    # (tests/tables/test_first_ruleset.py).
    return services.table_create_as_approved(
        manager=manager,
        name=name,
        pit_id=pit.pk,
        min_bet_cents=low,
        max_bet_cents=high,
        ruleset_id=ruleset.pk,
        **extra,
    )


def make_bank(*, slug="salle-principale", wager_cents=100):
    return Bank.objects.create(
        slug=slug,
        name="Jackpot de la salle",
        wager_cents=wager_cents,
        reset_cents=1_000_000,
        increment_rate_ppm=250_000,
    )
