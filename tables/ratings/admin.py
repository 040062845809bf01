from django.contrib import admin

from casino.admin_audit import AuditedModelAdmin
from tables.ratings.models import ComplianceSettings


@admin.register(ComplianceSettings)
class ComplianceSettingsAdmin(AuditedModelAdmin):
    """Managers set the property's anti-money-laundering thresholds and retention periods,
    every change audited; the country's defaults are filled in on first use."""

    list_display = ("property", "country", "marketing_retention_years", "aml_retention_years")

    def has_delete_permission(self, request, obj=None):
        return False
