"""Dataset translation filtered by round-trip chrF, after the INDIC QA BENCHMARK's data building.

Each item's question, reference answers and context passages (`contexts[i].text`, sentence by
sentence when the translator segments) are translated into a target language and back into
the item's own language; the item is kept when every one of those texts comes back with a
sentence chrF (sacrebleu, 0-100, `parakh.metrics.lexical.chrf`) of at least the threshold
(default 50). With a pivot language (the paper's Hindi), a text goes source -> pivot ->
target, and back the same way (target -> pivot -> source); a target or source that is the
pivot is translated directly. Every (item, language) gets a row saying kept, dropped, error
(a translation failed, with the reason) or skipped (already in that language), and the report
gives kept and dropped counts and the chrF distribution per language.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from parakh.metrics.lexical import chrf
from parakh.schema import Question
from parakh.translation.languages import LanguageTag
from parakh.translation.service import TranslationService
from parakh.translation.translate_test import source_tag

DEFAULT_THRESHOLD = 50.0
METRIC = (
    "chrF (sacrebleu sentence chrF, 0-100), the lowest over an item's question, answers and "
    "context passages"
)


class FieldRoundTrip(BaseModel):
    """One text of an item through the round trip."""

    model_config = ConfigDict(extra="forbid")

    field: str
    source: str
    translation: str | None = None
    back_translation: str | None = None
    chrf: float | None = None
    pivot_translation: str | None = None
    pivot_back_translation: str | None = None


class RoundTripRow(BaseModel):
    """One item in one target language: its fate, its score and every text on the way."""

    model_config = ConfigDict(extra="forbid")

    id: str
    source_language: str
    language: str
    status: Literal["kept", "dropped", "error", "skipped"]
    round_trip_chrf: float | None = None
    reason: str | None = None
    fields: list[FieldRoundTrip]
    pivot_language: str | None = None


def passes(score: float, threshold: float) -> bool:
    """The filter: a round trip at or above the threshold keeps the item."""
    return score >= threshold


def _context_field(i: int) -> str:
    return f"contexts[{i}].text"


def _item_texts(q: Question, contexts: bool = True) -> list[tuple[str, str]]:
    """(field, text) of every text that is translated; blank passages stay as they are."""
    texts = [("text", q.text)]
    texts += [(f"reference_answers[{i}]", a) for i, a in enumerate(q.reference_answers)]
    if contexts:
        texts += [(_context_field(i), p.text) for i, p in enumerate(q.contexts) if p.text.strip()]
    return texts


def hops(source: LanguageTag, target: LanguageTag, pivot: LanguageTag | None) -> list[LanguageTag]:
    """The languages a text passes through: source, the pivot unless it is either end, target."""
    if pivot is None or pivot.code in (source.code, target.code):
        return [source, target]
    return [source, pivot, target]


@dataclass
class _Chain:
    """One text through a chain of translations: the text after each hop, or the failure."""

    steps: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def last(self) -> str | None:
        return self.steps[-1] if self.error is None and self.steps else None


def _translate_chain(
    service: TranslationService, texts: Sequence[str], path: Sequence[LanguageTag]
) -> list[_Chain]:
    """Translate every text along `path`; a text that fails at a hop stops there."""
    chains = [_Chain() for _ in texts]
    current = dict(enumerate(texts))
    for a, b in zip(path, path[1:], strict=False):
        keys = list(current)
        results = service.translate_texts([current[k] for k in keys], a, b)
        current = {}
        for k, result in zip(keys, results, strict=True):
            if result.ok and result.text is not None:
                chains[k].steps.append(result.text)
                current[k] = result.text
            else:
                hop = f"{a.code}->{b.code}: " if len(path) > 2 else ""
                chains[k].error = f"{hop}{result.error or 'empty translation'}"
    return chains


def round_trip(
    service: TranslationService,
    items: Sequence[Question],
    languages: Sequence[str],
    threshold: float = DEFAULT_THRESHOLD,
    *,
    pivot: str | None = None,
    contexts: bool = True,
) -> tuple[list[RoundTripRow], dict[str, list[Question]]]:
    """(a row per item and language, the kept items translated, by language).

    `pivot`: a language every translation passes through (source -> pivot -> target and back
    the same way). `contexts`: also translate and filter on the items' context passages; off,
    the passages are copied unchanged.
    """
    pivot_tag = LanguageTag.of(pivot) if pivot is not None else None
    rows: list[RoundTripRow] = []
    kept: dict[str, list[Question]] = {}
    position = {q.id: i for i, q in enumerate(items)}
    for language in languages:
        target = LanguageTag.of(language)
        by_source: dict[LanguageTag, list[Question]] = defaultdict(list)
        for q in items:
            by_source[source_tag(q)].append(q)
        lang_rows: list[RoundTripRow] = []
        lang_kept: list[Question] = []
        for source, group in by_source.items():
            if source.code == target.code:
                lang_rows.extend(_skipped(q, source, target, contexts) for q in group)
                continue
            path = hops(source, target, pivot_tag)
            translated = _translate_group(service, group, path, contexts)
            for q, row in zip(group, translated, strict=True):
                row = _judge(row, threshold)
                lang_rows.append(row)
                if row.status == "kept":
                    lang_kept.append(translated_question(q, row, target, service.name))
        rows.extend(sorted(lang_rows, key=lambda r: position[r.id]))
        kept[target.code] = sorted(lang_kept, key=lambda q: position[q.meta["source_id"]])
    return rows, kept


def _skipped(q: Question, source: LanguageTag, target: LanguageTag, contexts: bool) -> RoundTripRow:
    return RoundTripRow(
        id=q.id,
        source_language=source.code,
        language=target.code,
        status="skipped",
        reason=f"already in {target.code}",
        fields=[FieldRoundTrip(field=f, source=t) for f, t in _item_texts(q, contexts)],
    )


def _translate_group(
    service: TranslationService,
    group: Sequence[Question],
    path: Sequence[LanguageTag],
    contexts: bool,
) -> list[RoundTripRow]:
    source, target = path[0], path[-1]
    pivoted = len(path) > 2
    places = [(i, f, t) for i, q in enumerate(group) for f, t in _item_texts(q, contexts)]
    forward = _translate_chain(service, [t for _, _, t in places], path)
    ok = [k for k, chain in enumerate(forward) if chain.last is not None]
    backward: dict[int, _Chain] = dict(
        zip(
            ok,
            _translate_chain(service, [forward[k].last or "" for k in ok], path[::-1]),
            strict=True,
        )
    )
    fields: dict[int, list[FieldRoundTrip]] = defaultdict(list)
    errors: dict[int, str] = {}
    for k, (i, name, text) in enumerate(places):
        there, back = forward[k], backward.get(k)
        error = there.error if there.error is not None else (back.error if back else None)
        if error is not None:
            errors.setdefault(i, f"{name}: {error}")
        back_text = back.last if back is not None else None
        fields[i].append(
            FieldRoundTrip(
                field=name,
                source=text,
                translation=there.last,
                back_translation=back_text,
                chrf=(
                    round(chrf(back_text, [text], source.code), 4)
                    if back_text is not None
                    else None
                ),
                pivot_translation=there.steps[0] if pivoted and there.steps else None,
                pivot_back_translation=(
                    back.steps[0] if pivoted and back is not None and back.steps else None
                ),
            )
        )
    return [
        RoundTripRow(
            id=q.id,
            source_language=source.code,
            language=target.code,
            status="error" if i in errors else "dropped",
            reason=errors.get(i),
            fields=fields[i],
            pivot_language=path[1].code if pivoted else None,
        )
        for i, q in enumerate(group)
    ]


def _judge(row: RoundTripRow, threshold: float) -> RoundTripRow:
    """Keep the row when every translated field's round trip reaches the threshold."""
    if row.status == "error":
        return row
    unscored = [f.field for f in row.fields if f.chrf is None]
    if unscored:
        reason = f"{unscored[0]}: no back-translation to score"
        return row.model_copy(update={"status": "dropped", "reason": reason})
    score = min(f.chrf for f in row.fields if f.chrf is not None)
    if passes(score, threshold):
        return row.model_copy(update={"status": "kept", "round_trip_chrf": score})
    worst = min(row.fields, key=lambda f: f.chrf if f.chrf is not None else 0.0)
    reason = f"{worst.field}: round-trip chrF {score:.2f} < {threshold:g}"
    return row.model_copy(update={"status": "dropped", "round_trip_chrf": score, "reason": reason})


