"""`parakh score`: files scored exactly as the judge stage scores, outputs, and bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from parakh.cli import main
from parakh.commands.score import score_file
from parakh.errors import ConfigError, InputError
from parakh.judging.reference import reference_judgments
from parakh.schema import Generation, Question

ROWS = [
    {"id": "1", "language": "en", "prediction": "the Eiffel Tower", "reference": "Eiffel Tower"},
    {"id": "2", "language": "hi", "prediction": "नई दिल्ली", "reference": "नई दिल्ली"},
    {"id": "3", "language": "ta", "prediction": "", "reference": "சென்னை"},
    {"id": "4", "language": "te", "prediction": "Hyderabad", "reference": "హైదరాబాద్"},
]


def _csv(path: Path, rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _read(folder: Path) -> tuple[list[dict], dict]:
    rows = [json.loads(line) for line in (folder / "scores.jsonl").read_text("utf-8").splitlines()]
    return rows, json.loads((folder / "summary.json").read_text("utf-8"))


def test_csv_with_aliases_scores_as_the_judge_stage(tmp_path: Path) -> None:
    path = _csv(tmp_path / "preds.csv", ROWS)
    folder, _ = score_file(path, "em,f1,rougeL,chrf,chrf++,lang", None)
    assert folder == tmp_path / "preds.scores"
    rows, summary = _read(folder)
    assert [r["id"] for r in rows] == ["1", "2", "3", "4"]
    for given, row in zip(ROWS, rows, strict=True):
        question = Question(
            id=given["id"],
            text="q",
            language=given["language"],
            reference_answers=[given["reference"]],
        )
        generation = Generation(
            question_id=given["id"], model="m", status="ok", response=given["prediction"]
        )
        pipeline = reference_judgments(
            ["exact_match", "token_f1", "rouge_l", "chrf", "chrf_pp", "language_match"],
            "j",
            question,
            generation,
        )
        assert row["scores"] == {j.metric: j.score for j in pipeline}
        assert row["status"] == {j.metric: j.status for j in pipeline}
    assert rows[0]["scores"]["exact_match"] == 1.0  # English articles dropped
    assert rows[1]["scores"]["rouge_l"] == 1.0  # identical Hindi scores 1
    assert rows[2]["scores"]["chrf"] == 0.0  # empty prediction: no credit, not an error
    assert summary["by_metric"]["exact_match"]["all"] == {
        "mean": 0.5,
        "n": 4,
        "invalid": 0,
        "errors": 0,
        "scale_max": 1.0,
    }
    assert summary["by_metric"]["chrf"]["hi"]["mean"] == 100.0
    assert summary["metrics"] == [
        "exact_match",
        "token_f1",
        "rouge_l",
        "chrf",
        "chrf_pp",
        "language_match",
    ]


def test_jsonl_with_reference_lists_and_null_predictions(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path / "preds.jsonl",
        [
            {"id": "a", "language": "en", "prediction": "Paris", "reference": ["Rome", "Paris"]},
            {"id": "b", "language": "en", "prediction": None, "reference": "Rome"},
        ],
    )
    folder, summary = score_file(path, "em", tmp_path / "out")
    rows, _ = _read(folder)
    assert rows[0]["scores"] == {"exact_match": 1.0}
    assert rows[1]["status"] == {"exact_match": "error"}
    assert rows[1]["scores"] == {"exact_match": None}
    assert "prediction is null" in rows[1]["reasons"]["exact_match"]
    assert summary["by_metric"]["exact_match"]["all"]["errors"] == 1
    assert summary["by_metric"]["exact_match"]["all"]["n"] == 1


def test_nomiracl_rows_and_rates_with_denominators(tmp_path: Path) -> None:
    rows = [
        {
            "id": "1",
            "language": "hi",
            "prediction": "Yes, answer is present",
            "subset": "non_relevant",
        },
        {"id": "2", "language": "hi", "prediction": "I don't know", "subset": "non_relevant"},
        {"id": "3", "language": "hi", "prediction": "", "subset": "non_relevant"},
        {"id": "4", "language": "te", "prediction": "నాకు తెలియదు", "subset": "relevant"},
        {"id": "5", "language": "te", "prediction": "Yes, answer is present", "subset": "relevant"},
    ]
    folder, summary = score_file(_jsonl(tmp_path / "n.jsonl", rows), "nomiracl", None)
    scored, _ = _read(folder)
    assert scored[0]["scores"] == {"nomiracl_hallucination": 1.0}
    assert scored[0]["labels"] == {"nomiracl_hallucination": "answer_present"}
    assert scored[2]["status"] == {"nomiracl_hallucination": "invalid"}
    assert scored[3]["scores"] == {"nomiracl_error": 1.0}
    rates = summary["nomiracl"]
    assert rates["hi"]["hallucination"] == {"numerator": 1, "denominator": 2, "value": 0.5}
    assert rates["hi"]["invalid_non_relevant"] == {
        "numerator": 1,
        "denominator": 3,
        "value": pytest.approx(1 / 3),
    }
    assert rates["te"]["error"] == {"numerator": 1, "denominator": 2, "value": 0.5}
    assert rates["all"]["hallucination"]["denominator"] == 2


def test_cli_entry_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _csv(tmp_path / "p.csv", ROWS)
    with pytest.raises(SystemExit) as exit_info:
        main(["score", str(path), "--metrics", "f1,chrf", "--out", str(tmp_path / "o")])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "token_f1" in out and "chrf" in out and (tmp_path / "o" / "summary.json").is_file()


@pytest.mark.parametrize(
    ("rows", "metrics", "message"),
    [
        ([{"id": "1", "language": "en", "prediction": "x"}], "em", "field 'reference'"),
        ([{"id": "1", "language": "en", "reference": "x"}], "em", "field 'prediction'"),
        (
            [{"id": "1", "language": "english?", "prediction": "x", "reference": "x"}],
            "em",
            "line 1, field 'language': unknown language code",
        ),
        (
            [
                {"id": "1", "language": "en", "prediction": "x", "reference": "x"},
                {"id": "1", "language": "en", "prediction": "y", "reference": "y"},
            ],
            "em",
            "line 2, field 'id': duplicate id '1'",
        ),
        ([{"id": "1", "language": "hi", "prediction": "x"}], "nomiracl", "field 'subset'"),
        (
            [{"id": "1", "language": "en", "prediction": 3, "reference": "x"}],
            "em",
            "field 'prediction': expected text",
        ),
        (  # as curate: never str(true), which would make the id 'True'
            [{"id": True, "language": "en", "prediction": "x", "reference": "x"}],
            "em",
            "line 1, field 'id': expected text, got bool True",
        ),
    ],
)
def test_bad_jsonl_names_line_and_field(tmp_path: Path, rows, metrics, message) -> None:  # type: ignore[no-untyped-def]
    path = _jsonl(tmp_path / "bad.jsonl", rows)
    with pytest.raises(InputError, match=message):
        score_file(path, metrics, tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_file_that_starts_with_a_byte_order_mark_is_read(tmp_path: Path, suffix: str) -> None:
    """Windows tools (Notepad, Excel's "CSV UTF-8") start a UTF-8 file with a BOM."""
    plain = tmp_path / f"plain{suffix}"
    (_jsonl if suffix == ".jsonl" else _csv)(plain, ROWS)
    marked = tmp_path / f"marked{suffix}"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    expected, _ = _read(score_file(plain, "em,f1", tmp_path / "plain")[0])
    rows, _ = _read(score_file(marked, "em,f1", tmp_path / "marked")[0])
    assert rows == expected and [r["id"] for r in rows] == ["1", "2", "3", "4"]


def test_missing_csv_column_names_the_header_line(tmp_path: Path) -> None:
    path = _csv(tmp_path / "bad.csv", [{"id": "1", "language": "en", "prediction": "x"}])
    with pytest.raises(InputError, match=r"bad.csv, line 1, field 'reference': missing column"):
        score_file(path, "f1", None)


def test_language_match_alone_needs_no_reference_column(tmp_path: Path) -> None:
    path = _csv(tmp_path / "p.csv", [{"id": "1", "language": "hi", "prediction": "नमस्ते दुनिया"}])
    folder, _ = score_file(path, "lang", None)
    assert _read(folder)[0][0]["scores"] == {"language_match": 1.0}


def test_unknown_metric_and_unknown_format(tmp_path: Path) -> None:
    path = _csv(tmp_path / "p.csv", ROWS)
    with pytest.raises(ConfigError, match="Unknown metric 'bleu'"):
        score_file(path, "bleu", None)
    other = tmp_path / "p.tsv"
    other.write_text("id\tlanguage\n")
    with pytest.raises(InputError, match="expected a .csv or .jsonl file"):
        score_file(other, "em", None)


@pytest.mark.parametrize("content", ["", "\n\n"])
def test_an_empty_file_is_an_error_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["score", str(path), "--metrics", "f1", "--out", str(tmp_path / "o")])
    assert exit_info.value.code != 0
    err = capsys.readouterr().err
    assert "empty.jsonl" in err and "has no rows to score" in err
    assert not (tmp_path / "o").exists()
