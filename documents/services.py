"""Requesting and rendering printed documents.

A request stores a pending ``DocumentJob`` and enqueues the render after commit; the render
claims the job with a conditional update (so two deliveries of one message never both work on
it), builds the context, and either reuses the file of an earlier done job with the same
content hash or renders a new PDF. The job becomes ``done`` only after its file is stored.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import logging
import math
import os
import threading
from contextlib import contextmanager, nullcontext
from functools import cache
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import OperationalError, connections, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from pypdf import PdfReader

from common.errors import DomainError
from common.pdf import Underlay, render_pdf, render_pdf_chunks
from common.queueing import send_task
from documents.builders import BUILDERS, FORM_TEMPLATES, PAGE_DRAWINGS, TEMPLATES
from documents.enums import DocumentKind, JobStatus, Paper
from documents.models import HEARTBEAT_EVERY, ORPHANED_AFTER, DocumentJob, orphaned_running
from tournaments.enums import RoundKind
from tournaments.localization import event_locale
from tournaments.models import Round, Tournament
from tournaments.read_models import is_final

logger = logging.getLogger(__name__)

#: A pending job not sent to the broker this long after it was stored was never queued (the
#: broker was down at commit); the sweep sends it.
QUEUE_GRACE = datetime.timedelta(seconds=10)
#: A pending job sent this long ago and still not started lost its message (a broker restarted
#: without persistence); the sweep sends it again. Longer than any honest wait in the queue.
MESSAGE_LOST_AFTER = datetime.timedelta(minutes=10)
#: Below this many pages one process is faster than forking a pool and merging.
PARALLEL_FROM_PAGES = 12
#: Smallest chunk worth its fixed cost (stylesheet parsing, fonts, one PDF to merge).
MIN_CHUNK_PAGES = 4
#: Chunks per process: enough to even out uneven pages and to move the progress bar.
CHUNKS_PER_PROCESS = 3


@cache
def template_version() -> str:
    """A digest of the print templates (partials and forms too), stylesheet and translations: a
    changed layout or wording never reuses old files."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for path in [
        *sorted((base / "templates/pdf").glob("*.html")),
        *sorted(base.glob("locale/*/LC_MESSAGES/django.mo")),
    ]:
        digest.update(path.read_bytes())
    digest.update((base / "static/pdf/print.css").read_bytes())
    return digest.hexdigest()[:16]


