"""The side-by-side answers page: each question with its language, categories and reference,
every model's answer, and each judge score with its justification, filterable in the browser
by language, category and score, so a researcher can read where models differ.

A page a browser must open whole stays under `MAX_PAGE_BYTES` (~20 MB; at N = 100,000 the page
is ~450 MB): `write_answers` writes `answers.html` whole when it fits, and otherwise pages by
language under `answers/`, each under the cap, with `answers.html` their index. Each page
filters its questions as the whole page does. The markup is templates/answers*.html.j2.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

from parakh.io import write_text
from parakh.metrics.specs import VERDICTS
from parakh.report.answer_scores import AnswerScores, QuestionRows, ScoreRow
from parakh.report.files import ReportFiles
from parakh.report.row_files import Answer, QuestionView
from parakh.report.templating import Markup, render
from parakh.text.sentences import split_sentences_with_offsets

Link = tuple[str, str]  # (href, text)
Piece = tuple[str, str, str]  # (text, mark class or "", its title)
# the groundedness verdicts the page marks, by label letter: (mark class, title)
MARKS = {
    VERDICTS["not_supported"]: ("unsupported", "not supported by the chunks its model saw"),
    VERDICTS["contradicted"]: ("contradicted", "contradicted by a chunk its model saw"),
}
Written = list[tuple[Path, list[str]]]  # pages written, each with its question ids


class AnswerCard(NamedTuple):
    """One system's answer to a question, with its scores; `kind` says what is there:
    `ok` (the answer `text`), `error` (the error `text`), `no-answer`, `no-file`."""

    system: str
    kind: Literal["ok", "error", "no-answer", "no-file"]
    text: str
    scores: list[ScoreRow]  # every row but the skipped ones
    skipped: list[tuple[str, str]]  # (metrics, reason)
    pieces: list[Piece]  # an ok answer's text with its marks (`marked`); empty: none


MAX_PAGE_BYTES = 20_000_000
# answers/ always holds this note: DVC tracks the folder and warns on every run when it is empty.
FOLDER_NOTE = "README.txt"
FOLDER_TEXT = (
    "The pages of the side-by-side answers page when it is too large for one file (over "
    "{mb:g} MB): <language>-<k>.html, each linked from ../answers.html. Without pages here, "
    "answers.html holds every answer. Written by parakh's aggregate stage.\n"
)


class AnswerArticles:
    """Each question's article of the answers page, rendered when asked for (pages are written
    a page at a time, never held whole), from rows indexed here once."""

    def __init__(
        self,
        questions: Sequence[QuestionView],
        generations: Mapping[str, Sequence[Answer]],
        judgments: AnswerScores,
        models: list[str],
        *,
        title: str,
        partial: str | None,
    ) -> None:
        self.title, self.partial = title, partial
        self.answers = {m: {g.question_id: g for g in rows} for m, rows in generations.items()}
        self.rows = judgments
        self.systems: dict[str, str] = dict(judgments.model_of)
        for m in models:
            self.systems.setdefault(m, m)
        order = {m: i for i, m in enumerate(models)}
        self.ordered = sorted(
            self.systems,
            key=lambda s: (order.get(self.systems[s], len(order)), s != self.systems[s], s),
        )
        self.known = {q.id: q for q in questions}
        self.question_ids = list(self.known) + sorted(set(judgments.question_ids) - set(self.known))
        self.metrics = judgments.metrics
        self.languages = sorted({q.language for q in questions} | judgments.languages)
        self.categories = sorted({c for q in questions for c in q.categories})
        self.kept: dict[str, str] = {}  # articles rendered for a page too large to write

    def language(self, qid: str) -> str:
        q = self.known.get(qid)
        return self.rows.language_of(qid) if q is None else q.language

    def card(self, system: str, qid: str, rows: QuestionRows) -> AnswerCard:
        """`system`'s card; its skipped metrics folded into one line per reason."""
        scores = rows.shown.get(system, [])
        skipped = [(", ".join(m), reason) for reason, m in rows.skipped.get(system, {}).items()]
        model = self.systems.get(system, system)
        if model not in self.answers:
            return AnswerCard(system, "no-file", "", scores, skipped, [])
        g = self.answers[model].get(qid)
        if g is None:
            return AnswerCard(system, "no-answer", "", scores, skipped, [])
        if g.status != "ok":
            return AnswerCard(system, "error", g.error or "", scores, skipped, [])
        text = g.response or ""
        return AnswerCard(system, "ok", text, scores, skipped, marked(text, rows.marks.get(system)))

    def article(self, qid: str) -> str:
        """One question's article; `scaled` holds each metric's scores on 0..1 by system, for
        the page's score filter. An article `kept` is taken from there."""
        if qid in self.kept:
            return self.kept.pop(qid)
        rows = self.rows.of_question(qid)
        return render(
            "answers_article.html.j2",
            qid=qid,
            language=self.language(qid),
            q=self.known.get(qid),  # None: the rows name a question not in the run
            scaled=rows.scaled,
            cards=[self.card(system, qid, rows) for system in self.ordered],
        )

    def page(
        self,
        articles: str,
        title: str | None = None,
        nav: Sequence[Link] = (),
        languages: list[str] | None = None,
    ) -> str:
        """A page of rendered articles with the filters (by language, category and metric);
        `nav` links it to the others of a split, whose pages offer their own `languages` only."""
        filters = {
            "languages": self.languages if languages is None else languages,
            "categories": self.categories,
            "metrics": self.metrics,
        }
        return render(
            "answers.html.j2",
            title=self.title if title is None else title,
            script="answers_filter.js",
            partial=self.partial,
            nav=nav,
            filters=filters,
            articles=Markup(articles),  # rendered by `article`
        )


