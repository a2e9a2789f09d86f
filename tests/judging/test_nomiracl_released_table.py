"""The released code's table, from real upstream rows, equals a count by the released rules.

The fixture is real excerpts of upstream's `results/baselines/` at the pinned commit (see
tests/datasets/fixtures/nomiracl_upstream/README.md): null-prompt rows, blank outputs, a row
without aya-101's output. The 11 shipped replay configs answer from curate's questions; the
judge summary's `released_table` must equal, cell for cell, what is counted here straight from
the files by the rules of the released code (`VanillaTemplate.postprocess`, then
`ConfusionMetric.evaluate`, then `round(value * 100, 4)`, 0.0 for an unset entry, as
examples/hallucination_evaluation.py writes its TSV), over every stored output.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from parakh.config import compose
from parakh.datasets import load_dataset
from parakh.io import write_jsonl
from parakh.judging.summary import judge_summary
from tests.datasets.test_nomiracl_upstream import FIXTURE
from tests.judging.judge_files import replay_judged

REPO = Path(__file__).resolve().parents[2]
MODELS = sorted((REPO / "conf" / "model").glob("nomiracl-*.yaml"))
ANSWER, NO_ANSWER, INVALID = "Yes, answer is present", "I don't know", "Invalid"


def postprocess(response: str) -> str:
    """The released VanillaTemplate.postprocess (count=10), rule by rule."""
    response = response.replace("\n", " ").replace("\t", " ").lower()
    citations = re.findall(r"\[(\d+|10)\]", response)
    no_answer, answer = NO_ANSWER.lower(), ANSWER.lower()
    if no_answer in response and answer in response:
        return ANSWER if response.split().count(answer) > 1 else INVALID
    if no_answer in response:
        return NO_ANSWER
    if answer in response:
        return ANSWER
    if "answer is present" in response:
        return ANSWER
    if "answer is not present" in response:
        return NO_ANSWER
    return ANSWER if citations and len(response) < 10 else INVALID


def released_cells(subset: str, outputs: list[str]) -> dict[str, float]:
    """ConfusionMetric.evaluate for one model, as the released script writes it."""
    stats = Counter(postprocess(o) for o in outputs)
    total = sum(stats.values())
    right, wrong = (NO_ANSWER, ANSWER) if subset == "non_relevant" else (ANSWER, NO_ANSWER)
    error_name = "Hallucination" if subset == "non_relevant" else "Error"
    scores: dict[str, float] = {"Accuracy": 0.0}
    if right in stats:
        scores["Accuracy"] = stats[right] / total
        scores[error_name] = stats[wrong] / total if wrong in stats else 0.0
    if INVALID in stats:
        scores["Invalid"] = stats[INVALID] / total
    return {
        name: round(scores[name] * 100, 4) if name in scores else 0.0
        for name in ("Accuracy", error_name, "Invalid")
    }


def expected_table() -> dict[tuple[str, str, str], dict[str, float]]:
    """(model, language, subset) -> cells, from every stored output in the fixture's files."""
    outputs: dict[tuple[str, str, str], list[str]] = {}
    for path in sorted(FIXTURE.glob("*/*.test.vanilla_prompt.jsonl")):
        subset, language = path.parent.name, path.name.split(".")[0]
        for line in path.read_text(encoding="utf-8").splitlines():
            for model, output in json.loads(line)["results"].items():
                outputs.setdefault((model, language, subset), []).append(output)
    return {key: released_cells(key[2], texts) for key, texts in outputs.items()}


@pytest.mark.parametrize("parser", ["released", "lenient"])
def test_released_table_equals_the_released_rules_count(tmp_path: Path, parser: str) -> None:
    loaded = load_dataset("nomiracl", FIXTURE, {}, strict=True)
    questions = loaded.questions
    curated = tmp_path / "questions.jsonl"
    write_jsonl(curated, questions)
    cfg = compose(
        [
            "dataset=nomiracl",
            "judge=nomiracl",
            f"judge.parser={parser}",
            f"paths.processed={tmp_path / 'processed'}",
            f"paths.cache={tmp_path / 'cache.sqlite'}",
            "tracking.enabled=false",
            "progress=false",
        ]
    )
    expected = expected_table()
    found: dict[tuple[str, str, str], dict[str, float]] = {}
    assert len(MODELS) == 11
    for path in MODELS:
        model, rows = replay_judged(cfg, questions, curated, path, tmp_path)
        summary = judge_summary(rows, nomiracl_parser=parser)  # type: ignore[arg-type]
        for language, by_language in summary["nomiracl"].items():
            if language == "all":
                continue
            for subset, cells in by_language["released_table"].items():
                if cells is None:
                    continue
                key = (model.model_value, language, subset)
                outputs = cells.pop("outputs")
                assert outputs == sum(1 for _ in _stored(key)), key
                found[key] = cells
    assert found == expected
    assert len(found) == 11 * 5  # every model x (language, subset) file of the fixture
    # the released code's quirks are exercised: a zeroed error cell and blank outputs
    assert any(c.get("Hallucination") == 0.0 and c["Accuracy"] == 0.0 for c in found.values())
    assert found[("aya-101", "id", "relevant")] == expected[("aya-101", "id", "relevant")]


def _stored(key: tuple[str, str, str]) -> list[str]:
    model, language, subset = key
    path = FIXTURE / subset / f"{language}.test.vanilla_prompt.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [r["results"][model] for r in rows if model in r["results"]]
