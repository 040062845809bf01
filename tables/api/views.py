"""Thin views: parse the JSON, call one service or selector, answer JSON.

Errors are the domain's (`{"error": {"code", "message", "field"?}}` with its HTTP status),
worded in the signed-in person's language. Every view names the roles it admits.
"""

import json
import math
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.contrib.auth import logout
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.access import public, role_required
from casino.api_errors import too_large_message
from casino.errors import BodyTooLarge, CasinoError
from casino.pins import pin_login
from casino.roles import Role, role_names
from tables import selectors
from tables.api.openapi import OPENAPI
from tables.errors import NotFound, RoundRefused
from tables.services import rounds as services
from tables.services.rounds import RoundWrite
from tables.snapshots import round_snapshot, staff_ref

STAFF = (Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)
AT_THE_TABLE = (Role.DEALER, Role.SUPERVISOR)
RECORDS = (Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)


def answers_json(view):
    """Domain errors become their JSON answer; nothing else is caught (a bug stays a 500)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            for name, what in (
                ("table_id", _("table")),
                ("round_id", _("round")),
                ("rating_id", _("rating")),
                ("token_id", _("feed token")),
            ):
                # The address's digits may be any number of them; no row has such an id, and
                # the database would refuse to compare it (a DataError, a 500).
                digits = str(kwargs.get(name, ""))
                if len(digits) > 15 or not digits.isascii():
                    raise _not_found(what, digits[:15] + "...")
            return view(request, *args, **kwargs)
        except CasinoError as exc:
            return JsonResponse(exc.as_json(), status=exc.http_status, headers=exc.headers)

    return wrapper


#: Bodies are a few levels deep (a correction's round is the deepest, about 6): far deeper is
#: hostile, and json.loads recurses once per level (RecursionError, a 500, at about 1,000).
MAX_DEPTH = 32
#: The largest integer a JSON client can say exactly (JavaScript's Number.MAX_SAFE_INTEGER);
#: nothing in a round (cents, seats, seqs, ids) comes near it, every column holds it.
MAX_INTEGER = 2**53 - 1


def _refuse_constant(name: str):
    raise ValueError(name)  # NaN, Infinity: not numbers a round has


def _body(request) -> dict:
    """The request's JSON object, checked as a whole before any service sees it: not JSON,
    not an object, nested too deep, a NUL byte in a text or a key, an integer beyond
    MAX_INTEGER or a float that is not finite are each refused with their code, nothing
    changed."""
    raw = request.body
    if len(raw) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        # A body sent without its length (chunked) passes Django's own limit, which reads
        # only the declared length.
        raise BodyTooLarge(too_large_message())
    try:
        body = json.loads(raw or b"{}", parse_constant=_refuse_constant)
    except RecursionError:
        raise _too_deep() from None
    except (ValueError, UnicodeDecodeError):
        raise RoundRefused(_("The request body is not JSON."), code="bad_json") from None
    if not isinstance(body, dict):
        raise RoundRefused(_("The request body must be a JSON object."), code="bad_json")
    _check_values(body)
    return body


def _too_deep() -> RoundRefused:
    return RoundRefused(
        _("The request body is nested more than %(depth)s levels deep.") % {"depth": MAX_DEPTH},
        code="bad_json",
    )


def _check_values(body: dict) -> None:
    pending: list[tuple[object, int, str]] = [(body, 1, "")]
    while pending:  # iterative: checking a deep body must not overflow the stack itself
        value, depth, path = pending.pop()
        if depth > MAX_DEPTH:
            raise _too_deep()
        if isinstance(value, dict):
            for key, child in value.items():
                where = f"{path}.{key}" if path else key
                if not _storable(key):
                    raise _nul(path or "body")
                pending.append((child, depth + 1, where))
        elif isinstance(value, list):
            pending.extend((child, depth + 1, f"{path}[{i}]") for i, child in enumerate(value))
        elif isinstance(value, str):
            if not _storable(value):
                raise _nul(path)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not -MAX_INTEGER <= value <= MAX_INTEGER:
                raise RoundRefused(
                    _("%(field)s is too large a number (at most %(max)s).")
                    % {"field": path, "max": MAX_INTEGER},
                    code="bad_number",
                    field=path,
                )
        elif isinstance(value, float) and not math.isfinite(value):
            raise RoundRefused(
                _("%(field)s is not a finite number.") % {"field": path},
                code="bad_number",
                field=path,
            )


def _storable(text: str) -> bool:
    """No NUL byte (PostgreSQL's text refuses it) and no lone surrogate: a `\\ud800` escape
    is valid JSON but half a character, which no UTF-8 text holds (the database driver, the
    cache and the JSON answer would each fail on it)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _nul(path: str) -> RoundRefused:
    # `path` names keys already checked (a bad key is refused before its value is looked at).
    return RoundRefused(
        _("%(field)s contains a NUL byte or half a character, which no text may hold.")
        % {"field": path},
        code="bad_text",
        field=path,
    )


@dataclass(frozen=True)
class Written:
    """A write's HTTP answer: its status and JSON body, the same again for a retried key.
    A round service's outcome is answered with the status spec/round-api.md gives it (the
    code kept with the answer under its key)."""

    status: int
    body: dict

    @classmethod
    def of(cls, result: RoundWrite) -> "Written":
        return cls(int(result.status), result.body)

    def response(self) -> JsonResponse:
        return JsonResponse(self.body, status=self.status)


def _written(result: RoundWrite) -> JsonResponse:
    return Written.of(result).response()


def _not_found(what: str, pk) -> NotFound:
    return NotFound(_("There is no %(what)s #%(id)s.") % {"what": what, "id": pk})


# --- session -------------------------------------------------------------------------------


@public
@require_http_methods(["POST"])
@answers_json
def login_view(request):
    body = _body(request)
    staff = pin_login(
        request,
        employee_number=str(body.get("employee_number", "")),
        pin=str(body.get("pin", "")),
    )
    return JsonResponse({"staff": _staff_json(staff)})


def _staff_json(staff) -> dict:
    return {
        **staff_ref(staff),
        "employee_number": staff.employee_number,
        "roles": sorted(role_names(staff)),
        "language": staff.language,
    }


@role_required(*STAFF)
@require_http_methods(["POST"])
def logout_view(request):
    logout(request)
    return JsonResponse({"staff": None})


@public
@require_http_methods(["GET"])
def openapi_view(request):
    return JsonResponse(OPENAPI)


# --- tables --------------------------------------------------------------------------------


@role_required(*STAFF)
@require_http_methods(["GET"])
def tables_view(request):
    return JsonResponse(selectors.tables_for(request.user), safe=False)


@role_required(*STAFF)
@require_http_methods(["GET"])
@answers_json
def table_view(request, table_id: int):
    found = selectors.table_detail(table_id)
    if found is None:
        raise _not_found(_("table"), table_id)
    return JsonResponse(found)


@role_required(*AT_THE_TABLE)
@require_http_methods(["POST"])
@answers_json
def round_open_view(request, table_id: int):
    body = _body(request)
    return _written(
        services.round_open(table_id=table_id, dealer=request.user, key=body.get("key"))
    )


@role_required(*RECORDS)
@require_http_methods(["GET"])
@answers_json
def recall_view(request, table_id: int):
    if selectors.table_detail(table_id) is None:
        raise _not_found(_("table"), table_id)
    try:
        limit = max(1, min(int(request.GET.get("limit", 10)), 100))
    except ValueError:
        raise RoundRefused(
            _("limit must be a whole number."), code="bad_limit", field="limit"
        ) from None
    return JsonResponse(selectors.table_recall(table_id, limit=limit), safe=False)


# --- rounds --------------------------------------------------------------------------------


def _round(round_id):
    round_ = selectors.round_for_api(round_id)
    if round_ is None:
        raise _not_found(_("round"), round_id)
    return round_


@role_required(*STAFF)
@require_http_methods(["GET"])
@answers_json
def round_view(request, round_id: int):
    return JsonResponse(round_snapshot(_round(round_id)))


@role_required(*AT_THE_TABLE)
@require_http_methods(["POST"])
@answers_json
def round_events_view(request, round_id: int):
    body = _body(request)
    written = services.round_event_record(
        round_id=round_id,
        actor=request.user,
        key=body.get("key"),
        expected_seq=body.get("expected_seq"),
        event=body.get("event"),
        supervisor=body.get("supervisor"),
    )
    return _written(written)


@role_required(*STAFF)
@require_http_methods(["GET"])
@answers_json
def settlement_view(request, round_id: int):
    return JsonResponse(services.settlement_preview(_round(round_id)))


@role_required(*AT_THE_TABLE)
@require_http_methods(["POST"])
@answers_json
def corrections_view(request, round_id: int):
    body = _body(request)
    written = services.round_correct(
        round_id=round_id,
        actor=request.user,
        key=body.get("key"),
        supervisor=body.get("supervisor"),
        reason=body.get("reason"),
        corrected=body.get("round"),
    )
    return _written(written)


@role_required(*AT_THE_TABLE)
@require_http_methods(["POST"])
@answers_json
def correction_preview_view(request, round_id: int):
    """The engine's settlement of corrected facts, shown before the supervisor's PIN."""
    body = _body(request)
    preview = services.correction_preview(
        round_id=round_id, actor=request.user, corrected=body.get("round")
    )
    return JsonResponse(preview)


@role_required(*RECORDS)
@require_http_methods(["GET"])
@answers_json
def export_view(request, round_id: int):
    round_ = _round(round_id)
    if round_.settlement is None:
        raise RoundRefused(
            _("This round is not settled yet: there is nothing to export."),
            code="not_settled",
        )
    corrections = [
        {"number": c.number, "reason": c.reason, "input": c.input, "output": c.output}
        for c in round_.corrections.all()
    ]
    return JsonResponse(
        {
            "input": round_.settlement_input,
            "output": round_.settlement,
            "corrections": corrections,
        }
    )
