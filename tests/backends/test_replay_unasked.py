"""A question whose prompt the source lacks (a NoMIRACL row with a null prompt upstream) is
replayed like any other, and a model that would be asked skips it with an error row saying so,
counted in generate's summary and line, never failing the run; curate's report counts them."""

from __future__ import annotations

from pathlib import Path

from parakh.backends.replay import NOT_ASKED
from parakh.backends.scripted import ScriptedBackend
from parakh.config import compose
from parakh.config.model import ScriptedModel
from parakh.datasets import load_dataset
from parakh.schema import PROMPT_UNAVAILABLE
from parakh.stages import curate, generate
from tests.datasets.test_nomiracl_upstream import FIXTURE


def test_a_new_model_is_not_asked_a_question_without_prompt(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    questions = load_dataset("nomiracl", FIXTURE, {}, strict=True).questions
    unavailable = {q.id for q in questions if PROMPT_UNAVAILABLE in q.meta}
    assert 0 < len(unavailable) < len(questions)
    model = ScriptedModel(name="fake", backend="scripted", default_response="I don't know")
    cfg = compose(["dataset=nomiracl"]).model_copy(update={"model": model})
    backend = ScriptedBackend(model)
    result = generate.run(cfg, questions, [], backend, None, tmp_path / "progress.jsonl")
    by_id = {g.question_id: g for g in result.generations}
    assert [g.question_id for g in result.generations] == [q.id for q in questions]
    for qid in unavailable:
        g = by_id[qid]
        assert (g.status, g.response, g.messages) == ("error", None, [])
        assert g.error is not None and g.error.startswith(NOT_ASKED)
        assert "prompt is null in" in g.error
    asked = [g for g in result.generations if g.question_id not in unavailable]
    assert all(g.status == "ok" and g.messages for g in asked)
    assert result.summary["not_asked"] == len(unavailable)
    # more than any share of errors would allow, yet the run is finished
    generate.check_failures(
        cfg.model_copy(
            update={"generation": cfg.generation.model_copy(update={"max_failed_share": 0.0})}
        ),  # fmt: skip
        result.generations,
        tmp_path / "fake.jsonl",
    )
    generate._report("fake", result.summary, tmp_path / "fake.jsonl")
    assert f", {len(unavailable)} not asked (prompt unavailable)" in capsys.readouterr().out


def test_curate_keeps_and_counts_them(tmp_path: Path) -> None:
    cfg = compose(["dataset=nomiracl", f"dataset.path={FIXTURE}"])
    loaded = load_dataset("nomiracl", FIXTURE, {}, strict=True)
    curated = curate.run(cfg, loaded)
    kept = {q.id for q in curated.questions}
    assert {q.id for q in loaded.questions} == kept  # nothing dropped for a null prompt
    assert curated.report["prompt_unavailable"] == {"bn": 2, "hi": 3, "id": 1, "te": 2}
    assert "no_prompt" not in curated.report["dropped"]
