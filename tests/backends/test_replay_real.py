"""NoMIRACL's 11 stored models replayed over the real curated questions, then judged.

The shipped `conf/model/nomiracl-*.yaml` configs read the outputs the nomiracl adapter keeps in
curate's questions.jsonl (`meta.model_outputs`), the same whichever layout data/raw/nomiracl
holds; here that file is written from the mirror's questions. Each model's hallucination rate
from the judge stage must equal FP / (FP + TN) counted here from the mirror's raw queries.jsonl.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from parakh.backends import make_backend
from parakh.backends.replay import ReplayBackend
from parakh.commands import replay_models
from parakh.config import compose
from parakh.config.model import ReplayModel
from parakh.datasets.registry import load_dataset
from parakh.io import write_jsonl
from parakh.metrics.nomiracl import ANSWER_PRESENT, I_DONT_KNOW, classify_nomiracl_output
from parakh.schema import Question
from parakh.stages import generate
from tests.judging.judge_files import judged

REPO = Path(__file__).resolve().parents[2]
MODELS = sorted((REPO / "conf" / "model").glob("nomiracl-*.yaml"))


CURATED = "data/processed/nomiracl/curate/questions.jsonl"


@pytest.fixture
def nomiracl(shared_data: Path, tmp_path: Path) -> tuple[Path, list[Question], dict[str, Any]]:
    """(curated questions file, its questions, {id: outputs} read from the raw queries.jsonl)."""
    shared = shared_data
    questions = load_dataset("nomiracl", shared / "nomiracl", {}).questions
    curated = tmp_path / "curate" / "questions.jsonl"
    write_jsonl(curated, questions)
    stored = {}
    for line in (shared / "nomiracl" / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        stored[f"{row['query_id']}-{row['language']}"] = row["results"]
    return curated, questions, stored


def test_the_replay_ids_are_the_ids_curate_gives(nomiracl) -> None:  # type: ignore[no-untyped-def]
    curated, questions, stored = nomiracl
    assert len(MODELS) == 11
    assert {q.id for q in questions} == set(stored)
    for path in MODELS:
        cfg = ReplayModel.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        assert cfg.answers == CURATED
        backend = make_backend(cfg.model_copy(update={"answers": str(curated)}))
        assert isinstance(backend, ReplayBackend)
        backend.prepare([q.id for q in questions])
        assert set(backend.answers) == {
            qid for qid, outputs in stored.items() if cfg.model_value in outputs
        }


def test_hallucination_rate_of_every_replayed_model_is_fp_over_fp_plus_tn(
    nomiracl, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    curated, questions, stored = nomiracl
    base = compose(
        [
            "dataset=nomiracl",
            "judge=nomiracl",
            f"paths.processed={tmp_path / 'processed'}",
            f"paths.cache={tmp_path / 'cache.sqlite'}",
            "tracking.enabled=false",
            "progress=false",
        ]
    )
    non_relevant = [q for q in questions if q.subset == "non_relevant"]
    assert len(non_relevant) == 332  # hi 107 + te 88 + bn 137 (the mirror's README)
    rates: dict[str, float] = {}
    totals = {"invalid": 0, "blank": 0}
    for path in MODELS:
        model = ReplayModel.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        model = model.model_copy(update={"answers": str(curated)})
        cfg = base.model_copy(update={"model": model})
        backend = make_backend(model)
        generations = generate.run(
            cfg, questions, [], backend, None, tmp_path / f".{model.name}.progress.jsonl"
        ).generations
        rows = judged(cfg, questions, generations, [], tmp_path / f".{model.name}.judge.jsonl")
        hallucination = {r.question_id: r for r in rows if r.metric == "nomiracl_hallucination"}
        assert set(hallucination) == {q.id for q in non_relevant}

        # Counted here from the stored outputs, with the project's classifier for the label.
        fp = tn = invalid = blank = 0
        for q in non_relevant:
            output = stored[q.id].get(model.model_value)
            if output is None or not output.strip():
                blank += 1
                row = hallucination[q.id]
                assert (row.status, row.score) == ("error", None)
                assert row.reason is not None and "blank answer at" in row.reason
                continue
            label = classify_nomiracl_output(output)
            fp += label == ANSWER_PRESENT
            tn += label == I_DONT_KNOW
            invalid += label not in (ANSWER_PRESENT, I_DONT_KNOW)
        statuses = [r.status for r in hallucination.values()]
        assert statuses.count("invalid") == invalid, model.name
        assert statuses.count("error") == blank, model.name
        scored = [r.score for r in hallucination.values() if r.status == "ok"]
        assert len(scored) == fp + tn, model.name
        assert fp + tn > 0, model.name
        rate = sum(s for s in scored if s is not None) / len(scored)
        assert rate == pytest.approx(fp / (fp + tn)), model.name
        rates[model.name] = rate
        totals["invalid"] += invalid
        totals["blank"] += blank
    assert len(rates) == 11
    assert len(set(rates.values())) > 1  # the models differ; no rate is a placeholder
    assert totals["invalid"] > 0 and totals["blank"] > 0  # both kinds left out were exercised


LIVEQA_MODELS = sorted((REPO / "conf" / "model").glob("liveqa-*.yaml"))
LIVEQA_CURATED = "data/processed/liveqa_judgments/curate/human_judgments.jsonl"
LIVEQA_OPTIONS = {"question_field": "NLM-Summary"}


def _curated_judgments(shared_data: Path, root: Path) -> Path:
    """curate's human_judgments.jsonl of the mirror's LiveQA-Med rows, under `root`."""
    loaded = load_dataset("liveqa_med", shared_data / "liveqa_med_judgments", LIVEQA_OPTIONS)
    path = root / LIVEQA_CURATED
    write_jsonl(path, loaded.judgments)
    return path


def test_liveqa_sources_replay_the_first_judged_answer_of_each_question(
    shared_data: Path, tmp_path: Path
) -> None:
    judgments = shared_data / "liveqa_med_judgments" / "judgments.jsonl"
    loaded = load_dataset("liveqa_med", judgments.parent, LIVEQA_OPTIONS)
    curated = _curated_judgments(shared_data, tmp_path)
    ids = [q.id for q in loaded.questions]
    first: dict[tuple[str, str], str] = {}
    for line in judgments.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        first.setdefault((row["Question_ID"], row["answer_source"]), row["Answer"])
    sources = {source for _, source in first}
    assert len(LIVEQA_MODELS) == len(sources) == 9
    for path in LIVEQA_MODELS:
        cfg = ReplayModel.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        assert cfg.answers == LIVEQA_CURATED
        backend = make_backend(cfg.model_copy(update={"answers": str(curated)}))
        assert isinstance(backend, ReplayBackend)
        expected = {q: text for (q, source), text in first.items() if source == cfg.model_value}
        assert set(expected) <= set(ids)  # the ids curate gives the questions
        assert {q: a.response for q, a in backend.answers.items()} == expected


@pytest.mark.parametrize(
    ("preset", "folder"), [("nomiracl", "nomiracl"), ("liveqa_judgments", "liveqa_med_judgments")]
)
def test_the_committed_configs_are_what_replay_models_writes(
    preset: str, folder: str, shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data" / "raw").mkdir(parents=True)
    (tmp_path / "data" / "raw" / preset).symlink_to(shared_data / folder)
    if preset == "nomiracl":  # its outputs are read from curate's questions
        write_jsonl(tmp_path / CURATED, load_dataset("nomiracl", shared_data / folder).questions)
    else:  # the judged answers, from curate's judgments
        _curated_judgments(shared_data, tmp_path)
    monkeypatch.setenv("PARAKH_ROOT", str(tmp_path))
    parser = argparse.ArgumentParser()
    replay_models.add_arguments(parser)
    out = tmp_path / "model"
    assert replay_models.run(parser.parse_args([preset, "--out", str(out)])) == 0
    written = sorted(out.iterdir())
    committed = MODELS if preset == "nomiracl" else LIVEQA_MODELS
    assert [p.name for p in written] == [p.name for p in committed]
    for new, old in zip(written, committed, strict=True):
        assert new.read_text(encoding="utf-8") == old.read_text(encoding="utf-8"), new.name
