"""Language, romanization and code-mixing labels for questions (curate stage).

`label_language` combines three kinds of evidence: the Unicode script (`parakh.text.script`:
native-script Indic text can only be in a language written in that script, and a script used by
one of our languages decides directly); two statistical identifiers, gcld3 (which also reports
romanized Hindi as `hi-Latn`) and py3langid, renormalised over the languages the script allows;
and small curated word lists (`parakh.text._lexicons`): distinctive function words of the
Devanagari languages (the identifiers know neither Maithili nor Dogri), letters used by only one
of bn/as or ur/sd, and romanized Hindi/Kannada/Tamil/Telugu words against English ones.

Matrix-language rule: a code-mixed or romanized query counts as its matrix language, which
Parakh takes to be the language supplying the grammatical function words. (HEALTH-PARIKSHA
decided English or not for such queries by their matrix language, §3 Methodology, Data, line
57 of the paper's text; it does not say how it found the matrix language.) In Latin script we
compare function-word hits per language, then all lexicon hits, and only then the
identifiers; with no evidence at all the text is English, so typos
("wat is the precautions aftr catract surgery") cannot flip English to another language. In a
mixed native/Latin text the native language is the matrix unless the Latin part has at least as
many function words of its language as the native part has words ("What is the meaning of
नमस्ते?" is English with Hindi embedded).

`romanized`: the matrix language is Indic and written in Latin letters. `code_mixed`: a second
language contributes at least `_MIN_EMBEDDED_WORDS` words and `_MIN_EMBEDDED_SHARE` of the
identified words (one loanword like "operation" in romanized Hindi is borrowing), or a native
script is mixed with Latin-script words of another language. Latin letters with no lexicon word
(names, acronyms, "NaHCO3") do not count.

Known limits: Maithili and Dogri questions written largely in Hindi words are labelled hi;
Manipuri or Santali in Bengali script are labelled bn/as (Parakh expects Manipuri in Meetei
Mayek); a text of one native word gets the hint or the script's main language.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from parakh.text._lexicons import DISTINCTIVE_LETTERS, LATIN_LEXICONS, NATIVE_MARKERS
from parakh.text.languages import (
    INDIC_LANGUAGES,
    LANGUAGES,
    check_language,
    languages_for_script,
    normalize_language,
)
from parakh.text.script import UNKNOWN_SCRIPT, char_script, script_counts
from parakh.text.tokenize import tokenize

UNDETERMINED = "und"
_MIN_EMBEDDED_WORDS = 2
_MIN_EMBEDDED_SHARE = 0.2
_MIN_MIXED_SCRIPT_SHARE = 0.1
# Native-script scores add py3langid's probability (weight 1), gcld3's probability for its
# label and one weight per distinctive function word. gcld3 weighs less because it knows only
# hi/mr/ne among the Devanagari languages and so pulls Sanskrit and Konkani towards Marathi.
_CLD3_WEIGHT = 0.3
_MARKER_WEIGHT = 1.0
_HINT_BONUS = 0.25  # what a caller's expected language adds: a tie-breaker, not an override


class LanguageLabel(BaseModel):
    """The detected language of one text; `language` is the matrix language's code."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    language: str
    script: str
    romanized: bool = False
    code_mixed: bool = False
    matrix_language: str
    embedded_languages: list[str] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)
    source: Literal["detected"] = "detected"


@lru_cache(maxsize=1)
def _cld3() -> Any:
    import gcld3  # a core dependency, imported on first use

    return gcld3.NNetLanguageIdentifier(min_num_bytes=0, max_num_bytes=1000)


@lru_cache(maxsize=1)
def _py3langid() -> Any:
    from py3langid import langid  # a core dependency, imported on first use

    identifier_class = langid.LanguageIdentifier
    if hasattr(identifier_class, "from_model_file"):  # py3langid >= 0.4
        return identifier_class.from_model_file(langid.MODEL_FILE, norm_probs=False)
    return identifier_class.from_pickled_model(langid.MODEL_FILE, norm_probs=False)


def _cld3_guess(text: str) -> tuple[str, float, bool]:
    """(our code or cld3's code, probability, is_reliable); `hi-Latn` becomes `hi`."""
    result = _cld3().FindLanguage(text)
    code = normalize_language(result.language) or result.language
    return code, float(result.probability), bool(result.is_reliable)


