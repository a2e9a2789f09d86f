"""Biases a reader can check before trusting a judge: length, self-judging, jurors.

For every judge run: each metric's Spearman correlation with answer length (characters of the
generation; a judge that rewards length for its own sake shows it here), and the share of rows
a judge model scored of its own output (`self_judged` flag). With a jury (rows with `votes`):
each juror's Spearman with the jury's score and, where there are human grades, with the humans.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from parakh.report.agreement import finite, judge_human_agreement
from parakh.report.columns import as_numpy, codes_of
from parakh.report.row_files import Answer, JudgeFile
from parakh.report.templating import render
from parakh.schema import HumanGrade, Judgment
from parakh.stats import agreement as stats

SELF_JUDGED = "self_judged"


@dataclass(frozen=True)
class MetricBias:
    metric: str
    rows: int
    self_judged: int
    length_pairs: int  # scored rows whose answer text is known
    length_spearman: float | None

    @property
    def self_judged_share(self) -> float:
        return self.self_judged / self.rows if self.rows else 0.0


@dataclass(frozen=True)
class JurorAgreement:
    metric: str
    juror: str
    votes: int
    spearman_with_jury: float | None
    spearman_with_humans: float | None
    human_pairs: int


@dataclass
class JudgeBias:
    metrics: list[MetricBias] = field(default_factory=list)
    jurors: list[JurorAgreement] = field(default_factory=list)
    answers_known: bool = True


def judge_bias(
    files: Mapping[str, JudgeFile],
    generations: Mapping[str, Sequence[Answer]],
    grades: list[HumanGrade] | None = None,
) -> JudgeBias:
    """`files` (judge rows) and `generations` keyed alike (generations file stem); `grades`
    are the human grades already paired with these rows' (question, model, metric), if any.
    Read from the rows' columns; rows become objects only in a file with jury votes."""
    length: dict[str, dict[str, int]] = defaultdict(dict)
    for model, answers in generations.items():
        for g in answers:
            if g.status == "ok" and g.response is not None:
                length[model][g.question_id] = len(g.response)
    names = ("question_id", "metric", "status", "score", "flags")
    tables = {m: f.columns(names) for m, f in files.items()}
    read = pa.concat_tables(list(tables.values())) if tables else None
    result = JudgeBias(answers_known=any(length.values()))
    if read is None or not read.num_rows:
        return result
    codes, words = codes_of(read.column("metric"))
    score = read.column("score")
    lengths = np.concatenate(
        [_lengths(t.column("question_id"), length.get(m, {})) for m, t in tables.items()]
    )
    scored = (
        as_numpy(pc.equal(read.column("status"), "ok"))
        & as_numpy(pc.is_valid(score))
        & ~np.isnan(lengths)
    )
    scores = as_numpy(pc.fill_null(score, np.nan)).astype(float)
    self_judged = _self_judged(read.column("flags").combine_chunks())
    juried: dict[str, list[Judgment]] = defaultdict(list)
    for file in files.values():
        for row in file.judgments() if "votes" in file.table.column_names else []:
            if row.votes:
                juried[row.metric].append(row)
    for name in sorted(words):
        rows = codes == words.index(name)
        pairs = rows & scored
        result.metrics.append(
            MetricBias(
                metric=name,
                rows=int(rows.sum()),
                self_judged=int((rows & self_judged).sum()),
                length_pairs=int(pairs.sum()),
                length_spearman=finite(stats.spearman(scores[pairs], lengths[pairs])),
            )
        )
        result.jurors += _jurors(name, juried.get(name, []), grades or [])
    return result


def _lengths(question_ids: pa.ChunkedArray, length: dict[str, int]) -> np.ndarray:
    """Each row's answer length in characters; NaN where the answer is unknown."""
    found = pc.index_in(question_ids, value_set=pa.array(list(length), pa.string()))
    lengths = np.append(np.asarray(list(length.values()), dtype=float), np.nan)
    return lengths[as_numpy(pc.fill_null(found, len(length))).astype(np.int64)]


def _self_judged(flags: pa.ListArray) -> np.ndarray:
    """Whether a judge model scored its own output, per row."""
    found = np.zeros(len(flags), dtype=bool)
    hits = as_numpy(pc.equal(pc.list_flatten(flags), SELF_JUDGED)).astype(bool)
    found[as_numpy(pc.list_parent_indices(flags))[hits]] = True
    return found


def _jurors(metric: str, rows: list[Judgment], grades: list[HumanGrade]) -> list[JurorAgreement]:
    jurors = sorted({juror for row in rows for juror in row.votes})
    out = []
    metric_grades = [g for g in grades if g.metric == metric]
    for juror in jurors:
        votes, jury = [], []
        as_judge = []
        for row in rows:
            vote = row.votes.get(juror)
            if vote is None:
                continue
            as_judge.append(row.model_copy(update={"score": vote, "status": "ok"}))
            if row.status == "ok" and row.score is not None:
                votes.append(vote)
                jury.append(row.score)
        with_humans, pairs = None, 0
        if metric_grades:
            found = judge_human_agreement(as_judge, metric_grades, unmapped="ranks")
            if found:
                with_humans, pairs = found[0].overall.spearman, found[0].overall.n_pairs
        rho = finite(stats.spearman(votes, jury))
        out.append(JurorAgreement(metric, juror, len(as_judge), rho, with_humans, pairs))
    return out


def bias_section(bias: JudgeBias) -> str:
    """The report's "Judge bias checks" section (templates/judge_bias.html.j2)."""
    return render("judge_bias.html.j2", bias=bias)
