"""Which banks the current transaction holds (jackpot.services.posting.banks_locked_here): what
one transaction locked never leaks into the next, and a transaction that locked none is
answered without asking the database (a table's `bets_locked` asks it on every tap)."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from casino.roles import Role
from jackpot.services import posting
from tests.factories import make_staff
from tests.jackpot.factories import make_bank

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def held_now():
    with CaptureQueriesContext(connection) as queries:
        held = posting.banks_locked_here()
    return held, len(queries.captured_queries)


def test_a_lock_is_known_in_its_transaction_and_forgotten_after_it():
    bank = make_bank(manager=make_staff(Role.MANAGER))
    with transaction.atomic():
        posting.bank_lock_and_post(bank.pk)
        assert held_now() == ({bank.pk}, 1)
    with transaction.atomic():
        assert held_now() == (set(), 1)  # asked: the note was another transaction's
    with transaction.atomic():
        assert held_now() == (set(), 0)  # nothing noted since: nothing to ask
        posting.bank_lock_and_post(bank.pk)
        assert held_now() == ({bank.pk}, 1)
