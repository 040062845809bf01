import asyncio

from django.core.management.base import BaseCommand

from tables.pit.bench import follow, report


class Command(BaseCommand):
    help = (
        "Follow a running server's floor as a pit dashboard does and print how long a "
        "committed round event takes to reach the dashboard (p50/p95 beside the 500 ms "
        "target) and the server time of each read. Same database as the server."
    )

    def add_arguments(self, parser):
        parser.add_argument("--base", default="http://127.0.0.1:8000")
        parser.add_argument("--employee-number", default="2001", help="a supervisor (2001)")
        parser.add_argument("--pin", default="3333")
        parser.add_argument("--seconds", type=float, default=60)

    def handle(self, *args, base, employee_number, pin, seconds, **options):
        figures = asyncio.run(
            follow(base=base, employee_number=employee_number, pin=pin, seconds=seconds)
        )
        self.stdout.write(report(figures))
