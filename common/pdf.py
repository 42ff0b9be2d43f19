"""The one way the project turns a template into a PDF.

``render_pdf`` renders a Django template and lays it out with WeasyPrint. Every resource the
HTML asks for goes through ``LocalURLFetcher``, which serves the project's own static files
(stylesheets, fonts, images) from disk and refuses everything else: a team name such as
``<img src="http://...">`` is autoescaped anyway, but even a template mistake can never make a
worker fetch from the network or read an arbitrary file.

Big documents (hundreds of pages) are laid out in page chunks in parallel: WeasyPrint's cost is
per line box and single-threaded, so ``render_pdf_chunks`` spreads independent chunks over the
machine's cores (forked children, which inherit the imported WeasyPrint and Django) and merges
the results with pypdf. The templates pre-paginate those documents (fixed-height pages with
their own "Page X of Y"), so a chunk boundary never changes what is printed. What every page
of such a document prints alike can be laid out once and drawn under each page (``Underlay``).
"""

from __future__ import annotations

import dataclasses
import gc
import io
import logging
import mimetypes
import os
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

#: The base URL documents are rendered against. ``.invalid`` is reserved (RFC 2606), so even a
#: fetcher bug could not reach a real host; only ``BASE_URL + STATIC_URL`` paths are served.
BASE_URL = "https://documents.invalid/"


class RefusedURL(ValueError):
    """A document asked for a resource outside the project's static files."""


def static_path(url: str) -> Path:
    """The file on disk behind a ``/static/...`` URL of a document, or ``RefusedURL``.

    Looked up through the staticfiles finders (the source tree, as in development) and then in
    ``STATIC_ROOT`` (collected files, as in the Docker image). ``..`` segments are refused
    before any lookup.
    """
    parts = urlsplit(url)
    base = urlsplit(BASE_URL)
    if (parts.scheme, parts.netloc) != (base.scheme, base.netloc):
        raise RefusedURL(f"only the project's static files may be loaded, not {url!r}")
    prefix = settings.STATIC_URL if settings.STATIC_URL.startswith("/") else f"/{settings.STATIC_URL}"
    path = unquote(parts.path)
    if not path.startswith(prefix):
        raise RefusedURL(f"only the project's static files may be loaded, not {url!r}")
    relative = path[len(prefix) :]
    if not relative or any(segment in ("", ".", "..") for segment in relative.split("/")):
        raise RefusedURL(f"not a static file path: {url!r}")
    found = finders.find(relative)
    if found:
        return Path(found)
    collected = Path(settings.STATIC_ROOT) / relative
    if settings.STATIC_ROOT and collected.is_file():
        return collected
    raise RefusedURL(f"no such static file: {relative!r}")


@cache
def _weasyprint():
    """Import WeasyPrint on first use: web processes that never render skip its 1.5 s import.

    WeasyPrint logs every layout step of every page at INFO; a 250-page job would flood the
    worker log, so only its warnings (missing glyphs, refused URLs) are kept.
    """
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    import weasyprint
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class LocalURLFetcher(URLFetcher):
        """Serves ``/static/...`` from disk; every other URL (http, https, file, data) is refused."""

        def fetch(self, url, headers=None):
            path = static_path(url)
            content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, body=path.read_bytes(), headers={"Content-Type": content_type})

    return weasyprint, LocalURLFetcher


@cache
def print_stylesheet():
    """``static/pdf/print.css``, the stylesheet of every template's document, parsed once per
    process (a ``weasyprint.CSS``) and inherited parsed by forked chunk renderers: parsing it was
    most of a chunk's fixed cost (about 0.05 s of CPU each).

    WeasyPrint takes a parsed stylesheet only as a *user* stylesheet, below the author's: the
    templates' own ``<style>`` (``pdf/base.html``) wins over it whatever the selectors, so a
    template that wants no page label says so in its ``page_label`` block.
    """
    weasyprint, fetcher_class = _weasyprint()
    url = urljoin(BASE_URL, f"{settings.STATIC_URL}pdf/print.css")
    return weasyprint.CSS(url=url, url_fetcher=fetcher_class())


@cache
def warm_up() -> None:
    """Import WeasyPrint, parse the print stylesheet and lay out one tiny page with it, once per
    process.

    The import takes about 1 s and the first layout loads fontconfig's configuration, Pango's
    font map and the fonts (about 0.3 s more). Called before forking chunk renderers and when a
    Celery worker starts (``documents.tasks``), so forked processes inherit all of it warm
    instead of each paying it again.
    """
    html_to_pdf("<b>2HG</b>", stylesheets=[print_stylesheet()])


