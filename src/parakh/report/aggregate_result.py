"""Compute the aggregate results from loaded inputs and write every report file.

`compute` is the pure part (rows in, leaderboard and agreement out); `write_reports` writes
the markdown, CSV and JSON leaderboards, DVC metrics and plot data, the PNG plots and the HTML
pages. The aggregate stage, `parakh reproduce` and notebooks all go through these two.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parakh.config.loading import unknown_name_message
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError, InputError
from parakh.io import write_json, write_text
from parakh.metrics.registry import metric_spec
from parakh.report import plots, tables
from parakh.report.agreement import (
    CURATED_SOURCE,
    MetricAgreement,
    agreement_metrics,
    agreement_table,
    answer_grades,
    check_grades_file,
    judge_human_agreement,
)
from parakh.report.answers_page import write_answers
from parakh.report.costs import (
    COST_NOTE,
    cost_points,
    cost_records,
    cost_table,
    csv_columns,
    flat_figures,
    pareto_front,
)
from parakh.report.curation_summary import CurationSummary
from parakh.report.files import ReportFiles
from parakh.report.gates import (
    GateCheck,
    evaluate_gates,
    gate_flags,
    gates_document,
    gates_markdown,
)
from parakh.report.html import render_report
from parakh.report.inputs import AggregateInputs
from parakh.report.judge_bias import JudgeBias, judge_bias
from parakh.report.leaderboard import Leaderboard, Settings, build_leaderboard
from parakh.report.partial import PARTIAL_KEY, PartialRun
from parakh.report.released_table import ReleasedTable
from parakh.schema import HumanGrade


@dataclass
class AggregateResult:
    board: Leaderboard
    primary: str
    agreement: list[MetricAgreement]
    primary_note: str | None = None
    bias: JudgeBias | None = None  # shown in the HTML report only
    partial: PartialRun | None = None  # aggregate.allow_partial let missing judge rows through
    curation: CurationSummary | None = None  # what curate dropped; None: no curation report
    released_table: ReleasedTable | None = None  # NoMIRACL: the authors' code's own table
    costs: list[dict[str, Any]] = field(default_factory=list)  # `costs.cost_records`
    gates: list[GateCheck] = field(default_factory=list)  # aggregate.gates, checked

    def front(self) -> list[str]:
        """The entries on the front of primary metric against generation cost."""
        points = cost_points(self.board, self.primary, self.costs)
        return sorted(pareto_front(points, self.board.spec(self.primary).higher_is_better))

    def document(self) -> dict[str, Any]:
        """The JSON leaderboard (leaderboard.json)."""
        direction = self.board.spec(self.primary).direction
        extra: dict[str, Any] = {"primary_metric": self.primary, "primary_direction": direction}
        if self.primary_note:
            extra["primary_note"] = self.primary_note
        if self.partial is not None:
            extra["partial"] = self.partial.marker()
        if self.curation is not None:
            extra["curation"] = self.curation.document()
        if self.released_table is not None:
            extra["released_code_table"] = self.released_table.cells
        extra |= {"costs": self.costs, "cost_front": self.front()}
        if self.board.sample_spread:  # generation.samples > 1 only: other runs' files as before
            extra["sample_spread"] = self.board.sample_spread
        return tables.leaderboard_document(
            self.board, **extra, agreement=[a.to_dict() for a in self.agreement]
        )


def settings_of(cfg: ParakhConfig) -> Settings:
    stats = cfg.aggregate.statistics
    return Settings(
        seed=cfg.seed,
        resamples=stats.bootstrap_resamples,
        confidence=stats.confidence,
        permutations=stats.permutations,
        weighted_scale=cfg.aggregate.weighted_scale,
    )


def primary_metric(cfg: ParakhConfig, board: Leaderboard) -> tuple[str, str | None]:
    """The metric that orders the leaderboard, and a note when it is not the configured one.

    `aggregate.primary_metric` wins and must be in the run (ConfigError with close matches).
    Otherwise the judge's `primary_metric` (a name no metric declares is a ConfigError); when
    the run has no rows of it (e.g. a smoke judge whose rubric rows are missing) or the judge
    names none, the board's first metric is used and the note says so, in the report header
    and leaderboard.json.
    """
    wanted = cfg.aggregate.primary_metric
    if wanted is not None:
        if wanted in board.metrics:
            return wanted, None
        raise ConfigError(
            "aggregate.primary_metric: " + unknown_name_message("metric", wanted, board.metrics)
        )
    judge_primary = cfg.judge.primary_metric
    if judge_primary in board.metrics:
        return judge_primary, None
    if judge_primary is not None:
        try:
            metric_spec(judge_primary)  # a typo is an error, not a silent fallback
        except ConfigError as e:
            raise ConfigError(f"judge '{cfg.judge.name}' primary_metric: {e}") from e
    fallback = board.metrics[0]
    why = (
        f"judge '{cfg.judge.name}' names no primary_metric"
        if judge_primary is None
        else f"the judge's primary metric {judge_primary} has no rows in this run"
    )
    return fallback, f"ranked by {fallback}, the first metric, because {why}"


def measure_agreement(
    cfg: ParakhConfig, inputs: AggregateInputs
) -> tuple[list[MetricAgreement], list[HumanGrade]]:
    """Judge-human agreement on the grades file (if configured), then on curate's grades of
    answers (if the dataset has them); empty when there are no human grades. Also the grades
    jurors are compared with: the grades file's, else the curated ones paired by text."""
    if not (inputs.human_grades or inputs.answer_grades):
        return [], []  # and no judge row is built as an object
    settings = settings_of(cfg)
    mappings = cfg.aggregate.agreement.mappings
    lengths = {
        (g.question_id, model): float(len(g.response))
        for model, generations in inputs.generations.items()
        for g in generations
        if g.status == "ok" and g.response is not None
    }
    agreement: list[MetricAgreement] = []
    juror_grades = list(inputs.human_grades)
    rows = inputs.rows
    if inputs.human_grades:
        lines = inputs.human_grade_lines or list(range(1, len(inputs.human_grades) + 1))
        path = inputs.paths.get("human_grades", Path("human grades"))
        questions = {q.id for q in inputs.questions}
        check_grades_file(path, inputs.human_grades, lines, rows, questions, mappings)
        agreement += judge_human_agreement(
            rows, inputs.human_grades, mappings, settings=settings, answer_lengths=lengths
        )
    if inputs.answer_grades:
        paired = answer_grades(inputs.answer_grades, inputs.generations, inputs.judgments)
        for result in judge_human_agreement(
            rows,
            paired.grades,
            mappings,
            unmapped="ranks",
            settings=settings,
            source=CURATED_SOURCE,
            answer_lengths=lengths,
        ):
            result.human_grades = paired.graded
            if paired.unmatched:
                result.unpaired_human_grades["answer given by no model"] = paired.unmatched
            agreement.append(result)
        juror_grades = juror_grades or paired.grades
    return agreement, juror_grades


