"""The chip set is configured by a games manager in the admin (every change audited); the
counts, slips and drops are read there, and changed only through their services."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino.admin_audit import AuditedModelAdmin
from casino.forms import AmountField
from casino.money import money
from tables.accounting.models import ChipDenomination, ChipSlip, Drop, Inventory


def _amount(field: str, label):
    """A list column showing a cents field in the property's currency."""

    def column(obj):
        return money(getattr(obj, field))

    column.short_description = label
    column.admin_order_field = field
    return column


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
        _amount("total_cents", _("total")),
        _amount("discrepancy_cents", _("discrepancy")),
    )
    list_filter = ("kind", "gaming_date")


@admin.register(ChipSlip)
class ChipSlipAdmin(ReadOnlyAdmin):
    list_display = (
        "reference",
        "kind",
        "table",
        "gaming_date",
        _amount("total_cents", _("total")),
        "state",
    )
    list_filter = ("kind", "state", "gaming_year")


@admin.register(Drop)
class DropAdmin(ReadOnlyAdmin):
    list_display = (
        "table",
        "gaming_date",
        "shift",
        _amount("cash_cents", _("cash")),
        _amount("markers_cents", _("markers")),
        "source",
    )
    list_filter = ("source", "gaming_date")
