"""delay_soon: a request's after-commit task goes to the broker from a thread of its own, in
order, without the request waiting; with no broker it runs there instead; with eager Celery
(the embedded defaults) it runs at once. One thread per process, a forked child its own."""

import os
import threading

from kombu.exceptions import OperationalError

from casino import celery


class FakeTask:
    name = "tests.fake"

    def __init__(self, broker_up=True):
        self.broker_up = broker_up
        self.queued, self.ran = [], []

    def delay(self, *args):
        if not self.broker_up:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.queued.append((args, threading.current_thread().name))

    def __call__(self, *args):
        self.ran.append((args, threading.current_thread().name))


def test_the_tasks_go_to_the_broker_from_the_handoff_thread_in_order(celery_not_eager):
    task = FakeTask()
    for n in range(20):
        celery.delay_soon(task, n)
    assert celery._handoff_thread().wait(timeout=5)
    assert [args for args, _thread in task.queued] == [(n,) for n in range(20)]
    assert {thread for _args, thread in task.queued} == {"celery-handoff"}
    assert task.ran == []


def test_with_no_broker_the_handoff_thread_runs_the_task(celery_not_eager):
    task = FakeTask(broker_up=False)
    celery.delay_soon(task, 7)
    assert celery._handoff_thread().wait(timeout=5)
    assert task.ran == [((7,), "celery-handoff")] and task.queued == []


def test_a_failing_task_does_not_stop_the_ones_after_it(celery_not_eager):
    failing, task = FakeTask(broker_up=False), FakeTask()
    failing.__class__ = type("Failing", (FakeTask,), {"__call__": lambda self, *a: 1 / 0})
    celery.delay_soon(failing, 1)
    celery.delay_soon(task, 2)
    assert celery._handoff_thread().wait(timeout=5)
    assert [args for args, _thread in task.queued] == [(2,)]


def test_with_eager_celery_it_runs_at_once_in_the_caller():
    task = FakeTask()
    celery.delay_soon(task, 3)
    assert task.queued == [((3,), threading.current_thread().name)]


def test_a_forked_child_gets_a_handoff_thread_of_its_own(celery_not_eager, monkeypatch):
    first = celery._handoff_thread()
    assert celery._handoff_thread() is first
    parent = os.getpid()
    monkeypatch.setattr(os, "getpid", lambda: parent + 1)  # as in a forked child
    child = celery._handoff_thread()
    assert child is not first
    task = FakeTask()
    celery.delay_soon(task, 5)
    assert child.wait(timeout=5) and [args for args, _thread in task.queued] == [(5,)]
