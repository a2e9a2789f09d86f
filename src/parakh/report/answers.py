"""The side-by-side answers page: each question with its language, categories and reference,
every model's answer, and each judge score with its justification, filterable in the browser
by language, category and score, so a researcher can read where models differ.

A page a browser must open whole stays under `MAX_PAGE_BYTES` (~20 MB; at N = 100,000 the one
page was 447 MB): `write_answers` writes `answers.html` whole when it fits, as it always was,
and otherwise pages by language under `answers/`, each under the cap, with `answers.html` their
index. Each page filters its questions as the whole page does.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from parakh.io import write_text
from parakh.report.files import ReportFiles
from parakh.report.html_parts import esc, json_attr, page, partial_banner, table
from parakh.report.items import system_name
from parakh.schema import Generation, Judgment, Question

MAX_PAGE_BYTES = 20_000_000

FILTER_SCRIPT = """
function parakhFilter(){
  var lang=document.getElementById('f-language').value;
  var cat=document.getElementById('f-category').value;
  var metric=document.getElementById('f-metric').value;
  var lo=parseFloat(document.getElementById('f-min').value);
  var hi=parseFloat(document.getElementById('f-max').value);
  if(isNaN(lo)){lo=0;} if(isNaN(hi)){hi=1;}
  var shown=0, items=document.querySelectorAll('article.q');
  items.forEach(function(q){
    var ok=(!lang||q.getAttribute('data-language')===lang);
    var cats=JSON.parse(q.getAttribute('data-categories'));
    ok=ok&&(!cat||cats.indexOf(cat)>=0);
    if(ok&&metric){
      var scores=JSON.parse(q.getAttribute('data-scores'))[metric]||{};
      var any=false;
      Object.keys(scores).forEach(function(m){var v=scores[m];if(v>=lo&&v<=hi){any=true;}});
      ok=any;
    }
    q.hidden=!ok; if(ok){shown++;}
  });
  document.getElementById('f-count').textContent=shown+' of '+items.length+' questions';
}
['f-language','f-category','f-metric','f-min','f-max'].forEach(function(id){
  var el=document.getElementById(id);
  el.addEventListener('change',parakhFilter); el.addEventListener('input',parakhFilter);
});
parakhFilter();
"""


def _options(values: list[str], label: str) -> str:
    return f'<option value="">{esc(label)}</option>' + "".join(
        f'<option value="{esc(v)}">{esc(v)}</option>' for v in values
    )


def _score_html(row: Judgment) -> str:
    if row.status == "ok" and row.score is not None:
        value = f"{row.score:g}/{row.scale_max:g}"
        why = f' <span class="why">{esc(row.justification)}</span>' if row.justification else ""
    else:
        value = row.status
        why = f' <span class="why">{esc(row.reason or "")}</span>'
    return (
        f'<div class="score status-{esc(row.status)}"><b>{esc(row.metric)}</b> '
        f"{esc(value)}{why}</div>"
    )


def _scores_html(rows: list[Judgment]) -> str:
    """Each score with its justification; skipped metrics folded into one line per reason."""
    skipped: dict[str, list[str]] = defaultdict(list)
    parts = []
    for r in rows:
        if r.status == "skipped":
            skipped[r.reason or ""].append(r.metric)
        else:
            parts.append(_score_html(r))
    for reason, metrics in skipped.items():
        parts.append(
            f'<div class="score status-skipped">skipped: {esc(", ".join(metrics))} '
            f'<span class="why">{esc(reason)}</span></div>'
        )
    return "".join(parts)


class AnswerArticles:
    """Each question's article of the answers page, rendered when asked for: at N = 100,000
    the page is ~450 MB of HTML, which is written a page at a time, never held whole."""

    def __init__(
        self,
        questions: list[Question],
        generations: dict[str, list[Generation]],
        judgments: list[Judgment],
        models: list[str],
    ) -> None:
        self.answers = {m: {g.question_id: g for g in rows} for m, rows in generations.items()}
        self.scores: dict[str, dict[str, list[Judgment]]] = defaultdict(lambda: defaultdict(list))
        self.systems: dict[str, str] = {}
        for j in judgments:
            name = system_name(j.model, j.translator)
            self.systems.setdefault(name, j.model)
            self.scores[j.question_id][name].append(j)
        for m in models:
            self.systems.setdefault(m, m)
        order = {m: i for i, m in enumerate(models)}
        self.ordered = sorted(
            self.systems,
            key=lambda s: (order.get(self.systems[s], len(order)), s != self.systems[s], s),
        )
        self.known = {q.id: q for q in questions}
        self.question_ids = list(self.known) + sorted(set(self.scores) - set(self.known))
        self.metrics = sorted({j.metric for j in judgments})
        self.languages = sorted({q.language for q in questions} | {j.language for j in judgments})
        self.categories = sorted({c for q in questions for c in q.categories})

    def language(self, qid: str) -> str:
        q = self.known.get(qid)
        rows_by_system = self.scores.get(qid, {})
        return (
            q.language
            if q
            else next((r.language for rs in rows_by_system.values() for r in rs), "und")
        )

    def article(self, qid: str) -> str:
        q = self.known.get(qid)
        rows_by_system = self.scores.get(qid, {})
        language = self.language(qid)
        scaled: dict[str, dict[str, float]] = defaultdict(dict)
        for system, rows in rows_by_system.items():
            for r in rows:
                if r.status == "ok" and r.score is not None:
                    scaled[r.metric][system] = round(r.score / r.scale_max, 6)
        cards = []
        for system in self.ordered:
            model = self.systems.get(system, system)
            if model not in self.answers:
                text = '<p class="note">no answers file for this model</p>'
            else:
                g = self.answers[model].get(qid)
                if g is None:
                    text = '<p class="note">no answer recorded</p>'
                elif g.status != "ok":
                    text = f'<p class="status-error">error: {esc(g.error or "")}</p>'
                else:
                    text = f'<div class="text">{esc(g.response or "")}</div>'
            judged = _scores_html(rows_by_system.get(system, []))
            cards.append(f'<div class="answer"><h4>{esc(system)}</h4>{text}{judged}</div>')
        header = (
            f"<header><b>{esc(qid)}</b> · {esc(language)}"
            + (f" · {esc(', '.join(q.categories))}" if q and q.categories else "")
            + (f" · {esc(q.domain)}" if q and q.domain else "")
            + "</header>"
        )
        question_text = f"<p>{esc(q.text)}</p>" if q else '<p class="note">question not found</p>'
        reference = (
            "<p><i>Reference:</i> " + " | ".join(esc(r) for r in q.reference_answers) + "</p>"
            if q and q.reference_answers
            else ""
        )
        return (
            f'<article class="q" data-language="{esc(language)}" '
            f'data-categories="{json_attr(q.categories if q else [])}" '
            f'data-scores="{json_attr(scaled)}">{header}{question_text}{reference}'
            f'<div class="answers">{"".join(cards)}</div></article>'
        )

    def page(
        self,
        title: str,
        partial: str | None,
        articles: str,
        nav: str = "",
        languages: list[str] | None = None,
    ) -> str:
        """A page of articles with the filters; `nav` links it to the others of a split, whose
        pages offer their own `languages` only."""
        shown = self.languages if languages is None else languages
        filters = (
            '<div class="filters">'
            f'<label>language <select id="f-language">{_options(shown, "any")}'
            "</select></label>"
            f'<label>category <select id="f-category">{_options(self.categories, "any")}'
            "</select></label>"
            f'<label>score of <select id="f-metric">{_options(self.metrics, "(no score filter)")}'
            "</select></label>"
            '<label>from <input id="f-min" type="number" min="0" max="1" step="0.05" value="0">'
            "</label>"
            '<label>to <input id="f-max" type="number" min="0" max="1" step="0.05" value="1">'
            "</label>"
            '<span id="f-count" class="note"></span>'
            '<p class="note">Scores are scaled to 0..1; a question shows when any model\'s score '
            "for the chosen metric is in range.</p></div>"
        )
        body = f"<h1>{esc(title)}</h1>{partial_banner(partial)}{nav}{filters}{articles}"
        return page(title, body, FILTER_SCRIPT)


def render_answers(
    questions: list[Question],
    generations: dict[str, list[Generation]],
    judgments: list[Judgment],
    models: list[str],
    *,
    title: str,
    partial: str | None = None,
) -> str:
    """The whole page in one; `generations` by model name (a model without a file is shown as
    missing); `partial`: a partial run's banner text. `write_answers` splits it when large."""
    articles = AnswerArticles(questions, generations, judgments, models)
    return articles.page(title, partial, "".join(map(articles.article, articles.question_ids)))


