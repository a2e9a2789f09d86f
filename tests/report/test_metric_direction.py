"""Reports follow each metric's declared direction and scale (NoMIRACL rates: lower is better;
IndicQuest: 1..5 with Overall primary)."""

from __future__ import annotations

import re

import matplotlib
import pytest
from tests.report import synthetic_project as synth
from tests.report.judge_columns import judge_columns

from parakh.config import compose
from parakh.report import plots, tables
from parakh.report.aggregate_result import compute, render_markdown
from parakh.report.html import colour, heatmap_section, render_report
from parakh.report.inputs import AggregateInputs
from parakh.report.leaderboard import WEIGHTED, Cell, build_leaderboard, weighted_cell
from parakh.schema import Judgment

HALLUCINATION, ERROR = "nomiracl_hallucination", "nomiracl_error"
# careful hallucinates on 2 of 20 non-relevant queries, reckless on 16; on relevant queries
# careful says "I don't know" 6 times in 20, reckless twice: each is best on one rate.
WRONG = {("careful", HALLUCINATION): 2, ("reckless", HALLUCINATION): 16}
WRONG |= {("careful", ERROR): 6, ("reckless", ERROR): 2}
MODELS = ["reckless", "careful"]  # listed worst first: the order must come from the rates


def nomiracl_rows(model: str) -> list[Judgment]:
    rows = []
    for metric in (HALLUCINATION, ERROR):
        for i in range(20):
            wrong = i < WRONG[(model, metric)]
            rows.append(
                Judgment(
                    question_id=f"{metric[9:12]}{i:02d}",
                    model=model,
                    judge="nomiracl",
                    metric=metric,
                    language=("hi", "te")[i % 2],
                    status="ok",
                    score=1.0 if wrong else 0.0,
                    label=_label(metric, wrong),
                )
            )
    return rows


def _label(metric: str, wrong: bool) -> str:
    """The verdict behind a row: a hallucination says the answer is present, an error not."""
    said_present = wrong if metric == HALLUCINATION else not wrong
    return "answer_present" if said_present else "i_dont_know"


@pytest.fixture(scope="module")
def nomiracl_board():
    rows = [r for m in MODELS for r in nomiracl_rows(m)]
    return build_leaderboard(judge_columns(rows), MODELS, {}, settings=_settings())


def _settings():
    from parakh.report.leaderboard import Settings

    return Settings(resamples=200, permutations=200)


def test_the_lower_hallucination_rate_ranks_first(nomiracl_board) -> None:
    board = nomiracl_board
    assert board.get("careful", HALLUCINATION).mean == pytest.approx(0.1)
    assert board.ranking(HALLUCINATION) == ["careful", "reckless"]
    assert board.ranking(ERROR) == ["reckless", "careful"]
    assert board.ranking(HALLUCINATION, "language", "hi")[0] == "careful"
    assert board.ranks[HALLUCINATION]["careful"].rank == 1
    assert board.ranks[HALLUCINATION]["reckless"].rank == 2
    assert board.best(HALLUCINATION) == {"careful"} and board.best(ERROR) == {"reckless"}


def test_paired_test_says_the_lower_rate_is_better(nomiracl_board) -> None:
    (comparison,) = [c for c in nomiracl_board.paired if c.metric == HALLUCINATION]
    assert comparison.better == "careful"
    record = next(r for r in tables.paired_records(nomiracl_board) if r["metric"] == HALLUCINATION)
    assert record["better"] == "careful"
    table = tables.paired_table(nomiracl_board, HALLUCINATION)
    assert table[0][5] == "better" and table[1][5] == "careful"


def test_heatmap_gives_the_lower_rate_the_good_colour(nomiracl_board) -> None:
    data = plots.heatmap_data(nomiracl_board, HALLUCINATION)
    assert data.models == ["careful", "reckless"] and data.colour_map == "viridis_r"
    good_end = matplotlib.colormaps["viridis"](1.0)
    careful = data.values[0].mean()
    reckless = data.values[1].mean()
    cmap = matplotlib.colormaps[data.colour_map]
    # the lower rate sits nearer the bright (good) end of viridis than the higher one
    distance = [
        sum(abs(a - b) for a, b in zip(cmap(v), good_end, strict=True)) for v in (careful, reckless)
    ]
    assert distance[0] < distance[1]
    assert cmap(0.0) == pytest.approx(good_end)
    assert "lower is better" in data.label


