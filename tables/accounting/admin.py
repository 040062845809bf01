"""The chip set is configured by a games manager in the admin (every change audited); the
counts, slips and drops are read there, and changed only through their services."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino.admin_audit import AuditedModelAdmin, money_column
from casino.forms import AmountField
from tables.accounting.models import ChipDenomination, ChipSlip, Drop, Inventory


class ChipDenominationForm(forms.ModelForm):
    # Typed as the reader writes money ("5,00", "€5.00"), kept in cents.
    value_cents = AmountField(label=_("value"))

    class Meta:
        model = ChipDenomination
        fields = ("property", "value_cents", "colour", "active")


@admin.register(ChipDenomination)
class ChipDenominationAdmin(AuditedModelAdmin):
    form = ChipDenominationForm
    list_display = ("__str__", "colour", "active", "property")
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
    list_display = (
        "table",
        "kind",
        "gaming_date",
        "shift",
        "total",
        "discrepancy",
    )
    list_filter = ("kind", "gaming_date")
    total = money_column("total_cents", _("total"))
    discrepancy = money_column("discrepancy_cents", _("discrepancy"))


@admin.register(ChipSlip)
class ChipSlipAdmin(ReadOnlyAdmin):
    list_display = (
        "reference",
        "kind",
        "table",
        "gaming_date",
        "total",
        "state",
    )
    list_filter = ("kind", "state", "gaming_year")
    total = money_column("total_cents", _("total"))


@admin.register(Drop)
class DropAdmin(ReadOnlyAdmin):
    list_display = (
        "table",
        "gaming_date",
        "shift",
        "cash",
        "markers",
        "source",
    )
    list_filter = ("source", "gaming_date")
    cash = money_column("cash_cents", _("cash"))
    markers = money_column("markers_cents", _("markers"))
