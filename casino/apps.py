from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = _("Casino")

    def ready(self):
        from casino import audit_keys, heartbeat, pin_hashing, signals  # noqa: F401 (deploy checks; the heartbeat task)

        signals.connect()
