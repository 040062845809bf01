"""Two checks raising the same condition at the same moment, on PostgreSQL with real threads:
the partial unique index (one open alert per key) lets one raise it, the others answer that
alert; one audit entry, one announcement."""

import threading

import pytest
from django.db import connection

from casino.models import AuditEntry
from tables.pit.alerts import alert_raise
from tables.pit.models import Alert

CHECKS = 4
RACES = 5


def _race(key: str) -> list:
    barrier = threading.Barrier(CHECKS)
    results: list = [None] * CHECKS

    def check(i):
        try:
            barrier.wait(timeout=10)
            results[i] = alert_raise(kind=Alert.Kind.TABLE_IDLE, key=key, params={})
        except Exception as exc:  # noqa: BLE001  (the test looks at what each check got)
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=check, args=(i,)) for i in range(CHECKS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a check is still waiting"
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_checks_raising_one_condition_at_once_raise_one_alert(monkeypatch):
    announced = []
    monkeypatch.setattr("tables.pit.live.group_send", lambda group, event: announced.append(event))
    for race in range(RACES):
        results = _race(f"table_idle:1:{race}")
        assert all(isinstance(r, Alert) for r in results), results
        assert len({r.pk for r in results}) == 1
        assert sum(r.is_new for r in results) == 1
    assert Alert.objects.count() == RACES
    assert AuditEntry.objects.filter(code="pit.alert.raised").count() == RACES
    assert len(announced) == RACES
