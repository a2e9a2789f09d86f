"""The `sufficiency` check (parakh.judging.checks): does the context answer the question, and
does the model abstain when it does not?

A question's context is sufficient or not by the dataset's own label where the dataset carries
labels (`dataset_labels`: NoMIRACL's relevant / non_relevant, a HealthBot-style `answerable`),
else by the judge models' verdict on the question and the context the model was given
(conf/prompt/check_sufficiency.yaml; a jury by majority). Where both exist the judge is asked
too, on its sample, and the summary gives its agreement with the labels. Each answer is read
as an abstention or an answer by the answer prompt's own words (`parakh.judging.abstention`).

Two rates, lower is better, each over its own denominator (NoMIRACL §2.1):

    context_hallucination = answered / (answered + abstained) on insufficient context: FP/(FP+TN)
    false_refusal         = abstained / (abstained + answered) on sufficient context:  FN/(FN+TP)

A question outside a metric's denominator gets a `skipped` row of it. An answer that is neither
is `invalid`; a failed or empty answer is an `error`; a question without a sufficiency verdict
has an `invalid`, `error` or `skipped` row (the judge's) in both: none is ever scored.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from parakh.config.loading import load_named
from parakh.errors import ConfigError
from parakh.judging.abstention import ABSTAINED, ANSWERED, INVALID, Reader, abstention_reader
from parakh.judging.ballot_rows import REPAIRED, judge_with_rubrics, row_fields
from parakh.judging.checks import CheckInputs
from parakh.judging.judge_context import CONTEXT_CUT
from parakh.judging.llm_judge import JudgePrompt, not_judgeable
from parakh.metrics.nomiracl import ALL, Rate
from parakh.metrics.rubric import Rubric
from parakh.metrics.specs import MetricSpec, rate_spec
from parakh.prompts.template import PromptTemplate, load_prompt
from parakh.schema import PROMPT_UNAVAILABLE, Judgment, Question, Retrieval, RetrievedChunk
from parakh.stats.agreement import cohen_kappa

CONTEXT_HALLUCINATION = "context_hallucination"
FALSE_REFUSAL = "false_refusal"
PROMPT = "check_sufficiency"
FROM_FLAG = "sufficiency_from:"  # dataset | judge: what decided the row's context
JUDGE_FLAG = "judge_said:"  # sufficient | insufficient | no_verdict, beside a dataset label
_METRIC = {False: CONTEXT_HALLUCINATION, True: FALSE_REFUSAL}  # by sufficiency
_SIDE = {False: "insufficient", True: "sufficient"}


class SufficiencyPrompt(JudgePrompt):
    """conf/prompt/check_sufficiency.yaml: the judge prompt and its verdict's rubric."""

    rubric: Rubric


def dataset_labels(questions: Iterable[Question]) -> bool:
    """Whether the dataset says which questions its context answers: some question has a
    NoMIRACL `subset` or is `answerable: false` (the default is true, so a false comes from the
    dataset). Decided over the whole questions file, so that every shard decides alike."""
    return any(q.subset is not None or not q.answerable for q in questions)


def given_context(
    prompt: PromptTemplate, question: Question, chunks: Retrieval | None
) -> Retrieval:
    """The context the answering model was given: the question's own passages (NoMIRACL's,
    XQuAD's) for a `question`-context prompt, else the retrieved chunks."""
    if prompt.context != "question":
        return chunks or Retrieval(question_id=question.id, raw_chunks=[], kb_update_chunks=[])
    raw = [
        RetrievedChunk(chunk_id=p.id, document_id=p.id, kind="raw", text=p.text, score=0.0)
        for p in question.contexts
    ]
    return Retrieval(question_id=question.id, raw_chunks=raw, kb_update_chunks=[])


def _judge_verdicts(inputs: CheckInputs, prompt: PromptTemplate) -> dict[str, Judgment]:
    """The judge's `sufficiency` row of each question: asked on the sample, but not of a
    question whose passages its source lacks (replayed NoMIRACL rows)."""
    judge = inputs.judge
    asked = load_named("prompt", PROMPT, SufficiencyPrompt)
    # the verdict reads no answer: any judge model may give it; a jury's is its majority
    jury = judge.jury and judge.jury.model_copy(update={"combine": "majority"})
    cfg = judge.model_copy(update={"allow_self_judging": True, "jury": jury})
    context = {
        q.id: given_context(prompt, q, inputs.chunks.get(q.id))
        for q in inputs.questions
        if q.id in inputs.sampled and PROMPT_UNAVAILABLE not in q.meta
    }
    rows = judge_with_rubrics(
        cfg,
        inputs.generator,
        list(inputs.questions),
        inputs.answers,
        context,
        set(context),
        inputs.calls,
        asked,
        [asked.rubric],
    )
    return {r.question_id: r for r in rows}


def _answer_row(
    fields: dict[str, Any], question: Question, inputs: CheckInputs, read: Reader, why: str
) -> Judgment:
    """The row of the metric whose denominator the question is in."""
    answer = inputs.answers[question.id]
    unjudged = not_judgeable(answer)
    if unjudged is not None:
        return Judgment(**fields, status="error", reason=unjudged)
    reading = read(answer.response or "", question)
    if reading.label == INVALID:
        return Judgment(**fields, status="invalid", label=INVALID, reason=f"{why}; {reading.why}")
    bad = ANSWERED if fields["metric"] == CONTEXT_HALLUCINATION else ABSTAINED
    return Judgment(
        **fields,
        status="ok",
        score=float(reading.label == bad),
        label=reading.label,
        justification=f"{why}; {reading.label}: {reading.why}",
    )


