from django.contrib import admin

from casino.admin_audit import AuditedModelAdmin
from tables.ratings.models import ComplianceSettings, RatingSettings


@admin.register(ComplianceSettings)
class ComplianceSettingsAdmin(AuditedModelAdmin):
    """Managers set the property's anti-money-laundering thresholds and retention periods,
    every change audited; the country's defaults are filled in on first use."""

    list_display = ("property", "country", "marketing_retention_years", "aml_retention_years")

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RatingSettings)
class RatingSettingsAdmin(AuditedModelAdmin):
    """Managers choose whether supervisors may enter an average Ante (the accuracy report),
    every change audited."""

    list_display = ("property", "average_ante_entry")

    def has_delete_permission(self, request, obj=None):
        return False
