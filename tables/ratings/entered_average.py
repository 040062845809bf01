"""A supervisor's average Ante for a seat the tablet does not see (issue 28, item 9): kept
beside the measured one for the accuracy report, only where the property's rating settings
allow it, and audited with the value it replaced."""

from django.db import transaction
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.clock import current_property
from casino.errors import IllegalTransition, NotFound
from casino.roles import Role, require_role
from tables.ratings.models import Rating, RatingSettings

#: Far above any table's maximum Ante, far below what a column holds.
MOST_CENTS = 10**9


class AverageEntryNotAllowed(IllegalTransition):
    code = "average_entry_not_allowed"


def entry_allowed(prop=None) -> bool:
    prop = prop or current_property()
    return RatingSettings.objects.filter(property=prop, average_ante_entry=True).exists()


def rating_average_enter(*, supervisor, rating_id: int, cents: int | None) -> Rating:
    """Set (or clear, with None) the average Ante a supervisor saw at the rated seat."""
    require_role(supervisor, Role.SUPERVISOR)
    if not entry_allowed():
        raise AverageEntryNotAllowed(
            _("This casino does not let supervisors enter an average Ante.")
        )
    if cents is not None and not 0 <= cents <= MOST_CENTS:
        raise IllegalTransition(_("Type an average Ante of zero or more."))
    with transaction.atomic():
        rating = (
            Rating.objects.select_for_update().select_related("player").filter(pk=rating_id).first()
        )
        if rating is None:
            raise NotFound(_("No such rating."))
        # The rated member of staff never rates their own play, here as at the open.
        if rating.player.staff_id is not None and rating.player.staff_id == supervisor.pk:
            raise IllegalTransition(_("Nobody enters figures for their own rating."))
        before = rating.entered_average_ante_cents
        rating.entered_average_ante_cents = cents
        rating.save(update_fields=["entered_average_ante_cents"])
        audit(
            actor=supervisor,
            code="ratings.rating.average_entered",
            subject=rating,
            data={"before": before, "after": cents},
        )
    return rating