def translated_question(
    q: Question, row: RoundTripRow, target: LanguageTag, translator: str
) -> Question:
    """The item in the target language, with where it came from in `meta`.

    Context passages that were translated carry their translation (title and relevance
    unchanged); passages that were not (blank, or contexts off) are copied as they are.
    """
    by_field = {f.field: f.translation or "" for f in row.fields}
    answers = [by_field[f"reference_answers[{i}]"] for i in range(len(q.reference_answers))]
    passages = [
        p.model_copy(update={"text": by_field[_context_field(i)]})
        if _context_field(i) in by_field
        else p
        for i, p in enumerate(q.contexts)
    ]
    provenance: dict[str, Any] = {
        "source_id": q.id,
        "source_language": q.language,
        "translator": translator,
        "round_trip_chrf": row.round_trip_chrf,
    }
    if row.pivot_language is not None:
        provenance["pivot_language"] = row.pivot_language
    if q.contexts:
        provenance["contexts_translated"] = sum(
            _context_field(i) in by_field for i in range(len(q.contexts))
        )
    return q.model_copy(
        update={
            "id": f"{q.id}-{target.code}",
            "text": by_field["text"],
            "language": target.code,
            "script": target.script,
            "response_language": None,
            "romanized": False,
            "code_mixed": False,
            "matrix_language": target.code,
            "label_source": {**q.label_source, "language": "config"},
            "reference_answers": answers,
            "contexts": passages,
            "translation": None,
            "meta": {**q.meta, **provenance},
        }
    )


