"""`parakh judges`: every judge of a dataset ranked by its agreement with the humans.

    parakh judges liveqa_judgments --judges reference,smoke   # default: every judge with one

The (judge, metric) rows of each leaderboard's `agreement`, by Spearman with the human grades,
beside the answer-length-only baseline: what a judge rewarding only long answers gets for free.
Writes reports/<dataset>/judges.md and .json (docs/judge-chooser.md).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Mapping
from typing import Any

from parakh.commands.grammar import list_value
from parakh.errors import ConfigError
from parakh.io import write_json, write_text
from parakh.project import resolve
from parakh.report.agreement import FIGURES
from parakh.report.files import read_leaderboard

LENGTH = "answer length (baseline)"

HELP = "a dataset's judges ranked by agreement with human grades, vs length"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", help="a dataset whose leaderboards have human agreement")
    parser.add_argument(
        "--judges",
        help="judges, as [a,b] or a,b (default: every reports/<dataset>/<judge>/ with agreement)",
    )


def _what_to_run(dataset: str, judge: str = "<judge>") -> str:
    return (
        f"run `dvc repro` with judge={judge} on a dataset with human grades (e.g. `dvc exp run "
        f"-S 'datasets=[{dataset}]' -S judge={judge}`): curate's human_judgments.jsonl or "
        "aggregate.agreement.human_grades (docs/judge-chooser.md)"
    )


def load_boards(
    dataset: str, judges: list[str] | None, allow_unscored: bool = False
) -> dict[str, dict[str, Any]]:
    """judge -> leaderboard document, for the named judges or every one with agreement.
    `allow_unscored`: a named judge with no agreement is left out (the table says so) unless
    none has any."""
    folder = resolve("reports") / dataset
    found = sorted(p.parent.name for p in folder.glob("*/leaderboard.json"))
    boards = {
        j: read_leaderboard(resolve("reports"), dataset, j, _what_to_run(dataset, j))
        for j in (found if judges is None else judges)
    }
    for judge, board in boards.items():
        if judges is not None and not board.get("agreement") and not allow_unscored:
            raise ConfigError(
                f"the leaderboard of dataset '{dataset}', judge '{judge}' has no judge-human "
                f"agreement (no human grades paired with its rows): {_what_to_run(dataset, judge)}"
            )
    boards = {j: b for j, b in boards.items() if b.get("agreement")}
    if boards:
        return boards
    if judges is not None:
        where = f"no leaderboard of dataset '{dataset}' (judges: {', '.join(judges)}) has "
        where += "judge-human agreement:"
    elif found:
        where = f"no leaderboard under {folder} has judge-human agreement (judges: "
        where += f"{', '.join(found)}):"
    else:
        where = f"no leaderboard under {folder}:"
    raise ConfigError(f"{where} {_what_to_run(dataset)}")


def _row(judge: str, a: Mapping[str, Any], baseline: dict[str, Any] | None) -> dict[str, Any]:
    overall = a["overall"]
    ranking = a.get("ranking") or {}
    interval = overall.get("intervals", {}).get("spearman")
    beats: bool | None = None
    if interval is not None and baseline is not None and baseline["spearman"] is not None:
        beats = interval[0] > baseline["spearman"]
    return {
        "judge": judge,
        **{k: a[k] for k in ("metric", "source", "mapping")},
        **{k: overall.get(k) for k in ("n_items", "n_pairs", *FIGURES)},
        "intervals": overall.get("intervals", {}),
        "ranking": {k: ranking.get(k) for k in ("n_models", "kendall_tau")}
        | {"intervals": ranking.get("intervals", {})}
        if ranking
        else None,
        "length_baseline": None if baseline is None else baseline["key"],
        "beats_length": beats,
    }


def _recorded(a: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The identity of the length baseline aggregate recorded with this agreement, if any."""
    b = a.get("length_baseline")
    if not b or not b["n_pairs"]:  # nothing paired: no baseline to show
        return None
    return (a["source"], b["n_items"], b["n_pairs"], b["spearman"], b["kendall_tau"])


def _own_baselines(
    boards: Mapping[str, Mapping[str, Any]],
) -> dict[tuple[Any, ...], dict[str, Any]]:
    """One length baseline (Spearman and Kendall of answer length in characters with the
    human grade) per distinct recorded one. Judges compared on the same graded answers share
    one (keyed by its source, e.g. `answers`); where judges met different answers (an LLM judge
    on a sample), each set is its own, keyed `<source>, <n> pairs`."""
    found: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for board in boards.values():
        for a in board["agreement"]:
            key = _recorded(a)
            if key is not None:
                found.setdefault(key, a["length_baseline"])
    per_source = Counter(source for source, *_ in found)
    return {
        key: {
            "key": key[0] if per_source[key[0]] == 1 else f"{key[0]}, {b['n_pairs']} pairs",
            **{k: b[k] for k in ("n_items", "n_pairs", "spearman", "kendall_tau")},
            "intervals": dict(b.get("intervals", {})),
        }
        for key, b in found.items()
    }


