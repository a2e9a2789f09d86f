"""Parakh's metrics as Hugging Face `evaluate` modules, loaded from the package with the
network cut: ROUGE-L scores identical Hindi strings 1.0 (rouge-score's default scores them 0),
and every module returns what the `parakh.metrics` function it wraps returns."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from parakh import evaluate_metrics
from parakh.metrics import lexical
from parakh.metrics.nomiracl import (
    NomiraclOutcome,
    classify_nomiracl_output,
    classify_released,
    nomiracl_rates,
)

# `evaluate` (and `datasets` under it) is imported by the tests that use it, not at collection.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("evaluate") is None, reason="evaluate is not installed"
)

CASES = Path(__file__).parent / "cases"
HINDI = "भारत की राजधानी नई दिल्ली है।"
OFFLINE = {"HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}

# What a reader runs, in a fresh interpreter: the offline switches set before `evaluate` is
# imported, every socket refused, the module cache in a folder of the test's own.
ACCEPTANCE = f"""
import socket
def refuse(*args, **kwargs):
    raise OSError("network cut by the test")
socket.socket.connect = refuse
socket.create_connection = refuse
import json, evaluate
from parakh import evaluate_metrics
rouge = evaluate.load(str(evaluate_metrics.path("rouge_l")))
print(json.dumps(rouge.compute(predictions=[{HINDI!r}], references=[{HINDI!r}])))
"""


def test_rouge_l_module_scores_identical_hindi_one_in_a_fresh_offline_interpreter(
    tmp_path: Path,
) -> None:
    env = {**os.environ, **OFFLINE, "HF_HOME": str(tmp_path / "hf")}
    env["HF_MODULES_CACHE"] = str(tmp_path / "modules")
    done = subprocess.run(
        [sys.executable, "-c", ACCEPTANCE],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"rouge_l": 1.0}
    assert (tmp_path / "modules" / "evaluate_modules" / "metrics" / "rouge_l").is_dir()


@pytest.fixture(scope="module")
def load(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Any]]:
    """`evaluate.load` of a Parakh module by path, in this process, with the network cut."""
    import evaluate
    import huggingface_hub.constants

    import datasets

    cache = tmp_path_factory.mktemp("hf")

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network cut by the test")

    with pytest.MonkeyPatch.context() as patch:
        for name, value in OFFLINE.items():
            patch.setenv(name, value)
        patch.setattr(evaluate.config, "HF_EVALUATE_OFFLINE", True)
        patch.setattr(evaluate.config, "HF_MODULES_CACHE", cache / "modules")
        patch.setattr(evaluate.config, "HF_METRICS_CACHE", cache / "metrics")
        patch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)
        patch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
        patch.setattr(socket.socket, "connect", refuse)
        patch.setattr(socket, "create_connection", refuse)
        yield lambda name: evaluate.load(str(evaluate_metrics.path(name)))


def test_every_module_file_exists_and_unknown_names_are_refused() -> None:
    assert all(evaluate_metrics.path(name).is_file() for name in evaluate_metrics.MODULES)
    with pytest.raises(ValueError, match="Did you mean 'rouge_l'"):
        evaluate_metrics.path("rougel")


def test_rouge_l_module_scores_identical_hindi_one(load: Callable[[str], Any]) -> None:
    rouge = load("rouge_l")
    assert rouge.compute(predictions=[HINDI], references=[HINDI]) == {"rouge_l": 1.0}
    assert rouge.compute(predictions=[HINDI], references=[[HINDI]]) == {"rouge_l": 1.0}
    assert lexical.ascii_rouge(HINDI, [HINDI], "hi") == 0.0  # rouge-score's default tokenizer


PREDICTIONS = [
    HINDI,
    "the Eiffel Tower",
    "இந்தியாவின் தலைநகரம் புது தில்லி",
    "Surgery के बाद drops डालें",
    "😀👍",
    "",
    "ঢাকা বাংলাদেশের রাজধানী",
]
REFERENCES = [
    ["नई दिल्ली भारत की राजधानी है"],
    ["Eiffel Tower", "the tower"],
    ["புது தில்லி"],
    ["surgery के बाद आँखों में drops डालें"],
    ["😀👍"],
    ["कुछ भी"],
    ["বাংলাদেশের রাজধানী ঢাকা"],
]
LANGUAGES = ["hi", "en", "ta", "hi", "hi", "hi", "bn"]


@pytest.mark.parametrize("name", ["exact_match", "token_f1", "rouge_l", "chrf"])
def test_reference_modules_return_parakhs_values(load: Callable[[str], Any], name: str) -> None:
    fn = getattr(lexical, name)
    expected = sum(
        fn(p, refs, lang) for p, refs, lang in zip(PREDICTIONS, REFERENCES, LANGUAGES, strict=True)
    ) / len(PREDICTIONS)
    module = load(name)
    got = module.compute(predictions=PREDICTIONS, references=REFERENCES, language=LANGUAGES)
    assert got == {name: pytest.approx(expected, abs=1e-12)}
    assert got[name] > 0


def test_language_is_passed_through(load: Callable[[str], Any]) -> None:
    exact = load("exact_match")
    english = exact.compute(predictions=["the cat"], references=["cat"], language="en")
    hindi = exact.compute(predictions=["the cat"], references=["cat"], language="hi")
    assert (english, hindi) == ({"exact_match": 1.0}, {"exact_match": 0.0})


def _outputs() -> tuple[list[str], list[str]]:
    cases = json.loads((CASES / "nomiracl_outputs.json").read_text(encoding="utf-8"))["cases"]
    outputs = [c["output"] for c in cases]  # one is None: a missing output
    subsets = ["relevant" if i % 3 else "non_relevant" for i in range(len(outputs))]
    return outputs, subsets


@pytest.mark.parametrize(
    ("parser", "classify"), [("lenient", classify_nomiracl_output), ("released", classify_released)]
)
def test_nomiracl_module_returns_parakhs_rates(
    load: Callable[[str], Any], parser: str, classify: Callable[[str], Any]
) -> None:
    outputs, subsets = _outputs()
    expected = nomiracl_rates(
        NomiraclOutcome(subset, classify(output or ""))  # type: ignore[arg-type]
        for output, subset in zip(outputs, subsets, strict=True)
    )
    got = load("nomiracl").compute(predictions=outputs, references=subsets, parser=parser)
    assert got["hallucination_rate"] == expected.hallucination.value
    assert got["error_rate"] == expected.error.value
    assert got["invalid_relevant_rate"] == expected.invalid_relevant.value
    assert got["invalid_non_relevant_rate"] == expected.invalid_non_relevant.value
    assert got["counts"] == expected.model_dump()


def test_nomiracl_module_uses_the_papers_denominators(load: Callable[[str], Any]) -> None:
    got = load("nomiracl").compute(
        predictions=["Yes, answer is present", "मुझे नहीं पता", "??", "I don't know", "??"],
        references=["non_relevant", "non_relevant", "non_relevant", "relevant", "relevant"],
    )
    # invalid outputs leave the denominators: 1 FP of (1 FP + 1 TN); 1 FN of (1 FN + 0 TP)
    assert got["hallucination_rate"] == 0.5
    assert got["error_rate"] == 1.0
    assert got["invalid_non_relevant_rate"] == pytest.approx(1 / 3)
    assert got["invalid_relevant_rate"] == 0.5


def test_nomiracl_rate_without_a_denominator_is_none(load: Callable[[str], Any]) -> None:
    got = load("nomiracl").compute(predictions=["I don't know"], references=["non_relevant"])
    assert got["hallucination_rate"] == 0.0
    assert got["error_rate"] is None
