"""Agreement between a reference-metric judge and human grades on LiveQA-Med x MedQuAD answers.

Reads the human-judged (question, answer) pairs in shared/data/liveqa_med_judgments (TREC-2017
LiveQA medical questions, MedQuAD answers graded 1-Incorrect .. 4-Excellent by NLM assessors),
scores every judged answer with Parakh's reference metrics, and measures how far each metric
agrees with the human grades, through the same `judge_human_agreement` the aggregate stage
uses. Writes bench/results/agreement.json and prints a short table.

What the "reference" is, honestly: the shared data holds no reference answers for these
questions (the LiveQA XML's reference answers were not copied), and the MedQuAD subset answers
MedQuAD's own templated questions, not these (none of its answers is among the judged ones).
So the reference side is the consumer's question itself, in two ways:

- answer_vs_question: the judged answer's text against the question (NLM summary, NIST
  paraphrase, subject + message), i.e. lexical relevance of the answer to the question;
- matched_question_vs_question: the MedQuAD question the answer was written for (the
  `Question:` line of the judged text) against the consumer question, i.e. lexical question
  entailment, the retrieval signal of Ben Abacha & Demner-Fushman (2019).

Human grades (1-4) and metric scores (0..1) are on different scales, so every categorical
statistic uses a declared mapping: equal-width bins, bins fitted to the human grade marginal
(uses the grade distribution, not the pairing), and a binary acceptable (grade >= 3) split.
Spearman and Kendall tau are also given on the raw scores, which needs no mapping.

    python bench/agreement.py [--judgments PATH] [--output PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from parakh.io import iter_json_objects, write_json
from parakh.metrics.registry import get_reference_metric
from parakh.report.agreement import judge_human_agreement
from parakh.schema import HumanGrade, Judgment
from parakh.stats import agreement as stats
from parakh.stats.agreement import ScaleMapping

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_JUDGMENTS = (
    REPO_ROOT.parent / "shared" / "data" / "liveqa_med_judgments" / "judgments.jsonl"
)
DEFAULT_OUTPUT = REPO_ROOT / "bench" / "results" / "agreement.json"
METRICS = ("token_f1", "rouge_l", "chrf")
GRADES = (1.0, 2.0, 3.0, 4.0)


def split_answer(text: str) -> tuple[str, str]:
    """(MedQuAD question line, answer body) of a judged `Answer` field."""
    question, _, rest = text.partition("\nURL:")
    _, _, body = rest.partition("\nAnswer:")
    return question.removeprefix("Question:").strip(), body.strip() or text


def consumer_question(row: dict[str, Any]) -> list[str]:
    """Every wording of the consumer's question the data holds (blank ones left out)."""
    texts = [row.get("NLM-Summary"), row.get("NIST-PARAPHRASE")]
    texts.append(" ".join(t for t in (row.get("SUBJECT"), row.get("MESSAGE")) if t))
    return [t.strip() for t in texts if t and t.strip()]


JUDGES: dict[str, tuple[str, Callable[[dict[str, Any]], tuple[str, list[str]]]]] = {
    "answer_vs_question": (
        "metric(answer text, references = the consumer question's wordings), best reference",
        lambda row: (split_answer(row["Answer"])[1], consumer_question(row)),
    ),
    "matched_question_vs_question": (
        "metric(the MedQuAD question the answer was written for, references = the consumer "
        "question's wordings), best reference",
        lambda row: (split_answer(row["Answer"])[0], consumer_question(row)[:2]),
    ),
}


def judge_rows(rows: list[dict[str, Any]], judge: str) -> list[Judgment]:
    """One reference-metric judgment per (question, judged answer, metric), scaled to 0..1."""
    _, inputs = JUDGES[judge]
    out: dict[tuple[str, str, str], Judgment] = {}
    for row in rows:
        prediction, references = inputs(row)
        for name in METRICS:
            metric = get_reference_metric(name)
            key = (row["Question_ID"], row["Answer_ID"], name)
            if key in out:  # the same answer judged twice: one judge score, two human grades
                continue
            score = metric.fn(prediction, references, "en") / metric.scale_max
            out[key] = Judgment(
                question_id=row["Question_ID"],
                model=row["Answer_ID"],
                judge=judge,
                metric=name,
                language="en",
                status="ok",
                score=round(float(score), 6),
                scale_max=1.0,
            )
    return list(out.values())


def human_grades(rows: list[dict[str, Any]], metric: str) -> list[HumanGrade]:
    return [
        HumanGrade(
            question_id=row["Question_ID"],
            model=row["Answer_ID"],
            metric=metric,
            score=float(row["score"]),
            scale_min=1.0,
            scale_max=4.0,
            language="en",
        )
        for row in rows
    ]


def marginal_thresholds(scores: list[float], grades: list[float]) -> list[float]:
    """Score cut points that give the metric the same grade distribution as the humans."""
    counts = Counter(grades)
    cumulative = np.cumsum([counts[g] for g in GRADES[:-1]]) / len(grades)
    return [round(float(np.quantile(scores, q)), 6) for q in cumulative]


