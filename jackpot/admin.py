from jackpot import admin_display  # noqa: F401, I001  (registers the display screens' admin)

# Admin of the progressive. Nothing here writes money or parameters by hand: every change goes
# through a service (which checks the role, locks the bank, audits and notifies), so the admin
# shows the ledger, hits, readings and alerts read-only and acts through actions and forms.

import json

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.utils.translation import gettext_lazy as _

from casino.admin_audit import AuditedModelAdmin, ReadOnlyAdminMixin
from casino.errors import CasinoError
from jackpot import services
from jackpot.services.posting import claim_new_bank
from jackpot.models import (
    PARAMETER_FIELDS,
    Bank,
    Hit,
    MeterEntry,
    MeterReading,
    ParameterChange,
    ReconciliationAlert,
)


def _said(what, message) -> str:
    """Say "what: message", punctuated for the language (French puts a space before ':')."""
    return _("%(what)s: %(message)s") % {"what": what, "message": message}


def _run(modeladmin, request, queryset, label, call):
    """Apply a service to each selected row; report each refusal with its own message."""
    done = 0
    for obj in queryset:
        try:
            call(obj)
            done += 1
        except CasinoError as err:
            modeladmin.message_user(request, _said(obj, err.message), messages.ERROR)
    if done:
        modeladmin.message_user(request, _said(label, done), messages.SUCCESS)


