from django.core.management.base import BaseCommand
from django.db import transaction

from casino import demo as casino_demo


class Command(BaseCommand):
    help = "Load the demo floor (property, staff, tables, progressive bank). Safe to run again."

    def handle(self, *args, **options):
        from jackpot import demo as jackpot_demo
        from tables import demo as tables_demo
        from tables.ratings import demo as ratings_demo

        with transaction.atomic():
            prop, pit = casino_demo.load()
            bank = jackpot_demo.load()
            tables_demo.load(pit=pit, bank=bank)
            ratings_demo.load()
        self.stdout.write(self.style.SUCCESS("Demo floor ready."))
