"""The admin is where managers configure the casino; every change there is audited.

Managers may add and change (never delete) configuration; auditors only view; dealers and
supervisors have no admin (see casino.permissions). Staff secrets never appear in forms:
a new password or PIN is typed in clear once and stored hashed.
"""

from django import forms
from django.contrib import admin
from django.contrib.auth.hashers import make_password
from django.utils.translation import gettext_lazy as _

from casino.admin_audit import AuditedModelAdmin, ReadOnlyAdminMixin
from casino.models import AuditEntry, Pit, Property, Shift, Staff


class ShiftInline(admin.TabularInline):
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
    list_display = ["code", "starts_at", "property"]


class StaffForm(forms.ModelForm):
    new_password = forms.CharField(
        label=_("new password"), required=False, widget=forms.PasswordInput(render_value=False)
    )
    new_pin = forms.RegexField(
        label=_("new PIN"),
        regex=r"^\d{4,8}$",
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=_("4 to 8 digits. Leave empty to keep the current PIN."),
    )

    class Meta:
        model = Staff
        fields = [
            "username",
            "first_name",
            "last_name",
            "employee_number",
            "language",
            "groups",
            "is_active",
        ]

    def save(self, commit=True):
        staff = super().save(commit=False)
        if self.cleaned_data.get("new_password"):
            staff.set_password(self.cleaned_data["new_password"])
        elif staff.pk is None:
            staff.set_unusable_password()
        if self.cleaned_data.get("new_pin"):
            staff.pin_hash = make_password(self.cleaned_data["new_pin"])
            staff.failed_pin_attempts = 0
            staff.pin_locked_until = None
        if commit:
            staff.save()
            self.save_m2m()
        return staff


@admin.register(Staff)
class StaffAdmin(AuditedModelAdmin):
    # Not the stock UserAdmin: a manager must not be able to grant superuser, raw permissions
    # or the admin door (is_staff follows the roles).
    form = StaffForm
    list_display = ["username", "employee_number", "first_name", "last_name", "is_active"]
    list_filter = ["groups", "is_active"]
    search_fields = ["username", "employee_number", "first_name", "last_name"]
    readonly_fields = ["failed_pin_attempts", "pin_locked_until", "last_login", "is_staff"]
    filter_horizontal = ["groups"]

    def has_change_permission(self, request, obj=None):
        # A manager who could reset a superuser's password could become one.
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["id", "created_at", "gaming_date", "shift", "code", "actor", "subject_type"]
    list_filter = ["code", "gaming_date", "shift"]
    search_fields = ["code", "subject_id"]
    readonly_fields = [f.name for f in AuditEntry._meta.fields]
