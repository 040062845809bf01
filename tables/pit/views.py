"""The pit boss's screen: thin views. Each action calls the one service that owns the change
(the same one the tablet, the admin or the API calls), then returns to the page it came from
with what happened, in the reader's language."""

import uuid

from django.contrib import messages
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.access import role_required
from casino.errors import CasinoError
from casino.ids import db_id
from casino.money import parse_cents
from casino.roles import Role, has_role
from jackpot.services import (
    adjustment_approve,
    adjustment_reject,
    adjustment_request,
    hit_pay,
    hit_verify,
    parameter_change_approve,
    parameter_change_reject,
)
from tables import services
from tables.models import Table
from tables.pit import alerts as pit_alerts
from tables.pit import live as pit_live
from tables.pit import selectors
from tables.pit.seats import carded_players, open_tables, seat_map
from tables.pit.selectors import PIT_ACTORS, PIT_READERS
from tables.ratings.models import BuyIn
from tables.services.rounds import (
    round_correction_approve,
    round_correction_reject,
    round_void,
)


def _back(request, default: str):
    target = request.POST.get("next", "")
    # A path on this site only: redirect() takes "0" or "1234" for a URL name (NoReverseMatch).
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return redirect(target)
    return redirect(default)


def _act(request, default: str, action, done: str, *, refusals: dict | None = None):
    """Run one service; say what it did, or why it refused (nothing changed then).
    `refusals`: the page's own words for a refusal's code, where the service's words speak
    of a field this page does not have."""
    try:
        action()
    except CasinoError as exc:
        messages.error(request, (refusals or {}).get(exc.code, exc.message))
    else:
        messages.success(request, done)
        pit_live.announce_floor_changed()
    return _back(request, default)


def _pit_id(request):
    return db_id(request.GET.get("pit", ""))


def _page_context(request) -> dict:
    return {
        "powers": selectors.powers_of(request.user),
        "time_zone": selectors.time_zone(),
    }


@role_required(*PIT_READERS)
@require_GET
@never_cache
def floor(request):
    from casino.models import Pit

    pit_id = _pit_id(request)
    return render(
        request,
        "pit/floor.html",
        {
            **_page_context(request),
            "cards": selectors.table_cards(pit_id=pit_id),
            "banks": selectors.bank_meters(request.LANGUAGE_CODE),
            "approvals": selectors.approvals(),
            "alerts": pit_alerts.alerts_json(pit_alerts.alerts_open()),
            "acknowledged": pit_alerts.alerts_json(pit_alerts.alerts_acknowledged()),
            "silent": pit_alerts.process_alerts_json(),
            "pits": Pit.objects.order_by("name"),
            "pit_id": pit_id,
            "key": uuid.uuid4().hex,
        },
    )


# Fragments the page fetches when its socket says something moved ---------------------------


@role_required(*PIT_READERS)
@require_GET
@never_cache
def cards_fragment(request):
    wanted = [i for v in request.GET.get("ids", "").split(",")[:200] if (i := db_id(v)) is not None]
    cards = selectors.table_cards(table_ids=wanted or None, pit_id=_pit_id(request))
    return render(request, "pit/_cards.html", {**_page_context(request), "cards": cards})


@role_required(*PIT_READERS)
@require_GET
@never_cache
def approvals_fragment(request):
    return render(
        request,
        "pit/_approvals.html",
        {
            **_page_context(request),
            "approvals": selectors.approvals(),
            "key": uuid.uuid4().hex,
            "next": request.GET.get("next", "/pit/"),
        },
    )


@role_required(*PIT_READERS)
@require_GET
@never_cache
def alerts_fragment(request):
    return render(
        request,
        "pit/_alerts.html",
        {
            **_page_context(request),
            "alerts": pit_alerts.alerts_json(pit_alerts.alerts_open()),
            "acknowledged": pit_alerts.alerts_json(pit_alerts.alerts_acknowledged()),
            "silent": pit_alerts.process_alerts_json(),
        },
    )