@dataclass(frozen=True)
class _Sufficiency:
    name: str = "sufficiency"
    metrics: tuple[MetricSpec, ...] = (
        rate_spec(
            CONTEXT_HALLUCINATION,
            "answered although the context did not hold the answer: answered / (answered + "
            "abstained) on insufficient context (NoMIRACL's hallucination rate FP/(FP+TN))",
        ),
        rate_spec(
            FALSE_REFUSAL,
            "abstained although the context held the answer: abstained / (abstained + answered) "
            "on sufficient context (NoMIRACL's error rate FN/(FN+TP))",
        ),
    )

    def rows(self, inputs: CheckInputs) -> Iterator[Judgment]:
        judge = inputs.judge
        prompt = load_prompt(inputs.answer_prompt)
        read = abstention_reader(prompt, judge.parser)
        labelled = dataset_labels(inputs.dataset or inputs.questions)
        asks = judge.model is not None or judge.jury is not None
        if not (labelled or asks):
            raise ConfigError(
                f"judge '{judge.name}': the sufficiency check needs the dataset's sufficiency "
                "labels (a NoMIRACL subset, an `answerable: false` question) or a judge model "
                "(`model` or `jury`) to decide whether the context answers each question"
            )
        said = _judge_verdicts(inputs, prompt) if asks else {}
        for q in inputs.questions:
            verdict = said.get(q.id)
            base = row_fields(judge.name, q, inputs.answers[q.id])
            base["raw_output"] = verdict.raw_output if verdict else None
            if not labelled and verdict is not None and verdict.status != "ok":
                for metric in _METRIC.values():
                    why = f"no sufficiency verdict: {verdict.reason}"
                    yield Judgment(**base, metric=metric, status=verdict.status, reason=why)
                continue
            source = "dataset" if labelled else "judge"
            sufficient = q.answerable if labelled else verdict is not None and verdict.score == 1
            flags = [f"{FROM_FLAG}{source}"]
            if verdict is not None and not labelled:
                flags += [f for f in verdict.flags if f in (REPAIRED, CONTEXT_CUT)]
            elif verdict is not None and verdict.status != "skipped":
                ok = verdict.status == "ok"
                flags.append(JUDGE_FLAG + (_SIDE[verdict.score == 1] if ok else "no_verdict"))
            why = f"context {_SIDE[sufficient]} ({source})"
            for metric in _METRIC.values():
                fields: dict[str, Any] = {**base, "metric": metric, "flags": flags}
                if metric != _METRIC[sufficient]:
                    reason = f"{why}: outside {metric}'s denominator"
                    yield Judgment(**fields, status="skipped", reason=reason)
                else:
                    yield _answer_row(fields, q, inputs, read, why)

    def summarize(self, rows: Sequence[Judgment]) -> dict[str, Any] | None:
        by_language: dict[str, list[Judgment]] = defaultdict(list)
        for r in rows:
            by_language[r.language].append(r)
            by_language[ALL].append(r)
        return {
            language: _summary(group) for language, group in sorted(by_language.items())
        } or None


def _flag(row: Judgment, prefix: str) -> str | None:
    return next((f.removeprefix(prefix) for f in row.flags if f.startswith(prefix)), None)


def _summary(rows: Sequence[Judgment]) -> dict[str, Any]:
    """Each rate with its numerator and denominator, the outcomes on each side, what decided
    the context, and the judge's agreement with the dataset's labels."""
    sides: dict[str, Counter[str]] = {side: Counter() for side in _SIDE.values()}
    sources: Counter[str] = Counter()
    labels: list[float] = []  # 1.0: sufficient, by the dataset
    judged: list[float] = []  # and by the judge, on the same questions
    no_verdict: Counter[str] = Counter()  # questions without one, by the judge row's status
    judge_no_verdict = 0
    for r in rows:
        source = _flag(r, FROM_FLAG)
        if source is None and r.metric == CONTEXT_HALLUCINATION:
            no_verdict[r.status] += 1
        if source is None or r.status == "skipped":
            continue
        sufficient = r.metric == FALSE_REFUSAL
        sides[_SIDE[sufficient]][r.label if r.status == "ok" and r.label else r.status] += 1
        sources[source] += 1
        judge = _flag(r, JUDGE_FLAG)
        judge_no_verdict += judge == "no_verdict"
        if judge in _SIDE.values():
            labels.append(float(sufficient))
            judged.append(float(judge == "sufficient"))
    low, high = sides["insufficient"], sides["sufficient"]
    insufficient = low[ANSWERED] + low[ABSTAINED]
    agreeing = sum(a == b for a, b in zip(labels, judged, strict=True))
    kappa = cohen_kappa(labels, judged, labels=[0.0, 1.0]) if labels else math.nan
    return {
        CONTEXT_HALLUCINATION: Rate.of(low[ANSWERED], insufficient).model_dump(),
        "abstention_when_insufficient": Rate.of(low[ABSTAINED], insufficient).model_dump(),
        FALSE_REFUSAL: Rate.of(high[ABSTAINED], high[ABSTAINED] + high[ANSWERED]).model_dump(),
        **{side: dict(sorted(counts.items())) for side, counts in sides.items()},
        "no_sufficiency_verdict": dict(sorted(no_verdict.items())),
        "sufficiency_from": dict(sorted(sources.items())),
        "judge_agreement": None
        if not (labels or judge_no_verdict)
        else {
            "items": len(labels),
            "agree": agreeing,
            "share": agreeing / len(labels) if labels else None,
            "cohen_kappa": None if math.isnan(kappa) else kappa,
            "no_verdict": judge_no_verdict,
        },
    }


CHECK = _Sufficiency()