def test_html_heatmap_colours_the_lower_rate_bright(nomiracl_board) -> None:
    section = heatmap_section(nomiracl_board, HALLUCINATION)
    grid = section.split(f'data-metric="{HALLUCINATION}"')[1].split("</table>")[0]
    assert 'data-direction="lower"' in section
    assert f"{HALLUCINATION} ↓" in tables.metric_heading(nomiracl_board, HALLUCINATION)
    rows = {r.split("</td>")[0].split(">")[-1]: r for r in grid.split("<tr>")[2:]}
    careful_all = re.findall(r"background:(#[0-9a-f]{6})", rows["careful"])[-1]
    reckless_all = re.findall(r"background:(#[0-9a-f]{6})", rows["reckless"])[-1]
    assert careful_all == colour(0.9) and reckless_all == colour(0.2)


def test_best_marks_follow_the_direction(nomiracl_board) -> None:
    text = tables.markdown(tables.overall_table(nomiracl_board, HALLUCINATION))
    careful = next(line for line in text.splitlines() if "| careful |" in line)
    reckless = next(line for line in text.splitlines() if "| reckless |" in line)
    assert "| 0.100 [" in careful and "| 0.100 [" in reckless
    assert careful.count("★") == 1 and reckless.count("★") == 1  # best on one rate each
    assert re.search(r"\| 0\.100 \[[^|]*★ \|", careful)
    assert re.search(r"\| 0\.800 \[[^|★]*\|", reckless)
    assert tables.directions_line(nomiracl_board).startswith(
        f"Lower is better: {HALLUCINATION}, {ERROR}"
    ) or tables.directions_line(nomiracl_board).startswith(
        f"Lower is better: {ERROR}, {HALLUCINATION}"
    )


def test_plot_rows_say_the_direction(nomiracl_board) -> None:
    rows = plots.plot_rows(nomiracl_board, HALLUCINATION, "language")
    assert {r["direction"] for r in rows} == {"lower"}
    assert {(r["model"], r["language"]): r["score"] for r in rows}[("careful", "hi")] == 0.1


def test_a_lower_is_better_metric_counts_as_one_minus_in_the_weighted_score() -> None:
    rows = [r for m in MODELS for r in nomiracl_rows(m)]
    board = build_leaderboard(
        judge_columns(rows), MODELS, {HALLUCINATION: 1.0}, settings=_settings()
    )
    assert board.get("careful", WEIGHTED).mean == pytest.approx(0.9)
    assert board.ranking(WEIGHTED) == ["careful", "reckless"]
    assert board.ranks[WEIGHTED]["careful"].rank == 1


def test_nomiracl_report_ranks_by_hallucination_and_says_lower_is_better() -> None:
    cfg = compose(["judge=nomiracl", "aggregate.statistics.bootstrap_resamples=200"])
    inputs = AggregateInputs(
        judge="nomiracl", models=MODELS, judgments={m: nomiracl_rows(m) for m in MODELS}
    )
    result = compute(cfg, inputs)
    assert result.primary == HALLUCINATION and result.primary_note is None
    text = render_markdown(cfg, result)
    assert f"Primary metric: `{HALLUCINATION}` (lower is better)." in text
    assert "Weighted aggregate" not in text  # no weighted metric in the run
    overall = text.split("## Overall")[1]
    assert overall.index("| careful |") < overall.index("| reckless |")
    document = result.document()
    assert document["primary_direction"] == "lower"
    assert document["metric_specs"][HALLUCINATION]["aggregation"] == "rate"
    page = render_report(cfg, result, provenance={}, answers_page=None, n_questions=0)
    summary = page.split('id="summary"')[1].split("</p>")[0]
    assert "lower is better" in summary and "Weighted aggregate" not in summary
    assert "factual_correctness" not in summary


# --- IndicQuest: a 1..5 rubric whose Overall row is primary -------------------------------


def indicquest_rows(model: str, overall: list[float]) -> list[Judgment]:
    return [
        Judgment(
            question_id=f"q{i}",
            model=model,
            judge="indicquest",
            metric=metric,
            language="mr",
            status="ok",
            score=score if metric == "iq_overall" else 6.0 - score,
            scale_max=5.0,
        )
        for i, score in enumerate(overall)
        for metric in ("iq_overall", "iq_clarity")
    ]


