"""The `groundedness` check (parakh.judging.checks): each sentence of an answer, split by
`parakh.text.sentences`, judged against the chunks its model saw: supported, not supported or
contradicted. One call per sampled answer to the judge's one model (no jury), through the rubric
judge's cache, progress file and repair (key `<question id>::groundedness`).

The judge writes {"sentences": [{"index": 1, "verdict": "supported", "chunk": 2}, ...]}, one
entry a numbered sentence, a supported or contradicted one citing a chunk by number, a not
supported one null. The schema, built per answer, enumerates both numbers; the parser checks
them again, so a sentence missing, twice or out of range, or an unknown chunk, is `invalid`
with the reason. A request's `max_tokens` is its schema's bound, so no valid output is cut off.

The `grounded_sentences` row's `label` has a letter a sentence (`VERDICTS`: s, n, c), which the
answers page marks; its justification lists each verdict with the chunk id.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parakh.backends.base import ChatRequest
from parakh.config.base import Strict
from parakh.config.loading import load_named
from parakh.config.model import ModelConfig
from parakh.errors import ConfigError
from parakh.judging.ballot_rows import rubric_judgments
from parakh.judging.checks import CheckInputs
from parakh.judging.hardening import injection_cues
from parakh.judging.judge_context import CONTEXT_CUT, NO_CHUNKS, fit_knowledge_base
from parakh.judging.judge_selection import Panel, judge_models, make_panel
from parakh.judging.llm_judge import Ballot, collect_ballots, escape_block, judge_key, not_judgeable
from parakh.judging.parse import Verdict, json_object
from parakh.metrics.rubric import Criterion, Rubric, Scale
from parakh.metrics.specs import CONTRADICTION, GROUNDED, VERDICTS, MetricSpec, rate_spec
from parakh.prompts.builder import PER_TURN_TOKENS, TokenCounter
from parakh.schema import Judgment, Question, Retrieval, RetrievedChunk
from parakh.text.sentences import split_sentences

NAME = "groundedness"
CITING = ("supported", "contradicted")  # the verdicts that cite a chunk
KEYS = ("index", "verdict", "chunk")


class GroundednessPrompt(Strict):
    """conf/prompt/check_groundedness.yaml: format strings over knowledge_base, question,
    sentences and output_format."""

    name: str
    system: str
    user: str


@dataclass(frozen=True)
class SentenceVerdicts(Verdict):
    """A valid output: each sentence's verdict and the id of the chunk it cites (or None)."""

    sentences: tuple[tuple[str, str | None], ...] = ()

    @property
    def label(self) -> str:
        return "".join(VERDICTS[verdict] for verdict, _ in self.sentences)


