"""Judge-human agreement: pair a judge's scores with human grades of the same answers.

An item is one (question, model) answer on one metric. Each human grade of an item pairs with
the judge's score of it; two grades of one item are two pairs (and two raters for
Krippendorff's alpha), never averaged away.

Reported per metric, overall, per language and per model: percentage agreement, Cohen's kappa
(plain and linear-weighted), Krippendorff's alpha (ordinal), Spearman and Kendall tau of
per-item scores, and Spearman and Kendall tau of the models' rankings (mean judge score vs mean
human grade). Given bootstrap settings, each figure also gets a seeded percentile interval,
resampling items (answers) for the item statistics and questions for the ranking.

Rank correlations need no common scale and are always reported; agreement, kappa and alpha
compare grades, so they are reported only when both sides are on one scale: the grades are on
the judge's, or the metric's `ScaleMapping` maps one side onto the other. Grades on another
scale with no mapping are a `ConfigError` (`unmapped="error"`, for grades that name their
metric) or get rank correlations only (`unmapped="ranks"`, for curated grades of whole answers,
compared with every metric the judge scores, e.g. LiveQA-Med's 1..4 with chrF's 0..100).

Human grades come from two sources: curate's grades of answer TEXTS (human_judgments.jsonl),
paired with every model row whose answer is exactly that text (LiveQA-Med's answer sources
replayed as models give it verbatim; `answer_grades`), and a grades file naming question, model
and metric (`aggregate.agreement.human_grades`, read by `report.grades_file`), checked line by
line (`check_grades_file`). Where two or more people graded, their agreement with each other
(`report.inter_grader`) is given beside the judge's with them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from parakh.config.loading import unknown_name_message
from parakh.errors import ConfigError, InputError
from parakh.report.inter_grader import InterGraderStats, inter_grader_agreement
from parakh.report.items import system_name
from parakh.report.leaderboard import Settings
from parakh.report.row_files import Answer
from parakh.schema import HumanGrade, HumanJudgment, Judgment
from parakh.stats import agreement as stats
from parakh.stats.agreement import ScaleMapping
from parakh.stats.bootstrap import derive_seed, percentile_interval

ItemKey = tuple[str, str]  # (question_id, model)


def finite(value: float) -> float | None:
    return None if value is None or not np.isfinite(value) else round(float(value), 12)


@dataclass
class AgreementPairs:
    """Paired (judge, human) scores of one metric, after any declared mapping."""

    judge: list[float] = field(default_factory=list)
    human: list[float] = field(default_factory=list)
    items: list[ItemKey] = field(default_factory=list)
    raters: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)

    def subset(self, keep: list[bool]) -> AgreementPairs:
        columns = vars(self).values()  # every field, in order
        return AgreementPairs(*([v for v, k in zip(c, keep, strict=True) if k] for c in columns))


def _seed(settings: Settings, *key: str) -> int:
    return derive_seed(settings.seed, "agreement", *key)


def _intervals(draws: dict[str, np.ndarray], confidence: float) -> dict[str, list[float]]:
    """Each figure's percentile interval, in `FIGURES` order (left out where there is none)."""
    found = {f: percentile_interval(draws[f], confidence) for f in FIGURES if f in draws}
    return {f: [round(i.low, 6), round(i.high, 6)] for f, i in found.items() if i is not None}


def pair_intervals(
    pairs: AgreementPairs,
    units: np.ndarray,
    grades: list[float],
    categorical: bool,
    settings: Settings,
    key: tuple[str, ...],
) -> dict[str, list[float]]:
    """Every figure's percentile interval over the same item resamples (units in the order
    of `units`' columns: sorted item keys); a pair comes along with its item."""
    order = {item: i for i, item in enumerate(sorted(set(pairs.items)))}
    items = stats.item_weights(len(order), settings.resamples, _seed(settings, *key, "items"))
    weights = items[:, [order[item] for item in pairs.items]]
    judge, human = np.asarray(pairs.judge, dtype=float), np.asarray(pairs.human, dtype=float)
    draws = {
        "spearman": stats.weighted_spearman(judge, human, weights),
        "kendall_tau": stats.weighted_kendall_tau(judge, human, weights),
    }
    if categorical:
        confusions = stats.weighted_confusions(judge, human, grades, weights)
        draws["percent_agreement"] = stats.weighted_percent_agreement(judge, human, weights)
        draws["cohen_kappa"] = stats.kappa_of_confusions(confusions, None)
        draws["cohen_kappa_linear"] = stats.kappa_of_confusions(confusions, "linear")
        domain = np.asarray(grades, dtype=float)
        draws["krippendorff_alpha_ordinal"] = stats.weighted_alpha(units, items, domain, "ordinal")
    return _intervals(draws, settings.confidence)


