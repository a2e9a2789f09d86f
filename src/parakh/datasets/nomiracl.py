"""NoMIRACL: queries with their 10 retrieved Wikipedia passages and a query-level subset label.

    queries.jsonl    language, split, subset (relevant | non_relevant), query_id, query,
                     docids (10 passage ids in prompt order), template, results (model outputs)
    passages.jsonl   language, docid, passage ("<title>: <text>")

`subset = relevant`: at least one passage answers the query, so a RAG system should answer;
`non_relevant`: none does, so it should abstain (`answerable = False`). Which passage is
relevant is not known, so the passages carry `relevant = None`. A question's id is
`<query_id>-<language>` (MIRACL query ids are per language).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from parakh.datasets.records import jsonl_lines
from parakh.datasets.registry import AdapterOptions, register
from parakh.datasets.rows import RowError, RowSink
from parakh.schema import KBDocument, Passage, Question

SUBSETS = ("relevant", "non_relevant")


class NoMiraclOptions(AdapterOptions):
    queries: str = "queries.jsonl"
    passages: str = "passages.jsonl"
    passages_as_kb: bool = Field(default=True, description="every passage is also a KB document")
    keep_model_outputs: bool = Field(
        default=True, description="keep the authors' baseline outputs in meta.model_outputs"
    )


def split_title(passage: str) -> tuple[str | None, str]:
    title, sep, text = passage.partition(": ")
    return (title, text) if sep and text else (None, passage)


def load_passages(path: Path, sink: RowSink) -> dict[tuple[str, str], Passage]:
    passages: dict[tuple[str, str], Passage] = {}
    for line in jsonl_lines(path):
        with sink.guard(line.text):
            record = line.parse()
            language, docid = record.language("language"), record.text("docid")
            text = record.text("passage", strip=False)
            previous = passages.get((language, docid))
            if previous is not None and previous.text != text:
                raise record.error(
                    "passage", f"docid {docid!r} repeats with other text", "duplicate_id_conflict"
                )
            title, _ = split_title(text)
            passages[(language, docid)] = Passage(id=docid, text=text, title=title)
    return passages


@register("nomiracl", NoMiraclOptions)
def load_nomiracl(root: Path, options: NoMiraclOptions, sink: RowSink) -> None:
    if not root.is_dir():
        raise RowError(root, "dataset folder not found", reason="missing_file")
    passages = load_passages(root / options.passages, sink)
    used: set[tuple[str, str]] = set()
    for line in jsonl_lines(root / options.queries):
        with sink.guard(line.text):
            record = line.parse()
            language = record.language("language")
            subset = record.text("subset")
            if subset not in SUBSETS:
                raise record.error("subset", f"expected one of {SUBSETS}, got {subset!r}")
            docids = record.raw("docids")
            if not isinstance(docids, list) or not docids:
                raise record.error("docids", "expected a non-empty list of passage ids")
            contexts = []
            for i, docid in enumerate(docids):
                passage = passages.get((language, str(docid)))
                if passage is None:
                    raise record.error(
                        f"docids[{i}]",
                        f"passage {docid!r} ({language}) is not in {options.passages}",
                        "missing_passage",
                    )
                contexts.append(passage)
            query_id = record.text("query_id")
            meta: dict[str, object] = {"query_id": query_id, "split": record.values.get("split")}
            outputs = record.values.get("results")
            if options.keep_model_outputs and isinstance(outputs, dict):
                meta["model_outputs"] = outputs
            fields = {
                "id": f"{query_id}-{language}",
                "text": record.text("query"),
                "language": language,
                "label_source": {"language": "dataset"},
                "contexts": contexts,
                "answerable": subset == "relevant",
                "subset": subset,
                "meta": meta,
            }
            sink.add_question(record.build(Question, fields), record.origin)
            used.update((language, p.id) for p in contexts)
    if options.passages_as_kb:
        for (language, docid), passage in sorted(passages.items()):
            if (language, docid) in used:
                sink.add_document(
                    KBDocument(
                        id=f"{language}:{docid}",
                        text=passage.text,
                        source=options.passages,
                        kind="raw",
                        title=passage.title,
                    )
                )
