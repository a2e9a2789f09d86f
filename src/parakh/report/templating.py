"""The Jinja2 environment that renders every HTML page and inline SVG chart of the reports.

Autoescape is on: the engine escapes every value a template prints (questions, answers, model
names, justifications, any text from the data), so no code escapes by hand. Markup this
package rendered itself (a section, a chart, an answer's article) is handed to another
template as `Markup`, which the engine leaves as it is; nothing from the data is ever wrapped.

The engine escapes with Python's `html.escape` (in its `finalize` hook, which every printed
value passes before autoescape, which then leaves it as it is): `"` as `&quot;` and `'` as
`&#x27;`, where markupsafe writes `&#34;` and `&#39;`. So the pages are byte-identical to
those written before the templates: report.html and answers.html are DVC outputs, and a
re-run on the same inputs must not change them.

Templates are package data (`templates/*.j2`); static CSS and scripts beside them are put into
a page as they are (`asset`). Before a template is parsed, each line break with the blanks
around it is dropped, so a page is one line of markup while its template is laid out to read;
where text needs a space at a line break, the template writes `{{ " " }}`.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from jinja2.ext import Extension
from markupsafe import Markup

__all__ = ["Markup", "render"]

# Jinja tags ({% %}, {{ }}, {# #}) and the text between them
_TAG = re.compile(r"({%.*?%}|{{.*?}}|{#.*?#})", re.DOTALL)
_TEXT_BREAK = re.compile(r"[ \t]*\n[ \t]*")
_TAG_BREAK = re.compile(r"\s*\n\s*")


class JoinLines(Extension):
    """Drops the line breaks of a `.j2` template's text (with the blanks around them); a line
    break inside a tag becomes one space, so a tag may run over lines."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        if name is None or not name.endswith(".j2"):
            return source
        parts = _TAG.split(source)
        return "".join(
            _TAG_BREAK.sub(" ", part) if k % 2 else _TEXT_BREAK.sub("", part)
            for k, part in enumerate(parts)
        )


class _Escaped(str):
    """Text the engine has escaped: markup from here on (cheaper to make than `Markup`)."""

    __slots__ = ()

    def __html__(self) -> str:
        return self


def _escape(value: object) -> object:
    """Every value a template prints: escaped as `html.escape` does (markup passes as it is).
    A literal in a template (`{{ "&" }}`) is escaped when the template is compiled, by
    markupsafe; the templates print none but blanks."""
    if hasattr(value, "__html__"):
        return value
    return _Escaped(html.escape(str(value), quote=True))


def _compact_json(value: object) -> str:
    """JSON for a data-* attribute (the engine escapes it where it is printed)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


_LOADER = PackageLoader("parakh.report", "templates")
ENV = Environment(
    loader=_LOADER,
    autoescape=True,
    finalize=_escape,
    undefined=StrictUndefined,
    extensions=[JoinLines],
)
ENV.filters["compact_json"] = _compact_json


def asset(name: str) -> Markup:
    """A static file of the templates folder (CSS, a script), put into the page unchanged."""
    source, _, _ = _LOADER.get_source(ENV, name)
    return Markup(source)


ENV.globals["asset"] = asset


def render(name: str, **context: Any) -> str:
    """The template `name` rendered with `context`."""
    return ENV.get_template(name).render(**context)
