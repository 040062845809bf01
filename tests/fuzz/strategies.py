"""What a hostile client sends: texts with NUL bytes, other scripts' digits, thousands of
characters; numbers far beyond any column; JSON of any shape. Shared by the fuzz tests."""

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Few examples per entry point, always the same ones (derandomize): the whole directory runs
#: in about a minute, and a failure found once is found again.
FUZZ = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FEW = settings(FUZZ, max_examples=6)

hostile_texts = st.one_of(
    st.text(max_size=20),
    st.sampled_from(
        [
            "",
            "\x00",
            "demo\x00",
            "٣:٢",
            "١٢٣٤",
            "N" * 500,
            "x" * 5000,
            "' OR 1=1 --",
            "<script>alert(1)</script>",
            "../../etc/passwd",
            "%00",
            "\ud7ff\ufeff",
            "10" * 3000,
        ]
    ),
)
hostile_ints = st.one_of(
    st.integers(min_value=-10, max_value=10),
    st.sampled_from([0, -1, 7, 8, 99, 2**31, 2**63, 2**70, 10**30, -(2**63) - 1]),
)
atoms = st.one_of(
    st.none(),
    st.booleans(),
    hostile_ints,
    st.floats(allow_nan=False, allow_infinity=False),
    hostile_texts,
)
json_values = st.recursive(
    atoms,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(hostile_texts, children, max_size=4)
    ),
    max_leaves=12,
)


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


raw_bodies = st.one_of(
    json_values.map(json.dumps),
    st.text(max_size=40),
    st.sampled_from([deep(50_000), '{"a":' * 3000 + "1" + "}" * 3000, "NaN", "1e400", "{"]),
)
