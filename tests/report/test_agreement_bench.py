"""bench/agreement.py on the real LiveQA-Med human grades (skips without shared data)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from tests.conftest import REPO

pytestmark = pytest.mark.slow


def _bench():
    spec = importlib.util.spec_from_file_location("bench_agreement", REPO / "bench/agreement.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_split_answer_reads_the_judged_text_format() -> None:
    bench = _bench()
    question, body = bench.split_answer(
        "Question: What is (are) glaucoma ?\nURL: https://x\nAnswer: Glaucoma is a disease."
    )
    assert (question, body) == ("What is (are) glaucoma ?", "Glaucoma is a disease.")


def test_bench_writes_agreement_per_judge_and_metric(shared_data: Path, tmp_path: Path) -> None:
    source = shared_data / "liveqa_med_judgments" / "judgments.jsonl"
    if not source.is_file():
        pytest.skip("liveqa_med_judgments not present")
    sample = tmp_path / "sample.jsonl"
    lines = source.read_text(encoding="utf-8").splitlines()
    sample.write_text("\n".join(lines[:120]) + "\n", encoding="utf-8")
    output = tmp_path / "agreement.json"
    assert _bench().main(["--judgments", str(sample), "--output", str(output)]) == 0
    document = json.loads(output.read_text())
    assert document["data"]["judged_pairs"] == 120
    for judge in ("answer_vs_question", "matched_question_vs_question"):
        for metric in ("token_f1", "rouge_l", "chrf"):
            block = document["judges"][judge]["metrics"][metric]
            assert block["raw"]["n_pairs"] == 120
            for mapping in ("equal_width", "marginal_matched", "binary_acceptable"):
                overall = block[mapping]["overall"]
                assert overall["n_pairs"] == 120
                for name in ("cohen_kappa_linear", "krippendorff_alpha_ordinal", "spearman"):
                    assert -1.0 <= overall[name] <= 1.0
    # question entailment by character n-grams tracks the human grades
    matched = document["judges"]["matched_question_vs_question"]["metrics"]["chrf"]
    assert matched["raw"]["spearman"] > 0.3