FIGURES = (
    "percent_agreement",
    "cohen_kappa",
    "cohen_kappa_linear",
    "krippendorff_alpha_ordinal",
    "spearman",
    "kendall_tau",
)


# Categorical statistics (agreement, kappa, alpha) need grades, not continuous scores.
MAX_GRADES = 32


@dataclass(frozen=True)
class AgreementStats:
    """One slice's figures (None: not computed, or undefined on these pairs)."""

    n_items: int
    n_pairs: int
    percent_agreement: float | None = None
    cohen_kappa: float | None = None
    cohen_kappa_linear: float | None = None
    krippendorff_alpha_ordinal: float | None = None
    spearman: float | None = None
    kendall_tau: float | None = None
    # figure -> [low, high]: percentile bootstrap interval over items (absent: not computed)
    intervals: dict[str, list[float]] = field(default_factory=dict)


@dataclass(frozen=True)
class RankingAgreement:
    """Do judge and humans order the models the same way (means over the paired items)?"""

    n_models: int
    spearman: float | None
    kendall_tau: float | None
    judge_means: dict[str, float]
    human_means: dict[str, float]
    # figure -> [low, high]: percentile bootstrap interval over questions
    intervals: dict[str, list[float]] = field(default_factory=dict)


@dataclass
class MetricAgreement:
    metric: str
    mapping: str
    overall: AgreementStats
    by_language: dict[str, AgreementStats] = field(default_factory=dict)
    # per model (system): HEALTH-PARIKSHA reports judge-human agreement this way, per model on
    # Semantic Similarity, as the fraction of items where they agree (`percent_agreement`)
    by_model: dict[str, AgreementStats] = field(default_factory=dict)
    ranking: RankingAgreement | None = None
    human_grades: int = 0
    unpaired_human_grades: dict[str, int] = field(default_factory=dict)
    # "grades": a grades file naming each grade's metric; "answers": curated grades of answer
    # texts, paired by text (`answer_grades`)
    source: str = "grades"
    # Spearman and Kendall of the paired answers' lengths (characters) with their grades, over
    # exactly these pairs: what a judge that only rewarded long answers would get (None: no
    # answer texts given). A judge sampled on a few questions is compared on its own sample.
    length_baseline: AgreementStats | None = None
    # the human graders with each other (None: one grader, or no answer graded twice)
    inter_grader: InterGraderStats | None = None

    def to_dict(self) -> dict[str, Any]:
        found = asdict(self)
        if self.inter_grader is None:  # a run with one grader writes what it always did
            del found["inter_grader"]
        return found


def agreement_stats(
    pairs: AgreementPairs,
    labels: list[float] | None,
    *,
    ranks_only: bool = False,
    settings: Settings | None = None,
    key: tuple[str, ...] = (),
) -> AgreementStats:
    """One slice's figures; with `settings`, their intervals seeded by the run seed and `key`."""
    judge, human = np.array(pairs.judge), np.array(pairs.human)
    grades = sorted(set(pairs.judge) | set(pairs.human) | set(labels or []))
    categorical = 0 < len(grades) <= MAX_GRADES and not ranks_only
    # Krippendorff: units are items, raters are the judge and each (rater, repeat) of humans.
    units = sorted(set(pairs.items))
    unit_index = {u: i for i, u in enumerate(units)}
    rows: dict[str, np.ndarray] = {"judge": np.full(len(units), np.nan)}
    seen: Counter[tuple[ItemKey, str]] = Counter()
    for item, rater, j, h in zip(pairs.items, pairs.raters, judge, human, strict=True):
        seen[(item, rater)] += 1
        rows["judge"][unit_index[item]] = j
        slot = f"{rater}#{seen[(item, rater)]}"
        rows.setdefault(slot, np.full(len(units), np.nan))[unit_index[item]] = h
    data = np.array(list(rows.values())).reshape(len(rows), len(units))
    graded = {}
    if categorical:
        graded = {
            "percent_agreement": stats.percentage_agreement(judge, human),
            "cohen_kappa": stats.cohen_kappa(judge, human, labels=grades),
            "cohen_kappa_linear": stats.cohen_kappa(judge, human, labels=grades, weights="linear"),
            "krippendorff_alpha_ordinal": stats.krippendorff_alpha(
                data, level="ordinal", value_domain=grades
            ),
        }
    return AgreementStats(
        len(units),
        len(judge),
        **{name: finite(value) for name, value in graded.items()},
        spearman=finite(stats.spearman(judge, human)),
        kendall_tau=finite(stats.kendall_tau(judge, human)),
        intervals=pair_intervals(pairs, data, grades, categorical, settings, key)
        if settings and units
        else {},
    )