@dataclass(frozen=True)
class SentenceForm:
    """What one answer's request asks for (an `llm_judge.OutputForm`): a verdict for each of
    its `sentences`, citing the chunks `chunk_ids` by number from 1."""

    sentences: int
    chunk_ids: tuple[str, ...]

    def output_format(self) -> str:
        entry = (
            '{"index": <sentence number>, "verdict": "supported" or "not_supported" or '
            '"contradicted", "chunk": <number of the chunk that supports or contradicts it; '
            "null when not_supported>}"
        )
        return f'{{"sentences": [{entry}, ...]}}, one for each of the {self.sentences} sentences'

    def json_schema(self) -> dict[str, Any]:
        def obj(**properties: Any) -> dict[str, Any]:
            strict = {"required": list(properties), "additionalProperties": False}
            return {"type": "object", "properties": properties, **strict}

        def numbers(n: int) -> dict[str, Any]:
            return {"type": "integer", "enum": list(range(1, n + 1))}

        def entry(verdicts: list[str], chunk: dict[str, Any]) -> dict[str, Any]:
            verdict = {"type": "string", "enum": verdicts}
            return obj(index=numbers(self.sentences), verdict=verdict, chunk=chunk)

        items = entry(["not_supported"], {"type": "null"})
        if self.chunk_ids:
            items = {"anyOf": [entry(list(CITING), numbers(len(self.chunk_ids))), items]}
        n = self.sentences
        return obj(sentences={"type": "array", "items": items, "minItems": n, "maxItems": n})

    def max_output_tokens(self) -> int:
        """An upper bound on the tokens (one a byte at most) of any output the schema admits,
        counted as `Rubric.max_output_tokens` counts (a space after each `:` and `,`)."""
        worst = max(
            len(json.dumps({"index": self.sentences, "verdict": verdict, "chunk": chunk}))
            for verdict, chunk in (("not_supported", None), ("contradicted", len(self.chunk_ids)))
        )
        return len(json.dumps({"sentences": []})) + 4 + self.sentences * (worst + 2)

    def parse(self, raw: str | None, max_chars: int | None = None) -> Verdict:
        """The verdicts in `raw`, or an invalid verdict saying why there are none."""
        found = json_object(raw)
        if isinstance(found, str):
            return Verdict(reason=found)
        if list(found) != ["sentences"] or not isinstance(found["sentences"], list):
            return Verdict(reason='expected one key, "sentences", holding a list')
        said: dict[int, tuple[str, str | None]] = {}
        for entry in found["sentences"]:
            checked = self._entry(entry)
            if isinstance(checked, str) or checked[0] in said:
                return Verdict(reason=checked if isinstance(checked, str) else "a sentence twice")
            said[checked[0]] = checked[1:]
        if len(said) < self.sentences:
            missing = sorted(set(range(1, self.sentences + 1)) - set(said))
            return Verdict(reason=f"no verdict for sentence(s) {missing}")
        sentences = tuple(said[i] for i in range(1, self.sentences + 1))
        verdicts = [verdict for verdict, _ in sentences]
        scores = {
            GROUNDED: verdicts.count("supported") / len(verdicts),
            CONTRADICTION: float("contradicted" in verdicts),
        }
        listed = "; ".join(
            f"{i} {verdict}" + (f" ({chunk})" if chunk else "")
            for i, (verdict, chunk) in enumerate(sentences, 1)
        )
        return SentenceVerdicts(scores=scores, justification=listed, sentences=sentences)

    def _entry(self, entry: Any) -> tuple[int, str, str | None] | str:
        """(index, verdict, chunk id) of one entry, or what is wrong with it."""
        if not isinstance(entry, dict) or sorted(entry) != sorted(KEYS):
            return f"an entry is not an object with exactly the keys {list(KEYS)}: {entry!r}"
        index, verdict, chunk = (entry[k] for k in KEYS)
        if type(index) is not int or not 1 <= index <= self.sentences:
            return f"sentence index {index!r} is not one of 1..{self.sentences}"
        if verdict not in VERDICTS:
            return f"sentence {index}: unknown verdict {verdict!r}"
        if verdict not in CITING:
            return (index, verdict, None) if chunk is None else f"sentence {index}: {verdict} cites"
        if type(chunk) is not int or not 1 <= chunk <= len(self.chunk_ids):
            return f"sentence {index}: chunk {chunk!r} is not one of 1..{len(self.chunk_ids)}"
        return index, verdict, self.chunk_ids[chunk - 1]


def seen_chunks(retrieval: Retrieval | None) -> list[RetrievedChunk]:
    """The chunks in the order the judge numbers them: raw, then KB updates."""
    return [] if retrieval is None else [*retrieval.raw_chunks, *retrieval.kb_update_chunks]


def _ask(
    inputs: CheckInputs,
    prompt: GroundednessPrompt,
    juror: ModelConfig,
    count: TokenCounter,
    q: Question,
) -> tuple[ChatRequest, SentenceForm, bool] | str:
    """The request for one answer, its form and whether its chunks were cut to fit the judge
    model's window; or why there is none (the window holds none of its chunks)."""
    sentences = split_sentences(inputs.answers[q.id].response or "")
    retrieval = inputs.chunks.get(q.id)
    chunks = seen_chunks(retrieval)
    form = SentenceForm(len(sentences), tuple(c.chunk_id for c in chunks))
    listed = "\n".join(f"Sentence {i}: {s}" for i, s in enumerate(sentences, 1))
    values = {"question": escape_block(q.text), "sentences": escape_block(listed)}
    values["output_format"] = form.output_format()

    def render(kb: str) -> tuple[tuple[str, str], ...]:
        filled = {**values, "knowledge_base": escape_block(kb)}
        return tuple(
            (role, getattr(prompt, role).format_map(filled)) for role in ("system", "user")
        )

    max_tokens = form.max_output_tokens()
    window = getattr(juror, "max_model_len", None) or juror.context_window
    rest = sum(count(t) + PER_TURN_TOKENS for _, t in render(""))
    budget = max(0, window - max_tokens - inputs.judge.margin_tokens - rest)
    numbered = [c.model_copy(update={"text": f"[{k}] {c.text}"}) for k, c in enumerate(chunks, 1)]
    raw = len(retrieval.raw_chunks) if retrieval else 0
    shown = Retrieval(question_id=q.id, raw_chunks=numbered[:raw], kb_update_chunks=numbered[raw:])
    kb, cut = fit_knowledge_base(shown, budget, lambda t: count(escape_block(t)))
    if chunks and kb == NO_CHUNKS:
        return (
            f"not sent: the judge model's window ({window} tokens) holds no chunk beside the "
            f"prompt and an output of up to {max_tokens} tokens for {len(sentences)} sentences"
        )
    sampling = juror.sampling.model_copy(update={"max_tokens": max_tokens})
    return ChatRequest(judge_key(q.id, NAME), render(kb), sampling, form.json_schema()), form, cut