def local_url_fetcher():
    """The URL fetcher every document is rendered with (a ``weasyprint.urls.URLFetcher``)."""
    return _weasyprint()[1]()


def html_to_pdf(html: str, *, stylesheets: Sequence = ()) -> bytes:
    weasyprint, fetcher_class = _weasyprint()
    document = weasyprint.HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher_class())
    return document.write_pdf(stylesheets=list(stylesheets))


def render_pdf(template_name: str, context: dict) -> bytes:
    """Render ``template_name`` with ``context`` (autoescaped as any template) to PDF bytes, with
    the print stylesheet (``print_stylesheet``).

    Templates link static files as ``{{ static_url }}path``, not ``{% static %}``: the fetcher
    reads the files by their source names, which exist with or without ``collectstatic``'s
    hashed manifest (a worker may run from a checkout that never collected static files).
    """
    html = render_to_string(template_name, {**context, "static_url": settings.STATIC_URL})
    return html_to_pdf(html, stylesheets=[print_stylesheet()])


@dataclass(frozen=True)
class Underlay:
    """Pages of ``forms`` (a PDF) to draw under the pages of a document, page by page.

    ``placements[i]`` lists ``(form page, vertical offset in pt)`` for page ``i``. WeasyPrint's
    cost is per laid-out line box, so what every page of a long document prints alike (the
    labels and boxes of a result slip, the footer) is laid out once in ``forms`` and each form
    becomes one PDF form XObject, stored once and drawn by reference under every page that uses
    it: the text stays real, selectable text, and the file does not grow with repeats.
    """

    forms: bytes
    placements: Sequence[Sequence[tuple[int, float]]]
    #: Per page, PDF drawing operators in default user space (pt, origin bottom left), drawn
    #: before the page's own content (which changes the coordinate system): what differs on every page but is mere shapes (a result slip's QR code),
    #: which WeasyPrint would lay out far more slowly than pypdf writes it.
    drawings: Sequence[str] = ()
    #: Or, instead of ``drawings``: a function giving a chunk's context the operators of each of
    #: its pages. ``render_pdf_chunks`` calls it in each chunk's renderer, so the drawings are
    #: worked out in parallel with the layout rather than before it (a slip's QR code).
    draw: Callable[[dict], list[str]] | None = None


def _draw_underlay(writer: PdfWriter, underlay: Underlay) -> None:
    """Turn each page of the forms into a form XObject and prefix each page's content with a
    stream that draws its placements (a ``q … cm … Do Q`` per form, before the page's own
    drawing, so the page's text lands on top). Pages with the same placements share one prefix
    stream. pypdf has no public call to add an indirect object, hence ``_add_object``.
    """
    forms = PdfReader(io.BytesIO(underlay.forms)).pages
    refs = []
    for page in forms:
        contents = page["/Contents"].get_object()
        streams = contents if isinstance(contents, ArrayObject) else [contents]
        form = DecodedStreamObject()
        form.set_data(b"\n".join(stream.get_object().get_data() for stream in streams))
        form[NameObject("/Type")] = NameObject("/XObject")
        form[NameObject("/Subtype")] = NameObject("/Form")
        form[NameObject("/BBox")] = ArrayObject(FloatObject(v) for v in page.mediabox)
        form[NameObject("/Resources")] = page["/Resources"].clone(writer)
        refs.append(writer._add_object(form))
    prefixes: dict[tuple, object] = {}
    for page, placement in zip(writer.pages, underlay.placements, strict=True):
        key = tuple(map(tuple, placement))
        if key not in prefixes:
            ops = "".join(f"q 1 0 0 1 0 {dy} cm /UnderlayForm{n} Do Q " for n, dy in key)
            prefix = DecodedStreamObject()
            prefix.set_data(ops.encode())
            prefixes[key] = writer._add_object(prefix)
        resources = page[NameObject("/Resources")].get_object()
        xobjects = resources.get("/XObject")
        xobjects = xobjects.get_object() if xobjects is not None else DictionaryObject()
        for n, _ in key:
            xobjects[NameObject(f"/UnderlayForm{n}")] = refs[n]
        resources[NameObject("/XObject")] = xobjects
        contents = page[NameObject("/Contents")]
        existing = (
            list(contents.get_object()) if isinstance(contents.get_object(), ArrayObject) else [contents]
        )
        page[NameObject("/Contents")] = ArrayObject([prefixes[key], *existing])
    for page, ops in zip(writer.pages, underlay.drawings or [""] * len(writer.pages), strict=True):
        if ops:
            drawing = DecodedStreamObject()
            drawing.set_data(f"q {ops} Q".encode())
            page[NameObject("/Contents")] = ArrayObject(
                [writer._add_object(drawing.flate_encode()), *page[NameObject("/Contents")]]
            )


