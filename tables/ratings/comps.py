"""Comps granted on a rating: issued by a supervisor or a host within the rating's budget (a
share of its measured theo) and their role's limit; above the limit a second person (a games
manager: never the issuer, never the rated player) approves or declines. One service per
change, each audited with ids and cents only (the audit log outlives an erasure)."""

import calendar
import datetime as dt

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.errors import CasinoError, IllegalTransition, NotFound, RoleRequired, TwoPeopleRequired
from casino.roles import Role, has_role, require_role, role_names
from casino.transitions import TransitionRefused, move
from tables.ratings.figures import figures
from tables.ratings.models import Comp, CompSettings, Player, Rating

ISSUERS = (Role.SUPERVISOR, Role.HOST)
# Above an issuer's limit, another role decides (25 CFR 543.13: authorisation levels).
APPROVERS = (Role.MANAGER,)
READERS = (Role.SUPERVISOR, Role.HOST, Role.MANAGER, Role.AUDITOR)
# The monthly report is prepared by someone who can neither grant nor receive comps (25 CFR
# 542.17): an auditor, who writes nothing, holding no granting role and not a player.
REPORTERS = (Role.AUDITOR,)
DESCRIPTION_MAX = 120
NOTE_MAX = 200


class CompRefused(CasinoError):
    code = "comp_refused"


def comp_settings_for(prop) -> CompSettings:
    found = CompSettings.objects.filter(property=prop).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return CompSettings.objects.create(property=prop)
    except IntegrityError:  # made at the same moment by another request
        return CompSettings.objects.get(property=prop)


def issuer_limit_cents(staff, settings: CompSettings) -> int | None:
    """What `staff` grants alone: the highest limit among their issuing roles."""
    roles = role_names(staff)
    limits = []
    if Role.SUPERVISOR.value in roles:
        limits.append(settings.supervisor_limit_cents)
    if Role.HOST.value in roles:
        limits.append(settings.host_limit_cents)
    return max(limits) if limits else None


def rating_theo_cents(rating: Rating) -> int:
    return figures(rating, list(rating.pauses.all()), now=timezone.now()).theo_cents


def budget_cents(rating: Rating, settings: CompSettings) -> int:
    """The rating's comp budget: its share of the theo, rounded down to the cent (a losing
    theo gives none)."""
    return max(0, rating_theo_cents(rating)) * settings.budget_percent // 100


def committed_cents(rating: Rating) -> int:
    """Granted and awaiting comps: both count against the budget."""
    found = rating.comps.exclude(status=Comp.DECLINED).aggregate(s=Sum("amount_cents"))["s"]
    return found or 0


def _is_the_player(staff, player: Player) -> bool:
    return player.staff_id is not None and player.staff_id == staff.pk


def comp_issue(*, staff, rating_id: int, amount_cents, description: str) -> Comp:
    """Grant a comp on a rating: granted at once within the issuer's limit, else awaiting a
    manager's approval. Refused above the rating's budget and to the rated player."""
    require_role(staff, *ISSUERS)
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents <= 0:
        raise CompRefused(_("The value must be a positive amount."), code="bad_amount")
    description = (description or "").strip()
    if not description or len(description) > DESCRIPTION_MAX:
        raise CompRefused(
            _("Say what the comp is (%(max)s characters at most).") % {"max": DESCRIPTION_MAX},
            code="bad_description",
        )
    with transaction.atomic():
        rating = (
            Rating.objects.select_for_update(of=("self",), no_key=True)
            .select_related("player__property", "table")
            .filter(pk=rating_id)
            .first()
        )
        if rating is None:
            raise NotFound(_("There is no rating #%(id)s.") % {"id": rating_id})
        if _is_the_player(staff, rating.player):
            raise RoleRequired(
                _("Nobody grants a comp on their own rating: another host or supervisor does."),
                code="own_comp",
            )
        settings = comp_settings_for(rating.player.property)
        budget = budget_cents(rating, settings)
        used = committed_cents(rating)
        if used + amount_cents > budget:
            raise IllegalTransition(
                _(
                    "This comp would exceed the rating's budget: %(left)s left of %(budget)s "
                    "(%(percent)s %% of the theo)."
                )
                % {
                    "left": _money(max(0, budget - used)),
                    "budget": _money(budget),
                    "percent": settings.budget_percent,
                },
                code="comp_budget_exceeded",
            )
        limit = issuer_limit_cents(staff, settings) or 0
        status = Comp.GRANTED if amount_cents <= limit else Comp.AWAITING
        comp = Comp.objects.create(
            rating=rating,
            amount_cents=amount_cents,
            description=description,
            status=status,
            issued_by=staff,
            issued_at=timezone.now(),
        )
        audit(
            actor=staff,
            code="ratings.comp.issued",
            subject=comp,
            data={
                "rating": rating.pk,
                "player": rating.player_id,
                "amount_cents": amount_cents,
                "status": status,
                "limit_cents": limit,
                "budget_cents": budget,
            },
        )
    return comp


