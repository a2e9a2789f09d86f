"""`parakh agreement` on any judge rows and human grades file, with a mappings file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.report import synthetic_project as synth

from parakh.cli import main
from parakh.io import write_jsonl
from parakh.schema import HumanGrade


def test_agreement_command_maps_declared_scales(tmp_path: Path, capsys) -> None:
    judged = tmp_path / "alpha.jsonl"
    write_jsonl(judged, synth.judgments("alpha"))
    grades = [
        HumanGrade(
            question_id=f"q{i:02d}",
            model="alpha",
            metric="factual_correctness",
            score=float(1 + i % 4),
            scale_min=1,
            scale_max=4,
            rater=f"r{i % 2}",
        )
        for i in range(12)
    ]
    human = tmp_path / "human.jsonl"
    write_jsonl(human, grades)
    output = tmp_path / "agreement.json"
    with pytest.raises(SystemExit) as exit_info:
        main(["agreement", "--judgments", str(judged), "--human", str(human)])
    assert exit_info.value.code == 2
    assert "declare a mapping" in capsys.readouterr().err
    mappings = tmp_path / "mappings.yaml"
    mappings.write_text("factual_correctness:\n  table: {1: 0, 2: 0, 3: 1, 4: 2}\n")
    with pytest.raises(SystemExit) as exit_info:
        main(
            [
                "agreement",
                "--judgments",
                str(judged),
                "--human",
                str(human),
                "--mappings",
                str(mappings),
                "--out",
                str(output),
            ]
        )
    assert exit_info.value.code == 0
    (result,) = json.loads(output.read_text())["metrics"]
    assert result["metric"] == "factual_correctness" and result["human_grades"] == 12
    assert result["overall"]["n_pairs"] + sum(result["unpaired_human_grades"].values()) == 12
    assert set(result["by_language"]) <= {"en", "hi", "ta"}
