"""aggregate: leaderboards per language and overall, DVC metrics, plots, MLflow runs.

python -m parakh.stages.aggregate dataset=demo judge=smoke 'models=[extractive,smollm2]'
"""

from __future__ import annotations

import csv
import io

import yaml

from parakh.config import ParakhConfig, hydra_entry, load_named
from parakh.errors import ConfigError, InputError
from parakh.hashing import sha256_path
from parakh.io import read_jsonl, write_json, write_text
from parakh.layout import Layout
from parakh.paths import project_root
from parakh.report.leaderboard import (
    WEIGHTED,
    Leaderboard,
    build_leaderboard,
    csv_rows,
    language_table,
    markdown,
    metrics_dict,
    overall_table,
)
from parakh.report.plots import heatmap
from parakh.schema import Judgment
from parakh.tracking.mlflow_log import log_model_run, tracking_uri
from parakh.tracking.runspec import git_commit


def run(cfg: ParakhConfig, rows: list[Judgment], models: list[str]) -> Leaderboard:
    return build_leaderboard(rows, models, cfg.aggregate.weights)


def models_to_aggregate(cfg: ParakhConfig) -> list[str]:
    """`models=[...]` if given, else the sweep list in params.yaml (DVC's source of truth)."""
    if cfg.models is not None:
        return cfg.models
    params = project_root() / "params.yaml"
    if not params.is_file():
        raise ConfigError("no models to aggregate: pass models=[a,b] or add params.yaml")
    models = (yaml.safe_load(params.read_text(encoding="utf-8")) or {}).get("models")
    if not isinstance(models, list) or not models:
        raise InputError(params, "expected a non-empty list", field="models")
    return [str(m) for m in models]


def render_markdown(cfg: ParakhConfig, board: Leaderboard) -> str:
    primary = board.metrics[0]
    parts = [f"# Leaderboard: {cfg.dataset.name}, judge `{cfg.judge.name}`", ""]
    if cfg.judge.smoke_test:
        parts += [
            "> **Smoke-test judge.** Rubric scores come from a 135M-parameter local model "
            "and prove the pipeline runs; they say little about answer quality. Point the "
            'judge at a strong model for real scores (see README, "Judges").',
            "",
        ]
    parts += [
        "## Overall",
        "",
        markdown(overall_table(board)),
        "",
        f"## By language ({primary})",
        "",
        markdown(language_table(board, primary)),
        "",
    ]
    if primary == WEIGHTED:
        weights = ", ".join(f"{k} {v:g}" for k, v in cfg.aggregate.weights.items())
        parts += [
            f"Weighted aggregate: {weights} (each metric scaled to 0..1). "
            "Cells show the mean over scored rows; `inv` and `err` count rows without "
            "a score.",
            "",
        ]
    return "\n".join(parts)


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    rows: list[Judgment] = []
    models = models_to_aggregate(cfg)
    paths = {m: layout.judgments(cfg.judge.name, m) for m in models}
    for model, path in paths.items():
        if not path.exists():
            raise InputError(
                path,
                f"no judge output for model '{model}': run "
                f"`dvc repro` or the judge stage for it first",
            )
        rows += read_jsonl(path, Judgment)
    board = run(cfg, rows, models)
    text = render_markdown(cfg, board)
    buf = io.StringIO()
    table = csv_rows(board)
    writer = csv.DictWriter(
        buf, fieldnames=list(table[0]) if table else ["model"], lineterminator="\n"
    )
    writer.writeheader()
    writer.writerows(table)
    write_text(layout.leaderboard_md, text)
    write_text(layout.leaderboard_csv, buf.getvalue())
    scores = metrics_dict(board)
    write_json(layout.metrics_json, scores)
    primary = board.metrics[0]
    heatmap(
        board,
        primary,
        layout.plots / "heatmap.png",
        f"{cfg.dataset.name}: {primary} by model and language",
    )
    plot_rows = [
        {"model": m, "language": la, primary: round(c.mean / c.scale_max, 6)}
        for (m, me, la), c in sorted(board.cells.items())
        if me == primary and c.mean is not None
    ]
    write_json(layout.plots / "model_language.json", plot_rows)

    uri = tracking_uri(cfg.tracking.uri)
    commit = git_commit()
    for model, path in paths.items():
        gen_path = layout.generations(model)
        log_model_run(
            uri=uri,
            experiment=cfg.tracking.experiment,
            dataset=cfg.dataset.name,
            model=model,
            judge=cfg.judge.name,
            tags={
                "git_commit": commit,
                "translator": cfg.translator.name,
                "retriever": cfg.retriever.name,
                "embedder": cfg.embedder.name,
                "data.questions_sha256": sha256_path(layout.translated_questions),
                "data.generations_sha256": sha256_path(gen_path),
                "data.judgments_sha256": sha256_path(path),
            },
            params={
                "dataset": cfg.dataset.model_dump(),
                "judge": cfg.judge.model_dump(),
                "model": load_named("model", model),
                "retriever": cfg.retriever.model_dump(),
                "embedder": cfg.embedder.model_dump(),
                "translator": cfg.translator.model_dump(),
                "aggregate": cfg.aggregate.model_dump(),
            },
            metrics=scores.get(model, {}),
            artifacts=[path, gen_path],
        )
    print(text)
    print(f"aggregate: leaderboard -> {layout.leaderboard_md}; MLflow runs -> {uri}")


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