def compute(
    cfg: ParakhConfig, inputs: AggregateInputs, *, partial: PartialRun | None = None
) -> AggregateResult:
    """The leaderboard, agreement and judge bias of `inputs`; `partial` (from
    `partial.require_coverage`, which the stage runs first) marks a partial run."""
    columns = inputs.columns()
    if not len(columns):
        raise InputError(
            ", ".join(str(p) for k, p in inputs.paths.items() if k.startswith("judgments")),
            "no judge rows to aggregate",
        )
    board = build_leaderboard(
        columns,
        inputs.models,
        cfg.aggregate.weights,
        domains=inputs.domains,
        settings=settings_of(cfg),
        progress=cfg.progress,
    )
    agreement, grades = measure_agreement(cfg, inputs)
    primary, note = primary_metric(cfg, board)
    gates = evaluate_gates(cfg.aggregate.gates, board, columns, cfg.aggregate.weights)
    bias = judge_bias(inputs.files, inputs.generations, grades)
    costs = cost_records(board.systems, inputs.usage, board.settings)
    return AggregateResult(
        board,
        primary,
        agreement,
        note,
        bias,
        partial,
        inputs.curation,
        inputs.released_table,
        costs,
        gates=gates,
    )


def render_markdown(cfg: ParakhConfig, result: AggregateResult) -> str:
    """leaderboard.md: the warnings that qualify the figures, the overall table, the slices and
    paired tests of the primary metric, and what the figures rest on."""
    board, primary = result.board, result.primary
    parts = [
        *_markdown_warnings(cfg, result),
        *_markdown_overall(board, primary),
        *gates_markdown(result.gates),
        *_markdown_slices(board, primary),
        *(result.released_table.markdown() if result.released_table else []),
        *_markdown_costs(result),
        *_markdown_spread(board, primary),
        *_markdown_footnotes(cfg, board),
    ]
    return "\n".join(parts)


