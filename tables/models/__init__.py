"""The tables app's models, one module per subject: configuration (rule sets and paytables,
versioned), floor (tables and dealer assignments), rounds (rounds, their events and their
settlement lines), devices (tablets bound to a table)."""

from tables.models.configuration import (
    ENGINE_FIELDS,
    Paytable,
    RuleSet,
    VersionedRecord,
    default_preflop_multiples,  # the migrations name it here
    engine_check,
)
from tables.models.devices import DeviceBinding
from tables.models.floor import (
    MAX_SEATS,
    AssignmentQuerySet,
    DealerAssignment,
    RulesetDeployment,
    Table,
    assignment_conflict,
    limit_ratios,
)
from tables.models.parsheets import BaseGameSheet, BaseGameValues
from tables.models.rounds import (
    Correction,
    CorrectionRequest,
    IdempotentWrite,
    Round,
    RoundEvent,
    SettlementLine,
)

__all__ = [
    "BaseGameSheet",
    "BaseGameValues",
    "SettlementLine",
    "RoundEvent",
    "Round",
    "IdempotentWrite",
    "RulesetDeployment",
    "Correction",
    "CorrectionRequest",
    "DeviceBinding",
    "ENGINE_FIELDS",
    "MAX_SEATS",
    "AssignmentQuerySet",
    "DealerAssignment",
    "Paytable",
    "RuleSet",
    "Table",
    "VersionedRecord",
    "assignment_conflict",
    "default_preflop_multiples",
    "engine_check",
    "limit_ratios",
]