def write_answers(
    files: ReportFiles,
    questions: list[Question],
    generations: dict[str, list[Generation]],
    judgments: list[Judgment],
    models: list[str],
    *,
    title: str,
    partial: str | None = None,
    max_bytes: int = MAX_PAGE_BYTES,
) -> list[Path]:
    """Write `answers.html`: the whole page (`render_answers`) when it fits in `max_bytes`;
    else pages by language, in question order, each at most `max_bytes` (an article larger than
    that alone on its page) under `answers/`, and `answers.html` an index linking every page.
    The folder is always there (dvc.yaml declares it); pages of an earlier run are removed.
    Returns the files written, the pages first."""
    articles = AnswerArticles(questions, generations, judgments, models)
    files.answers_pages.mkdir(parents=True, exist_ok=True)
    for stale in files.answer_pages():
        stale.unlink()
    whole = _whole_page(articles, title, partial, max_bytes)
    if whole is not None:
        write_text(files.answers_html, whole)
        return [files.answers_html]
    pages: list[tuple[str, list[tuple[Path, list[str]]]]] = []
    slugs: set[str] = set()
    for language in sorted({articles.language(qid) for qid in articles.question_ids}):
        slug = _slug(language, slugs)
        ids = [qid for qid in articles.question_ids if articles.language(qid) == language]
        written = _write_language(files, articles, language, slug, ids, title, partial, max_bytes)
        pages.append((language, written))
    write_text(files.answers_html, _index(files, title, partial, pages, max_bytes))
    return [path for _, written in pages for path, _ in written] + [files.answers_html]


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def _whole_page(
    articles: AnswerArticles, title: str, partial: str | None, max_bytes: int
) -> str | None:
    """The whole page, or None as soon as it would pass `max_bytes`."""
    held: list[str] = []
    size = _size(articles.page(title, partial, ""))
    for qid in articles.question_ids:
        held.append(articles.article(qid))
        size += _size(held[-1])
        if size > max_bytes:
            return None
    return articles.page(title, partial, "".join(held))


