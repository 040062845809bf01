"""The audit log as an auditor reads it in the back office: newest first, each entry worded
in the reader's language (casino.audit_words), filtered by person, by code and by period of
gaming days, and exported as CSV with the same filters."""

import csv
import datetime as dt
import json

from django.contrib import admin
from django.http import StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.audit_words import code_words
from casino.ids import db_id


def subject_words(entry) -> str:
    """What the entry is about: the name the service recorded, else the subject as it names
    itself (a round by its table and number: name_subjects), else its type and id."""
    data = entry.data if isinstance(entry.data, dict) else {}
    if data.get("object"):
        return str(data["object"])
    if getattr(entry, "subject_name", None):
        return entry.subject_name
    if entry.subject_type:
        return f"{entry.subject_type} {entry.subject_id}".strip()
    return ""


def name_subjects(entries) -> None:
    """Give each entry its subject's own name (`subject_name`), one query per kind of
    subject on the page, not one per entry."""
    from django.apps import apps

    wanted: dict = {}
    for entry in entries:
        if entry.subject_type and entry.subject_id:
            wanted.setdefault(entry.subject_type, set()).add(entry.subject_id)
    names: dict = {}
    for subject_type, ids in wanted.items():
        try:
            model = apps.get_model(subject_type)
        except (LookupError, ValueError):
            continue
        keys = [key for i in ids if (key := db_id(str(i))) is not None]
        for obj in model._default_manager.filter(pk__in=keys):
            names[(subject_type, str(obj.pk))] = str(obj)
    for entry in entries:
        entry.subject_name = names.get((entry.subject_type, str(entry.subject_id)), "")


class PersonFilter(admin.SimpleListFilter):
    """Whoever made the entries (only people the log names, so the list stays short)."""

    title = gettext_lazy("person")
    parameter_name = "person"

    def lookups(self, request, model_admin):
        from casino.models import Staff

        ids = model_admin.model.objects.exclude(actor=None).order_by().values("actor_id").distinct()
        return [(str(s.pk), str(s)) for s in Staff.objects.filter(pk__in=ids).order_by("username")]

    def queryset(self, request, queryset):
        value = self.value()
        if (actor_id := db_id(value)) is not None:
            return queryset.filter(actor_id=actor_id)
        return queryset


class CodeFilter(admin.SimpleListFilter):
    """The codes the log holds, each in the reader's words."""

    title = gettext_lazy("what")
    parameter_name = "code"

    def lookups(self, request, model_admin):
        codes = model_admin.model.objects.order_by().values_list("code", flat=True).distinct()
        return sorted(((c, code_words(c)) for c in codes), key=lambda pair: pair[1].casefold())

    def queryset(self, request, queryset):
        return queryset.filter(code=self.value()) if self.value() else queryset


class PeriodFilter(admin.ListFilter):
    """From one gaming day to another (either end may be left open)."""

    title = gettext_lazy("period (gaming days)")
    template = "admin/casino/auditentry/period_filter.html"
    names = ("since", "until")

    def __init__(self, request, params, model, model_admin):
        super().__init__(request, params, model, model_admin)
        for name in self.names:
            if name in params:
                value = params.pop(name)[-1]
                try:
                    self.used_parameters[name] = dt.date.fromisoformat(value)
                except ValueError:
                    self.used_parameters[name] = None

    def has_output(self):
        return True

    def expected_parameters(self):
        return list(self.names)

    def choices(self, changelist):
        kept = [
            (name, value)
            for name, values in self.request.GET.lists()
            if name not in (*self.names, "p")
            for value in values
        ]
        yield {
            "since": self.used_parameters.get("since"),
            "until": self.used_parameters.get("until"),
            "kept": kept,
        }

    def queryset(self, request, queryset):
        since, until = self.used_parameters.get("since"), self.used_parameters.get("until")
        if since:
            queryset = queryset.filter(gaming_date__gte=since)
        if until:
            queryset = queryset.filter(gaming_date__lte=until)
        return queryset


class _Echo:
    def write(self, value):
        return value


def audit_csv(entries, *, filename: str) -> StreamingHttpResponse:
    """The entries as CSV, one row each, the words in the reader's language and the code,
    the data and the hash as stored (what an auditor checks against `audit_verify`)."""
    writer = csv.writer(_Echo())
    header = [
        _("position"),
        _("time"),
        _("gaming date"),
        _("shift"),
        _("person"),
        _("what"),
        _("code"),
        _("subject"),
        _("data"),
        _("hash"),
    ]
    zone = timezone.get_current_timezone()

    def chunks(size=2000):
        chunk = []
        for entry in entries.iterator(chunk_size=size):
            chunk.append(entry)
            if len(chunk) == size:
                name_subjects(chunk)
                yield from chunk
                chunk = []
        name_subjects(chunk)
        yield from chunk

    def rows():
        yield writer.writerow(header)
        for entry in chunks():
            yield writer.writerow(
                [
                    entry.position,
                    entry.created_at.astimezone(zone).isoformat(timespec="seconds"),
                    entry.gaming_date.isoformat() if entry.gaming_date else "",
                    entry.shift,
                    str(entry.actor) if entry.actor_id else "",
                    code_words(entry.code),
                    entry.code,
                    subject_words(entry),
                    json.dumps(entry.data, ensure_ascii=False, sort_keys=True),
                    entry.hash,
                ]
            )

    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
