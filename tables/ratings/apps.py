from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """Players and their ratings, measured from the rounds their seats played. It reads tables
    and accounting; nothing below it reads it."""

    name = "tables.ratings"
    label = "ratings"
    verbose_name = _("Player ratings")

    def ready(self):
        from tables import seat_labels
        from tables.api.openapi import OPENAPI
        from tables.ratings import (
            openapi,
            receivers,  # noqa: F401  (a table's close closes its ratings)
        )
        from tables.ratings.selectors import seat_aliases

        seat_labels.register(seat_aliases)
        openapi.extend(OPENAPI)

        from tables import simulator
        from tables.ratings import simulation

        simulator.register_ratings(simulation.players_to_rate, simulation.rating_checks)

        from tables.accounting import seed as accounting_seed
        from tables.ratings import seed

        accounting_seed.register_sittings(seed.rate_sittings)
