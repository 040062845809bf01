"""The linked progressive. Money is integer cents; rates are integer parts per million.

The meter is an append-only ledger (MeterEntry). The running totals on Bank are a cache of
that ledger, written in the same transaction under the bank row's lock; the reconciliation
task recomputes them from the ledger and raises an alert on any difference.
"""

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from casino.chains import GENESIS, link_digest
from casino.money import money

PPM = 1_000_000  # rates are parts per million: 250_000 ppm = 25 %

# The parameter fields of a bank; changed only through an approved ParameterChange.
PARAMETER_FIELDS = (
    "wager_cents",
    "reset_cents",
    "increment_rate_ppm",
    "hidden_rate_ppm",
    "cap_cents",
    "levels",
)


class AppendOnly(Exception):
    """Raised on any attempt to change or remove a ledger row through the ORM."""


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnly(f"{self.model.__name__} is append-only: add a compensating entry")

    def delete(self):
        raise AppendOnly(f"{self.model.__name__} is append-only: add a compensating entry")

    # bulk_update goes through update(); bulk_create stays allowed (it only appends).


class AppendOnlyModel(models.Model):
    """A row is written once. Corrections are new rows (a reversal, an adjustment); on
    PostgreSQL a trigger refuses UPDATE and DELETE too (migration 0002)."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnly(f"{type(self).__name__} #{self.pk} is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly(f"{type(self).__name__} #{self.pk} is append-only")


class Bank(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    ALLOWED = {Status.CLOSED: {Status.OPEN}, Status.OPEN: {Status.CLOSED}}  # casino.transitions

    slug = models.SlugField(_("code"), unique=True)
    name = models.CharField(_("name (French)"), max_length=120)
    # Shown on the English screens and pages; empty: the French name is shown everywhere.
    name_en = models.CharField(_("name (English)"), max_length=120, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.CLOSED
    )
    status_reason = models.CharField(_("reason for the status"), max_length=120, blank=True)

    # Parameters (changed only through an approved ParameterChange; see PARAMETER_FIELDS).
    wager_cents = models.PositiveIntegerField(
        _("progressive wager"), default=100
    )  # the progressive wager, exactly
    reset_cents = models.BigIntegerField(_("reset amount"))
    increment_rate_ppm = models.PositiveIntegerField(_("meter increment rate"))
    hidden_rate_ppm = models.PositiveIntegerField(_("reserve (hidden) rate"), default=0)
    cap_cents = models.BigIntegerField(_("meter cap"), null=True, blank=True)
    # Percentage tiers shown on screens: [{"level": "royal_flush", "percent": 100,
    #  "label_fr": "Quinte flush royale", "label_en": "Royal flush"}, ...], highest first.
    levels = models.JSONField(_("levels"), default=list)

    # Cached running totals: always equal to the sums over the ledger (see reconciliation).
    meter_cents = models.BigIntegerField(_("meter"), default=0)
    reserve_cents = models.BigIntegerField(_("reserve"), default=0)
    overflow_cents = models.BigIntegerField(_("overflow"), default=0)
    # Sub-cent parts of contributions, in millionths of a cent, carried to the next one.
    # A reversal that is not the latest contribution may leave a carry below zero: the sum
    # cents * PPM + carry stays exact, which is what must never drift.
    meter_carry_ppm = models.BigIntegerField(_("meter carry (millionths of a cent)"), default=0)
    reserve_carry_ppm = models.BigIntegerField(_("reserve carry (millionths of a cent)"), default=0)
    contributions_count = models.BigIntegerField(
        _("contributions"), default=0
    )  # wagers in ("progressive in")
    wagered_cents = models.BigIntegerField(_("total wagered"), default=0)  # their total
    hits_count = models.BigIntegerField(_("hits"), default=0)
    paid_total_cents = models.BigIntegerField(
        _("total paid"), default=0
    )  # total awarded by recorded hits
    house_funded_cents = models.BigIntegerField(
        _("funded by the house"), default=0
    )  # seeds the reserve could not cover

    # Every feed message carries the next value; it only grows, also across restarts.
    feed_seq = models.BigIntegerField(_("feed sequence"), default=0)
    ledger_seq = models.BigIntegerField(_("ledger sequence"), default=0)
    hit_seq = models.BigIntegerField(_("hit sequence"), default=0)
    # The hash of the ledger's last line (empty before the first): the next line chains to it
    # without reading the ledger, since this row is locked and saved by every writer anyway.
    ledger_hash = models.CharField(_("ledger's last hash"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("progressive bank")
        verbose_name_plural = _("progressive banks")

    def __str__(self) -> str:
        return self.name_in(get_language())

    def name_in(self, language: str | None) -> str:
        """The name a screen or page in `language` shows."""
        if (language or "").startswith("en") and self.name_en:
            return self.name_en
        return self.name

    def parameters(self) -> dict:
        return {name: getattr(self, name) for name in PARAMETER_FIELDS}

    def top_level(self) -> str | None:
        for tier in self.levels:
            if tier.get("percent") == 100:
                return tier.get("level")
        return None

    def tier(self, level: str) -> dict | None:
        for tier in self.levels:
            if tier.get("level") == level:
                return tier
        return None


class MeterEntry(AppendOnlyModel):
    """One line of the meter's ledger. Never updated, never deleted.

    Chained per bank like the audit log (casino.audit_keys): each line carries the previous
    line's hash and an HMAC of its whole content (its id and number included) under
    AUDIT_HMAC_KEY, written once at its INSERT (services._base.seal_lines, under the bank's
    row lock). Whoever can write the database but lacks the key cannot edit, renumber,
    re-chain or append a line that verifies (jackpot.chains).
    """

    class Kind(models.TextChoices):
        CONTRIBUTION = "contribution", _("contribution")
        REVERSAL = "reversal", _("reversal")
        HIT = "hit", _("hit")
        RESET = "reset", _("reset")
        ADJUSTMENT = "adjustment", _("adjustment")

    bank = models.ForeignKey(
        Bank, verbose_name=_("bank"), on_delete=models.PROTECT, related_name="entries"
    )
    seq = models.BigIntegerField(_("line"))  # position in this bank's ledger, from 1
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    created_at = models.DateTimeField(_("time"))
    gaming_date = models.DateField(_("gaming day"), null=True, blank=True)
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("by"),
    )
    # What caused it: a round's contribution key, a hit, an adjustment reason.
    reference = models.CharField(_("reference"), max_length=120, blank=True)
    wager_count = models.IntegerField(_("wagers"), default=0)
    wager_cents = models.BigIntegerField(_("amount wagered"), default=0)
    meter_delta_cents = models.BigIntegerField(_("meter change"), default=0)
    reserve_delta_cents = models.BigIntegerField(_("reserve change"), default=0)
    overflow_delta_cents = models.BigIntegerField(_("overflow change"), default=0)
    house_funded_cents = models.BigIntegerField(
        _("funded by the house"), default=0
    )  # reset shortfall paid by the house
    meter_carry_delta_ppm = models.BigIntegerField(_("meter carry change"), default=0)
    reserve_carry_delta_ppm = models.BigIntegerField(_("reserve carry change"), default=0)
    # Balances after this entry, so any line of the ledger reads on its own (before/after).
    meter_after_cents = models.BigIntegerField(_("meter after"), default=0)
    reserve_after_cents = models.BigIntegerField(_("reserve after"), default=0)
    overflow_after_cents = models.BigIntegerField(_("overflow after"), default=0)
    hit = models.ForeignKey(
        "Hit",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
        verbose_name=_("hit"),
    )
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    data = models.JSONField(
        _("details"), default=dict, blank=True
    )  # reason, before/after, approvers...
    prev_hash = models.CharField(_("previous hash"), max_length=64, blank=True, default="")
    hash = models.CharField(_("hash"), max_length=64, blank=True, default="")
    key_id = models.CharField(_("key id"), max_length=32, blank=True, default="")

    class Meta:
        verbose_name = _("meter ledger line")
        verbose_name_plural = _("meter ledger")
        ordering = ["bank", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["bank", "seq"], name="meter_entry_seq_unique"),
            # A retried round never counts twice, even if a caller skips the service's check.
            models.UniqueConstraint(
                fields=["bank", "reference"],
                condition=models.Q(kind="contribution") & ~models.Q(reference=""),
                name="meter_entry_contribution_reference_unique",
            ),
        ]

    def __str__(self) -> str:
        sign = "+" if self.meter_delta_cents > 0 else ""
        return gettext("%(bank)s, line %(seq)s: %(kind)s %(delta)s") % {
            "bank": self.bank.name,
            "seq": self.seq,
            "kind": self.get_kind_display(),
            "delta": sign + money(self.meter_delta_cents),
        }


# Everything a ledger line says, besides its id, key id and link: the MAC covers all of it.
CHAINED_FIELDS = (
    "bank_id",
    "seq",
    "kind",
    "created_at",
    "gaming_date",
    "shift",
    "actor_id",
    "reference",
    "wager_count",
    "wager_cents",
    "meter_delta_cents",
    "reserve_delta_cents",
    "overflow_delta_cents",
    "house_funded_cents",
    "meter_carry_delta_ppm",
    "reserve_carry_delta_ppm",
    "meter_after_cents",
    "reserve_after_cents",
    "overflow_after_cents",
    "hit_id",
    "reverses_id",
    "data",
)


def _plain(value):
    if isinstance(value, dt.date):  # datetimes too
        return value.isoformat()
    return value


def meter_entry_digest(entry, key: str) -> str:
    """The line's MAC under `key`: HMAC-SHA256 of its canonical content (id, number, key id
    and the previous line's hash included). Also used by migration 0006 on historical rows."""
    body = {name: _plain(getattr(entry, name)) for name in CHAINED_FIELDS}
    body.update(id=entry.pk, key_id=entry.key_id)
    return link_digest(body, entry.prev_hash, key)


