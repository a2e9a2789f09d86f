"""What the runs hold besides figures, without a server: params from the stages' run specs (cut
values marked), the dataset input, the per-sample tables. On a server: test_mlflow_ui.py."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.report import synthetic_project as synth

from parakh.config import compose
from parakh.io import write_json, write_jsonl
from parakh.report.inputs import AggregateInputs
from parakh.stage_outputs import Layout, spec_path
from parakh.tracking.datasets import dataset_ref
from parakh.tracking.params import (
    CUT_MARKER,
    MAX_PARAM_CHARS,
    cut_params,
    flatten,
    judge_model_name,
    model_settings,
    sweep_settings,
)
from parakh.tracking.samples import SAMPLE_COLUMNS, judged_answers, samples_table

SYNTHETIC_JUDGE = [f"judge.rubrics=[{','.join(synth.JUDGE_METRICS['rubrics'])}]"] + [
    f"judge.reference_metrics=[{','.join(synth.JUDGE_METRICS['reference_metrics'])}]"
]


def _layout(tmp_path: Path) -> Layout:
    layout = Layout(processed=tmp_path / "processed" / "demo", reports=tmp_path / "reports")
    write_jsonl(layout.curated_questions, synth.questions())
    for model in synth.MODELS:
        write_jsonl(layout.judgments("smoke", model), synth.judgments(model))
        write_jsonl(layout.generations(model), synth.generations(model))
    return layout


def _inputs(layout: Layout) -> AggregateInputs:
    return AggregateInputs.load(layout, "smoke", synth.MODELS, with_generations=False)


def test_long_values_are_cut_with_a_marker_and_listed() -> None:
    params = flatten({"a": {"b": "x" * 7000, "c": 1}, "d": []})
    assert len(params["a.b"]) == MAX_PARAM_CHARS and params["a.b"].endswith(CUT_MARKER)
    assert (params["a.c"], params["d"]) == ("1", "[]")
    assert cut_params({"a": {"b": "x" * 7000, "c": "y" * 6000}}) == ["a.b"]


def test_params_are_the_settings_the_stages_ran_with(tmp_path: Path) -> None:
    """Run specs beside the data win over aggregate's own defaults, section by section."""
    cfg = compose(["dataset=demo", "judge=smoke"])
    layout = _layout(tmp_path)
    dataset = {**cfg.dataset.model_dump(mode="json"), "languages": ["hi", "ta"]}
    write_json(spec_path(layout.curated_questions), {"config": {"dataset": dataset, "seed": 7}})
    judge = {**cfg.judge.model_dump(mode="json"), "sample_per_language": 2}
    write_json(spec_path(layout.judgments("smoke", "alpha")), {"config": {"judge": judge}})
    generated = {"model": {"name": "alpha", "sampling": {"temperature": 0.3}}, "prompt": "p"}
    write_json(spec_path(layout.generations("alpha")), {"config": generated})

    sweep = sweep_settings(cfg, layout, synth.MODELS)
    assert sweep["dataset"]["languages"] == ["hi", "ta"] and sweep["seed"] == 7
    assert sweep["judge"]["sample_per_language"] == 2
    assert sweep["params_from"] == "dataset,judge"
    alpha = flatten(model_settings(cfg, layout, sweep, "alpha"))
    assert alpha["judge.sample_per_language"] == "2"
    assert (alpha["model.sampling.temperature"], alpha["prompt"]) == ("0.3", "p")
    assert alpha["params_from"] == "dataset,judge,generate"
    beta = model_settings(cfg, layout, sweep, "beta")  # no run specs of its own
    assert beta["judge"]["sample_per_language"] == cfg.judge.sample_per_language
    assert beta["params_from"] == "dataset"
    assert judge_model_name(beta) == str(cfg.judge.model.name if cfg.judge.model else "")
    assert judge_model_name({"judge": {"jury": {"models": ["a", "b"]}}}) == "jury:a,b"


def test_samples_table_and_dataset_input(tmp_path: Path) -> None:
    cfg = compose(["dataset=demo", "judge=smoke"])
    layout = _layout(tmp_path)
    inputs = _inputs(layout)
    answers = judged_answers(inputs, "beta", "beta", generations=layout.generations("beta"))
    assert len(answers) == synth.N_QUESTIONS
    first = answers[0]
    assert (first.question, first.reference) == (
        "Question 0 <b>about</b> eye drops?",
        "Reference answer 0.",
    )
    assert first.answer == "beta answers q00 <script>alert(1)</script>"
    hindi = samples_table(answers, "hi")
    assert tuple(hindi) == SAMPLE_COLUMNS
    assert set(hindi["language"]) == {"hi"} and len(hindi["metric"]) == 8 * len(synth.METRICS)
    assert len(samples_table(answers, "all")["metric"]) == synth.N_QUESTIONS * len(synth.METRICS)
    invalid = hindi["status"].index("invalid")
    assert hindi["score"][invalid] is None and hindi["reason"][invalid] == "no JSON"

    ref = dataset_ref(cfg, layout, inputs.questions)
    assert ref is not None
    digest = hashlib.sha256(layout.curated_questions.read_bytes()).hexdigest()
    assert (ref.name, ref.digest, ref.source_type) == ("demo", digest[:32], "local")
    assert ref.source == {"uri": cfg.dataset.path}
    assert ref.profile["languages"] == {"en": 8, "hi": 8, "ta": 8}
    assert ref.profile["sha256"] == digest and ref.profile["num_rows"] == synth.N_QUESTIONS