def evaluate(rows: list[dict[str, Any]], judge: str) -> dict[str, Any]:
    judged = judge_rows(rows, judge)
    source = {row["Answer_ID"]: row["answer_source"] for row in rows}
    out: dict[str, Any] = {}
    for metric in METRICS:
        metric_rows = [j for j in judged if j.metric == metric]
        grades = human_grades(rows, metric)
        score_of = {(j.question_id, j.model): float(j.score or 0.0) for j in metric_rows}
        paired_scores = [score_of[(g.question_id, g.model)] for g in grades]
        paired_grades = [g.score for g in grades]
        result: dict[str, Any] = {
            "raw": {
                "n_pairs": len(grades),
                "spearman": round(stats.spearman(paired_scores, paired_grades), 6),
                "kendall_tau": round(stats.kendall_tau(paired_scores, paired_grades), 6),
            }
        }
        fitted = marginal_thresholds(paired_scores, paired_grades)
        mappings = {
            "equal_width": ScaleMapping(
                applies_to="judge",
                thresholds=[0.25, 0.5, 0.75],
                labels=list(GRADES),
                description="declared: score bins of equal width on 0..1",
            ),
            "marginal_matched": ScaleMapping(
                applies_to="judge",
                thresholds=fitted,
                labels=list(GRADES),
                description="fitted: score quantiles matching the human grade distribution",
            ),
        }
        for name, mapping in mappings.items():
            (agreement,) = judge_human_agreement(
                metric_rows, grades, {metric: mapping}, system_of=source.get
            )
            result[name] = agreement.to_dict()
        cut = fitted[1]  # the score quantile at the share of grades 1-2
        binary_judge = [
            j.model_copy(update={"score": float((j.score or 0.0) >= cut)}) for j in metric_rows
        ]
        binary_human = [
            g.model_copy(update={"score": float(g.score >= 3), "scale_min": 0.0, "scale_max": 1.0})
            for g in grades
        ]
        (binary,) = judge_human_agreement(binary_judge, binary_human, system_of=source.get)
        result["binary_acceptable"] = {
            "judge_threshold": cut,
            "human": "acceptable = grade >= 3 (3-Incomplete, 4-Excellent)",
            **binary.to_dict(),
        }
        out[metric] = result
    return out


def load_rows(path: Path) -> list[dict[str, Any]]:
    return [obj for _, obj in iter_json_objects(path)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judgments", type=Path, default=DEFAULT_JUDGMENTS)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if not args.judgments.is_file():
        print(f"skipped: {args.judgments} not found", file=sys.stderr)
        return 0
    started = time.perf_counter()
    rows = load_rows(args.judgments)
    grades = [float(r["score"]) for r in rows]
    lengths = [len(split_answer(r["Answer"])[1]) for r in rows]
    document = {
        "data": {
            "file": "shared/data/liveqa_med_judgments/judgments.jsonl",
            "sha256": hashlib.sha256(args.judgments.read_bytes()).hexdigest(),
            "judged_pairs": len(rows),
            "questions": len({r["Question_ID"] for r in rows}),
            "answers": len({r["Answer_ID"] for r in rows}),
            "grade_counts": {f"{g:g}": grades.count(g) for g in GRADES},
            "language": "en",
        },
        "method": (
            "Each judged answer is scored by Parakh's reference metrics (token_f1, rouge_l, "
            "chrf scaled to 0..1) with the consumer question as the reference, as no reference "
            "answers exist in the shared data; see `judges`. Agreement with the human 1-4 grades "
            "comes from parakh.report.agreement.judge_human_agreement: every human grade is a "
            "pair (pairs graded twice give two pairs and two Krippendorff raters); categorical "
            "statistics use the declared mapping named by each block; `ranking` compares the "
            "order of the 9 answer sources (GHR, NIDDK, ...) by mean metric score and by mean "
            "grade. Single split: the shared side only (the holdout is not in shared data)."
        ),
        "judges": {
            name: {"description": description, "metrics": evaluate(rows, name)}
            for name, (description, _) in JUDGES.items()
        },
        "baseline_answer_length": {
            "description": "answer length in characters vs grade: what any length-biased "
            "judge would get for free",
            "spearman": round(stats.spearman(lengths, grades), 6),
            "kendall_tau": round(stats.kendall_tau(lengths, grades), 6),
        },
        "runtime_s": None,
    }
    document["runtime_s"] = round(time.perf_counter() - started, 1)
    write_json(args.output, document)
    print(f"{'judge':30} {'metric':9} {'rho':>7} {'tau':>7} {'kappa_lin':>9} {'alpha':>7}")
    for judge, block in document["judges"].items():
        for metric, result in block["metrics"].items():
            fitted = result["marginal_matched"]["overall"]
            print(
                f"{judge:30} {metric:9} {result['raw']['spearman']:7.3f} "
                f"{result['raw']['kendall_tau']:7.3f} {fitted['cohen_kappa_linear']:9.3f} "
                f"{fitted['krippendorff_alpha_ordinal']:7.3f}"
            )
    print(f"wrote {args.output} in {document['runtime_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