def marked(text: str, label: str | None) -> list[Piece]:
    """`text` in pieces, the sentences that the groundedness verdicts `label` (a letter a
    sentence, `parakh.judging.groundedness`) call not supported or contradicted marked; none
    when nothing is marked or the label does not fit the sentences."""
    if not label or not set(label) & set(MARKS):
        return []
    spans = split_sentences_with_offsets(text)
    if len(label) != len(spans):
        return []
    pieces: list[Piece] = []
    at = 0
    for (start, end), letter in zip(spans, label, strict=True):
        pieces += [(text[at:start], "", ""), (text[start:end], *MARKS.get(letter, ("", "")))]
        at = end
    return [*pieces, (text[at:], "", "")]


def write_answers(
    files: ReportFiles,
    questions: Sequence[QuestionView],
    generations: Mapping[str, Sequence[Answer]],
    judgments: AnswerScores,
    models: list[str],
    *,
    title: str,
    partial: str | None = None,
    max_bytes: int = MAX_PAGE_BYTES,
) -> list[Path]:
    """Write `answers.html` whole or split by language (an article larger than `max_bytes` alone
    on its page); `answers/` is always there (dvc.yaml declares it), an earlier run's pages
    removed. Returns the files written, the pages first."""
    articles = AnswerArticles(
        questions, generations, judgments, models, title=title, partial=partial
    )
    files.answers_pages.mkdir(parents=True, exist_ok=True)
    for stale in files.answer_pages():
        stale.unlink()
    write_text(files.answers_pages / FOLDER_NOTE, FOLDER_TEXT.format(mb=max_bytes / 1e6))
    whole = _whole_page(articles, max_bytes)
    if whole is not None:
        write_text(files.answers_html, whole)
        return [files.answers_html]
    pages: list[tuple[str, Written]] = []
    slugs: set[str] = set()
    for language in sorted({articles.language(qid) for qid in articles.question_ids}):
        slug = re.sub(r"[^0-9A-Za-z_]+", "_", language) or "und"  # unlike any other page's
        while slug in slugs:
            slug += "_"
        slugs.add(slug)
        written = _write_language(files, articles, language, slug, max_bytes)
        pages.append((language, written))
    write_text(files.answers_html, _index(files, articles, pages, max_bytes))
    return [path for _, written in pages for path, _ in written] + [files.answers_html]


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def _whole_page(articles: AnswerArticles, max_bytes: int) -> str | None:
    """The whole page, or None as soon as it would pass `max_bytes` (the articles rendered then
    `kept` for the split's pages)."""
    held = articles.kept
    size = _size(articles.page(""))
    for qid in articles.question_ids:
        held[qid] = articles.article(qid)
        size += _size(held[qid])
        if size > max_bytes:
            return None
    return articles.page("".join(held.values()))


def _write_language(
    files: ReportFiles, articles: AnswerArticles, language: str, slug: str, max_bytes: int
) -> Written:
    """One language's pages, filled in question order; each page with its question ids."""
    written: Written = []

    def shell(k: int, more: bool) -> tuple[str, list[Link]]:
        nav = [("../answers.html", "all answers")]
        nav += [(f"{slug}-{k - 1}.html", "previous page")] if k > 1 else []
        nav += [(f"{slug}-{k + 1}.html", "next page")] if more else []
        return f"{articles.title}: {language}, page {k}", nav

    def budget(k: int) -> int:
        """What page k's articles may take: the cap less its page around them (a next link
        assumed)."""
        page_title, nav = shell(k, True)
        return max_bytes - _size(articles.page("", page_title, nav, [language]))

    def flush(held: list[tuple[str, str]], more: bool) -> None:
        k = len(written) + 1
        page_title, nav = shell(k, more)
        text = articles.page("".join(a for _, a in held), page_title, nav, [language])
        path = files.answers_pages / f"{slug}-{k}.html"
        write_text(path, text)
        written.append((path, [qid for qid, _ in held]))

    held: list[tuple[str, str]] = []
    size, room = 0, budget(1)
    for qid in articles.question_ids:
        if articles.language(qid) != language:
            continue
        article = articles.article(qid)
        if held and size + _size(article) > room:
            flush(held, more=True)
            held, size, room = [], 0, budget(len(written) + 1)
        held.append((qid, article))
        size += _size(article)
    flush(held, more=False)
    return written


def _index(
    files: ReportFiles, articles: AnswerArticles, pages: list[tuple[str, Written]], max_bytes: int
) -> str:
    """`answers.html` of a split page: per language, its questions and a link to each page."""
    rows = [
        (
            language,
            sum(len(ids) for _, ids in written),
            [(path.name, ids[0], ids[-1]) for path, ids in written],
        )
        for language, written in pages
    ]
    return render(
        "answers_index.html.j2",
        title=articles.title,
        script=None,
        partial=articles.partial,
        folder=files.answers_pages.name,
        pages=rows,
        questions=sum(n for _, n, _ in rows),
        count=sum(len(links) for _, _, links in rows),
        max_mb=max_bytes / 1e6,
    )
