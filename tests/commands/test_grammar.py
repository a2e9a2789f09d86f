"""One command-line grammar: `key=value` where the stages take it, Hydra lists, `--out`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.cli import main
from parakh.commands.grammar import list_value, split_overrides, take_overrides
from parakh.errors import ConfigError
from parakh.io import write_jsonl
from parakh.schema import Question


@pytest.mark.parametrize(
    ("text", "items"),
    [("[em,f1]", ["em", "f1"]), ("[em, f1]", ["em", "f1"]), ("em,f1", ["em", "f1"]),
     ("em", ["em"]), ("['hi','ta']", ["hi", "ta"]), ("[]", [])],
)  # fmt: skip
def test_lists_the_hydra_way_or_comma_separated(text: str, items: list[str]) -> None:
    assert list_value(text) == items


def test_overrides_are_split_from_words_and_unknown_keys_named() -> None:
    assert split_overrides(["hi", "translator=x", "ta"]) == (["hi", "ta"], ["translator=x"])
    assert take_overrides(["judge=smoke"], ("dataset", "judge")) == {"judge": "smoke"}
    with pytest.raises(ConfigError, match=r"'jduge=smoke': this command takes dataset=, judge="):
        take_overrides(["jduge=smoke"], ("dataset", "judge"))


def _exit_code(*args: str) -> int:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    return int(done.value.code or 0)


def test_translate_dataset_as_the_readme_prints_it(tmp_path: Path) -> None:
    """`--languages hi ta translator=...`: the override is not taken for a language code."""
    source = tmp_path / "questions.jsonl"
    write_jsonl(source, [Question(id="w", text="water", language="en")])
    extra = tmp_path / "entries.yaml"
    extra.write_text("hi:\n  पानी: water\nta:\n  தண்ணீர்: water\n", encoding="utf-8")
    for languages in (["hi", "ta"], ["[hi,ta]"]):
        out = tmp_path / "out" / str(len(languages))
        code = _exit_code(
            "translate-dataset", "--input", str(source), "--out", str(out),
            "--languages", *languages, "translator=dictionary_demo",
            f"translator.path={extra}", f"paths.cache={tmp_path / 'cache.sqlite'}",
        )  # fmt: skip
        assert code == 0
        report = json.loads((out / "report.json").read_text(encoding="utf-8"))
        assert sorted(report["languages"]) == ["hi", "ta"]


def test_score_takes_a_hydra_list_and_out(tmp_path: Path) -> None:
    rows = tmp_path / "p.jsonl"
    rows.write_text(
        json.dumps({"id": "1", "language": "en", "prediction": "a b", "reference": "a b"}) + "\n"
    )
    out = tmp_path / "out"
    assert _exit_code("score", str(rows), "--metrics", "[em,f1]", "--out", str(out)) == 0
    (row,) = [json.loads(line) for line in (out / "scores.jsonl").read_text().splitlines()]
    assert row["scores"] == {"exact_match": 1.0, "token_f1": 1.0}


def test_help_lists_out_not_output(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("reproduce", "agreement", "replay-models", "score", "langid"):
        assert _exit_code(command, "--help") == 0
        text = capsys.readouterr().out
        assert "--out" in text and "--output" not in text, command


def test_reproduce_names_an_unknown_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code("reproduce", "--dvc-exp", "x", "datset=demo") == 2
    assert "'datset=demo': this command takes dataset=, judge=, tracking.uri=" in (
        capsys.readouterr().err
    )
