"""Celery tasks of casino: the audit chain's sealer (casino.audit). Called after each audited
commit (`audit_seal.delay_on_commit`) and by beat's sweep (casino/settings.py CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from casino import audit


@shared_task(name="casino.tasks.audit_seal", ignore_result=True)
def audit_seal() -> int:
    return audit.seal_pending()


@shared_task(name="casino.tasks.audit_seal_sweep", ignore_result=True)
def audit_seal_sweep() -> int:
    return audit.seal_sweep()
