"""Celery tasks for printed documents: thin, idempotent wrappers that take ids and call a service."""

from __future__ import annotations

import logging
from pathlib import Path

from celery import shared_task
from celery.signals import worker_init, worker_ready
from django.conf import settings
from django.db import OperationalError
from django.urls import reverse

from common.pdf import warm_up
from documents.services import (
    RENDER_TASK,
    document_render,
    documents_for_public_url_changed,
    documents_requeue_orphaned,
)
from tournaments.slips import SLIP_SECRET_LENGTH

logger = logging.getLogger(__name__)


@worker_init.connect
def warm_pdf_renderer(**_kwargs) -> None:
    """Warm WeasyPrint in the worker's main process before it forks its pool (``warm_up``), so
    the first document after a worker (re)start does not wait about 1.5 s for it; and load the
    URLconf, which the result slips' QR code addresses are reversed with (``slip_url``): loading
    it took the first slips after a start 0.4 to 0.8 s of their serial part (bench/README.md).

    A failure is only logged: the worker runs every other task too (pairings, clocks), and a
    document job meets the same error again and records it on the job.
    """
    try:
        warm_up()
        reverse("slip-report", args=[1, "0" * SLIP_SECRET_LENGTH])
    except Exception:
        logger.exception("could not warm the PDF renderer; document jobs will report why")


@worker_ready.connect
def requeue_stuck_documents(**_kwargs) -> None:
    """A worker that starts finishes what a dead one left (``documents_requeue_orphaned``) at
    once, before the next sweep; a failure here (database not reachable yet) is logged and must
    not stop the worker."""
    try:
        job_ids = documents_requeue_orphaned()
    except Exception as exc:
        logger.warning("could not look for document jobs left by a stopped worker: %s", exc)
        return
    if job_ids:
        logger.info("requeued document jobs left by a stopped worker: %s", job_ids)


@worker_ready.connect
def reprint_slips_for_a_new_address(**_kwargs) -> None:
    """Embedded mode: when the laptop serves at another address than the last time it started
    (another port, or the hall's network instead of loopback), the slips of rounds in play are
    printed again with the new ``PUBLIC_URL`` (``documents_for_public_url_changed``). The address
    of the last start is kept beside the broker's folders; production sets ``PUBLIC_URL`` once."""
    if not settings.EMBEDDED_WORKER:
        return
    record = Path(settings.CELERY_DATA_DIR) / "public-url"
    if record.exists() and record.read_text().strip() == settings.PUBLIC_URL:
        return
    try:
        jobs = documents_for_public_url_changed()
    except Exception as exc:
        logger.warning("could not print the result slips again for %s: %s", settings.PUBLIC_URL, exc)
        return
    record.write_text(settings.PUBLIC_URL + "\n")
    if jobs:
        logger.info(
            "result slips queued again for the address %s: jobs %s", settings.PUBLIC_URL, [j.pk for j in jobs]
        )


@shared_task(
    bind=True,
    name=RENDER_TASK,
    # The job row is the result; nobody waits on Celery's. Without a result to store, sending the
    # task never touches the result store, whose reconnect loop held a request ~20 s with Redis down.
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    max_retries=3,
    retry_backoff=True,
    soft_time_limit=300,
    time_limit=360,
)
def document_render_task(self, *, job_id: int) -> dict:
    """Render one document job.

    ``acks_late`` with ``reject_on_worker_lost``: a worker killed mid-render gives the message
    back to the broker, and the redelivered task takes its own job back through the claim token
    (the task id); a job is marked done only after its file is stored, so no half file is ever
    served. While it renders, the job's heartbeat says the worker is alive; a worker killed with
    its whole process group gives nothing back, so the periodic sweep
    (``requeue_orphaned_documents_task``) requeues the job once the heartbeat stops. Rendering
    errors are recorded on the job and are final until someone retries it.
    """
    eager = self.request.is_eager or self.app.conf.task_always_eager
    job = document_render(job_id=job_id, claim_token=self.request.id or "", heartbeat=not eager)
    status = job.status if job else "missing"
    logger.info("document job %s: %s", job_id, status)
    return {"job_id": job_id, "status": status}


@shared_task(name="documents.requeue_orphaned", ignore_result=True)
def requeue_orphaned_documents_task() -> list[int]:
    """Queue again the document jobs no worker will finish: worker gone, never queued, message
    lost (``documents.services.documents_requeue_orphaned``). Run by Celery beat
    (``CELERY_BEAT_SCHEDULE`` in ``config/settings.py``)."""
    job_ids = documents_requeue_orphaned()
    if job_ids:
        logger.info("requeued document jobs no worker was going to finish: %s", job_ids)
    return job_ids
