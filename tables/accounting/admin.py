"""The chip set is configured by a games manager in the admin (every change audited); the
counts, slips and drops are read there, and changed only through their services."""

from django.contrib import admin

from casino.admin_audit import AuditedModelAdmin
from tables.accounting.models import ChipDenomination, ChipSlip, Drop, Inventory


@admin.register(ChipDenomination)
class ChipDenominationAdmin(AuditedModelAdmin):
    list_display = ("__str__", "value_cents", "colour", "active", "property")
    list_filter = ("active",)

    def has_delete_permission(self, request, obj=None):
        return False  # a chip once used is taken out of use, never erased


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Inventory)
class InventoryAdmin(ReadOnlyAdmin):
    list_display = ("table", "kind", "gaming_date", "shift", "total_cents", "discrepancy_cents")
    list_filter = ("kind", "gaming_date")


@admin.register(ChipSlip)
class ChipSlipAdmin(ReadOnlyAdmin):
    list_display = ("reference", "kind", "table", "gaming_date", "total_cents", "state")
    list_filter = ("kind", "state", "gaming_year")


@admin.register(Drop)
class DropAdmin(ReadOnlyAdmin):
    list_display = ("table", "gaming_date", "shift", "cash_cents", "markers_cents", "source")
    list_filter = ("source", "gaming_date")
