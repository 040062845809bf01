"""The admin for tables, rule sets, paytables and dealer assignments.

Every form validates through the models' `clean()`, which asks the rules engine, so the admin
refuses exactly what the engine would refuse and shows the engine's message on the field.
A rule set or paytable version that a round used, or that tables play, is shown read-only with
a "new version" button: the change is made on the family's next version, never on that row.
"""

import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseNotAllowed, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from casino.admin_audit import AuditedModelAdmin, ReadOnlyAdminMixin, money_column
from casino.forms import AmountField
from casino.money import money, property_currency
from tables import forms_math, parsheet_pages, services
from tables.errors import TablesError
from tables.forms import PaytableEditorForm
from tables.models import (
    ENGINE_FIELDS,
    CorrectionRequest,
    DealerAssignment,
    Paytable,
    RuleSet,
    RulesetDeployment,
    Table,
)
from tables.rules.errors import RulesError
from tables.rules.ruleset import parse_rules
from tables.selectors import base_game_sheet, current_dealer, with_current_assignment

_IN_CENTS = re.compile(r"\s*\((cents|centimes)\)\s*$")


def _amount_label(model_field) -> str:
    """ "table minimum (cents)" as a manager reads it: "Table minimum (EUR)"."""
    label = _IN_CENTS.sub("", str(model_field.verbose_name))
    return f"{label[:1].upper()}{label[1:]} ({property_currency()})"