def ranking_agreement(
    pairs: AgreementPairs, settings: Settings | None = None, key: tuple[str, ...] = ()
) -> RankingAgreement | None:
    """Do the systems' mean judge scores and mean human grades order them alike? Intervals
    resample questions (every system's answers to a drawn question come along)."""
    systems = sorted(set(pairs.systems))
    if len(systems) < 2:
        return None
    questions = {q: i for i, q in enumerate(sorted({q for q, _ in pairs.items}))}
    column = {s: i for i, s in enumerate(systems)}
    # (question, system) totals: judge scores, judged items, human grades, human pairs
    judge, judged, human, graded = np.zeros((4, len(questions), len(systems)))
    seen: set[ItemKey] = set()
    for system, item, j, h in zip(
        pairs.systems, pairs.items, pairs.judge, pairs.human, strict=True
    ):
        at = (questions[item[0]], column[system])
        if item not in seen:  # the judge scored an item once, however many human grades
            seen.add(item)
            judge[at] += j
            judged[at] += 1
        human[at] += h
        graded[at] += 1
    judge_means = judge.sum(axis=0) / judged.sum(axis=0)
    human_means = human.sum(axis=0) / graded.sum(axis=0)
    intervals: dict[str, list[float]] = {}
    if settings is not None:
        seed = _seed(settings, *key, "ranking")
        weights = stats.item_weights(len(questions), settings.resamples, seed)
        with np.errstate(invalid="ignore", divide="ignore"):
            drawn_judge = (weights @ judge) / (weights @ judged)
            drawn_human = (weights @ human) / (weights @ graded)
        draws = {f: np.full(weights.shape[0], np.nan) for f in ("spearman", "kendall_tau")}
        for b in range(weights.shape[0]):
            drawn = np.isfinite(drawn_judge[b]) & np.isfinite(drawn_human[b])
            x, y = drawn_judge[b, drawn], drawn_human[b, drawn]
            if drawn.sum() >= 2:  # systems with no answer among the drawn questions drop out
                draws["spearman"][b] = stats.spearman(x, y)
                draws["kendall_tau"][b] = stats.kendall_tau(x, y)
        intervals = _intervals(draws, settings.confidence)
    return RankingAgreement(
        n_models=len(systems),
        spearman=finite(stats.spearman(judge_means, human_means)),
        kendall_tau=finite(stats.kendall_tau(judge_means, human_means)),
        judge_means={s: round(float(v), 6) for s, v in zip(systems, judge_means, strict=True)},
        human_means={s: round(float(v), 6) for s, v in zip(systems, human_means, strict=True)},
        intervals=intervals,
    )


def off_judge_scale(g: HumanGrade, judge_scale_max: float) -> str | None:
    """Why a grade is not on the judge's 0..max scale (its declared scale, else its value);
    None if it is."""
    low = 0.0 if g.scale_min is None else g.scale_min
    high = judge_scale_max if g.scale_max is None else g.scale_max
    if (low, high) != (0.0, judge_scale_max):
        return (
            f"human grades of '{g.metric}' are on a {low:g}..{high:g} scale and the judge's "
            f"on 0..{judge_scale_max:g}"
        )
    if not 0.0 <= g.score <= judge_scale_max:
        return (
            f"human grade {g.score:g} of '{g.metric}' (question {g.question_id}, model "
            f"{g.model}) is outside the judge's 0..{judge_scale_max:g} scale"
        )
    return None


