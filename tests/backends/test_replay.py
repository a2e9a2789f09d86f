"""The replay backend: stored answers in a JSONL or CSV file become a model's generations.

Good files give one answer per question (missing and blank ones become error rows naming the
file); bad files stop the run before anything is written, naming file, line and field.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from parakh.backends import ChatRequest, make_backend
from parakh.backends.replay import ReplayBackend
from parakh.commands import replay_models
from parakh.config import compose
from parakh.config.model import ReplayModel, Sampling
from parakh.errors import InputError
from parakh.io import read_jsonl, write_jsonl
from parakh.schema import Generation, Question, Retrieval
from parakh.stage_outputs import Layout, spec_path
from parakh.stages import generate

REPO = Path(__file__).resolve().parents[2]


def replay(answers: Path | str, **settings: Any) -> ReplayModel:
    return ReplayModel(name="stored", backend="replay", answers=str(answers), **settings)


def request(key: str) -> ChatRequest:
    return ChatRequest(key=key, messages=(("user", f"question {key}"),), sampling=Sampling())


def answers_of(backend: ReplayBackend, *keys: str) -> dict[str, tuple[str | None, str | None]]:
    return {k: (c.text, c.error) for k in keys for c in [backend.complete(request(k))]}


def write_lines(path: Path, *rows: dict[str, Any] | str) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def failure(cfg: ReplayModel) -> str:
    with pytest.raises(InputError) as caught:
        make_backend(cfg)
    return str(caught.value)


# --- good files ---------------------------------------------------------------------------------


def test_jsonl_answers_with_missing_and_blank_ones_as_error_rows(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "answers.jsonl",
        {"question_id": "q1", "response": "Ten days."},
        {"question_id": "q2", "response": "  Keep it dry.\n"},
        "",
        {"question_id": "q4", "response": "   "},
        {"question_id": "q5", "response": None},
    )
    backend = make_backend(replay(path))
    assert isinstance(backend, ReplayBackend)
    assert answers_of(backend, "q1", "q2", "q3", "q4", "q5") == {
        "q1": ("Ten days.", None),
        "q2": ("  Keep it dry.\n", None),  # verbatim: what the model said
        "q3": (None, f"no stored answer for question 'q3' in {path}"),
        "q4": (None, f"blank answer at {path}:4, field 'response'"),
        "q5": (None, f"blank answer at {path}:5, field 'response'"),
    }


def test_csv_answers_keep_line_numbers_across_quoted_line_breaks(tmp_path: Path) -> None:
    path = tmp_path / "answers.csv"
    path.write_text(
        'id,answer\nq1,"First line.\nSecond line."\nq2," "\nq3,Third.\n', encoding="utf-8"
    )
    backend = make_backend(replay(path, question_id_field="id", response_field="answer"))
    assert answers_of(backend, "q1", "q2", "q3") == {
        "q1": ("First line.\nSecond line.", None),
        "q2": (None, f"blank answer at {path}:4, field 'answer'"),
        "q3": ("Third.", None),
    }


def test_a_model_column_fans_out_into_one_model_per_value(tmp_path: Path) -> None:
    path = tmp_path / "answers.csv"
    path.write_text(
        "question_id,model,response\nq1,gpt-4,Yes.\nq1,llama,No.\nq2,llama,Maybe.\n",
        encoding="utf-8",
    )
    gpt4 = make_backend(replay(path, model_value="gpt-4"))
    llama = make_backend(replay(path, model_value="llama"))
    assert answers_of(gpt4, "q1", "q2") == {
        "q1": ("Yes.", None),
        "q2": (None, f"no stored answer for question 'q2' in {path}"),
    }
    assert answers_of(llama, "q1", "q2") == {"q1": ("No.", None), "q2": ("Maybe.", None)}


def test_a_dotted_model_field_reads_inside_an_object(tmp_path: Path) -> None:
    """curate's human_judgments.jsonl keeps the answer's source in meta.answer_source."""
    path = write_lines(
        tmp_path / "human_judgments.jsonl",
        {"question_id": "q1", "answer": "GHR text", "meta": {"answer_source": "GHR"}},
        {"question_id": "q1", "answer": "CDC text", "meta": {"answer_source": "CDC"}},
        {"question_id": "q2", "answer": "CDC two", "meta": {"answer_source": "CDC"}},
    )
    settings = {"response_field": "answer", "model_field": "meta.answer_source"}
    cdc = make_backend(replay(path, model_value="CDC", **settings))
    assert isinstance(cdc, ReplayBackend)
    assert answers_of(cdc, "q1", "q2") == {"q1": ("CDC text", None), "q2": ("CDC two", None)}
    write_lines(path, {"question_id": "q1", "answer": "text", "meta": {}})
    message = failure(replay(path, model_value="CDC", **settings))
    assert "line 1" in message and "meta.answer_source" in message


def test_outputs_nested_per_row_with_a_composite_question_id(tmp_path: Path) -> None:
    """NoMIRACL's layout: one row per query, {model: output} in `results`."""
    path = write_lines(
        tmp_path / "queries.jsonl",
        {"query_id": "7#0", "language": "hi", "results": {"gpt-4": "I don't know.", "aya": ""}},
        {"query_id": "9#0", "language": "te", "results": {"aya": "Yes, answer is present"}},
    )
    nested = {"question_id_template": "{query_id}-{language}", "responses_field": "results"}
    gpt4 = make_backend(replay(path, model_value="gpt-4", **nested))
    aya = make_backend(replay(path, model_value="aya", **nested))
    assert answers_of(gpt4, "7#0-hi", "9#0-te") == {
        "7#0-hi": ("I don't know.", None),
        "9#0-te": (None, f"no stored answer for question '9#0-te' in {path}"),
    }
    assert answers_of(aya, "7#0-hi", "9#0-te") == {
        "7#0-hi": (None, f"blank answer at {path}:1, field 'results.aya'"),
        "9#0-te": ("Yes, answer is present", None),
    }


