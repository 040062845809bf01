"""A table's contribution committed inside its round's transaction is posted by a Celery
worker, off the dealer's request; with no broker to take the task, in the request as before."""

import pytest
from django.db import transaction
from kombu.exceptions import OperationalError

from casino.roles import Role
from jackpot import services, tasks
from jackpot.models import PendingContribution
from tests.factories import make_staff
from tests.jackpot.factories import make_bank


def contribute_in_a_round(bank, dealer):
    with transaction.atomic():  # the round's transaction, which does not hold the bank
        return services.bank_contribute(
            bank_id=bank.pk, reference="round-1", wager_count=2, wager_cents=100, actor=dealer
        )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_commit_queues_the_posting_and_the_worker_posts(monkeypatch):
    manager, dealer = make_staff(Role.MANAGER), make_staff(Role.DEALER)
    bank = make_bank(manager=manager)
    queued = []
    monkeypatch.setattr(tasks.post_pending, "delay", lambda bank_id: queued.append(bank_id))
    pending = contribute_in_a_round(bank, dealer)
    assert queued == [bank.pk]  # once, after the commit
    assert PendingContribution.objects.get(pk=pending.pk).entry_id is None  # not in the request
    assert tasks.post_pending(bank.pk) == 1  # the worker's run
    assert PendingContribution.objects.get(pk=pending.pk).entry_id is not None
    bank.refresh_from_db()
    assert bank.meter_cents == 10_040
    assert tasks.post_pending(bank.pk) == 0  # a redelivered task posts nothing twice


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_no_broker_the_request_posts(monkeypatch):
    manager, dealer = make_staff(Role.MANAGER), make_staff(Role.DEALER)
    bank = make_bank(manager=manager)

    def broker_down(bank_id):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.post_pending, "delay", broker_down)
    pending = contribute_in_a_round(bank, dealer)
    assert PendingContribution.objects.get(pk=pending.pk).entry_id is not None
    bank.refresh_from_db()
    assert bank.meter_cents == 10_040
