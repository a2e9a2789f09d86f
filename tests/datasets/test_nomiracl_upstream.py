"""The nomiracl adapter on upstream's layout: the authors' baseline-run files, one prompt a line.

fixtures/nomiracl_upstream/ holds real excerpts of upstream's `results/baselines/` at the pinned
commit (its README lists the lines): `{relevant,non_relevant}/<language>.test.vanilla_prompt.jsonl`,
rows `query_id, docids, prompt, template, results`, a null-prompt row in each (as 1,409 of the
8,045 rows upstream), a blank stored output, and an Indonesian row without aya-101's output.
The mirror test rebuilds upstream's files from the shared mirror's parsed queries and passages
and checks that both layouts give the same questions, passages, outputs and KB documents.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from parakh.datasets import load_dataset
from parakh.datasets.nomiracl import PromptError, parse_prompt
from parakh.errors import InputError
from parakh.schema import PROMPT_UNAVAILABLE
from tests.datasets.mirror import mirror_folder

FIXTURE = Path(__file__).parent / "fixtures" / "nomiracl_upstream" / "results" / "baselines"
INSTRUCTION = (
    "I will give you a question and several contexts containing information about the question. "
    "Read the contexts carefully. If any of the contexts answers the question, respond as either "
    '"Yes, answer is present" or "I don\'t know".'
)
ELEVEN = 11  # models with stored outputs in every upstream row (aya-101 missing in 26 id rows)


def vanilla_prompt(query: str, passages: list[str]) -> str:
    """The vanilla prompt as the NoMIRACL authors' runs store it."""
    contexts = "\n\n".join(f"[{i}] {p}" for i, p in enumerate(passages, start=1))
    return f"{INSTRUCTION}\n\nQUESTION:\n{query}\n\nCONTEXTS:\n{contexts}\n\nOUTPUT:\n"


