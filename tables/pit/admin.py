"""The alert thresholds in the admin: a games manager edits them, an auditor reads them, and
every change is audited (AuditedModelAdmin; the permissions follow from casino.permissions).

Amounts are shown and typed in the property's currency ("5 000,00" or "5000.00"), stored in
integer cents. The alerts themselves are listed read-only: they are raised by the services
and acknowledged on the pit's screen, with a note, never edited here.
"""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino.admin_audit import AuditedModelAdmin, ReadOnlyAdminMixin
from casino.forms import AmountField
from casino.money import money, property_currency
from tables.pit.models import Alert, AlertSettings, TableAlertThreshold


class _AmountForm(forms.ModelForm):
    amount_fields: tuple[str, ...] = ("big_win_cents",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        currency = property_currency()
        for name in self.amount_fields:
            if name not in self.fields:  # read-only for this reader (an auditor)
                continue
            model_field = self._meta.model._meta.get_field(name)
            label = str(model_field.verbose_name)
            self.fields[name] = AmountField(
                label=f"{label[:1].upper()}{label[1:]} ({currency})",
                required=not model_field.blank,
                initial=self.fields[name].initial,
            )


class AlertSettingsForm(_AmountForm):
    class Meta:
        model = AlertSettings
        fields = [
            "property",
            "idle_minutes",
            "rotation_minutes",
            "minutes_past_rotation",
            "voids_per_dealer_shift",
            "big_win_cents",
        ]


class TableAlertThresholdForm(_AmountForm):
    class Meta:
        model = TableAlertThreshold
        fields = ["table", "big_win_cents"]


@admin.register(AlertSettings)
class AlertSettingsAdmin(AuditedModelAdmin):
    form = AlertSettingsForm
    list_display = [
        "property",
        "idle_minutes",
        "rotation_minutes",
        "minutes_past_rotation",
        "voids_per_dealer_shift",
        "big_win",
    ]

    @admin.display(description=_("big win on one seat from"))
    def big_win(self, obj):
        return money(obj.big_win_cents)


@admin.register(TableAlertThreshold)
class TableAlertThresholdAdmin(AuditedModelAdmin):
    form = TableAlertThresholdForm
    list_display = ["table", "big_win"]
    list_select_related = ["table"]
    search_fields = ["table__name"]

    @admin.display(description=_("big win on one seat from"))
    def big_win(self, obj):
        return money(obj.big_win_cents)


@admin.register(Alert)
class AlertAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["raised_at", "kind", "severity", "table", "acknowledged_by", "acknowledged_at"]
    list_filter = ["kind", "severity", "acknowledged_at"]
    list_select_related = ["table", "acknowledged_by"]
    search_fields = ["key", "note", "table__name"]