def _markdown_warnings(cfg: ParakhConfig, result: AggregateResult) -> list[str]:
    """The title and what a reader must know before the figures (partial run, primary metric
    and its note, nothing ranked, a smoke-test judge)."""
    board, primary = result.board, result.primary
    spec = board.spec(primary)
    parts = [f"# Leaderboard: {cfg.dataset.name}, judge `{cfg.judge.name}`", ""]
    if result.partial is not None:
        parts += [f"> **{result.partial.text}.**", ""]
    parts += [f"Primary metric: `{primary}` ({spec.direction_text}).", ""]
    if result.curation is not None:
        parts += [f"Curated questions: {result.curation.text()}.", ""]
    if result.primary_note:
        parts += [f"> **Note:** {result.primary_note}.", ""]
    if all(place is None for place, _ in board.places(primary)):
        parts += [
            f"> **Nothing is ranked:** no model has a `{primary}` score (every row is an "
            "error, invalid or skipped; the counts are in the table).",
            "",
        ]
    if cfg.judge.smoke_test:
        parts += [
            "> **Smoke-test judge.** Rubric scores come from a 135M-parameter local model "
            "and prove the pipeline runs; they say little about answer quality. Point the "
            "judge at a strong model for real scores (see docs/judges.md).",
            "",
        ]
    return parts


def _markdown_overall(board: Leaderboard, primary: str) -> list[str]:
    level = f"{100 * board.settings.confidence:g}%"
    return [
        "## Overall",
        "",
        tables.markdown(tables.overall_table(board, primary)),
        "",
        f"Each cell: mean [{level} bootstrap interval over questions, "
        f"{board.settings.resamples} resamples, seed {board.settings.seed}] and the rows "
        "without a score (`inv` invalid, `err` error, `skip` skipped), never counted as zeros. "
        "Rank interval: the range of ranks over the same resamples. "
        f"{tables.directions_line(board)} {tables.BEST_MARK} marks the best mean of each "
        "column.",
        "",
    ]


def _markdown_slices(board: Leaderboard, primary: str) -> list[str]:
    """The primary metric by language, category and domain, and its paired tests."""
    parts: list[str] = []
    for dimension, title in (
        ("language", "By language"),
        ("category", "By query category"),
        ("domain", "By domain"),
    ):
        if board.slices(dimension):
            parts += [
                f"## {title} ({primary})",
                "",
                tables.markdown(tables.slice_table(board, primary, dimension)),
                "",
            ]
    paired = tables.paired_table(board, primary)
    if len(paired) > 1:
        parts += [f"## Paired tests ({primary})", "", tables.markdown(paired), ""]
    return parts


def _markdown_costs(result: AggregateResult) -> list[str]:
    if not result.costs:
        return []
    table = cost_table(result.costs, result.board.settings.confidence)
    front = ", ".join(result.front()) or "no model with a price and a score"
    on_front = (
        f"On the front of {result.primary} against generation cost: {front} (plots/cost.png)."
    )
    return ["## Cost and latency", "", tables.markdown(table), "", COST_NOTE, on_front, ""]


def _markdown_spread(board: Leaderboard, primary: str) -> list[str]:
    """Run-to-run spread on the primary metric, with `generation.samples` > 1."""
    shares = board.spread(primary)
    if not shares:
        return []
    lines = [f"- {m}: {share:.0%} of questions" for m, share in shares.items()]
    return ["", f"Run-to-run spread (samples disagree on {primary}):", "", *lines]


