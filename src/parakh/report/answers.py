"""The side-by-side answers page: each question with its language, categories and reference,
every model's answer, and each judge score with its justification, filterable in the browser
by language, category and score, so a researcher can read where models differ."""

from __future__ import annotations

from collections import defaultdict

from parakh.report.html_parts import esc, json_attr, page, partial_banner
from parakh.report.items import system_name
from parakh.schema import Generation, Judgment, Question

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


def render_answers(
    questions: list[Question],
    generations: dict[str, list[Generation]],
    judgments: list[Judgment],
    models: list[str],
    *,
    title: str,
    partial: str | None = None,
) -> str:
    """The page; `generations` by model name (a model without a file is shown as missing);
    `partial`: a partial run's banner text."""
    answers = {model: {g.question_id: g for g in rows} for model, rows in generations.items()}
    scores: dict[str, dict[str, list[Judgment]]] = defaultdict(lambda: defaultdict(list))
    systems: dict[str, str] = {}
    for j in judgments:
        name = system_name(j.model, j.translator)
        systems.setdefault(name, j.model)
        scores[j.question_id][name].append(j)
    for m in models:
        systems.setdefault(m, m)
    order = {m: i for i, m in enumerate(models)}
    ordered = sorted(systems, key=lambda s: (order.get(systems[s], len(order)), s != systems[s], s))
    known = {q.id: q for q in questions}
    question_ids = list(known) + sorted(set(scores) - set(known))
    metrics = sorted({j.metric for j in judgments})
    languages = sorted({q.language for q in questions} | {j.language for j in judgments})
    categories = sorted({c for q in questions for c in q.categories})
    articles = []
    for qid in question_ids:
        q = known.get(qid)
        rows_by_system = scores.get(qid, {})
        language = (
            q.language
            if q
            else next((r.language for rs in rows_by_system.values() for r in rs), "und")
        )
        scaled: dict[str, dict[str, float]] = defaultdict(dict)
        for system, rows in rows_by_system.items():
            for r in rows:
                if r.status == "ok" and r.score is not None:
                    scaled[r.metric][system] = round(r.score / r.scale_max, 6)
        cards = []
        for system in ordered:
            model = systems.get(system, system)
            if model not in answers:
                text = '<p class="note">no answers file for this model</p>'
            else:
                g = answers[model].get(qid)
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
        articles.append(
            f'<article class="q" data-language="{esc(language)}" '
            f'data-categories="{json_attr(q.categories if q else [])}" '
            f'data-scores="{json_attr(scaled)}">{header}{question_text}{reference}'
            f'<div class="answers">{"".join(cards)}</div></article>'
        )
    filters = (
        '<div class="filters">'
        f'<label>language <select id="f-language">{_options(languages, "any")}</select></label>'
        f'<label>category <select id="f-category">{_options(categories, "any")}</select></label>'
        f'<label>score of <select id="f-metric">{_options(metrics, "(no score filter)")}'
        "</select></label>"
        '<label>from <input id="f-min" type="number" min="0" max="1" step="0.05" value="0">'
        "</label>"
        '<label>to <input id="f-max" type="number" min="0" max="1" step="0.05" value="1">'
        "</label>"
        '<span id="f-count" class="note"></span>'
        '<p class="note">Scores are scaled to 0..1; a question shows when any model\'s score '
        "for the chosen metric is in range.</p></div>"
    )
    body = f"<h1>{esc(title)}</h1>{partial_banner(partial)}{filters}{''.join(articles)}"
    return page(title, body, FILTER_SCRIPT)
