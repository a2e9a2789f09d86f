"""Release gates (`aggregate.gates`, docs/gates.md): each gate checked per model and language.

A bound compares a cell's mean (or, with `figure: interval`, its interval's worse end) with
`min`/`max`. A `baseline_model` gate runs a paired sign-flip test of each model against the
baseline on the questions both scored, per language and overall, with Holm's correction across
those slices of one model: it fails where the model is worse at a Holm-adjusted p below
`alpha`. A `baseline_report` gate has only the other run's cells, not its per-question scores,
so it fails where the model's interval lies wholly on the worse side of the baseline's. A
check with no figure to judge (no score, no shared question) fails.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from parakh.config.gates import GateConfig
from parakh.config.loading import unknown_name_message
from parakh.errors import ConfigError, InputError
from parakh.metrics.specs import WEIGHTED
from parakh.project import resolve
from parakh.report.columns import JudgeColumns
from parakh.report.items import ALL, OVERALL, ItemIndex
from parakh.report.leaderboard import Leaderboard
from parakh.report.templating import render
from parakh.stats.bootstrap import derive_seed
from parakh.stats.paired import PairedResult, holm_adjust, paired_test

Figures = dict[str, float | int | None]
_UNSAFE = re.compile(r"[^A-Za-z0-9_\-. /:]")  # what MLflow refuses in a metric name


@dataclass(frozen=True)
class GateCheck:
    """One gate on one model and language: passed or not, the figures, and why in words."""

    gate: str
    model: str
    language: str
    metric: str
    passed: bool
    text: str
    figures: Figures

    def line(self) -> str:
        return f"gate {self.gate}: model {self.model}, language {self.language}: {self.text}"


def evaluate_gates(
    gates: list[GateConfig], board: Leaderboard, columns: JudgeColumns, weights: dict[str, float]
) -> list[GateCheck]:
    """Every gate's checks, in config order, then model and language (`all` first)."""
    checks: list[GateCheck] = []
    index: ItemIndex | None = None
    for gate in gates:
        models, languages = _names(gate, board)
        if gate.kind != "not_worse":
            checks += [_bound(gate, board, m, lang) for m in models for lang in languages]
        elif gate.baseline_report is not None:
            baseline = _baseline_cells(gate, board)
            checks += [
                _unpaired(gate, board, baseline, m, lang) for m in models for lang in languages
            ]
        else:
            if index is None:
                index = ItemIndex.of(columns, {})
                index.specs = board.specs
            for model in models:
                checks += _paired(gate, board, index, weights, model, languages)
    return checks


def _names(gate: GateConfig, board: Leaderboard) -> tuple[list[str], list[str]]:
    """The gate's models and languages, each checked against the run, and its bound's side
    against the metric's direction."""
    where = f"aggregate.gates '{gate.name}': "
    if gate.metric not in board.metrics:
        raise ConfigError(where + unknown_name_message("metric", gate.metric, board.metrics))
    spec = board.spec(gate.metric)
    if gate.kind in ("min", "max") and (gate.kind == "min") != spec.higher_is_better:
        right = "min" if spec.higher_is_better else "max"
        raise ConfigError(
            f"{where}{gate.metric} is {spec.direction_text}, so its bound is `{right}`, "
            f"not `{gate.kind}`"
        )
    skip = gate.baseline_model if gate.baseline_report is None else None  # in-run baseline
    for kind, names, known in (
        ("model", [*(gate.models or []), *([skip] if skip else [])], board.models),
        ("language", gate.languages or [], [ALL, *board.languages]),
    ):
        for name in names:
            if name not in known:
                raise ConfigError(where + unknown_name_message(kind, name, known))
    models = gate.models or [m for m in board.models if m != skip]
    return models, gate.languages or [ALL, *board.languages]


