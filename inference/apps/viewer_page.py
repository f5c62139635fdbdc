"""The replay viewer's pages: one self-contained HTML file per play, and an index linking several.

A page is the template ``inference/data/viewer/page.html`` with its stylesheet and script
(``page.css``, ``page.js``: plain CSS and JavaScript, no library, nothing fetched) and the data of
:mod:`inference.apps.viewer` embedded as JSON in ``<script id="kibitz-data">``. It works offline, from
a file, in any current browser; the script only displays the data.

>>> html = page_html({"title": "Board <1>", "steps": []})
>>> "<title>Board &lt;1&gt;</title>" in html, 'id="kibitz-data"' in html
(True, True)
>>> embedded_data(html)["title"]
'Board <1>'
"""

from __future__ import annotations

import html as html_lib
import json
import re
from importlib import resources
from typing import Any, Sequence

from inference.apps.viewer import VERSION

__all__ = ["page_html", "embedded_data", "index_html", "page_name"]

_DATA = re.compile(r'<script id="kibitz-data" type="application/json">(.*?)</script>', re.S)


def _asset(name: str) -> str:
    return resources.files("inference").joinpath("data", "viewer", name).read_text(encoding="utf-8")


def _json_for_script(data: Any) -> str:
    """JSON that cannot end the ``<script>`` element it sits in (``<``, ``>`` and ``&`` escaped)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _fill(template: str, values: dict[str, str]) -> str:
    """Put each value in place of its ``{{KEY}}`` in one pass (a value's own braces stay as they are)."""
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: values[m.group(1)], template)


def page_html(data: dict[str, Any]) -> str:
    """The viewer page showing ``data`` (as :func:`inference.apps.viewer.record_page` makes it)."""
    return _fill(_asset("page.html"), {
        "TITLE": html_lib.escape(str(data.get("title", "Kibitz"))),
        "VERSION": str(VERSION),
        "CSS": _asset("page.css"),
        "JS": _asset("page.js"),
        "DATA": _json_for_script(data),
    })


def embedded_data(page: str) -> Any:
    """The data a viewer page embeds (for tests and tools)."""
    m = _DATA.search(page)
    if m is None:
        raise ValueError("not a Kibitz viewer page: no kibitz-data script")
    return json.loads(m.group(1))


def page_name(stem: str, board: str | None = None, record: int | None = None) -> str:
    """A file name for one page of an index: the source's stem, and the record and board when given.

    >>> page_name("example", "1", 1), page_name("16-hcp-bounds")
    ('example-r1-b1.html', '16-hcp-bounds.html')
    """
    parts = [stem] + ([f"r{record}"] if record is not None else []) + ([f"b{board}"] if board else [])
    return re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts)) + ".html"


def index_html(title: str, entries: Sequence[tuple[str, str, str]], problems: Sequence[str] = ()) -> str:
    """An index page: one link per ``(href, label, detail)``, then the inputs that made no page and why."""
    css = _asset("page.css")
    esc = html_lib.escape
    items = "\n".join(f'<li><a href="{esc(href, quote=True)}">{esc(label)}</a> <span class="hint">{esc(detail)}</span></li>'
                      for href, label, detail in entries)
    skipped = ""
    if problems:
        rows = "\n".join(f"<li>{esc(p)}</li>" for p in problems)
        skipped = f'<section><h2>Not shown ({len(problems)})</h2><ul class="problems">{rows}</ul></section>'
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Kibitz {VERSION}">
<title>{esc(title)}</title>
<style>
{css}
.index {{ display: block; padding: .8rem 1rem; }}
.index li {{ margin: .2rem 0; }}
</style>
</head>
<body>
<header><h1>{esc(title)}</h1><p id="meta">{len(entries)} page{'s' if len(entries) != 1 else ''}, written by Kibitz</p></header>
<main class="index">
<section><ol class="pages">
{items}
</ol></section>
{skipped}
</main>
</body>
</html>
"""
