"""Build the prompt one model gets for one question: template, examples, window, model kind.

The prompt must fit the model's window with room for the answer: when it does not, few-shot
examples are dropped first (last first), then context passages (lowest-ranked first; for the
HealthBot prompt raw chunks before KB-update chunks, oldest update last), and the last passage
that still fits in part is trimmed. What was cut is returned as a `Truncation` record.
A base model (no chat template) gets the turns as one text laid out by its `completion_format`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from parakh.config.model import CompletionFormat, Sampling
from parakh.prompts.template import ContextPassage, PromptTemplate, context_of, render_turns
from parakh.schema import Question, Retrieval, Truncation

Turns = tuple[tuple[str, str], ...]
TokenCounter = Callable[[str], int]
PER_TURN_TOKENS = 4  # role markers a chat template adds around each turn
ELLIPSIS = " …"  # ends a text cut to fit a window


def cut_to(text: str, chars: int) -> str:
    """`text` cut after `chars` characters: trailing space dropped, `ELLIPSIS` added."""
    return text[:chars].rstrip() + ELLIPSIS


def longest_fitting_prefix(text: str, fits: Callable[[str], bool]) -> int:
    """The most characters of `text` that, cut there (`cut_to`), still `fits`; 0 if none do.
    A binary search: a cut that fits must mean every shorter one fits too."""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if fits(cut_to(text, mid)):
            low = mid
        else:
            high = mid - 1
    return low


@dataclass(frozen=True)
class ModelView:
    """What prompt building needs to know about a model (a slice of its catalog entry)."""

    kind: str
    context_window: int
    sampling: Sampling
    system_role: bool = True
    completion_format: CompletionFormat = field(default_factory=CompletionFormat)


@dataclass(frozen=True)
class BuiltPrompt:
    messages: Turns
    prompt: str | None  # completion text, for base models
    sampling: Sampling
    truncation: Truncation | None


def completion_prompt(turns: Turns, fmt: CompletionFormat) -> str:
    """One text from (role, content) turns, ending where the model should write."""
    layout = {"system": fmt.system, "user": fmt.user, "assistant": fmt.assistant}
    parts = [layout[role].replace("{content}", content) for role, content in turns]
    return "".join(parts) + fmt.generation_prefix


def merge_system_turn(turns: Turns) -> Turns:
    """For templates without a system role: the system text opens the first user turn."""
    if not turns or turns[0][0] != "system":
        return turns
    system, rest = turns[0][1], turns[1:]
    if rest and rest[0][0] == "user":
        return (("user", f"{system}\n\n{rest[0][1]}"), *rest[1:])
    return (("user", system), *rest)


def build_prompt(
    template: PromptTemplate,
    question: Question,
    retrieval: Retrieval | None,
    model: ModelView,
    count_tokens: TokenCounter,
    examples: Sequence[Question] = (),
    *,
    truncate: bool = True,
    margin_tokens: int = 32,
) -> BuiltPrompt:
    budget = model.context_window - model.sampling.max_tokens - margin_tokens

    def render(passages: list[ContextPassage], shots: list[Question]) -> tuple[Turns, str | None]:
        turns = render_turns(template, question, passages, shots)
        if not model.system_role:
            turns = merge_system_turn(turns)
        if model.kind == "base":
            return turns, completion_prompt(turns, model.completion_format)
        return turns, None

    def size(rendered: tuple[Turns, str | None]) -> int:
        turns, text = rendered
        if text is not None:
            return count_tokens(text)
        return sum(count_tokens(content) + PER_TURN_TOKENS for _, content in turns)

    passages = context_of(template, question, retrieval)
    shots = list(examples)
    rendered = render(passages, shots)
    truncation = None
    if truncate and size(rendered) > budget:
        rendered, truncation = _fit(render, size, budget, passages, shots)
    sampling = model.sampling
    if model.kind == "base":  # the format's stops too, so a base model stops after one answer
        stops = list(dict.fromkeys([*sampling.stop, *model.completion_format.stop]))
        sampling = sampling.model_copy(update={"stop": stops})
    return BuiltPrompt(rendered[0], rendered[1], sampling, truncation)


def _kept_chars(
    passages: list[ContextPassage], fits: Callable[[list[ContextPassage]], bool]
) -> int:
    """How many characters of the last passage, cut there, still fit beside the others."""
    others, last = passages[:-1], passages[-1]
    return longest_fitting_prefix(last.text, lambda cut: fits([*others, replace(last, text=cut)]))


def _fit(
    render: Callable[[list[ContextPassage], list[Question]], tuple[Turns, str | None]],
    size: Callable[[tuple[Turns, str | None]], int],
    budget: int,
    passages: list[ContextPassage],
    shots: list[Question],
) -> tuple[tuple[Turns, str | None], Truncation]:
    kept_shots, kept = list(shots), list(passages)
    rendered = render(kept, kept_shots)
    while kept_shots and size(rendered) > budget:
        kept_shots.pop()
        rendered = render(kept, kept_shots)

    def fits(candidate: list[ContextPassage]) -> bool:
        return size(render(candidate, kept_shots)) <= budget

    trimmed = 0
    while kept and size(rendered) > budget:
        without = render(kept[:-1], kept_shots)
        if size(without) > budget:
            kept, rendered = kept[:-1], without
            continue
        # Dropping the last passage would fit: keep as much of it as fits instead.
        last = kept[-1]
        low = _kept_chars(kept, fits)
        if low == 0:
            kept, rendered = kept[:-1], without
        else:
            trimmed = len(last.text) - low
            kept = [*kept[:-1], replace(last, text=cut_to(last.text, low))]
            rendered = render(kept, kept_shots)
        break
    total = size(rendered)
    return rendered, Truncation(
        budget_tokens=budget,
        prompt_tokens=total,
        passages_given=len(passages),
        passages_kept=len(kept),
        chars_trimmed=trimmed,
        examples_given=len(shots),
        examples_kept=len(kept_shots),
        overflow=total > budget,
    )
