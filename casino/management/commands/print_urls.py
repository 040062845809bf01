from django.core.management.base import BaseCommand

from casino.demo import DEMO_PASSWORD, DEMO_STAFF


class Command(BaseCommand):
    help = "Print where the demo floor is served and how to log in."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    def handle(self, *args, host, port, **options):
        from jackpot import demo as jackpot_demo

        base = f"http://{host}:{port}"
        lines = [
            "",
            "Tapis is starting.",
            f"  Floor (tables):   {base}/",
            # The PIN sign-in, then the tablet of the table the dealer deals (croupier: UTH 1).
            f"  Tablet:           {base}/login/pin/?next=/tablet/",
            f"  Locked PINs:      {base}/staff/locked-pins/",
            f"  Pit:              {base}/pit/",
            f"  Reports:          {base}/reports/",
            f"  Admin:            {base}/admin/",
        ]
        lines += [f"  {label:<17} {base}{path}" for label, path in jackpot_demo.demo_urls()]
        lines += ["", f"Demo logins (password '{DEMO_PASSWORD}', PIN shown):"]
        for username, roles, number, pin, *_ in DEMO_STAFF:
            lines.append(f"  {username:<12} {'+'.join(roles):<20} employee {number}  PIN {pin}")
        self.stdout.write("\n".join(lines) + "\n")
