from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Tables")

    def ready(self) -> None:
        # Registers a round's money and the round events' heads with the audit chain in every
        # process that writes them (an entry's digest is taken as it is written).
        import tables.records  # noqa: F401
