"""The ratings API (spec/ratings.md): thin views under the round API's conventions, its body
checks, its JSON errors and its kept answers (tables.api.views)."""

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from casino.access import public, role_required
from casino.roles import Role
from tables.api.views import _body, _not_found, _written, answers_json
from tables.errors import RoundRefused
from tables.ratings import corrections, feed_tokens, selectors, services

WRITERS = (Role.SUPERVISOR,)
READERS = (Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)
LIMIT_MAX = 100


def _whole(request, name: str, default: int | None, *, low: int = 1, high: int = LIMIT_MAX):
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 15:
        raise RoundRefused(
            _("%(field)s must be a whole number.") % {"field": name}, code="bad_query", field=name
        )
    return max(low, min(int(raw), high))


@role_required(*READERS, *WRITERS)
@require_http_methods(["GET", "POST"])
@answers_json
def ratings_view(request):
    if request.method == "POST":  # the service admits supervisors only
        body = _body(request)
        return _written(
            services.rating_open(
                staff=request.user,
                key=body.get("key"),
                table=body.get("table"),
                seat=body.get("seat"),
                player=body.get("player"),
            )
        )
    status = request.GET.get("status") or None
    if status not in (None, "open", "paused", "closed"):
        raise RoundRefused(
            _("status must be open, paused or closed."), code="bad_query", field="status"
        )
    table = _whole(request, "table", None, high=2**53)
    limit = _whole(request, "limit", 50)
    return JsonResponse(
        {"ratings": selectors.ratings_list(table_id=table, status=status, limit=limit)}
    )


@role_required(*READERS)
@require_http_methods(["GET"])
@answers_json
def rating_view(request, rating_id: int):
    found = selectors.rating_detail(rating_id)
    if found is None:
        raise _not_found(_("rating"), rating_id)
    return JsonResponse(found)


def _action(service, *fields):
    @role_required(*WRITERS)
    @require_http_methods(["POST"])
    @answers_json
    def view(request, rating_id: int):
        body = _body(request)
        extra = {f: body.get(f) for f in fields}
        return _written(
            service(rating_id=int(rating_id), staff=request.user, key=body.get("key"), **extra)
        )

    view.__name__ = f"rating_{service.__name__}_view"
    return view


rating_pause_view = _action(services.rating_pause)
rating_resume_view = _action(services.rating_resume)
rating_buy_in_view = _action(services.rating_buy_in, "amount_cents", "instrument")
rating_move_view = _action(services.rating_move, "table", "seat")
rating_close_view = _action(services.rating_close, "walk_with_cents")
# An extension of the spec: a supervisor's correction of the open or close time, with why.
rating_time_view = _action(corrections.rating_time_correct, "opened_at", "closed_at", "reason")


# --- the feed ------------------------------------------------------------------------------


@public  # its own credential: a feed token (checked first, before anything is read)
@csrf_exempt  # a machine with a bearer token, no cookie: nothing for CSRF to protect
@require_http_methods(["GET"])
@answers_json
def feed_view(request):
    feed_tokens.feed_authorize(request.headers.get("Authorization", ""))
    limit = _whole(request, "limit", LIMIT_MAX)
    raw = request.GET.get("after") or ""
    after = None
    if raw:
        after = selectors.read_cursor(raw)
        if after is None:
            raise RoundRefused(
                _("after is not a cursor of this feed."), code="bad_cursor", field="after"
            )
    rows, following = selectors.feed_page(after=after, limit=limit)
    return JsonResponse({"ratings": rows, "next": following or (raw or None)})


@role_required(Role.MANAGER)
@require_http_methods(["GET", "POST"])
@answers_json
def feed_tokens_view(request):
    if request.method == "POST":
        body = _body(request)
        token, raw = feed_tokens.feed_token_issue(name=body.get("name"), issued_by=request.user)
        return JsonResponse({**_token_json(token), "token": raw}, status=201)
    rows = feed_tokens.FeedToken.objects.order_by("-issued_at", "-pk")
    return JsonResponse({"tokens": [_token_json(t) for t in rows]})


@role_required(Role.MANAGER)
@require_http_methods(["POST"])
@answers_json
def feed_token_revoke_view(request, token_id: int):
    token = feed_tokens.feed_token_revoke(token_id=int(token_id), revoked_by=request.user)
    return JsonResponse(_token_json(token))


def _token_json(token) -> dict:
    from tables.snapshots import iso

    return {
        "id": token.pk,
        "name": token.name,
        "issued_at": iso(token.issued_at),
        "revoked_at": iso(token.revoked_at),
        "last_seen_at": iso(token.last_seen_at),
    }
