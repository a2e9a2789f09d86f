"""docs/fidelity.md: every row of every study's table rests on the paper and on something real.

A row names the paper's section (§, Appendix, Table, Figure or Listing), with the line of the
paper's text in ../shared/papers/ it rests on; NoMIRACL rows may rest on a file of the authors'
released code instead. Its last column names a config key or a test, and what it names exists:
`tests/<file>.py::test_name` is a test function of that file (a bare `test_name`, one of
tests/), a conf path or glob matches a file, `group=name` is conf/<group>/<name>.yaml, a dotted
key (`judge.rubrics`, `generation.fewshot.k/seed`) is a field of the composed config
(`ParakhConfig`), and a key written right after a conf path (conf/dataset/nomiracl.yaml then
options.passage_tokens) is a key of that file. A row whose lines cannot be checked because the
papers' texts are not beside the checkout is checked for everything else.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

from parakh.config.stage_config import ParakhConfig

ROOT = Path(__file__).resolve().parents[1]
FIDELITY = ROOT / "docs" / "fidelity.md"
PAPERS = ROOT.parent / "shared" / "papers"
PAPER_OF_SECTION = {
    "HEALTH-PARIKSHA": "health-pariksha.txt",
    "NoMIRACL": "nomiracl-summary.txt",
    "L3Cube-IndicQuest": "l3cube-indicquest.txt",
    "INDIC QA BENCHMARK": "indic-qa-benchmark.txt",
}

_SECTION = re.compile(r"§\s*\d|\bAppendi(?:x|ces) [A-Z]\b|\b(?:Table|Figure|Listing)s? \d")
_CODE_FILE = re.compile(r"\b(?:nomiracl|examples)/[\w/]+\.py\b")
_LINES = re.compile(r"\blines? (\d+)(?:\s*[-–]\s*(\d+))?")
_TEST_REF = re.compile(r"\btests/[\w/]+\.py(?:::(\w+)(?:\[[^\]]*\])?)?")
_TEST_FILE = re.compile(r"\btests/[\w/.]+\.(?:py|json|yaml|jsonl)\b")
_BARE_TEST = re.compile(r"(?<![\w/:])(test_\w+)")
_SRC_PATH = re.compile(r"\bsrc/parakh/[\w/]+\.py\b")
_CONF_OR_SPAN = re.compile(r"`?(conf/[\w/<>*.\-]+?\.yaml)\b`?|`([^`]+)`")
_OVERRIDE = re.compile(r"^([a-z_]+)=([\w.\-<>]*)$")
_DOTTED = re.compile(r"^[a-z_]+(?:\.[a-z_]+(?:\[\])?)+(?:/[a-z_]+)*$")
_YAML_KEY = re.compile(r"^([a-z_]+(?:\[\])?(?:\.[a-z_]+(?:\[\])?)*(?:/[a-z_]+)*)(?::\s*(.+))?$")


@dataclass(frozen=True)
class Row:
    section: str
    line: int
    cells: list[str]

    def __str__(self) -> str:
        return f"docs/fidelity.md:{self.line} ({self.section}: {self.cells[0][:40]})"


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def study_rows() -> list[Row]:
    """Every body row of every table under a study's `##` heading (the overview table apart)."""
    rows: list[Row] = []
    section, in_table = "", False
    for number, line in enumerate(FIDELITY.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("## "):
            section = line[3:].strip()
        if not line.startswith("|"):
            in_table = False
            continue
        if not in_table:  # the header row
            in_table = True
            continue
        if re.match(r"^\|[\s:|-]+\|$", line):
            continue
        if section:
            rows.append(Row(section, number, _cells(line)))
    return rows


ROWS = study_rows()


def _field_types(annotation: Any) -> list[Any]:
    """The classes a field's annotation can hold (Optional, unions, Annotated unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _field_types(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [t for a in typing.get_args(annotation) for t in _field_types(a)]
    return [annotation]


def config_has(model: Any, parts: list[str]) -> bool:
    """Whether `parts` is a path of fields from `model` (a dict field takes any key below it)."""
    if not parts:
        return True
    for kind in _field_types(model):
        if kind is Any or typing.get_origin(kind) is dict or kind is dict:
            return True
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            field = kind.model_fields.get(parts[0])
            if field is not None and config_has(field.annotation, parts[1:]):
                return True
    return False


def _alternatives(key: str) -> list[list[str]]:
    """`a.b.c/d` -> [[a, b, c], [a, b, d]]: the last segment's alternatives after `/`."""
    head, _, tail = key.partition("/")
    *stem, leaf = head.split(".")
    leaves = [leaf, *tail.split("/")] if tail else [leaf]
    return [[*stem, each] for each in leaves]


def yaml_has(document: Any, parts: list[str], value: str | None) -> bool:
    if not parts:
        return value is None or document == yaml.safe_load(value)
    name, is_list = parts[0].removesuffix("[]"), parts[0].endswith("[]")
    if not isinstance(document, dict) or name not in document:
        return False
    below = document[name]
    if is_list:
        return isinstance(below, list) and all(yaml_has(i, parts[1:], value) for i in below)
    return yaml_has(below, parts[1:], value)


def conf_files(pattern: str) -> list[Path]:
    return sorted(ROOT.glob(re.sub(r"<[^>]+>", "*", pattern)))


def check_reference(span: str, conf: list[Path]) -> bool | None:
    """True: `span` names something that exists; False: it names something missing; None: not
    a config reference (a command, a CLI flag, a value)."""
    override = _OVERRIDE.match(span)
    if override:
        group, name = override.groups()
        if not (ROOT / "conf" / group).is_dir():
            return None
        if not name or name == "..." or "<" in name:
            return True
        return (ROOT / "conf" / group / f"{name}.yaml").is_file()
    key = _YAML_KEY.match(span)
    if key is None:
        return None
    dotted, value = key.groups()
    if conf:  # a key written after a conf path is a key of that file
        documents = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in conf]
        return all(
            any(yaml_has(d, parts, value) for d in documents) for parts in _alternatives(dotted)
        )
    if _DOTTED.match(dotted) and dotted.split(".")[0] in ParakhConfig.model_fields:
        return all(
            config_has(ParakhConfig, [p.removesuffix("[]") for p in parts])
            for parts in _alternatives(dotted)
        )
    return None


