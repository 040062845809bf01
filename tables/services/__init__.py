"""Every change to the tables app goes through one of these functions, one module per subject:
configuration (paytables and rule sets, versioned), floor (tables and dealer assignments),
rounds (a round at the table, event by event, to its confirmed settlement).

Each service checks the actor's role and the change's legality first, then changes rows in
one transaction under `select_for_update`, writes the audit log in that transaction, and
notifies the live channels only after commit.
"""

from tables.services._base import UNSET
from tables.services.configuration import (
    RULESET_FIELDS,
    paytable_create,
    paytable_revise,
    ruleset_create,
    ruleset_deploy,
    ruleset_deployment_approve,
    ruleset_deployment_reject,
    ruleset_deployment_request,
    ruleset_follow_paytable,
    ruleset_mark_used,
    ruleset_revise,
)
from tables.services.floor import (
    ASSIGNING_ROLES,
    FROZEN_WHILE_OPEN,
    TABLE_FIELDS,
    assignment_create,
    assignment_end,
    dealer_rotate,
    table_close,
    table_configure,
    table_create,
    table_create_as_approved,
    table_open,
)
from tables.services.parsheets import (
    parsheet_compute,
    parsheet_queue_missing,
    parsheet_request,
)

__all__ = [
    "ASSIGNING_ROLES",
    "FROZEN_WHILE_OPEN",
    "RULESET_FIELDS",
    "TABLE_FIELDS",
    "UNSET",
    "assignment_create",
    "assignment_end",
    "dealer_rotate",
    "parsheet_compute",
    "parsheet_queue_missing",
    "parsheet_request",
    "paytable_create",
    "paytable_revise",
    "ruleset_create",
    "ruleset_deploy",
    "ruleset_deployment_approve",
    "ruleset_deployment_reject",
    "ruleset_deployment_request",
    "ruleset_follow_paytable",
    "ruleset_mark_used",
    "ruleset_revise",
    "table_close",
    "table_configure",
    "table_create",
    "table_create_as_approved",
    "table_open",
]
