"""The markup of the side-by-side answers pages: what one question's article shows (its
views, built from the rows by `parakh.report.answers`) and the rendering of the article, the
page of articles with its filters, and the index of a page split by language.

The markup is templates/answers*.html.j2; the engine escapes every text from the data.
Gathering the rows stays in `answers`, so the two can change apart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from parakh.report.answer_scores import ScoreRow
from parakh.report.row_files import QuestionView
from parakh.report.templating import Markup, render

Link = tuple[str, str]  # (href, text)


@dataclass(frozen=True)
class ScoreLine:
    """One judge row under an answer: an ok score as `value` ("1/2") with its justification,
    else the status with its reason (`why` None: nothing to say)."""

    status: str
    metric: str
    value: str
    why: str | None


@dataclass(frozen=True)
class AnswerCard:
    """One system's answer to a question, with its scores; `kind` says what is there:
    `ok` (the answer `text`), `error` (the error `text`), `no-answer`, `no-file`."""

    system: str
    kind: Literal["ok", "error", "no-answer", "no-file"]
    text: str = ""
    scores: list[ScoreLine] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (metrics, reason)


@dataclass(frozen=True)
class ArticleView:
    """One question's article: `question` None when the rows name a question not in the run;
    `scaled` each metric's scores on 0..1 by system, for the page's score filter."""

    qid: str
    language: str
    question: QuestionView | None
    scaled: dict[str, dict[str, float]]
    cards: list[AnswerCard]


def score_lines(rows: Sequence[ScoreRow]) -> tuple[list[ScoreLine], list[tuple[str, str]]]:
    """Each score with its justification; skipped metrics folded into one line per reason."""
    skipped: dict[str, list[str]] = defaultdict(list)
    lines = []
    for r in rows:
        if r.status == "skipped":
            skipped[r.reason or ""].append(r.metric)
        elif r.status == "ok" and r.score is not None:
            value = f"{r.score:g}/{r.scale_max:g}"
            lines.append(ScoreLine(r.status, r.metric, value, r.justification or None))
        else:
            lines.append(ScoreLine(r.status, r.metric, r.status, r.reason or ""))
    return lines, [(", ".join(metrics), reason) for reason, metrics in skipped.items()]


def render_article(view: ArticleView) -> str:
    return render("answers_article.html.j2", a=view, q=view.question)


def render_page(
    title: str,
    partial: str | None,
    articles: str,
    filters: dict[str, list[str]],
    nav: Sequence[Link] = (),
) -> str:
    """A page of rendered `articles` with the filters (`filters`: the options of each:
    languages, categories, metrics) and `nav`, its links to the other pages of a split."""
    return render(
        "answers.html.j2",
        title=title,
        script="answers_filter.js",
        partial=partial,
        nav=nav,
        filters=filters,
        articles=Markup(articles),  # rendered by render_article
    )


def render_index(
    title: str,
    partial: str | None,
    folder: str,
    pages: list[tuple[str, int, list[tuple[str, str, str]]]],
    max_bytes: int,
) -> str:
    """`answers.html` of a split page: per language, its questions and a link to each of its
    pages (`pages`: language, questions, [(file name, first question, last question)])."""
    return render(
        "answers_index.html.j2",
        title=title,
        script=None,
        partial=partial,
        folder=folder,
        pages=pages,
        questions=sum(n for _, n, _ in pages),
        count=sum(len(files) for _, _, files in pages),
        max_mb=max_bytes / 1e6,
    )