def judges_table(
    dataset: str, judges: list[str] | None = None, allow_unscored: bool = False
) -> dict[str, Any]:
    """Every (judge, metric) with agreement, best Spearman first, and the length baselines."""
    boards = load_boards(dataset, judges, allow_unscored)
    own = _own_baselines(boards)
    rows = [
        _row(judge, a, own.get(_recorded(a) or ()))
        for judge, board in boards.items()
        for a in board["agreement"]
    ]
    rows.sort(
        key=lambda r: (r["spearman"] is None, -(r["spearman"] or 0.0), r["judge"], r["metric"])
    )
    bootstraps = {
        tuple(b["settings"][k] for k in ("bootstrap_resamples", "confidence", "seed"))
        for b in boards.values()
    }
    settings = sorted(bootstraps, key=lambda s: (s[0], s[2]))
    return {
        "dataset": dataset,
        "judges": sorted(boards),
        "settings": [{"resamples": r, "confidence": c, "seed": seed} for r, c, seed in settings],
        "rows": rows,
        "baselines": list(own.values()),  # judges on the same graded answers share one
        "without_agreement": [j for j in judges or [] if j not in boards],
    }


def _num(value: float | None, interval: list[float] | None = None, digits: int = 3) -> str:
    if value is None:
        return "–"
    if interval is None:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{interval[0]:.{digits}f}, {interval[1]:.{digits}f}]"


def render(table: dict[str, Any]) -> str:
    settings = table["settings"][0] if table["settings"] else None
    how = (
        f"{100 * settings['confidence']:g}% bootstrap over answers, {settings['resamples']} "
        f"resamples, seed {settings['seed']}"
        if settings
        else "bootstrap over answers"
    )
    lines = [
        f"# Judges by agreement with the human grades: `{table['dataset']}`",
        "",
        f"Per (judge, metric): Spearman and Kendall's tau of its scores with the human grades of "
        f"the same answers ({how}); % agreement, Cohen's kappa (linear weights) and "
        "Krippendorff's alpha (ordinal) only where grades and scores share a declared scale. "
        "Ranking τ: Kendall's tau between the models ordered by mean judge score and by mean "
        f"human grade. `{LENGTH}`: Spearman of answer length (characters) with the grade over "
        "the same graded answers; a judge beats it when its Spearman interval lies above the "
        "baseline's point. How to read this: docs/judge-chooser.md.",
        "",
        "| judge | metric | grades | pairs | Spearman | Kendall τ | % agree | κ lin | α ord "
        "| ranking τ | beats length |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    entries = [(r["spearman"], _judge_line(r)) for r in table["rows"]]
    entries += [(b["spearman"], _baseline_line(b)) for b in table["baselines"]]
    # judges and baselines in one order, so a baseline sits among the judges it separates
    entries.sort(key=lambda e: (e[0] is None, -(e[0] or 0.0)))
    lines += [text for _, text in entries]
    missing = [r for r in table["rows"] if r["length_baseline"] is None and r["n_pairs"]]
    if missing:
        lines += [
            "",
            f"No length baseline for {len(missing)} row(s): their leaderboard.json predates it "
            "or had no answer texts; rerun aggregate (`dvc repro -f -s aggregate@<dataset>`).",
        ]
    if table.get("without_agreement"):
        lines += [
            "",
            f"No judge-human agreement for {', '.join(table['without_agreement'])}: none of "
            "their scores paired with a human grade (e.g. reference metrics on a dataset "
            "without reference answers; the judge's summary counts its errors).",
        ]
    return "\n".join(lines) + "\n"


def _judge_line(r: dict[str, Any]) -> str:
    """A (judge, metric) row of the table."""
    ranking = r["ranking"]
    ranked = "–"
    if ranking and ranking["kendall_tau"] is not None:
        tau = _num(ranking["kendall_tau"], ranking["intervals"].get("kendall_tau"), 2)
        ranked = f"{tau} ({ranking['n_models']} models)"
    beats = {True: "yes", False: "no", None: "–"}[r["beats_length"]]
    pa = r["percent_agreement"]
    return (
        f"| {r['judge']} | {r['metric']} | {r['source']} | {r['n_pairs']} "
        f"| {_num(r['spearman'], r['intervals'].get('spearman'))} "
        f"| {_num(r['kendall_tau'], r['intervals'].get('kendall_tau'))} "
        f"| {'–' if pa is None else f'{pa:.1f}%'} | {_num(r['cohen_kappa_linear'])} "
        f"| {_num(r['krippendorff_alpha_ordinal'])} | {ranked} | {beats} |"
    )


def _baseline_line(b: dict[str, Any]) -> str:
    """The answer-length baseline's row: Spearman and Kendall only."""
    return (
        f"| **{LENGTH}** | characters | {b['key']} | {b['n_pairs']} "
        f"| {_num(b['spearman'], b['intervals'].get('spearman'))} "
        f"| {_num(b['kendall_tau'], b['intervals'].get('kendall_tau'))} | – | – | – | – | – |"
    )


def run(args: argparse.Namespace) -> int:
    judges = None if args.judges is None else list_value(args.judges)
    return write_table(args.dataset, judges or None)


def write_table(dataset: str, judges: list[str] | None, allow_unscored: bool = False) -> int:
    """Build, write (reports/<dataset>/judges.md and .json) and print the judges table."""
    table = judges_table(dataset, judges, allow_unscored)
    text = render(table)
    folder = resolve("reports") / dataset
    write_json(folder / "judges.json", table)
    write_text(folder / "judges.md", text)
    print(text, end="")
    print(f"judges: -> {folder / 'judges.md'}")
    return 0
