"""NoMIRACL: classify a model's relevance verdict and compute hallucination and error rates.

NoMIRACL (Thakur et al., Findings of EMNLP 2024) gives a model a question and ten passages and
asks it to answer "Yes, answer is present" or "I don't know". On the non-relevant subset (no
passage answers the question) saying "answer is present" is a hallucination; on the relevant
subset saying "I don't know" is an error.

Rates follow the paper's formulas (§2.1). An output that is neither answer is Invalid (§4.1):
it is no FP, TN, FN or TP, so it is in no denominator, and is counted on its own:

    hallucination rate = FP / (FP + TN)   non-relevant subset; FP = "answer present", TN = IDK
    error rate         = FN / (FN + TP)   relevant subset;     FN = IDK, TP = "answer present"

Two output parsers, chosen by the judge config's `parser`: `lenient` is Parakh's
(`classify_nomiracl_output`); `released` reproduces the authors' released code
(github.com/project-miracl/nomiracl at commit 9c787da, the commit `parakh import-data nomiracl`
uses): `VanillaTemplate.postprocess` (`nomiracl/prompts/template.py`) labels an output by plain
substring tests (`classify_released`), `ConfusionMetric.evaluate` (`nomiracl/eval/metrics.py`)
divides by all outputs of the subset, invalid ones included (`released_code_rates`), and
`examples/hallucination_evaluation.py` writes its table (`released_table_row`); re-implemented
from their rules, nothing imported from the authors' package. A row's `label` is the chosen
parser's verdict; where the other parser disagrees, the row carries one flag
`<other>_label:<label>`, so a summary can count disagreements and compute both parsers' rates
from the rows alone.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict

from parakh.config.judge import NomiraclParser
from parakh.schema import BLANK_ANSWER, Judgment
from parakh.text.normalize import canonical_text

NomiraclLabel = Literal["i_dont_know", "answer_present", "invalid"]
NomiraclSubset = Literal["relevant", "non_relevant"]
I_DONT_KNOW: NomiraclLabel = "i_dont_know"
ANSWER_PRESENT: NomiraclLabel = "answer_present"
INVALID: NomiraclLabel = "invalid"
SUBSETS: tuple[str, ...] = get_args(NomiraclSubset)
LABELS: tuple[str, ...] = get_args(NomiraclLabel)
# each subset's wrong verdict (a hallucination, an error) and its right one
_WRONG = {"non_relevant": ANSWER_PRESENT, "relevant": I_DONT_KNOW}
_RIGHT = {"non_relevant": I_DONT_KNOW, "relevant": ANSWER_PRESENT}

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


# The template's two answer strings, lower-cased as postprocess compares them.
_ANSWER = "yes, answer is present"
_NO_ANSWER = "i don't know"
# postprocess's citation regex with the template's passage count (10) filled in.
_CITATION = re.compile(r"\[(\d+|10)\]")


def classify_released(output: str) -> NomiraclLabel:
    """Classify `output` exactly as the released `VanillaTemplate.postprocess` does: newlines
    and tabs to spaces, `str.lower` and nothing else (a curly apostrophe in "I don’t know" does
    not match), then its substring tests in its order; an empty output is "invalid". The
    released code fails on a null output; callers count a missing output themselves."""
    response = output.replace("\n", " ").replace("\t", " ").lower()
    if _NO_ANSWER in response and _ANSWER in response:
        # `nomiracl.util.count_word`: whitespace tokens equal to the phrase, so never
        if sum(token == _ANSWER for token in response.split()) > 1:
            return ANSWER_PRESENT
        return INVALID  # both remaining released branches return "Invalid"
    if _NO_ANSWER in response:
        return I_DONT_KNOW
    if _ANSWER in response:
        return ANSWER_PRESENT
    if "answer is present" in response:
        return ANSWER_PRESENT
    if "answer is not present" in response:
        return I_DONT_KNOW
    if _CITATION.findall(response) and len(response) < 10:
        return ANSWER_PRESENT
    return INVALID


PARSERS: tuple[str, ...] = get_args(NomiraclParser)
_FLAG_SUFFIX = "_label:"
_CLASSIFIERS: dict[NomiraclParser, Callable[[str], NomiraclLabel]] = {
    "lenient": classify_nomiracl_output,
    "released": classify_released,
}


def classify(output: str, parser: NomiraclParser) -> NomiraclLabel:
    """`output`'s verdict by the named parser."""
    if parser not in _CLASSIFIERS:
        raise ValueError(f"unknown NoMIRACL parser {parser!r}; available: {', '.join(PARSERS)}")
    return _CLASSIFIERS[parser](output)