def _py3langid_probs(text: str, candidates: Iterable[str]) -> dict[str, float]:
    """py3langid probabilities renormalised over the candidates its model knows."""
    identifier = _py3langid()
    wanted = set(candidates)
    raw: dict[str, float] = {}
    for model_code, score in identifier.rank(text):
        code = normalize_language(model_code)
        if code in wanted and code not in raw:
            raw[code] = float(score)
    if not raw:
        return {}
    # py3langid's own calibration: log-scores divided by sqrt(UTF-8 length) before softmax.
    temperature = math.sqrt(max(1, len(text.encode("utf-8"))))
    top = max(raw.values())
    exps = {code: math.exp((score - top) / temperature) for code, score in raw.items()}
    total = sum(exps.values())
    return {code: value / total for code, value in exps.items()}


def _marker_hits(words: list[str], candidates: list[str]) -> dict[str, int]:
    """Distinctive-word hits per candidate; a word listed for two candidates counts for none."""
    markers = {code: NATIVE_MARKERS.get(code, frozenset()) for code in candidates}
    listed = Counter(word for listing in markers.values() for word in listing)
    return {
        code: sum(word in listing and listed[word] == 1 for word in words)
        for code, listing in markers.items()
    }


def _native_language(
    text: str, words: list[str], script: str, hint: str | None
) -> tuple[str, float]:
    """(language, confidence) for text whose dominant script is a native Indic script."""
    candidates = languages_for_script(script)
    if not candidates:
        return UNDETERMINED, 0.0
    if len(candidates) == 1:
        return candidates[0], 1.0
    markers = _marker_hits(words, candidates)
    if len(words) < 2 and not any(markers.values()):
        # One word is too short to tell: the expected language, else the script's main one.
        return (hint if hint in candidates else candidates[0]), 0.5
    # letters only one candidate uses (Assamese ৰ ৱ vs Bengali র; Sindhi ڪ ٻ vs Urdu ے ٹ)
    letters = {code: sum(map(text.count, DISTINCTIVE_LETTERS.get(code, ""))) for code in candidates}
    with_letters = [code for code, n in letters.items() if n > 0]
    if len(with_letters) == 1:
        return with_letters[0], 0.95
    scores = dict.fromkeys(candidates, 0.0)
    for code, prob in _py3langid_probs(text, candidates).items():
        scores[code] += prob
    cld_code, cld_prob, _ = _cld3_guess(text)
    if cld_code in scores:
        scores[cld_code] += _CLD3_WEIGHT * cld_prob
    for code, n in markers.items():
        scores[code] += _MARKER_WEIGHT * n
    if hint in scores:
        scores[hint] += _HINT_BONUS
    best = max(scores, key=lambda code: scores[code])
    total = sum(scores.values())
    return best, (scores[best] / total if total > 0 else 1.0 / len(candidates))


