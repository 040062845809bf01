"""The admin is where managers configure the casino and staff administrators administer the
accounts; every change there is audited.

Managers may add and change (never delete) configuration; staff administrators add staff, ask
for and approve role grants, set temporary passwords and PINs; auditors only view; dealers
and supervisors have no admin (see casino.permissions). Secrets never appear in forms: a
temporary password or PIN is typed in clear once and stored hashed.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino import staffing
from casino.admin_audit import AuditedModelAdmin, ReadOnlyAdminMixin
from casino.audit_log import (
    CodeFilter,
    PeriodFilter,
    PersonFilter,
    audit_csv,
    name_subjects,
    subject_words,
)
from casino.audit_words import code_words
from casino.duties import require_independent
from casino.errors import CasinoError
from casino.models import AuditEntry, Pit, Property, RoleGrant, Shift, Staff
from casino.roles import Role, has_role

# The admin is Tapis's back office, not "Django administration".
admin.site.site_header = _("Tapis back office")
admin.site.site_title = _("Tapis back office")
admin.site.index_title = _("Configuration of the casino")


class RoleFilter(admin.SimpleListFilter):
    """Roles by their names in the reader's language, not the groups' code names."""

    title = _("role")
    parameter_name = "role"

    def lookups(self, request, model_admin):
        return Role.choices

    def queryset(self, request, queryset):
        if self.value() in Role.values:
            return queryset.filter(groups__name=self.value())
        return queryset


admin.site.unregister(Group)


@admin.register(Group)
class RoleGroupAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """A role's group holds its permissions (casino.permissions keeps them): read here only."""

    list_display = ["role_name"]
    fields = ["role_name"]
    readonly_fields = ["role_name"]

    @admin.display(description=_("role"))
    def role_name(self, group):
        return Role(group.name).label if group.name in Role.values else group.name

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # A role's page would say no more than its name, headed by its code name: the list.
        return HttpResponseRedirect(reverse("admin:auth_group_changelist"))


class ShiftInline(admin.StackedInline):
    """Stacked, so that each field has its label (a tabular row's inputs have none)."""

    model = Shift
    extra = 0


@admin.register(Property)
class PropertyAdmin(AuditedModelAdmin):
    list_display = ["name", "time_zone", "gaming_day_start_hour", "currency", "language"]
    inlines = [ShiftInline]


@admin.register(Pit)
class PitAdmin(AuditedModelAdmin):
    list_display = ["name", "property"]


@admin.register(Shift)
class ShiftAdmin(AuditedModelAdmin):
    list_display = ["code", "name", "name_en", "starts_at", "property"]