def judge_human_agreement(
    judgments: list[Judgment],
    grades: list[HumanGrade],
    mappings: Mapping[str, ScaleMapping] | None = None,
    *,
    system_of: Callable[[str], str] | None = None,
    unmapped: Literal["error", "ranks"] = "error",
    settings: Settings | None = None,
    source: str = "grades",
    answer_lengths: Mapping[ItemKey, float] | None = None,
) -> list[MetricAgreement]:
    """Agreement per metric that has human grades; `system_of(model)` groups answers into the
    systems whose rankings are compared (default: each model is its own system). `unmapped`:
    what grades on another scale with no declared mapping get (see the module docstring).
    `settings`: seeded bootstrap intervals (None: none); `source` keys their seeds.
    `answer_lengths` ((question id, model) -> characters): adds the length baseline."""
    mappings = mappings or {}
    # keyed by leaderboard entry: translate-test rows are their own
    judged = {(j.question_id, system_name(j.model, j.translator), j.metric): j for j in judgments}
    by_metric: dict[str, list[HumanGrade]] = defaultdict(list)
    for g in grades:
        by_metric[g.metric].append(g)
    results = []
    for metric in sorted(by_metric):
        mapping = mappings.get(metric)
        scale_max = next((j.scale_max for j in judgments if j.metric == metric), 1.0)
        off = [why for g in by_metric[metric] if (why := off_judge_scale(g, scale_max))]
        if off and mapping is None and unmapped == "error":
            raise ConfigError(
                f"{off[0]}: declare a mapping in aggregate.agreement.mappings.{metric}"
            )
        ranks_only = bool(off) and mapping is None
        pairs, unpaired = _paired(by_metric[metric], judged, metric, mapping, system_of)
        labels = mapping.target_labels if mapping is not None else None
        seeded = (source, metric)

        result = MetricAgreement(
            metric=metric,
            mapping=_describe(mapping, scale_max, ranks_only),
            overall=agreement_stats(
                pairs,
                labels,
                ranks_only=ranks_only,
                settings=settings,
                key=(*seeded, "all"),
            ),
            ranking=ranking_agreement(pairs, settings, (*seeded, "ranking")),
            human_grades=len(by_metric[metric]),
            unpaired_human_grades=dict(sorted(unpaired.items())),
            source=source,
            inter_grader=inter_grader_agreement(by_metric[metric], settings, (*seeded, "graders")),
        )
        if answer_lengths is not None:
            result.length_baseline = _length_baseline(pairs, answer_lengths, settings, seeded)
        _add_breakdowns(result, pairs, labels, ranks_only, settings, seeded)
        results.append(result)
    return results


def _paired(
    grades: list[HumanGrade],
    judged: Mapping[tuple[str, str, str], Judgment],
    metric: str,
    mapping: ScaleMapping | None,
    system_of: Callable[[str], str] | None,
) -> tuple[AgreementPairs, Counter[str]]:
    """A metric's human grades paired with the judge rows of the same answers (mapped onto
    one scale), and why the others found no pair."""
    pairs = AgreementPairs()
    unpaired: Counter[str] = Counter()
    for g in grades:
        row = judged.get((g.question_id, g.model, metric))
        if row is None:
            unpaired["no judge row"] += 1
            continue
        if row.status != "ok" or row.score is None:
            unpaired[f"judge {row.status}"] += 1
            continue
        judge_score, human_score = row.score, g.score
        try:
            if mapping is not None and mapping.applies_to == "human":
                human_score = mapping.apply(human_score)
            elif mapping is not None:
                judge_score = mapping.apply(judge_score)
        except ValueError as e:
            raise ConfigError(f"aggregate.agreement.mappings.{metric}: {e}") from e
        pairs.judge.append(judge_score)
        pairs.human.append(human_score)
        pairs.items.append((g.question_id, g.model))
        pairs.raters.append(g.rater or "human")
        pairs.languages.append(g.language or row.language)
        pairs.systems.append(system_of(g.model) if system_of else g.model)
    return pairs, unpaired


