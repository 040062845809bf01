"""Alerts raised from the services' signals (filled in with the alerts)."""