def _test_exists(path: Path, name: str | None) -> bool:
    if not path.is_file():
        return False
    pattern = rf"^\s*(?:async )?def {name}\("
    return name is None or re.search(pattern, path.read_text(encoding="utf-8"), re.M) is not None


def _all_tests() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))


def last_column_problems(row: Row, every_test: str) -> list[str]:
    """What the row's last column names that does not exist; ['names nothing'] if it names no
    config key or test at all."""
    last = row.cells[-1]
    found, missing = 0, []
    for match in _TEST_REF.finditer(last):
        ok = _test_exists(ROOT / match.group(0).split("::")[0], match.group(1))
        found, missing = found + 1, missing if ok else [*missing, match.group(0)]
    for match in _TEST_FILE.finditer(last):
        ok = (ROOT / match.group(0)).is_file()
        found, missing = found + 1, missing if ok else [*missing, match.group(0)]
    for name in _BARE_TEST.findall(re.sub(_TEST_REF, "", last)):
        ok = re.search(rf"^\s*def {name}\(", every_test, re.M) is not None
        found, missing = found + 1, missing if ok else [*missing, name]
    for match in _SRC_PATH.finditer(last):
        if not (ROOT / match.group(0)).is_file():
            missing.append(match.group(0))
    conf: list[Path] = []
    end = 0
    for match in _CONF_OR_SPAN.finditer(last):
        if re.sub(r"[\s,`]", "", last[end : match.start()]):
            conf = []  # keys belong to a conf path only while nothing but spaces separates them
        end = match.end()
        if match.group(1):
            conf = conf_files(match.group(1))
            found, missing = found + 1, missing if conf else [*missing, match.group(1)]
            continue
        verdict = check_reference(match.group(2).strip(), conf)
        if verdict is not None:
            found, missing = found + 1, missing if verdict else [*missing, match.group(2)]
    return missing if found else ["names no config key or test"]


