"""The knowledge base a judge reads: the chunks the answering model saw, whole, cut only to fit
the judge model's window.

Tokens are counted with the judge backend's tokenizer where it has one (llama.cpp, vLLM) and
otherwise with `estimate_tokens`, which errs high. When the chunks do not fit, raw chunks are cut
before KB-update chunks (the prompt tells the judge that updates take precedence), the
lowest-ranked raw chunk first and then the oldest update; a chunk that fits in part is trimmed
at a character boundary, one that does not fit at all is left out. Every cut is returned as a
`ContextCut`, which the judge rows carry as the `context_cut` flag.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parakh.prompts.builder import TokenCounter, cut_to, longest_fitting_prefix
from parakh.schema import Judgment, Retrieval, RetrievedChunk

NO_CHUNKS = "(none)"
CONTEXT_CUT = "context_cut"  # the Judgment flag


@dataclass(frozen=True)
class ContextCut:
    """How a question's knowledge base was cut to fit a judge's window."""

    budget_tokens: int
    kb_tokens: int  # the whole knowledge base, uncut
    chunks_given: int
    trimmed: tuple[str, ...]  # chunk ids kept in part
    dropped: tuple[str, ...]  # chunk ids left out

    def describe(self) -> str:
        return (
            f"knowledge base of {self.kb_tokens} tokens cut to a {self.budget_tokens}-token "
            f"budget: trimmed {list(self.trimmed)}, left out {list(self.dropped)} "
            f"of {self.chunks_given} chunks"
        )


def _line(chunk: RetrievedChunk, text: str) -> str:
    if chunk.kind == "update":
        return f"KBUpdateChunk (added {chunk.added_at}): {text}"
    return f"RawChunk: {text}"


def _render(chunks: list[RetrievedChunk], texts: list[str | None]) -> str:
    lines = [_line(c, t) for c, t in zip(chunks, texts, strict=True) if t is not None]
    return "\n".join(lines) or NO_CHUNKS


def _cut_order(chunks: list[RetrievedChunk]) -> list[int]:
    """Positions in the order they give way: raw from the last (lowest-ranked), then updates
    from the last (oldest: updates come newest first)."""
    raw = [i for i, c in enumerate(chunks) if c.kind != "update"]
    updates = [i for i, c in enumerate(chunks) if c.kind == "update"]
    return raw[::-1] + updates[::-1]


def fit_knowledge_base(
    retrieval: Retrieval | None,
    budget_tokens: int | None,
    count_tokens: TokenCounter,
) -> tuple[str, ContextCut | None]:
    """The knowledge base text (raw chunks, then KB-update chunks newest first) within
    `budget_tokens` as `count_tokens` counts them (None: no limit), and the cut, if any."""
    if retrieval is None:
        return NO_CHUNKS, None
    chunks = [*retrieval.raw_chunks, *retrieval.kb_update_chunks]
    texts: list[str | None] = [c.text.strip() for c in chunks]
    whole = _render(chunks, texts)
    if budget_tokens is None:
        return whole, None
    kb_tokens = count_tokens(whole)
    if kb_tokens <= budget_tokens:
        return whole, None
    trimmed: list[str] = []
    dropped: list[str] = []

    def fits(kb: list[str | None]) -> bool:
        return count_tokens(_render(chunks, kb)) <= budget_tokens

    for i in _cut_order(chunks):
        full = texts[i] or ""
        texts[i] = None
        if not fits(texts):
            dropped.append(chunks[i].chunk_id)
            continue
        low = _kept_chars(texts, i, full, fits)
        if low == 0:
            dropped.append(chunks[i].chunk_id)
        else:
            texts[i] = cut_to(full, low)
            trimmed.append(chunks[i].chunk_id)
        break
    cut = ContextCut(budget_tokens, kb_tokens, len(chunks), tuple(trimmed), tuple(dropped))
    return _render(chunks, texts), cut


def _kept_chars(
    texts: list[str | None], i: int, full: str, fits: Callable[[list[str | None]], bool]
) -> int:
    """How many characters of chunk `i`'s text (`full`), cut there, still fit beside `texts`."""
    before, after = texts[:i], texts[i + 1 :]
    return longest_fitting_prefix(full, lambda cut: fits([*before, cut, *after]))


def with_context_cut_flag(row: Judgment) -> Judgment:
    """The row flagged `context_cut` (a rubric row of a question whose knowledge base was cut)."""
    if CONTEXT_CUT in row.flags:
        return row
    return row.model_copy(update={"flags": [*row.flags, CONTEXT_CUT]})
