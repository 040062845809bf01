"""A bank's life: created (seeded at its reset amount), opened, closed."""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from casino.audit import audit
from casino.roles import Role
from casino.transitions import TransitionRefused, move
from jackpot import feed
from jackpot.errors import BankStatusUnchanged, InvalidParameters
from jackpot.models import Bank, MeterEntry
from jackpot.services._base import When, require_role, reset_to_seed, save_totals
from jackpot.services.parameters import apply_pending_change, validate_parameters
from jackpot.services.posting import bank_lock_and_post


def bank_seed(*, bank_id: int, actor=None) -> MeterEntry | None:
    """The first ledger line of a new bank: the meter starts at its reset amount, paid by
    the house (the reserve is still empty). Does nothing once the bank has a ledger."""
    with transaction.atomic():
        bank = bank_lock_and_post(bank_id)
        if bank.ledger_seq:
            return None
        entry = reset_to_seed(bank, when=When.now(), actor=actor, reference="seed")
        save_totals(bank)
        audit(
            actor=actor,
            code="jackpot.bank.seeded",
            subject=bank,
            data={"reset_cents": bank.reset_cents, "house_funded_cents": bank.reset_cents},
        )
    return entry


def bank_create(*, slug: str, name: str, manager, name_en: str = "", **params) -> Bank:
    """A new bank, closed, its meter at the reset amount. Parameters as in PARAMETER_FIELDS;
    `name` in French, `name_en` in English (empty: the French name everywhere)."""
    require_role(manager, Role.MANAGER)
    params.setdefault("hidden_rate_ppm", 0)
    params.setdefault("cap_cents", None)
    params.setdefault("wager_cents", 100)
    clean = validate_parameters(params)
    if not slug or Bank.objects.filter(slug=slug).exists():
        raise InvalidParameters(
            _("The bank code %(slug)r is empty or already taken: choose another.") % {"slug": slug}
        )
    with transaction.atomic():
        bank = Bank.objects.create(
            slug=slug, name=name, name_en=name_en, status=Bank.Status.CLOSED, **clean
        )
        audit(
            actor=manager,
            code="jackpot.bank.created",
            subject=bank,
            data={"slug": slug, "name": name, **clean},
        )
        bank_seed(bank_id=bank.pk, actor=manager)
    bank.refresh_from_db()
    return bank


def _set_status(*, bank_id: int, actor, to: str, reason: str) -> Bank:
    require_role(actor, Role.SUPERVISOR, Role.MANAGER)
    with transaction.atomic():
        bank = bank_lock_and_post(bank_id)
        try:
            changed = move(bank, to, field="status", status_reason=(reason or "").strip()[:120])
        except TransitionRefused:
            raise BankStatusUnchanged(
                _("%(bank)s is already %(status)s: there is nothing to change.")
                % {"bank": bank.name, "status": Bank.Status(to).label}
            ) from None
        bank.save(update_fields=changed)
        applied = None
        if to == Bank.Status.CLOSED:
            # The link is out of operation: a change waiting for a hit may apply now.
            applied = apply_pending_change(bank, actor=actor, strict=False)
        audit(
            actor=actor,
            code=f"jackpot.bank.{'opened' if to == Bank.Status.OPEN else 'closed'}",
            subject=bank,
            data={"reason": bank.status_reason, "parameter_change": getattr(applied, "pk", None)},
        )
        feed.announce_status(bank)
        if applied is not None:
            feed.announce_meter(bank)
    return bank


def bank_open(*, bank_id: int, actor, reason: str = "") -> Bank:
    """The link is up: tables may take progressive wagers."""
    return _set_status(bank_id=bank_id, actor=actor, to=Bank.Status.OPEN, reason=reason)


def bank_close(*, bank_id: int, actor, reason: str = "") -> Bank:
    """Maintenance or a link fault: no progressive wagers, no hits; displays show closed."""
    return _set_status(bank_id=bank_id, actor=actor, to=Bank.Status.CLOSED, reason=reason)
