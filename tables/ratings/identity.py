"""Who a player is, for compliance: recorded and read by as few people as possible, every
reading audited. What is kept is the fact that a document was checked (its kind, by whom and
when), never a copy nor its number."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.audit import audit
from casino.errors import CasinoError, IllegalTransition
from casino.roles import Role, require_role
from casino.transitions import TransitionRefused, move
from tables.ratings.models import Player, PlayerIdentity
from tables.ratings.players import IDENTITY_READERS, _clean, _refuse_erased, player_get

DOCUMENT_KINDS = {
    "passport": gettext_lazy("passport"),
    "identity_card": gettext_lazy("identity card"),
    "driving_licence": gettext_lazy("driving licence"),
    "residence_permit": gettext_lazy("residence permit"),
}
STATUSES = {Player.ACTIVE, Player.BARRED, Player.SELF_EXCLUDED}


def identity_record(
    *,
    officer,
    player_id: int,
    family_name: str,
    given_names: str = "",
    birth_date=None,
    document_kind: str,
) -> PlayerIdentity:
    """Compliance records (or corrects) a player's identity, as checked on a document now."""
    require_role(officer, Role.COMPLIANCE)
    family_name = _clean(family_name, limit=120, what=_("family name"))
    given_names = _clean(given_names, limit=120, what=_("given names"))
    if not family_name:
        raise CasinoError(_("Give the family name."), code="family_name_required")
    if document_kind not in DOCUMENT_KINDS:
        raise CasinoError(_("Choose the kind of document checked."), code="document_required")
    if birth_date is not None and birth_date > timezone.localdate():
        raise CasinoError(_("The date of birth is in the future."), code="birth_date_future")
    with transaction.atomic():
        player = player_get(player_id, for_update=True)
        _refuse_erased(player)
        identity, created = PlayerIdentity.objects.update_or_create(
            player=player,
            defaults={
                "family_name": family_name,
                "given_names": given_names,
                "birth_date": birth_date,
                "document_kind": document_kind,
                "checked_by": officer,
                "checked_at": timezone.now(),
            },
        )
        # The kind of document only: the audit log outlives an erasure, so no name in it.
        audit(
            actor=officer,
            code="player.identity.recorded",
            subject=player,
            data={"document_kind": document_kind, "first": created},
        )
    return identity


def identity_view(*, reader, player_id: int) -> PlayerIdentity | None:
    """The player's identity for compliance or an auditor; the reading itself is audited,
    whether or not there is one to read."""
    require_role(reader, *IDENTITY_READERS)
    with transaction.atomic():
        player = player_get(player_id)
        identity = PlayerIdentity.objects.filter(player=player).select_related("checked_by").first()
        audit(
            actor=reader,
            code="player.identity.viewed",
            subject=player,
            data={"found": identity is not None},
        )
    return identity


def player_status_set(*, officer, player_id: int, status: str, reason: str) -> Player:
    """Compliance bars a player, records a self-exclusion, or lifts either: with a reason,
    audited. A barred or self-excluded player cannot be rated; the pit sees the status."""
    require_role(officer, Role.COMPLIANCE)
    if status not in STATUSES:
        raise CasinoError(_("Choose a status."), code="status_unknown")
    reason = _clean(reason, limit=200, what=_("reason"))
    if not reason:
        raise CasinoError(_("Give the reason."), code="reason_required")
    with transaction.atomic():
        player = player_get(player_id, for_update=True)
        _refuse_erased(player)
        before = player.status
        try:
            changed = move(player, status, field="status")
        except TransitionRefused:  # every other status is allowed (Player.ALLOWED)
            raise IllegalTransition(
                _("The player's status is already %(status)s.")
                % {"status": player.get_status_display()},
                code="status_unchanged",
            ) from None
        player.save(update_fields=changed)
        audit(
            actor=officer,
            code="player.status.changed",
            subject=player,
            data={"from": before, "to": status, "reason": reason},
        )
    return player
