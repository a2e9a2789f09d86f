"""The Jinja2 environment that renders every HTML page and inline SVG chart of the reports.

Autoescape is on: the engine escapes every value a template prints (questions, answers, model
names, justifications, any text from the data), so no code escapes by hand. Markup this
package rendered itself (a section, a chart, an answer's article) is handed to another
template as `Markup`, which the engine leaves as it is; nothing from the data is ever wrapped.

Templates are package data (`templates/*.j2`), CSS and scripts beside them put into a page as
they are (`asset`). A page is one line of markup (`JoinLines`) while its template is laid out to
read; where text needs a space at a line break, the template writes `{{ " " }}`.
"""

from __future__ import annotations

import re
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from jinja2.ext import Extension
from markupsafe import Markup

from parakh.hashing import canonical_json
from parakh.report.tables import format_mean

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


_LOADER = PackageLoader("parakh.report", "templates")
ENV = Environment(
    loader=_LOADER,
    auto_reload=False,  # package data: no file check a render (60 us each, 100,000 articles)
    autoescape=True,
    undefined=StrictUndefined,
    extensions=[JoinLines],
)
ENV.filters["compact_json"] = canonical_json  # a data-* attribute's JSON (escaped where printed)
ENV.filters["figure"] = format_mean  # a leaderboard figure at display precision


def asset(name: str) -> Markup:
    """A static file of the templates folder (CSS, a script), put into the page unchanged."""
    source, _, _ = _LOADER.get_source(ENV, name)
    return Markup(source)


ENV.globals["asset"] = asset


def render(name: str, **context: Any) -> str:
    """The template `name` rendered with `context`."""
    return ENV.get_template(name).render(**context)
