"""Progressive hits: recorded in commit order, verified by a supervisor, then paid.

The meter pays at once and is reseeded (DEQ "jackpot lock" practice): the other tables keep
playing for the new amount while the hit waits for its verification.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit import audit
from casino.live import after_commit
from casino.roles import Role
from casino.transitions import TransitionRefused, move
from jackpot import events, feed
from jackpot.errors import (
    BankClosed,
    HitAlreadyPaid,
    HitAlreadyVerified,
    HitAmountMismatch,
    HitNotFound,
    HitNotVerified,
    JackpotError,
    UnknownLevel,
)
from jackpot.models import Bank, Hit, MeterEntry
from jackpot.selectors import level_amount_cents
from jackpot.services._base import (
    When,
    append_entry,
    require_role,
    require_two_people,
    reset_to_seed,
    save_totals,
)
from jackpot.services._checks import (
    MAX_SEATS,
    bank_id_checked,
    cents_checked,
    is_whole,
    shown,
    text_checked,
)
from jackpot.services.parameters import apply_pending_change
from jackpot.services.posting import bank_lock_and_post, lock_bank


def hit_record(
    *,
    bank_id: int,
    table_label: str,
    seat: int,
    level: str,
    amount_cents: int,
    actor,
    reference: str = "",
    reseed: bool = True,
) -> Hit:
    """A progressive hand won `amount_cents` from the meter.

    Call it with the amount the meter pays now (`selectors.level_amount` on the locked bank):
    a different amount means the caller read a stale meter and is refused. Hits on one bank
    are numbered in commit order: two tables hitting at once are each paid from the meter as
    it stood at their own turn. A top-level hit (100 %) empties the meter; any hit that leaves
    it below the reset amount reseeds it from the reserve. After a top-level hit, an approved
    parameter change applies, before the reseed, so the new cycle starts on the new reset.

    `reseed=False`: the caller records, in the same transaction, another hit of the same round
    next, paid from the meter as this one leaves it (spec/settle.md: seat by seat, "each from
    the meter as it then stands"), and reseeds with the last one. A 100 % hit always reseeds,
    as the engine resets the meter after it.
    """
    require_role(actor, Role.DEALER, Role.SUPERVISOR)
    bank_id_checked(bank_id)
    if (
        not isinstance(table_label, str)
        or not table_label
        or not is_whole(seat)
        or not 1 <= seat <= MAX_SEATS
    ):
        raise JackpotError(
            _("a hit names its table and a seat from 1 to %(max)s (got %(table)s, seat %(seat)s)")
            % {"max": MAX_SEATS, "table": shown(table_label), "seat": shown(seat)},
            code="invalid_hit",
        )
    text_checked(table_label, what=_("the table"), max_length=60, code="invalid_hit")
    text_checked(level, what=_("the level"), max_length=32, code="unknown_level")
    text_checked(reference, what=_("the round's reference"), max_length=120, code="bad_reference")
    cents_checked(amount_cents, what=_("the amount of a hit"), code="invalid_hit")
    with transaction.atomic():
        # Posts only if the caller has not locked the bank already: the amount was read then.
        bank = lock_bank(bank_id, post="first")
        if reference:
            again = Hit.objects.filter(bank=bank, reference=reference, seat=seat, level=level)
            if (existing := again.first()) is not None:
                return existing  # a retried call: the hit is already recorded
        if bank.status != Bank.Status.OPEN:
            raise BankClosed(
                _("the progressive %(bank)s is closed: no hit can be recorded; call a manager")
                % {"bank": bank.name}
            )
        tier = bank.tier(level)
        if tier is None:
            raise UnknownLevel(
                _("%(bank)s has no level %(level)s") % {"bank": bank.name, "level": level}
            )
        due = level_amount_cents(bank.meter_cents, tier["percent"])
        if amount_cents != due:
            raise HitAmountMismatch(
                _(
                    "%(level)s pays %(due)s cents from the meter now (meter %(meter)s), not "
                    "%(amount)s: settle again with the current meter"
                )
                % {"level": level, "due": due, "meter": bank.meter_cents, "amount": amount_cents}
            )
        when = When.now()
        bank.hit_seq += 1
        hit = Hit.objects.create(
            bank=bank,
            order=bank.hit_seq,
            table_label=table_label,
            seat=seat,
            level=level,
            percent=tier["percent"],
            amount_cents=amount_cents,
            meter_before_cents=bank.meter_cents,
            reference=reference,
            recorded_at=when.at,
            gaming_date=when.gaming_date,
            shift=when.shift,
            recorded_by=actor,
        )
        append_entry(
            bank,
            kind=MeterEntry.Kind.HIT,
            when=when,
            actor=actor,
            meter=-amount_cents,
            hit=hit,
            reference=reference,
            data={"table": table_label, "seat": seat, "level": level},
        )
        bank.hits_count += 1
        bank.paid_total_cents += amount_cents
        change = None
        if tier["percent"] == 100:
            change = apply_pending_change(bank, actor=actor, hit=hit)
        reset = None
        if reseed or tier["percent"] == 100:
            reset = reset_to_seed(bank, when=when, actor=actor, hit=hit, reference=reference)
        hit.meter_after_cents = bank.meter_cents
        hit.save(update_fields=["meter_after_cents"])
        entry = dict(
            actor=actor,
            code="jackpot.hit.recorded",
            subject=hit,
            data={
                "bank": bank.slug,
                "order": hit.order,
                "table": table_label,
                "seat": seat,
                "level": level,
                "amount_cents": amount_cents,
                "meter_before_cents": hit.meter_before_cents,
                "meter_after_cents": hit.meter_after_cents,
                "reset_from_reserve_cents": -reset.reserve_delta_cents if reset else 0,
                "reset_house_funded_cents": reset.house_funded_cents if reset else 0,
                "parameter_change": change.pk if change else None,
            },
        )
        audit(**entry)
        after_commit(lambda: events.hit_recorded.send(sender=Hit, hit_id=hit.pk))
        hit.bank = bank  # the locked instance: the feed takes its next seq from it
        feed.announce_hit(hit, save=False)
        feed.announce_meter(bank, save=False)
        if change is not None:
            feed.announce_status(bank, save=False)
        save_totals(bank)  # with the feed's seqs: one UPDATE
    return hit


def _hit_for_update(hit_id: int) -> Hit:
    bank_id = Hit.objects.filter(pk=hit_id).values_list("bank_id", flat=True).first()
    if bank_id is None:
        raise HitNotFound(_("there is no progressive hit #%(id)s") % {"id": hit_id})
    bank = bank_lock_and_post(bank_id)  # bank first, then the hit: one lock order everywhere
    hit = Hit.objects.select_for_update(no_key=True).get(pk=hit_id)
    hit.bank = bank
    return hit


def hit_verify(*, hit_id: int, supervisor) -> Hit:
    """A supervisor confirms a pending hit (cards, table, seat); it may then be paid.

    Two people: the one who recorded the hit may not verify it, nor anyone not independent
    of them (casino.duties).
    """
    require_role(supervisor, Role.SUPERVISOR)
    recorded = Hit.objects.select_related("recorded_by").filter(pk=hit_id).first()
    if recorded is not None:  # the recorder never changes: checked before the locks
        require_two_people(
            approver=supervisor,
            asker=recorded.recorded_by,
            action="jackpot.hit.verify",
            subject=recorded,
        )
    with transaction.atomic():
        hit = _hit_for_update(hit_id)
        try:
            changed = move(
                hit, Hit.State.VERIFIED, verified_by=supervisor, verified_at=timezone.now()
            )
        except TransitionRefused:
            raise HitAlreadyVerified(
                _("hit #%(order)s is already %(state)s: nothing to verify")
                % {"order": hit.order, "state": hit.get_state_display()}
            ) from None
        hit.save(update_fields=changed)
        audit(
            actor=supervisor,
            code="jackpot.hit.verified",
            subject=hit,
            data={"bank": hit.bank.slug, "order": hit.order, "amount_cents": hit.amount_cents},
        )
        feed.announce_hit(hit)
    return hit


def hit_pay(*, hit_id: int, supervisor) -> Hit:
    """The verified amount was handed to the player."""
    require_role(supervisor, Role.SUPERVISOR)
    with transaction.atomic():
        hit = _hit_for_update(hit_id)
        try:
            changed = move(hit, Hit.State.PAID, paid_by=supervisor, paid_at=timezone.now())
        except TransitionRefused as refused:
            if refused.was == Hit.State.PENDING:
                raise HitNotVerified(
                    _("hit #%(order)s must be verified before it is paid") % {"order": hit.order}
                ) from None
            raise HitAlreadyPaid(
                _("hit #%(order)s is already paid") % {"order": hit.order}
            ) from None
        hit.save(update_fields=changed)
        audit(
            actor=supervisor,
            code="jackpot.hit.paid",
            subject=hit,
            data={"bank": hit.bank.slug, "order": hit.order, "amount_cents": hit.amount_cents},
        )
        feed.announce_hit(hit)
    return hit