def test_relative_paths_resolve_against_the_project_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_lines(tmp_path / "stored.jsonl", {"question_id": "q1", "response": "Yes."})
    monkeypatch.setenv("PARAKH_ROOT", str(tmp_path))
    monkeypatch.chdir(REPO)  # not the root: the path must not depend on the cwd
    backend = make_backend(replay("stored.jsonl"))
    assert answers_of(backend, "q1") == {"q1": ("Yes.", None)}
    assert backend.identity()["answers"] == "stored.jsonl"  # as configured, not this machine's


def test_identity_has_the_file_hash_so_a_changed_file_changes_the_run(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "a.jsonl", {"question_id": "q1", "response": "Yes."})
    first = make_backend(replay(path)).identity()
    assert make_backend(replay(path)).identity() == first
    write_lines(path, {"question_id": "q1", "response": "No."})
    changed = make_backend(replay(path)).identity()
    assert changed["sha256"] != first["sha256"]
    assert {k: v for k, v in changed.items() if k != "sha256"} == {
        k: v for k, v in first.items() if k != "sha256"
    }


def test_duplicates_first_keeps_the_first_line(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "a.jsonl",
        {"question_id": "q1", "response": "First."},
        {"question_id": "q1", "response": "Second."},
    )
    backend = make_backend(replay(path, duplicates="first"))
    assert isinstance(backend, ReplayBackend)
    assert answers_of(backend, "q1") == {"q1": ("First.", None)}
    assert backend.answers["q1"].line == 1


# --- bad files: the exact place in the message --------------------------------------------------


def test_unreadable_json_names_file_and_line(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "a.jsonl", {"question_id": "q1", "response": "Yes."}, '{"question_id": "q2",'
    )
    assert failure(replay(path)).startswith(f"{path}, line 2: not valid JSON (")
    write_lines(path, '["q1", "Yes."]')
    assert failure(replay(path)) == f"{path}, line 1: expected a JSON object, got list"


def test_unreadable_csv_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("question_id,response\nq1,Yes.\nq2,No,extra\n", encoding="utf-8")
    assert failure(replay(path)) == f"{path}, line 3: 3 fields where the header has 2"
    path.write_text('question_id,response\nq1,"Yes." and more\n', encoding="utf-8")
    assert failure(replay(path)).startswith(f"{path}, line 2: not valid CSV (")