def _ballots(
    inputs: CheckInputs, juror: ModelConfig, panel: Panel
) -> tuple[dict[str, Ballot], set[str]]:
    """The ballot of each sampled, judgeable answer by question id (an error where it could not
    be asked), and the questions whose chunks were cut to fit."""
    to_judge = [
        q
        for q in inputs.questions
        if q.id in inputs.sampled and not_judgeable(inputs.answers[q.id]) is None
    ]
    if not panel.active or not to_judge:
        return {}, set()
    prompt = load_named("prompt", "check_groundedness", GroundednessPrompt)
    backend = inputs.calls.backend_factory(juror)
    try:
        asked = {q.id: _ask(inputs, prompt, juror, backend.count_tokens, q) for q in to_judge}
        sent = {qid: a for qid, a in asked.items() if not isinstance(a, str)}
        forms = {request.key: form for request, form, _ in sent.values()}
        requests = [request for request, _, _ in sent.values()]
        description = f"{NAME} {inputs.generator.name} ({juror.name})"
        got = collect_ballots(
            inputs.judge, backend, requests, forms, inputs.calls, juror.name, description
        )
    finally:
        backend.close()
    ballots = {
        qid: Ballot(None, a) if isinstance(a, str) else got[a[0].key] for qid, a in asked.items()
    }
    return ballots, {qid for qid, (_, _, cut) in sent.items() if cut}


_SEEN = "by the chunks the model saw (LLM judge)"
# The two rows of an answer, as `ballot_rows.rubric_judgments` writes a rubric's (0..1 scores).
_ROWS = Rubric(
    name=NAME,
    title="Groundedness",
    description="each sentence against the chunks the answer's model saw",
    uses_reference=False,
    scale=Scale(min=0, max=1, integer=False),
    scoring={0: "no sentence supported", 1: "every sentence supported"},
    criteria=[Criterion(name=m, key=m, title=m, description=m) for m in (GROUNDED, CONTRADICTION)],
)


@dataclass(frozen=True)
class Groundedness:
    """The LLM check, by the judge's one model (`judge.model`)."""

    name: str = NAME
    metrics: tuple[MetricSpec, ...] = (
        MetricSpec(GROUNDED, "higher", 0.0, 1.0, "mean", f"share of sentences supported {_SEEN}"),
        rate_spec(CONTRADICTION, f"share of answers with a sentence contradicted {_SEEN}"),
    )

    def rows(self, inputs: CheckInputs) -> list[Judgment]:
        judge = inputs.judge
        if judge.jury is not None:
            raise ConfigError(
                f"judge '{judge.name}': the {NAME} check takes one judge model (`judge.model`), "
                "not a jury; run it under a judge config of its own"
            )
        (juror,) = judge_models(judge)
        panel = make_panel(judge, [juror], inputs.generator)
        ballots, cut = _ballots(inputs, juror, panel)
        rows = []
        for q in inputs.questions:
            generation, ballot = inputs.answers[q.id], ballots.get(q.id)
            cues = injection_cues(generation.response)
            votes, sampled = {juror.name: ballot}, q.id in inputs.sampled
            verdict = ballot.verdict if ballot else None
            for row in rubric_judgments(
                judge.name, _ROWS, q, generation, panel, votes, sampled=sampled, injection_cues=cues
            ):
                if q.id in cut:
                    row.flags = [*row.flags, CONTEXT_CUT]
                if row.metric == GROUNDED and isinstance(verdict, SentenceVerdicts):
                    row.label = verdict.label  # a valid verdict: the row is ok
                rows.append(row)
        return rows

    def summarize(self, rows: Sequence[Judgment]) -> dict[str, Any]:
        """How many answers and sentences were judged, and each verdict's count."""
        labels = [r.label or "" for r in rows if r.metric == GROUNDED and r.status == "ok"]
        letters = Counter("".join(labels))
        return {
            "answers": len(labels),
            "sentences": sum(letters.values()),
            "verdicts": {verdict: letters[letter] for verdict, letter in VERDICTS.items()},
        }


CHECK = Groundedness()
