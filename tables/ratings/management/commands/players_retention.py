"""Apply the player file's retention rule (run it daily): players not seen for the marketing
retention period are erased, erased players' identities go when the anti-money-laundering
period ends (tables.ratings.privacy.retention_apply)."""

from django.core.management.base import BaseCommand

from tables.ratings.privacy import retention_apply


class Command(BaseCommand):
    help = (
        "Erase the players not seen for the retention period, and identities past the AML period."
    )

    def handle(self, *args, **options):
        done = retention_apply()
        self.stdout.write(
            f"{done['erased']} player(s) erased, {done['identities_removed']} identity(ies) removed"
        )
