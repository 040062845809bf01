"""The cross-cutting helpers every app uses (issue 24, 4): a state change, an amount typed, an
id asked for, a hash chain walked."""

import ast
import datetime as dt
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.apps import apps

from casino import chains
from casino.ids import MAX_ID, db_id
from casino.money import parse_cents
from casino.transitions import TransitionRefused, move
from jackpot.models import Hit
from tables.models import DeviceBinding


@pytest.mark.parametrize(
    "value, expected",
    [
        (1, 1),
        ("42", 42),
        (MAX_ID, MAX_ID),
        (str(MAX_ID), MAX_ID),
        (MAX_ID + 1, None),
        (str(MAX_ID + 1), None),
        ("9" * 40, None),
        (0, None),
        ("0", None),
        (-3, None),
        ("-3", None),
        (True, None),
        ("١٢", None),
        (" 7", None),
        ("7.0", None),
        (7.0, None),
        (None, None),
    ],
)
def test_an_id_is_one_a_row_can_have(value, expected):
    assert db_id(value) == expected


@pytest.mark.parametrize(
    "typed, options, cents",
    [
        ("1234,50", {}, 123_450),
        ("1234.5", {}, 123_450),
        ("12 €", {}, 1_200),
        ("1.234,56", {"decimals": ",", "groups": "."}, 123_456),
        ("12,345", {"decimals": ".", "groups": ","}, 1_234_500),
        ("1.000.000", {"groups": ",."}, 100_000_000),
    ],
)
def test_an_amount_is_read_with_the_separators_its_form_allows(typed, options, cents):
    assert parse_cents(typed, **options) == cents


@pytest.mark.parametrize(
    "typed, options",
    [
        ("1.234", {}),  # no grouping allowed: not 1 234, not 1,234
        ("12,345", {"decimals": ",", "groups": "."}),  # three decimals
        ("1,000,5", {"groups": ",."}),  # the decimal comma cannot group as well
        ("1.000,000", {"groups": ",."}),  # two kinds of grouping
        ("1" * 16, {}),  # no column holds it
        ("-5", {}),
        ("", {}),
    ],
)
def test_what_is_not_an_amount_is_refused(typed, options):
    with pytest.raises(ValueError):
        parse_cents(typed, **options)


def test_a_move_the_model_allows_sets_the_state_and_its_stamps():
    hit = Hit(state=Hit.State.PENDING)
    at = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)
    assert move(hit, Hit.State.VERIFIED, verified_at=at) == ["state", "verified_at"]
    assert (hit.state, hit.verified_at) == (Hit.State.VERIFIED, at)


def test_a_move_the_model_does_not_allow_changes_nothing_and_says_from_where():
    hit = Hit(state=Hit.State.PENDING)
    with pytest.raises(TransitionRefused) as refused:
        move(hit, Hit.State.PAID, paid_at=dt.datetime(2026, 12, 5, tzinfo=dt.UTC))
    assert (refused.value.was, refused.value.to, refused.value.code) == (
        Hit.State.PENDING,
        Hit.State.PAID,
        "illegal_transition",
    )
    assert (hit.state, hit.paid_at) == (Hit.State.PENDING, None)


def test_a_state_kept_as_a_stamp_is_moved_by_the_stamp():
    binding = DeviceBinding(name="T1")
    at = dt.datetime(2026, 12, 5, tzinfo=dt.UTC)
    assert move(binding, DeviceBinding.State.REVOKED, revoked_at=at) == ["revoked_at"]
    assert binding.state == DeviceBinding.State.REVOKED
    with pytest.raises(TransitionRefused):
        move(binding, DeviceBinding.State.REVOKED, revoked_at=at)


ROOT = Path(__file__).parents[2]
STATE_FIELDS = ("state", "status")


def stateful_models():
    """Our models with a state kept as one of its choices."""
    for model in apps.get_models():
        if not model.__module__.startswith(("casino.", "tables.", "jackpot.")):
            continue
        for field in model._meta.concrete_fields:
            if field.name in STATE_FIELDS and field.choices:
                yield model, field


