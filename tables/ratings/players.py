"""The player file's changes on the floor: a carded player made by a supervisor, an anonymous
player linked to a card. One service per change, each audited with the player's id only (the
audit log outlives an erasure: it never holds a name, an alias or a card)."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.clock import current_property
from casino.errors import CasinoError, IllegalTransition, NotFound
from casino.roles import Role, require_role
from tables.ratings.models import Player

# Who sees the player file at all, and what: the pit sees alias and status, hosts no
# identity, compliance and auditors the identity (tables.ratings.identity).
FILE_READERS = (Role.SUPERVISOR, Role.MANAGER, Role.HOST, Role.COMPLIANCE, Role.AUDITOR)
IDENTITY_READERS = (Role.COMPLIANCE, Role.AUDITOR)


class CardTaken(IllegalTransition):
    code = "card_taken"


def _clean(value: str | None, *, limit: int, what: str) -> str:
    value = (value or "").strip()
    if len(value) > limit:
        raise CasinoError(
            _("The %(what)s is too long (%(limit)s characters at most).")
            % {"what": what, "limit": limit},
            code="too_long",
        )
    return value


def player_get(player_id: int, *, for_update: bool = False) -> Player:
    rows = Player.objects.select_for_update() if for_update else Player.objects
    player = rows.filter(pk=player_id).first()
    if player is None:
        raise NotFound(_("No such player."))
    return player


def _refuse_erased(player: Player) -> None:
    if player.erased_at is not None:
        raise IllegalTransition(_("This player's file was erased."), code="player_erased")


def player_create(*, supervisor, alias: str, card: str | None = None) -> Player:
    """A carded player (or, with no card, an anonymous one) on the property's file."""
    require_role(supervisor, Role.SUPERVISOR)
    alias = _clean(alias, limit=60, what=_("alias"))
    card = _clean(card, limit=32, what=_("card number")) or None
    if not alias:
        raise CasinoError(_("Give the player an alias."), code="alias_required")
    prop = current_property()
    if card and Player.objects.filter(property=prop, card=card).exists():
        raise CardTaken(_("Card %(card)s is another player's.") % {"card": card})
    try:
        with transaction.atomic():
            player = Player.objects.create(
                property=prop,
                card=card,
                alias=alias,
                created_by=supervisor,
                last_visit_at=timezone.now(),
            )
            audit(
                actor=supervisor,
                code="player.created",
                subject=player,
                data={"carded": card is not None},
            )
    except IntegrityError:  # the same card given at the same moment
        raise CardTaken(_("Card %(card)s is another player's.") % {"card": card}) from None
    return player


def player_link(*, supervisor, player_id: int, card: str) -> Player:
    """An anonymous player ("man, red jacket") given a card: what was rated before stays
    theirs, under the same player."""
    require_role(supervisor, Role.SUPERVISOR)
    card = _clean(card, limit=32, what=_("card number"))
    if not card:
        raise CasinoError(_("Give the card number."), code="card_required")
    try:
        with transaction.atomic():
            player = player_get(player_id, for_update=True)
            _refuse_erased(player)
            if player.card:
                raise IllegalTransition(_("This player already has a card."), code="player_carded")
            if Player.objects.filter(property=player.property, card=card).exists():
                raise CardTaken(_("Card %(card)s is another player's.") % {"card": card})
            player.card = card
            player.save(update_fields=["card"])
            audit(actor=supervisor, code="player.linked", subject=player, data={})
    except IntegrityError:
        raise CardTaken(_("Card %(card)s is another player's.") % {"card": card}) from None
    return player
