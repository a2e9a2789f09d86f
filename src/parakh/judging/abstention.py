"""Whether an answer abstains, read by the answer prompt's own words, never an English list.

A prompt that asks for a relevance verdict (`unanswerable_verdict`: NoMIRACL's) is read by the
NoMIRACL classifier, with the judge's `parser`: "I don't know" abstains, "answer is present"
answers, anything else is invalid, exactly the labels of the NoMIRACL judge's rows.

A prompt with a refusal sentence (`refusal`: HealthBot's) is read by that sentence and its
wordings in the question's and the answer's language (`refusal_translations`), each split into
sentences and compared normalised (`normalize_answer`: case, punctuation, digits). An answer
abstains when each of its sentences is one of those sentences, with at most `LEAD_IN_WORDS`
other words beside it ("I'm sorry, but ..."). An answer that holds none of the refusals' first
sentences (the "I do not know" part) answers, even where it repeats another part of the refusal
("... please schedule a consultation" after advice). One that holds a first sentence and says
more both refuses and answers: invalid, as NoMIRACL counts an output giving both verdicts.
Sentences are compared whole, never by similarity: "I know the answer" is one word from
"I do not know the answer", and any similarity score puts them close.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from parakh.config.judge import NomiraclParser
from parakh.errors import ConfigError
from parakh.metrics.nomiracl import ANSWER_PRESENT, I_DONT_KNOW, NomiraclLabel, classify
from parakh.prompts.template import PromptTemplate
from parakh.schema import Question
from parakh.text.normalize import normalize_answer
from parakh.text.sentences import split_sentences_with_offsets

AbstentionLabel = Literal["abstained", "answered", "invalid"]
ABSTAINED: AbstentionLabel = "abstained"
ANSWERED: AbstentionLabel = "answered"
INVALID: AbstentionLabel = "invalid"
LEAD_IN_WORDS = 3  # words a refusing sentence may hold beside the refusal ("im sorry but")


@dataclass(frozen=True)
class Reading:
    """What an answer does, and why it reads so."""

    label: AbstentionLabel
    why: str


Reader = Callable[[str, Question], Reading]


def abstention_reader(prompt: PromptTemplate, parser: NomiraclParser) -> Reader:
    """How answers to `prompt` are read; a ConfigError when the prompt gives no way to abstain."""
    if prompt.unanswerable_verdict:
        said = {
            v: classify(v, parser) for v in (prompt.unanswerable_verdict, prompt.answerable_verdict)
        }
        if list(said.values()) != [I_DONT_KNOW, ANSWER_PRESENT]:
            raise ConfigError(
                f"prompt '{prompt.name}': the NoMIRACL classifier ({parser}) reads its verdicts "
                f"as {said}, not as i_dont_know and answer_present"
            )
        return lambda answer, _: _verdict(classify(answer, parser), parser)
    if prompt.refusal:
        return lambda answer, question: read_refusal(answer, refusals(prompt, question))
    raise ConfigError(
        f"the sufficiency check reads abstentions by the answer prompt's refusal sentence "
        f"(`refusal`) or relevance verdict (`unanswerable_verdict`); prompt '{prompt.name}' "
        "has neither"
    )


def _verdict(label: NomiraclLabel, parser: NomiraclParser) -> Reading:
    said = {I_DONT_KNOW: ABSTAINED, ANSWER_PRESENT: ANSWERED}.get(label, INVALID)
    why = label if said != INVALID else "neither answer_present nor i_dont_know"
    return Reading(said, f"NoMIRACL verdict ({parser}): {why}")


def refusals(prompt: PromptTemplate, question: Question) -> list[str]:
    """The prompt's refusal and its wordings in the question's and the answer's language."""
    languages = dict.fromkeys((question.language, question.answer_language))
    return [prompt.refusal, *(t for c in languages for t in prompt.refusal_translations.get(c, ()))]


def _sentences(text: str) -> list[str]:
    spans = split_sentences_with_offsets(text)
    return [s for s in (normalize_answer(text[a:b], None) for a, b in spans) if s]


def _bounded(part: str) -> re.Pattern[str]:
    """`part` as a run of whole words."""
    return re.compile(rf"(?<!\S){re.escape(part)}(?!\S)")


def read_refusal(answer: str, refusal_texts: list[str]) -> Reading:
    """`answer` read against refusals (each one or more sentences; see the module's rules)."""
    split = [_sentences(text) for text in refusal_texts]
    firsts = [_bounded(parts[0]) for parts in split if parts]
    known = sorted({p for parts in split for p in parts}, key=len, reverse=True)
    parts = [_bounded(p) for p in known]  # longest first: a part inside another goes last
    refusing, said_first = True, False
    sentences = _sentences(answer)
    for sentence in sentences:
        said_first |= any(first.search(sentence) for first in firsts)
        rest, found = sentence, 0
        for part in parts:
            rest, n = part.subn(" ", rest)
            found += n
        refusing &= found > 0 and len(rest.split()) <= LEAD_IN_WORDS
    if sentences and refusing:
        return Reading(ABSTAINED, "every sentence is the prompt's refusal")
    if not said_first:
        return Reading(ANSWERED, "no sentence says the refusal's first sentence")
    return Reading(INVALID, "the answer says the refusal and more: both refuses and answers")
