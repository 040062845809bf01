from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = _("Casino")

    def ready(self):
        # casino.signin remembers where each request comes from (PIN approvals are throttled
        # by it): connected here, so that even a worker's first request is remembered.
        from casino import signals, signin  # noqa: F401

        signals.connect()