def _latin_hits(words: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """(function-word hits, all hits) per language for lower-cased Latin words."""
    function_hits = {code: sum(w in fw for w in words) for code, (fw, _) in LATIN_LEXICONS.items()}
    all_hits = {
        code: function_hits[code] + sum(w in cw for w in words)
        for code, (_, cw) in LATIN_LEXICONS.items()
    }
    return function_hits, all_hits


def _latin_label(text: str, words: list[str], hint: str | None) -> LanguageLabel:
    """Label Latin-script text: English, romanized Indic, or a code-mixed mixture."""
    function_hits, all_hits = _latin_hits(words)
    cld_code, cld_prob, cld_reliable = _cld3_guess(text)
    romanized_by_cld3 = cld_code in LATIN_LEXICONS and cld_code != "en" and cld_prob >= 0.7
    if romanized_by_cld3:
        all_hits[cld_code] += 1
    if hint in all_hits and hint != "en" and all_hits[hint] > 0:
        all_hits[hint] += 1

    indic = max(
        (code for code in all_hits if code != "en"),
        key=lambda code: (function_hits[code], all_hits[code]),
    )
    indic_key = (function_hits[indic], all_hits[indic])
    english_key = (function_hits["en"], all_hits["en"])
    enough_evidence = all_hits[indic] >= 2 or (
        all_hits[indic] == 1 and all_hits["en"] == 0 and 3 * all_hits[indic] >= len(words)
    )
    identified = sum(all_hits.values())
    if indic_key > english_key and enough_evidence:
        matrix = indic
    elif (
        all_hits["en"] == 0
        and cld_code not in LATIN_LEXICONS
        and cld_reliable
        and cld_prob >= 0.9
        and len(words) >= 4
    ):
        matrix = cld_code  # clearly another Latin-script language (French, Indonesian, ...)
    else:
        matrix = "en"
    embedded: list[str] = []  # other lexicon languages with enough of the identified words
    if matrix in all_hits:
        embedded = sorted(
            code
            for code, n in all_hits.items()
            if code != matrix and n >= _MIN_EMBEDDED_WORDS and n >= _MIN_EMBEDDED_SHARE * identified
        )
    if matrix not in LATIN_LEXICONS:
        confidence = cld_prob
    elif identified:
        confidence = (all_hits[matrix] + 1) / (identified + 2)
    else:
        confidence = cld_prob if cld_code == matrix else 0.5
    return LanguageLabel(
        language=matrix,
        script="Latin",
        romanized=matrix in INDIC_LANGUAGES,
        code_mixed=bool(embedded),
        matrix_language=matrix,
        embedded_languages=embedded,
        confidence=round(min(1.0, confidence), 4),
    )


def _word_script(word: str) -> str | None:
    """The script of a word's first letter or mark."""
    return next((script for script in map(char_script, word) if script is not None), None)


def label_language(text: str, hint: str | None = None) -> LanguageLabel:
    """Label the matrix language, script, romanization and code-mixing of one text. `hint`,
    the language the source claims, only breaks near-ties among the languages the script allows
    and never overrides clear evidence."""
    if hint is not None:
        hint = check_language(hint)
    counts = script_counts(text)
    total = sum(counts.values())
    if total == 0:
        return LanguageLabel(
            language=UNDETERMINED,
            script=UNKNOWN_SCRIPT,
            matrix_language=UNDETERMINED,
            confidence=0.0,
        )
    words = tokenize(text)
    word_scripts = Counter(_word_script(w) for w in words)
    native_scripts = sorted(
        (s for s, n in counts.items() if s != "Latin" and n >= _MIN_MIXED_SCRIPT_SHARE * total),
        key=lambda s: (word_scripts[s], counts[s]),
        reverse=True,
    )  # most words first: the script carrying the grammar, not the longest name
    latin_share = counts.get("Latin", 0) / total
    if not native_scripts:
        return _latin_label(text, words, hint)

    script = native_scripts[0]
    native_words = [w for w in words if _word_script(w) == script]
    native_text = " ".join(native_words) if len(native_scripts) > 1 or latin_share > 0 else text
    language, confidence = _native_language(native_text, native_words, script, hint)
    matrix, romanized = language, False
    embedded = _other_script_languages(words, native_scripts[1:], language, hint)
    if latin_share < _MIN_MIXED_SCRIPT_SHARE:
        confidence *= counts[script] / total
    else:
        grammar, mixed_in = _latin_part(words, native_words, script, language, hint)
        embedded += mixed_in
        if grammar is not None:
            matrix, confidence, romanized = grammar.language, grammar.confidence, grammar.romanized
    dominant = max(counts, key=lambda s: counts[s])
    embedded_languages = sorted(set(embedded) - {matrix})
    return LanguageLabel(
        language=matrix,
        script=dominant,
        romanized=romanized,
        code_mixed=bool(embedded_languages),
        matrix_language=matrix,
        embedded_languages=embedded_languages,
        confidence=round(min(1.0, confidence), 4),
    )


def _other_script_languages(
    words: list[str], scripts: list[str], language: str, hint: str | None
) -> list[str]:
    """Languages other than `language` in the text's further native scripts (e.g. a
    Bengali-script name in a Hindi question)."""
    embedded = []
    for other_script in scripts:
        other_words = [w for w in words if _word_script(w) == other_script]
        other, _ = _native_language(" ".join(other_words), other_words, other_script, hint)
        if other not in (language, UNDETERMINED):
            embedded.append(other)
    return embedded


def _latin_part(
    words: list[str], native_words: list[str], script: str, language: str, hint: str | None
) -> tuple[LanguageLabel | None, list[str]]:
    """The Latin words of a native-script text: their label where they supply the grammar
    (else None), and the languages they add as embedded."""
    latin_words = [w for w in words if _word_script(w) == "Latin"]
    # Names, acronyms, Roman numerals and formulas ("NaHCO3") are no language: the Latin
    # part counts only when it holds words from our lexicons.
    function_hits, all_hits = _latin_hits(latin_words)
    if not any(all_hits.values()):
        return None, []
    latin = _latin_label(" ".join(latin_words), latin_words, hint)
    if function_hits.get(latin.language, 0) >= len(native_words):
        # The Latin part supplies the grammar. Native words in a script that language
        # is written in are script-mixing ("mujhe ऑपरेशन ke baad"), not another language.
        same_script = latin.language in LANGUAGES and script in LANGUAGES[latin.language].scripts
        return latin, [] if same_script else [language]
    if latin.language != language:
        return None, [latin.language]
    return None, []
