"""Answer prompts per dataset: HealthBot RAG, closed-book IndicQuest, XQuAD, NoMIRACL variants."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from parakh.errors import ConfigError
from parakh.prompts.template import PromptTemplate, context_of, load_prompt, render_turns
from parakh.schema import Passage, Question, Retrieval, RetrievedChunk

REPO = Path(__file__).resolve().parents[2]
NOMIRACL_VARIANTS = ["nomiracl_vanilla", "nomiracl_role", "nomiracl_repeat", "nomiracl_explanation"]


def _nomiracl_question(answerable: bool = True) -> Question:
    return Question(
        id="nm1",
        text="भारत की राजधानी क्या है?",
        language="hi",
        answerable=answerable,
        subset="relevant" if answerable else "non_relevant",
        contexts=[Passage(id=f"p{i}", text=f"passage number {i}") for i in range(1, 11)],
    )


def test_healthbot_prompt_keeps_raw_and_update_chunks_apart() -> None:
    prompt = load_prompt("healthbot")
    question = Question(id="q", text="Kab nahana hai?", language="hi", response_language="en")
    chunk = {"document_id": "d", "score": 1.0}
    retrieval = Retrieval(
        question_id="q",
        raw_chunks=[RetrievedChunk(chunk_id="r1", kind="raw", text=" Raw text. ", **chunk)],
        kb_update_chunks=[
            RetrievedChunk(
                chunk_id="u1", kind="update", text="New text.", added_at="2024-07-01", **chunk
            )
        ],
    )
    (_, system), (_, user) = render_turns(prompt, question, context_of(prompt, question, retrieval))
    assert "The query is in Hindi; always reply in English." in system
    assert user == (
        "RawChunks:\n[1] Raw text.\n\nKBUpdateChunks:\n[1] (added 2024-07-01) New text.\n\n"
        "Query: Kab nahana hai?"
    )
    (_, _), (_, empty) = render_turns(prompt, question, context_of(prompt, question, None))
    assert "RawChunks:\n(none)" in empty


def test_healthbot_prompt_carries_every_instruction_of_appendix_b() -> None:
    """HEALTH-PARIKSHA's HealthBot system prompt, one line per instruction, in its order."""
    prompt = load_prompt("healthbot")
    question = Question(id="q", text="Kab nahana hai?", language="hi", response_language="hi")
    (_, system), _ = render_turns(prompt, question, [])
    lines = system.splitlines()
    assert len(lines) == 5
    role, answer, conflict, language, nothing_else = lines
    assert "chatbot for cataract patients" in role
    assert "about to have, or have had, cataract surgery" in role
    assert "knowledge base alone" in answer and "truthfully and factually" in answer
    assert "briefly, politely and professionally" in answer
    assert answer.endswith(f'reply only: "{prompt.refusal}"')
    assert "always go with the new knowledge base and, within it, with the latest" in conflict
    assert "Either part may be empty." in conflict
    assert "RawChunks" in conflict and "KBUpdateChunks" in conflict
    assert language == "The query is in Hindi; always reply in Hindi."
    assert nothing_else == (
        "Say nothing else: no opening or closing remarks or statements of any other kind."
    )
    assert prompt.refusal == (
        "I do not know the answer to your question. If this needs to be answered by a doctor, "
        "please schedule a consultation."
    )


def test_closed_book_prompt_has_no_context_and_asks_for_the_question_language() -> None:
    prompt = load_prompt("indicquest_closed_book")
    question = Question(id="iq-1", text="ताजमहल किसने बनवाया?", language="hi")
    (_, system), (_, user) = render_turns(prompt, question, context_of(prompt, question, None))
    assert "Answer in Hindi" in system and user == "Question: ताजमहल किसने बनवाया?"


@pytest.mark.parametrize("name", ["xquad_extractive", "xquad_abstractive"])
def test_xquad_prompts_ground_on_the_questions_paragraph(name: str) -> None:
    prompt = load_prompt(name)
    question = Question(
        id="x1",
        text="Who won?",
        language="en",
        contexts=[Passage(id="c", text="The Broncos won Super Bowl 50.")],
    )
    turns = render_turns(prompt, question, context_of(prompt, question, None))
    assert "Paragraph:\nThe Broncos won Super Bowl 50.\n\nQuestion: Who won?" in turns[-1][1]


@pytest.mark.parametrize("name", NOMIRACL_VARIANTS)
def test_nomiracl_variants_list_all_passages_and_both_verdicts(name: str) -> None:
    prompt = load_prompt(name)
    question = _nomiracl_question()
    text = "\n".join(
        c for _, c in render_turns(prompt, question, context_of(prompt, question, None))
    )
    assert "[1] passage number 1" in text and "[10] passage number 10" in text
    assert '"Yes, answer is present"' in text and '"I don\'t know"' in text
    assert question.text in text
    if name == "nomiracl_repeat":
        assert text.count('"Yes, answer is present"') == 2
    if name == "nomiracl_role":
        assert render_turns(prompt, question, [])[0][0] == "system"


def test_a_prompt_with_an_unknown_field_is_rejected_with_the_field_named() -> None:
    with pytest.raises(ValidationError, match="unknown field.*'context_text'"):
        PromptTemplate(name="bad", user="{context_text} {question}")


def test_a_prompt_file_with_an_unknown_key_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "conf" / "prompt").mkdir(parents=True)
    (tmp_path / "conf" / "prompt" / "oops.yaml").write_text("name: oops\nuser: q\nshots: 3\n")
    monkeypatch.setenv("PARAKH_ROOT", str(tmp_path))
    with pytest.raises(ConfigError, match=r"oops\.yaml: field 'shots'"):
        load_prompt("oops")
    with pytest.raises(ConfigError, match="Unknown prompt 'opps'. Did you mean 'oops'"):
        load_prompt("opps")


def test_the_fidelity_table_gives_each_appendix_b_instruction_as_the_prompt_has_it() -> None:
    """docs/fidelity.md's instruction table: each row's wording is in the prompt line it names;
    every line of the HealthBot prompt is there."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "fidelity.md").read_text("utf-8")
    row = re.compile(r"\| ([^|]+) \| `conf/prompt/(\w+)\.yaml` `system` line (\d+) \|$")
    found = [m.groups()[1:] + m.groups()[:1] for m in map(row.search, doc.splitlines()) if m]
    for name, line, words in found:
        assert words in load_prompt_text(name)[int(line) - 1], (name, line)
    lines = {int(line) for name, line, _ in found if name == "healthbot"}
    assert lines == set(range(1, len(load_prompt_text("healthbot")) + 1))


def load_prompt_text(name: str) -> list[str]:
    """A prompt file's `system` text, line by line, before any field is filled."""
    loaded = yaml.safe_load((REPO / "conf" / "prompt" / f"{name}.yaml").read_text("utf-8"))
    return str(loaded["system"]).splitlines()
