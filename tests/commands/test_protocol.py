"""`parakh protocol`: each study's preset composes with its datasets, prints the one `dvc exp
run` that reproduces it, and points at its section of docs/fidelity.md; bad presets fail before
anything runs."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml

from parakh.commands.protocol import check, exp_run_command
from parakh.config import compose
from parakh.config.loading import available, load_named
from parakh.config.protocol import ProtocolConfig
from parakh.errors import ConfigError
from parakh.io import read_jsonl
from parakh.schema import Question
from tests.commands.cli import run_cli
from tests.conftest import REPO

PROTOCOLS = ["health_pariksha", "indicqa", "indicquest", "nomiracl"]


def load_protocol(name: str) -> ProtocolConfig:
    return load_named("protocol", name, ProtocolConfig)  # as `parakh protocol <name>` does


def _anchors(markdown: str) -> set[str]:
    """GitHub heading slugs: lower case, spaces to '-', punctuation but '-' and '_' dropped."""
    headings = re.findall(r"^#+\s+(.+)$", markdown, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_every_study_has_a_protocol() -> None:
    assert available("protocol") == PROTOCOLS


@pytest.mark.parametrize("name", PROTOCOLS)
def test_a_protocol_composes_and_names_its_fidelity_section(name: str) -> None:
    protocol = load_protocol(name)
    check(protocol)  # every dataset composes with its judge, retriever, embedder, aggregate
    fidelity = (REPO / "docs" / "fidelity.md").read_text(encoding="utf-8")
    assert protocol.fidelity in _anchors(fidelity)
    command = exp_run_command(protocol)
    assert command[:5] == ["dvc", "exp", "run", "-n", name]
    sets = dict(pair.split("=", 1) for pair in command[6::2])
    for key, value in protocol.params.items():
        assert yaml.safe_load(sets[key]) == value  # DVC parses -S values as YAML


def test_nomiracl_runs_the_authors_models_with_the_released_parser() -> None:
    command = exp_run_command(load_protocol("nomiracl"))
    sets = dict(pair.split("=", 1) for pair in command[6::2])
    models = yaml.safe_load(sets["models"])
    assert len(models) == 11 and all(m.startswith("nomiracl-") for m in models)
    assert sets["conf/judge/nomiracl.yaml:parser"] == "released"


def test_the_command_prints_the_line_to_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["protocol", "indicquest"], capsys)
    assert code == 0
    line = out.strip().splitlines()[-1]
    assert shlex.split(line) == exp_run_command(load_protocol("indicquest"))
    code, out, _ = run_cli(["protocol", "indicquest", "--force"], capsys)
    assert shlex.split(out.strip().splitlines()[-1])[:6] == [
        "dvc", "exp", "run", "-n", "indicquest", "-f",
    ]  # fmt: skip
    code, out, _ = run_cli(["protocol"], capsys)
    assert code == 0 and all(name in out for name in PROTOCOLS)


def test_unknown_protocol_names_close_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["protocol", "nomirakl"], capsys)
    assert code == 2 and "Unknown protocol 'nomirakl'. Did you mean 'nomiracl'?" in err


def test_a_params_key_no_stage_reads_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown params.yaml keys \['temperature'\]"):
        ProtocolConfig.model_validate(
            {"name": "x", "study": "x", "fidelity": "x", "params": {"temperature": 0.7}}
        )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    shutil.copytree(REPO / "conf", root / "conf")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    return root


def _write(project: Path, name: str, **fields: object) -> ProtocolConfig:
    document = {"name": name, "study": "s", "fidelity": "f", **fields}
    (project / "conf/protocol" / f"{name}.yaml").write_text(yaml.safe_dump(document))
    return load_protocol(name)


def test_a_judge_model_that_is_not_the_judges_is_refused(project: Path) -> None:
    protocol = _write(project, "bad", params={"judge": "health_pariksha", "judge_model": "gpt-4"})
    with pytest.raises(ConfigError, match="judge_model 'gpt-4' is not the model"):
        check(protocol)


def test_a_misspelt_name_fails_before_anything_runs(project: Path) -> None:
    protocol = _write(project, "bad", params={"datasets": ["demo"], "retriever": "faiss_flatt"})
    with pytest.raises(ConfigError, match="faiss_flat"):
        check(protocol)
    protocol = _write(project, "bad2", params={}, conf={"conf/judge/nomiracll.yaml:parser": "x"})
    with pytest.raises(ConfigError, match="no file"):
        check(protocol)


def test_a_conf_key_is_checked_against_its_schema(project: Path) -> None:
    params = {"datasets": ["nomiracl"], "judge": "nomiracl"}
    protocol = _write(project, "bad", params=params, conf={"conf/judge/nomiracl.yaml:parser": "x"})
    with pytest.raises(ConfigError, match="parser"):
        check(protocol)


def test_every_fidelity_row_names_a_config_key_or_a_test() -> None:
    """docs/fidelity.md: each setting's row ends with the config key or test that holds it."""
    text = (REPO / "docs" / "fidelity.md").read_text(encoding="utf-8")
    rows = [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]
    settings = [r for r in rows if r[-1] not in ("config key or test", "run")]
    assert len(settings) > 30
    for row in settings:
        last = row[-1]
        assert "`" in last or "tests/" in last, row[0]
        for test in re.findall(r"tests/[\w/]+\.py", last):
            assert (REPO / test).is_file(), test


