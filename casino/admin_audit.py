"""Every configuration change made in the admin leaves an audit entry (regulatory 3, 5.1).

Subclass `AuditedModelAdmin` instead of `admin.ModelAdmin` for any model a manager may
configure. Each add, change and delete writes `admin.<app>.<model>.<add|change|delete>` with
the changed fields (before/after) in the same transaction as the change itself.
"""

from django import forms
from django.contrib import admin
from django.contrib.admin import widgets
from django.core.exceptions import FieldDoesNotExist
from django.db import models, transaction

from casino.audit import audit
from casino.money import money

# Never copy secrets into the log, even hashed: the log is read by auditors.
REDACTED_FIELDS = frozenset({"password", "pin_hash", "token", "token_hash"})


def is_secret(field_name: str) -> bool:
    return field_name in REDACTED_FIELDS or field_name.endswith("_hash") or "secret" in field_name


def _value(obj, field_name: str):
    try:
        field = obj._meta.get_field(field_name)
    except FieldDoesNotExist:  # a form-only field such as a new PIN: say it changed, not to what
        return "<redacted>"
    if is_secret(field.name):
        return "<redacted>"
    if field.many_to_many:
        if obj.pk is None:
            return []
        return sorted(str(o) for o in getattr(obj, field.name).all())
    if isinstance(field, models.ForeignKey):
        return getattr(obj, field.attname)
    value = field.value_from_object(obj)
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def snapshot(obj) -> dict:
    """The concrete field values of `obj`, as the audit log stores them."""
    return {
        f.name: _value(obj, f.name)
        for f in obj._meta.get_fields()
        if getattr(f, "concrete", False) and not f.auto_created
    }


def _code(obj, verb: str) -> str:
    return f"admin.{obj._meta.app_label}.{obj._meta.model_name}.{verb}"


class LabelledSplitDateTime(widgets.AdminSplitDateTime):
    """The admin's date and time inputs, each named by a label of its own (a screen reader
    otherwise reads two unnamed fields)."""

    template_name = "casino/widgets/split_datetime.html"


class AuditedModelAdmin(admin.ModelAdmin):
    """A ModelAdmin whose every add, change and delete is written to the audit log."""

    formfield_overrides = {
        models.DateTimeField: {
            "form_class": forms.SplitDateTimeField,
            "widget": LabelledSplitDateTime,
        }
    }

    def save_model(self, request, obj, form, change):
        # Before-values must be read before the save; the entry is written in save_related,
        # once many-to-many fields (groups of a staff member...) have their new values too.
        changed = list(getattr(form, "changed_data", []) or [])
        before = {}
        if change and obj.pk is not None:
            old = type(obj)._default_manager.filter(pk=obj.pk).first()
            if old is not None:
                before = {name: _value(old, name) for name in changed}
        obj._audit_pending = (change, changed, before)
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            obj = form.instance
            change, changed, before = getattr(obj, "_audit_pending", (change, [], {}))
            data = {"object": str(obj), "changed": changed}
            if change:
                data["before"] = before
                data["after"] = {name: _value(obj, name) for name in changed}
            else:
                data["values"] = snapshot(obj)
            audit(
                actor=request.user,
                code=_code(obj, "change" if change else "add"),
                subject=obj,
                data=data,
            )

    def save_formset(self, request, form, formset, change):
        # Inlines (a property's shifts, a paytable's lines...) are configuration too.
        before = {
            f.instance.pk: {name: _value(f.instance, name) for name in f.changed_data}
            for f in formset.forms
            if f.instance.pk is not None and f.has_changed()
        }
        if before:
            # the forms already hold the new values: read the old ones from the database
            model = formset.model
            olds = model._default_manager.in_bulk(list(before))
            for pk, fields in before.items():
                if pk in olds:
                    before[pk] = {name: _value(olds[pk], name) for name in fields}
        # Deleting clears an instance's pk: note what each one was first.
        deleted = {
            id(f.instance): (f.instance.pk, snapshot(f.instance))
            for f in getattr(formset, "deleted_forms", [])
            if f.instance.pk is not None
        }
        with transaction.atomic():
            super().save_formset(request, form, formset, change)
            for obj in getattr(formset, "new_objects", []):
                audit(
                    actor=request.user,
                    code=_code(obj, "add"),
                    subject=obj,
                    data={
                        "object": str(obj),
                        "values": snapshot(obj),
                        "parent": str(form.instance),
                    },
                )
            for obj, changed in getattr(formset, "changed_objects", []):
                audit(
                    actor=request.user,
                    code=_code(obj, "change"),
                    subject=obj,
                    data={
                        "object": str(obj),
                        "changed": list(changed),
                        "before": before.get(obj.pk, {}),
                        "after": {name: _value(obj, name) for name in changed},
                        "parent": str(form.instance),
                    },
                )
            for obj in getattr(formset, "deleted_objects", []):
                pk, values = deleted.get(id(obj), (obj.pk, snapshot(obj)))
                obj.pk = pk
                audit(
                    actor=request.user,
                    code=_code(obj, "delete"),
                    subject=obj,
                    data={
                        "object": str(obj),
                        "values": values,
                        "parent": str(form.instance),
                    },
                )

    def delete_model(self, request, obj):
        with transaction.atomic():
            self._audit_delete(request, obj)
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for obj in queryset:
                self._audit_delete(request, obj)
            super().delete_queryset(request, queryset)

    def _audit_delete(self, request, obj):
        audit(
            actor=request.user,
            code=_code(obj, "delete"),
            subject=obj,
            data={"object": str(obj), "values": snapshot(obj)},
        )


class ReadOnlyAdminMixin:
    """For records only services write (the audit log, the ledger, readings, connections):
    listed and read in the admin, never added, edited or deleted there."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def money_column(field_name: str, label):
    """A ModelAdmin attribute showing a *_cents field in the property's currency (listed in
    list_display or readonly_fields by its attribute name)."""

    @admin.display(description=label, ordering=field_name)
    def column(self, obj):
        value = getattr(obj, field_name)
        return money(value) if value is not None else "-"

    return column
