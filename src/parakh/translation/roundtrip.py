"""Dataset translation filtered by round-trip chrF.

Each item's question, reference answers and context passages (`contexts[i].text`, sentence by
sentence when the translator segments) are translated into a target language and checked by
back-translation: an item is kept when every one of those texts scores a sentence chrF
(sacrebleu, 0-100, `parakh.metrics.lexical.chrf`) of at least the threshold (default 50).

With a pivot language (`pivot="hi"`), a text goes source -> pivot -> target; a target or source
that is the pivot is translated directly. Two filters:

- `per_hop` (the default): every hop is checked by its own back-translation, in the language it
  left from: source -> pivot by pivot -> source against the source text, pivot -> target by
  target -> pivot against the pivot text. The INDIC QA BENCHMARK built its data this way:
  English -> Hindi filtered on the Hindi -> English back-translation, then the kept Hindi ->
  each language filtered on the back-translation into Hindi (its §2.2 and Figures 12-17).
- `end_to_end`: one round trip, target -> pivot -> source, scored against the source text.
  Parakh's own variant: it also catches errors of the way back through the pivot.

Without a pivot both are the same single round trip. Every (item, language) gets a row
(`RoundTripRow`), and the report per language (`report`).
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from parakh.errors import ConfigError
from parakh.metrics.lexical import chrf
from parakh.schema import Question
from parakh.text.languages import LanguageTag
from parakh.translation.service import TranslationService
from parakh.translation.translate_test import source_tag

DEFAULT_THRESHOLD = 50.0
Filtering = Literal["per_hop", "end_to_end"]
FILTERINGS: tuple[Filtering, ...] = ("per_hop", "end_to_end")
METRIC = {
    "per_hop": "chrF (sacrebleu sentence chrF, 0-100) of each hop's own back-translation, the "
    "lowest over an item's hops, question, answers and context passages",
    "end_to_end": "chrF (sacrebleu sentence chrF, 0-100) of the back-translation into the "
    "source language, the lowest over an item's question, answers and context passages",
}


class _BackTranslated(BaseModel):
    """A translation's back-translation and its chrF against the text it left from."""

    model_config = ConfigDict(extra="forbid")

    back_translation: str | None = None
    chrf: float | None = None


class HopRoundTrip(_BackTranslated):
    """One hop of a text (a -> b), checked by its own back-translation (b -> a) in a."""

    hop: str
    translation: str


class FieldRoundTrip(_BackTranslated):
    """One text of an item through the round trip."""

    field: str
    source: str
    translation: str | None = None
    pivot_translation: str | None = None
    pivot_back_translation: str | None = None
    hops: list[HopRoundTrip] = []


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
    filtering: Filtering = "per_hop"


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
    service: TranslationService, texts: Sequence[str], path: Sequence[LanguageTag], labelled: bool
) -> list[_Chain]:
    """Translate every text along `path`; a text that fails at a hop stops there, its error
    naming the hop where `labelled`."""
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
                hop = f"{a.code}->{b.code}: " if labelled else ""
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
    filtering: Filtering = "per_hop",
) -> tuple[list[RoundTripRow], dict[str, list[Question]]]:
    """(a row per item and language, the kept items translated, by language).

    `pivot`: a language every translation passes through (source -> pivot -> target).
    `contexts`: also translate and filter on the items' context passages; off, the passages
    are copied unchanged. `filtering`: `per_hop` or `end_to_end` (the module docstring).
    """
    if filtering not in FILTERINGS:
        raise ConfigError(f"round-trip filtering {filtering!r}: expected one of {FILTERINGS}")
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
                lang_rows.extend(_skipped(q, source, target, contexts, filtering) for q in group)
                continue
            path = hops(source, target, pivot_tag)
            translated = _translate_group(service, group, path, contexts, filtering)
            for q, row in zip(group, translated, strict=True):
                row = _judge(row, threshold)
                lang_rows.append(row)
                if row.status == "kept":
                    lang_kept.append(translated_question(q, row, target, service.name))
        rows.extend(sorted(lang_rows, key=lambda r: position[r.id]))
        kept[target.code] = sorted(lang_kept, key=lambda q: position[q.meta["source_id"]])
    return rows, kept


def _skipped(
    q: Question, source: LanguageTag, target: LanguageTag, contexts: bool, filtering: Filtering
) -> RoundTripRow:
    return RoundTripRow(
        id=q.id,
        source_language=source.code,
        language=target.code,
        status="skipped",
        reason=f"already in {target.code}",
        fields=[FieldRoundTrip(field=f, source=t) for f, t in _item_texts(q, contexts)],
        filtering=filtering,
    )