def percentile(ordered: Sequence[float], p: float) -> float:
    """The p-th percentile (0-100) of sorted values, linearly interpolated."""
    k = (len(ordered) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def distribution(scores: Sequence[float]) -> dict[str, Any]:
    """Summary and a 10-point histogram of chrF scores (only the count when there are none)."""
    if not scores:
        return {"count": 0}
    ordered = sorted(scores)
    bins = [0] * 10
    for s in ordered:
        bins[min(int(s // 10), 9)] += 1
    summary: dict[str, Any] = {"count": len(ordered), "mean": round(statistics.fmean(ordered), 2)}
    for name, p in (
        ("min", 0),
        ("p10", 10),
        ("p25", 25),
        ("median", 50),
        ("p75", 75),
        ("p90", 90),
        ("max", 100),
    ):
        summary[name] = round(percentile(ordered, p), 2)
    summary["histogram"] = {f"{10 * b}-{10 * b + 10}": n for b, n in enumerate(bins)}
    return summary


def _field_kind(field_name: str) -> str:
    """`text`, `reference_answers` or `contexts`: the kind of field a reason names."""
    return field_name.split("[", 1)[0].split(":", 1)[0]


def report(
    rows: Sequence[RoundTripRow],
    translator: str,
    threshold: float,
    *,
    pivot: str | None = None,
    contexts: bool = True,
) -> dict[str, Any]:
    """Kept, dropped, error and skipped counts, the chrF distribution and, for dropped items,
    which kind of field (question, answers, contexts) fell below the threshold, per language."""
    by_language: dict[str, list[RoundTripRow]] = defaultdict(list)
    for row in rows:
        by_language[row.language].append(row)
    languages = {}
    for language, lang_rows in sorted(by_language.items()):
        counts = {
            s: sum(r.status == s for r in lang_rows)
            for s in ("kept", "dropped", "error", "skipped")
        }
        scored = [r.round_trip_chrf for r in lang_rows if r.round_trip_chrf is not None]
        judged = counts["kept"] + counts["dropped"]
        dropped_by = Counter(
            _field_kind(r.reason) for r in lang_rows if r.status == "dropped" and r.reason
        )
        languages[language] = {
            "items": len(lang_rows),
            **counts,
            "kept_share": round(counts["kept"] / judged, 4) if judged else None,
            "chrf": distribution(scored),
            "dropped_by_field": dict(sorted(dropped_by.items())),
        }
    return {
        "translator": translator,
        "threshold": threshold,
        "metric": METRIC,
        "pivot_language": pivot,
        "contexts": "translated" if contexts else "kept unchanged",
        "languages": languages,
    }