def _rows(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_questions_passages_and_outputs_come_out_of_the_prompts() -> None:
    loaded = load_dataset("nomiracl", FIXTURE, {}, strict=True)
    by_id = {q.id: q for q in loaded.questions}
    assert len(by_id) == 26 and loaded.rejected == []  # every upstream row, ids per language
    assert {q.language for q in loaded.questions} == {"hi", "te", "bn", "id"}

    q = by_id["217379#0-hi"]
    assert (q.text, q.language, q.subset, q.answerable) == (
        "वृक्ष के तनों में रहने वाले प्राणियों को क्या कहा जाता है?", "hi", "relevant", True,
    )  # fmt: skip
    [row] = [r for r in _rows(FIXTURE / "relevant" / "hi.test.vanilla_prompt.jsonl")
             if r["query_id"] == "217379#0"]  # fmt: skip
    assert [p.id for p in q.contexts] == row["docids"]
    for i, p in enumerate(q.contexts, start=1):  # kept exactly as the prompt has them
        assert f"[{i}] {p.text}" in row["prompt"]
        assert p.title is not None and p.text.startswith(f"{p.title}: ")
        assert p.relevant is None
    assert q.meta == {"query_id": "217379#0", "split": "test", "model_outputs": row["results"]}
    abstain = by_id["748478-0-hi"]  # upstream's Hindi non-relevant ids use '-', not '#'
    assert (abstain.subset, abstain.answerable) == ("non_relevant", False)

    docs = {d.id: d for d in loaded.documents}
    assert docs["hi:798125#7"].source == "relevant/hi.test.vanilla_prompt.jsonl"
    assert docs["hi:798125#7"].text == q.contexts[0].text
    asked = [q for q in loaded.questions if PROMPT_UNAVAILABLE not in q.meta]
    assert len(docs) == len({(q.language, p.id) for q in asked for p in q.contexts})


def test_a_null_prompt_row_keeps_its_stored_outputs() -> None:
    """A row whose prompt is null upstream is a question with a placeholder text, no passages
    and every model's output; meta says why and which passages it was asked with."""
    loaded = load_dataset("nomiracl", FIXTURE, {}, strict=True)
    by_id = {q.id: q for q in loaded.questions}
    q = by_id["690356#0-hi"]
    [row] = _rows(FIXTURE / "relevant" / "hi.test.vanilla_prompt.jsonl")[:1]
    assert row["prompt"] is None
    assert q.text == "[NoMIRACL query 690356#0: text not in relevant/hi.test.vanilla_prompt.jsonl]"
    assert (q.language, q.subset, q.contexts, q.romanized) == ("hi", "relevant", [], False)
    assert q.meta["model_outputs"] == row["results"] and len(row["results"]) == ELEVEN
    assert q.meta[PROMPT_UNAVAILABLE] == {
        "reason": "prompt is null in relevant/hi.test.vanilla_prompt.jsonl, line 1: the query "
        "text and its passages are unknown",
        "docids": row["docids"],
    }
    unavailable = sorted(q.id for q in loaded.questions if PROMPT_UNAVAILABLE in q.meta)
    assert unavailable == [
        "108359#0-te", "15745#0-id", "42973#0-bn", "49983#0-te", "503636-0-hi", "690356#0-hi",
        "7481#0-bn", "876331-0-hi",
    ]  # fmt: skip


def test_languages_option_reads_only_those_files() -> None:
    loaded = load_dataset("nomiracl", FIXTURE, {"languages": ["te"]})
    assert sorted(q.id for q in loaded.questions) == [
        "108359#0-te", "16875#0-te", "240579#0-te", "49816#0-te", "49983#0-te",
    ]  # fmt: skip
    assert {d.id.split(":")[0] for d in loaded.documents} == {"te"}
    assert loaded.rejected == []
    every = load_dataset("nomiracl", FIXTURE, {"languages": "all"})
    assert every.questions == load_dataset("nomiracl", FIXTURE, {}).questions


def test_a_folder_in_neither_layout_names_both(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"queries\.jsonl \(parsed layout\).*upstream layout"):
        load_dataset("nomiracl", tmp_path, {})
    with pytest.raises(InputError, match=r"for \['ta'\]"):
        load_dataset("nomiracl", FIXTURE, {"languages": ["ta"]})


def _copy_fixture(tmp_path: Path) -> Path:
    root = tmp_path / "baselines"
    shutil.copytree(FIXTURE, root)
    return root


def test_a_prompt_with_too_few_passages_names_file_line_and_field(tmp_path: Path) -> None:
    root = _copy_fixture(tmp_path)
    path = root / "relevant" / "te.test.vanilla_prompt.jsonl"
    rows = _rows(path)
    rows[2]["docids"].append("1#0")  # 11 ids, 10 passages in the prompt
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    with pytest.raises(InputError) as err:
        load_dataset("nomiracl", root, {}, strict=True)
    assert (err.value.line, err.value.field) == (3, "prompt")
    assert "te.test.vanilla_prompt.jsonl" in str(err.value)
    assert "11 passage ids but no passage [11]" in str(err.value)
    lenient = load_dataset("nomiracl", root, {}, strict=False)
    assert "49816#0-te" not in {q.id for q in lenient.questions}
    assert [r.reason for r in lenient.rejected] == ["bad_prompt"]


def test_a_docid_with_other_text_in_another_prompt_keeps_each_prompts_text(
    tmp_path: Path,
) -> None:
    """Upstream cuts some passages at other lengths in other prompts (156 docids of sw, fi,
    fr, zh) and gives zh '481#123' two passages: each question keeps its own prompt's text,
    the KB document the first, and the question says which of its ids differ."""
    root = _copy_fixture(tmp_path)
    path = root / "relevant" / "hi.test.vanilla_prompt.jsonl"
    rows = _rows(path)
    first = rows[1]["docids"][0]  # line 2's first passage id, on line 3 for another text
    rows[2]["docids"][0] = first
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    loaded = load_dataset("nomiracl", root, {}, strict=True)
    by_id = {q.id: q for q in loaded.questions}
    line2, line3 = by_id["1217804#0-hi"], by_id["217379#0-hi"]
    assert line3.contexts[0].id == first
    assert f"[1] {line3.contexts[0].text}\n\n[2] " in rows[2]["prompt"]
    assert line3.contexts[0].text != line2.contexts[0].text
    assert line3.meta["kb_text_differs"] == [first] and "kb_text_differs" not in line2.meta
    docs = {d.id: d for d in loaded.documents}
    assert docs[f"hi:{first}"].text == line2.contexts[0].text


def test_parse_prompt_keeps_passage_text_verbatim() -> None:
    prompt = vanilla_prompt(" q ", ["a: b\n\nc", "[2] not a marker ", "d"])
    query, passages = parse_prompt(prompt, 3)
    assert query == "q"
    assert passages == ["a: b\n\nc", "[2] not a marker ", "d"]
    with pytest.raises(PromptError, match="more passages in the prompt than the 2"):
        parse_prompt(vanilla_prompt("q", ["a", "b", "c"]), 2)
    with pytest.raises(PromptError, match="QUESTION"):
        parse_prompt("no headers at all", 1)


def test_upstream_files_rebuilt_from_the_mirror_give_the_mirror_dataset(
    shared_data: Path, tmp_path: Path
) -> None:
    """Upstream's layout rebuilt from the mirror's queries and passages (plus a null-prompt row
    per file, as upstream has): same questions, contexts, outputs and KB texts, ids included."""
    mirror = mirror_folder(shared_data, "nomiracl")
    passages = {}
    for line in (mirror / "passages.jsonl").read_text(encoding="utf-8").splitlines():
        p = json.loads(line)
        passages[(p["language"], p["docid"])] = p["passage"]
    files: dict[Path, list[str]] = {}
    for line in (mirror / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        texts = [passages[(q["language"], d)] for d in q["docids"]]
        path = tmp_path / q["subset"] / f"{q['language']}.{q['split']}.vanilla_prompt.jsonl"
        rows = files.setdefault(path, [])
        if not rows:  # a row upstream could not keep: prompt null
            null = {"query_id": "0#0", "docids": q["docids"], "prompt": None}
            rows.append(json.dumps({**null, "template": "vanilla", "results": {}}))
        upstream = {
            "query_id": q["query_id"],
            "docids": q["docids"],
            "prompt": vanilla_prompt(q["query"], texts),
            "template": q["template"],
            "results": q["results"],
        }
        rows.append(json.dumps(upstream, ensure_ascii=False))
    for path, rows in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")

    parsed = load_dataset("nomiracl", mirror, {}, strict=True)
    rebuilt = load_dataset("nomiracl", tmp_path, {}, strict=True)
    assert rebuilt.rejected == [] and len(files) == 5  # hi, te: both subsets; bn: non_relevant
    by_id = {q.id: q for q in rebuilt.questions if PROMPT_UNAVAILABLE not in q.meta}
    assert len(rebuilt.questions) - len(by_id) == len(files)  # the null-prompt rows, kept
    assert len(by_id) == len(parsed.questions) == 661
    assert [by_id[q.id] for q in parsed.questions] == parsed.questions
    assert [d.id for d in rebuilt.documents] == [d.id for d in parsed.documents]
    for new, old in zip(rebuilt.documents, parsed.documents, strict=True):
        # Only the provenance differs: the run file the passage came from, not passages.jsonl.
        assert new.model_copy(update={"source": old.source}) == old
        assert new.source.endswith(".test.vanilla_prompt.jsonl")


def test_replay_reads_the_stored_outputs_of_either_layout_from_curated_questions(
    tmp_path: Path,
) -> None:
    """conf/model/nomiracl-*.yaml replay `meta.model_outputs` of curate's questions.jsonl, so
    they work whichever layout data/raw/nomiracl holds: here, upstream's."""
    import yaml

    from parakh.backends import make_backend
    from parakh.backends.replay import ReplayBackend
    from parakh.config.model import ReplayModel
    from parakh.io import write_jsonl

    shipped = Path(__file__).parents[2] / "conf" / "model" / "nomiracl-gpt-4-azure.yaml"
    cfg = ReplayModel.model_validate(yaml.safe_load(shipped.read_text(encoding="utf-8")))
    assert (cfg.responses_field, cfg.question_id_field) == ("meta.model_outputs", "id")
    loaded = load_dataset("nomiracl", FIXTURE, {})
    curated = tmp_path / "questions.jsonl"
    write_jsonl(curated, loaded.questions)
    backend = make_backend(
        cfg.model_copy(update={"answers": str(curated), "model_value": "aya-101"})
    )
    assert isinstance(backend, ReplayBackend)
    backend.prepare([q.id for q in loaded.questions])
    stored = {
        f"{row['query_id']}-{path.name.split('.')[0]}": row["results"]
        for path in sorted(FIXTURE.glob("*/*.jsonl"))
        for row in _rows(path)
    }
    # Every stored output, null-prompt rows included; the id row without one is not answered.
    assert {qid: a.response for qid, a in backend.answers.items()} == {
        qid: (outputs["aya-101"] if outputs["aya-101"].strip() else None)
        for qid, outputs in stored.items()
        if "aya-101" in outputs
    }
    assert len(backend.answers) == len(stored) - 1 == 25
    # A file without the nested field names it (a raw queries.jsonl given by mistake).
    raw = tmp_path / "raw.jsonl"
    raw.write_text(json.dumps({"id": "217379#0-hi", "results": {}}) + "\n", encoding="utf-8")
    missing = "missing field 'meta.model_outputs'; fields found: id, results"
    with pytest.raises(InputError, match=missing) as err:
        make_backend(cfg.model_copy(update={"answers": str(raw)}))
    assert (err.value.line, err.value.field) == (1, "meta.model_outputs")