def _translate_group(
    service: TranslationService,
    group: Sequence[Question],
    path: Sequence[LanguageTag],
    contexts: bool,
    filtering: Filtering,
) -> list[RoundTripRow]:
    source, target = path[0], path[-1]
    places = [(i, f, t) for i, q in enumerate(group) for f, t in _item_texts(q, contexts)]
    texts = [t for _, _, t in places]
    forward = _translate_chain(service, texts, path, len(path) > 2)
    fields: dict[int, list[FieldRoundTrip]] = defaultdict(list)
    errors: dict[int, str] = {}
    for (i, name, text), chain, (trip, error) in zip(
        places, forward, _back_check(service, texts, forward, path, filtering), strict=True
    ):
        if error is not None:
            errors.setdefault(i, f"{name}: {error}")
        pivot_translation = chain.steps[0] if len(path) > 2 and chain.steps else None
        fields[i].append(
            FieldRoundTrip(
                field=name,
                source=text,
                translation=chain.last,
                pivot_translation=pivot_translation,
                **trip,
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
            pivot_language=path[1].code if len(path) > 2 else None,
            filtering=filtering,
        )
        for i, q in enumerate(group)
    ]


def _score(back_translation: str | None, text: str, language: LanguageTag) -> float | None:
    """Sentence chrF of a back-translation against the text it left from, or None without one."""
    if back_translation is None:
        return None
    return round(chrf(back_translation, [text], language.code), 4)


# A text's back-translation fields of `FieldRoundTrip`, and the first failure on its way.
BackChecked = tuple[dict[str, Any], str | None]


def _back_check(
    service: TranslationService,
    texts: Sequence[str],
    forward: Sequence[_Chain],
    path: Sequence[LanguageTag],
    filtering: Filtering,
) -> list[BackChecked]:
    """`end_to_end`: back the whole way (target -> pivot -> source), scored against the source
    text. `per_hop`: each hop a -> b back by b -> a, scored against the text in a; the field's
    chrF is its lowest hop's, or None when a hop is missing."""
    last = len(path) - 1
    spans = [(0, last)] if filtering == "end_to_end" else [(h, h + 1) for h in range(last)]
    backs: list[list[_Chain]] = [[] for _ in texts]  # per text, one per span it reached
    for i, j in spans:
        reached = [k for k, chain in enumerate(forward) if len(chain.steps) >= j]
        chains = _translate_chain(
            service, [forward[k].steps[j - 1] for k in reached], path[i : j + 1][::-1], last > 1
        )
        for k, chain in zip(reached, chains, strict=True):
            backs[k].append(chain)
    checked: list[BackChecked] = []
    for k, text in enumerate(texts):
        # a failed back-translation is on an earlier hop than a failed forward one
        error = next((c.error for c in backs[k] if c.error), forward[k].error)
        if filtering == "end_to_end":
            back = backs[k][0] if backs[k] else _Chain()
            fields: dict[str, Any] = {
                "back_translation": back.last,
                "chrf": _score(back.last, text, path[0]),
                "pivot_back_translation": back.steps[0] if last > 1 and back.steps else None,
            }
        else:
            left = [text, *forward[k].steps]  # the text in each language of the path
            trips = [
                HopRoundTrip(
                    hop=f"{path[h].code}->{path[h + 1].code}",
                    translation=forward[k].steps[h],
                    back_translation=chain.last,
                    chrf=_score(chain.last, left[h], path[h]),
                )
                for h, chain in enumerate(backs[k])
            ]
            scores = [t.chrf for t in trips if t.chrf is not None]
            fields = {
                # back in the source language: the first hop's own back-translation
                "back_translation": trips[0].back_translation if trips else None,
                "chrf": min(scores) if len(scores) == last else None,
                "hops": trips,
            }
        checked.append((fields, error))
    return checked


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
    worst = min(row.fields, key=lambda f: f.chrf or 0.0)
    hop = f"{min(worst.hops, key=lambda t: t.chrf or 0.0).hop} " if worst.hops else ""
    reason = f"{worst.field}: {hop}round-trip chrF {score:.2f} < {threshold:g}"
    return row.model_copy(update={"status": "dropped", "round_trip_chrf": score, "reason": reason})


def translated_question(
    q: Question, row: RoundTripRow, target: LanguageTag, translator: str
) -> Question:
    """The item in the target language, with where it came from in `meta`. Passages not
    translated (blank, or contexts off) are copied; the others keep their title and relevance."""
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
        "round_trip_filtering": row.filtering,
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
    bins = Counter(min(int(s // 10), 9) for s in ordered)
    summary: dict[str, Any] = {"count": len(ordered), "mean": round(statistics.fmean(ordered), 2)}
    points = {"min": 0, "p10": 10, "p25": 25, "median": 50, "p75": 75, "p90": 90, "max": 100}
    summary.update({name: round(percentile(ordered, p), 2) for name, p in points.items()})
    summary["histogram"] = {f"{10 * b}-{10 * b + 10}": bins[b] for b in range(10)}
    return summary


def report(
    rows: Sequence[RoundTripRow],
    translator: str,
    threshold: float,
    *,
    pivot: str | None = None,
    contexts: bool = True,
    filtering: Filtering = "per_hop",
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
        dropped_by = Counter(  # the kind of field a reason names: text, reference_answers, ...
            r.reason.split("[", 1)[0].split(":", 1)[0]
            for r in lang_rows
            if r.status == "dropped" and r.reason
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
        "metric": METRIC[filtering],
        "filtering": filtering,
        "pivot_language": pivot,
        "contexts": "translated" if contexts else "kept unchanged",
        "languages": languages,
    }
