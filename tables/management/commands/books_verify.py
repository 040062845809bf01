"""`manage.py books_verify`: the books of a whole database hold (after a restore, or before a
backup is trusted). The same checks as the floor simulator's, over every round and bank."""

from django.core.management.base import BaseCommand

from tables import simulator as sim


class Command(BaseCommand):
    help = (
        "Check the books of the whole database: each round's events run 1..seq with no gap, "
        "its cached state equals the engine's replay of them, a settled round's lines sum to "
        "each seat's net (a void has none), and every progressive bank reconciles with its "
        "ledger. Rounds still being dealt are no fault. Exit 0 when all hold, 1 otherwise. "
        "Run it with audit_verify after restoring a backup (docs/operations/backup-restore.md)."
    )

    def handle(self, *args, **options):
        from jackpot.models import Bank
        from tables.models import Round, Table

        checks = sim.floor_checks(
            list(Round.objects.values_list("pk", flat=True)),
            list(Table.objects.values_list("pk", flat=True)),
            in_progress_ok=True,
        )
        # A bank no table plays and no round played has a ledger to reconcile too.
        unplayed = (
            Bank.objects.exclude(pk__in=Table.objects.filter(bank__isnull=False).values("bank_id"))
            .exclude(pk__in=Round.objects.filter(bank__isnull=False).values("bank_id"))
            .values_list("pk", flat=True)
        )
        checks += sim.bank_checks(list(unplayed))
        for check in checks:
            verdict = self.style.SUCCESS("OK") if check.ok else self.style.ERROR("FAILED")
            detail = f"  ({check.detail})" if check.detail else ""
            self.stdout.write(f"  {verdict:<6} {check.label}{detail}")
        if not all(check.ok for check in checks):
            raise SystemExit(1)
