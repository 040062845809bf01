from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountingConfig(AppConfig):
    """Table accounting and reports: inventories, fills and credits, drop, win and hold,
    theoretical win. It reads tables and jackpot, nothing reads it."""

    name = "tables.accounting"
    label = "accounting"
    verbose_name = _("Table accounting")

    def ready(self) -> None:
        # Registers the slips and drops with the audit chain in every process that writes them.
        import tables.accounting.receivers  # noqa: F401  (decision costs after settlement)
        import tables.accounting.records  # noqa: F401