@role_required(*PIT_READERS)
@require_GET
@never_cache
def banks_fragment(request):
    return render(
        request,
        "pit/_banks.html",
        {**_page_context(request), "banks": selectors.bank_meters(request.LANGUAGE_CODE)},
    )


# A table ------------------------------------------------------------------------------------


@role_required(*PIT_READERS)
@require_GET
@never_cache
def table(request, table_id: int):
    table = get_object_or_404(Table.objects.select_related("pit", "ruleset"), pk=table_id)
    cards = selectors.table_cards(table_ids=[table.pk])
    return render(
        request,
        "pit/table.html",
        {
            **_page_context(request),
            "table": table,
            "card_list": cards,
            "recall": selectors.recall(table.pk, limit=10),
            "dealers": selectors.dealers_to_assign(),
            "versions": selectors.ruleset_versions(table),
            "assignment": selectors.current_assignment_of(table.pk),
            "tray": selectors.last_tray_count(table.pk),
            **_seat_map_context(request, table),
        },
    )


def _seat_map_context(request, table: Table) -> dict:
    """The seat map's part of the table's page (pit/_seats.html), also read alone."""
    rates = has_role(request.user, Role.SUPERVISOR)
    return {
        "seats": seat_map(table),
        "rates": rates,
        "players": carded_players() if rates else (),
        "move_to": open_tables(),
        "instruments": BuyIn.INSTRUMENTS,
        "key": uuid.uuid4().hex,
        # Where its forms come back to: the table's page, also from the fragment.
        "table_page": reverse("pit:table", args=[table.pk]),
    }


@role_required(*PIT_READERS)
@require_GET
@never_cache
def seats_fragment(request, table_id: int):
    """The seat map alone: the table's page reads it again when the pit's socket says a
    rating changed there (another supervisor's write)."""
    table = get_object_or_404(Table, pk=table_id)
    return render(
        request,
        "pit/_seats.html",
        {**_page_context(request), "table": table, **_seat_map_context(request, table)},
    )


def _confirmed(request, table: Table, opening: bool):
    """Opening or closing a table is asked once more before it is done: the first POST shows
    what will happen, the second (with confirm=yes) does it. None once confirmed."""
    if request.POST.get("confirm") == "yes":
        return None
    return render(
        request,
        "pit/confirm_table.html",
        {
            **_page_context(request),
            "table": table,
            "opening": opening,
            "card_list": selectors.table_cards(table_ids=[table.pk]),
            "next": request.POST.get("next", ""),
        },
    )