def test_indicquest_scale_starts_at_one_and_overall_is_primary() -> None:
    rows = indicquest_rows("a", [1.0, 3.0, 5.0, 3.0]) + indicquest_rows("b", [2.0, 2.0, 2.0, 2.0])
    cfg = compose(["judge=indicquest", "aggregate.statistics.bootstrap_resamples=200"])
    inputs = AggregateInputs(
        judge="indicquest", models=["b", "a"], judgments={"a": rows[:8], "b": rows[8:]}
    )
    result = compute(cfg, inputs)
    board = result.board
    assert result.primary == "iq_overall"
    cell = board.get("a", "iq_overall")
    assert cell.mean == 3.0 and cell.scale_min == 1.0 and cell.percent == pytest.approx(50.0)
    assert board.ranking("iq_overall") == ["a", "b"]  # not chrF, not iq_clarity (b leads there)
    rows_for_plots = plots.plot_rows(board, "iq_overall", "language")
    assert {r["model"]: r["score"] for r in rows_for_plots} == {"a": 0.5, "b": 0.25}
    text = render_markdown(cfg, result)
    assert "Primary metric: `iq_overall` (higher is better)." in text
    assert "3.000 (50.0%)" in text


def test_weighted_cell_scales_with_the_minimum() -> None:
    cells = {"iq_overall": Cell(mean=3.0, n=4, scale_max=5.0, scale_min=1.0)}
    from parakh.metrics.registry import metric_spec

    cell = weighted_cell(cells, {"iq_overall": 1.0}, {"iq_overall": metric_spec("iq_overall")})
    assert cell is not None and cell.mean == pytest.approx(0.5)
    rows = indicquest_rows("a", [3.0, 3.0]) + indicquest_rows("b", [5.0, 1.0])
    board = build_leaderboard(
        judge_columns(rows), ["a", "b"], {"iq_overall": 1.0}, settings=_settings()
    )
    assert board.get("a", WEIGHTED).mean == pytest.approx(0.5)


# --- the header names only the weights of metrics in the run ------------------------------


def test_weighted_line_names_only_metrics_present() -> None:
    cfg = compose(["aggregate.statistics.bootstrap_resamples=200"])
    inputs = AggregateInputs(
        judge="smoke",
        models=synth.MODELS,
        judgments={m: synth.judgments(m) for m in synth.MODELS},
    )
    result = compute(cfg, inputs)
    text = render_markdown(cfg, result)
    (line,) = [x for x in text.splitlines() if x.startswith("Weighted aggregate")]
    assert "factual_correctness 0.4" in line and "coherence 0.15" in line
    assert "semantic_similarity" not in line and "conciseness" not in line
    assert "Primary metric: `weighted` (higher is better)." in text


def test_a_missing_judge_primary_falls_back_and_says_so() -> None:
    cfg = compose(["aggregate.statistics.bootstrap_resamples=200"])
    rows = {m: [r for r in synth.judgments(m) if r.scale_max != 2.0] for m in synth.MODELS}
    result = compute(cfg, AggregateInputs(judge="smoke", models=synth.MODELS, judgments=rows))
    assert result.primary == "chrf"
    assert result.primary_note is not None and "weighted has no rows" in result.primary_note
    assert result.primary_note in render_markdown(cfg, result)
    assert result.document()["primary_note"] == result.primary_note


def test_rows_on_another_scale_than_declared_are_an_error() -> None:
    from parakh.errors import InputError

    rows = indicquest_rows("a", [3.0])
    rows = [r.model_copy(update={"scale_max": 10.0}) for r in rows]
    with pytest.raises(InputError, match="iq_overall.*1..5"):
        build_leaderboard(judge_columns(rows), ["a"], {})


def test_html_marks_the_best_cell_in_the_metric_direction(nomiracl_board) -> None:
    from parakh.report.html import leaderboard_section

    section = leaderboard_section(nomiracl_board, HALLUCINATION)
    rows = {r.split("</td>")[1].split(">")[-1]: r for r in section.split("<tr>")[2:]}
    careful_cells = re.findall(r'<td class="num( best)?"[^>]*>([\d.]+)', rows["careful"])
    reckless_cells = re.findall(r'<td class="num( best)?"[^>]*>([\d.]+)', rows["reckless"])
    assert (" best", "0.100") in careful_cells and ("", "0.800") in reckless_cells
    assert f"{HALLUCINATION} ↓" in section and "lower is better" in section


def test_a_rate_row_that_is_not_a_0_1_event_is_an_error() -> None:
    from parakh.errors import InputError

    rows = nomiracl_rows("careful")
    rows[3] = rows[3].model_copy(update={"score": 0.5})
    with pytest.raises(InputError, match="is a rate.*question hal03, model careful"):
        build_leaderboard(judge_columns(rows), ["careful"], {})


