import logging
import statistics
import time

from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from casino.models import AuditEntry, Staff
from casino.roles import Role
from casino.staffing import staff_create


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = (
        "The issue 23 probes of the sign-in, against the real views (the Django test client) "
        "with the configured settings, inside a transaction it rolls back: PINs checked per "
        "minute from one address and on one account, through /api/login and the sign-in page, "
        "and the ratio of a locked account's right-PIN to wrong-PIN answer times."
    )

    def add_arguments(self, parser):
        parser.add_argument("--seconds", type=float, default=60, help="length of each probe")
        parser.add_argument("--tries", type=int, default=15, help="tries per PIN for the ratio")
        parser.add_argument(
            "--floor",
            type=float,
            default=None,
            help="SIGNIN_FAILURE_MIN_SECONDS for the run (0: see the work alone)",
        )

    def handle(self, *args, seconds, tries, floor, **options):
        logging.getLogger("django.request").setLevel(logging.CRITICAL)  # 403s and 429s
        logging.getLogger("casino.signin").setLevel(logging.ERROR)
        overrides = {} if floor is None else {"SIGNIN_FAILURE_MIN_SECONDS": floor}
        try:
            with transaction.atomic(), override_settings(**overrides):
                self._probe(seconds, tries)
                raise Rollback
        except Rollback:
            pass

    def _probe(self, seconds: float, tries: int) -> None:
        sprayed = [self._staff(f"P{n}", "2222") for n in range(1000, 1030)]
        target = self._staff("P3002", "5555", role=Role.SUPERVISOR)
        self.stdout.write(f"each probe lasts {seconds:.0f} s; PINs checked (not refused unread):")
        for via in ("api", "page"):
            checked = self._one_address(via, sprayed, seconds, address=f"10.23.{len(via)}.1")
            self._report(f"{via}: one address, one PIN over many numbers", checked, seconds)
            self._reset([target])
            checked = self._one_account(via, target, seconds, net=f"10.{len(via)}")
            self._report(f"{via}: one account, a new address each try", checked, seconds)
            self._reset([target])
        self._ratio(target, tries)

    @staticmethod
    def _staff(number: str, pin: str, role=Role.DEALER) -> Staff:
        staff = staff_create(
            username=f"probe-{number}",
            employee_number=number,
            roles=[role],
            password="pw-Probe-2026",
            pin=pin,
        )
        Staff.objects.filter(pk=staff.pk).update(
            password_is_temporary=False, pin_is_temporary=False
        )
        return staff

    @staticmethod
    def _reset(staff) -> None:
        Staff.objects.filter(pk__in=[s.pk for s in staff]).update(
            failed_pin_attempts=0, pin_locked_until=None
        )

    @staticmethod
    def _try(client, via: str, number: str, pin: str, address: str) -> int:
        if via == "api":
            body = {"employee_number": number, "pin": pin}
            answer = client.post(
                "/api/login", body, content_type="application/json", REMOTE_ADDR=address
            )
        else:
            answer = client.post(
                reverse("casino:pin_login"),
                {"employee_number": number, "pin": pin},
                REMOTE_ADDR=address,
            )
        return answer.status_code

    def _one_address(self, via, sprayed, seconds, *, address) -> int:
        """A spray of one PIN over many numbers from one address: how many were checked."""
        checked, n, client = 0, 0, Client()
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            status = self._try(
                client, via, sprayed[n % len(sprayed)].employee_number, "1111", address
            )
            n += 1
            if status == 429:
                time.sleep(0.2)  # refused unread: nothing learnt
            else:
                checked += 1
            self._reset(sprayed)  # as if each number were a new one (not locked by the spray)
        return checked

    def _one_account(self, via, target, seconds, *, net) -> int:
        """Guesses at one account from ever new addresses: how many PINs were compared to its
        own (the audit's wrong-PIN entries), not refused as locked."""
        client, n = Client(), 0
        before = AuditEntry.objects.filter(code="casino.pin.rejected", actor=target).count()
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            n += 1
            self._try(
                client,
                via,
                target.employee_number,
                f"{n % 10000:04d}",
                f"{net}.{n // 250}.{n % 250}",
            )
        after = AuditEntry.objects.filter(code="casino.pin.rejected", actor=target).count()
        return after - before

    def _report(self, label: str, checked: int, seconds: float) -> None:
        self.stdout.write(f"  {label:<48} {checked:>5} checked = {checked * 60 / seconds:7.1f}/min")

    def _ratio(self, target, tries: int) -> None:
        client = Client()
        self._reset([target])
        assert self._try(client, "api", target.employee_number, "5555", "10.99.0.1") == 200
        client.logout()
        for n in range(3):
            self._try(client, "api", target.employee_number, "0000", f"10.99.1.{n}")
        figures = {"right PIN": [], "wrong PIN": []}
        for n in range(tries):
            pair = [("right PIN", "5555"), ("wrong PIN", f"{5500 + n:04d}")]
            for name, pin in pair[:: 1 if n % 2 else -1]:  # each first in turn: drifts cancel
                started = time.perf_counter()
                status = self._try(client, "api", target.employee_number, pin, f"10.99.2.{n}")
                figures[name].append((time.perf_counter() - started) * 1000)
                assert status == 403, status
        right, wrong = (statistics.median(v) for v in figures.values())
        self.stdout.write(
            f"locked account through /api/login, medians of {tries}: right PIN {right:.1f} ms, "
            f"wrong PIN {wrong:.1f} ms, ratio right/wrong {right / wrong:.3f}"
        )