def _bound(gate: GateConfig, board: Leaderboard, model: str, language: str) -> GateCheck:
    bound = gate.min if gate.min is not None else gate.max
    assert bound is not None  # a bound gate has one
    cell = board.get(model, gate.metric, language)
    figures: Figures = {gate.kind: bound}
    if cell is None or cell.mean is None:
        text = f"{gate.metric} has no score"
        return GateCheck(gate.name, model, language, gate.metric, False, text, figures)
    figures |= {"mean": cell.mean, "ci_low": cell.ci_low, "ci_high": cell.ci_high, "n": cell.n}
    worse_end = cell.ci_low if gate.kind == "min" else cell.ci_high
    value = cell.mean if gate.figure == "mean" else worse_end
    shown = f"mean {cell.mean:.4g} [{_g(cell.ci_low)}, {_g(cell.ci_high)}], n={cell.n}"
    if value is None:
        text = f"{gate.metric} {shown}: no interval to bound"
        return GateCheck(gate.name, model, language, gate.metric, False, text, figures)
    passed = value >= bound if gate.kind == "min" else value <= bound
    op = (">=" if passed else "<") if gate.kind == "min" else ("<=" if passed else ">")
    judged = "" if gate.figure == "mean" else f"; interval end {value:.4g}"
    text = f"{gate.metric} {shown}{judged} {op} {gate.kind} {bound:g}"
    return GateCheck(gate.name, model, language, gate.metric, passed, text, figures)


def _paired(
    gate: GateConfig,
    board: Leaderboard,
    index: ItemIndex,
    weights: dict[str, float],
    model: str,
    languages: list[str],
) -> list[GateCheck]:
    """One model against the in-run baseline on each language, Holm across those tests, on
    the values the leaderboard's paired tests take (the weighted aggregate on 0..weighted_scale)."""
    assert gate.baseline_model is not None
    baseline, metric, s = gate.baseline_model, gate.metric, board.settings
    goodness = metric == WEIGHTED
    by = {m: w for m, w in weights.items() if m in index.metrics} if goodness else {metric: 1.0}
    scale = s.weighted_scale if goodness else 1.0
    (qa, va), (qb, vb) = (index.per_item(m, by, goodness=goodness) for m in (model, baseline))
    shared, ia, ib = np.intersect1d(qa, qb, assume_unique=True, return_indices=True)
    results: dict[str, PairedResult] = {}
    for language in languages:
        inside = index.slices[OVERALL if language == ALL else ("language", language)][shared]
        if inside.any():
            results[language] = paired_test(
                va[ia][inside] * scale, vb[ib][inside] * scale,
                seed=derive_seed(s.seed, "gate", gate.name, model, language),
                permutations=s.permutations, resamples=s.resamples, confidence=s.confidence,
                higher_is_better=board.spec(metric).higher_is_better,
            )  # fmt: skip
    holm = dict(zip(results, holm_adjust([r.p_value for r in results.values()]), strict=True))
    checks = []
    for language in languages:
        if (r := results.get(language)) is None:
            text = f"{metric}: no question scored for both {model} and {baseline}"
            checks.append(GateCheck(gate.name, model, language, metric, False, text, {}))
            continue
        worse = r.better == "b" and holm[language] < gate.alpha
        low, high = (r.interval.low, r.interval.high) if r.interval else (None, None)
        text = (
            f"{metric} {r.mean_a:.4g} vs {baseline} {r.mean_b:.4g} on {r.n} shared questions, "
            f"difference {r.difference:+.4g} [{_g(low)}, {_g(high)}], p {r.p_value:.3g}, "
            f"Holm p {holm[language]:.3g}: "
            + (f"worse (alpha {gate.alpha:g})" if worse else "not significantly worse")
        )
        figures: Figures = {"mean": r.mean_a, "baseline_mean": r.mean_b, "n": r.n}
        figures |= {"difference": r.difference, "ci_low": low, "ci_high": high}
        figures |= {"p_value": r.p_value, "p_holm": holm[language], "alpha": gate.alpha}
        checks.append(GateCheck(gate.name, model, language, metric, not worse, text, figures))
    return checks


def _baseline_cells(gate: GateConfig, board: Leaderboard) -> dict[tuple[str, str], Figures]:
    """(model, language) -> mean and interval of the gate's metric in the baseline report."""
    assert gate.baseline_report is not None
    path = resolve(gate.baseline_report)
    if not path.is_file():
        raise ConfigError(f"aggregate.gates '{gate.name}': no baseline report {path}")
    document = json.loads(path.read_text(encoding="utf-8"))
    spec = document.get("metric_specs", {}).get(gate.metric)
    if spec is None:
        raise InputError(path, f"the baseline has no metric '{gate.metric}'")
    if spec["direction"] != board.spec(gate.metric).direction:
        raise InputError(path, f"metric '{gate.metric}' has the other direction there")
    return {
        (c["model"], c["value"]): {k: c[k] for k in ("mean", "ci_low", "ci_high", "n")}
        for c in document["cells"]
        if c["metric"] == gate.metric and c["dimension"] in (ALL, "language")
    }


