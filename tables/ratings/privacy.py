"""A player's rights under the GDPR (docs/reference/players-and-privacy.md): every item held
about them as one JSON file (art. 15), erasure by pseudonymisation that keeps what the
anti-money-laundering rules oblige the casino to keep (art. 17(3)(b)), and the retention of
marketing data a set number of years after the last visit (art. 5(1)(e))."""

import datetime as dt
import secrets

from django.core import serializers
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.clock import current_property
from casino.errors import CasinoError, IllegalTransition
from casino.models import AuditEntry
from casino.roles import Role, require_role
from tables.ratings.compliance import settings_for
from tables.ratings.models import Player, PlayerIdentity
from tables.ratings.players import player_get

EXPORT_FORMAT = 1
PSEUDONYM_PREFIX = "erased-"


def _rows(queryset) -> list[dict]:
    return [
        {"model": row["model"], "id": row["pk"], **row["fields"]}
        for row in serializers.serialize("python", queryset)
    ]


def _held_about(player: Player) -> dict:
    """Every row that points at the player, whatever app holds it (the ratings and their
    buy-ins included, as they are added), plus the audit entries about them."""
    items = {"player": _rows(Player.objects.filter(pk=player.pk))}
    for relation in Player._meta.related_objects:
        if relation.related_model is AuditEntry or not relation.field.concrete:
            continue
        rows = relation.related_model._default_manager.filter(**{relation.field.name: player})
        items[relation.related_model._meta.label_lower] = _rows(rows.order_by("pk"))
    entries = AuditEntry.objects.filter(
        subject_type=Player._meta.label_lower, subject_id=str(player.pk)
    ).order_by("pk")
    items["audit_log"] = [
        {
            "at": entry.created_at,
            "code": entry.code,
            "gaming_date": entry.gaming_date,
            "data": entry.data,
        }
        for entry in entries
    ]
    return items


def player_data_export(*, officer, player_id: int) -> dict:
    """Every item held about the player (an access request, GDPR art. 15), audited. The
    staff who touched the file appear by their id only: their own data is not the player's."""
    require_role(officer, Role.COMPLIANCE)
    with transaction.atomic():
        player = player_get(player_id)
        document = {
            "format": EXPORT_FORMAT,
            "property": str(player.property),
            "made_at": timezone.now(),
            "player_id": player.pk,
            "items": _held_about(player),
        }
        audit(actor=officer, code="player.data.exported", subject=player, data={})
    return document


def _pseudonymise(player: Player) -> None:
    player.alias = f"{PSEUDONYM_PREFIX}{secrets.token_hex(4)}"
    player.card = None
    player.erased_at = timezone.now()
    player.save(update_fields=["alias", "card", "erased_at"])


def _aml_period(years: int) -> dt.timedelta:
    return dt.timedelta(days=365 * years + years // 4)


def _identity_kept_until(
    identity: PlayerIdentity | None, years: int, now: dt.datetime
) -> dt.datetime | None:
    """When the identity may go: its check opened an anti-money-laundering record kept
    `years` (CMF L.561-12, 31 CFR 1010.430); None when nothing obliges the casino to keep it."""
    if identity is None or identity.checked_at is None:
        return None
    until = identity.checked_at + _aml_period(years)
    return until if until > now else None


def player_erase(
    *,
    officer,
    player_id: int,
    reason: str,
    actor_kind: str = "request",
    now: dt.datetime | None = None,
) -> dict:
    """Erasure (GDPR art. 17): the alias becomes a pseudonym, the card goes, the identity goes
    unless the anti-money-laundering record keeping still obliges the casino to keep it (art.
    17(3)(b)); the retention rule removes it when that period ends. The ratings and buy-ins
    stay under the player's id (financial and AML records), now without a name."""
    if officer is not None:
        require_role(officer, Role.COMPLIANCE)
    reason = (reason or "").strip()[:200]
    if not reason:
        raise CasinoError(_("Give the reason."), code="reason_required")
    years = settings_for(current_property()).aml_retention_years
    with transaction.atomic():
        player = player_get(player_id, for_update=True)
        if player.erased_at is not None:
            raise IllegalTransition(_("This player's file was erased."), code="player_erased")
        identity = PlayerIdentity.objects.filter(player=player).first()
        kept_until = _identity_kept_until(identity, years, now or timezone.now())
        if identity is not None and kept_until is None:
            identity.delete()
        _pseudonymise(player)
        outcome = {
            "reason": reason,
            "by": actor_kind,
            "identity": "none" if identity is None else ("kept" if kept_until else "erased"),
            "identity_kept_until": kept_until,
        }
        audit(actor=officer, code="player.erased", subject=player, data=outcome)
    return outcome


def retention_apply(*, now: dt.datetime | None = None) -> dict:
    """The retention rule, run daily (`manage.py players_retention`): players not seen for
    the marketing retention period are erased as above; erased players' identities kept for
    anti-money-laundering go when that period ends. Audited with no actor (the rule itself)."""
    now = now or timezone.now()
    prop = current_property()
    if prop is None:
        return {"erased": 0, "identities_removed": 0}
    rules = settings_for(prop)
    cutoff = now - dt.timedelta(days=365 * rules.marketing_retention_years)
    erased = 0
    stale = Player.objects.filter(property=prop, erased_at__isnull=True)
    for player in stale.filter(last_visit_at__lt=cutoff) | stale.filter(
        last_visit_at__isnull=True, created_at__lt=cutoff
    ):
        player_erase(
            officer=None, player_id=player.pk, reason="retention", actor_kind="retention", now=now
        )
        erased += 1
    aml_cutoff = now - _aml_period(rules.aml_retention_years)
    removed = 0
    for identity in PlayerIdentity.objects.filter(
        player__property=prop, player__erased_at__isnull=False, checked_at__lt=aml_cutoff
    ).select_related("player"):
        with transaction.atomic():
            identity.delete()
            audit(
                actor=None,
                code="player.identity.removed",
                subject=identity.player,
                data={"by": "retention"},
            )
        removed += 1
    return {"erased": erased, "identities_removed": removed}