def content_hash(kind: str, paper: str, context: dict) -> str:
    """What a document shows, as a digest: canonical JSON of the builder's context plus the
    kind, paper and template version. The generation time is not part of it on purpose."""
    canonical = json.dumps(
        {"kind": kind, "paper": paper, "template": template_version(), "context": context},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _resolve_round(tournament: Tournament, kind: str, number: int | None) -> Round | None:
    """The round a document is for: the given number, else the latest round (for standings the
    latest Swiss round with every result in, or the final once it is finished: the final
    standings). Decklists and penalties cover the whole event."""
    if kind not in DocumentKind.per_round():
        return None
    rounds = Round.objects.filter(tournament=tournament)
    if number is not None:
        found = rounds.filter(number=number).first()
        if found is None:
            raise DomainError(
                _("the event has no round %(number)s") % {"number": number},
                errors=[{"field": "round", "message": _("no round %(number)s") % {"number": number}}],
            )
        final_done = found.is_finished and is_final(found)
        if kind == DocumentKind.STANDINGS and found.kind != RoundKind.SWISS and not final_done:
            raise DomainError(
                _(
                    "standings are printed for Swiss rounds, and as final standings once the final is finished"
                ),
                errors=[
                    {
                        "field": "round",
                        "message": _("round %(number)s is a playoff round before the final's result")
                        % {"number": number},
                    }
                ],
            )
        return found
    if kind == DocumentKind.STANDINGS:
        finished = rounds.finished().newest()
        if finished is not None and is_final(finished):
            return finished
        rounds = rounds.finished().filter(kind=RoundKind.SWISS)
    latest = rounds.newest()
    if latest is None:
        message = (
            "no Swiss round is finished yet" if kind == DocumentKind.STANDINGS else "no round is paired yet"
        )
        raise DomainError(message, errors=[{"field": "round", "message": message}], status_code=409)
    return latest


#: The render task's Celery name. ``documents.tasks`` defines the task and imports this module,
#: never the other way (pretix's layout): the service sends the task by its registered name, and
#: ``DocumentsConfig.ready`` imports the task module so every process has it registered.
RENDER_TASK = "documents.render"


def _send(job_id: int) -> bool:
    """Put the job's render task on the broker and note when (``queued_at``); False, logged, when
    the broker refuses: the job stays pending and the periodic sweep sends it later."""
    render_task = current_app.tasks[RENDER_TASK]
    if not send_task(render_task, kwargs={"job_id": job_id}, what=f"document job {job_id}"):
        return False
    DocumentJob.objects.filter(pk=job_id, status=JobStatus.PENDING).update(queued_at=timezone.now())
    return True


def _enqueue(job: DocumentJob) -> None:
    transaction.on_commit(lambda: _send(job.id))


@transaction.atomic
def document_request(
    *,
    tournament: Tournament,
    actor,
    kind: str,
    round_number: int | None = None,
    paper: str = Paper.A4,
) -> DocumentJob:
    """Queue a document; ``round_number`` is a round number of the event (see ``_resolve_round``)."""
    round_obj = _resolve_round(tournament, DocumentKind(kind), round_number)
    job = DocumentJob.objects.create(
        kind=kind, tournament=tournament, round=round_obj, paper=paper, requested_by=actor
    )
    _enqueue(job)
    return job


@transaction.atomic
def document_retry(*, job: DocumentJob, actor) -> DocumentJob:
    """Queue a failed job again, or a stuck one: running with no heartbeat from its worker for
    ``ORPHANED_AFTER`` (``DocumentJob.stuck``), so that worker is gone. Any other state is left as
    it is (409). The periodic sweep requeues stuck jobs by itself; this is the button for the
    impatient, and for failed jobs, which only a person retries."""
    updated = DocumentJob.objects.filter(
        Q(status=JobStatus.FAILED) | orphaned_running(timezone.now()), pk=job.pk
    ).update(status=JobStatus.PENDING, progress=0, claim_token="", started_at=None, heartbeat_at=None)
    if not updated:
        raise DomainError(
            _(
                "only a failed job, or one whose worker stopped (%(seconds)s s without a sign of life), "
                "can be retried (this one is %(status)s)"
            )
            % {"seconds": ORPHANED_AFTER.seconds, "status": job.get_status_display().lower()},
            status_code=409,
        )
    job.refresh_from_db()
    _enqueue(job)
    return job


def documents_requeue_orphaned(*, now: datetime.datetime | None = None) -> list[int]:
    """Queue again every job no worker will finish, and return their ids.

    * running with no heartbeat for ``ORPHANED_AFTER``: its worker was killed (with its whole
      process group, the machine lost...). It goes back to pending first, so the old message,
      should the broker redeliver it after its visibility timeout, finds nothing to take over;
    * pending and never sent (``queued_at`` empty ``QUEUE_GRACE`` after it was stored): the
      broker was down when it was requested;
    * pending and sent over ``MESSAGE_LOST_AFTER`` ago: the message was lost.

    Run by Celery beat (``CELERY_BEAT_SCHEDULE``) and when a worker starts. Sending twice is
    harmless: ``_claim`` lets one render take the job and the other finds it running or done.
    """
    now = now or timezone.now()
    orphaned = list(DocumentJob.objects.filter(orphaned_running(now)).values_list("pk", flat=True))
    if orphaned:
        DocumentJob.objects.filter(orphaned_running(now), pk__in=orphaned).update(
            status=JobStatus.PENDING, progress=0, claim_token="", started_at=None, heartbeat_at=None
        )
        logger.warning("document jobs %s lost their worker; queued again", orphaned)
    unsent = Q(status=JobStatus.PENDING) & (
        Q(queued_at__isnull=True, created_at__lt=now - QUEUE_GRACE)
        | Q(queued_at__lt=now - MESSAGE_LOST_AFTER)
    )
    job_ids = sorted(set(orphaned) | set(DocumentJob.objects.filter(unsent).values_list("pk", flat=True)))
    return [job_id for job_id in job_ids if _send(job_id)]


def _claim(job_id: int, token: str) -> bool:
    """Take the job: pending, failed, running with its worker gone, or running under this same
    message (redelivered after its worker died)."""
    now = timezone.now()
    claimable = Q(status__in=[JobStatus.PENDING, JobStatus.FAILED]) | orphaned_running(now)
    if token:
        claimable |= Q(status=JobStatus.RUNNING, claim_token=token)
    return bool(
        DocumentJob.objects.filter(claimable, pk=job_id).update(
            status=JobStatus.RUNNING,
            started_at=now,
            heartbeat_at=now,
            finished_at=None,
            progress=1,
            error="",
            claim_token=token,
            attempts=F("attempts") + 1,
        )
    )


def _mine(job: DocumentJob):
    return DocumentJob.objects.filter(pk=job.pk, status=JobStatus.RUNNING, claim_token=job.claim_token)


def _progress(job: DocumentJob, value: int) -> None:
    _mine(job).update(progress=max(1, min(99, value)))


def _chunks(context: dict) -> list[dict]:
    """Split a pre-paginated context into page ranges for parallel rendering."""
    pages = context.get("pages")
    if not pages or len(pages) < PARALLEL_FROM_PAGES:
        return [context]
    count = max(1, min(math.ceil(len(pages) / MIN_CHUNK_PAGES), (os.cpu_count() or 1) * CHUNKS_PER_PROCESS))
    size = math.ceil(len(pages) / count)
    return [{**context, "pages": pages[i : i + size]} for i in range(0, len(pages), size)]


def _render(job: DocumentJob, context: dict) -> bytes:
    """Lay out the document, in parallel page chunks when it is long.

    A document with forms (``FORM_TEMPLATES``) lays them out first, here in the parent: they
    are a few pages, and the chunk renderers then fork with fonts already loaded.
    """
    chunks = _chunks(context)
    kind = DocumentKind(job.kind)
    template = TEMPLATES[kind]
    underlay = None
    if kind in FORM_TEMPLATES:
        underlay = Underlay(
            render_pdf(FORM_TEMPLATES[kind], context), context["underlay"], draw=PAGE_DRAWINGS.get(kind)
        )
    if len(chunks) == 1 and underlay is None:
        return render_pdf(template, context)
    title = f"{context['event']['name']}: {context['title']}"
    return render_pdf_chunks(
        template,
        chunks,
        title=title,
        on_chunk_done=lambda done, total: _progress(job, 20 + 70 * done // total),
        underlay=underlay,
    )


def _file_name(job: DocumentJob, digest: str) -> str:
    round_part = f"-r{job.round.number}" if job.round else ""
    return f"{job.kind}{round_part}-{job.paper.lower()}-{digest[:16]}.pdf"


@contextmanager
def _heartbeat(job: DocumentJob):
    """Write the job's ``heartbeat_at`` every ``HEARTBEAT_EVERY`` from a thread while the render
    runs, so the sweep can tell a long render from a dead worker. The thread has its own database
    connection and closes it; a failed beat (database busy) is only logged, the next one retries."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(HEARTBEAT_EVERY.total_seconds()):
                try:
                    _mine(job).update(heartbeat_at=timezone.now())
                except Exception as exc:
                    logger.warning("document job %s: heartbeat not written: %s", job.pk, exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=beat, name=f"document-job-{job.pk}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def document_render(*, job_id: int, claim_token: str = "", heartbeat: bool = False) -> DocumentJob | None:
    """Produce the job's PDF; safe to run any number of times (see the module docstring).

    ``heartbeat``: write signs of life while rendering (``_heartbeat``); a worker does, an eager
    run inside a request does not need to.

    Returns the job as stored afterwards, or ``None`` if it does not exist (deleted with its
    event). A job already done or being rendered elsewhere is returned untouched. An error is
    recorded on the job (``failed`` with the reason, retryable); a database ``OperationalError``
    is re-raised as well, so the task retries it.
    """
    if not _claim(job_id, claim_token):
        return DocumentJob.objects.filter(pk=job_id).first()
    job = DocumentJob.objects.select_related("tournament", "round").get(pk=job_id)
    with _heartbeat(job) if heartbeat else nullcontext():
        return _render_claimed(job)


def _render_claimed(job: DocumentJob) -> DocumentJob | None:
    """Render a job this run has claimed, store the file, then mark it done (or failed)."""
    with event_locale(job.tournament):
        return _render_in_event_locale(job)


def _render_in_event_locale(job: DocumentJob) -> DocumentJob | None:
    job_id = job.pk
    try:
        context = BUILDERS[job.kind](job.tournament, job.round, job.paper)
        digest = content_hash(job.kind, job.paper, context)
        _progress(job, 20)
        cached = (
            DocumentJob.objects.filter(content_hash=digest, status=JobStatus.DONE, tournament=job.tournament)
            .exclude(file="")
            .order_by("-finished_at")
            .first()
        )
        if cached is not None and cached.file.storage.exists(cached.file.name):
            name, pages = cached.file.name, cached.page_count
        else:
            context["generated_at"] = timezone.localtime().strftime("%Y-%m-%d %H:%M %Z")
            pdf = _render(job, context)
            pages = len(PdfReader(io.BytesIO(pdf)).pages)
            job.file.save(_file_name(job, digest), ContentFile(pdf), save=False)
            name = job.file.name
        done = _mine(job).update(
            status=JobStatus.DONE,
            progress=100,
            file=name,
            content_hash=digest,
            page_count=pages,
            finished_at=timezone.now(),
        )
        if not done:
            logger.warning("document job %s was taken over while rendering; its result is dropped", job_id)
    except Exception as exc:
        logger.exception("document job %s failed", job_id)
        _mine(job).update(
            status=JobStatus.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:2000],
            finished_at=timezone.now(),
        )
        if isinstance(exc, OperationalError):
            raise
    return DocumentJob.objects.filter(pk=job_id).first()


def _system_request(round_obj: Round, kinds: list[DocumentKind]) -> list[DocumentJob]:
    jobs = [
        DocumentJob.objects.create(
            kind=kind,
            tournament=round_obj.tournament,
            round=round_obj,
            paper=settings.DOCUMENTS_DEFAULT_PAPER,
        )
        for kind in kinds
    ]
    for job in jobs:
        _enqueue(job)
    return jobs


@transaction.atomic
def documents_for_round_paired(*, round_id: int) -> list[DocumentJob]:
    """Queue what a scorekeeper prints when a round is paired: both pairings and the result slips.

    Called by the round services inside their transaction; the renders start after commit.
    """
    round_obj = Round.objects.select_related("tournament").get(pk=round_id)
    kinds = [DocumentKind.PAIRINGS_BY_TABLE, DocumentKind.PAIRINGS_BY_NAME, DocumentKind.RESULT_SLIPS]
    return _system_request(round_obj, kinds)


@transaction.atomic
def documents_for_public_url_changed() -> list[DocumentJob]:
    """Queue the result slips of every round still being played again: their QR codes carry
    ``PUBLIC_URL``, so slips printed before the site's address changed (a laptop moved onto the
    hall's network) open an address no phone reaches. Slips whose content did not change reuse
    their file (``content_hash``)."""
    rounds = Round.objects.filter(finished_at__isnull=True, matches__isnull=False).distinct()
    return [job for round_obj in rounds for job in _system_request(round_obj, [DocumentKind.RESULT_SLIPS])]


@transaction.atomic
def documents_for_pods_seated(*, tournament_id: int) -> DocumentJob:
    """Queue the draft's pod seatings when the teams are seated in pods (Booster Draft)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    job = DocumentJob.objects.create(
        kind=DocumentKind.POD_SEATINGS,
        tournament=tournament,
        round=None,
        paper=settings.DOCUMENTS_DEFAULT_PAPER,
    )
    _enqueue(job)
    return job


@transaction.atomic
def documents_for_round_finished(*, round_id: int) -> list[DocumentJob]:
    """Queue the standings after a Swiss round's last result (none for playoff rounds)."""
    round_obj = Round.objects.select_related("tournament").get(pk=round_id)
    if round_obj.kind != RoundKind.SWISS:
        return []
    return _system_request(round_obj, [DocumentKind.STANDINGS])


@transaction.atomic
def documents_for_event_finished(*, round_id: int) -> list[DocumentJob]:
    """Queue the final standings (playoff places, then Swiss order) once the final's result is
    confirmed, the event being finished. Called again after a correction of the final's result:
    the new job reuses the stored file when nothing printed changed (content hash)."""
    round_obj = Round.objects.select_related("tournament").get(pk=round_id)
    if not is_final(round_obj):
        return []
    return _system_request(round_obj, [DocumentKind.STANDINGS])
