"""Template filters of the printed documents."""

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from documents.textfit import fallback_runs

register = template.Library()


@register.filter
def fallback_fonts(text: str) -> SafeString:
    """``text`` escaped, each run DejaVu Sans lacks (Japanese, Chinese, Korean) inside
    ``<span class="fb">``: print.css keeps those taller glyphs from growing the fixed-height
    lines of a column (``documents.textfit``)."""
    return mark_safe(
        "".join(
            f'<span class="fb">{escape(run)}</span>' if fallback else escape(run)
            for run, fallback in fallback_runs(str(text))
        )
    )
