"""Compute the aggregate results from loaded inputs and write every report file.

`compute` is the pure part (rows in, leaderboard and agreement out); `write_reports` writes
the markdown, CSV and JSON leaderboards, DVC metrics and plot data, the PNG plots and the HTML
pages. The aggregate stage, `parakh reproduce` and notebooks all go through these two.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.config.loading import unknown_name_message
from parakh.config.schema import ParakhConfig
from parakh.errors import ConfigError, InputError
from parakh.io import write_json, write_text
from parakh.report import plots, tables
from parakh.report.agreement import MetricAgreement, judge_human_agreement
from parakh.report.answers import render_answers
from parakh.report.files import ReportFiles
from parakh.report.html import ReportContext, render_report
from parakh.report.inputs import AggregateInputs
from parakh.report.leaderboard import WEIGHTED, Leaderboard, Settings, build_leaderboard


@dataclass
class AggregateResult:
    board: Leaderboard
    primary: str
    agreement: list[MetricAgreement]

    def document(self) -> dict[str, Any]:
        """The JSON leaderboard (leaderboard.json)."""
        return tables.leaderboard_document(
            self.board,
            primary_metric=self.primary,
            agreement=[a.to_dict() for a in self.agreement],
        )


def settings_of(cfg: ParakhConfig) -> Settings:
    stats = cfg.aggregate.statistics
    return Settings(
        seed=cfg.seed,
        resamples=stats.bootstrap_resamples,
        confidence=stats.confidence,
        permutations=stats.permutations,
    )


def primary_metric(cfg: ParakhConfig, board: Leaderboard) -> str:
    """The configured primary metric; `weighted` falls back to the first metric when the judge
    scored none of the weighted metrics (e.g. a reference-only judge)."""
    wanted = cfg.aggregate.primary_metric
    if wanted in board.metrics:
        return wanted
    if wanted == WEIGHTED:
        return board.metrics[0]
    raise ConfigError(unknown_name_message("metric", wanted, board.metrics))


def compute(cfg: ParakhConfig, inputs: AggregateInputs) -> AggregateResult:
    rows = inputs.rows
    if not rows:
        raise InputError(
            ", ".join(str(p) for k, p in inputs.paths.items() if k.startswith("judgments")),
            "no judge rows to aggregate",
        )
    board = build_leaderboard(
        rows,
        inputs.models,
        cfg.aggregate.weights,
        domains=inputs.domains,
        settings=settings_of(cfg),
    )
    agreement = (
        judge_human_agreement(rows, inputs.human_grades, cfg.aggregate.agreement.mappings)
        if inputs.human_grades
        else []
    )
    return AggregateResult(board, primary_metric(cfg, board), agreement)


def render_markdown(cfg: ParakhConfig, result: AggregateResult) -> str:
    board, primary = result.board, result.primary
    parts = [f"# Leaderboard: {cfg.dataset.name}, judge `{cfg.judge.name}`", ""]
    if cfg.judge.smoke_test:
        parts += [
            "> **Smoke-test judge.** Rubric scores come from a 135M-parameter local model "
            "and prove the pipeline runs; they say little about answer quality. Point the "
            'judge at a strong model for real scores (see README, "Judges").',
            "",
        ]
    level = f"{100 * board.settings.confidence:g}%"
    parts += [
        "## Overall",
        "",
        tables.markdown(tables.overall_table(board, primary)),
        "",
        f"Each cell: mean [{level} bootstrap interval over questions, "
        f"{board.settings.resamples} resamples, seed {board.settings.seed}] and the rows "
        "without a score (`inv` invalid, `err` error, `skip` skipped), never counted as zeros. "
        "Rank interval: the range of ranks over the same resamples.",
        "",
    ]
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
    if WEIGHTED in board.metrics:
        weights = ", ".join(f"{k} {v:g}" for k, v in cfg.aggregate.weights.items())
        parts += [f"Weighted aggregate: {weights} (each metric scaled to 0..1).", ""]
    parts += [
        "Every figure, per category and domain too: `leaderboard.csv`, `leaderboard.json`.",
        "",
    ]
    return "\n".join(parts)


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
    write_text(files.leaderboard_csv, tables.csv_text(board))
    write_json(files.leaderboard_json, result.document())
    write_json(files.metrics_json, tables.metrics_dict(board))
    write_json(files.model_language_json, plots.plot_rows(board, primary, "language"))
    write_json(files.model_category_json, plots.plot_rows(board, primary, "category"))
    name = cfg.dataset.name
    plots.heatmap(board, primary, files.heatmap_png, f"{name}: {primary} by model and language")
    plots.category_bars(board, primary, files.categories_png, f"{name}: {primary} by category")
    context = ReportContext(
        dataset=name,
        judge=cfg.judge.name,
        smoke_test=cfg.judge.smoke_test,
        primary=primary,
        weights=cfg.aggregate.weights,
        config=cfg.model_dump(mode="json"),
        provenance=provenance,
        agreement=result.agreement,
        answers_page=files.answers_html.name if cfg.aggregate.answers_page else None,
        n_questions=len(inputs.questions) or len({r.question_id for r in inputs.rows}),
    )
    write_text(files.report_html, render_report(board, context))
    if cfg.aggregate.answers_page:
        write_text(
            files.answers_html,
            render_answers(
                inputs.questions,
                inputs.generations,
                inputs.rows,
                inputs.models,
                title=f"Side-by-side answers: {name}, judge {cfg.judge.name}",
            ),
        )
    return text


def output_paths(files: ReportFiles, cfg: ParakhConfig) -> list[Path]:
    paths = [
        *files.leaderboards(),
        files.report_html,
        files.heatmap_png,
        files.categories_png,
        files.model_language_json,
        files.model_category_json,
    ]
    if cfg.aggregate.answers_page:
        paths.append(files.answers_html)
    return paths