@role_required(*PIT_ACTORS)
@require_POST
def table_open(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    if (asked := _confirmed(request, table, opening=True)) is not None:
        return asked
    return _act(
        request,
        "/pit/",
        lambda: services.table_open(table_id=table.pk, supervisor=request.user),
        _("%(table)s is open.") % {"table": table},
    )


@role_required(*PIT_ACTORS)
@require_POST
def table_close(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    if (asked := _confirmed(request, table, opening=False)) is not None:
        return asked
    return _act(
        request,
        "/pit/",
        lambda: services.table_close(table_id=table.pk, supervisor=request.user),
        _("%(table)s is closed.") % {"table": table},
    )


@role_required(*PIT_ACTORS)
@require_POST
def dealer_rotate(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    dealer_id = request.POST.get("dealer", "")
    if db_id(dealer_id) is None:
        messages.error(request, _("Choose the dealer who takes the table."))
        return _back(request, f"/pit/tables/{table.pk}/")
    from casino.models import Staff

    dealer = Staff.objects.filter(pk=int(dealer_id)).first()
    if dealer is None:
        messages.error(request, _("There is no such dealer."))
        return _back(request, f"/pit/tables/{table.pk}/")
    return _act(
        request,
        f"/pit/tables/{table.pk}/",
        lambda: services.dealer_rotate(
            table_id=table.pk, dealer_id=dealer.pk, supervisor=request.user
        ),
        _("%(dealer)s now deals %(table)s.") % {"dealer": dealer, "table": table},
    )


@role_required(*PIT_ACTORS)
@require_POST
def assignment_end(request, table_id: int):
    assignment = selectors.current_assignment_of(table_id)
    if assignment is None:
        messages.error(request, _("Nobody deals this table now: there is nothing to end."))
        return _back(request, f"/pit/tables/{table_id}/")
    return _act(
        request,
        f"/pit/tables/{table_id}/",
        lambda: services.assignment_end(assignment_id=assignment.pk, supervisor=request.user),
        _("%(dealer)s has left %(table)s.")
        % {"dealer": assignment.dealer, "table": assignment.table},
    )


@role_required(*PIT_ACTORS)
@require_POST
def table_ruleset(request, table_id: int):
    from tables.models import RuleSet

    table = get_object_or_404(Table.objects.select_related("ruleset"), pk=table_id)
    wanted = request.POST.get("ruleset", "")
    version = (
        RuleSet.objects.filter(pk=int(wanted), name=table.ruleset.name).first()
        if db_id(wanted) is not None
        else None
    )
    if version is None:
        messages.error(request, _("Choose a version of this table's rule set."))
        return _back(request, f"/pit/tables/{table.pk}/")
    return _act(
        request,
        f"/pit/tables/{table.pk}/",
        lambda: services.ruleset_deployment_request(
            table_id=table.pk,
            ruleset_id=version.pk,
            manager=request.user,
            reason=request.POST.get("reason", ""),
        ),
        _("%(table)s to play %(ruleset)s: asked. A second manager approves it in the pit's queue.")
        % {"table": table, "ruleset": version},
    )


# Approvals ----------------------------------------------------------------------------------


@role_required(*PIT_ACTORS)
@require_POST
def hit_verify_view(request, hit_id: int):
    return _act(
        request,
        "/pit/",
        lambda: hit_verify(hit_id=hit_id, supervisor=request.user),
        _("Progressive hit #%(id)s is verified: it can now be marked paid.") % {"id": hit_id},
    )


@role_required(*PIT_ACTORS)
@require_POST
def hit_pay_view(request, hit_id: int):
    return _act(
        request,
        "/pit/",
        lambda: hit_pay(hit_id=hit_id, supervisor=request.user),
        _("Progressive hit #%(id)s is paid.") % {"id": hit_id},
    )


@role_required(*PIT_ACTORS)
@require_POST
def void_decide(request, round_id: int):
    """The supervisor approves or refuses a void from the pit: signed in as themselves, they
    enter their PIN again (the same round_void the tablet calls)."""
    from tables.models import Round

    approved = request.POST.get("decision") == "approve"
    seq = request.POST.get("seq", "")
    credentials = {
        "employee_number": request.user.employee_number,
        "pin": request.POST.get("pin", ""),
    }
    # A person reads a round by its table and its number, never by its database id.
    round_ = Round.objects.select_related("table").filter(pk=round_id).first()
    named = {
        "table": round_.table.name if round_ else "",
        "number": round_.number if round_ else "",
    }
    done = (
        _("The void of %(table)s, round #%(number)s, is approved: every wager is returned.")
        if approved
        else _("The void of %(table)s, round #%(number)s, is refused: the round goes on.")
    ) % named
    return _act(
        request,
        "/pit/",
        lambda: round_void(
            round_id=round_id,
            actor=request.user,
            key=request.POST.get("key", "") or uuid.uuid4().hex,
            expected_seq=db_id(seq),
            approved=approved,
            supervisor=credentials,
        ),
        done,
        # The form asks for the PIN alone: the service's "wrong employee number or PIN"
        # would name a field the supervisor never saw.
        refusals={"pin_rejected": _("Wrong PIN: type your own PIN again.")},
    )


@role_required(*PIT_ACTORS)
@require_POST
def parameters_decide(request, change_id: int):
    if request.POST.get("decision") == "approve":
        action = lambda: parameter_change_approve(change_id=change_id, manager=request.user)  # noqa: E731
        done = _("Parameter change #%(id)s is approved: it applies after the next top-level hit.")
    else:
        action = lambda: parameter_change_reject(  # noqa: E731
            change_id=change_id, manager=request.user, reason=request.POST.get("reason", "")
        )
        done = _("Parameter change #%(id)s is rejected.")
    return _act(request, "/pit/", action, done % {"id": change_id})


@role_required(*PIT_ACTORS)
@require_POST
def correction_decide(request, request_id: int):
    """The second person approves a correction asked for at a tablet, signed in as
    themselves and with their PIN typed again, or rejects it (issue 23, 2)."""
    if request.POST.get("decision") == "approve":
        action = lambda: round_correction_approve(  # noqa: E731
            request_id=request_id, approver=request.user, pin=request.POST.get("pin", "")
        )
        done = _("Correction #%(id)s is approved: its lines are written.")
    else:
        action = lambda: round_correction_reject(  # noqa: E731
            request_id=request_id, actor=request.user, reason=request.POST.get("reason", "")
        )
        done = _("Correction #%(id)s is rejected: the round is unchanged.")
    return _act(request, "/pit/", action, done % {"id": request_id})


@role_required(Role.MANAGER)
@require_POST
def deployment_decide(request, deployment_id: int):
    """A second manager approves a rule set deployment, or any manager rejects it."""
    if request.POST.get("decision") == "approve":
        action = lambda: services.ruleset_deployment_approve(  # noqa: E731
            deployment_id=deployment_id, manager=request.user
        )
        done = _("Rule set deployment #%(id)s is approved: the table plays it now.")
    else:
        action = lambda: services.ruleset_deployment_reject(  # noqa: E731
            deployment_id=deployment_id, manager=request.user
        )
        done = _("Rule set deployment #%(id)s is rejected.")
    return _act(request, "/pit/", action, done % {"id": deployment_id})


def _cents(text: str) -> int | None:
    """An amount typed in the property's currency ("1234.56", "1 234,56") as cents, or None
    when the field is empty; ValueError when it is not an amount."""
    return parse_cents(text) if text.strip() else None


@role_required(Role.MANAGER)
@never_cache
def adjustment_ask(request, bank_id: int):
    """A manager asks for a meter adjustment: the values the meter, reserve or overflow
    should read, and why. A second manager approves it in the queue (issue 23, 7)."""
    from jackpot.models import Bank

    bank = get_object_or_404(Bank, pk=bank_id)
    if request.method == "POST":
        try:
            targets = {
                f"{name}_after_cents": _cents(request.POST.get(name, ""))
                for name in ("meter", "reserve", "overflow")
            }
        except ValueError:
            messages.error(request, _("Type each amount as a number, such as 1234.56."))
            return redirect(request.path)
        try:
            adjustment_request(
                bank_id=bank.pk,
                reason=request.POST.get("reason", ""),
                manager=request.user,
                **targets,
            )
        except CasinoError as exc:
            messages.error(request, exc.message)
            return redirect(request.path)
        messages.success(
            request,
            _("The adjustment of %(bank)s is asked for: a second manager approves it.")
            % {"bank": bank.name},
        )
        pit_live.announce_floor_changed()
        return redirect("/pit/")
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET", "POST"])
    return render(request, "pit/adjust.html", {**_page_context(request), "bank": bank})


@role_required(Role.MANAGER)
@require_POST
def adjustment_decide(request, adjustment_id: int):
    """A second manager approves a meter adjustment herself, or any manager rejects it."""
    if request.POST.get("decision") == "approve":
        action = lambda: adjustment_approve(  # noqa: E731
            adjustment_id=adjustment_id, manager=request.user
        )
        done = _("Meter adjustment #%(id)s is approved: the ledger records it.")
    else:
        action = lambda: adjustment_reject(  # noqa: E731
            adjustment_id=adjustment_id,
            manager=request.user,
            reason=request.POST.get("reason", ""),
        )
        done = _("Meter adjustment #%(id)s is rejected.")
    return _act(request, "/pit/", action, done % {"id": adjustment_id})


@role_required(*PIT_ACTORS)
@require_POST
def alert_acknowledge(request, alert_id: int):
    return _act(
        request,
        "/pit/",
        lambda: pit_alerts.alert_acknowledge(
            alert_id=alert_id, staff=request.user, note=request.POST.get("note", "")
        ),
        _("Alert #%(id)s is acknowledged.") % {"id": alert_id},
    )