class AmountsForm(forms.ModelForm):
    """Every *_cents field of the form typed as an amount in the property's currency."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in list(self.fields.items()):
            if not name.endswith("_cents") or isinstance(field, AmountField):
                continue
            model_field = self._meta.model._meta.get_field(name)
            self.fields[name] = AmountField(
                label=_amount_label(model_field),
                required=field.required,
                initial=field.initial,
                help_text=field.help_text,
                disabled=field.disabled,
            )


def _money_shown(model_field):
    """A read-only *_cents field shown as an amount."""

    # Lazy: the label is read in each reader's language, not the first one's.
    @admin.display(
        description=lazy(lambda: _IN_CENTS.sub("", str(model_field.verbose_name)), str)()
    )
    def shown(obj):
        value = getattr(obj, model_field.name, None)
        return money(value) if value is not None else "-"

    return shown


class AmountsShownMixin:
    """A *_cents field a reader cannot change (a frozen version, an auditor) reads as an
    amount, not as cents."""

    def _shown(self, names, request, obj):
        readonly = {n for n in super().get_readonly_fields(request, obj) if isinstance(n, str)}
        everything = obj is not None and not self.has_change_permission(request, obj)
        shown = []
        for name in names:
            if (
                isinstance(name, str)
                and name.endswith("_cents")
                and (everything or name in readonly)
            ):
                # The admin names its read-only fields by attribute: one per cents field.
                attribute = f"{name}_shown"
                if not hasattr(type(self), attribute):
                    column = _money_shown(self.model._meta.get_field(name))
                    setattr(type(self), attribute, staticmethod(column))
                shown.append(attribute)
            else:
                shown.append(name)
        return shown

    def get_fields(self, request, obj=None):
        return self._shown(super().get_fields(request, obj), request, obj)

    def get_readonly_fields(self, request, obj=None):
        # A reader's whole page is read-only already (the admin excludes every field from
        # their form): get_fields shows their amounts.
        return self._shown(list(super().get_readonly_fields(request, obj)), request, obj)


class VersionedAdmin(AuditedModelAdmin):
    """Shared by rule sets and paytables: a frozen version (used by a round, or played at
    tables) is read-only, and a change to it, made while someone had the form open, still
    lands on a new version."""

    change_form_template = "tables/admin/versioned_change_form.html"
    revisable_fields: tuple[str, ...] = ()
    # Each subclass names the service that revises its versions and that service's id argument.
    revise_service: Callable[..., Any]
    revise_id_arg: str

    def get_readonly_fields(self, request, obj=None):
        fixed = ["version", "used_at", "created_at", "creator"]
        # A form opened before the version froze may still be posted: it is then taken as the
        # content of a new version (see save_model), so its fields must be read from the post.
        if obj is not None and request.method != "POST" and obj.frozen_because() is not None:
            return fixed + ["name", "name_en", *self.revisable_fields]
        if obj is not None:
            fixed += ["name", "name_en"]  # the family's names never change between versions
        return fixed

    def get_fields(self, request, obj=None):
        return [
            "name",
            "name_en",
            "version",
            *self.revisable_fields,
            "used_at",
            "created_at",
            "creator",
        ]

    @admin.display(description=_("created by"))
    def creator(self, obj):
        return obj.created_by or "-"

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.frozen_because() is not None:
            return False
        return super().has_delete_permission(request, obj)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context["frozen_because"] = obj.frozen_because()
            context["deployed_on"] = ", ".join(t.name for t in obj.deployed_on().order_by("name"))
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_actions(self, request):
        # The bulk delete skips each row's guard; versions are deleted one by one, if at all.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def get_urls(self):
        prefix = f"{self.model._meta.app_label}_{self.model._meta.model_name}"
        return [
            path(
                "<path:object_id>/new-version/",
                self.admin_site.admin_view(self.new_version_view),
                name=f"{prefix}_new_version",
            ),
            *super().get_urls(),
        ]

    def revise(self, request, obj, **changes):
        """Change `obj`, or make its family's next version, through the model's service."""
        return self.revise_service(**{self.revise_id_arg: obj.pk}, manager=request.user, **changes)

    def new_version_view(self, request, object_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = get_object_or_404(self.model, pk=object_id)
        if not self.has_change_permission(request, obj):
            raise PermissionDenied
        change_url = f"admin:{self.model._meta.app_label}_{self.model._meta.model_name}_change"
        try:
            new = self.revise(request, obj, new_version=True)
        except TablesError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return HttpResponseRedirect(reverse(change_url, args=[obj.pk]))
        self.message_user(
            request,
            _("%(new)s was made from %(old)s: change it, then move the tables to it.")
            % {"new": new, "old": obj},
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse(change_url, args=[new.pk]))

    def save_model(self, request, obj, form, change):
        because = obj.frozen_because() if change else None
        if because is not None:
            # The version froze while the form was open: make the change a new version.
            changes = {
                self.model._meta.get_field(f).attname: getattr(
                    obj, self.model._meta.get_field(f).attname
                )
                for f in form.changed_data
            }
            old = str(obj)
            new = self.revise(request, obj, new_version=True, **changes)
            obj.pk, obj.version, obj.used_at = new.pk, new.version, None
            if because == obj.USED:
                why = _("%(old)s was used by a round: your change is %(new)s.")
            else:
                why = _(
                    "%(old)s is deployed on tables and does not change under them: your change "
                    "is %(new)s; move the tables to it when they are ready."
                )
            self.message_user(request, why % {"old": old, "new": new}, messages.WARNING)
            return
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class PresetFilter(admin.SimpleListFilter):
    """The engine presets, and the paytables that have their own lines (named, not an empty
    link)."""

    title = _("engine preset")
    parameter_name = "preset"

    def lookups(self, request, model_admin):
        return [("none", _("none: the lines below")), *((p, p) for p in "ABCD")]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(preset="")
        if self.value() in ("A", "B", "C", "D"):
            return queryset.filter(preset=self.value())
        return queryset


@admin.register(Paytable)
class PaytableAdmin(VersionedAdmin):
    """The paytable editor (`tables.forms.PaytableEditorForm`): one row per hand category,
    the presets listed, the engine's math beside (refreshed as the rows change), every
    refusal at once and the warnings to confirm. Saves go through the services."""

    form = PaytableEditorForm
    change_form_template = "tables/admin/paytable_change_form.html"
    list_display = ["name", "version", "kind", "preset", "used_at"]
    list_filter = ["kind", PresetFilter]
    search_fields = ["name"]
    revisable_fields = ("kind", "preset")

    class Media:
        css = {"all": ["tables/admin/paytable_editor.css"]}
        js = ["tables/admin/paytable_editor.js"]

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        if obj is not None and "kind" not in fields:
            fields = [*fields, "kind"]  # a family is one bet's table
        return fields

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        frozen = obj is not None and request.method != "POST" and obj.frozen_because()
        if frozen or not self.has_change_permission(request, obj):  # auditors only read
            form = type(form.__name__, (form,), {"rows_disabled": True})
        return form

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        form = context["adminform"].form
        kind = (obj.kind if obj is not None else None) or form["kind"].value() or ""
        context["editor_kind"] = kind
        context["presets"] = {k: forms_math.preset_rows(k) for k in ("blind", "trips")}
        context["math"] = form.math
        context["math_url"] = reverse("admin:tables_paytable_math")
        return super().render_change_form(request, context, add, change, form_url, obj)

    def save_model(self, request, obj, form, change):
        # Through the services, which check the engine's findings again and audit the
        # confirmation; a frozen version's change becomes the next version there.
        confirm = bool(form.cleaned_data.get("confirm"))
        content = {"preset": obj.preset} if obj.preset else {"preset": "", "lines": obj.lines}
        if not change:
            saved = services.paytable_create(
                manager=request.user,
                kind=obj.kind,
                name=obj.name,
                name_en=obj.name_en,
                confirm=confirm,
                **content,
            )
        else:
            because, old = obj.frozen_because(), str(obj)
            saved = services.paytable_revise(
                paytable_id=obj.pk, manager=request.user, confirm=confirm, **content
            )
            if saved.pk != obj.pk:
                if because == obj.USED:
                    why = _("%(old)s was used by a round: your change is %(new)s.")
                else:
                    why = _(
                        "%(old)s is deployed on tables and does not change under them: your "
                        "change is %(new)s; move the tables to it when they are ready."
                    )
                self.message_user(request, why % {"old": old, "new": saved}, messages.WARNING)
        obj.pk, obj.version, obj.used_at = saved.pk, saved.version, saved.used_at
        obj.lines, obj.created_by_id = saved.lines, saved.created_by_id
        obj._state.adding, obj._state.db = False, saved._state.db

    def save_related(self, request, form, formsets, change):
        # the services wrote the audit entries
        admin.ModelAdmin.save_related(self, request, form, formsets, change)

    def math_view(self, request):
        """The math panel for the rows as they are typed (the editor's script posts them)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        instance = Paytable(kind=request.POST.get("kind", ""))
        form = PaytableEditorForm(data=request.POST, instance=instance)
        form.is_valid()
        return TemplateResponse(
            request,
            "tables/admin/paytable_math.html",
            {"math": form.math, "form": form, "editor_kind": instance.kind, "live": True},
        )

    revise_service = staticmethod(services.paytable_revise)
    revise_id_arg = "paytable_id"

    def get_urls(self):
        return [
            path(
                "math/",
                self.admin_site.admin_view(self.math_view),
                name="tables_paytable_math",
            ),
            path(
                "<path:object_id>/follow/",
                self.admin_site.admin_view(self.follow_view),
                name="tables_paytable_follow",
            ),
            *super().get_urls(),
        ]

    def follow_view(self, request, object_id):
        """Make the next version of each rule set whose tables play another version of this
        paytable, pointing at this one."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        paytable = get_object_or_404(Paytable, pk=object_id)
        if not self.has_change_permission(request, paytable):
            raise PermissionDenied
        back = reverse("admin:tables_paytable_change", args=[paytable.pk])
        try:
            made = services.ruleset_follow_paytable(paytable_id=paytable.pk, manager=request.user)
        except TablesError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return HttpResponseRedirect(back)
        if not made:
            self.message_user(
                request,
                _("No table plays another version of %(name)s: no rule set to change.")
                % {"name": paytable.name},
                messages.WARNING,
            )
            return HttpResponseRedirect(back)
        self.message_user(
            request,
            _("New rule set versions with %(paytable)s: %(rulesets)s. Move the tables to them.")
            % {"paytable": paytable, "rulesets": ", ".join(str(r) for r in made)},
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:tables_ruleset_change", args=[made[0].pk]))


class RuleSetForm(AmountsForm):
    class Meta:
        model = RuleSet
        fields = ["name", *ENGINE_FIELDS]


@admin.register(RuleSet)
class RuleSetAdmin(AmountsShownMixin, VersionedAdmin):
    form = RuleSetForm
    list_display = [
        "name",
        "version",
        "preflop_multiples",
        "blind_paytable",
        "trips_paytable",
        "trips_on_fold",
        "used_at",
    ]
    list_filter = ["trips_on_fold", "ante_when_dealer_not_qualified"]
    search_fields = ["name"]
    revisable_fields = ENGINE_FIELDS
    list_select_related = ["blind_paytable", "trips_paytable"]

    revise_service = staticmethod(services.ruleset_revise)
    revise_id_arg = "ruleset_id"
    change_form_template = "tables/admin/ruleset_change_form.html"

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context["ruleset_math"] = forms_math.ruleset_panel(obj)
            try:
                sheet = base_game_sheet(obj.engine_rules())
            except (RulesError, ValueError):  # a form with wrong rules, shown again
                sheet = None
            context["parsheet"] = parsheet_pages.panel(sheet)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<path:object_id>/deploy/", view(self.deploy_view), name="tables_ruleset_deploy"),
            path(
                "<path:object_id>/parsheet/",
                view(self.parsheet_request_view),
                name="tables_ruleset_parsheet",
            ),
            path(
                "<path:object_id>/parsheet/status/",
                view(self.parsheet_status_view),
                name="tables_ruleset_parsheet_status",
            ),
            path(
                "<path:object_id>/parsheet/print/",
                view(self.parsheet_print_view),
                name="tables_ruleset_parsheet_print",
            ),
            *super().get_urls(),
        ]

    def _viewable(self, request, object_id) -> RuleSet:
        ruleset = get_object_or_404(RuleSet, pk=object_id)
        if not self.has_view_permission(request, ruleset):
            raise PermissionDenied
        return ruleset

    def parsheet_request_view(self, request, object_id):
        """Ask for the rule set's par sheet (the service checks the role and audits it)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        ruleset = self._viewable(request, object_id)
        if not self.has_change_permission(request, ruleset):
            raise PermissionDenied
        try:
            sheet = services.parsheet_request(ruleset_id=ruleset.pk, manager=request.user)
        except TablesError as exc:
            self.message_user(request, exc.message, messages.ERROR)
        else:
            if sheet.status == sheet.Status.DONE:
                self.message_user(request, _("The par sheet is already computed."), messages.INFO)
            else:
                self.message_user(
                    request,
                    _("The par sheet is being computed: a few minutes."),
                    messages.SUCCESS,
                )
        return HttpResponseRedirect(reverse("admin:tables_ruleset_change", args=[ruleset.pk]))

    def parsheet_status_view(self, request, object_id):
        """The computation's state, for the page to follow it without reloading."""
        ruleset = self._viewable(request, object_id)
        found = parsheet_pages.panel(base_game_sheet(ruleset.engine_rules()))
        return JsonResponse({key: found.get(key) for key in ("status", "status_label", "progress")})

    def parsheet_print_view(self, request, object_id):
        """The printable par sheet a manager files with the regulator."""
        ruleset = self._viewable(request, object_id)
        sheet = base_game_sheet(ruleset.engine_rules())
        done = sheet is not None and sheet.status == sheet.Status.DONE
        rules = parse_rules(ruleset.engine_rules())
        context = {
            **self.admin_site.each_context(request),
            "ruleset": ruleset,
            "sheet": parsheet_pages.printable(sheet, set(rules.blind_paytable.categories()))
            if done
            else None,
            "state": parsheet_pages.panel(sheet),
            "title": _("Par sheet of %(ruleset)s") % {"ruleset": ruleset},
        }
        return TemplateResponse(request, "tables/admin/parsheet_print.html", context)

    def deploy_view(self, request, object_id):
        """Move the family's closed tables to this version."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        ruleset = get_object_or_404(RuleSet, pk=object_id)
        if not self.has_change_permission(request, ruleset):
            raise PermissionDenied
        back = reverse("admin:tables_ruleset_change", args=[ruleset.pk])
        try:
            moved, still_open = services.ruleset_deploy(ruleset_id=ruleset.pk, manager=request.user)
        except TablesError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return HttpResponseRedirect(back)
        if moved:
            self.message_user(
                request,
                _(
                    "Asked for %(tables)s to play %(ruleset)s: a second manager approves each "
                    "table's deployment in the pit's queue."
                )
                % {"ruleset": ruleset, "tables": ", ".join(d.table.name for d in moved)},
                messages.SUCCESS,
            )
        elif not still_open:
            self.message_user(
                request,
                _(
                    "No table moved: no closed table plays another version of %(name)s "
                    "(its tables already play %(ruleset)s, or none plays this family)."
                )
                % {"name": ruleset.name, "ruleset": ruleset},
                messages.INFO,
            )
        else:
            self.message_user(
                request,
                _("No table moved: the tables of %(name)s on another version are all open.")
                % {"name": ruleset.name},
                messages.WARNING,
            )
        if still_open:
            self.message_user(
                request,
                _("Still open, not moved: %(tables)s. Close them, then move them.")
                % {"tables": ", ".join(t.name for t in still_open)},
                messages.WARNING,
            )
        return HttpResponseRedirect(back)


class TableForm(AmountsForm):
    class Meta:
        model = Table
        fields = ["name", "pit", "seats", "min_bet_cents", "max_bet_cents", "bank", "ruleset"]

    def clean(self):
        cleaned = super().clean()
        table = self.instance
        if table.pk is None or not table.is_open:
            return cleaned
        # The same rule as services.table_configure (FROZEN_WHILE_OPEN).
        if "ruleset" in self.changed_data and "ruleset" not in self.errors:
            self.add_error(
                "ruleset",
                ValidationError(_("This table is open: close it before changing its rule set.")),
            )
        if "bank" in self.changed_data and "bank" not in self.errors:
            self.add_error(
                "bank",
                ValidationError(
                    _("This table is open: close it before changing its progressive bank.")
                ),
            )
        return cleaned


@admin.register(Table)
class TableAdmin(AmountsShownMixin, AuditedModelAdmin):
    form = TableForm
    list_display = [
        "name",
        "pit",
        "status",
        "seats",
        "minimum",
        "maximum",
        "ruleset",
        "ruleset_approved",
        "bank",
        "dealer",
    ]
    list_filter = ["pit", "status", "bank"]
    search_fields = ["name"]
    readonly_fields = ["status", "status_since"]
    list_select_related = ["pit", "bank", "ruleset"]

    def get_readonly_fields(self, request, obj=None):
        # Another rule set version is deployed with a second manager's approval (issue 23,
        # 2: services.ruleset_deployment_request), never by one manager in this form.
        fields = list(super().get_readonly_fields(request, obj))
        return fields if obj is None else [*fields, "ruleset", "ruleset_approved"]

    def save_model(self, request, obj, form, change):
        if not change:  # its first rule set waits for a second manager (issue 23, 2)
            obj.ruleset_approved = False
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change:
            # The same request as services.table_create: the table opens once approved.
            table = form.instance
            services.ruleset_deployment_request(
                table_id=table.pk, ruleset_id=table.ruleset_id, manager=request.user
            )
            self.message_user(
                request,
                _(
                    "%(table)s's rule set waits for a second manager's approval in the pit's "
                    "queue: the table opens once it is approved."
                )
                % {"table": table},
                messages.WARNING,
            )

    @admin.display(description=_("status since"))
    def status_since(self, table):
        return table.status_changed_at or "-"

    @admin.display(description=_("table minimum"))
    def minimum(self, table):
        return money(table.min_bet_cents)

    @admin.display(description=_("table maximum"))
    def maximum(self, table):
        return money(table.max_bet_cents)

    def get_queryset(self, request):
        return with_current_assignment(super().get_queryset(request))

    @admin.display(description=_("dealer"))
    def dealer(self, table):
        current = getattr(table, "current_assignments", None)
        if current is None:
            return current_dealer(table) or "-"
        return current[0].dealer if current else "-"


# The database's names for its rules, as a manager reads them.
CONSTRAINT_WORDS = {
    "one_open_per_dealer": _(
        "This dealer already has an assignment without an end: end it before assigning them "
        "to another table."
    ),
    "one_open_per_table": _(
        "This table already has a dealer without an end: end that assignment first."
    ),
}


def _in_words(message: str) -> str:
    # The database's refusal carries the constraint's name in its formatted message only.
    for name, words in CONSTRAINT_WORDS.items():
        if name in message:
            return str(words)
    return message


class DealerAssignmentForm(forms.ModelForm):
    class Meta:
        model = DealerAssignment
        fields = ["table", "dealer", "starts_at", "ends_at"]

    def _post_clean(self):
        super()._post_clean()
        # "Constraint one_open_per_dealer is violated" names a database rule, not the problem.
        for field, errors in list(self._errors.items()):
            messages_ = [_in_words(str(m)) for m in errors]
            if messages_ != [str(m) for m in errors]:
                self._errors[field] = self.error_class(messages_, renderer=self.renderer)


@admin.register(DealerAssignment)
class DealerAssignmentAdmin(AuditedModelAdmin):
    list_display = ["table", "dealer", "starts_at", "ends_at", "assigner"]
    form = DealerAssignmentForm
    list_filter = ["table", "dealer"]
    list_select_related = ["table", "dealer", "assigned_by"]
    date_hierarchy = "starts_at"
    fields = ["table", "dealer", "starts_at", "ends_at"]

    @admin.display(description=_("assigned by"), ordering="assigned_by")
    def assigner(self, assignment):
        return assignment.assigned_by or "-"

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "dealer":
            from casino.models import Staff
            from casino.roles import Role

            kwargs["queryset"] = Staff.objects.filter(groups__name=Role.DEALER, is_active=True)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        # clean() refused every overlap; the open-ended race is the database's (unique
        # constraints one_open_per_dealer / one_open_per_table).
        if not change:
            obj.assigned_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(CorrectionRequest)
class CorrectionRequestAdmin(ReadOnlyAdminMixin, AuditedModelAdmin):
    """Corrections asked for at a tablet and decided at the pit by a second person (issue
    23, 2); read here by managers and auditors."""

    list_display = ["round", "state", "moved", "requested_by", "requested_at", "decided_by"]
    list_filter = ["state"]
    moved = money_column("amount_cents", _("amount moved"))
    list_select_related = ["round__table", "requested_by", "decided_by"]


@admin.register(RulesetDeployment)
class RulesetDeploymentAdmin(ReadOnlyAdminMixin, AuditedModelAdmin):
    """Rule set versions asked for a table by one manager and decided by a second (issue
    23, 2); read here by managers and auditors."""

    list_display = ["table", "ruleset", "previous", "state", "requested_by", "decided_by"]
    list_filter = ["state"]
    list_select_related = ["table", "ruleset", "previous", "requested_by", "decided_by"]
