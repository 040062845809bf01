"""Celery: compute a base-game par sheet (minutes of CPU; a worker, never a request)."""

from celery import shared_task


@shared_task(name="tables.tasks.compute_parsheet", ignore_result=True, acks_late=True)
def compute_parsheet(sheet_id: int) -> None:
    from tables.services.parsheets import parsheet_compute

    parsheet_compute(sheet_id=sheet_id)


@shared_task(name="tables.tasks.compute_missing_parsheets", ignore_result=True)
def compute_missing_parsheets() -> None:
    """Every rule set version's par sheet, without anybody asking: queue the missing ones and
    compute them here, one after the other (a few minutes each, once per base game)."""
    from tables.services.parsheets import parsheet_compute, parsheet_queue_missing

    for sheet in parsheet_queue_missing():
        parsheet_compute(sheet_id=sheet.pk)
