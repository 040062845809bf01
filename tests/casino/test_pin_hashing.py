"""PINs are stored keyed (casino.pin_hashing): PBKDF2 over an HMAC under PIN_HMAC_KEY.

Someone with a copy of the database but not the key cannot check a single guess; PINs stored
before (by the password hasher) or under an earlier key still work and are stored again under
the current key at their owner's next right PIN."""

import pytest
from django.conf import global_settings
from django.contrib.auth.hashers import make_password

from casino import pin_hashing
from casino.errors import PinLocked, PinRejected
from casino.models import AuditEntry, Staff
from casino.pin_hashing import pin_check, pin_hash
from casino.pins import pin_verify
from casino.roles import Role
from tests.factories import make_staff

KEY = "pin-test-key-0123456789abcdef0123456789abcdef"
OLD_KEY = "pin-old-key-0123456789abcdef0123456789abcdef"


@pytest.fixture(autouse=True)
def _key(settings):
    settings.PIN_HMAC_KEY = KEY
    settings.PIN_HMAC_PREVIOUS_KEYS = ""


def stored(staff: Staff) -> str:
    staff.refresh_from_db()
    return staff.pin_hash


def test_the_hash_names_its_key_never_the_key_and_its_cost(settings):
    del settings.PIN_HASH_ITERATIONS
    encoded = pin_hash("2468")
    algorithm, key_id, iterations, salt, digest = encoded.split("$")
    assert (algorithm, key_id, iterations) == (
        "pin_hmac_pbkdf2",
        pin_hashing.RING.key_id(KEY),
        "20000",
    )
    assert KEY not in encoded and "2468" not in encoded
    assert len(salt) == 22 and len(encoded) <= Staff._meta.get_field("pin_hash").max_length
    assert pin_check("2468", encoded).matches and not pin_check("2469", encoded).matches
    assert pin_hash("2468") != encoded  # a new salt each time


def test_without_the_key_no_guess_can_be_checked(settings):
    encoded = pin_hash("2468")
    settings.PIN_HMAC_KEY = "someone-elses-key-0123456789abcdef0123456789"
    # The right PIN under another key: the stored hash says nothing about the PIN without it.
    assert not pin_check("2468", encoded).matches
    # The same PIN under the same key and salt gives the same digest: it is the key that decides.
    settings.PIN_HMAC_KEY = KEY
    assert pin_check("2468", encoded).matches


def test_a_pin_stored_by_the_password_hasher_works_and_is_stored_again_keyed(db, settings):
    dealer = make_staff(Role.DEALER)
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS  # as PINs were stored before
    Staff.objects.filter(pk=dealer.pk).update(pin_hash=make_password("1357"))
    with pytest.raises(PinRejected):
        pin_verify(employee_number=dealer.employee_number, pin="0000")
    assert stored(dealer).startswith("pbkdf2_sha256$")  # a wrong PIN changes only the count
    assert pin_verify(employee_number=dealer.employee_number, pin="1357") == dealer
    assert stored(dealer).startswith(f"pin_hmac_pbkdf2${pin_hashing.RING.key_id(KEY)}$")
    assert pin_verify(employee_number=dealer.employee_number, pin="1357") == dealer


def test_a_rotated_key_still_checks_the_pins_it_keyed_until_it_is_dropped(db, settings):
    settings.PIN_HMAC_KEY = OLD_KEY
    dealer, supervisor = make_staff(Role.DEALER), make_staff(Role.SUPERVISOR)
    old_id = pin_hashing.RING.key_id(OLD_KEY)
    assert stored(dealer).split("$")[1] == stored(supervisor).split("$")[1] == old_id

    settings.PIN_HMAC_KEY, settings.PIN_HMAC_PREVIOUS_KEYS = KEY, OLD_KEY
    assert pin_verify(employee_number=dealer.employee_number, pin="1234") == dealer
    assert stored(dealer).split("$")[1] == pin_hashing.RING.key_id(KEY)
    assert pin_verify(employee_number=dealer.employee_number, pin="1234") == dealer

    settings.PIN_HMAC_PREVIOUS_KEYS = ""  # dropped before the supervisor typed a PIN again
    with pytest.raises(PinRejected):
        pin_verify(employee_number=supervisor.employee_number, pin="1234")
    assert stored(supervisor).split("$")[1] == old_id
    assert AuditEntry.objects.filter(code="casino.pin.rejected", subject_id=str(supervisor.pk))


def test_an_approval_by_an_outdated_pin_stores_it_again(db, settings):
    settings.PIN_HASH_ITERATIONS = 2
    supervisor = make_staff(Role.SUPERVISOR)
    settings.PIN_HASH_ITERATIONS = 3
    assert (
        pin_verify(employee_number=supervisor.employee_number, pin="1234", role=Role.SUPERVISOR)
        == supervisor
    )
    assert stored(supervisor).split("$")[2] == "3"


@pytest.mark.parametrize(
    "encoded",
    [
        "",
        "pin_hmac_pbkdf2$",
        "pin_hmac_pbkdf2$kabc$many$salt$digest",
        "pin_hmac_pbkdf2$kabc$1$salt$digest$more",
        "!unusable",
    ],
)
def test_a_malformed_stored_pin_matches_nothing(encoded):
    assert pin_check("1234", encoded) == pin_hashing.PinCheck(matches=False, outdated=False)


# --- no process remembers a right PIN (issue 23: a remembered PIN answered faster) ---------


@pytest.fixture
def slow_hashes(monkeypatch):
    """How many times the slow hash ran (PBKDF2 over the keyed PIN)."""
    calls = []
    real = pin_hashing._digest

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(pin_hashing, "_digest", counted)
    return calls


def test_a_right_pin_is_hashed_at_every_check_as_a_wrong_one_is(slow_hashes):
    encoded = pin_hash("2468")
    slow_hashes.clear()
    for _ in range(3):
        assert pin_check("2468", encoded) == pin_hashing.PinCheck(matches=True, outdated=False)
        assert not pin_check("2469", encoded).matches
    assert len(slow_hashes) == 6  # nothing remembered: one slow hash per check


def test_a_locked_pin_costs_one_hash_whether_right_or_wrong(db, slow_hashes):
    supervisor = make_staff(Role.SUPERVISOR)
    number = supervisor.employee_number
    assert pin_verify(employee_number=number, pin="1234", role=Role.SUPERVISOR) == supervisor
    for _ in range(3):
        with pytest.raises((PinRejected, PinLocked)):
            pin_verify(employee_number=number, pin="9999", role=Role.SUPERVISOR)
    for pin in ("1234", "9999", "1234"):
        slow_hashes.clear()
        with pytest.raises(PinLocked):
            pin_verify(employee_number=number, pin=pin, role=Role.SUPERVISOR)
        assert len(slow_hashes) == 1, pin
