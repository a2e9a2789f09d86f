"""The curation steps one by one: labels, duplicates, relevance filter, redaction, categories,
and the report (also as an MLflow run)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from parakh.config.dataset import CategoryConfig, PIIConfig
from parakh.curation.categories import CategoryTagger, tag_question
from parakh.curation.hygiene import (
    Hygiene,
    apply_relevance_filter,
    dedupe_texts,
    load_relevance_filter,
    resolve_duplicate_ids,
)
from parakh.curation.labels import label_all
from parakh.curation.redaction import redact_questions
from parakh.curation.report import build_report, report_metrics
from parakh.datasets.rows import Origin, RowError
from parakh.errors import ConfigError
from parakh.schema import Passage, Question
from parakh.stages.curate import log_curation


def q(qid: str, text: str, language: str = "en", **fields: object) -> Question:
    return Question.model_validate({"id": qid, "text": text, "language": language, **fields})


def origins(n: int) -> list[Origin]:
    return [Origin("questions.jsonl", i + 1) for i in range(n)]


# --- labels ------------------------------------------------------------------------------------


def test_detected_config_and_dataset_labels_keep_their_source() -> None:
    questions = [
        q("a", "operation ke baad kya khana chahiye", "und"),
        q("b", "When can I drive?", "und"),
        q("c", "ऑपरेशन के बाद क्या खाएं?", "hi", label_source={"language": "dataset"}),
        q("d", "ऑपरेशन के बाद क्या खाएं?", "mr", label_source={"language": "dataset"}),
    ]
    labelled, disagreements = label_all(questions)
    a, b, c, d = labelled
    assert (a.language, a.romanized, a.script, a.label_source["language"]) == (
        "hi", True, "Latin", "detected",
    )  # fmt: skip
    assert b.language == "en" and b.label_source["language"] == "detected"
    assert c.language == "hi" and c.label_source["language"] == "dataset"
    assert d.language == "mr" and d.matrix_language == "hi"  # given label kept, detection noted
    assert disagreements == {"mr->hi": 1}
    assert all(x.label_source["romanized"] == "detected" for x in labelled)
    configured, _ = label_all([q("e", "Kab aana hai?", "und")], config_language="en")
    assert configured[0].language == "en" and configured[0].label_source["language"] == "config"


# --- duplicates --------------------------------------------------------------------------------


def test_same_id_same_content_is_dropped_other_content_is_an_error() -> None:
    same = [q("a", "x?"), q("a", "x?"), q("b", "y?")]
    result = resolve_duplicate_ids(same, origins(3), strict=True)
    assert [x.id for x in result.questions] == ["a", "b"] and result.dropped["duplicate_id"] == 1
    other = [q("a", "x?"), q("b", "y?"), q("a", "z?")]
    with pytest.raises(RowError) as info:
        resolve_duplicate_ids(other, origins(3), strict=True)
    assert str(info.value) == (
        "questions.jsonl, line 3, field 'id': duplicate id 'a' with different content "
        "(first at questions.jsonl, line 1)"
    )
    lenient = resolve_duplicate_ids(other, origins(3), strict=False)
    assert [x.id for x in lenient.questions] == ["b"]
    assert [(r.line, r.reason) for r in lenient.rejected] == [
        (1, "duplicate_id_conflict"),
        (3, "duplicate_id_conflict"),
    ]


def test_normalised_duplicates_merge_their_reference_answers() -> None:
    questions = [
        q("a", "When can I drive?", reference_answers=["After a week."]),
        q("b", "when can i  drive", reference_answers=["After 7 days."]),
        q("c", "When can I drive?", "hi"),  # another language: not a duplicate
        q("d", "When can I drive?", contexts=[Passage(id="p", text="ctx")]),  # other context
    ]
    hygiene = Hygiene(questions=list(questions), origins=origins(4))
    exact = dedupe_texts(Hygiene(questions=list(questions), origins=origins(4)), "exact")
    assert len(exact.questions) == 4
    result = dedupe_texts(hygiene, "normalized")
    assert [x.id for x in result.questions] == ["a", "c", "d"]
    assert result.questions[0].reference_answers == ["After a week.", "After 7 days."]
    assert result.questions[0].meta == {"duplicate_ids": ["b"]}
    assert result.dropped == {"duplicate_text": 1} and result.merged_reference_answers == 1


def off_topic(question: Question) -> str | None:
    return "not about eyes" if "pizza" in question.text else None


def test_relevance_filter_hook() -> None:
    keep = load_relevance_filter(f"{__name__}:off_topic")
    hygiene = Hygiene(questions=[q("a", "Eye drops?"), q("b", "Best pizza?")], origins=origins(2))
    result = apply_relevance_filter(hygiene, keep)
    assert [x.id for x in result.questions] == ["a"] and result.dropped["not_relevant"] == 1
    with pytest.raises(ConfigError, match="expected 'module:function'"):
        load_relevance_filter("nocolon")
    with pytest.raises(ConfigError, match="has no function 'nope'"):
        load_relevance_filter(f"{__name__}:nope")


# --- redaction ---------------------------------------------------------------------------------


def test_redaction_covers_text_references_and_meta_but_keeps_listed_contacts() -> None:
    question = q(
        "a",
        "My son 98450 12345 asked: can I drive?",
        reference_answers=["Call 080-4000-1234 or write to care@hospital.org"],
        meta={"sender": "+91 99887 76655", "thread": [{"email": "son@gmail.com"}]},
    )
    config = PIIConfig(keep=["080-4000-1234", "@hospital.org"])
    (out,), counts, touched = redact_questions([question], config)
    assert out.text == "My son [PHONE] asked: can I drive?"
    assert out.reference_answers == ["Call 080-4000-1234 or write to care@hospital.org"]
    assert out.meta == {"sender": "[PHONE]", "thread": [{"email": "[EMAIL]"}]}
    assert counts == Counter({"phone": 2, "email": 1}) and touched == 1
    unchanged, counts, _ = redact_questions([question], PIIConfig(enabled=False))
    assert unchanged == [question] and not counts


# --- categories --------------------------------------------------------------------------------


TAGGER = CategoryTagger.from_config(CategoryConfig(cultural_terms=["sabarimala"]))


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("how many times a day i should put the eye drops after opertion", "en",
         {"misspelled", "non-native"}),
        ("Wat time shud we come to hospital?", "en", {"misspelled"}),
        ("When can I start driving after my surgery?", "en", set()),
        ("Can I colour my hair before the operation?", "en", set()),  # British spelling
        ("Whether the drops should put in both eyes?", "en", {"non-native"}),
        ("my eye is red since morning, surgery was 3 days back", "en", {"non-native"}),
        ("How long before the surgery should these tests be done?", "en", set()),
        ("I take aspirin for my heart. Should I stop it?", "en", {"condition-specific"}),
        ("Can I apply kajal after cataract surgery?", "en", {"culturally-specific"}),
        ("Can I go to Sabarimala next month?", "en", {"culturally-specific"}),  # configured term
        ("मुझे शुगर है। क्या परहेज़ करना होगा?", "hi", {"condition-specific"}),
        ("क्या ऑपरेशन के बाद पान खा सकते हैं?", "hi", {"culturally-specific"}),
        ("क्या आँख में पानी डाल सकते हैं?", "hi", set()),  # पानी is not पान
        ("எனக்கு சர்க்கரை நோய் இருக்கிறது", "ta", {"condition-specific"}),
    ],
)  # fmt: skip
def test_rule_tags(text: str, language: str, expected: set[str]) -> None:
    assert set(TAGGER.tags(q("x", text, language))) == expected


def test_labels_give_code_mixed_and_romanized_tags_and_dataset_tags_stay() -> None:
    question = q(
        "x", "surgery ke baad kab nahana hai", "hi", romanized=True, code_mixed=True,
        categories=["kb-update"], category_sources={"kb-update": "dataset"},
    )  # fmt: skip
    tagged = tag_question(question, TAGGER)
    assert tagged.categories == ["kb-update", "code-mixed", "romanized"]
    assert tagged.category_sources == {
        "kb-update": "dataset", "code-mixed": "rule", "romanized": "rule",
    }  # fmt: skip


# --- report ------------------------------------------------------------------------------------


def _report() -> dict[str, object]:
    questions = [
        q("a", "x?", categories=["misspelled"], category_sources={"misspelled": "rule"},
          label_source={"language": "detected"}),
        q("b", "y?", "hi", romanized=True, label_source={"language": "dataset"}),
    ]  # fmt: skip
    return build_report(
        dataset="t",
        adapter="healthbot",
        strict=True,
        rows_in=5,
        questions=questions,
        dropped={"duplicate_text": 2, "invalid_utf8": 1, "over_limit": 0},
        quarantined=1,
        documents=[],
        judgments=[],
        pii_matches={"phone": 3},
        pii_questions=2,
        language_disagreements={},
        merged_reference_answers=0,
    )


def test_report_counts_rows_reasons_languages_and_categories() -> None:
    report = _report()
    assert report["rows_in"] == 5 and report["rows_out"] == 2
    assert report["dropped"] == {"duplicate_text": 2, "invalid_utf8": 1}
    assert report["languages"] == {"en": 1, "hi": 1} and report["romanized"] == 1
    assert report["categories"] == {"misspelled": 1}
    assert report["category_sources"] == {"rule": 1}
    assert report["label_sources"] == {"language": {"dataset": 1, "detected": 1}}
    assert report["pii"] == {"questions_redacted": 2, "matches": {"phone": 3}}
    metrics = report_metrics(report)
    assert metrics["dropped.duplicate_text"] == 2.0 and metrics["languages.hi"] == 1.0


def test_report_is_logged_once_to_mlflow(tmp_path: Path) -> None:
    import mlflow

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    report_path = tmp_path / "report.json"
    report_path.write_text("{}", encoding="utf-8")
    report = _report()
    run_id = log_curation(report, {"dataset": {"name": "t"}}, report_path, uri)
    assert log_curation(report, {"dataset": {"name": "t"}}, report_path, uri) == run_id
    client = mlflow.tracking.MlflowClient(uri)
    run = client.get_run(run_id)
    assert run.data.tags["dataset"] == "t" and run.data.tags["stage"] == "curate"
    assert run.data.metrics["rows_out"] == 2.0 and run.data.metrics["pii.phone"] == 3.0
    assert run.data.params["dataset.name"] == "t"
    history = client.get_metric_history(run_id, "rows_out")
    assert history and all(m.timestamp > 0 for m in history)  # the time logged, not 1970
    experiment = client.get_experiment(run.info.experiment_id)
    assert experiment.name == "parakh-curation"
