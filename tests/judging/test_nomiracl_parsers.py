"""NoMIRACL's two parsers through the judge stage, on the authors' stored outputs (shared data).

`judge=nomiracl judge.parser=released` scores the 11 models' stored hi/te/bn outputs; the
summary's released-code hallucination rate for GPT-3.5 on Bengali non-relevant queries must be
what the released rules give when counted here, and the number of outputs the summary says
the parsers disagree on must be the number counted here.

The released rules are written again below from nomiracl/prompts/template.py
(VanillaTemplate.postprocess, project-miracl/nomiracl@9c787da), independently of
`parakh.metrics.nomiracl.classify_released`, so the two can catch each other's mistakes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from parakh.backends.replay import BLANK_ANSWER
from parakh.config import compose
from parakh.metrics.nomiracl import classify_nomiracl_output
from parakh.schema import Generation, Question
from parakh.stages import judge
from tests.judging.judge_files import judged

GPT35 = "gpt-3.5-turbo-azure"


def released_rules(output: str) -> str:
    """The released postprocess, as the authors wrote it: "yes" / "idk" / "invalid"."""
    text = output.replace("\n", " ").replace("\t", " ").lower()
    has_idk = "i don't know" in text
    has_yes = "yes, answer is present" in text
    if has_idk and has_yes:
        # count_word: exact whitespace tokens; a four-word phrase never equals one token
        yes_words = text.split().count("yes, answer is present")
        return "yes" if yes_words > 1 else "invalid"
    if has_idk:
        return "idk"
    if has_yes or "answer is present" in text:
        return "yes"
    if "answer is not present" in text:
        return "idk"
    if re.findall(r"\[(\d+|10)\]", text) and len(text) < 10:
        return "yes"
    return "invalid"


LENIENT_OF = {"answer_present": "yes", "i_dont_know": "idk", "invalid": "invalid"}


def _queries(shared_data: Path) -> list[dict[str, Any]]:
    path = shared_data / "nomiracl" / "queries.jsonl"
    if not path.is_file():
        pytest.skip(f"shared NoMIRACL outputs not available: {path}")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _questions(queries: list[dict[str, Any]]) -> list[Question]:
    return [
        Question(
            id=f"{q['query_id']}-{q['language']}",
            text=q["query"],
            language=q["language"],
            subset=q["subset"],
        )
        for q in queries
    ]


def _generations(queries: list[dict[str, Any]], model: str) -> list[Generation]:
    """As replay gives them: a blank stored output is an error row, not a response."""
    generations = []
    for q in queries:
        output = q["results"].get(model)
        qid = f"{q['query_id']}-{q['language']}"
        if output is None or not output.strip():
            generations.append(
                Generation(
                    question_id=qid,
                    model=model,
                    status="error",
                    error=f"{BLANK_ANSWER} queries.jsonl:1, field 'results.{model}'",
                )
            )
        else:
            generations.append(
                Generation(question_id=qid, model=model, status="ok", response=output)
            )
    return generations


def _judge(queries: list[dict[str, Any]], model: str, parser: str, tmp_path: Path) -> dict:
    cfg = compose(["judge=nomiracl", f"judge.parser={parser}"])
    assert cfg.judge.parser == parser
    questions = _questions(queries)
    rows = judged(cfg, questions, _generations(queries, model), [], tmp_path / "p.jsonl")
    return judge.summarize(cfg, rows)


def test_released_hallucination_rate_of_gpt35_on_bengali(shared_data: Path, tmp_path: Path) -> None:
    queries = _queries(shared_data)
    bengali = [q for q in queries if q["language"] == "bn" and q["subset"] == "non_relevant"]
    verdicts = Counter(released_rules(q["results"][GPT35]) for q in bengali)
    assert verdicts["idk"] > 0  # the released code computes the rate only then
    expected = verdicts["yes"] / len(bengali)

    summary = _judge(queries, GPT35, "released", tmp_path)
    released = summary["nomiracl"]["bn"]["released_code"]["hallucination"]
    assert released["numerator"] == verdicts["yes"]
    assert released["denominator"] == len(bengali) == 137
    assert released["value"] == pytest.approx(expected) and not released["zeroed"]
    # the paper-style rate under the released parser, invalid outputs left out
    paper = summary["nomiracl"]["bn"]["hallucination"]
    assert (paper["numerator"], paper["denominator"]) == (
        verdicts["yes"],
        verdicts["yes"] + verdicts["idk"],
    )
    assert summary["nomiracl"]["bn"]["parser"] == "released"


@pytest.mark.parametrize("parser", ["released", "lenient"])
def test_summary_counts_the_outputs_the_parsers_disagree_on(
    shared_data: Path, tmp_path: Path, parser: str
) -> None:
    queries = _queries(shared_data)
    models = sorted({m for q in queries for m in q["results"]})
    assert len(models) == 11
    total = 0
    for model in models:
        outputs = [q["results"][model] for q in queries]
        answered = [o for o in outputs if o is not None and o.strip()]
        disagree = sum(
            LENIENT_OF[classify_nomiracl_output(o)] != released_rules(o) for o in answered
        )
        summary = _judge(queries, model, parser, tmp_path)
        parsers = summary["nomiracl_parsers"]
        assert parsers["parser"] == parser
        assert parsers["disagreements"] == disagree, model
        assert parsers["missing_outputs"] == len(outputs) - len(answered), model
        total += disagree
    assert total > 0


def test_blank_outputs_are_counted_as_missing_not_dropped(
    shared_data: Path, tmp_path: Path
) -> None:
    """aya-101 left some outputs blank: they are missing outputs, out of the paper-style rates
    and invalid in the released code's denominator (which reads an empty output as invalid)."""
    queries = _queries(shared_data)
    bengali = [q for q in queries if q["language"] == "bn"]
    blank = sum(not q["results"]["aya-101"].strip() for q in bengali)
    assert blank > 0
    bn = _judge(queries, "aya-101", "released", tmp_path)["nomiracl"]["bn"]
    assert bn["missing_outputs"] == {"non_relevant": blank, "relevant": 0}
    assert bn["non_relevant"]["total"] == len(bengali) - blank
    assert bn["released_code"]["hallucination"]["denominator"] == len(bengali)
    assert bn["released_code"]["invalid_non_relevant"]["numerator"] == sum(
        released_rules(q["results"]["aya-101"]) == "invalid" for q in bengali
    )
