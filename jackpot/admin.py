from jackpot import admin_display  # noqa: F401, I001  (registers the display screens' admin)

# Admin of the progressive. Nothing here writes money or parameters by hand: every change goes
# through a service (which checks the role, locks the bank, audits and notifies), so the admin
# shows the ledger, hits, readings and alerts read-only and acts through actions and forms.

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import translation
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from casino.admin import ShiftFilter, shift_label
from casino.admin_audit import money_column, AuditedModelAdmin, ReadOnlyAdminMixin
from casino.errors import CasinoError
from casino.ids import db_id
from casino.money import money
from casino.roles import Role, has_role
from jackpot import services
from jackpot.admin_forms import (
    LEVEL_NAMES,
    ParametersFormMixin,
    parameters_shown,
    percent_shown,
)
from jackpot.models import (
    PARAMETER_FIELDS,
    AdjustmentRequest,
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


def _run(modeladmin, request, queryset, done_message, call):
    """Apply a service to each selected row; report each refusal with its own message, then
    what was done (`done_message`: an ngettext_lazy counting "count")."""
    done = 0
    for obj in queryset:
        try:
            call(obj)
            done += 1
        except CasinoError as err:
            modeladmin.message_user(request, _said(obj, err.message), messages.ERROR)
    if done:
        modeladmin.message_user(request, done_message % {"count": done}, messages.SUCCESS)


def _roles_may(*roles):
    """An admin action's permission check: only these roles are offered the action."""

    def check(self, request):
        return has_role(request.user, *roles)

    return check


class ServiceAdmin(AuditedModelAdmin):
    """A refusal from a service (wrong role, two-person rule...) is shown, not a server error."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except CasinoError as err:
            self.message_user(request, err.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


def _readable(field):
    """A model field as a reader reads it: cents as amounts, ppm as percentages."""
    if field.name.endswith("_cents"):

        @admin.display(description=field.verbose_name)
        def amount(obj):
            value = getattr(obj, field.name)
            return money(value) if value is not None else "-"

        return amount
    if field.name == "shift":

        @admin.display(description=field.verbose_name)
        def shift(obj):
            return shift_label(obj.shift)

        return shift
    return field.name


class ReadOnlyAdmin(ReadOnlyAdminMixin, ServiceAdmin):
    """Records written only by services: listed and read, never added, edited or deleted."""

    def get_fields(self, request, obj=None):
        return self.get_readonly_fields(request, obj)

    def get_readonly_fields(self, request, obj=None):
        return [
            _readable(f)
            for f in self.model._meta.fields
            if not f.auto_created and not f.name.endswith("_ppm")
        ]


class BankForm(ParametersFormMixin, forms.ModelForm):
    class Meta:
        model = Bank
        fields = ["slug", "name", "name_en", *PARAMETER_FIELDS]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.instance.pk and "wager_cents" in self.fields:
            self._parameter_fields(required=True)
            self.fields["wager_cents"].initial = 100
            self.fields["hidden_rate_ppm"].initial = 0

    def clean(self):
        cleaned = super().clean()
        if not self.instance.pk:
            self._check_parameters(cleaned)
            if self.errors:
                return cleaned
            params = {k: cleaned.get(k) for k in PARAMETER_FIELDS}
            params["hidden_rate_ppm"] = params["hidden_rate_ppm"] or 0
            try:
                params = services.validate_parameters(params)
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
        "meter",
        "reserve",
        "overflow",
        "hits_count",
        "paid_total",
        "change_parameters",
    )
    list_filter = ("status",)
    search_fields = ("name", "name_en", "slug")
    actions = ["open_banks", "close_banks", "take_readings", "reconcile"]
    # Read on a bank's page; changed only through a parameter change (or the ledger).
    shown_fields = (
        "slug",
        "status",
        "status_reason",
        "wager",
        "reset",
        "increment_rate",
        "hidden_rate",
        "cap",
        "levels_shown",
        "meter",
        "reserve",
        "overflow",
        "contributions_count",
        "wagered",
        "hits_count",
        "paid_total",
        "house_funded",
        "change_parameters",
    )

    meter = money_column("meter_cents", _("meter"))
    reserve = money_column("reserve_cents", _("reserve"))
    overflow = money_column("overflow_cents", _("overflow"))
    paid_total = money_column("paid_total_cents", _("total paid"))
    wager = money_column("wager_cents", _("progressive wager"))
    reset = money_column("reset_cents", _("reset amount"))
    cap = money_column("cap_cents", _("meter cap"))
    wagered = money_column("wagered_cents", _("total wagered"))
    house_funded = money_column("house_funded_cents", _("funded by the house"))

    @admin.display(description=_("meter increment"))
    def increment_rate(self, bank):
        return percent_shown(bank.increment_rate_ppm)

    @admin.display(description=_("reserve rate"))
    def hidden_rate(self, bank):
        return percent_shown(bank.hidden_rate_ppm)

    @admin.display(description=_("levels"))
    def levels_shown(self, bank):
        english = (translation.get_language() or "").startswith("en")
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}\u00a0%</td></tr>",
            (
                (t.get("label_en" if english else "label_fr") or t.get("level"), t.get("percent"))
                for t in bank.levels
            ),
        )
        return format_html("<table>{}</table>", rows) if bank.levels else "-"

    @admin.display(description=_("parameters"))
    def change_parameters(self, bank):
        url = reverse("admin:jackpot_parameterchange_add") + f"?bank={bank.pk}"
        return format_html('<a href="{}">{}</a>', url, _("Ask for a parameter change"))

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["slug", "name", "name_en", *PARAMETER_FIELDS]
        return ["name", "name_en", *self.shown_fields]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:  # a new bank: its first parameters are set here, then only by changes
            return ()
        return self.shown_fields

    has_status_permission = _roles_may(Role.SUPERVISOR, Role.MANAGER)
    has_reading_permission = _roles_may(Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)

    def has_delete_permission(self, request, obj=None):
        return False  # a bank with a ledger is kept for the record

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change:
            # The meter starts at the reset amount, written as the ledger's first line.
            services.bank_seed(bank_id=form.instance.pk, actor=request.user)

    @admin.action(description=_("Open the selected banks"), permissions=["status"])
    def open_banks(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            ngettext_lazy("%(count)s bank opened.", "%(count)s banks opened.", "count"),
            lambda b: services.bank_open(bank_id=b.pk, actor=request.user, reason="admin"),
        )

    @admin.action(description=_("Close the selected banks"), permissions=["status"])
    def close_banks(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            ngettext_lazy("%(count)s bank closed.", "%(count)s banks closed.", "count"),
            lambda b: services.bank_close(bank_id=b.pk, actor=request.user, reason="admin"),
        )

    @admin.action(description=_("Take a meter reading"), permissions=["reading"])
    def take_readings(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            ngettext_lazy(
                "%(count)s meter reading taken.", "%(count)s meter readings taken.", "count"
            ),
            lambda b: services.meter_reading_take(
                bank_id=b.pk, reason=MeterReading.Reason.MANUAL, actor=request.user
            ),
        )

    @admin.action(description=_("Reconcile with the ledger now"), permissions=["reading"])
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
        "meter_delta",
        "meter_after",
        "reserve_delta",
        "overflow_delta",
        "house_funded",
        "actor",
    )
    list_filter = ("bank", "kind", "gaming_date")
    search_fields = ("reference",)
    list_select_related = ("bank", "actor")

    meter_delta = money_column("meter_delta_cents", _("meter change"))
    meter_after = money_column("meter_after_cents", _("meter after"))
    reserve_delta = money_column("reserve_delta_cents", _("reserve change"))
    overflow_delta = money_column("overflow_delta_cents", _("overflow change"))
    house_funded = money_column("house_funded_cents", _("funded by the house"))


def level_name(level: str) -> str:
    """A level's hand ("royal_flush") as the reader's language names it."""
    return str(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


class LevelFilter(admin.SimpleListFilter):
    title = _("level")
    parameter_name = "level"

    def lookups(self, request, model_admin):
        levels = Hit.objects.values_list("level", flat=True).distinct().order_by("level")
        return [(level, level_name(level)) for level in levels]

    def queryset(self, request, queryset):
        return queryset.filter(level=self.value()) if self.value() else queryset


@admin.register(Hit)
class HitAdmin(ReadOnlyAdmin):
    list_display = (
        "bank",
        "order",
        "hand",
        "table_label",
        "seat",
        "amount",
        "state",
        "recorded_at",
        "recorded_by",
        "verified_by",
        "paid_by",
    )
    list_filter = ("bank", "state", LevelFilter)
    list_select_related = ("bank", "recorded_by", "verified_by", "paid_by")
    actions = ["verify", "pay"]

    amount = money_column("amount_cents", _("amount"))

    @admin.display(description=_("level"), ordering="level")
    def hand(self, hit):
        return level_name(hit.level)

    # Only a supervisor verifies and pays a hit (jackpot.services.hits): nobody else is
    # offered the actions, an auditor least of all.
    has_hit_permission = _roles_may(Role.SUPERVISOR)

    def has_change_permission(self, request, obj=None):
        # The list (and its actions) but no edit form, for those who may read it: a staff
        # administrator may not (issue 23, 7).
        return obj is None and self.has_view_permission(request)

    @admin.action(description=_("Verify the selected hits"), permissions=["hit"])
    def verify(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            ngettext_lazy("%(count)s hit verified.", "%(count)s hits verified.", "count"),
            lambda h: services.hit_verify(hit_id=h.pk, supervisor=request.user),
        )

    @admin.action(description=_("Mark the selected hits paid"), permissions=["hit"])
    def pay(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            ngettext_lazy("%(count)s hit marked paid.", "%(count)s hits marked paid.", "count"),
            lambda h: services.hit_pay(hit_id=h.pk, supervisor=request.user),
        )


class ParameterChangeForm(ParametersFormMixin, forms.ModelForm):
    """Ask for new parameters: the form opens with the bank's parameters in force; change
    what must change, leave the rest."""

    # Declared for the admin's field list; __init__ puts the real ones, labelled, in place.
    wager_cents = forms.CharField()
    reset_cents = forms.CharField()
    increment_rate_ppm = forms.CharField()
    hidden_rate_ppm = forms.CharField()
    cap_cents = forms.CharField()
    levels = forms.CharField()

    class Meta:
        model = ParameterChange
        fields = ["bank", "reason"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._parameter_fields(required=True)
        banks = Bank.objects.order_by("pk")
        chosen = self.data.get("bank") or self.initial.get("bank")
        key = db_id(str(chosen or ""))
        bank = banks.filter(pk=key).first() if key is not None else None
        if bank is None and not self.is_bound and banks.count() == 1:
            bank = banks.first()  # the casino's one bank: no need to pick it
            self.initial["bank"] = bank.pk
        self.bank = bank
        if bank is not None:
            for name in PARAMETER_FIELDS:
                self.fields[name].initial = getattr(bank, name)
                self.initial[name] = getattr(bank, name)
        self.fields["reason"].help_text = _("Why: it is written in the audit log.")

    def clean(self):
        cleaned = super().clean()
        self._check_parameters(cleaned)
        bank = cleaned.get("bank")
        if bank is not None and not self.errors:
            wanted = {name: cleaned.get(name) for name in PARAMETER_FIELDS}
            wanted["hidden_rate_ppm"] = wanted["hidden_rate_ppm"] or 0
            if all(wanted[k] == getattr(bank, k) for k in PARAMETER_FIELDS):
                raise forms.ValidationError(
                    _("These are the parameters in force: change at least one of them.")
                )
        return cleaned


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
    has_decide_permission = _roles_may(Role.MANAGER)
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
        # The list and its actions for those who may read it; a change is never edited.
        return obj is None and self.has_view_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("new parameters"))
    def params_shown(self, obj):
        return self._lines(obj.params, obj.before)

    @admin.display(description=_("parameters before"))
    def before_shown(self, obj):
        return self._lines(obj.before, {})

    @staticmethod
    def _lines(params, other):
        """Each parameter on its line; the ones that change in bold."""
        old = dict(parameters_shown(other or {}))
        items = []
        for label, value in parameters_shown(params or {}):
            shown = conditional_escape(value)
            if old and old.get(label) != value:
                shown = format_html("<strong>{}</strong>", value)
            # _said escapes nothing: both parts are escaped here.
            items.append(
                format_html("<li>{}</li>", mark_safe(_said(conditional_escape(label), shown)))
            )
        return format_html("<ul>{}</ul>", mark_safe("".join(items)))

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
        self.message_user(
            request,
            _("The change is asked for: a second manager approves it in this list."),
            messages.INFO,
        )

    def save_related(self, request, form, formsets, change):
        pass  # the service wrote the audit entry

    @admin.action(description=_("Approve (a second manager)"), permissions=["decide"])
    def approve(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            ngettext_lazy(
                "%(count)s parameter change approved.",
                "%(count)s parameter changes approved.",
                "count",
            ),
            lambda c: services.parameter_change_approve(change_id=c.pk, manager=request.user),
        )

    @admin.action(description=_("Reject"), permissions=["decide"])
    def reject(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            ngettext_lazy(
                "%(count)s parameter change rejected.",
                "%(count)s parameter changes rejected.",
                "count",
            ),
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
        "meter",
        "reserve",
        "overflow",
        "contributions_count",
        "hits_count",
        "paid_total",
    )
    list_filter = ("bank", "reason", "gaming_date", ShiftFilter)

    meter = money_column("meter_cents", _("meter"))
    reserve = money_column("reserve_cents", _("reserve"))
    overflow = money_column("overflow_cents", _("overflow"))
    paid_total = money_column("paid_total_cents", _("total paid"))


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
        "ledger_amount",
        "cached_amount",
        "detected_at",
        "resolved_at",
        "resolved_by",
    )
    list_filter = ("bank", "field", "resolved_at")

    @admin.display(description=_("from the ledger"))
    def ledger_amount(self, alert):
        return money(alert.ledger_value) if alert.field.endswith("_cents") else alert.ledger_value

    @admin.display(description=_("recorded on the bank"))
    def cached_amount(self, alert):
        return money(alert.cached_value) if alert.field.endswith("_cents") else alert.cached_value

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
        self.message_user(request, _("The alert is resolved with your note."), messages.SUCCESS)

    def save_related(self, request, form, formsets, change):
        pass  # the service wrote the audit entry


@admin.register(AdjustmentRequest)
class AdjustmentRequestAdmin(ReadOnlyAdmin):
    """Meter adjustments as asked and decided (asked for and approved in the pit: issue 23,
    7); read here by managers and auditors."""

    list_display = ("bank", "state", "reason", "requested_by", "requested_at", "decided_by")
    list_filter = ("bank", "state")
    list_select_related = ("bank", "requested_by", "decided_by")
