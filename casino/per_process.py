"""One object per process, made on first use. A forked child (a Celery worker's) makes its
own: the threads behind its parent's object did not come with the fork."""

import os
import threading


class PerProcess:
    def __init__(self, make) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._pid: int | None = None
        self._value = None

    def get(self):
        with self._lock:
            if self._value is None or self._pid != os.getpid():
                self._value, self._pid = self._make(), os.getpid()
            return self._value