class _StaffForm(forms.ModelForm):
    """The account's own fields; roles and secrets go through casino.staffing's services."""

    actor = None  # the staff administrator at the admin, set by StaffAdmin.get_form

    temporary_password = forms.CharField(
        label=_("temporary password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=_("Its owner must replace it at the next sign-in."),
    )
    temporary_pin = forms.RegexField(
        label=_("temporary PIN"),
        regex=r"^[0-9]{4,8}$",
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=_("4 to 8 digits. Its owner must replace it before it approves anything."),
    )
    reason = forms.CharField(label=_("reason"), required=False, max_length=200)

    class Meta:
        model = Staff
        fields = ["username", "first_name", "last_name", "employee_number", "language"]

    def clean_temporary_password(self):
        password = self.cleaned_data.get("temporary_password")
        if password:
            validate_password(password, user=self.instance)
        return password


class StaffAddForm(_StaffForm):
    roles = forms.MultipleChoiceField(
        label=_("roles"),
        choices=Role.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("A privileged role waits for a second staff administrator's approval."),
    )

    def clean(self):
        data = super().clean()
        if not data.get("temporary_password"):
            self.add_error("temporary_password", _("A new account needs a temporary password."))
        try:
            staffing.check_role_mix(data.get("roles") or [])
        except CasinoError as err:
            self.add_error("roles", err.message)
        return data


class StaffChangeForm(_StaffForm):
    grant_roles = forms.MultipleChoiceField(
        label=_("ask for roles"),
        choices=Role.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("A privileged role waits for a second staff administrator's approval."),
    )
    revoke_roles = forms.MultipleChoiceField(
        label=_("take roles back"),
        choices=Role.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def clean(self):
        data = super().clean()
        arming = ("grant_roles", "temporary_password", "temporary_pin")
        if any(data.get(name) for name in arming) and self.actor is not None:
            # Checked (and a refusal audited) before anything is written: nobody gives
            # themselves a role or a password they chose.
            try:
                require_independent(
                    approver=self.actor, asker=self.instance, action="casino.role.request"
                )
            except CasinoError as err:
                raise forms.ValidationError(err.message) from None
        return data


@admin.register(Staff)
class StaffAdmin(AuditedModelAdmin):
    # Not the stock UserAdmin: nobody may grant superuser, raw permissions or the admin door
    # (is_staff follows the roles), and roles and secrets go through casino.staffing.
    list_display = ["username", "employee_number", "first_name", "last_name", "roles", "is_active"]
    list_filter = [RoleFilter, "is_active"]
    search_fields = ["username", "employee_number", "first_name", "last_name"]
    readonly_fields = [
        "roles",
        "waiting_grants",
        "is_active",
        "password_is_temporary",
        "pin_is_temporary",
        "failed_pin_attempts",
        "pin_locked_until",
        "last_login",
        "date_joined",
        "is_staff",
    ]
    actions = ["deactivate", "reactivate"]

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if obj is not None and not self.has_change_permission(request, obj):
            # A reader (an auditor, a manager) sees the account, not the boxes to change it.
            form_only = set(StaffChangeForm.declared_fields)
            fields = [f for f in fields if f not in form_only]
        return fields

    def get_form(self, request, obj=None, change=False, **kwargs):
        base = StaffChangeForm if obj is not None else StaffAddForm
        kwargs["form"] = type(base.__name__, (base,), {"actor": request.user})
        return super().get_form(request, obj, change=change, **kwargs)

    @admin.display(description=_("roles"))
    def roles(self, obj):
        names = sorted(obj.groups.values_list("name", flat=True))
        return ", ".join(str(Role(n).label) for n in names if n in Role.values) or "-"

    @admin.display(description=_("grants waiting for approval"))
    def waiting_grants(self, obj):
        waiting = obj.role_grants.filter(state=RoleGrant.State.REQUESTED)
        return ", ".join(str(g.get_role_display()) for g in waiting) or "-"

    def has_change_permission(self, request, obj=None):
        # A superuser is administered at the console only.
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False  # an account is deactivated, never deleted: the records name it

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except CasinoError as err:
            self.message_user(request, err.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            super().save_model(request, obj, form, change)
            return
        created = staffing.staff_create(
            username=obj.username,
            roles=data.get("roles") or [],
            password=data["temporary_password"],
            pin=data.get("temporary_pin") or None,
            employee_number=obj.employee_number,
            first_name=obj.first_name,
            last_name=obj.last_name,
            language=obj.language,
            actor=request.user,
        )
        obj.pk = created.pk
        obj._state.adding = False
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        if not change:
            return  # staff_create audited the new account and each of its roles
        super().save_related(request, form, formsets, change)
        data, staff, actor = form.cleaned_data, form.instance, request.user
        reason = data.get("reason", "")
        for role in data.get("revoke_roles") or []:
            staffing.role_revoke(staff_id=staff.pk, role=role, actor=actor, reason=reason)
        for role in data.get("grant_roles") or []:
            staffing.role_grant_request(staff_id=staff.pk, role=role, actor=actor, reason=reason)
        if data.get("temporary_password"):
            staffing.staff_temporary_password_set(
                staff_id=staff.pk, password=data["temporary_password"], actor=actor
            )
        if data.get("temporary_pin"):
            staffing.staff_temporary_pin_set(
                staff_id=staff.pk, pin=data["temporary_pin"], actor=actor
            )

    def _each(self, request, queryset, service, done_message):
        done = 0
        for staff in queryset:
            try:
                service(staff_id=staff.pk, actor=request.user)
                done += 1
            except CasinoError as err:
                self.message_user(request, f"{staff}: {err.message}", messages.ERROR)
        if done:
            self.message_user(request, done_message % {"count": done}, messages.SUCCESS)

    @admin.action(description=_("Deactivate the selected accounts"), permissions=["change"])
    def deactivate(self, request, queryset):
        self._each(request, queryset, staffing.staff_deactivate, _("%(count)s deactivated"))

    @admin.action(description=_("Reactivate the selected accounts"), permissions=["change"])
    def reactivate(self, request, queryset):
        self._each(request, queryset, staffing.staff_reactivate, _("%(count)s reactivated"))


@admin.register(RoleGrant)
class RoleGrantAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Grants are asked for on the staff member's page; a second staff administrator approves
    or rejects them here."""

    list_display = ["staff", "role", "state", "requested_by", "requested_at", "decided_by"]
    list_filter = ["state", "role"]
    search_fields = ["staff__username", "staff__last_name"]
    readonly_fields = [f.name for f in RoleGrant._meta.fields]
    actions = ["approve", "reject"]

    def has_decide_permission(self, request):
        return has_role(request.user, Role.STAFF_ADMIN)

    def _each(self, request, queryset, call, done_message):
        done = 0
        for grant in queryset:
            try:
                call(grant)
                done += 1
            except CasinoError as err:
                self.message_user(request, f"{grant}: {err.message}", messages.ERROR)
        if done:
            self.message_user(request, done_message % {"count": done}, messages.SUCCESS)

    @admin.action(description=_("Approve the selected role grants"), permissions=["decide"])
    def approve(self, request, queryset):
        self._each(
            request,
            queryset,
            lambda g: staffing.role_grant_approve(grant_id=g.pk, approver=request.user),
            _("%(count)s approved"),
        )

    @admin.action(description=_("Reject the selected role grants"), permissions=["decide"])
    def reject(self, request, queryset):
        self._each(
            request,
            queryset,
            lambda g: staffing.role_grant_reject(grant_id=g.pk, actor=request.user),
            _("%(count)s rejected"),
        )


class ShiftFilter(admin.SimpleListFilter):
    """Shifts by their names in the reader's language ("soir"), not their stored codes."""

    title = _("shift")
    parameter_name = "shift"

    def lookups(self, request, model_admin):
        return list(Shift.names().items())

    def queryset(self, request, queryset):
        if self.value() in Shift.Code.values:
            return queryset.filter(shift=self.value())
        return queryset


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The audit log, newest first, worded in the reader's language; filtered by person,
    what was done and period; exported as CSV with the same filters (casino.audit_log)."""

    change_list_template = "admin/casino/auditentry/change_list.html"
    list_display = ["position", "created_at", "gaming_date", "shift_name", "what", "actor", "about"]
    list_display_links = ["position"]
    list_filter = [PersonFilter, CodeFilter, PeriodFilter, ShiftFilter]
    search_fields = ["code", "subject_id"]
    ordering = ["-position"]
    list_select_related = ["actor"]
    readonly_fields = [
        "what" if f.name == "code" else "shift_name" if f.name == "shift" else f.name
        for f in AuditEntry._meta.fields
    ] + ["code"]
    fields = readonly_fields

    @admin.display(description=_("shift"), ordering="shift")
    def shift_name(self, entry):
        return shift_label(entry.shift)

    @admin.display(description=_("what"), ordering="code")
    def what(self, entry):
        return code_words(entry.code)

    @admin.display(description=_("about"))
    def about(self, entry):
        return subject_words(entry)

    def get_changelist(self, request, **kwargs):
        class NamedSubjects(super().get_changelist(request, **kwargs)):
            def get_results(self, request):
                super().get_results(request)
                name_subjects(self.result_list)

        return NamedSubjects

    def get_urls(self):
        export = self.admin_site.admin_view(self.export_view)
        return [
            path("export/", export, name="casino_auditentry_export"),
            *super().get_urls(),
        ]

    def export_view(self, request):
        """The entries the list shows (same filters), all of them, as CSV."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        entries = self.get_changelist_instance(request).get_queryset(request)
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
        return audit_csv(entries.select_related("actor"), filename=f"audit-log-{stamp}.csv")


def shift_label(code: str) -> str:
    """A shift's code ("swing", stored on records) as the reader's language names it."""
    return str(Shift.Code(code).label) if code in Shift.Code.values else (code or "-")
