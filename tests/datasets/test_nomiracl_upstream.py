"""The nomiracl adapter on upstream's layout: the authors' baseline-run files, one prompt a line.

fixtures/nomiracl_upstream/ is made up in upstream's format (short made-up prompts, not copied
data): `{relevant,non_relevant}/<language>.test.vanilla_prompt.jsonl`, rows `query_id, docids,
prompt, template, results`, one prompt with a null `prompt` (as 421 hi/te/bn rows are upstream).
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
from tests.datasets.mirror import mirror_folder

FIXTURE = Path(__file__).parent / "fixtures" / "nomiracl_upstream"
INSTRUCTION = (
    "I will give you a question and several contexts containing information about the question. "
    "Read the contexts carefully. If any of the contexts answers the question, respond as either "
    '"Yes, answer is present" or "I don\'t know".'
)


def vanilla_prompt(query: str, passages: list[str]) -> str:
    """The vanilla prompt as the NoMIRACL authors' runs store it."""
    contexts = "\n\n".join(f"[{i}] {p}" for i, p in enumerate(passages, start=1))
    return f"{INSTRUCTION}\n\nQUESTION:\n{query}\n\nCONTEXTS:\n{contexts}\n\nOUTPUT:\n"


def test_questions_passages_and_outputs_come_out_of_the_prompts() -> None:
    loaded = load_dataset("nomiracl", FIXTURE, {})
    by_id = {q.id: q for q in loaded.questions}
    assert sorted(by_id) == ["101#0-hi", "101#0-te", "103#0-hi"]  # ids are per language

    q = by_id["101#0-hi"]
    assert (q.text, q.language, q.subset, q.answerable) == (
        "नीला पहाड़ कहाँ है?", "hi", "relevant", True,
    )  # fmt: skip
    assert [p.id for p in q.contexts] == ["7#1", "7#2", "9#0"]
    # Kept exactly as in the prompt: a passage cut at the token limit keeps its trailing space.
    assert q.contexts[1].text == "नीला पहाड़: इसकी ऊँचाई दो हज़ार मीटर मानी "
    assert q.contexts[0].title == "नीला पहाड़"
    assert all(p.relevant is None for p in q.contexts)
    assert q.meta == {
        "query_id": "101#0",
        "split": "test",
        "model_outputs": {"model-a": "Yes, answer is present", "model-b": "I don't know"},
    }
    abstain = by_id["103#0-hi"]
    assert (abstain.subset, abstain.answerable) == ("non_relevant", False)
    assert abstain.contexts[1].title == "शहर"  # split at the first ": " only
    assert abstain.contexts[2].title is None
    assert abstain.meta["model_outputs"]["model-b"] == "\nYes, answer is present in [2]."
    # The role-template file beside the vanilla one is not read.
    assert all(len(q.contexts) > 1 for q in loaded.questions)

    docs = {d.id: d for d in loaded.documents}
    assert sorted(docs) == ["hi:5#2", "hi:7#1", "hi:7#2", "hi:8#4", "hi:9#0", "te:3#0", "te:3#1"]
    assert docs["hi:9#0"].source == "relevant/hi.test.vanilla_prompt.jsonl"  # where first seen
    assert docs["hi:5#2"].source == "non_relevant/hi.test.vanilla_prompt.jsonl"
    assert docs["hi:7#2"].text == q.contexts[1].text


def test_a_null_prompt_is_a_recorded_row_not_a_silent_drop() -> None:
    loaded = load_dataset("nomiracl", FIXTURE, {}, strict=True)
    assert "102#0-hi" not in {q.id for q in loaded.questions}
    [row] = loaded.rejected
    assert row.file.endswith("relevant/hi.test.vanilla_prompt.jsonl")
    assert (row.line, row.field, row.reason) == (2, "prompt", "no_prompt")
    assert "query text and its passages are unknown" in row.message
    assert json.loads(row.record)["query_id"] == "102#0"


def test_languages_option_reads_only_those_files() -> None:
    loaded = load_dataset("nomiracl", FIXTURE, {"languages": ["te"]})
    assert [q.id for q in loaded.questions] == ["101#0-te"]
    assert [d.id for d in loaded.documents] == ["te:3#0", "te:3#1"]
    assert loaded.rejected == []


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
    row = json.loads(path.read_text(encoding="utf-8"))
    row["docids"].append("3#2")  # three ids, two passages in the prompt
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_dataset("nomiracl", root, {}, strict=True)
    assert (err.value.line, err.value.field) == (1, "prompt")
    assert "te.test.vanilla_prompt.jsonl" in str(err.value)
    assert "3 passage ids but no passage [3]" in str(err.value)
    lenient = load_dataset("nomiracl", root, {}, strict=False)
    assert "101#0-te" not in {q.id for q in lenient.questions}
    assert {r.reason for r in lenient.rejected} == {"no_prompt", "bad_prompt"}


def test_one_docid_with_two_texts_is_an_error(tmp_path: Path) -> None:
    root = _copy_fixture(tmp_path)
    path = root / "non_relevant" / "hi.test.vanilla_prompt.jsonl"
    row = json.loads(path.read_text(encoding="utf-8"))
    row["prompt"] = vanilla_prompt("लाल झील किसने बनाई?", ["हरी नदी: अन्य पाठ", "x: y", "z"])
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_dataset("nomiracl", root, {}, strict=True)
    assert (err.value.line, err.value.field) == (1, "docids[0]")
    assert "'9#0' repeats with other text" in str(err.value)


def test_parse_prompt_keeps_passage_text_verbatim() -> None:
    parsed = parse_prompt(vanilla_prompt(" q ", ["a: b\n\nc", "[2] not a marker ", "d"]), 3)
    assert parsed.query == "q"
    assert parsed.passages == ["a: b\n\nc", "[2] not a marker ", "d"]
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
    assert len(rebuilt.rejected) == len(files) == 5  # hi, te: both subsets; bn: non_relevant
    assert {r.reason for r in rebuilt.rejected} == {"no_prompt"}
    by_id = {q.id: q for q in rebuilt.questions}
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
        cfg.model_copy(update={"answers": str(curated), "model_value": "model-b"})
    )
    assert isinstance(backend, ReplayBackend)
    backend.prepare([q.id for q in loaded.questions])
    assert {qid: a.response for qid, a in backend.table.answers.items()} == {
        "101#0-hi": "I don't know",
        "103#0-hi": "\nYes, answer is present in [2].",
        "101#0-te": "Yes",
    }
    # A file without the nested field names it (a raw queries.jsonl given by mistake).
    raw = tmp_path / "raw.jsonl"
    raw.write_text(json.dumps({"id": "101#0-hi", "results": {}}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="missing field 'meta'") as err:
        make_backend(cfg.model_copy(update={"answers": str(raw)}))
    assert (err.value.line, err.value.field) == (1, "meta.model_outputs")
