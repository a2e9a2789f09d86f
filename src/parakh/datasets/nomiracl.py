"""NoMIRACL: queries with their 10 retrieved Wikipedia passages and a query-level subset label.

Two layouts are read, giving the same questions, KB passages and stored model outputs.

Upstream (`results/baselines/` of github.com/project-miracl/nomiracl, what `parakh import-data
nomiracl` brings):

    relevant/<language>.test.vanilla_prompt.jsonl       query_id, docids (10 passage ids in
    non_relevant/<language>.test.vanilla_prompt.jsonl   prompt order), prompt, template, results

`prompt` is the whole vanilla prompt: the instruction, `QUESTION:` and the query, `CONTEXTS:` and
the passages as `[1] <title>: <text>` .. `[10] ...`, then `OUTPUT:`; the query and the passages
are parsed back out of it. `results` holds the authors' 11 models' outputs. A row whose prompt is
null upstream (421 of hi/te/bn's 1,250 rows) is kept for those outputs: its text a placeholder
naming the query id, no passages, `meta.prompt_unavailable` saying why and listing its docids.
A replayed model is evaluated on it; a new model is not asked (`replay.unasked_reason`).

Parsed (a folder made from upstream, the layout of a hand-made subset):

    queries.jsonl    language, split, subset (relevant | non_relevant), query_id, query,
                     docids, template, results (model outputs)
    passages.jsonl   language, docid, passage ("<title>: <text>")

The layout is the parsed one when `queries` exists, else the upstream one.

Passages are cut to their first `options.passage_tokens` whitespace-separated words (default
375, as the paper's 375 tokens, §4.3, nomiracl-summary.txt line 108; null: whole); a subword
tokenizer counts an Indic word as several tokens, so this cuts no more than the authors' token
cut (docs/fidelity.md). A question whose passages were cut lists them in `meta.cut_passages`.

`subset = relevant`: at least one passage answers the query, so a RAG system should answer;
`non_relevant`: none does, so it should abstain (`answerable = False`). Which passage is
relevant is not known, so the passages carry `relevant = None`. A question's id is
`<query_id>-<language>` (MIRACL query ids are per language).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field

from parakh.datasets.records import Record, jsonl_lines, parse_language
from parakh.datasets.registry import AdapterOptions
from parakh.datasets.rows import RowError, RowSink
from parakh.schema import PROMPT_UNAVAILABLE, KBDocument, Passage, Question

SUBSETS = ("relevant", "non_relevant")

_WORD = re.compile(r"\S+")
# Upstream file names: <language>.<split>.<template>_prompt.jsonl, e.g. hi.test.vanilla_prompt.jsonl
UPSTREAM_FILE = re.compile(
    r"^(?P<language>[a-z]{2,3})\.(?P<split>[a-z]+)\.(?P<template>\w+)_prompt\.jsonl$"
)
QUESTION_HEADER = "\n\nQUESTION:\n"
CONTEXTS_HEADER = "\n\nCONTEXTS:\n"
OUTPUT_HEADER = "\n\nOUTPUT:"


class NoMiraclOptions(AdapterOptions):
    queries: str = Field(default="queries.jsonl", description="parsed layout: the query file")
    passages: str = Field(default="passages.jsonl", description="parsed layout: the passage file")
    languages: list[str] | Literal["all"] | None = Field(
        default=None,
        description="upstream layout: read only these languages' files; `all` or None: every "
        "language found (upstream has 18)",
    )
    template: str = Field(
        default="vanilla", description="upstream layout: the prompt template whose runs are read"
    )
    passages_as_kb: bool = Field(default=True, description="every passage is also a KB document")
    keep_model_outputs: bool = Field(
        default=True, description="keep the authors' baseline outputs in meta.model_outputs"
    )
    passage_tokens: int | None = Field(
        default=375,
        ge=1,
        description="cut each passage after this many whitespace-separated words (the paper's "
        "375-token passages, §4.3; the authors' script cuts 370-380 tokens of "
        "the answering model's tokenizer); null: keep passages whole",
    )


def cut_to_words(text: str, max_words: int | None) -> str:
    """`text` up to the end of its `max_words`-th whitespace-separated word; unchanged when it
    has no more words than that (or `max_words` is None). The text before the cut is kept as
    it stands."""
    if max_words is None:
        return text
    words = _WORD.finditer(text)
    for count, word in enumerate(words, start=1):
        if count == max_words:
            return text[: word.end()] if next(words, None) is not None else text
    return text


def _passage(docid: str, whole: str, max_words: int | None) -> Passage:
    """Passage `docid` cut to `max_words`, titled by what precedes its first ": "."""
    text = cut_to_words(whole, max_words)
    title, sep, rest = text.partition(": ")
    return Passage(id=docid, text=text, title=title if sep and rest else None)


class PromptError(ValueError):
    """The prompt does not have the vanilla template's shape."""


