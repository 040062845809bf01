"""The keys kept out of the database (casino.secret_keys): the deployment check warns about
an embedded or a short key, for each key ring (`make serve` then refuses to start)."""

import pytest

from casino import audit_keys, pin_hashing

KEY = "a-real-key-0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize(
    ("setting", "check", "missing", "short"),
    [
        ("AUDIT_HMAC_KEY", audit_keys.check_audit_key, "casino.W001", "casino.W002"),
        ("PIN_HMAC_KEY", pin_hashing.check_pin_key, "casino.W003", "casino.W004"),
    ],
)
def test_the_deployment_check_warns_about_the_embedded_key(
    settings, setting, check, missing, short
):
    setattr(settings, setting, "")
    assert [w.id for w in check()] == [missing]
    setattr(settings, setting, "short")
    assert [w.id for w in check()] == [short]
    setattr(settings, setting, KEY)
    assert check() == []


def test_one_key_has_a_different_id_in_each_ring():
    assert audit_keys.RING.key_id(KEY) != pin_hashing.RING.key_id(KEY)
    assert KEY not in audit_keys.RING.key_id(KEY) + pin_hashing.RING.key_id(KEY)