def _markdown_footnotes(cfg: ParakhConfig, board: Leaderboard) -> list[str]:
    parts: list[str] = []
    weighted = tables.weights_line(board, cfg.aggregate.weights)
    if weighted:
        parts += [f"{weighted}.", ""]
    undeclared = [m for m in board.metrics if not board.spec(m).declared]
    if undeclared:
        parts += [
            f"Undeclared metrics (assumed higher is better on 0..max): {', '.join(undeclared)}.",
            "",
        ]
    parts += [
        "Every figure, per category and domain too: `leaderboard.csv`, `leaderboard.json`.",
        "",
    ]
    return parts


def write_reports(
    cfg: ParakhConfig,
    result: AggregateResult,
    inputs: AggregateInputs,
    files: ReportFiles,
    *,
    provenance: dict[str, Any],
) -> str:
    """Write every report file under `files.root`; returns the markdown leaderboard."""
    board, primary = result.board, result.primary
    text = render_markdown(cfg, result)
    write_text(files.leaderboard_md, text)
    partial = result.partial
    partial_text = None if partial is None else partial.text
    extra = {"partial": partial.coverage.rows_text} if partial is not None else {}
    write_text(files.leaderboard_csv, tables.csv_text(board, extra, csv_columns(result.costs)))
    write_json(files.leaderboard_json, result.document())
    metrics: dict[str, Any] = dict(tables.metrics_dict(board))
    if result.agreement:  # absent without human grades: those runs' files stay as they were
        metrics[AGREEMENT_METRICS] = agreement_metrics(result.agreement)
        write_json(files.agreement_json, agreement_table(result.agreement))
    else:
        files.agreement_json.unlink(missing_ok=True)  # never log a previous run's table
    if partial is not None:
        metrics[PARTIAL_KEY] = partial.marker()
    if result.costs:
        metrics[COST_METRICS] = {c["model"]: flat_figures(c) for c in result.costs}
    if result.gates:
        metrics[GATES_METRICS] = gate_flags(result.gates)
    if board.sample_spread:
        metrics[SAMPLE_SPREAD_METRICS] = board.sample_spread
    write_json(files.gates_json, gates_document(result.gates, partial_text))
    write_json(files.metrics_json, metrics)
    write_json(files.model_language_json, plots.plot_rows(board, primary, "language"))
    write_json(files.model_category_json, plots.plot_rows(board, primary, "category"))
    name = cfg.dataset.name
    plots.heatmap(board, primary, files.heatmap_png, f"{name}: {primary} by model and language")
    plots.category_bars(board, primary, files.categories_png, f"{name}: {primary} by category")
    title = f"{name}: {primary} against generation cost"
    plots.cost_front(board, primary, result.costs, set(result.front()), files.cost_png, title)
    page = render_report(
        cfg,
        result,
        provenance=provenance,
        answers_page=files.answers_html.name if cfg.aggregate.answers_page else None,
        n_questions=len(inputs.questions) or len(inputs.columns().question_ids),
    )
    write_text(files.report_html, page)
    if cfg.aggregate.answers_page:  # one page, or an index of pages under the size cap
        write_answers(
            files,
            inputs.questions,
            inputs.generations,
            inputs.answer_scores(),
            inputs.models,
            title=f"Side-by-side answers: {name}, judge {cfg.judge.name}",
            partial=partial_text,
        )
    return text


AGREEMENT_METRICS = "judge_human_agreement"  # metrics.json key of the agreement figures
COST_METRICS = "cost_and_latency"  # metrics.json key of each entry's `costs.flat_figures`
GATES_METRICS = "gates"  # metrics.json key of the release gates' pass flags
SAMPLE_SPREAD_METRICS = "sample_spread"  # metrics.json key of run-to-run spread, with samples > 1


def output_paths(files: ReportFiles, cfg: ParakhConfig) -> list[Path]:
    paths = [
        *files.leaderboards(),
        files.report_html,
        files.gates_json,
        files.heatmap_png,
        files.categories_png,
        files.cost_png,
        files.model_language_json,
        files.model_category_json,
    ]
    if cfg.aggregate.answers_page:
        paths += [files.answers_html, *files.answer_pages()]
    if files.agreement_json.exists():
        paths.append(files.agreement_json)
    return paths