def parse_prompt(prompt: str, count: int) -> tuple[str, list[str]]:
    """The query and `count` passages (in prompt order) taken back out of a NoMIRACL prompt.

    The passages sit between `CONTEXTS:` and the last `OUTPUT:` as `[1] ...`, separated by a
    blank line before each next number; each is kept exactly as it stands there (no stripping),
    since a passage cut at the authors' token limit may end mid-word or in spaces.
    """
    _, found, rest = prompt.partition(QUESTION_HEADER)
    if not found:
        raise PromptError(f"no {QUESTION_HEADER.strip()!r} header")
    query, found, contexts = rest.partition(CONTEXTS_HEADER)
    if not found:
        raise PromptError(f"no {CONTEXTS_HEADER.strip()!r} header after the question")
    end = contexts.rfind(OUTPUT_HEADER)
    if end < 0:
        raise PromptError(f"no {OUTPUT_HEADER.strip()!r} after the contexts")
    contexts = contexts[:end]
    if not contexts.startswith("[1] "):
        raise PromptError("the contexts do not start with '[1] '")
    passages = []
    start = len("[1] ")
    for number in range(2, count + 1):
        marker = f"\n\n[{number}] "
        cut = contexts.find(marker, start)
        if cut < 0:
            raise PromptError(f"{count} passage ids but no passage [{number}] in the prompt")
        passages.append(contexts[start:cut])
        start = cut + len(marker)
    passages.append(contexts[start:])
    if f"\n\n[{count + 1}] " in passages[-1]:
        raise PromptError(f"more passages in the prompt than the {count} passage ids")
    return query.strip(), passages


def _docids(record: Record) -> list[str]:
    docids = record.raw("docids")
    if not isinstance(docids, list) or not docids:
        raise record.error("docids", "expected a non-empty list of passage ids")
    for i, docid in enumerate(docids):
        if not isinstance(docid, str) or not docid.strip():
            # str() would make `true` the id 'True' and `null` the id 'None'
            raise record.error(f"docids[{i}]", f"expected a passage id (text), got {docid!r}")
    return list(docids)


class _Collector:
    """Builds questions and the passages they use, the same way for both layouts."""

    def __init__(self, options: NoMiraclOptions, sink: RowSink) -> None:
        self.options = options
        self.sink = sink
        self.passages: dict[tuple[str, str], Passage] = {}
        self.sources: dict[tuple[str, str], str] = {}  # passage -> the file it was read from
        self.cut: set[tuple[str, str]] = set()  # passages cut to options.passage_tokens

    def passage(self, language: str, docid: str, text: str) -> Passage:
        """The passage `docid` as this prompt gives it (cut to the word budget). Upstream gives
        some docids other text in another prompt (cut at another length, or, once, another
        passage): each question keeps its own prompt's text (`add` notes where it differs from
        the KB document, which keeps the first)."""
        passage = _passage(docid, text, self.options.passage_tokens)
        if passage.text != text:
            self.cut.add((language, docid))
        previous = self.passages.get((language, docid))
        return previous if previous is not None and previous.text == passage.text else passage

    def read_passages(self, path: Path) -> None:
        """The parsed layout's passages by (language, docid), cut to the word budget; a docid
        given twice must have one text."""
        for line in jsonl_lines(path):
            with self.sink.guard(line.text):
                record = line.parse()
                key = (record.language("language"), record.text("docid"))
                whole = record.text("passage", strip=False)
                passage = _passage(key[1], whole, self.options.passage_tokens)
                if self.passages.setdefault(key, passage).text != passage.text:
                    message = f"docid {key[1]!r} repeats with other text"
                    raise record.error("passage", message, "duplicate_id_conflict")
                if passage.text != whole:
                    self.cut.add(key)

    def add(
        self, record: Record, *, language: str, subset: str, split: object, query: str,
        contexts: list[Passage], source: str, unavailable: dict[str, object] | None = None,
    ) -> None:  # fmt: skip
        query_id = record.text("query_id")
        meta: dict[str, object] = {"query_id": query_id, "split": split}
        if unavailable is not None:
            meta[PROMPT_UNAVAILABLE] = unavailable
        outputs = record.values.get("results")
        if self.options.keep_model_outputs and isinstance(outputs, dict):
            meta["model_outputs"] = outputs
        cut = [p.id for p in contexts if (language, p.id) in self.cut]
        if cut:
            meta["cut_passages"] = cut
        known = [self.passages.get((language, p.id)) for p in contexts]
        differs = [p.id for p, k in zip(contexts, known, strict=True) if k and k.text != p.text]
        if differs:  # the KB document of these ids holds another prompt's text
            meta["kb_text_differs"] = differs
        fields = {
            "id": f"{query_id}-{language}",
            "text": query,
            "language": language,
            "label_source": {"language": "dataset"},
            "contexts": contexts,
            "answerable": subset == "relevant",
            "subset": subset,
            "meta": meta,
        }
        if unavailable is not None:  # the placeholder text says nothing of the query's script
            given = ("language", "romanized", "code_mixed")
            fields["label_source"] = dict.fromkeys(given, "dataset")
            fields["romanized"] = fields["code_mixed"] = False
        self.sink.add_question(record.build(Question, fields), record.origin)
        for p in contexts:
            self.passages.setdefault((language, p.id), p)
            self.sources.setdefault((language, p.id), source)

    def add_documents(self) -> None:
        """Every passage some question uses, once, as a KB document `<language>:<docid>`."""
        if not self.options.passages_as_kb:
            return
        for (language, docid), source in sorted(self.sources.items()):
            passage = self.passages[(language, docid)]
            self.sink.add_document(
                KBDocument(
                    id=f"{language}:{docid}",
                    text=passage.text,
                    source=source,
                    kind="raw",
                    title=passage.title,
                )
            )