class ServiceAdmin(AuditedModelAdmin):
    """A refusal from a service (wrong role, two-person rule...) is shown, not a server error."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except CasinoError as err:
            self.message_user(request, err.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


class ReadOnlyAdmin(ReadOnlyAdminMixin, ServiceAdmin):
    """Records written only by services: listed and read, never added, edited or deleted."""


class BankForm(forms.ModelForm):
    class Meta:
        model = Bank
        fields = ["slug", "name", *PARAMETER_FIELDS]

    def clean(self):
        cleaned = super().clean()
        if not self.instance.pk:
            try:
                params = services.validate_parameters({k: cleaned.get(k) for k in PARAMETER_FIELDS})
            except CasinoError as err:
                raise forms.ValidationError(err.message) from None
            cleaned.update(params)
        return cleaned


@admin.register(Bank)
class BankAdmin(ServiceAdmin):
    form = BankForm
    list_display = (
        "name",
        "slug",
        "status",
        "meter_cents",
        "reserve_cents",
        "overflow_cents",
        "hits_count",
        "paid_total_cents",
    )
    list_filter = ("status",)
    search_fields = ("name", "slug")
    actions = ["open_banks", "close_banks", "take_readings", "reconcile"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:  # a new bank: its first parameters are set here, then only by changes
            return ()
        cached = [f.name for f in Bank._meta.fields if f.name not in ("id", "name")]
        return cached

    def has_delete_permission(self, request, obj=None):
        return False  # a bank with a ledger is kept for the record

    def save_related(self, request, form, formsets, change):
        if not change:
            # Inserted by this request's transaction: bank_seed may lock it after the audit.
            claim_new_bank(form.instance.pk)
        super().save_related(request, form, formsets, change)
        if not change:
            # The meter starts at the reset amount, written as the ledger's first line.
            services.bank_seed(bank_id=form.instance.pk, actor=request.user)

    @admin.action(description=_("Open the selected banks"))
    def open_banks(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            _("opened"),
            lambda b: services.bank_open(bank_id=b.pk, actor=request.user, reason="admin"),
        )

    @admin.action(description=_("Close the selected banks"))
    def close_banks(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            _("closed"),
            lambda b: services.bank_close(bank_id=b.pk, actor=request.user, reason="admin"),
        )

    @admin.action(description=_("Take a meter reading"))
    def take_readings(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            _("readings taken"),
            lambda b: services.meter_reading_take(
                bank_id=b.pk, reason=MeterReading.Reason.MANUAL, actor=request.user
            ),
        )

    @admin.action(description=_("Reconcile with the ledger now"))
    def reconcile(self, request, queryset):
        for bank in queryset:
            alerts = services.bank_reconcile(bank_id=bank.pk)
            level = messages.ERROR if alerts else messages.SUCCESS
            text = (
                _("%(n)s difference(s)") % {"n": len(alerts)} if alerts else _("matches its ledger")
            )
            self.message_user(request, _said(bank, text), level)


@admin.register(MeterEntry)
class MeterEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "bank",
        "seq",
        "kind",
        "created_at",
        "reference",
        "wager_count",
        "meter_delta_cents",
        "meter_after_cents",
        "reserve_delta_cents",
        "overflow_delta_cents",
        "house_funded_cents",
        "actor",
    )
    list_filter = ("bank", "kind", "gaming_date")
    search_fields = ("reference",)
    list_select_related = ("bank", "actor")


@admin.register(Hit)
class HitAdmin(ReadOnlyAdmin):
    list_display = (
        "bank",
        "order",
        "level",
        "table_label",
        "seat",
        "amount_cents",
        "state",
        "recorded_at",
        "recorded_by",
        "verified_by",
        "paid_by",
    )
    list_filter = ("bank", "state", "level")
    list_select_related = ("bank", "recorded_by", "verified_by", "paid_by")
    actions = ["verify", "pay"]

    def has_change_permission(self, request, obj=None):
        return obj is None  # the list (and its actions) but no edit form

    @admin.action(description=_("Verify the selected hits"))
    def verify(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            _("verified"),
            lambda h: services.hit_verify(hit_id=h.pk, supervisor=request.user),
        )

    @admin.action(description=_("Mark the selected hits paid"))
    def pay(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            _("paid"),
            lambda h: services.hit_pay(hit_id=h.pk, supervisor=request.user),
        )


class ParameterChangeForm(forms.ModelForm):
    """Ask for new parameters: leave a field as it is to keep it."""

    wager_cents = forms.IntegerField(min_value=1)
    reset_cents = forms.IntegerField(min_value=1)
    increment_rate_ppm = forms.IntegerField(min_value=0)
    hidden_rate_ppm = forms.IntegerField(min_value=0)
    cap_cents = forms.IntegerField(required=False, min_value=1)
    levels = forms.JSONField()

    class Meta:
        model = ParameterChange
        fields = ["bank", "reason"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        bank = Bank.objects.filter(pk=self.data.get("bank") or self.initial.get("bank")).first()
        if bank is not None:
            for name in PARAMETER_FIELDS:
                self.fields[name].initial = getattr(bank, name)


@admin.register(ParameterChange)
class ParameterChangeAdmin(ServiceAdmin):
    list_display = (
        "bank",
        "state",
        "reason",
        "requested_by",
        "approved_by",
        "requested_at",
        "applied_at",
    )
    list_filter = ("bank", "state")
    actions = ["approve", "reject"]
    readonly_fields = (
        "state",
        "params_shown",
        "before_shown",
        "requested_by",
        "requested_at",
        "approved_by",
        "approved_at",
        "rejected_by",
        "rejected_at",
        "reject_reason",
        "applied_at",
        "applied_after_hit",
    )

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = ParameterChangeForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["bank", "reason", *PARAMETER_FIELDS]
        return ["bank", "reason", *self.readonly_fields]

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else ("bank", "reason", *self.readonly_fields)

    def has_change_permission(self, request, obj=None):
        return obj is None  # the list and its actions; a change is never edited

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("new parameters"))
    def params_shown(self, obj):
        return json.dumps(obj.params, ensure_ascii=False)

    @admin.display(description=_("before"))
    def before_shown(self, obj):
        return json.dumps(obj.before, ensure_ascii=False)

    def save_model(self, request, obj, form, change):
        # The request goes through the service (role, one open change per bank, audit).
        bank = form.cleaned_data["bank"]
        wanted = {name: form.cleaned_data.get(name) for name in PARAMETER_FIELDS}
        changed = {k: v for k, v in wanted.items() if v != getattr(bank, k)}
        created = services.parameter_change_request(
            bank_id=bank.pk,
            params=changed,
            reason=form.cleaned_data["reason"],
            manager=request.user,
        )
        form.instance = created
        obj.pk = created.pk

    def save_related(self, request, form, formsets, change):
        pass  # the service wrote the audit entry

    @admin.action(description=_("Approve (a second manager)"))
    def approve(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            _("approved"),
            lambda c: services.parameter_change_approve(change_id=c.pk, manager=request.user),
        )

    @admin.action(description=_("Reject"))
    def reject(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            _("rejected"),
            lambda c: services.parameter_change_reject(
                change_id=c.pk, manager=request.user, reason="admin"
            ),
        )


@admin.register(MeterReading)
class MeterReadingAdmin(ReadOnlyAdmin):
    list_display = (
        "bank",
        "taken_at",
        "reason",
        "gaming_date",
        "shift",
        "meter_cents",
        "reserve_cents",
        "overflow_cents",
        "contributions_count",
        "hits_count",
        "paid_total_cents",
    )
    list_filter = ("bank", "reason", "gaming_date", "shift")


class AlertForm(forms.ModelForm):
    class Meta:
        model = ReconciliationAlert
        fields = ["note"]


@admin.register(ReconciliationAlert)
class ReconciliationAlertAdmin(ServiceAdmin):
    form = AlertForm
    list_display = (
        "bank",
        "field",
        "ledger_value",
        "cached_value",
        "detected_at",
        "resolved_at",
        "resolved_by",
    )
    list_filter = ("bank", "field", "resolved_at")
    readonly_fields = (
        "bank",
        "field",
        "ledger_value",
        "cached_value",
        "detected_at",
        "resolved_at",
        "resolved_by",
    )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        # Writing a note resolves the alert, through the service (manager only, audited).
        services.alert_resolve(
            alert_id=obj.pk, manager=request.user, note=form.cleaned_data["note"]
        )

    def save_related(self, request, form, formsets, change):
        pass  # the service wrote the audit entry