def merge_pdfs(parts: Sequence[bytes], *, title: str = "", underlay: Underlay | None = None) -> bytes:
    """Concatenate PDFs in order into one file, with ``underlay`` drawn under its pages."""
    writer = PdfWriter()
    for part in parts:
        writer.append(io.BytesIO(part))
    if underlay is not None:
        _draw_underlay(writer, underlay)
    if title:
        writer.add_metadata({"/Title": title, "/Producer": "2HG Toolkit (WeasyPrint, pypdf)"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


#: Separates one page's drawing operators from the next in a chunk's drawings file.
_PAGE_BREAK = "\f"


def _drawings_path(path: Path) -> Path:
    return path.with_suffix(".ops")


def _fork_render(
    template_name: str, context: dict, path: Path, draw: Callable[[dict], list[str]] | None
) -> int:
    """Render one chunk in a forked child that writes ``path`` (and, with ``draw``, its pages'
    drawing operators beside it) and exits; returns the child's pid.

    The child runs without the garbage collector: its collections walked the whole inherited
    heap (Django, WeasyPrint) again and again and took about a sixth of a chunk's CPU, while
    what it frees is little (a 128-page chunk peaks 5 MB higher) and goes when it exits.
    """
    pid = os.fork()
    if pid == 0:
        gc.disable()
        code = 1
        try:
            path.write_bytes(render_pdf(template_name, context))
            if draw is not None:
                _drawings_path(path).write_text(_PAGE_BREAK.join(draw(context)), encoding="ascii")
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    return pid


def render_pdf_chunks(
    template_name: str,
    contexts: Sequence[dict],
    *,
    title: str = "",
    processes: int | None = None,
    on_chunk_done: Callable[[int, int], None] | None = None,
    underlay: Underlay | None = None,
) -> bytes:
    """Render each context as one chunk of the same document, in parallel, and merge in order.

    ``processes`` defaults to the number of cores; with one chunk or one core the work stays in
    this process. Children are plain ``os.fork()`` copies: they start with WeasyPrint and Django
    already imported, and unlike ``multiprocessing`` they also work inside a Celery prefork
    worker, whose pool processes are daemonic and may not start ``multiprocessing`` children.
    A child never touches the database; it exits with ``os._exit`` so it closes nothing it
    inherited. ``on_chunk_done(done, total)`` reports progress; ``underlay`` is drawn under the
    merged pages (see ``Underlay``).
    """
    total = len(contexts)
    workers = min(processes or os.cpu_count() or 1, total)
    draw = underlay.draw if underlay is not None else None
    if workers <= 1:
        parts = []
        for index, context in enumerate(contexts):
            parts.append(render_pdf(template_name, context))
            if on_chunk_done:
                on_chunk_done(index + 1, total)
        if total == 1 and underlay is None:
            return parts[0]
        if underlay is not None and draw is not None:
            drawn = [ops for context in contexts for ops in draw(context)]
            underlay = dataclasses.replace(underlay, drawings=drawn, draw=None)
        return merge_pdfs(parts, title=title, underlay=underlay)
    warm_up()
    with tempfile.TemporaryDirectory(prefix="pdf-chunks-") as workdir:
        paths = [Path(workdir) / f"{index:04d}.pdf" for index in range(total)]
        waiting = list(range(total))
        running: dict[int, int] = {}
        done = 0
        failed: list[int] = []
        while waiting or running:
            while waiting and len(running) < workers:
                index = waiting.pop(0)
                running[_fork_render(template_name, contexts[index], paths[index], draw)] = index
            time.sleep(0.02)
            for pid in list(running):
                finished, status = os.waitpid(pid, os.WNOHANG)
                if finished:
                    index = running.pop(pid)
                    if os.waitstatus_to_exitcode(status) != 0:
                        failed.append(index)
                    done += 1
                    if on_chunk_done:
                        on_chunk_done(done, total)
        if failed:
            raise RuntimeError(
                f"rendering page chunk(s) {sorted(failed)} of {total} failed; see the worker log"
            )
        if underlay is not None and draw is not None:
            drawn = [
                ops for path in paths for ops in _drawings_path(path).read_text("ascii").split(_PAGE_BREAK)
            ]
            underlay = dataclasses.replace(underlay, drawings=drawn, draw=None)
        return merge_pdfs([path.read_bytes() for path in paths], title=title, underlay=underlay)
