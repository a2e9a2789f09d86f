"""`parakh import-data`: the dvc command it builds for the upstream source (not run: no network
here), its errors, and a real import of the shared mirror with `--source` into a throw-away
git + DVC project whose adapter then loads the imported data."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from parakh.cli import main as cli_main
from parakh.commands.import_data import dataset_config, import_command
from parakh.config import compose
from parakh.datasets import load_dataset
from parakh.errors import ConfigError
from tests.conftest import REPO
from tests.datasets.mirror import MIRROR_FOLDERS, mirror_folder

UPSTREAM = {
    "indicquest": [
        "dvc", "import", "https://github.com/l3cube-pune/indic-nlp", "L3Cube-IndicQuest",
        "-o", "data/raw/indicquest", "--rev", "0c6014be94385b357e31ce6250da7094e8a7c0fb",
    ],
    "xquad_hi": [
        "dvc", "import", "https://github.com/google-deepmind/xquad", "xquad.hi.json",
        "-o", "data/raw/xquad_hi", "--rev", "7d30520c717524000f0d9d2f9c10a069acd9d285",
    ],
    "xquad_en": [
        "dvc", "import", "https://github.com/google-deepmind/xquad", "xquad.en.json",
        "-o", "data/raw/xquad_en", "--rev", "7d30520c717524000f0d9d2f9c10a069acd9d285",
    ],
    "cataractbot": [
        "dvc", "import", "https://github.com/Sri-Kanchi-Kamakoti-Medical-Trust/byoeb",
        "data/cataract_bot/documents", "-o", "data/raw/cataractbot",
        "--rev", "b27f31e2e043831531c1686adb17c6e1d88d9deb",
    ],
    "nomiracl": [  # both subsets' folders: {relevant,non_relevant}/<lang>.test.vanilla_prompt.jsonl
        "dvc", "import", "https://github.com/project-miracl/nomiracl", "results/baselines",
        "-o", "data/raw/nomiracl", "--rev", "9c787daa077ffff9c22395442b91de944256b2f1",
    ],
    "medquad": [  # the whole repository: XML folders 1_CancerGov_QA .. 9_CDC_QA at its root
        "dvc", "import", "https://github.com/abachaa/MedQuAD", ".",
        "-o", "data/raw/medquad", "--rev", "577bd37b96c02d1833b2c9eed2de9f96964e96cb",
    ],
}  # fmt: skip
DERIVED = ("liveqa_judgments",)


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        cli_main(args)
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("dataset", sorted(UPSTREAM))
def test_upstream_command_imports_the_pinned_commit(dataset: str) -> None:
    assert import_command(dataset_config(dataset)) == UPSTREAM[dataset]
    assert import_command(dataset_config(dataset), force=True) == [*UPSTREAM[dataset], "--force"]


def test_every_real_dataset_is_importable_or_says_why_not() -> None:
    assert set(UPSTREAM) | set(DERIVED) == set(MIRROR_FOLDERS)


@pytest.mark.parametrize("dataset", DERIVED)
def test_derived_layout_asks_for_source(dataset: str) -> None:
    with pytest.raises(ConfigError, match=f"parakh import-data {dataset} --source"):
        import_command(dataset_config(dataset))


def test_source_becomes_import_url(tmp_path: Path) -> None:
    ds = dataset_config("nomiracl")
    assert import_command(ds, str(tmp_path)) == [
        "dvc", "import-url", str(tmp_path.resolve()), "data/raw/nomiracl",
    ]  # fmt: skip
    url = "https://example.org/nomiracl.tar"
    assert import_command(ds, url, force=True) == [
        "dvc", "import-url", url, "data/raw/nomiracl", "--force",
    ]  # fmt: skip
    with pytest.raises(ConfigError, match="no such file or folder"):
        import_command(ds, str(tmp_path / "absent"))


def test_demo_has_no_source() -> None:
    with pytest.raises(ConfigError, match="'demo' has no public source"):
        import_command(dataset_config("demo"))


def test_dry_run_prints_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(["import-data", "indicquest", "--dry-run"], capsys)
    assert code == 0 and out.strip() == " ".join(UPSTREAM["indicquest"])


def test_unknown_dataset_names_close_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(["import-data", "indiquest"], capsys)
    assert code == 2 and "Unknown dataset 'indiquest'. Did you mean 'indicquest'?" in err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A throw-away git + DVC project with Parakh's conf/."""
    root = tmp_path / "project"
    shutil.copytree(REPO / "conf", root / "conf")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    monkeypatch.chdir(root)
    return root


def _dvc_init(root: Path) -> None:
    dvc = Path(sys.executable).with_name("dvc")
    subprocess.run([str(dvc), "init", "-q"], cwd=root, check=True)


def test_not_a_dvc_repository(
    project: Path, shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(mirror_folder(shared_data, "medquad"))
    code, _, err = _cli(["import-data", "medquad", "--source", source], capsys)
    assert code == 2 and "is not a DVC repository" in err and "dvc init" in err
    assert not (project / "data").exists()


@pytest.mark.parametrize("dataset", sorted(MIRROR_FOLDERS))
def test_import_from_the_mirror_tracks_the_data_and_the_adapter_loads_it(
    dataset: str, project: Path, shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _dvc_init(project)
    source = str(mirror_folder(shared_data, dataset))
    code, out, err = _cli(["import-data", dataset, "--source", source], capsys)
    assert code == 0, err
    assert f"tracked by data/raw/{dataset}.dvc" in out
    dvc_file = yaml.safe_load((project / f"data/raw/{dataset}.dvc").read_text(encoding="utf-8"))
    (out_entry,) = dvc_file["outs"]
    assert out_entry["path"] == dataset and len(out_entry["md5"].removesuffix(".dir")) == 32
    assert dvc_file["deps"][0]["path"] == source
    cfg = compose([f"dataset={dataset}"]).dataset
    imported = load_dataset(cfg.adapter, project / cfg.path, cfg.options)
    mirrored = load_dataset(cfg.adapter, Path(source), cfg.options)
    assert imported.rejected == [] and imported.questions == mirrored.questions
    assert len(imported.questions) > 0


def test_existing_target_needs_force(
    project: Path, shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _dvc_init(project)
    source = str(mirror_folder(shared_data, "cataractbot"))
    assert _cli(["import-data", "cataractbot", "--source", source], capsys)[0] == 0
    before = (project / "data/raw/cataractbot.dvc").read_text(encoding="utf-8")
    code, _, err = _cli(["import-data", "cataractbot", "--source", source], capsys)
    assert code == 2 and "data/raw/cataractbot and data/raw/cataractbot.dvc already exist" in err
    assert "use --force" in err
    code, _, err = _cli(["import-data", "cataractbot", "--source", source, "--force"], capsys)
    assert code == 0, err
    assert (project / "data/raw/cataractbot.dvc").read_text(encoding="utf-8") == before
