"""The cataractbot adapter on upstream's tree as it is: byoeb's `data/cataract_bot/documents` at
the pinned commit, one folder per hospital unit.

The fixture holds every path upstream holds there (`UPSTREAM_PATHS`, from `git ls-tree -r` at
b27f31e), each file the first lines of the real one, byte for byte (CRLF where upstream has it):
the first 3 entries of Generic's KB update, the first 2 of BLR's (and TEST's copy), about 350
bytes of every document."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from parakh.config import compose
from parakh.datasets import load_dataset
from parakh.datasets.rows import RowError

FIXTURE = Path(__file__).parent / "fixtures/cataractbot_upstream"
DOCUMENTS = FIXTURE / "data/cataract_bot/documents"  # what `parakh import-data` brings

UPSTREAM_PATHS = [
    "BLR/BLR_Contact.txt",
    "BLR/BLR_KB_Update.txt",
    "BLR/BLR_Pre-Operative_Instructions_Inpatients_Cataract_Surgery.txt",
    "BLR/BLR_insurance.txt",
    "Generic/GENERIC_Cataract_Surgery_Consent_Form.txt",
    "Generic/GENERIC_Diagnostic_Tests_Cataract_Surgery.txt",
    "Generic/GENERIC_FAQ-for-Cataract_Surgery.txt",
    "Generic/GENERIC_KB_Update.txt",
    "Generic/GENERIC_Post-Operative_Instructions_Cataract_Surgery.txt",
    "Generic/GENERIC_Pre-Operative_Instructions_Inpatients_Cataract_Surgery.txt",
    "Generic/GENERIC_Standard_Treatment_Guidelines_Cataract_Surgery.txt",
    "HYD/HYD_Contact.txt",
    "HYD/HYD_Insurance.txt",
    "HYD/HYD_Pre-Operative_Instructions_Inpatients_Cataract_Surgery.txt",
    "JAI/JAI_Contact.txt",
    "JAI/JAI_Insurance.txt",
    "JAI/JAI_Pre-Operative_Instructions_Inpatients_Cataract_Surgery.txt",
    "TEST/Contact.txt",
    "TEST/KB_Update.txt",
    "TEST/Pre-Operative_Instructions_Inpatients_Cataract_Surgery.txt",
    "TEST/insurance.txt",
]
GENERIC_QUESTIONS = {
    "Generic-000": "Are there any risks or complications involved?",
    "Generic-001": "Are there any specific types of contact lenses recommended?",
    "Generic-002": "Can cataract be treated with laser?",
}
BLR_QUESTIONS = {
    "BLR-000": "When should i come to the hospital?",
    "BLR-001": "At what time should I come to the hospital for my surgery?",
}
GENERIC_DOCUMENTS = {
    f"raw:GENERIC_{name}"
    for name in (
        "Cataract_Surgery_Consent_Form",
        "Diagnostic_Tests_Cataract_Surgery",
        "FAQ-for-Cataract_Surgery",
        "Post-Operative_Instructions_Cataract_Surgery",
        "Pre-Operative_Instructions_Inpatients_Cataract_Surgery",
        "Standard_Treatment_Guidelines_Cataract_Surgery",
    )
}
BLR_DOCUMENTS = {
    "raw:BLR_Contact",
    "raw:BLR_Pre-Operative_Instructions_Inpatients_Cataract_Surgery",
    "raw:BLR_insurance",
}


def _options(**overrides: object) -> dict[str, object]:
    """conf/dataset/cataractbot.yaml's adapter options, with `overrides`."""
    return {**compose(["dataset=cataractbot"]).dataset.options, **overrides}


def test_the_fixture_holds_upstreams_paths() -> None:
    found = sorted(str(p.relative_to(DOCUMENTS)) for p in DOCUMENTS.rglob("*") if p.is_file())
    assert found == UPSTREAM_PATHS
    assert sum(p.stat().st_size for p in DOCUMENTS.rglob("*.txt")) < 10_000