def _money(cents: int) -> str:
    from casino.money import money

    return money(cents)


def _decide(*, staff, comp_id: int, note: str, approve: bool) -> Comp:
    require_role(staff, *APPROVERS)
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise CompRefused(
            _("The reason is too long: at most %(max)s characters.") % {"max": NOTE_MAX},
            code="note_too_long",
        )
    if not approve and not note:
        raise CompRefused(_("Say why the comp is declined."), code="note_required")
    with transaction.atomic():
        comp = (
            Comp.objects.select_for_update(of=("self",), no_key=True)
            .select_related("rating__player")
            .filter(pk=comp_id)
            .first()
        )
        if comp is None:
            raise NotFound(_("There is no comp #%(id)s.") % {"id": comp_id})
        try:
            changed = move(
                comp,
                Comp.GRANTED if approve else Comp.DECLINED,
                field="status",
                decided_by=staff,
                decided_at=timezone.now(),
                decision_note=note,
            )
        except TransitionRefused:
            raise IllegalTransition(
                _("This comp is %(status)s: only a comp awaiting approval is decided.")
                % {"status": comp.get_status_display()},
                code="comp_not_awaiting",
            ) from None
        if comp.issued_by_id == staff.pk:
            raise TwoPeopleRequired(
                _("Whoever issued a comp does not approve it: another manager does."),
                code="comp_own_approval",
            )
        if _is_the_player(staff, comp.rating.player):
            raise RoleRequired(
                _("Nobody approves a comp on their own rating: another manager does."),
                code="own_comp",
            )
        comp.save(update_fields=changed)
        audit(
            actor=staff,
            code="ratings.comp.approved" if approve else "ratings.comp.declined",
            subject=comp,
            data={
                "rating": comp.rating_id,
                "amount_cents": comp.amount_cents,
                "issued_by": comp.issued_by_id,
                "note": note,
            },
        )
    return comp


def comp_approve(*, staff, comp_id: int, note: str = "") -> Comp:
    """A manager (not the issuer, not the rated player) grants a comp above the issuer's
    limit."""
    return _decide(staff=staff, comp_id=comp_id, note=note, approve=True)


def comp_decline(*, staff, comp_id: int, note: str) -> Comp:
    """A manager declines a comp above the issuer's limit, saying why: its value returns
    to the rating's budget."""
    return _decide(staff=staff, comp_id=comp_id, note=note, approve=False)


# --- the monthly report ------------------------------------------------------------------


def may_prepare_report(staff) -> bool:
    """An auditor who can neither grant nor receive comps: no issuing or approving role, and
    no player file of their own."""
    if not has_role(staff, *REPORTERS) or has_role(staff, *ISSUERS, *APPROVERS):
        return False
    return not Player.objects.filter(staff_id=staff.pk).exists()


def month_bounds(prop, year: int, month: int) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of the gaming days of a calendar month."""
    first = dt.date(year, month, 1)
    after = first + dt.timedelta(days=calendar.monthrange(year, month)[1])
    return prop.gaming_day_start(first), prop.gaming_day_start(after)


def check_reporter(staff) -> None:
    if not may_prepare_report(staff):
        raise RoleRequired(
            _("The comp report is prepared by an auditor who can neither grant nor receive comps."),
            code="comp_report_refused",
        )


def report_figures(prop, year: int, month: int) -> dict:
    """The month's comps (granted, awaiting, declined) and the granted totals per issuer and
    for the month: what the page shows and the CSV carries, read once for both."""
    start, end = month_bounds(prop, year, month)
    comps = list(
        Comp.objects.filter(issued_at__gte=start, issued_at__lt=end)
        .select_related("rating__player", "rating__table", "issued_by", "decided_by")
        .order_by("issued_at", "pk")
    )
    by_issuer: dict[int, dict] = {}
    for comp in comps:
        row = by_issuer.setdefault(
            comp.issued_by_id, {"issuer": comp.issued_by, "granted_cents": 0, "count": 0}
        )
        row["count"] += 1
        if comp.status == Comp.GRANTED:
            row["granted_cents"] += comp.amount_cents
    return {
        "comps": comps,
        "issuers": sorted(by_issuer.values(), key=lambda r: (-r["granted_cents"], r["issuer"].pk)),
        "granted_cents": sum(c.amount_cents for c in comps if c.status == Comp.GRANTED),
    }


def comp_report(*, staff, prop, year: int, month: int) -> dict:
    """The comps of a month (granted, awaiting, declined) with totals per issuer; preparing
    it is audited."""
    check_reporter(staff)
    report = report_figures(prop, year, month)
    with transaction.atomic():
        audit(
            actor=staff,
            code="ratings.comp_report.prepared",
            data={
                "month": f"{year:04d}-{month:02d}",
                "comps": len(report["comps"]),
                "granted_cents": report["granted_cents"],
            },
        )
    return report
