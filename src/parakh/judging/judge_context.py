"""The knowledge base a judge reads, whole, cut only to fit the judge model's window.

Its chunks are the question's retrieval (`judge.chunks_from=index`, index/retrieval.jsonl), or
the chunks the answering model's prompt held (`judge.chunks_from=generation`): `seen_retrieval`
reads them back from the generation row's last user turn by the answer prompt's own template,
as the model saw them (a chunk cut to fit its window ends cut, a chunk left out is absent).
Those chunks are named by their place in the prompt (`prompt:raw:1`); the prompt carries no
document id or retrieval score (empty, 0).

Tokens are counted with the judge backend's tokenizer where it has one (llama.cpp, vLLM) and
otherwise with `estimate_tokens`, which errs high. When the chunks do not fit, raw chunks are cut
before KB-update chunks (the prompt tells the judge that updates take precedence), the
lowest-ranked raw chunk first and then the oldest update; a chunk that fits in part is trimmed
at a character boundary, one that does not fit at all is left out. The judge rows of a question
whose knowledge base was cut carry the `context_cut` flag.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from datetime import date

from parakh.prompts.builder import TokenCounter, cut_to, longest_fitting_prefix
from parakh.prompts.template import PromptTemplate
from parakh.schema import ChunkKind, Generation, Retrieval, RetrievedChunk

NO_CHUNKS = "(none)"
CONTEXT_CUT = "context_cut"  # the Judgment flag


def _render(chunks: list[RetrievedChunk], texts: list[str | None]) -> str:
    lines = [
        f"KBUpdateChunk (added {c.added_at}): {t}" if c.kind == "update" else f"RawChunk: {t}"
        for c, t in zip(chunks, texts, strict=True)
        if t is not None
    ]
    return "\n".join(lines) or NO_CHUNKS


def _cut_order(chunks: list[RetrievedChunk]) -> list[int]:
    """Positions in the order they give way: raw from the last (lowest-ranked), then updates
    from the last (oldest: updates come newest first)."""
    raw = [i for i, c in enumerate(chunks) if c.kind != "update"]
    updates = [i for i, c in enumerate(chunks) if c.kind == "update"]
    return raw[::-1] + updates[::-1]


def fit_knowledge_base(
    retrieval: Retrieval | None, budget_tokens: int, count_tokens: TokenCounter
) -> tuple[str, bool]:
    """The knowledge base text (raw chunks, then KB-update chunks newest first) within
    `budget_tokens` as `count_tokens` counts them, and whether it had to be cut."""
    if retrieval is None:
        return NO_CHUNKS, False
    chunks = [*retrieval.raw_chunks, *retrieval.kb_update_chunks]
    texts: list[str | None] = [c.text.strip() for c in chunks]
    whole = _render(chunks, texts)
    if count_tokens(whole) <= budget_tokens:
        return whole, False

    def fits(kb: list[str | None]) -> bool:
        return count_tokens(_render(chunks, kb)) <= budget_tokens

    for i in _cut_order(chunks):
        full = texts[i] or ""
        texts[i] = None
        if fits(texts):  # chunk i comes back, cut to the most that fits (or stays out)
            break
    else:
        return _render(chunks, texts), True
    before, after = texts[:i], texts[i + 1 :]
    kept = longest_fitting_prefix(full, lambda cut: fits([*before, cut, *after]))
    texts[i] = cut_to(full, kept) if kept else None
    return _render(chunks, texts), True


class PromptChunksError(ValueError):
    """A generation row whose prompt does not show the chunks its answer prompt would."""


def _pattern(template: str, fields: Mapping[str, str]) -> str:
    """`template` (a format string) as a regex: literal text escaped, each field in `fields`
    captured with its pattern (a repeat must match the same text), any other field any text."""
    parts: list[str] = []
    named: set[str] = set()
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is None:
            continue
        if field not in fields:
            parts.append("(?:.*?)")
        elif field in named:
            parts.append(f"(?P={field})")
        else:
            parts.append(f"(?P<{field}>{fields[field]})")
            named.add(field)
    return "".join(parts)


def _opening(item: str, n: int) -> str:
    """The literal start of chunk `n` in a block: `item` up to its first field other than n."""
    head = ""
    for literal, field, _, _ in string.Formatter().parse(item):
        head += literal
        if field != "n":
            return head
        head += str(n)
    return head


def _block_chunks(item: str, block: str | None, none: str, kind: ChunkKind) -> list[RetrievedChunk]:
    """The chunks of one rendered block (`item` per chunk, numbered from 1, one a line); none
    when the block is absent, empty or `none`."""
    if not block or block == none:
        return []
    chunks: list[RetrievedChunk] = []
    start, n = 0, 1
    while start < len(block):
        following = block.find("\n" + _opening(item, n + 1), start)
        end = len(block) if following < 0 else following
        fields = {"n": re.escape(str(n)), "text": ".*", "added_at": ".*?"}
        found = re.fullmatch(_pattern(item, fields), block[start:end], re.DOTALL)
        if found is None:
            raise PromptChunksError(f"{kind} chunk {n} does not have the form {item!r}")
        added = found.groupdict().get("added_at")
        try:
            added_at = None if added in (None, "None") else date.fromisoformat(added)
        except ValueError as e:
            raise PromptChunksError(f"{kind} chunk {n}: added date {added!r}: {e}") from e
        chunks.append(
            RetrievedChunk(
                chunk_id=f"prompt:{kind}:{n}",
                document_id="",
                kind=kind,
                text=found.group("text"),
                score=0.0,
                added_at=added_at,
            )
        )
        start, n = end + 1, n + 1
    return chunks


def seen_retrieval(generation: Generation, template: PromptTemplate) -> Retrieval:
    """The raw and KB-update chunks the prompt of `generation` held, read from its last user
    turn by `template` (the answer prompt it was built from). PromptChunksError says why not."""
    used = {f for _, f, _, _ in string.Formatter().parse(template.user) if f}
    if not used & {"raw_chunks", "kb_update_chunks"}:
        raise PromptChunksError(f"prompt '{template.name}' shows no raw or KB-update chunks")
    turns = [m["content"] for m in generation.messages if m.get("role") == "user"]
    if not turns:
        raise PromptChunksError("the row holds no prompt (`messages` has no user turn)")
    blocks = {"raw_chunks": ".*?", "kb_update_chunks": ".*?"}
    found = re.search(_pattern(template.user, blocks) + r"\Z", turns[-1], re.DOTALL)
    if found is None:
        raise PromptChunksError(f"its last user turn does not have prompt '{template.name}''s form")
    shown = found.groupdict()
    return Retrieval(
        question_id=generation.question_id,
        raw_chunks=_block_chunks(
            template.chunk, shown.get("raw_chunks"), template.no_chunks, "raw"
        ),
        kb_update_chunks=_block_chunks(
            template.update_chunk, shown.get("kb_update_chunks"), template.no_chunks, "update"
        ),
    )
