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

from parakh.commands.import_data import dataset_config, import_commands
from parakh.config import compose
from parakh.datasets import load_dataset
from parakh.errors import ConfigError
from tests.commands.cli import run_cli
from tests.conftest import REPO
from tests.datasets.liveqa_upstream import XML, ZIP, point_source_at, upstream_repos
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
UPSTREAM_FILES = {  # two repositories, one `dvc import` per file into data/raw/liveqa_judgments/
    "liveqa_judgments": [
        [
            "dvc", "import", "https://github.com/abachaa/MedQuAD",
            "QA-TestSet-LiveQA-Med-Qrels-2479-Answers.zip",
            "-o", "data/raw/liveqa_judgments/QA-TestSet-LiveQA-Med-Qrels-2479-Answers.zip",
            "--rev", "577bd37b96c02d1833b2c9eed2de9f96964e96cb",
        ],
        [
            "dvc", "import", "https://github.com/abachaa/LiveQA_MedicalTask_TREC2017",
            "TestDataset/TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml",
            "-o",
            "data/raw/liveqa_judgments/TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml",
            "--rev", "3f5a42ccbaa0b8ff1c665a6dc23785740ab0f09f",
        ],
    ],
}  # fmt: skip


@pytest.mark.parametrize("dataset", sorted(UPSTREAM))
def test_upstream_command_imports_the_pinned_commit(dataset: str) -> None:
    assert import_commands(dataset_config(dataset)) == [UPSTREAM[dataset]]
    assert import_commands(dataset_config(dataset), force=True) == [[*UPSTREAM[dataset], "--force"]]


@pytest.mark.parametrize("dataset", sorted(UPSTREAM_FILES))
def test_upstream_files_are_one_import_each(dataset: str) -> None:
    assert import_commands(dataset_config(dataset)) == UPSTREAM_FILES[dataset]


def test_every_real_dataset_is_importable_from_upstream() -> None:
    assert set(UPSTREAM) | set(UPSTREAM_FILES) == set(MIRROR_FOLDERS)


def test_derived_layout_asks_for_source() -> None:
    ds = dataset_config("indicquest")
    assert ds.source is not None
    derived = ds.model_copy(
        update={"source": ds.source.model_copy(update={"upstream_layout": False})}
    )
    with pytest.raises(ConfigError, match="parakh import-data indicquest --source"):
        import_commands(derived)


def test_source_becomes_import_url(tmp_path: Path) -> None:
    ds = dataset_config("nomiracl")
    assert import_commands(ds, str(tmp_path)) == [
        ["dvc", "import-url", str(tmp_path.resolve()), "data/raw/nomiracl"],
    ]  # fmt: skip
    url = "https://example.org/nomiracl.tar"
    assert import_commands(ds, url, force=True) == [
        ["dvc", "import-url", url, "data/raw/nomiracl", "--force"],
    ]  # fmt: skip
    with pytest.raises(ConfigError, match="no such file or folder"):
        import_commands(ds, str(tmp_path / "absent"))


def test_demo_has_no_source() -> None:
    with pytest.raises(ConfigError, match="'demo' has no public source"):
        import_commands(dataset_config("demo"))


def test_dry_run_prints_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["import-data", "indicquest", "--dry-run"], capsys)
    assert code == 0 and out.strip() == " ".join(UPSTREAM["indicquest"])
    code, out, _ = run_cli(["import-data", "liveqa_judgments", "--dry-run"], capsys)
    assert code == 0
    assert out.splitlines() == [" ".join(c) for c in UPSTREAM_FILES["liveqa_judgments"]]


def test_unknown_dataset_names_close_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["import-data", "indiquest"], capsys)
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
    code, _, err = run_cli(["import-data", "medquad", "--source", source], capsys)
    assert code == 2 and "is not a DVC repository" in err and "dvc init" in err
    assert not (project / "data").exists()