def both_labels(output: str) -> dict[NomiraclParser, NomiraclLabel]:
    """Every parser's verdict on `output`."""
    return {parser: classify(output) for parser, classify in _CLASSIFIERS.items()}


def other_parser(parser: NomiraclParser) -> NomiraclParser:
    return "released" if parser == "lenient" else "lenient"


def disagreement_flag(parser: NomiraclParser, other_label: NomiraclLabel) -> str:
    """The flag on a row scored by `parser` whose other parser says `other_label`."""
    return f"{other_parser(parser)}{_FLAG_SUFFIX}{other_label}"


def labels_of_row(label: str, flags: list[str]) -> dict[NomiraclParser, str]:
    """Both parsers' verdicts on one NoMIRACL row: its `label`, and the other parser's from its
    disagreement flag (the same label when there is none). ValueError on a malformed flag."""
    found: dict[NomiraclParser, str] = {}
    for flag in flags:
        name, sep, other = flag.partition(_FLAG_SUFFIX)
        if not sep or name not in PARSERS:
            continue
        if other not in LABELS:
            raise ValueError(f"flag {flag!r}: unknown label {other!r}, expected one of {LABELS}")
        found[name] = other  # type: ignore[index]
    if len(found) > 1:
        raise ValueError(f"flags {flags} give both parsers' labels; a row carries only the other")
    labels: dict[NomiraclParser, str] = {"lenient": label, "released": label}
    labels.update(found)
    return labels


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
    return 1.0 if label == _WRONG[subset] else 0.0


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


class ReleasedRate(Rate):
    """numerator / denominator as the released table shows it: 0.0 when `zeroed` (see
    `released_code_rates`), None when the subset has no outputs (the script has no file then)."""

    zeroed: bool = False


class ReleasedCodeRates(_Frozen):
    """The released code's hallucination, error and invalid rates for one set of outputs."""

    hallucination: ReleasedRate
    error: ReleasedRate
    invalid_relevant: ReleasedRate
    invalid_non_relevant: ReleasedRate


def _rate(numerator: int, denominator: int, *, zeroed: bool = False) -> ReleasedRate:
    if denominator == 0:
        return ReleasedRate(numerator=0, denominator=0, value=None)
    value = 0.0 if zeroed else numerator / denominator
    return ReleasedRate(numerator=numerator, denominator=denominator, value=value, zeroed=zeroed)


def released_code_rates(released_labels: Iterable[NomiraclOutcome]) -> ReleasedCodeRates:
    """Rates of outcomes labelled by `classify_released`, as `ConfusionMetric.evaluate` gives
    them: the subset's wrong verdicts over all its outputs, invalid ones included. The released
    code computes a subset's error rate only when the model gave that subset's right verdict at
    least once; otherwise its table shows 0.0, reproduced here and marked `zeroed`. Pass a
    missing output as "invalid": the released runs stored failures as text that parses so."""
    counts = subset_counts(released_labels)
    non_relevant, relevant = counts["non_relevant"], counts["relevant"]
    return ReleasedCodeRates(
        hallucination=_rate(
            non_relevant.answer_present, non_relevant.total, zeroed=non_relevant.i_dont_know == 0
        ),
        error=_rate(relevant.i_dont_know, relevant.total, zeroed=relevant.answer_present == 0),
        invalid_relevant=_rate(relevant.invalid, relevant.total),
        invalid_non_relevant=_rate(non_relevant.invalid, non_relevant.total),
    )


# ConfusionMetric's name for the wrong verdict on each subset.
ERROR_NAME = {"non_relevant": "Hallucination", "relevant": "Error"}
RELEASED_TABLE_UNITS = (
    "percent of the model's outputs in the subset's file, rounded to 4 places, 0.0 where the "
    "released ConfusionMetric sets no value (as examples/hallucination_evaluation.py writes it)"
)


def _percent(count: int, total: int) -> float:
    """The released script's cell: `round(count / total * 100, 4)`, in that float order."""
    return round(count / total * 100, 4)