LEDGER_GENESIS = GENESIS  # the "previous hash" of a bank's first line


class QueuedForPosting(models.Model):
    """What a contribution and a reversal waiting to be posted both record: who and when
    (the time, gaming date and shift the ledger line will keep), and the line once posted."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_constraint=False,
        db_index=False,  # one index less to write per row; never searched by actor
    )
    created_at = models.DateTimeField()
    gaming_date = models.DateField(null=True, blank=True)
    shift = models.CharField(max_length=8, blank=True)

    class Meta:
        abstract = True

    @property
    def posted(self) -> bool:
        return self.entry_id is not None


class PendingContribution(QueuedForPosting):
    """A contribution accepted from a table, waiting to be posted to the meter.

    Writing one takes no lock, so tables never wait for each other; `services.bank_post_pending`
    moves the waiting rows into the ledger under the bank lock, in id order, and sets
    `entry`. Rows are never deleted: the unique (bank, reference) keeps a retried round
    from counting twice, whenever the retry comes.
    """

    # No foreign-key constraint in the database for bank and actor: on PostgreSQL each check
    # locks the referenced row (KEY SHARE) at commit, and every table at once would lock the
    # same bank row, contending with the posting that updates it. The accepting INSERT selects
    # the bank row itself (jackpot.services.ledger), banks and staff are never deleted, and
    # the ledger line a row is posted to keeps both constraints.
    bank = models.ForeignKey(
        Bank,
        on_delete=models.PROTECT,
        related_name="pending",
        db_constraint=False,
        db_index=False,  # the unique (bank, reference) index starts with it
    )
    reference = models.CharField(max_length=120)  # the round's idempotency key
    wager_count = models.IntegerField()
    wager_cents = models.BigIntegerField()
    entry = models.OneToOneField(
        MeterEntry,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="pending",
    )

    class Meta:
        verbose_name = _("waiting contribution")
        verbose_name_plural = _("waiting contributions")
        ordering = ["bank", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["bank", "reference"], name="pending_contribution_reference_unique"
            ),
        ]
        indexes = [
            # Posting's question: which rows of this bank are still waiting?
            models.Index(
                fields=["bank", "id"],
                condition=models.Q(entry__isnull=True),
                name="pending_contribution_waiting",
            ),
        ]

    def __str__(self) -> str:
        state = f"entry #{self.entry_id}" if self.entry_id else "waiting"
        return f"{self.bank_id}/{self.reference} x{self.wager_count} ({state})"


class PendingReversal(QueuedForPosting):
    """A void's reversal of a round's contribution, approved and waiting to be posted.

    A void's approval writes this row and commits, with no lock on the bank, as a table's
    contribution is written; posting (services.posting) turns it into the REVERSAL ledger
    line, after the contributions waiting with it, under the bank lock, and sets `entry`.
    Whoever reads the meter under that lock (a hit, a reading, an adjustment) posts it
    first, so no meter is read that misses a committed reversal. Rows are never deleted:
    the unique (bank, reference) reverses a round once, whenever the retry comes.
    """

    # No foreign-key constraint in the database for bank and actor, as for a contribution
    # (PendingContribution): the accepting INSERT selects the round's contribution row, and
    # the ledger line it is posted to keeps both constraints.
    bank = models.ForeignKey(
        Bank,
        on_delete=models.PROTECT,
        related_name="pending_reversals",
        db_constraint=False,
        db_index=False,  # the unique (bank, reference) index starts with it
    )
    reference = models.CharField(max_length=120)  # the reversed round's reference
    reason = models.CharField(max_length=500, blank=True)  # actor: who approved the void
    entry = models.OneToOneField(
        MeterEntry,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="pending_reversal",
    )

    class Meta:
        verbose_name = _("waiting reversal")
        verbose_name_plural = _("waiting reversals")
        ordering = ["bank", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["bank", "reference"], name="pending_reversal_reference_unique"
            ),
        ]
        indexes = [
            models.Index(
                fields=["bank", "id"],
                condition=models.Q(entry__isnull=True),
                name="pending_reversal_waiting",
            ),
        ]

    def __str__(self) -> str:
        state = f"entry #{self.entry_id}" if self.entry_id else "waiting"
        return f"{self.bank_id}/{self.reference} reversed ({state})"


class Hit(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("pending")
        VERIFIED = "verified", _("verified")
        PAID = "paid", _("paid")

    ALLOWED = {State.PENDING: {State.VERIFIED}, State.VERIFIED: {State.PAID}}  # casino.transitions

    bank = models.ForeignKey(
        Bank, verbose_name=_("bank"), on_delete=models.PROTECT, related_name="hits"
    )
    order = models.BigIntegerField(_("number"))  # commit order within the bank, from 1
    table_label = models.CharField(_("table"), max_length=60)
    seat = models.PositiveSmallIntegerField(_("seat"))
    level = models.CharField(_("level"), max_length=32)
    percent = models.PositiveSmallIntegerField(
        _("share of the meter (%)"), default=100
    )  # the tier's share when it hit
    amount_cents = models.BigIntegerField(_("amount"))
    meter_before_cents = models.BigIntegerField(_("meter before"))
    meter_after_cents = models.BigIntegerField(
        _("meter after"), default=0
    )  # after the hit and any reset
    reference = models.CharField(_("round"), max_length=120, blank=True)  # the round that hit
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.PENDING
    )
    recorded_at = models.DateTimeField(_("recorded at"))
    gaming_date = models.DateField(_("gaming day"), null=True, blank=True)
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("verified by"),
    )
    verified_at = models.DateTimeField(_("verified at"), null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("paid by"),
    )
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)

    class Meta:
        verbose_name = _("progressive hit")
        verbose_name_plural = _("progressive hits")
        ordering = ["bank", "order"]
        constraints = [
            models.UniqueConstraint(fields=["bank", "order"], name="hit_order_unique"),
            # A retried call for the same round, seat and level records the hit once.
            models.UniqueConstraint(
                fields=["bank", "reference", "seat", "level"],
                condition=~models.Q(reference=""),
                name="hit_round_seat_level_unique",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(bank)s, hit no. %(order)s: %(amount)s") % {
            "bank": self.bank.name,
            "order": self.order,
            "amount": money(self.amount_cents),
        }


class ParameterChange(models.Model):
    """Requested by one manager, approved by another; applied after the next top-level hit,
    or at once while the bank is closed (NY 5321.18(b)(4), NZ 1.28.3)."""

    class State(models.TextChoices):
        REQUESTED = "requested", _("requested")
        APPROVED = "approved", _("approved")  # waiting for the next top-level hit
        APPLIED = "applied", _("applied")
        REJECTED = "rejected", _("rejected")

    # Approved, it waits for the next top-level hit and may still be rejected meanwhile.
    ALLOWED = {  # casino.transitions
        State.REQUESTED: {State.APPROVED, State.REJECTED},
        State.APPROVED: {State.APPLIED, State.REJECTED},
    }

    bank = models.ForeignKey(
        Bank, verbose_name=_("bank"), on_delete=models.PROTECT, related_name="parameter_changes"
    )
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.REQUESTED
    )
    params = models.JSONField(_("new parameters"))  # the full new parameter set (PARAMETER_FIELDS)
    before = models.JSONField(
        _("parameters before"), default=dict
    )  # the set in force when requested, then when applied
    reason = models.CharField(_("reason"), max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested at"))
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("approved by"),
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    rejected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("rejected by"),
    )
    rejected_at = models.DateTimeField(_("rejected at"), null=True, blank=True)
    reject_reason = models.CharField(_("reason for the rejection"), max_length=200, blank=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    applied_after_hit = models.ForeignKey(
        Hit,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("applied after the hit"),
    )

    class Meta:
        verbose_name = _("parameter change")
        verbose_name_plural = _("parameter changes")
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return gettext("%(bank)s, parameter change no. %(id)s (%(state)s)") % {
            "bank": self.bank.name,
            "id": self.pk,
            "state": self.get_state_display(),
        }


class AdjustmentRequest(models.Model):
    """A meter adjustment asked for by one manager and approved by another, who acts
    themselves (issue 23, 7: a console call named a second manager as approver and the
    ledger recorded her as the actor). Approved, it is a ledger line (`entry`)."""

    class State(models.TextChoices):
        REQUESTED = "requested", _("waiting for a second manager")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    ALLOWED = {State.REQUESTED: {State.APPROVED, State.REJECTED}}  # casino.transitions

    bank = models.ForeignKey(
        Bank, verbose_name=_("bank"), on_delete=models.PROTECT, related_name="adjustments"
    )
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.REQUESTED
    )
    # {"meter": cents, "reserve": cents, "overflow": cents}: the values it sets, some or all.
    targets = models.JSONField(_("values after"))
    reason = models.CharField(_("reason"), max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    reject_reason = models.CharField(_("reason for the rejection"), max_length=200, blank=True)
    entry = models.OneToOneField(
        MeterEntry,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("ledger line"),
    )

    class Meta:
        ordering = ["requested_at", "pk"]
        verbose_name = _("meter adjustment")
        verbose_name_plural = _("meter adjustments")

    def __str__(self) -> str:
        return f"{self.bank}: {self.reason}"


class MeterReading(AppendOnlyModel):
    class Reason(models.TextChoices):
        PERIODIC = "periodic", _("periodic")
        SHIFT_CHANGE = "shift_change", _("shift change")
        MANUAL = "manual", _("manual")

    bank = models.ForeignKey(
        Bank, verbose_name=_("bank"), on_delete=models.PROTECT, related_name="readings"
    )
    taken_at = models.DateTimeField(_("taken at"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    gaming_date = models.DateField(_("gaming day"), null=True, blank=True)
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("taken by"),
    )
    ledger_seq = models.BigIntegerField(_("ledger line"))
    meter_cents = models.BigIntegerField(_("meter"))
    reserve_cents = models.BigIntegerField(_("reserve"))
    overflow_cents = models.BigIntegerField(_("overflow"))
    contributions_count = models.BigIntegerField(_("contributions"))
    hits_count = models.BigIntegerField(_("hits"))
    paid_total_cents = models.BigIntegerField(_("total paid"))

    class Meta:
        verbose_name = _("meter reading")
        verbose_name_plural = _("meter readings")
        ordering = ["-taken_at", "-pk"]

    def __str__(self) -> str:
        return gettext("%(bank)s, reading of %(time)s: %(meter)s") % {
            "bank": self.bank.name,
            "time": f"{timezone.localtime(self.taken_at):%Y-%m-%d %H:%M}",
            "meter": money(self.meter_cents),
        }


class ReconciliationAlert(models.Model):
    bank = models.ForeignKey(
        Bank, verbose_name=_("bank"), on_delete=models.PROTECT, related_name="alerts"
    )
    detected_at = models.DateTimeField(_("detected at"))
    field = models.CharField(_("total"), max_length=32)
    ledger_value = models.BigIntegerField(_("from the ledger"))
    cached_value = models.BigIntegerField(_("recorded on the bank"))
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("resolved by"),
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("reconciliation alert")
        verbose_name_plural = _("reconciliation alerts")
        ordering = ["-detected_at"]

    def __str__(self) -> str:
        return gettext("%(bank)s, %(field)s: %(ledger)s in the ledger, %(cached)s on the bank") % {
            "bank": self.bank.name,
            "field": self.field,
            "ledger": self.ledger_value,
            "cached": self.cached_value,
        }


class DisplayToken(models.Model):
    """A credential for one jackpot screen. Only the SHA-256 of the token is stored."""

    bank = models.ForeignKey(
        Bank, verbose_name=_("bank"), on_delete=models.PROTECT, related_name="display_tokens"
    )
    name = models.CharField(_("screen name"), max_length=80)
    token_hash = models.CharField(_("token fingerprint"), max_length=64, unique=True)
    language = models.CharField(
        _("language"), max_length=8, default="fr", choices=[("fr", "Français"), ("en", "English")]
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("issued by"),
    )
    issued_at = models.DateTimeField(_("issued at"))
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("revoked by"),
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_seen_at = models.DateTimeField(_("last seen at"), null=True, blank=True)
    # When the sweep found this screen without a live socket; cleared when one is heard again,
    # so that each lost link is audited and signalled once.
    link_lost_at = models.DateTimeField(_("link lost at"), null=True, blank=True)

    class Meta:
        verbose_name = _("display screen")
        verbose_name_plural = _("display screens")
        unique_together = [("bank", "name")]

    def __str__(self) -> str:
        return f"{self.bank.slug}/{self.name}"


class DisplayConnection(models.Model):
    """A display connected now: written once its socket joined the bank's group, refreshed by
    the socket's heartbeat, deleted on disconnect or by the sweep once it is not refreshed
    (its server died without saying goodbye)."""

    token = models.ForeignKey(
        DisplayToken,
        verbose_name=_("display token"),
        on_delete=models.CASCADE,
        related_name="connections",
    )
    channel_name = models.CharField(_("channel"), max_length=200, unique=True)
    connected_at = models.DateTimeField(_("connected at"))
    last_seen_at = models.DateTimeField(_("last seen at"), db_index=True)
    remote = models.CharField(_("address"), max_length=80, blank=True)

    class Meta:
        verbose_name = _("connected display")
        verbose_name_plural = _("connected displays")

    def __str__(self) -> str:
        return gettext("%(token)s since %(time)s") % {
            "token": self.token,
            "time": f"{timezone.localtime(self.connected_at):%H:%M:%S}",
        }
