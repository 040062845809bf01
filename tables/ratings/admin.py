from django.contrib import admin

from casino.admin_audit import AuditedModelAdmin
from tables.ratings.models import (
    ComplianceSettings,
    CompSettings,
    RatingSettings,
    RatingSignalSettings,
)


@admin.register(ComplianceSettings)
class ComplianceSettingsAdmin(AuditedModelAdmin):
    """Managers set the property's anti-money-laundering thresholds and retention periods,
    every change audited; the country's defaults are filled in on first use."""

    list_display = ("property", "country", "marketing_retention_years", "aml_retention_years")

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(CompSettings)
class CompSettingsAdmin(AuditedModelAdmin):
    """Managers set the comp budget (a share of a rating's theo) and what a supervisor or a
    host grants alone, every change audited (25 CFR 543.13: limits and their changes
    documented); the defaults are filled in on first use."""

    list_display = ("property", "budget_percent", "supervisor_limit_cents", "host_limit_cents")

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RatingSignalSettings)
class RatingSignalSettingsAdmin(AuditedModelAdmin):
    """Managers set when a rating is a signal for surveillance (ghost rounds, repeated
    ratings, the chips gap), every change audited."""

    list_display = ("property", "ghost_rounds", "repeat_count", "repeat_days", "chips_gap_cents")

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RatingSettings)
class RatingSettingsAdmin(AuditedModelAdmin):
    """Managers choose whether supervisors may enter an average Ante (the accuracy report),
    every change audited."""

    list_display = ("property", "average_ante_entry")

    def has_delete_permission(self, request, obj=None):
        return False
