"""NoMIRACL: classify a model's relevance verdict and compute hallucination and error rates.

NoMIRACL (Thakur et al., Findings of EMNLP 2024) gives a model a question and ten passages and
asks it to answer "Yes, answer is present" or "I don't know". On the non-relevant subset (no
passage answers the question) saying "answer is present" is a hallucination; on the relevant
subset saying "I don't know" is an error.

Rates follow the paper's formulas (§2.1). An output that is neither answer is Invalid (§4.1):
it is no FP, TN, FN or TP, so it is in no denominator, and is counted on its own:

    hallucination rate = FP / (FP + TN)   non-relevant subset; FP = "answer present", TN = IDK
    error rate         = FN / (FN + TP)   relevant subset;     FN = IDK, TP = "answer present"

The released code (`nomiracl/eval/metrics.py`) divides by all outputs of the subset, invalid
ones included, and parses with stricter substring rules: `parakh.metrics.nomiracl_released`,
reported beside these rates. This module's classifier is Parakh's lenient one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

from parakh.text.normalize import canonical_text

NomiraclLabel = Literal["i_dont_know", "answer_present", "invalid"]
NomiraclSubset = Literal["relevant", "non_relevant"]
I_DONT_KNOW: NomiraclLabel = "i_dont_know"
ANSWER_PRESENT: NomiraclLabel = "answer_present"
INVALID: NomiraclLabel = "invalid"
SUBSETS: tuple[str, ...] = get_args(NomiraclSubset)
LABELS: tuple[str, ...] = get_args(NomiraclLabel)

# Phrases that state a verdict, matched on case-folded text with straight quotes. Where two
# phrases overlap, the one starting first wins, then the longer ("no answer is present" is IDK,
# "উত্তর উপস্থিত নেই" is IDK although it contains "উত্তর উপস্থিত").
_VERDICT_PHRASES: tuple[tuple[NomiraclLabel, str], ...] = (
    # English
    (I_DONT_KNOW, r"\bi\s+(?:don'?t|do\s+not|dont)\s+know\b"),
    (I_DONT_KNOW, r"\b(?:the\s+|an\s+)?answers?\s+(?:is\s+|are\s+)?(?:not|n't)\s+present\b"),
    (I_DONT_KNOW, r"\banswer\s+isn'?t\s+present\b"),
    (I_DONT_KNOW, r"\bno\s+answer\s+(?:is\s+)?present\b"),
    (ANSWER_PRESENT, r"\b(?:there\s+is\s+)?(?:the\s+|an\s+)?answer\s+(?:is\s+)?present\b"),
    (ANSWER_PRESENT, r"\byes,?\s+i\s+know\b(?!\s+the\s+question)"),
    (ANSWER_PRESENT, r"\b(?:answer|output|response)\s*(?:is|:)\s*\"?\s*yes\b"),
    (I_DONT_KNOW, r"\b(?:answer|output|response)\s*(?:is|:)\s*\"?\s*no\b"),
    # Hindi
    (I_DONT_KNOW, r"मुझे\s+(?:नहीं\s+पता|पता\s+नहीं|नहीं\s+मालूम|मालूम\s+नहीं)"),
    (I_DONT_KNOW, r"मै[ंँ]?\s+(?:यह\s+)?(?:नहीं\s+जानत[ाी]|जानत[ाी]\s+नहीं)"),
    (I_DONT_KNOW, r"(?:उत्तर|जवाब)\s+(?:मौजूद|उपलब्ध)\s+नहीं"),
    (ANSWER_PRESENT, r"(?:उत्तर|जवाब)\s+(?:मौजूद|उपलब्ध)\s+है"),
    # Telugu
    (I_DONT_KNOW, r"నాకు\s+(?:తెలియదు|తెలీదు)"),
    (I_DONT_KNOW, r"సమాధానం\s+(?:అందుబాటులో\s+)?లేదు"),
    (ANSWER_PRESENT, r"సమాధానం\s+(?:ఉంది|ఉన్నది)"),
    # Bengali
    (I_DONT_KNOW, r"আমি\s+জানি\s+না"),
    (I_DONT_KNOW, r"উত্তর\s+(?:উপস্থিত\s+)?নেই"),
    (ANSWER_PRESENT, r"উত্তর\s+(?:আছে|উপস্থিত)"),
)
_VERDICT_RES = tuple((label, re.compile(pattern)) for label, pattern in _VERDICT_PHRASES)

# An output that opens with a bare yes / no (in the first statement, with no verdict phrase
# there) answers the yes/no question the prompt asks: "No" means the answer is not present.
_OPENING_YES_NO = re.compile(
    r"(?P<yes>yes|yeah|yep|हाँ|हां|जी\s+हाँ|जी\s+हां|అవును|হ্যাঁ|হাঁ)"
    r"|(?P<no>no|nope|नहीं|లేదు|না)"
)
_OPENING_WORD_END = re.compile(r"[\s,.;:!\-]|$")

# The instruction's two options echoed back ("respond as either "Yes, answer is present" or
# "I don't know"", "a simple "Yes" or "No"") state no verdict, nor does a hedge ("whether the
# answer is present"). They are blanked out before verdict phrases are searched.
_OPTION = (
    r"\"?\s*\b(?:yes,?\s+(?:the\s+)?answer\s+is\s+present|i\s+don'?t\s+know|yes|no)\b"
    r"\s*[.!]?\s*\"?"
)
_ECHO = re.compile(rf"{_OPTION}\s*,?\s*(?:or|या|और)\s+(?:either\s+)?{_OPTION}")
_HEDGE = re.compile(r"\b(?:whether|if)\s+(?:the\s+|an\s+)?answer\s+is\s+(?:not\s+)?present\b")
# "Answer is not present in [2], [4]" / "in the other contexts" speaks of some passages only; a
# query has an answer if any passage has one, so such a line is no "I don't know".
_SCOPED_ABSENCE = re.compile(
    r"\banswer\s+is\s+not\s+present\s+in\s+(?:(?:any\s+of\s+)?the\s+other\s+contexts?"
    r"|(?:contexts?\s*)?\[?\d)"
)
# An output that only cites passages ("[6]", "[1], [3]") points at where the answer is.
_CITATIONS_ONLY = re.compile(r"^[\s\W]*(?:\[\d+\][\s,]*(?:and\s+)?)+[\s\W]*$")

# A statement ends at a line break or at . ! ? danda when followed by space or the end.
_STATEMENT_END = re.compile(r"\n|[.!?।॥]+(?=\s|$)")
# What may precede a verdict phrase at the start of its statement: list markers, quotes,
# "Answer:" / "Output:", a bare yes/no, an article.
_OPENING_PREFIX = re.compile(
    r"^[\W\d_]*(?:(?:final\s+)?(?:answer|output|response|label|verdict)\s*:[\W_]*)?"
    r"(?:(?:yes|no)\b[\W_]*)?(?:the\s+|an?\s+)?$"
)
# What may precede a verdict phrase that concludes a rationale.
_CONCLUDING_PREFIX = re.compile(
    r"(?:\b(?:therefore|thus|hence|so|consequently|in\s+conclusion|in\s+summary|to\s+conclude"
    r"|in\s+short|overall|the\s+answer\s+is|my\s+answer\s+is|i\s+would\s+say"
    r"|i\s+would\s+respond|i\s+will\s+respond)\b"
    r"|\b(?:final\s+answer|answer|output|response|verdict|label)\s*:|इसलिए|अतः)"
    r"[\W_]*(?:(?:yes|no)\b[\W_]*)?(?:the\s+|an?\s+)?$"
)

# curly, prime and grave apostrophes become ', curly and angle quotes "
_QUOTES = str.maketrans(
    "\u2018\u2019\u02bc\u2032`\u00b4\u201c\u201d\u201e\u00ab\u00bb", "''''''\"\"\"\"\""
)


@dataclass(frozen=True)
class _Mention:
    label: NomiraclLabel
    start: int
    opening: bool
    concluding: bool


def _prepare(output: str) -> str:
    text = unicodedata.normalize("NFKC", canonical_text(output)).translate(_QUOTES).casefold()
    for non_verdict in (_ECHO, _HEDGE, _SCOPED_ABSENCE):
        text = non_verdict.sub(lambda m: " " * len(m.group()), text)
    return text


def _find_mentions(text: str) -> list[_Mention]:
    matches = sorted(
        (
            (m.start(), -(m.end() - m.start()), label)
            for label, regex in _VERDICT_RES
            for m in regex.finditer(text)
        ),
    )
    starts = [0] + [m.end() for m in _STATEMENT_END.finditer(text)]
    mentions: list[_Mention] = []
    covered_until = -1
    for start, neg_length, label in matches:
        if start < covered_until:
            continue
        covered_until = start - neg_length
        statement_start = max(s for s in starts if s <= start)
        prefix = text[statement_start:start]
        mentions.append(
            _Mention(
                label,
                start,
                bool(_OPENING_PREFIX.match(prefix)),
                bool(_CONCLUDING_PREFIX.search(prefix)),
            )
        )
    return mentions


def _opening_yes_no(text: str, mentions: list[_Mention]) -> _Mention | None:
    stripped = text.lstrip(" \t\n\"'*#>-:")
    offset = len(text) - len(stripped)
    match = _OPENING_YES_NO.match(stripped)
    if match is None or not _OPENING_WORD_END.match(stripped, match.end()):
        return None
    first_end = _STATEMENT_END.search(text, offset)
    end = first_end.start() if first_end else len(text)
    if any(m.start < end for m in mentions):
        return None  # "Yes, I don't know": the verdict phrase decides, not the yes
    label = ANSWER_PRESENT if match.group("yes") else I_DONT_KNOW
    return _Mention(label, offset, opening=True, concluding=False)


def classify_nomiracl_output(output: str | None) -> NomiraclLabel:
    """Classify a raw model output as "answer_present", "i_dont_know" or "invalid".

    Tolerant of case, curly or missing apostrophes, quotes, "Answer:" prefixes, trailing
    punctuation and explanations; knows Hindi, Telugu and Bengali phrasings ("मुझे नहीं पता",
    "నాకు తెలియదు", "আমি জানি না"). "No, answer is not present" and an opening bare "No" are
    "i_dont_know"; an output that only cites passages ("[6]") is "answer_present". Instruction
    echoes ("Yes" or "I don't know"), hedges ("whether the answer is present") and absences
    scoped to some passages ("answer is not present in [2]") are not verdicts.

    The rule when an output mentions both verdicts:
    1. the last verdict wins if it concludes a rationale ("... Therefore, I don't know");
    2. otherwise verdict phrases inside rationale sentences are ignored and the statements that
       open with a verdict decide, if they agree ("Context 2 says the answer is present in a
       different year. I don't know." -> i_dont_know);
    3. otherwise (e.g. "Yes, answer is present\\n\\nI don't know") the output is "invalid".
    Empty outputs, off-format ones ("Please select one of the contexts", a bare answer) and
    outputs with no verdict are "invalid".
    """
    if output is None or not output.strip():
        return INVALID
    text = _prepare(output)
    mentions = _find_mentions(text)
    opening = _opening_yes_no(text, mentions)
    if opening is not None:
        mentions.insert(0, opening)
    if not mentions:
        return ANSWER_PRESENT if _CITATIONS_ONLY.match(text) else INVALID
    labels = {m.label for m in mentions}
    if len(labels) == 1:
        return mentions[0].label
    if mentions[-1].concluding:
        return mentions[-1].label
    verdicts = {m.label for m in mentions if m.opening or m.concluding}
    if len(verdicts) == 1:
        return verdicts.pop()
    return INVALID


@dataclass(frozen=True)
class NomiraclOutcome:
    """One classified output: which subset its query is in and what the model said."""

    subset: NomiraclSubset
    label: NomiraclLabel


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Rate(_Frozen):
    """numerator / denominator; `value` is None when the denominator is 0 (not a silent 0)."""

    numerator: int
    denominator: int
    value: float | None

    @classmethod
    def of(cls, numerator: int, denominator: int) -> Rate:
        return cls(
            numerator=numerator,
            denominator=denominator,
            value=numerator / denominator if denominator else None,
        )


class SubsetCounts(_Frozen):
    """How the outputs on one subset were classified."""

    answer_present: int
    i_dont_know: int
    invalid: int
    total: int


class NomiraclRates(_Frozen):
    """`hallucination` = FP / (FP + TN) and `error` = FN / (FN + TP), invalid outputs excluded;
    `invalid_*` = invalid / all outputs of that subset; and the counts."""

    relevant: SubsetCounts
    non_relevant: SubsetCounts
    hallucination: Rate
    error: Rate
    invalid_relevant: Rate
    invalid_non_relevant: Rate

    @property
    def hallucination_rate(self) -> float | None:
        return self.hallucination.value

    @property
    def error_rate(self) -> float | None:
        return self.error.value


def subset_counts(rows: Iterable[NomiraclOutcome]) -> dict[str, SubsetCounts]:
    """Each subset's label counts; ValueError naming the row on an unknown subset or label."""
    counts = {subset: dict.fromkeys(LABELS, 0) for subset in SUBSETS}
    for i, o in enumerate(rows):
        if o.subset not in SUBSETS:
            raise ValueError(f"row {i}: unknown subset {o.subset!r}, expected one of {SUBSETS}")
        if o.label not in LABELS:
            raise ValueError(f"row {i}: unknown label {o.label!r}, expected one of {LABELS}")
        counts[o.subset][o.label] += 1
    return {subset: SubsetCounts(**c, total=sum(c.values())) for subset, c in counts.items()}


def nomiracl_rates(rows: Iterable[NomiraclOutcome]) -> NomiraclRates:
    """Hallucination rate on non-relevant queries and error rate on relevant ones; invalid
    outputs are left out of both denominators and counted separately."""
    counts = subset_counts(rows)
    relevant, non_relevant = counts["relevant"], counts["non_relevant"]
    false_positive, true_negative = non_relevant.answer_present, non_relevant.i_dont_know
    false_negative, true_positive = relevant.i_dont_know, relevant.answer_present
    return NomiraclRates(
        relevant=relevant,
        non_relevant=non_relevant,
        hallucination=Rate.of(false_positive, false_positive + true_negative),
        error=Rate.of(false_negative, false_negative + true_positive),
        invalid_relevant=Rate.of(relevant.invalid, relevant.total),
        invalid_non_relevant=Rate.of(non_relevant.invalid, non_relevant.total),
    )


# One row per output, on the subset where it counts: a non-relevant query's row scores 1 for a
# hallucination (FP) and 0 for a correct "I don't know" (TN), so the mean over its scored rows is
# FP / (FP + TN); a relevant query's row scores 1 for a wrong "I don't know" (FN) and 0 for
# "answer present" (TP), so the mean is FN / (FN + TP). Invalid outputs are `invalid` rows
# without a score: left out of the means (§2.1's formulas count no Invalid output) and counted.
HALLUCINATION_METRIC = "nomiracl_hallucination"
ERROR_METRIC = "nomiracl_error"
SUBSET_OF_METRIC: dict[str, NomiraclSubset] = {
    HALLUCINATION_METRIC: "non_relevant",
    ERROR_METRIC: "relevant",
}
METRIC_OF_SUBSET: dict[str, str] = {subset: metric for metric, subset in SUBSET_OF_METRIC.items()}


def verdict_score(subset: str, label: NomiraclLabel) -> float | None:
    """1.0 for a hallucination or an error, 0.0 for a correct verdict, None for invalid."""
    if subset not in SUBSETS:
        raise ValueError(f"unknown subset {subset!r}, expected one of {SUBSETS}")
    if label == INVALID:
        return None
    wrong = ANSWER_PRESENT if subset == "non_relevant" else I_DONT_KNOW
    return 1.0 if label == wrong else 0.0


def nomiracl_rates_from_rows(rows: Iterable[tuple[str, str, str | None]]) -> NomiraclRates:
    """Rates from scored (metric, status, label) rows: other metrics' rows and `error` rows (no
    model output) are ignored; `ok` and `invalid` rows must carry their NoMIRACL label."""
    outcomes = []
    for metric, status, label in rows:
        if metric not in SUBSET_OF_METRIC or status == "error":
            continue
        if label not in LABELS:
            raise ValueError(f"{metric} row with status {status!r} has no NoMIRACL label")
        outcomes.append(NomiraclOutcome(SUBSET_OF_METRIC[metric], label))  # type: ignore[arg-type]
    return nomiracl_rates(outcomes)