def load_parsed(root: Path, options: NoMiraclOptions, sink: RowSink) -> None:
    """queries.jsonl + passages.jsonl: the prompts already parsed into fields."""
    collector = _Collector(options, sink)
    collector.read_passages(root / options.passages)
    for line in jsonl_lines(root / options.queries):
        with sink.guard(line.text):
            record = line.parse()
            language = record.language("language")
            subset = record.text("subset")
            if subset not in SUBSETS:
                raise record.error("subset", f"expected one of {SUBSETS}, got {subset!r}")
            contexts = []
            for i, docid in enumerate(_docids(record)):
                passage = collector.passages.get((language, docid))
                if passage is None:
                    raise record.error(
                        f"docids[{i}]",
                        f"passage {docid!r} ({language}) is not in {options.passages}",
                        "missing_passage",
                    )
                contexts.append(passage)
            collector.add(
                record, language=language, subset=subset, split=record.values.get("split"),
                query=record.text("query"), contexts=contexts, source=options.passages,
            )  # fmt: skip
    collector.add_documents()


def upstream_files(root: Path, options: NoMiraclOptions) -> list[tuple[str, Path, re.Match[str]]]:
    """(subset, file, name match) of every upstream run file to read, in a stable order."""
    found = []
    wanted = None if options.languages == "all" else options.languages
    for subset in SUBSETS:
        folder = root / subset
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            match = UPSTREAM_FILE.match(path.name)
            if match is None or match["template"] != options.template:
                continue
            if wanted is not None and match["language"] not in wanted:
                continue
            found.append((subset, path, match))
    if not found:
        raise RowError(
            root,
            f"neither {options.queries} (parsed layout) nor "
            f"{{relevant,non_relevant}}/<language>.test.{options.template}_prompt.jsonl files "
            f"for {wanted or 'any language'} (upstream layout) found",
            reason="missing_file",
        )
    return found


def load_upstream(root: Path, options: NoMiraclOptions, sink: RowSink) -> None:
    """The authors' baseline-run files as they are: one prompt (query + passages) per line."""
    collector = _Collector(options, sink)
    for subset, path, match in upstream_files(root, options):
        for line in jsonl_lines(path):
            with sink.guard(line.text):
                record = line.parse()
                language = parse_language(
                    match["language"], record.error_factory("language (from the file name)")
                )
                docids, source = _docids(record), f"{subset}/{path.name}"
                if record.values.get("prompt") is None:
                    # kept for its stored outputs: the text a placeholder, the passages unknown
                    query_id = record.text("query_id")
                    collector.add(
                        record, language=language, subset=subset, split=match["split"],
                        query=f"[NoMIRACL query {query_id}: text not in {source}]", contexts=[],
                        source=source,
                        unavailable={
                            "reason": f"prompt is null in {source}, line {record.line}: the "
                            "query text and its passages are unknown",
                            "docids": docids,
                        },
                    )  # fmt: skip
                    continue
                try:
                    query, texts = parse_prompt(record.text("prompt", strip=False), len(docids))
                except PromptError as e:
                    raise record.error("prompt", str(e), "bad_prompt") from None
                if not query:
                    raise record.error(
                        "prompt", "the question in the prompt is empty", "empty_text"
                    )
                contexts = [
                    collector.passage(language, docid, text)
                    for docid, text in zip(docids, texts, strict=True)
                ]
                collector.add(
                    record, language=language, subset=subset, split=match["split"],
                    query=query, contexts=contexts, source=source,
                )  # fmt: skip
    collector.add_documents()


def load_nomiracl(root: Path, options: NoMiraclOptions, sink: RowSink) -> None:
    if not root.is_dir():
        raise RowError(root, "dataset folder not found", reason="missing_file")
    if (root / options.queries).is_file():
        load_parsed(root, options, sink)
    else:
        load_upstream(root, options, sink)