def test_a_misspelt_judge_primary_metric_is_an_error_not_a_fallback() -> None:
    from parakh.errors import ConfigError

    cfg = compose(["judge=nomiracl", "judge.primary_metric=nomiracl_halucination"])
    inputs = AggregateInputs(
        judge="nomiracl", models=MODELS, judgments={m: nomiracl_rows(m) for m in MODELS}
    )
    with pytest.raises(ConfigError, match="primary_metric.*Did you mean 'nomiracl_hallucination'"):
        compute(cfg, inputs)
    explicit = compose(["judge=nomiracl", f"aggregate.primary_metric={ERROR}"])
    assert compute(explicit, inputs).primary == ERROR  # an explicit aggregate value wins


# --- a primary metric some models (or all) have no score on -------------------------------


def _chrf_rows(model: str, scored: bool) -> list[Judgment]:
    return [
        Judgment(
            question_id=f"q{i}",
            model=model,
            judge="reference",
            metric="chrf",
            language="en",
            status="ok" if scored else "error",
            score=40.0 + i if scored else None,
            scale_max=100.0,
            reason=None if scored else "no reference answer",
        )
        for i in range(5)
    ]


@pytest.mark.parametrize("scored", [{"b"}, set()])
def test_a_model_without_a_primary_score_gets_no_place(scored: set[str]) -> None:
    """LiveQA-Med has no reference answers: no chrF score, so nobody is ranked 1."""
    models = ["a", "b"]
    cfg = compose(["judge=reference", "aggregate.statistics.bootstrap_resamples=200"])
    inputs = AggregateInputs(
        judge="reference", models=models, judgments={m: _chrf_rows(m, m in scored) for m in models}
    )
    result = compute(cfg, inputs)
    assert result.board.places("chrf") == (
        [(1, "b"), (None, "a")] if scored else [(None, "a"), (None, "b")]
    )
    text = render_markdown(cfg, result)
    overall = text.split("## Overall")[1]
    assert "| – | a | – |" in overall
    assert ("| 1 | b |" in overall) == bool(scored)
    assert ("Nothing is ranked" in text) == (not scored)
    page = render_report(cfg, result, provenance={}, answers_page=None, n_questions=0)
    leaderboard = page.split('id="leaderboard"')[1].split("</table>")[0]
    assert ('<td class="num">1</td>' in leaderboard) == bool(scored)


def test_the_weighted_aggregate_on_the_papers_0_2_scale() -> None:
    """HEALTH-PARIKSHA's AGG is on 0..2: `weighted_scale: 2` doubles mean, interval and paired
    difference, and ranks the same."""
    from parakh.report.leaderboard import Settings

    def rows(model: str, scores: list[float]) -> list[Judgment]:
        return [
            Judgment(
                question_id=f"q{i}", model=model, judge="j", metric=metric, language="en",
                status="ok", score=s, scale_max=2.0,
            )
            for i, s in enumerate(scores)
            for metric in ("factual_correctness", "coherence")
        ]  # fmt: skip

    data = rows("a", [2, 1, 2, 0, 2]) + rows("b", [1, 0, 1, 0, 2])
    weights = {"factual_correctness": 0.4, "coherence": 0.15}
    unit = build_leaderboard(judge_columns(data), ["a", "b"], weights, settings=_settings())
    settings = Settings(resamples=200, permutations=200, weighted_scale=2.0)
    paper = build_leaderboard(judge_columns(data), ["a", "b"], weights, settings=settings)
    for model in ("a", "b"):
        one, two = unit.get(model, WEIGHTED), paper.get(model, WEIGHTED)
        assert two.mean == pytest.approx(2 * one.mean) and two.scale_max == 2.0
        assert (two.ci_low, two.ci_high) == pytest.approx((2 * one.ci_low, 2 * one.ci_high))
    assert paper.spec(WEIGHTED).scale_max == 2.0 and unit.spec(WEIGHTED).scale_max == 1.0
    assert paper.ranking(WEIGHTED) == unit.ranking(WEIGHTED) == ["a", "b"]
    (p_unit,) = [p for p in unit.paired if p.metric == WEIGHTED]
    (p_paper,) = [p for p in paper.paired if p.metric == WEIGHTED]
    assert p_paper.result.difference == pytest.approx(2 * p_unit.result.difference)
    assert p_paper.p_holm == p_unit.p_holm
    cfg = compose(["aggregate=health_pariksha"])
    assert cfg.aggregate.weighted_scale == 2.0