def _add_breakdowns(
    result: MetricAgreement,
    pairs: AgreementPairs,
    labels: list[float] | None,
    ranks_only: bool,
    settings: Settings | None,
    seeded: tuple[str, str],
) -> None:
    """Fill `result`'s agreement by language and by model (system), each seeded by its key."""
    for by, slice_of, keys in (
        (result.by_language, "language", pairs.languages),
        (result.by_model, "model", pairs.systems),
    ):
        for key in sorted(set(keys)):
            by[key] = agreement_stats(
                pairs.subset([k == key for k in keys]),
                labels,
                ranks_only=ranks_only,
                settings=settings,
                key=(*seeded, slice_of, key),
            )


def _length_baseline(
    pairs: AgreementPairs,
    answer_lengths: Mapping[ItemKey, float],
    settings: Settings | None,
    seeded: tuple[str, str],
) -> AgreementStats:
    """The judge's pairs with the answer's length in place of its score (rank statistics)."""
    lengths = pairs.subset([item in answer_lengths for item in pairs.items])
    lengths.judge = [answer_lengths[item] for item in lengths.items]
    return agreement_stats(
        lengths, None, ranks_only=True, settings=settings, key=(*seeded, "length")
    )


def _describe(mapping: ScaleMapping | None, scale_max: float, ranks_only: bool = False) -> str:
    if ranks_only:
        return (
            f"none: human grades are on another scale than the judge's 0..{scale_max:g}, so "
            "rank correlations only (declare a mapping for agreement, kappa and alpha)"
        )
    if mapping is None:
        return f"none: human grades declared or checked on the judge's 0..{scale_max:g} scale"
    side = "human grades" if mapping.applies_to == "human" else "judge scores"
    if mapping.table is not None:
        table = ", ".join(f"{k:g}->{v:g}" for k, v in sorted(mapping.table.items()))
        form = f"table {table}"
    else:
        form = f"thresholds {mapping.thresholds} -> labels {mapping.labels}"
    text = f"{side} mapped by {form}"
    return f"{text} ({mapping.description})" if mapping.description else text


def agreement_metrics(agreement: list[MetricAgreement]) -> dict[str, dict[str, float]]:
    """The overall figures and the ranking's for DVC metrics (None left out), per metric:
    `<metric>` for a grades file, `<source>.<metric>` otherwise (`answers.chrf`)."""
    out: dict[str, dict[str, float]] = {}
    for a in agreement:
        figures = {"n_pairs": float(a.overall.n_pairs), **_figures(a.overall, FIGURES)}
        if a.ranking is not None:
            figures |= _figures(a.ranking, ("spearman", "kendall_tau"), "ranking_")
        if a.inter_grader is not None:
            names = ("percent_agreement", "krippendorff_alpha_ordinal")
            figures |= _figures(a.inter_grader, names, "inter_grader_")
        out[a.metric if a.source == "grades" else f"{a.source}.{a.metric}"] = figures
    return out


def _figures(
    found: AgreementStats | RankingAgreement | InterGraderStats,
    names: tuple[str, ...],
    prefix: str = "",
) -> dict[str, float]:
    """The named figures that are not None, then each interval's bounds."""
    out = {f"{prefix}{name}": v for name in names if (v := getattr(found, name)) is not None}
    for name, (low, high) in found.intervals.items():
        out[f"{prefix}{name}_ci_low"], out[f"{prefix}{name}_ci_high"] = low, high
    return out


TABLE_COLUMNS = ["source", "metric", "slice", "n_items", "n_pairs"]
TABLE_COLUMNS += [c for f in FIGURES for c in (f, f"{f}_ci_low", f"{f}_ci_high")]


def agreement_table(agreement: list[MetricAgreement]) -> dict[str, list[Any]]:
    """Every slice's figures as one table (MLflow's table JSON: `columns` and `data`)."""
    data: list[list[Any]] = []
    for a in agreement:
        slices = {"all": a.overall, **a.by_language}
        slices |= {f"model {m}": s for m, s in a.by_model.items()}
        for name, s in slices.items():
            row: list[Any] = [a.source, a.metric, name, s.n_items, s.n_pairs]
            for figure in FIGURES:
                row += [getattr(s, figure), *s.intervals.get(figure, (None, None))]
            data.append(row)
    return {"columns": TABLE_COLUMNS, "data": data}


