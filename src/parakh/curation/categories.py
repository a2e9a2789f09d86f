"""Query-category tags by rule, each recorded with source "rule" beside the dataset's own tags.

HEALTH-PARIKSHA names five kinds of patient query in its data (misspelled English, code-mixed,
non-native English, relevant to the patient's culture, specific to the patient's condition: §3
Methodology, Data, line 59 of the paper's text) and uses them as the themes of a qualitative
look at 100 questions (§4 Results, Qualitative Analysis, line 139); it reports no scores by
them. `romanized` is Parakh's, and so are the rules that find each kind:
- `code-mixed` / `romanized`: from the language labels;
- `misspelled`: an English question with a word that pyspellchecker's English word list lacks
  but that is one edit from a word it has, or a chat spelling ("wat", "shud", "pls"); names,
  acronyms, romanized Indic words and configured domain words are not counted;
- `non-native`: Indian-English constructions in an English question (declarative word order
  after a question word, "Whether ..." questions, "is ... since morning", "3 days back",
  "I am having", "take head bath");
- `culturally-specific` / `condition-specific`: a term from a word list (English, romanized and
  native-script Hindi, Kannada, Tamil, Telugu), extendable in config.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

import yaml

from parakh.config.dataset import CategoryConfig
from parakh.errors import MissingDependencyError
from parakh.schema import LabelSource, Question
from parakh.text._lexicons import LATIN_LEXICONS

_LATIN_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_SENTENCE_START = re.compile(r"(?:^|(?<!\bdr)(?<!\bmr)(?<!\bmrs)(?<!\bms)[.?!]\s+)$", re.I)
# British spellings (Indian English) -> the American ones the word list holds.
_BRITISH = (
    ("our", "or"),
    ("ise", "ize"),
    ("ised", "ized"),
    ("ising", "izing"),
    ("tre", "ter"),
    ("ae", "e"),
    ("oe", "e"),
    ("lled", "led"),
    ("lling", "ling"),
    ("ogue", "og"),
)
_LETTER = r"[\w\u0900-\u0dff]"  # \w leaves out Indic vowel signs and viramas

# the word lists, read once from category_terms.yaml (which says how they were written)
_TERMS = yaml.safe_load(files("parakh.curation").joinpath("category_terms.yaml").read_bytes())
CONDITION_TERMS = tuple(t.strip() for line in _TERMS["condition"] for t in line.split(","))
CULTURAL_TERMS = tuple(t.strip() for line in _TERMS["cultural"] for t in line.split(","))
DOMAIN_WORDS = frozenset(w for line in _TERMS["domain_words"] for w in line.split())
CHAT_SPELLINGS = frozenset(w for line in _TERMS["chat_spellings"] for w in line.split())

# Indian-English constructions (see the module docstring), on case-folded text.
_AUX = (
    r"do|does|did|is|are|was|were|am|can|could|should|will|would|shall|may|might|must|have|has"
    r"|had"
)
_SUBJECT = r"i|we|you|he|she|they|it|the|these|those|this|that|my|your|our|his|her|their|there"
_MODAL = r"should|can|could|will|would|shall|must|may|have to|has to|need to|needs to"
NON_NATIVE_PATTERNS = tuple(
    re.compile(p)
    for p in (
        # "how many times a day i should put", "when the eye pad should be removed"
        rf"\b(?:how|what|when|where|why|which|till what time)\b"
        rf"(?:(?!\b(?:{_AUX})\b)[^.?!,]){{0,40}}?"
        rf"\b(?:i|we|you|he|she|they|it|my \w+|the \w+(?: \w+)?)\s+(?:{_MODAL})\b"
        rf"(?!\s+(?:{_SUBJECT})\b)",  # "before the surgery should these tests" is inverted
        r"(?:^|[.?!]\s*)whether\b",  # "Whether the drops should put in both eyes?"
        r"\b(?:is|am|are)\b[^.?!]*\bsince (?:morning|evening|yesterday|last|\d)",
        r"\b\d+\s*(?:days?|weeks?|months?|years?)\s+back\b",  # "surgery was 3 days back"
        r"\b(?:i am|i'm|he is|she is|my \w+ is|patient is) having\b",
        r"\b(?:take|took|taking|do|did|doing)\s+head\s?bath\b",
        r"\b(?:make|give|gives|giving) (?:problem|injection|trouble)\b",
        r"\b(?:in night time|out of station|do the needful|prepone|revert back|can able to"
        r"|could able to|no need of|discuss about|how much days|what is the procedure to)\b",
        # a declarative sentence asked as a question: "They will give injection in eye?"
        rf"(?:^|[.!?]\s+)(?:i|we|you|he|she|they|it) (?:{_MODAL}|is|are|am) [^.?!]*\?",
    )
)


@lru_cache(maxsize=1)
def _spellchecker() -> Any:
    try:
        from spellchecker import SpellChecker
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise MissingDependencyError("pyspellchecker", "pip install pyspellchecker") from exc
    return SpellChecker(language="en", distance=1)  # distance 2 costs seconds a word


def _term_pattern(terms: Iterable[str]) -> re.Pattern[str]:
    """Terms match whole words; native-script terms of five or more characters also match as
    word prefixes, since case endings attach to the stem (சர்க்கரை -> சர்க்கரைக்கு), while
    short ones must not match inside longer words (पान is not पानी)."""
    parts = []
    for term in sorted({t.casefold() for t in terms if t.strip()}, key=len, reverse=True):
        escaped = re.escape(term).replace(r"\ ", r"[\s-]+")
        if term.isascii():
            parts.append(rf"(?<![a-z]){escaped}(?![a-z])")
        elif len(term) >= 5:
            parts.append(rf"(?<!{_LETTER}){escaped}")
        else:
            parts.append(rf"(?<!{_LETTER}){escaped}(?!{_LETTER})")
    return re.compile("|".join(parts) if parts else r"(?!x)x")


@dataclass(frozen=True)
class CategoryTagger:
    condition: re.Pattern[str]
    cultural: re.Pattern[str]
    known_words: frozenset[str]

    @classmethod
    def from_config(cls, config: CategoryConfig) -> CategoryTagger:
        lexicon_words = {w for fw, cw in LATIN_LEXICONS.values() for w in fw | cw}
        domain = {
            word
            for term in (
                *CONDITION_TERMS,
                *CULTURAL_TERMS,
                *config.condition_terms,
                *config.cultural_terms,
                *config.known_words,
            )
            for word in term.casefold().split()
        }
        return cls(
            condition=_term_pattern([*CONDITION_TERMS, *config.condition_terms]),
            cultural=_term_pattern([*CULTURAL_TERMS, *config.cultural_terms]),
            known_words=frozenset((lexicon_words | domain | DOMAIN_WORDS) - CHAT_SPELLINGS),
        )

    def misspelled_words(self, text: str) -> list[str]:
        """Words of an English text that look misspelled (see the module docstring)."""
        suspects = []
        for m in _LATIN_WORD.finditer(text):
            word, lower = m.group(), m.group().casefold()
            if lower in CHAT_SPELLINGS:
                suspects.append(lower)
                continue
            capitalised = word[0].isupper() and not _SENTENCE_START.search(text[: m.start()])
            cut_off = text.startswith(("...", "…"), m.end())  # "post-operat...?" was truncated
            if len(word) < 3 or word.isupper() or capitalised or cut_off:
                continue
            if lower in self.known_words:
                continue
            suspects.append(lower)
        if not suspects:
            return []
        checker = _spellchecker()
        unknown = checker.unknown(w for w in suspects if w not in CHAT_SPELLINGS)
        american = {w: [w.replace(b, a) for b, a in _BRITISH if b in w] for w in unknown}
        unknown = {w for w in unknown if not checker.known(american[w])}
        return [
            w
            for w in suspects
            if w in CHAT_SPELLINGS or (w in unknown and (checker.candidates(w) or set()) - {w})
        ]

    def tags(self, question: Question) -> list[str]:
        found = []
        english = question.language == "en" and not question.romanized
        if english and self.misspelled_words(question.text):
            found.append("misspelled")
        if question.code_mixed:
            found.append("code-mixed")
        if question.romanized:
            found.append("romanized")
        lowered = question.text.casefold()
        if english and any(p.search(lowered) for p in NON_NATIVE_PATTERNS):
            found.append("non-native")
        if self.cultural.search(lowered):
            found.append("culturally-specific")
        if self.condition.search(lowered):
            found.append("condition-specific")
        return found


def tag_question(question: Question, tagger: CategoryTagger) -> Question:
    """Add the rule tags the question does not already carry; the dataset's tags stay."""
    new = [tag for tag in tagger.tags(question) if tag not in question.categories]
    if not new:
        return question
    sources: dict[str, LabelSource] = {**question.category_sources}
    sources.update({tag: "rule" for tag in new})
    return question.model_copy(
        update={"categories": [*question.categories, *new], "category_sources": sources}
    )
