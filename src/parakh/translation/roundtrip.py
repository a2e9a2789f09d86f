"""Dataset translation filtered by round-trip chrF, as the INDIC QA BENCHMARK built its data.

Each item's question and reference answers are translated into a target language and back
into the item's own language; the item is kept when every one of those texts comes back with
a sentence chrF (sacrebleu, 0-100, `parakh.metrics.lexical.chrf`) of at least the threshold
(default 50). Every (item, language) gets a row saying kept, dropped, error (a translation
failed, with the reason) or skipped (already in that language), and the report gives kept and
dropped counts and the chrF distribution per language.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from parakh.metrics.lexical import chrf
from parakh.schema import Question
from parakh.translation.languages import LanguageTag
from parakh.translation.service import TextTranslation, TranslationService
from parakh.translation.translate_test import source_tag

DEFAULT_THRESHOLD = 50.0
METRIC = "chrF (sacrebleu sentence chrF, 0-100), the lowest over an item's question and answers"


class FieldRoundTrip(BaseModel):
    """One text of an item through the round trip."""

    model_config = ConfigDict(extra="forbid")

    field: str
    source: str
    translation: str | None = None
    back_translation: str | None = None
    chrf: float | None = None


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


def passes(score: float, threshold: float) -> bool:
    """The filter: a round trip at or above the threshold keeps the item."""
    return score >= threshold


def _item_texts(q: Question) -> list[tuple[str, str]]:
    return [("text", q.text)] + [
        (f"reference_answers[{i}]", a) for i, a in enumerate(q.reference_answers)
    ]


def round_trip(
    service: TranslationService,
    items: Sequence[Question],
    languages: Sequence[str],
    threshold: float = DEFAULT_THRESHOLD,
) -> tuple[list[RoundTripRow], dict[str, list[Question]]]:
    """(a row per item and language, the kept items translated, by language)."""
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
                lang_rows.extend(_skipped(q, source, target) for q in group)
                continue
            for q, row in zip(group, _translate_group(service, group, source, target), strict=True):
                row = _judge(row, threshold)
                lang_rows.append(row)
                if row.status == "kept":
                    lang_kept.append(translated_question(q, row, target, service.name))
        rows.extend(sorted(lang_rows, key=lambda r: position[r.id]))
        kept[target.code] = sorted(lang_kept, key=lambda q: position[q.meta["source_id"]])
    return rows, kept


def _skipped(q: Question, source: LanguageTag, target: LanguageTag) -> RoundTripRow:
    return RoundTripRow(
        id=q.id,
        source_language=source.code,
        language=target.code,
        status="skipped",
        reason=f"already in {target.code}",
        fields=[FieldRoundTrip(field=f, source=t) for f, t in _item_texts(q)],
    )


def _translate_group(
    service: TranslationService,
    group: Sequence[Question],
    source: LanguageTag,
    target: LanguageTag,
) -> list[RoundTripRow]:
    places = [(i, f, t) for i, q in enumerate(group) for f, t in _item_texts(q)]
    forward = service.translate_texts([t for _, _, t in places], source, target)
    ok = [k for k, r in enumerate(forward) if r.ok]
    backward: dict[int, TextTranslation] = dict(
        zip(
            ok,
            service.translate_texts([forward[k].text or "" for k in ok], target, source),
            strict=True,
        )
    )
    fields: dict[int, list[FieldRoundTrip]] = defaultdict(list)
    errors: dict[int, str] = {}
    for k, (i, field, text) in enumerate(places):
        back = backward.get(k)
        error = (
            forward[k].error
            if not forward[k].ok
            else (back.error if back and not back.ok else None)
        )
        if error is not None:
            errors.setdefault(i, f"{field}: {error}")
        score = (
            round(chrf(back.text, [text], source.code), 4)
            if back is not None and back.ok and back.text is not None
            else None
        )
        fields[i].append(
            FieldRoundTrip(
                field=field,
                source=text,
                translation=forward[k].text,
                back_translation=back.text if back else None,
                chrf=score,
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
        )
        for i, q in enumerate(group)
    ]


def _judge(row: RoundTripRow, threshold: float) -> RoundTripRow:
    if row.status == "error":
        return row
    score = min(f.chrf for f in row.fields if f.chrf is not None)
    if passes(score, threshold):
        return row.model_copy(update={"status": "kept", "round_trip_chrf": score})
    worst = min(row.fields, key=lambda f: f.chrf if f.chrf is not None else 0.0)
    reason = f"{worst.field}: round-trip chrF {score:.2f} < {threshold:g}"
    return row.model_copy(update={"status": "dropped", "round_trip_chrf": score, "reason": reason})


def translated_question(
    q: Question, row: RoundTripRow, target: LanguageTag, translator: str
) -> Question:
    """The item in the target language, with where it came from in `meta`."""
    by_field = {f.field: f.translation or "" for f in row.fields}
    answers = [by_field[f"reference_answers[{i}]"] for i in range(len(q.reference_answers))]
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
            "translation": None,
            "meta": {
                **q.meta,
                "source_id": q.id,
                "source_language": q.language,
                "translator": translator,
                "round_trip_chrf": row.round_trip_chrf,
            },
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


def report(rows: Sequence[RoundTripRow], translator: str, threshold: float) -> dict[str, Any]:
    """Kept, dropped, error and skipped counts and the chrF distribution per language."""
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
        languages[language] = {
            "items": len(lang_rows),
            **counts,
            "kept_share": round(counts["kept"] / judged, 4) if judged else None,
            "chrf": distribution(scored),
        }
    return {
        "translator": translator,
        "threshold": threshold,
        "metric": METRIC,
        "languages": languages,
    }
