"""Celery: compute a base-game par sheet (minutes of CPU; a worker, never a request)."""

from celery import shared_task


@shared_task(name="tables.tasks.compute_parsheet", ignore_result=True, acks_late=True)
def compute_parsheet(sheet_id: int) -> None:
    from tables.services.parsheets import parsheet_compute

    parsheet_compute(sheet_id=sheet_id)