def _slug(language: str, taken: set[str]) -> str:
    """A file-name part for a language code, unlike any other page's."""
    slug = re.sub(r"[^0-9A-Za-z_]+", "_", language) or "und"
    while slug in taken:
        slug += "_"
    taken.add(slug)
    return slug


def _write_language(
    files: ReportFiles,
    articles: AnswerArticles,
    language: str,
    slug: str,
    ids: list[str],
    title: str,
    partial: str | None,
    max_bytes: int,
) -> list[tuple[Path, list[str]]]:
    """One language's pages, filled in question order; each page with its question ids."""
    written: list[tuple[Path, list[str]]] = []

    def shell(k: int, more: bool) -> tuple[str, str]:
        nav = '<nav><a href="../answers.html">all answers</a>'
        nav += f'<a href="{slug}-{k - 1}.html">previous page</a>' if k > 1 else ""
        nav += f'<a href="{slug}-{k + 1}.html">next page</a>' if more else ""
        return f"{title}: {language}, page {k}", nav + "</nav>"

    def budget(k: int) -> int:
        """What page k's articles may take: the cap less its page around them (a next link
        assumed)."""
        page_title, nav = shell(k, True)
        return max_bytes - _size(articles.page(page_title, partial, "", nav, [language]))

    def flush(held: list[tuple[str, str]], more: bool) -> None:
        k = len(written) + 1
        page_title, nav = shell(k, more)
        text = articles.page(page_title, partial, "".join(a for _, a in held), nav, [language])
        path = files.answers_pages / f"{slug}-{k}.html"
        write_text(path, text)
        written.append((path, [qid for qid, _ in held]))

    held: list[tuple[str, str]] = []
    size, room = 0, budget(1)
    for qid in ids:
        article = articles.article(qid)
        if held and size + _size(article) > room:
            flush(held, more=True)
            held, size, room = [], 0, budget(len(written) + 1)
        held.append((qid, article))
        size += _size(article)
    flush(held, more=False)
    return written


def _index(
    files: ReportFiles,
    title: str,
    partial: str | None,
    pages: list[tuple[str, list[tuple[Path, list[str]]]]],
    max_bytes: int,
) -> str:
    """`answers.html` of a split page: per language, its questions and a link to each page."""
    folder = files.answers_pages.name
    rows = [
        [
            esc(language),
            str(sum(len(ids) for _, ids in written)),
            " · ".join(
                f'<a href="{folder}/{esc(path.name)}">{k} ({esc(ids[0])} – {esc(ids[-1])})</a>'
                for k, (path, ids) in enumerate(written, start=1)
            ),
        ]
        for language, written in pages
    ]
    questions = sum(int(row[1]) for row in rows)
    count = sum(len(written) for _, written in pages)
    note = (
        f'<p class="note">{questions} questions on {count} pages by language, each at most '
        f"{max_bytes / 1e6:g} MB so that a browser opens it readily; each page filters its "
        "questions by category and score.</p>"
    )
    body = f"<h1>{esc(title)}</h1>{partial_banner(partial)}{note}"
    return page(title, body + table(["language", "questions", "pages"], rows, table_id="pages"))
