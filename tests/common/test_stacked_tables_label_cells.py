"""Tables that stack into one card per row on a phone hide their header, so each cell names its
column itself (``data-label``, shown by site.css); otherwise a player sees bare numbers."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STACKED = re.compile(r"<table[^>]*stack-on-phone[^>]*>(.*?)</table>", re.DOTALL)
CELL = re.compile(r"<td\b[^>]*>")


def test_every_cell_of_a_stacked_table_names_its_column():
    templates = [p for p in (ROOT / "templates").rglob("*.html") if "stack-on-phone" in p.read_text()]
    unlabelled = [
        f"{path.relative_to(ROOT)}: {cell}"
        for path in templates
        for table in STACKED.findall(path.read_text())
        for cell in CELL.findall(table)
        if "data-label" not in cell and "colspan" not in cell
    ]

    assert len(templates) >= 7
    assert unlabelled == []


def test_the_phone_stylesheet_shows_the_labels():
    css = (ROOT / "static" / "css" / "site.css").read_text()

    assert "table.stack-on-phone td[data-label]::before" in css
    assert "content: attr(data-label)" in css