def test_a_missing_column_names_it_and_the_columns_found(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("question_id,answer\nq1,Yes.\n", encoding="utf-8")
    assert failure(replay(path)) == (
        f"{path}, line 1, field 'response': missing column 'response'; "
        "columns found: question_id, answer"
    )
    jsonl = write_lines(
        tmp_path / "a.jsonl",
        {"question_id": "q1", "response": "Yes."},
        {"id": "q2", "response": "No."},
    )
    assert failure(replay(jsonl)) == (
        f"{jsonl}, line 2, field 'question_id': missing field 'question_id'; "
        "fields found: id, response"
    )


def test_a_question_answered_twice_for_one_model_names_both_lines(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text(
        "question_id,model,response\nq1,gpt-4,Yes.\nq1,llama,No.\nq2,gpt-4,A.\nq1,gpt-4,B.\n",
        encoding="utf-8",
    )
    assert failure(replay(path, model_value="gpt-4")) == (
        f"{path}, line 5, field 'question_id': question 'q1' is answered again for this model "
        "(first at line 2)"
    )
    make_backend(replay(path, model_value="llama"))  # another model's q1 is no duplicate


def test_a_model_value_not_in_the_file_lists_the_values_present(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("question_id,model,response\nq1,llama,No.\nq1,gpt-4,Yes.\n", encoding="utf-8")
    assert failure(replay(path, model_value="gpt-5")) == (
        f"{path}, field 'model': model_value 'gpt-5' never occurs; values present: gpt-4, llama"
    )
    assert failure(replay(path)) == (
        f"{path}, field 'model': column 'model' names several models (gpt-4, llama): "
        "set model_value to the one this model takes"
    )


def test_answers_for_questions_the_run_does_not_have_are_refused(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "a.jsonl",
        {"question_id": "q1", "response": "Yes."},
        {"question_id": "q9", "response": "No."},
        {"question_id": "q8", "response": "No."},
    )
    backend = make_backend(replay(path))
    assert isinstance(backend, ReplayBackend)
    with pytest.raises(InputError) as caught:
        backend.prepare(["q1", "q2"])
    assert str(caught.value) == (
        f"{path}, line 2, field 'question_id': question 'q9' is not in the dataset "
        "(2 of 3 answers name unknown questions)"
    )
    ignoring = make_backend(replay(path, unknown_ids="ignore"))
    assert isinstance(ignoring, ReplayBackend)
    ignoring.prepare(["q1", "q2"])  # answers from the dataset's own rows: q8, q9 not selected


# --- through the generate stage -----------------------------------------------------------------


def _project(tmp_path: Path, model: ReplayModel):  # type: ignore[no-untyped-def]
    cfg = compose(
        [
            f"paths.processed={tmp_path / 'processed'}",
            f"paths.cache={tmp_path / 'cache' / 'cache.sqlite'}",
            "tracking.enabled=false",
            "progress=false",
        ]
    )
    cfg = cfg.model_copy(update={"model": model})
    layout = Layout.of(cfg)
    questions = [Question(id=f"q{i}", text=f"Question {i}?", language="en") for i in (1, 2, 3)]
    # direct inference asks from curate's questions (translate/ in the layout before #13)
    write_jsonl(layout.curated_questions, questions)
    write_jsonl(layout.processed / "translate" / "questions.jsonl", questions)
    write_jsonl(
        layout.retrieval,
        [Retrieval(question_id=q.id, raw_chunks=[], kb_update_chunks=[]) for q in questions],
    )
    return cfg, layout


def test_generate_writes_the_stored_answers_and_error_rows(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "a.jsonl",
        {"question_id": "q1", "response": "Yes."},
        {"question_id": "q2", "response": ""},
    )
    cfg, layout = _project(tmp_path, replay(path))
    generate.main_task(cfg)
    rows = {g.question_id: g for g in read_jsonl(layout.generations("stored"), Generation)}
    assert (rows["q1"].status, rows["q1"].response) == ("ok", "Yes.")
    assert (rows["q2"].status, rows["q2"].error) == (
        "error",
        f"blank answer at {path}:2, field 'response'",
    )
    assert (rows["q3"].status, rows["q3"].error) == (
        "error",
        f"no stored answer for question 'q3' in {path}",
    )
    spec = json.loads(spec_path(layout.generations("stored")).read_text(encoding="utf-8"))
    identity = json.dumps(spec)
    assert make_backend(replay(path)).identity()["sha256"] in identity


def test_a_bad_file_stops_generate_before_anything_is_written(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "a.jsonl",
        {"question_id": "q1", "response": "Yes."},
        {"question_id": "q1", "response": "No."},
    )
    cfg, layout = _project(tmp_path, replay(path))
    with pytest.raises(InputError, match=r"line 2, field 'question_id'.*first at line 1"):
        generate.main_task(cfg)
    assert not (layout.processed / "generate").exists()
    assert not (tmp_path / "cache").exists()


def test_the_stage_exits_non_zero_with_the_place_in_the_file(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "conf").mkdir(parents=True)
    for item in (REPO / "conf").iterdir():
        (root / "conf" / item.name).symlink_to(item)
    write_lines(root / "answers.jsonl", {"question_id": "q1", "answer": "Yes."})
    processed = root / "data" / "processed" / "demo"
    for stage in ("curate", "translate"):
        write_jsonl(
            processed / stage / "questions.jsonl", [Question(id="q1", text="Q?", language="en")]
        )
    write_jsonl(
        processed / "index" / "retrieval.jsonl",
        [Retrieval(question_id="q1", raw_chunks=[], kb_update_chunks=[])],
    )
    env = {**os.environ, "PARAKH_ROOT": str(root)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "parakh.stages.generate",
            "model=extractive",
            "+model.answers=answers.jsonl",
            "model.backend=replay",
            "~model.max_sentences",
            "progress=false",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert (
        "answers.jsonl, line 1, field 'response': missing field 'response'; "
        "fields found: question_id, answer"
    ) in done.stderr
    assert not (processed / "generate").exists()
    assert not (root / ".parakh").exists()


# --- the configs command -----------------------------------------------------------------------


def test_replay_models_writes_one_loadable_config_per_model(tmp_path: Path) -> None:
    answers = tmp_path / "answers.csv"
    answers.write_text(
        "question_id,model,response\nq1,GPT-4 (Azure),Yes.\nq1,llama_2,No.\n", encoding="utf-8"
    )
    out = tmp_path / "model"
    parser = argparse.ArgumentParser()
    replay_models.add_arguments(parser)
    args = parser.parse_args(["--answers", str(answers), "--prefix", "mine", "--out", str(out)])
    assert replay_models.run(args) == 0
    assert sorted(p.name for p in out.iterdir()) == ["mine-gpt-4-azure.yaml", "mine-llama-2.yaml"]
    cfg = ReplayModel.model_validate(yaml.safe_load((out / "mine-gpt-4-azure.yaml").read_text()))
    assert (cfg.name, cfg.model_value) == ("mine-gpt-4-azure", "GPT-4 (Azure)")
    assert cfg.answers == str(answers)
    assert answers_of(make_backend(cfg), "q1") == {"q1": ("Yes.", None)}


def test_generate_refuses_unknown_question_ids_before_writing_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stage runs the backend's `prepare` on every question of the run (not one shard's)
    before the cache, progress file or output exists."""
    monkeypatch.setenv("PARAKH_ROOT", str(tmp_path))
    for folder in ("conf",):
        (tmp_path / folder).symlink_to(REPO / folder)
    answers = write_lines(
        tmp_path / "answers.jsonl",
        {"question_id": "q1", "response": "one"},
        {"question_id": "nope", "response": "stray"},
    )
    cfg = compose(["dataset=demo"]).model_copy(update={"model": replay(answers)})
    layout = Layout.of(cfg)
    questions = [
        Question(id="q1", text="one?", language="en"),
        Question(id="q2", text="two?", language="en"),
    ]
    write_jsonl(layout.curated_questions, questions)
    write_jsonl(layout.retrieval, [])
    with pytest.raises(InputError) as caught:
        generate.main_task(cfg)
    message = str(caught.value)
    assert "answers.jsonl" in message and "line 2" in message and "question_id" in message
    assert "'nope'" in message
    assert not layout.generations("stored").exists()
    assert not (tmp_path / ".parakh").exists()