CURATED_GRADES = "human_judgments.jsonl"
CURATED_SOURCE = "answers"  # MetricAgreement.source of grades paired by answer text


@dataclass(frozen=True)
class PairedAnswerGrades:
    """Curated grades as `HumanGrade` rows, one per (grade, judge row of the graded text)."""

    grades: list[HumanGrade]
    graded: int  # curated grades read
    unmatched: int  # of them, grades of a text no model gave


def answer_grades(
    judgments: Iterable[HumanJudgment],
    generations: Mapping[str, Sequence[Answer]],
    rows: Mapping[str, list[Judgment]],
) -> PairedAnswerGrades:
    """Pair curated grades with judge rows by (question id, identical answer text).

    `generations` and `rows` are keyed alike (the generations file stem: model or
    `<model>@<variant>`); a row pairs through its own file's generation of the question.
    """
    by_answer: dict[tuple[str, str], list[HumanJudgment]] = defaultdict(list)
    graded = 0
    for human in judgments:
        by_answer[(human.question_id, human.answer)].append(human)
        graded += 1
    grades: list[HumanGrade] = []
    matched: set[str] = set()
    for model in sorted(rows):
        answers = {
            g.question_id: g.response
            for g in generations.get(model, [])
            if g.status == "ok" and g.response is not None
        }
        for row in rows[model]:
            text = answers.get(row.question_id)
            if text is None:
                continue
            for human in by_answer.get((row.question_id, text), []):
                matched.add(human.id)
                grades.append(
                    HumanGrade(
                        question_id=row.question_id,
                        model=system_name(row.model, row.translator),
                        metric=row.metric,
                        score=human.grade,
                        scale_min=human.scale_min,
                        scale_max=human.scale_max,
                        rater=str(human.meta["rater"]) if "rater" in human.meta else None,
                    )
                )
    return PairedAnswerGrades(grades, graded, graded - len(matched))


def check_grades_file(
    path: Path,
    grades: list[HumanGrade],
    lines: list[int],
    rows: list[Judgment],
    question_ids: set[str],
    mappings: Mapping[str, ScaleMapping],
) -> None:
    """Refuse a grades file the run cannot compare, naming its file, line and field."""
    known = question_ids | {r.question_id for r in rows}
    scale_max: dict[str, float] = {}
    for r in rows:
        scale_max.setdefault(r.metric, r.scale_max)
    for grade, line in zip(grades, lines, strict=True):
        if grade.question_id not in known:
            raise InputError(
                path,
                f"unknown question id '{grade.question_id}': no question of this run has it",
                line=line,
                field="question_id",
            )
        if grade.metric not in scale_max:
            message = unknown_name_message("metric", grade.metric, sorted(scale_max))
            raise InputError(
                path, f"{message} (the metrics this judge scored)", line=line, field="metric"
            )
        low, high = grade.scale_min, grade.scale_max
        if (low is not None and grade.score < low) or (high is not None and grade.score > high):
            declared = (
                f"{'-inf' if low is None else f'{low:g}'}..{'inf' if high is None else f'{high:g}'}"
            )
            raise InputError(
                path,
                f"grade {grade.score:g} is outside its declared scale {declared}",
                line=line,
                field="score",
            )
        _check_mapping(path, grade, line, scale_max[grade.metric], mappings.get(grade.metric))


def _check_mapping(
    path: Path, grade: HumanGrade, line: int, judge_max: float, mapping: ScaleMapping | None
) -> None:
    """Refuse a grade the judge's scale cannot take: without a mapping it must be on the
    judge's scale; a mapping of human grades must accept it."""
    if mapping is None:
        if off_judge_scale(grade, judge_max) is not None:
            raise InputError(
                path,
                f"'{grade.metric}' has no declared mapping and this grade is not on the "
                f"judge's 0..{judge_max:g} scale: declare one in "
                f"aggregate.agreement.mappings.{grade.metric}",
                line=line,
                field="metric",
            )
    elif mapping.applies_to == "human":
        try:
            mapping.apply(grade.score)
        except ValueError as e:
            raise InputError(
                path,
                f"aggregate.agreement.mappings.{grade.metric}: {e}",
                line=line,
                field="score",
            ) from e
