"""A blind grading page: one self-contained HTML file per grader, and the key that unblinds it.

Every answer (question, model) to a sample of questions per language (`per_language_mask`, as
the judge samples: with the judge's seed and a count no larger than its own, the sheet's
questions are among those it judged) gets an opaque answer id, numbered in an order shuffled
by the seed; the key file (`grades_file.AnswerKey`) maps ids to models and stays with the
team. Each grader's sheet shows the answers in its own seeded order, each with its question,
reference answers (where a rubric reads them) and the question's retrieved KB chunks (the
same for every model), and the rubric levels beside the scale; no model name is on it. Every
text carries its language (BCP 47, with a script subtag where it is not the language's usual
one) and direction (`rtl` for Arabic script: Urdu, Sindhi, Kashmiri). The page's script
(`templates/grading_sheet.js`) keeps progress in the browser and downloads `BlindGrade` JSONL.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parakh.config.loading import unknown_name_message
from parakh.curation.slices import per_language_mask
from parakh.errors import ConfigError
from parakh.hashing import sha256_obj
from parakh.metrics.rubric import Rubric
from parakh.report.grades_file import AnswerKey, KeyedAnswer, MetricScale
from parakh.report.items import system_name
from parakh.report.templating import render
from parakh.schema import Generation, Question, Retrieval
from parakh.stats.bootstrap import derive_seed
from parakh.text.langid import UNDETERMINED, label_language
from parakh.text.languages import LANGUAGES, SCRIPT_CODES
from parakh.text.script import RTL_SCRIPTS, UNKNOWN_SCRIPT


@dataclass(frozen=True)
class Marked:
    """A text with the language and direction the page marks it with."""

    text: str
    lang: str
    dir: str


def marked(text: str, language: str | None = None, script: str | None = None) -> Marked:
    """`text` marked with `language` and `script` as given, or as detected (`language` is
    then only a hint)."""
    if language is None or script is None:
        label = label_language(text, language)
        language, script = label.language, label.script
    tag = language
    usual = LANGUAGES[language].primary_script if language in LANGUAGES else script
    if script in SCRIPT_CODES and script != usual:
        tag = f"{language}-{SCRIPT_CODES[script]}"  # romanized Hindi: hi-Latn
    if language == UNDETERMINED or script == UNKNOWN_SCRIPT:
        return Marked(text, tag, "auto")
    return Marked(text, tag, "rtl" if script in RTL_SCRIPTS else "ltr")


@dataclass(frozen=True)
class SheetMetric:
    """A graded criterion as the page shows it beside the scale."""

    name: str
    title: str
    description: str
    min: int
    max: int
    levels: list[tuple[int, list[str]]]  # score, its criteria (none: between the anchors)
    uses_reference: bool


def sheet_metrics(rubrics: Sequence[Rubric], names: Sequence[str] | None) -> list[SheetMetric]:
    """The criteria of `rubrics` named by `names` (all if None), in that order; a scale the
    digit keys cannot grade (past 0..9) is an error."""
    found: dict[str, SheetMetric] = {}
    for r in rubrics:
        levels = []
        for score in range(r.scale.min, r.scale.max + 1):
            text = r.scoring.get(score)
            levels.append((score, [text] if isinstance(text, str) else list(text or [])))
        for c in r.criteria_list():
            found[c.name] = SheetMetric(
                c.name, c.title, c.description, r.scale.min, r.scale.max, levels, r.uses_reference
            )
    for name in names or []:
        if name not in found:
            raise ConfigError(unknown_name_message("rubric metric", name, sorted(found)))
    chosen = [found[n] for n in names] if names else list(found.values())
    if not chosen:
        raise ConfigError("no rubric metric to grade: the judge has no rubrics; name them")
    for m in chosen:
        if not 0 <= m.min < m.max <= 9:
            raise ConfigError(f"'{m.name}' is on {m.min}..{m.max}: digit keys grade 0..9 only")
    return chosen


def answer_key(
    questions: Sequence[Question],
    generations: Mapping[str, Sequence[Generation]],
    metrics: Sequence[SheetMetric],
    *,
    dataset: str,
    judge: str,
    seed: int,
    per_language: int | None,
    graders: Sequence[str],
) -> AnswerKey:
    """Every ok answer to the sampled questions under an opaque id (ids numbered in an order
    shuffled by `seed`), and the sheet's id: a hash of what it holds."""
    keep = per_language_mask(questions, per_language, seed) if per_language else None
    sampled = {q.id for k, q in enumerate(questions) if keep is None or keep[k]}
    answers = sorted(
        (g.question_id, system_name(g.model, g.translation.translator if g.translation else None))
        for rows in generations.values()
        for g in rows
        if g.question_id in sampled and g.status == "ok" and (g.response or "").strip()
    )
    if not answers:
        raise ConfigError("no answer to grade: the sampled questions have no ok answers")
    random.Random(derive_seed(seed, "grading-sheet", "ids")).shuffle(answers)
    width = len(str(len(answers)))
    scales = {m.name: MetricScale(min=m.min, max=m.max) for m in metrics}
    content = [dataset, seed, sorted(answers), sorted(scales)]
    return AnswerKey(
        sheet=f"{dataset}-{sha256_obj(content)[:8]}",
        dataset=dataset,
        judge=judge,
        seed=seed,
        graders=list(graders),
        metrics=scales,
        answers={
            f"a{k:0{width}d}": KeyedAnswer(question_id=q, model=m)
            for k, (q, m) in enumerate(answers, 1)
        },
    )


def grader_order(key: AnswerKey, grader: str) -> list[str]:
    """The answer ids in the order `grader` sees them: shuffled by the key's seed and the
    grader, so each grader's order differs and reruns give the same one."""
    order = sorted(key.answers)
    random.Random(derive_seed(key.seed, "grading-sheet", grader)).shuffle(order)
    return order


def render_sheet(
    key: AnswerKey,
    grader: str,
    questions: Mapping[str, Question],
    generations: Mapping[str, Sequence[Generation]],
    retrieval: Mapping[str, Retrieval],
    metrics: Sequence[SheetMetric],
) -> str:
    """One grader's page: the answers in `grader_order`, every text marked."""
    responses = {
        (
            g.question_id,
            system_name(g.model, g.translation.translator if g.translation else None),
        ): g.response or ""
        for rows in generations.values()
        for g in rows
    }
    with_references = any(m.uses_reference for m in metrics)
    articles = []
    for answer_id in grader_order(key, grader):
        keyed = key.answers[answer_id]
        q = questions[keyed.question_id]
        articles.append(
            _article(answer_id, q, responses[(q.id, keyed.model)], retrieval, with_references)
        )
    return render(
        "grading_sheet.html.j2",
        title=f"Grading sheet {key.sheet}: {grader}",
        script="grading_sheet.js",
        sheet=key.sheet,
        grader=grader,
        articles=articles,
        metrics=metrics,
    )


def _article(
    answer_id: str,
    q: Question,
    response: str,
    retrieval: Mapping[str, Retrieval],
    with_references: bool,
) -> dict[str, Any]:
    found = retrieval.get(q.id)
    chunks = [*found.raw_chunks, *found.kb_update_chunks] if found else []
    return {
        "id": answer_id,
        "question_id": q.id,
        "language": q.language,
        "question": marked(q.text, q.language, q.script),
        "references": [marked(r, q.answer_language) for r in q.reference_answers]
        if with_references
        else [],
        "chunks": [(c.kind, c.added_at, marked(c.text)) for c in chunks],
        "chunks_known": found is not None,
        "response": marked(response, q.answer_language),
    }
