import logging
import statistics
import time

from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from casino import signin
from casino.models import Staff
from casino.roles import Role
from casino.staffing import staff_create


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = (
        "How long a refused sign-in takes when the number is unknown, the PIN wrong or the "
        "account locked (PIN and password): the three must be indistinguishable. Runs the real "
        "views with the configured hasher, inside a transaction it rolls back."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tries", type=int, default=15)
        parser.add_argument(
            "--floor",
            type=float,
            default=None,
            help="SIGNIN_FAILURE_MIN_SECONDS for the run (0: see the work alone)",
        )

    def handle(self, *args, tries, floor, **options):
        logging.getLogger("django.request").setLevel(logging.ERROR)  # every try is a 403
        # The locked account stays locked for the whole run (a first lock lasts a minute).
        overrides = {"SIGNIN_THROTTLE_SOURCE_FAILURES": 10**6, "PIN_LOCKOUT_FIRST_SECONDS": 3600}
        if floor is not None:
            overrides["SIGNIN_FAILURE_MIN_SECONDS"] = floor
        try:
            with transaction.atomic(), override_settings(**overrides):
                self._measure(tries)
                raise Rollback
        except Rollback:
            pass

    def _measure(self, tries: int) -> None:
        wrong, locked = (
            staff_create(
                username=f"timing-{name}",
                employee_number=f"timing-{name}",
                roles=[Role.DEALER],
                password="pw-Timing-2026",
                pin="4321",
            )
            for name in ("wrong", "locked")
        )
        Staff.objects.filter(pk__in=[wrong.pk, locked.pk]).update(
            password_is_temporary=False, pin_is_temporary=False
        )
        client = Client()
        cases = {
            "PIN, unknown number": lambda: self._pin(client, "no-such-number", "4321"),
            "PIN, wrong PIN": lambda: self._pin(client, wrong.employee_number, "0000", wrong),
            "PIN, locked (right PIN)": lambda: self._pin(client, locked.employee_number, "4321"),
            "PIN, locked (wrong PIN)": lambda: self._pin(client, locked.employee_number, "4320"),
            "password, unknown name": lambda: self._password(client, "no-such-name"),
            "password, wrong": lambda: self._password(client, wrong.username, "x", wrong),
            "password, locked (right)": lambda: self._password(client, locked.username),
        }
        for _ in range(3):
            self._pin(client, locked.employee_number, "0000")
        figures = {name: [] for name in cases}
        for n in range(tries + 1):
            for name, run in cases.items():  # interleaved: load drifts hit every case alike
                elapsed = run()
                if n:  # the first round warms the caches up
                    figures[name].append(elapsed)
        floor = signin.failure_min_seconds() * 1000
        self.stdout.write(f"answer floor (SIGNIN_FAILURE_MIN_SECONDS): {floor:.0f} ms")
        self.stdout.write(f"{'case':<28} {'median ms':>10} {'min':>8} {'max':>8}   (n={tries})")
        for name, values in figures.items():
            self.stdout.write(
                f"{name:<28} {statistics.median(values):>10.1f} {min(values):>8.1f} "
                f"{max(values):>8.1f}"
            )
        # What must not tell the cases apart is one sign-in page's answers; the PIN page and the
        # password page hash differently (casino.pin_hashing), and whoever asks knows which
        # page they used.
        for page in ("PIN", "password"):
            medians = [statistics.median(v) for k, v in figures.items() if k.startswith(page)]
            self.stdout.write(
                f"spread of the {page} page's medians: {max(medians) - min(medians):.1f} ms "
                "(target: within the noise, a few ms)"
            )
        right, wrong = (
            statistics.median(figures[f"PIN, locked ({which} PIN)"]) for which in ("right", "wrong")
        )
        self.stdout.write(
            f"locked account, right PIN / wrong PIN median: {right / wrong:.3f} (target: 1)"
        )

    @staticmethod
    def _reset(staff):
        if staff is not None:
            Staff.objects.filter(pk=staff.pk).update(failed_pin_attempts=0, pin_locked_until=None)

    def _pin(self, client, number, pin, reset=None) -> float:
        self._reset(reset)
        started = time.perf_counter()
        response = client.post(reverse("casino:pin_login"), {"employee_number": number, "pin": pin})
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 403, response.status_code
        return elapsed

    def _password(self, client, username, password="pw-Timing-2026", reset=None) -> float:
        self._reset(reset)
        started = time.perf_counter()
        response = client.post(
            reverse("casino:login"), {"username": username, "password": password}
        )
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200 and "_auth_user_id" not in client.session
        return elapsed