def section_problems(row: Row) -> list[str]:
    """The row must name the paper's section with the line of its text (or, for NoMIRACL, a
    file of the released code); each line cited must be in the paper's text."""
    text = " | ".join(row.cells[:-1])
    if _SECTION.search(text) is None and not (
        row.section == "NoMIRACL" and _CODE_FILE.search(text)
    ):
        return ["names no section of the paper (§, Appendix, Table, Figure) or released code"]
    if _SECTION.search(text) is None:
        return []
    cited = [(int(a), int(b or a)) for a, b in _LINES.findall(text)]
    if not cited:
        return ["names the paper's section but not the line of its text"]
    paper = PAPERS / PAPER_OF_SECTION.get(row.section, "")
    if not paper.is_file():
        return []  # the papers' texts are not beside this checkout: the lines go unchecked
    length = len(paper.read_text(encoding="utf-8").splitlines())
    return [f"line {a}-{b} is past the end of {paper.name}" for a, b in cited if b > length]


def test_every_study_has_a_table_of_rows() -> None:
    sections = {row.section for row in ROWS}
    assert set(PAPER_OF_SECTION) <= sections
    assert len(ROWS) > 30


@pytest.fixture(scope="module")
def every_test() -> str:
    return _all_tests()


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_every_row_names_what_holds_it_and_it_exists(row: Row, every_test: str) -> None:
    assert last_column_problems(row, every_test) == []


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_every_row_names_the_papers_section_and_line(row: Row) -> None:
    assert section_problems(row) == []


def test_the_overview_names_each_protocol_file_and_its_command() -> None:
    text = FIDELITY.read_text(encoding="utf-8").split("\n## ", 1)[0]
    overview = [_cells(line) for line in text.splitlines() if line.startswith("| ")][1:]
    assert {row[0] for row in overview} == set(PAPER_OF_SECTION)
    for _, protocol, command in overview:
        path = protocol.strip("`")
        assert (ROOT / path).is_file(), path
        assert command.strip("`") == f"parakh protocol {Path(path).stem}"


def test_the_checks_catch_what_does_not_exist() -> None:
    """The checker itself: a missing test, key, conf file or section is reported."""
    row = Row("NoMIRACL", 0, ["x", "§2.1 (line 70)", "y", "`judge.parser`"])
    assert last_column_problems(row, "") == [] and section_problems(row) == []
    for last, missing in [
        ("tests/test_docs.py::test_no_such_test", "tests/test_docs.py::test_no_such_test"),
        ("`judge.no_such_key`", "judge.no_such_key"),
        ("`generation.fewshot.k/no_such`", "generation.fewshot.k/no_such"),
        ("conf/judge/no_such.yaml", "conf/judge/no_such.yaml"),
        ("conf/dataset/nomiracl.yaml `options.no_such`", "options.no_such"),
        ("`judge=no_such`", "judge=no_such"),
        ("test_no_such_test", "test_no_such_test"),
    ]:
        assert last_column_problems(Row("s", 0, ["x", last]), "") == [missing]
    assert last_column_problems(Row("s", 0, ["x", "`parakh macro`"]), "") == [
        "names no config key or test"
    ]
    assert section_problems(Row("HEALTH-PARIKSHA", 0, ["x", "not found", "y"])) != []
    assert section_problems(Row("HEALTH-PARIKSHA", 0, ["x", "§3 (no line)", "y"])) != []
    assert section_problems(Row("NoMIRACL", 0, ["x", "`nomiracl/eval/metrics.py`", "y"])) == []
    assert (
        section_problems(Row("INDIC QA BENCHMARK", 0, ["x", "Tables 2 and 7 (line 102)", "y"]))
        == []
    )