@pytest.mark.parametrize(
    "model, field", list(stateful_models()), ids=lambda v: getattr(v, "__name__", "")
)
def test_every_record_with_a_state_lists_the_moves_it_allows(model, field):
    choices = {str(value) for value, _label in field.flatchoices}
    allowed = getattr(model, "ALLOWED", None)
    assert allowed, f"{model.__name__} has a {field.name} but no ALLOWED for casino.transitions"
    for was, to in allowed.items():
        assert {str(was), *map(str, to)} <= choices, (model.__name__, was, to)


# Assignments to a `state` or `status` that are not a record's choice.
NOT_A_RECORDS_STATE = {
    "tables/services/rounds/state.py": "a round's state is the engine's, replayed from events",
    "jackpot/consumers.py": "a display socket's copy of its bank's status",
}


def state_writes(path: Path):
    """(line, code) of each `x.state = ...` / `x.status = ...` and `.update(state=...)`."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and part.attr in STATE_FIELDS:
                        yield node.lineno, ast.unparse(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("update", "bulk_update") and any(
                k.arg in STATE_FIELDS for k in node.keywords
            ):
                yield node.lineno, ast.unparse(node)


def test_a_state_changes_only_through_move():
    found = []
    for app in ("casino", "tables", "jackpot"):
        for path in sorted((ROOT / app).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if "migrations" in path.parts or name in NOT_A_RECORDS_STATE:
                continue
            if name == "casino/transitions.py":
                continue
            found += [f"{name}:{line}: {code}" for line, code in state_writes(path)]
    assert found == [], "a state set by hand, not by casino.transitions.move:\n" + "\n".join(found)


KEY = "k" * 32


def chain(*numbers, key_id="k1", first_pk=1):
    rows, previous = [], chains.GENESIS
    for pk, number in enumerate(numbers, start=first_pk):
        row = SimpleNamespace(
            pk=pk, n=number, body={"n": number}, key_id=key_id, prev_hash=previous
        )
        row.hash = previous = digest(row, KEY)
        rows.append(row)
    return rows


def digest(row, key):
    return chains.link_digest({**row.body, "id": row.pk}, row.prev_hash, key)


def walked(rows, **kwargs):
    return chains.walk(rows, keys={"k1": KEY}, digest=digest, number="n", **kwargs)


def test_a_chain_that_holds_walks_to_its_head():
    rows = chain(1, 2, 3)
    result = walked(rows)
    assert result.broken is None
    assert result.heads == {None: (3, rows[2].hash, 3)}


@pytest.mark.parametrize(
    "tamper, kind, at",
    [
        (lambda rows: rows.pop(1), chains.MISSING, 3),
        (lambda rows: rows.insert(2, rows[0]), chains.RENUMBERED, 1),
        (lambda rows: rows[1].body.update(n=20), chains.EDITED, 2),
        (lambda rows: setattr(rows[1], "key_id", "forged"), chains.UNKNOWN_KEY, 2),
        (lambda rows: setattr(rows[2], "prev_hash", "0" * 64), chains.EDITED, 3),
    ],
    ids=["deleted", "reordered", "edited", "forged key", "relinked without the key"],
)
def test_the_walker_names_the_first_row_that_does_not_hold(tamper, kind, at):
    rows = chain(1, 2, 3)
    tamper(rows)
    broken = walked(rows).broken
    assert (broken.kind, broken.at) == (kind, at)


def test_a_link_resealed_with_the_key_but_not_chained_is_named_relinked():
    rows = chain(1, 2, 3)
    rows[2].prev_hash = "f" * 64
    rows[2].hash = digest(rows[2], KEY)
    assert walked(rows).broken.kind == chains.RELINKED


def test_a_chains_own_check_is_named_with_its_reason():
    broken = walked(chain(1, 2), check=lambda row: "too big" if row.n == 2 else None).broken
    assert (broken.kind, broken.reason, broken.at) == (chains.REFUSED, "too big", 2)


def test_rows_of_several_chains_are_walked_each_from_its_own_start():
    rows = chain(1, 2) + chain(1, first_pk=11)
    result = walked(rows, chain=lambda row: "b" if row.pk > 10 else "a")
    assert result.broken is None and set(result.heads) == {"a", "b"}