def test_the_config_reads_generic_and_bengaluru() -> None:
    """Bengaluru's KB (Generic's documents and its own) and every KB-update entry of both as a
    question, ids `<unit>-NNN` as in the parsed layout; KB-update files are not documents."""
    loaded = load_dataset("cataractbot", DOCUMENTS, _options(), strict=True)
    assert loaded.rejected == []
    assert {q.id: q.text for q in loaded.questions} == GENERIC_QUESTIONS | BLR_QUESTIONS
    assert [q.id for q in loaded.questions][:3] == list(GENERIC_QUESTIONS)  # Generic first
    assert {d.id for d in loaded.documents} == GENERIC_DOCUMENTS | BLR_DOCUMENTS
    assert {d.kind for d in loaded.documents} == {"raw"}
    first = loaded.questions[0]
    assert first.reference_answers[0].startswith("Yes, there are risks and complications")
    assert first.meta == {"unit": "Generic", "entry_index": 0} and first.language == "und"
    blr = next(q for q in loaded.questions if q.id == "BLR-001")
    assert blr.meta == {"unit": "BLR", "entry_index": 1}
    assert "\r" not in blr.text + blr.reference_answers[0]  # upstream's CRLF lines
    origins = {q.id: o.describe() for q, o in zip(loaded.questions, loaded.origins, strict=True)}
    assert origins["Generic-000"] == "GENERIC_KB_Update.txt, line 1"
    assert origins["BLR-001"].startswith("BLR_KB_Update.txt, line ")
    contact = next(d for d in loaded.documents if d.id == "raw:BLR_Contact")
    assert contact.source == "BLR_Contact.txt" and "08069038900" in contact.text


def test_other_hospitals_add_their_documents_only() -> None:
    hospitals = ["Generic", "BLR", "HYD", "JAI"]
    loaded = load_dataset("cataractbot", DOCUMENTS, _options(hospitals=hospitals))
    assert {q.id for q in loaded.questions} == set(GENERIC_QUESTIONS) | set(BLR_QUESTIONS)
    added = {d.id for d in loaded.documents} - GENERIC_DOCUMENTS - BLR_DOCUMENTS
    names = ("Contact", "Insurance", "Pre-Operative_Instructions_Inpatients_Cataract_Surgery")
    assert added == {f"raw:{unit}_{name}" for unit in ("HYD", "JAI") for name in names}


def test_test_folder_only_when_asked() -> None:
    """TEST/ is BLR's files under unprefixed names: its own ids, the same questions."""
    loaded = load_dataset("cataractbot", DOCUMENTS, _options(hospitals=["TEST"]))
    assert {q.id: q.text for q in loaded.questions} == {
        qid.replace("BLR", "TEST"): text for qid, text in BLR_QUESTIONS.items()
    }
    assert {d.id for d in loaded.documents} == {
        "raw:Contact", "raw:Pre-Operative_Instructions_Inpatients_Cataract_Surgery", "raw:insurance"
    }  # fmt: skip


def test_updates_as_kb_adds_each_entry_as_a_document() -> None:
    loaded = load_dataset("cataractbot", DOCUMENTS, _options(updates_as_kb=True))
    updates = {d.id: d for d in loaded.documents if d.kind == "update"}
    assert set(updates) == {f"update:{qid}" for qid in GENERIC_QUESTIONS | BLR_QUESTIONS}
    assert updates["update:BLR-000"].source == "BLR_KB_Update.txt"


def test_a_missing_hospital_folder_names_it_and_the_folders_there() -> None:
    with pytest.raises(RowError) as caught:
        load_dataset("cataractbot", DOCUMENTS, _options(hospitals=["Generic", "MAA"]))
    message = str(caught.value)
    assert "MAA" in message and "hospital folder not found" in message
    assert "folders here: BLR, Generic, HYD, JAI, TEST" in message
    assert caught.value.field == "hospitals"


def test_a_flat_folder_is_not_upstream(tmp_path: Path) -> None:
    """The flat GENERIC_*.txt folder upstream never had is refused, naming what is expected."""
    for path in (DOCUMENTS / "Generic").iterdir():
        shutil.copy(path, tmp_path / path.name)
    with pytest.raises(RowError, match="data/cataract_bot/documents or a folder holding"):
        load_dataset("cataractbot", tmp_path, _options())


def test_two_kb_update_files_in_one_folder(tmp_path: Path) -> None:
    shutil.copytree(DOCUMENTS / "BLR", tmp_path / "BLR")
    shutil.copy(DOCUMENTS / "TEST/KB_Update.txt", tmp_path / "BLR/KB_Update.txt")
    with pytest.raises(RowError, match="more than one KB-update file"):
        load_dataset("cataractbot", tmp_path, _options(hospitals=["BLR"]))


def test_a_bad_entry_names_its_file_and_line(tmp_path: Path) -> None:
    shutil.copytree(DOCUMENTS / "Generic", tmp_path / "Generic")
    update = tmp_path / "Generic/GENERIC_KB_Update.txt"
    update.write_bytes(update.read_bytes() + b"## An entry with no answer\n")
    with pytest.raises(RowError) as caught:
        load_dataset("cataractbot", tmp_path, _options(hospitals=["Generic"]))
    assert caught.value.line == 10 and caught.value.field == "answer"
    assert "GENERIC_KB_Update.txt" in str(caught.value)
    lenient = load_dataset("cataractbot", tmp_path, _options(hospitals=["Generic"]), strict=False)
    assert lenient.questions == [] and lenient.rejected[0].reason == "empty_text"