@pytest.mark.parametrize("dataset", sorted(MIRROR_FOLDERS))
def test_import_from_the_mirror_tracks_the_data_and_the_adapter_loads_it(
    dataset: str, project: Path, shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _dvc_init(project)
    source = str(mirror_folder(shared_data, dataset))
    code, out, err = run_cli(["import-data", dataset, "--source", source], capsys)
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
    assert run_cli(["import-data", "cataractbot", "--source", source], capsys)[0] == 0
    before = (project / "data/raw/cataractbot.dvc").read_text(encoding="utf-8")
    code, _, err = run_cli(["import-data", "cataractbot", "--source", source], capsys)
    assert code == 2 and "data/raw/cataractbot and data/raw/cataractbot.dvc already exist" in err
    assert "use --force" in err
    code, _, err = run_cli(["import-data", "cataractbot", "--source", source, "--force"], capsys)
    assert code == 0, err
    assert (project / "data/raw/cataractbot.dvc").read_text(encoding="utf-8") == before


def _liveqa_judgments(shared_data: Path) -> Path:
    return mirror_folder(shared_data, "liveqa_judgments") / "judgments.jsonl"


def test_import_of_upstream_files_from_two_repositories(
    project: Path, shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`parakh import-data liveqa_judgments` runs one `dvc import` per upstream file (here from
    local git repositories with upstream's paths), each tracked by its own .dvc file, and the
    adapter reads them as the mirror's joined rows."""
    _dvc_init(project)
    placed = upstream_repos(
        tmp_path, mirror_folder(shared_data, "liveqa_judgments") / "judgments.jsonl"
    )
    point_source_at(project, placed)
    code, out, err = run_cli(["import-data", "liveqa_judgments"], capsys)
    assert code == 0, err
    folder = project / "data/raw/liveqa_judgments"
    dvc_files = sorted(folder.glob("*.dvc"))
    assert [p.name for p in dvc_files] == [f"{ZIP}.dvc", f"{XML}.dvc"]
    assert not (project / "data/raw/liveqa_judgments.dvc").exists()
    for dvc_file in dvc_files:
        assert f"data/raw/liveqa_judgments/{dvc_file.name}" in out
        entry = yaml.safe_load(dvc_file.read_text(encoding="utf-8"))
        (dep,) = entry["deps"]
        repo, rev = placed[dep["path"]]
        assert dep["repo"]["url"] == repo and dep["repo"]["rev_lock"] == rev
        assert len(entry["outs"][0]["md5"]) == 32
    options = compose(["dataset=liveqa_judgments"]).dataset.options
    imported = load_dataset("liveqa_med", folder, options)
    mirrored = load_dataset("liveqa_med", mirror_folder(shared_data, "liveqa_judgments"), options)
    assert imported.rejected == [] and imported.judgments == mirrored.judgments
    assert [q.model_copy(update={"reference_answers": []}) for q in imported.questions] == (
        mirrored.questions
    )
    assert all(len(q.reference_answers) == 2 for q in imported.questions)
    before = {p.name: p.read_text(encoding="utf-8") for p in dvc_files}
    code, _, err = run_cli(["import-data", "liveqa_judgments"], capsys)
    assert code == 2 and "already exists: use --force" in err
    assert run_cli(["import-data", "liveqa_judgments", "--force"], capsys)[0] == 0
    assert {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.dvc")} == before


def test_a_failed_file_import_leaves_what_was_there(
    project: Path, shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The second of two imports fails: the first one's file is removed again, and with
    --force the earlier import comes back as it was."""
    _dvc_init(project)
    placed = upstream_repos(
        tmp_path, mirror_folder(shared_data, "liveqa_judgments") / "judgments.jsonl"
    )
    xml_path = f"TestDataset/{XML}"
    broken = {**placed, xml_path: (placed[xml_path][0], "0" * 40)}
    point_source_at(project, broken)
    code, _, err = run_cli(["import-data", "liveqa_judgments"], capsys)
    assert code == 2 and "failed (exit" in err
    assert not (project / "data/raw/liveqa_judgments").exists()
    point_source_at(project, placed)
    assert run_cli(["import-data", "liveqa_judgments"], capsys)[0] == 0
    folder = project / "data/raw/liveqa_judgments"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    point_source_at(project, broken)
    code, _, err = run_cli(["import-data", "liveqa_judgments", "--force"], capsys)
    assert code == 2
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_force_replaces_an_import_of_upstream_files_with_a_folder(
    project: Path, shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """From the upstream files (a folder git tracks: their .dvc files) to a local folder
    (one DVC output): --force untracks the old .dvc files, which DVC would otherwise refuse."""
    _dvc_init(project)
    point_source_at(project, upstream_repos(tmp_path, _liveqa_judgments(shared_data)))
    assert run_cli(["import-data", "liveqa_judgments"], capsys)[0] == 0
    subprocess.run(["git", "add", "-A", "data"], cwd=project, check=True)
    source = str(mirror_folder(shared_data, "liveqa_judgments"))
    code, out, err = run_cli(
        ["import-data", "liveqa_judgments", "--source", source, "--force"], capsys
    )
    assert code == 0, err
    assert "tracked by data/raw/liveqa_judgments.dvc" in out
    assert not list((project / "data/raw/liveqa_judgments").glob("*.dvc"))
    tracked = subprocess.run(
        ["git", "ls-files", "data/raw/liveqa_judgments"], cwd=project, capture_output=True,
        text=True, check=True,
    ).stdout  # fmt: skip
    assert tracked == ""