def _unpaired(
    gate: GateConfig,
    board: Leaderboard,
    baseline: dict[tuple[str, str], Figures],
    model: str,
    language: str,
) -> GateCheck:
    """Worse where the model's interval lies wholly beyond the baseline's, on the worse side."""
    base_model = gate.baseline_model or model
    cell, base = board.get(model, gate.metric, language), baseline.get((base_model, language))
    ours = (None, None) if cell is None else (cell.ci_low, cell.ci_high)
    theirs = (None, None) if base is None else (base["ci_low"], base["ci_high"])
    if cell is None or cell.mean is None or None in ours or base is None or None in theirs:
        text = f"{gate.metric}: no interval here or for {base_model} in {gate.baseline_report}"
        return GateCheck(gate.name, model, language, gate.metric, False, text, {})
    lo, hi, base_lo, base_hi = (float(v) for v in (*ours, *theirs))  # type: ignore[arg-type]
    worse = hi < base_lo if board.spec(gate.metric).higher_is_better else lo > base_hi
    text = (
        f"{gate.metric} {cell.mean:.4g} [{lo:.4g}, {hi:.4g}] vs {base_model} "
        f"{_g(base['mean'])} [{base_lo:.4g}, {base_hi:.4g}] in {gate.baseline_report}: "
        + ("worse, the intervals do not overlap" if worse else "not worse by intervals")
    )
    figures: Figures = {"mean": cell.mean, "ci_low": lo, "ci_high": hi, "n": cell.n}
    figures |= {f"baseline_{k}": v for k, v in base.items()}
    return GateCheck(gate.name, model, language, gate.metric, not worse, text, figures)


def _g(value: float | int | None) -> str:
    return "–" if value is None else f"{value:.4g}"


def gates_document(checks: list[GateCheck], partial: str | None) -> dict[str, Any]:
    """gates.json: every check; `passed` is false on any failed check or a partial run, whose
    `partial` says what is missing (a complete run's file has no such key)."""
    passed = all(c.passed for c in checks) and partial is None
    marker = {} if partial is None else {"partial": partial}
    return {"passed": passed, **marker, "checks": [asdict(c) for c in checks]}


def gate_flags(checks: list[GateCheck]) -> dict[str, dict[str, dict[str, int]]]:
    """metrics.json's `gates`: {gate: {model: {language: 1 passed, 0 failed}}}."""
    flags: dict[str, dict[str, dict[str, int]]] = {}
    for c in checks:
        flags.setdefault(c.gate, {}).setdefault(c.model, {})[c.language] = int(c.passed)
    return flags


def gate_metrics(checks: list[GateCheck]) -> dict[str, float]:
    """MLflow metrics of the sweep run: `gate.<gate>` (1: every check passed) and
    `gate.<gate>.<model>.<language>`, 1 passed, 0 failed."""
    out: dict[str, float] = {}
    for c in checks:
        name = f"gate.{c.gate}"
        out[name] = min(out.get(name, 1.0), float(c.passed))
        out[_UNSAFE.sub("_", f"{name}.{c.model}.{c.language}")] = float(c.passed)
    return out


def gates_markdown(checks: list[GateCheck]) -> list[str]:
    """leaderboard.md's gates: each failed check's line, or that all passed."""
    if not checks:
        return []
    failed = [f"- FAIL {c.line()}" for c in checks if not c.passed]
    summary = f"{len(checks) - len(failed)} of {len(checks)} checks passed"
    return ["## Release gates", "", f"{summary}.", "", *failed, *([""] if failed else [])]


def gates_section(checks: list[GateCheck]) -> str:
    """report.html's gates section (empty without gates)."""
    return render("gates.html.j2", checks=checks) if checks else ""
