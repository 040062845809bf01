"""A round at the table, as data: the round, its events, its settlement lines, its corrections.

The events are the truth (ARCHITECTURE.md, "A round, as data"): append-only, numbered 1, 2,
3... per round with no gap, each with who, when and the client's idempotency key. The state
cached on the round row is what the engine's `replay` of those events gives. Settlement lines
are written once, per seat and bet, in integer cents; a correction adds compensating lines,
it never edits one.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from casino.audit import ChainBreak, register_chain
from casino.audit_keys import current_key_id, known_keys
from casino.chains import EDITED, GENESIS, RELINKED, UNKNOWN_KEY, link_digest, walk
from tables.errors import AppendOnly


class _AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnly(_("Round events and settlement lines are never changed."))

    def delete(self):
        raise AppendOnly(_("Round events and settlement lines are never deleted."))


class _AppendOnlyModel(models.Model):
    objects = _AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None or kwargs.get("force_update"):
            raise AppendOnly(_("Round events and settlement lines are never changed."))
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly(_("Round events and settlement lines are never deleted."))


class Round(models.Model):
    class Stage(models.TextChoices):
        BETTING = "betting", _("bets")
        PREFLOP = "preflop", _("pre-flop")
        FLOP = "flop", _("flop")
        RIVER = "river", _("turn and river")
        SHOWDOWN = "showdown", _("showdown")
        SETTLED = "settled", _("settled")
        VOID = "void", _("void")

    FINISHED = (Stage.SETTLED, Stage.VOID)

    table = models.ForeignKey(
        "tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="rounds"
    )
    number = models.PositiveIntegerField(_("number"))  # per table and gaming day
    gaming_date = models.DateField(_("gaming date"))
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    # Pinned when the round opens: a rule set deployed meanwhile applies to the next round.
    ruleset = models.ForeignKey(
        "tables.RuleSet", verbose_name=_("rule set"), on_delete=models.PROTECT, related_name="+"
    )
    rules = models.JSONField(_("rules"))  # the engine's canonical rules object of that version
    seat_numbers = models.JSONField(_("seats"))  # the seats open at the table for this round
    bank = models.ForeignKey(
        "jackpot.Bank",
        verbose_name=_("progressive bank"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("dealer"),
        on_delete=models.PROTECT,
        related_name="rounds_dealt",
    )
    seq = models.PositiveIntegerField(_("events"), default=0)
    stage = models.CharField(
        _("stage"), max_length=10, choices=Stage.choices, default=Stage.BETTING
    )
    state = models.JSONField(_("state"))  # cache: the engine's RoundState.to_json() at `seq`
    opened_at = models.DateTimeField(_("opened"))
    settled_at = models.DateTimeField(_("settled"), null=True, blank=True)
    # The settle.md output as confirmed (each progressive hit with its Hit id), or null.
    settlement = models.JSONField(_("settlement"), null=True, blank=True)
    # The settle.md input as confirmed: what `export` gives and the CLI settles again.
    settlement_input = models.JSONField(_("settlement input"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["-opened_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_date", "number"], name="round_number_per_table_day"
            ),
            # One round at a time per table, in the database too (a race between two
            # tablets opening at once ends here).
            models.UniqueConstraint(
                fields=["table"],
                condition=~Q(stage__in=["settled", "void"]),
                name="one_round_in_progress_per_table",
            ),
        ]
        indexes = [models.Index(fields=["table", "-opened_at"])]

    def __str__(self) -> str:
        # As a person reads a round: its table and its number, never its database id.
        return _("%(table)s, round #%(number)s (%(date)s)") % {
            "table": self.table,
            "number": self.number,
            "date": self.gaming_date,
        }

    @property
    def in_progress(self) -> bool:
        return self.stage not in self.FINISHED


class RoundEvent(_AppendOnlyModel):
    """One step of a round, as the engine accepted it. Never changed or deleted."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.PROTECT, related_name="events"
    )
    seq = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=32)
    data = models.JSONField(_("event"))  # the engine's event_to_json()
    key = models.CharField(_("client key"), max_length=64)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    # The supervisor whose PIN approved the step (a void approved or refused).
    supervisor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved by"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    at = models.DateTimeField(_("time"))
    # Chained per round like the audit log (casino.audit_keys): the previous event's hash and
    # an HMAC of this one under AUDIT_HMAC_KEY, sealed at the INSERT (see `seal`).
    prev_hash = models.CharField(_("previous hash"), max_length=64, default="", blank=True)
    hash = models.CharField(_("hash"), max_length=64, default="", blank=True)
    key_id = models.CharField(_("key id"), max_length=32, default="", blank=True)

    class Meta:
        verbose_name = _("round event")
        verbose_name_plural = _("round events")
        ordering = ["round", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seq"], name="round_event_seq_unique"),
            models.UniqueConstraint(fields=["round", "key"], name="round_event_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} {self.seq}: {self.kind}"

    def save(self, *args, **kwargs):
        if self.pk is None:
            self.seal()
        super().save(*args, **kwargs)

    def seal(self) -> None:
        """Link this event to the round's previous one and key it. The writer holds the
        round's row lock (tables.services.rounds), so the previous event cannot change."""
        if self.seq == 1:
            self.prev_hash = GENESIS
        elif not self.prev_hash:  # given by a writer that read it under the same lock
            self.prev_hash = (
                RoundEvent.objects.filter(round_id=self.round_id, seq=self.seq - 1)
                .values_list("hash", flat=True)
                .first()
                or ""
            )
        self.key_id = current_key_id()
        self.hash = round_event_digest(self, known_keys()[self.key_id])


class Correction(_AppendOnlyModel):
    """A settled round settled again on corrected facts, approved by a supervisor."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.PROTECT, related_name="corrections"
    )
    number = models.PositiveIntegerField(_("number"))  # 1, 2... per round
    key = models.CharField(_("client key"), max_length=64)
    reason = models.TextField(_("reason"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    supervisor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    input = models.JSONField(_("corrected input"))
    output = models.JSONField(_("corrected settlement"))
    at = models.DateTimeField(_("time"))

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="correction_number_unique"),
            models.UniqueConstraint(fields=["round", "key"], name="correction_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round}, correction {self.number}"


class CorrectionRequest(models.Model):
    """A correction asked for by one of the table's supervisors (with their PIN) and waiting
    for a second person, a supervisor or manager independent of the asker and of everyone
    who had a hand in the round (issue 23, 2). Approved, it becomes a Correction; the facts
    and the engine's settlement of them are kept as asked."""

    class State(models.TextChoices):
        REQUESTED = "requested", _("waiting for a second approval")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    ALLOWED = {State.REQUESTED: {State.APPROVED, State.REJECTED}}  # casino.transitions

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.PROTECT, related_name="correction_requests"
    )
    key = models.CharField(_("client key"), max_length=64)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.REQUESTED
    )
    reason = models.TextField(_("reason"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    asked_at_tablet_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("signed in at the tablet"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    input = models.JSONField(_("corrected input"))
    output = models.JSONField(_("corrected settlement"))
    # [[seat, bet, net], ...]: the compensating lines as they would be written when asked.
    lines = models.JSONField(_("lines"))
    amount_cents = models.BigIntegerField(_("amount moved"))
    requested_at = models.DateTimeField(_("requested at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        verbose_name=_("decided by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    reject_reason = models.CharField(_("reason for the rejection"), max_length=200, blank=True)
    correction = models.OneToOneField(
        Correction,
        null=True,
        blank=True,
        verbose_name=_("correction"),
        on_delete=models.PROTECT,
        related_name="request",
    )

    class Meta:
        verbose_name = _("correction request")
        verbose_name_plural = _("correction requests")
        ordering = ["requested_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["round", "key"], name="correction_request_key_unique"),
            # One waiting at a time per round: the second is asked on the first's result.
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(state="requested"),
                name="one_correction_request_waiting_per_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}, correction request #{self.pk}"


class SettlementLine(_AppendOnlyModel):
    """What one bet of one seat won or lost (`net`, player's view, integer cents).

    The round's confirmation writes one line per seat and bet; a correction writes the
    differences as lines of its own. A seat's result is the sum of its lines."""

    class Bet(models.TextChoices):
        ANTE = "ante", _("Ante")
        BLIND = "blind", _("Blind")
        PLAY = "play", _("Play")
        TRIPS = "trips", _("Trips")
        PROGRESSIVE = "progressive", _("progressive")
        ENVY = "envy", _("Envy bonus")
        CAP = "cap", _("withheld above the maximum payout")

    class PaidFrom(models.TextChoices):
        HOUSE = "house", _("house")
        METER = "meter", _("progressive meter")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.PROTECT, related_name="lines"
    )
    correction = models.ForeignKey(
        Correction,
        verbose_name=_("correction"),
        on_delete=models.PROTECT,
        related_name="lines",
        null=True,
        blank=True,
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    bet = models.CharField(_("bet"), max_length=12, choices=Bet.choices)
    stake_cents = models.BigIntegerField(_("stake (cents)"))
    net_cents = models.BigIntegerField(_("net (cents)"))
    # A percentage-tier progressive win is paid by the meter (the hit), everything else by
    # the house: the table's computed win counts only the house's lines.
    paid_from = models.CharField(
        _("paid by"), max_length=6, choices=PaidFrom.choices, default=PaidFrom.HOUSE
    )
    hit = models.ForeignKey(
        "jackpot.Hit",
        verbose_name=_("progressive hit"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    gaming_date = models.DateField(_("gaming date"))
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    at = models.DateTimeField(_("time"))

    class Meta:
        verbose_name = _("settlement line")
        verbose_name_plural = _("settlement lines")
        ordering = ["round", "pk"]
        indexes = [models.Index(fields=["gaming_date", "shift"])]

    def __str__(self) -> str:
        return f"{self.round} seat {self.seat} {self.bet}: {self.net_cents}"


class IdempotentWrite(models.Model):
    """The answer given to a write, kept under its client key: the same key with the same
    body gets the same status and body again; with another body, `409 key_reused`."""

    scope = models.CharField(max_length=40)  # "table:3:open", "round:812:events"...
    key = models.CharField(max_length=64)
    body_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField()
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotent_write_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"


def round_event_digest(event: RoundEvent, key: str) -> str:
    body = {
        "round": event.round_id,
        "seq": event.seq,
        "kind": event.kind,
        "data": event.data,
        "key": event.key,
        "actor": event.actor_id,
        "supervisor": event.supervisor_id,
        "at": event.at.isoformat(),
        "key_id": event.key_id,
    }
    return link_digest(body, event.prev_hash, key)


_EVENT_BREAKS = {
    UNKNOWN_KEY: "its key id {key_id!r} is not a known key (forged or unsealed)",
    EDITED: "its content no longer matches its MAC (edited or forged)",
    RELINKED: "its previous-hash does not match the hash of the event before it",
}


def round_events_find_break() -> ChainBreak | None:
    """The first round event that does not hold (MAC, link, a missing number) or the first
    round whose events stop short of its count (the round row's `seq`)."""
    counts = dict(Round.objects.values_list("pk", "seq"))
    walked = walk(
        RoundEvent.objects.order_by("round_id", "seq").iterator(chunk_size=2000),
        keys=known_keys(),
        digest=round_event_digest,
        number="seq",
        chain=lambda event: event.round_id,
    )
    if walked.broken is not None:
        event = walked.broken.row
        where = f"round {event.round_id}, event {event.seq}"
        if walked.broken.kind in _EVENT_BREAKS:
            reason = _EVENT_BREAKS[walked.broken.kind].format(key_id=event.key_id)
        else:
            first, last = walked.broken.missing
            gone = f"event {first} is" if first == last else f"events {first} to {last} are"
            reason = f"{gone} missing (deleted) before it"
        return ChainBreak(event, event.pk, where, reason)
    for round_id, count in sorted(counts.items()):
        seen = walked.heads.get(round_id, (0,))[0]
        if seen != count:
            reason = (
                f"the round records {count} events but {seen} remain "
                "(its last events deleted, or the table truncated)"
            )
            return ChainBreak(None, round_id, f"round {round_id}", reason)
    return None


register_chain("round events", round_events_find_break)
