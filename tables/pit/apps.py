from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PitConfig(AppConfig):
    """The pit boss's screen: the floor live, table actions, approvals and alerts. It sits at
    the top of the graph: it reads tables and jackpot, nothing reads it."""

    name = "tables.pit"
    label = "pit"
    verbose_name = _("Pit")

    def ready(self):
        from tables.pit import receivers  # noqa: F401  (alerts raised from the services' signals)