def _sets(protocol: ProtocolConfig) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in exp_run_command(protocol)[6::2])


def test_indicqa_runs_zero_one_and_three_shot_and_translate_test() -> None:
    """The paper's modes (zero-shot direct, 1- and 3-shot, translate-test) are evaluation modes
    of params.yaml; DVC reads -S values with Hydra's override grammar and gets them back."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    protocol = load_protocol("indicqa")
    sets = _sets(protocol)
    variants = yaml.safe_load(sets["variants"])
    assert [(v["name"], v["prompt"], v["shots"]) for v in variants] == [
        ("1shot", None, 1),
        ("3shot", None, 3),
    ]
    (translate_test,) = yaml.safe_load(sets["translate_test"])
    assert translate_test == {
        "name": "translate-test",
        "translator": "indictrans2",
        "prompt": None,
        "shots": 0,
    }
    parser = OverridesParser.create()
    for key in ("variants", "translate_test"):
        assert parser.parse_override(f"{key}={sets[key]}").value() == protocol.params[key]
    for dataset in protocol.params["datasets"]:
        pool = compose([f"dataset={dataset}"]).dataset.fewshot_pool
        assert pool is not None
        examples = read_jsonl(REPO / pool, Question)
        language = dataset.removeprefix("xquad_")
        same_language = [q for q in examples if q.language == language]
        assert len(same_language) >= 3  # 3-shot examples in the question's language
        for q in same_language:  # extractive: the answer is a span of the example's paragraph
            assert q.reference_answers[0] in q.contexts[0].text


def test_an_evaluation_mode_must_give_every_key() -> None:
    document = {"name": "x", "study": "x", "fidelity": "x"}
    with pytest.raises(ValueError, match=r"params.variants\[0\] must give exactly"):
        ProtocolConfig.model_validate(
            {**document, "params": {"variants": [{"name": "1shot", "shots": 1}]}}
        )
    tt = {"name": "tt", "prompt": None, "shots": 0}
    with pytest.raises(ValueError, match=r"params.translate_test\[0\] must give exactly"):
        ProtocolConfig.model_validate({**document, "params": {"translate_test": [tt]}})


def test_a_k_shot_mode_without_a_pool_or_an_unknown_translator_fails_before_anything_runs(
    project: Path,
) -> None:
    one_shot = {"name": "1shot", "prompt": None, "shots": 1}
    protocol = _write(project, "bad", params={"datasets": ["xquad_hi"], "variants": [one_shot]})
    check(protocol)
    (project / "conf/prompt/xquad_fewshot.jsonl").unlink()
    with pytest.raises(ConfigError, match="xquad_hi's fewshot_pool.*xquad_fewshot.jsonl"):
        check(protocol)
    tt = {"name": "tt", "translator": "indictrans", "prompt": None, "shots": 0}
    protocol = _write(project, "bad2", params={"datasets": ["xquad_hi"], "translate_test": [tt]})
    with pytest.raises(ConfigError, match="Did you mean 'indictrans2'"):
        check(protocol)
