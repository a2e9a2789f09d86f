"""`parakh judge-study`: one DVC experiment per judge on one dataset's graded answers (the URL
judges only when a URL is given, the URL a DVC param of the model file), then the judges table."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
import yaml

from parakh.commands import judge_study
from parakh.commands.judge_study import exp_run_commands
from parakh.config import compose
from parakh.config.judge_study import JudgeStudyConfig
from parakh.config.loading import load_named
from parakh.errors import ConfigError
from tests.commands.cli import run_cli
from tests.conftest import REPO


def load_study(name: str) -> JudgeStudyConfig:
    return load_named("judge_study", name, JudgeStudyConfig)  # as `parakh judge-study` does


def _sets(command: list[str]) -> dict[str, str]:
    flags = command[command.index("-S") :]
    return dict(pair.split("=", 1) for pair in flags[1::2])


def test_liveqa_runs_the_offline_judges_on_the_nine_answer_sources() -> None:
    commands = exp_run_commands(load_study("liveqa_med"))
    assert [c[:5] for c in commands] == [
        ["dvc", "exp", "run", "-n", f"liveqa_med-{judge}"]
        for judge in ("reference", "similarity", "smoke")
    ]
    for command, judge in zip(commands, ("reference", "similarity", "smoke"), strict=True):
        sets = _sets(command)
        assert yaml.safe_load(sets["datasets"]) == ["liveqa_judgments"]
        models = yaml.safe_load(sets["models"])
        assert len(models) == 9 and all(m.startswith("liveqa-") for m in models)
        assert sets["judge"] == judge
        assert not any(key.startswith("conf/model/") for key in sets)  # no URL, no URL judge
    assert _sets(commands[2])["judge_model"] == "smollm2"  # the smoke judge's model file
    smoke = _sets(commands[2])  # the stated sample: Semantic Similarity on 10 questions
    assert smoke["conf/judge/smoke.yaml:sample_per_language"] == "10"
    assert yaml.safe_load(smoke["conf/judge/smoke.yaml:rubrics"]) == ["semantic_similarity"]
    assert "judge_model" not in _sets(commands[0])  # reference metrics name no model


def test_a_url_adds_the_served_judge_and_the_jury_with_the_url_as_a_dvc_param() -> None:
    url = "http://127.0.0.1:8080/v1"
    commands = exp_run_commands(load_study("liveqa_med"), url, "my-judge", force=True)
    assert [c[4] for c in commands][-2:] == ["liveqa_med-served", "liveqa_med-jury"]
    assert all(c[5] == "-f" for c in commands)
    for command in commands[-2:]:
        sets = _sets(command)
        assert sets["conf/model/served_judge.yaml:base_url"] == url
        assert sets["conf/model/served_judge.yaml:model_id"] == "my-judge"
        assert sets["judge_model"] == "served_judge"
    jury = compose(["judge=jury"]).judge.jury
    assert jury is not None and jury.models == ["smollm2", "served_judge"]
    served = compose(["judge=served"]).judge.model
    assert served is not None and served.name == "served_judge"


def test_a_model_id_without_a_url_is_refused() -> None:
    with pytest.raises(ConfigError, match="--judge-model-id needs --judge-url"):
        exp_run_commands(load_study("liveqa_med"), None, "my-judge")


def test_a_judge_listed_twice_or_a_url_judge_without_a_model_file_is_refused() -> None:
    base = {"name": "s", "dataset": "demo", "models_glob": "*"}
    with pytest.raises(ValueError, match="both `judges` and `url_judges`"):
        JudgeStudyConfig.model_validate({**base, "judges": ["a"], "url_judges": ["a"]})
    with pytest.raises(ValueError, match="need `url_model`"):
        JudgeStudyConfig.model_validate({**base, "judges": ["a"], "url_judges": ["b"]})


def test_an_unknown_judge_fails_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path, monkeypatch)
    document = {"name": "bad", "dataset": "demo", "models_glob": "smollm2", "judges": ["refrence"]}
    (root / "conf/judge_study/bad.yaml").write_text(yaml.safe_dump(document))
    with pytest.raises(ConfigError, match="reference"):
        exp_run_commands(load_study("bad"))


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    shutil.copytree(REPO / "conf", root / "conf")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    return root


def test_run_runs_each_experiment_in_order_then_ranks_every_judges_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, monkeypatch)
    log = tmp_path / "calls.txt"
    fake_dvc = tmp_path / "dvc"
    # like `dvc exp run`: the previous experiment's DVC outputs leave the workspace (a file
    # DVC does not track stays behind), its own arrive
    fake_dvc.write_text(
        "#!/bin/sh\n"
        f'echo "$@" >> {log}\n'
        'for a in "$@"; do case "$a" in judge=*) j="${a#judge=}";; esac; done\n'
        "rm -f reports/liveqa_judgments/*/leaderboard.json\n"
        "mkdir -p reports/liveqa_judgments/$j && touch reports/liveqa_judgments/$j/agreement.json\n"
        'echo "{\\"judge\\": \\"$j\\"}" > reports/liveqa_judgments/$j/leaderboard.json\n'
    )
    fake_dvc.chmod(0o755)
    monkeypatch.setattr(judge_study, "dvc_executable", lambda: str(fake_dvc))
    seen: list[tuple[str, list[str], bool, list[str]]] = []

    def rank(dataset: str, judges: list[str], allow_unscored: bool = False) -> int:
        boards = sorted((root / "reports" / dataset).glob("*/leaderboard.json"))
        seen.append((dataset, judges, allow_unscored, [b.read_text().strip() for b in boards]))
        return 0

    monkeypatch.setattr(judge_study.judges_command, "write_table", rank)
    code, out, _ = run_cli(["judge-study", "liveqa_med", "--run"], capsys)
    assert code == 0
    calls = log.read_text().splitlines()
    expected = [shlex.join(c[1:]) for c in exp_run_commands(load_study("liveqa_med"))]
    assert [shlex.split(c) for c in calls] == [shlex.split(c) for c in expected]
    assert seen == [
        (
            "liveqa_judgments",
            ["reference", "similarity", "smoke"],
            True,  # a judge with nothing paired is named under the table, not an error
            [f'{{"judge": "{j}"}}' for j in ("reference", "similarity", "smoke")],
        )
    ]
    assert "add --judge-url URL to run served, jury" in out


def test_a_failed_experiment_stops_the_study(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path, monkeypatch)
    fake_dvc = tmp_path / "dvc"
    fake_dvc.write_text("#!/bin/sh\nexit 3\n")
    fake_dvc.chmod(0o755)
    monkeypatch.setattr(judge_study, "dvc_executable", lambda: str(fake_dvc))
    code, _, err = run_cli(["judge-study", "liveqa_med", "--run"], capsys)
    assert code != 0 and "liveqa_med-reference" in err and "exit 3" in err


def test_a_misspelt_key_of_a_judges_file_fails_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path, monkeypatch)
    document = {
        "name": "bad", "dataset": "demo", "models_glob": "smollm2", "judges": ["smoke"],
        "conf": {"conf/judge/smoke.yaml:sample_per_langauge": 10},
    }  # fmt: skip
    (root / "conf/judge_study/bad.yaml").write_text(yaml.safe_dump(document))
    with pytest.raises(ConfigError, match="sample_per_langauge"):
        exp_run_commands(load_study("bad"))
