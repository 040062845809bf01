"""A second person's approval, written once for a void and a correction: their PIN checked
(before the decision's transaction, so that a wrong PIN counts toward the lockout), their
independence of everyone who asked or had a hand in the round (casino.duties), and their
approval audited with the decision, in its transaction. docs/architecture/two-person-rules.md.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from casino.audit import audit_many
from casino.duties import require_independent
from casino.errors import TwoPeopleRequired
from casino.models import Staff
from casino.pins import pin_approve
from casino.roles import Role, has_role
from tables.errors import RoundRefused
from tables.models import Round
from tables.services.rounds.people import round_hands


@dataclass(frozen=True)
class SecondPerson:
    """Who approved, by their PIN, in which role."""

    staff: Staff
    role: str


def second_person(
    *,
    employee_number: str,
    pin: str,
    role: str,
    round_: Round,
    askers: dict[int, Staff],
    action: str,
    field: str,
    names_the_dealer: bool = False,
) -> SecondPerson:
    """The person whose PIN this is, holding `role`, independent of each of `askers` and of
    everyone else who had a hand in `round_` (as `state.round_read` reads it). A refusal names
    `field`; with `names_the_dealer`, one of the askers approving their own round hears so."""
    approver = pin_approve(employee_number=employee_number, pin=pin, role=role).staff
    askers = dict(askers)
    for person in round_hands(round_, known=askers):
        askers[person.pk] = person
    for asker in askers.values():
        try:
            require_independent(
                approver=approver, asker=asker, action=action, subject=round_, by_pin=True
            )
        except TwoPeopleRequired as exc:
            if names_the_dealer and approver.pk == asker.pk:
                raise RoundRefused(
                    _("%(name)s deals this round and cannot approve it: call another supervisor.")
                    % {"name": approver},
                    code="supervisor_is_dealer",
                    field=field,
                ) from exc
            raise RoundRefused(exc.message, code=exc.code, field=field) from exc
    return SecondPerson(approver, role)


def supervisor_at_the_tablet(credentials, *, round_: Round, actor: Staff, action: str):
    """The supervisor whose number and PIN came with the request: never the round's dealer,
    never the person at the tablet who asks, nor anyone not independent of them."""
    if not isinstance(credentials, dict) or not credentials.get("employee_number"):
        raise RoundRefused(
            _("A supervisor's employee number and PIN are needed for this."),
            code="supervisor_required",
            field="supervisor",
        )
    askers = {round_.dealer_id: round_.dealer}
    if not has_role(actor, Role.SUPERVISOR):
        askers[actor.pk] = actor  # the dealer at the tablet asks; someone else approves
    return second_person(
        employee_number=str(credentials.get("employee_number", "")),
        pin=str(credentials.get("pin", "")),
        role=Role.SUPERVISOR,
        round_=round_,
        askers=askers,
        action=action,
        field="supervisor",
        names_the_dealer=True,
    )


def decision_record(approver: SecondPerson, *, code: str, subject, data: dict) -> None:
    """The approval's PIN and what it decided, audited together in the decision's
    transaction (the PIN's entry first, as pin_approve leaves it to the caller): one
    audit_many, one stamp and one INSERT for the pair."""
    audit_many(
        [
            {
                "actor": approver.staff,
                "code": "casino.pin.approved",
                "subject": approver.staff,
                "data": {"role": str(approver.role)},
            },
            {"actor": approver.staff, "code": code, "subject": subject, "data": data},
        ]
    )