def released_table_row(subset: str, labels: Iterable[NomiraclLabel]) -> dict[str, float | int]:
    """One model's cells for one language and subset, from its outputs' `classify_released`
    labels: {"outputs", "Accuracy", "Hallucination" or "Error", "Invalid"}. As
    ConfusionMetric.evaluate, the error cell is 0.0 unless the model gave both the subset's right
    and wrong verdicts, Invalid 0.0 unless it gave an invalid output. ValueError on an unknown
    subset or on no outputs (the script has nothing to divide by then)."""
    if subset not in ERROR_NAME:
        raise ValueError(f"unknown subset {subset!r}; expected one of {tuple(ERROR_NAME)}")
    outcomes = [NomiraclOutcome(subset, label) for label in labels]  # type: ignore[arg-type]
    counts = subset_counts(outcomes)[subset]
    if (total := counts.total) == 0:
        raise ValueError(f"no outputs on the {subset} subset")
    right, wrong = getattr(counts, _RIGHT[subset]), getattr(counts, _WRONG[subset])
    return {
        "outputs": total,
        "Accuracy": _percent(right, total),
        ERROR_NAME[subset]: _percent(wrong, total) if right and wrong else 0.0,
        "Invalid": _percent(counts.invalid, total) if counts.invalid else 0.0,
    }


# The NoMIRACL part of a judge summary, per language and `all`, from the verdict rows alone:
# the chosen parser's rates at the top level, the other parser's (`other_parser`), the released
# code's rates and table (`released_code`, `released_table`), `parser_disagreements`, and
# `missing_outputs`: queries whose row is an `error`, by subset, in no paper-style rate
# (docs/judges.md describes each). The released figures are over the outputs the released code
# would read: a replayed output stored blank is one ("" parses as invalid there), while a query
# with no output (none stored, not asked, a failed request) is in none of them.
ALL = "all"


def _language_summary(rows: Sequence[Judgment], parser: NomiraclParser) -> dict[str, Any]:
    other = other_parser(parser)
    by_parser: dict[str, list[NomiraclOutcome]] = {name: [] for name in PARSERS}
    blank: list[NomiraclOutcome] = []  # stored, but blank: the released code reads them
    missing = dict.fromkeys(SUBSET_OF_METRIC.values(), 0)
    disagreements = 0
    for r in rows:
        subset = SUBSET_OF_METRIC[r.metric]
        if r.status == "error":
            missing[subset] += 1
            if BLANK_ANSWER in (r.reason or ""):
                blank.append(NomiraclOutcome(subset, INVALID))
            continue
        if r.label is None:
            raise ValueError(f"{r.metric} row of {r.question_id!r} ({r.status}) has no label")
        labels = labels_of_row(r.label, r.flags)
        disagreements += labels["lenient"] != labels["released"]
        for name, label in labels.items():
            by_parser[name].append(NomiraclOutcome(subset, label))  # type: ignore[arg-type]
    released = by_parser["released"] + blank
    # the released script's cells per subset; None for a subset with no outputs
    by_subset = {s: [o.label for o in released if o.subset == s] for s in SUBSETS}
    table = {s: released_table_row(s, got) if got else None for s, got in by_subset.items()}
    return {
        **nomiracl_rates(by_parser[parser]).model_dump(),
        "parser": parser,
        "other_parser": {"parser": other, **nomiracl_rates(by_parser[other]).model_dump()},
        "released_code": released_code_rates(released).model_dump(),
        "released_table": table,
        "parser_disagreements": disagreements,
        "missing_outputs": missing,
    }


def nomiracl_summary(rows: Sequence[Judgment], parser: NomiraclParser) -> dict[str, Any] | None:
    """`{"by_language": {...}, "parsers": {...}}` for the NoMIRACL verdict rows among `rows`;
    None when there are none. `parser` is the judge's `parser`, the one that scored the rows."""
    by_language: dict[str, list[Judgment]] = defaultdict(list)
    for r in rows:
        if r.metric in SUBSET_OF_METRIC:
            by_language[r.language].append(r)
            by_language[ALL].append(r)
    if not by_language:
        return None
    summaries = {
        language: _language_summary(group, parser)
        for language, group in sorted(by_language.items())
    }
    overall = summaries[ALL]
    return {
        "by_language": summaries,
        "parsers": {
            "parser": parser,
            "disagreements": overall["parser_disagreements"],
            "missing_outputs": sum(overall["missing_outputs"].values()),
            "released_table_units": RELEASED_TABLE_UNITS,
        },
    }
