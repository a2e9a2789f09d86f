"""curate: load a dataset through its adapter, redact PII, label languages, dedupe, tag, validate.

python -m parakh.stages.curate dataset=demo
python -m parakh.stages.curate dataset=indicquest dataset.per_language=5 dataset.languages=[hi,kn]

Selection, after language labelling and dedupe: `dataset.languages`, `dataset.per_language`
(chosen by `seed`), the relevance filter, `dataset.limit`; the report counts what each dropped.

Strict mode (default) stops at the first bad row, naming file, line and field, and writes
nothing; lenient mode (`dataset.strict=false`) quarantines bad rows, PII-redacted, with their
reason. Outputs in data/processed/<dataset>/curate/: questions.jsonl, kb.jsonl, report.json,
human_judgments.jsonl (judgment datasets), quarantine.jsonl (lenient).
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parakh.config import ParakhConfig, hydra_entry
from parakh.config.dataset import DatasetConfig
from parakh.curation.categories import CategoryTagger, tag_question
from parakh.curation.empty import check_loaded, check_selected
from parakh.curation.hygiene import (
    Hygiene,
    apply_relevance_filter,
    dedupe_texts,
    load_relevance_filter,
    resolve_duplicate_ids,
)
from parakh.curation.labels import label_all
from parakh.curation.redaction import policy_of, redact_questions, redact_value
from parakh.curation.report import CURATION_EXPERIMENT, build_report, report_metrics
from parakh.curation.slices import per_language_mask
from parakh.datasets import LoadedDataset, RejectedRow, load_dataset, parse_options
from parakh.hashing import sha256_obj
from parakh.io import write_json, write_jsonl
from parakh.project import resolve
from parakh.schema import PROMPT_UNAVAILABLE, HumanJudgment, Question
from parakh.stage_outputs import Layout, spec_path
from parakh.tracking.client import tracking_configured, tracking_uri
from parakh.tracking.runspec import write_run_spec
from parakh.tracking.stage_runs import StageRun, log_stage_run


@dataclass
class Curated:
    questions: list[Question]
    judgments: list[HumanJudgment] = field(default_factory=list)
    quarantine: list[dict[str, Any]] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)


def _quarantine_rows(rejected: list[RejectedRow], cfg: ParakhConfig) -> list[dict[str, Any]]:
    """Rejected rows as written: the raw record is PII-redacted like any question."""
    pii = cfg.dataset.pii
    policy = policy_of(pii)
    rows = [row.as_dict() for row in rejected]
    for record in rows if pii.enabled else []:
        for key in ("record", "message"):
            record[key] = redact_value(record[key], policy, Counter())
    return rows


def run(cfg: ParakhConfig, loaded: LoadedDataset) -> Curated:
    ds = cfg.dataset
    check_loaded(loaded, resolve(ds.path), ds.adapter, ds.strict)
    hygiene = resolve_duplicate_ids(loaded.questions, loaded.origins, ds.strict)
    rejected = [*loaded.rejected, *hygiene.rejected]
    questions, pii_matches, pii_questions = redact_questions(hygiene.questions, ds.pii)
    questions, disagreements = label_all(questions, ds.language)
    if ds.domain is not None:  # the dataset's domain on each question that names none
        questions = [
            q if q.domain else q.model_copy(update={"domain": ds.domain}) for q in questions
        ]
    hygiene.questions = questions
    hygiene = dedupe_texts(hygiene, ds.dedupe)
    languages_present = sorted({q.language for q in hygiene.questions})
    hygiene = _selected(hygiene, ds, cfg.seed)
    questions = hygiene.questions
    check_selected(len(questions), len(loaded.questions), hygiene.dropped, languages_present)
    if ds.categories.tagger == "rules":
        tagger = CategoryTagger.from_config(ds.categories)
        questions = [tag_question(q, tagger) for q in questions]
    if ds.limit is not None:
        hygiene.dropped["over_limit"] += max(0, len(questions) - ds.limit)
        questions = questions[: ds.limit]
    # Validated on write: the steps above build rows with model_copy, which does not validate.
    questions = [Question.model_validate(q.model_dump()) for q in questions]
    dropped = Counter(hygiene.dropped)
    dropped.update(row.reason for row in rejected)
    kept_ids = {q.id for q in questions}
    judgments = [j for j in loaded.judgments if j.question_id in kept_ids]
    report = build_report(
        dataset=ds.name,
        adapter=ds.adapter,
        strict=ds.strict,
        rows_in=len(loaded.questions) + len(loaded.rejected),
        questions=questions,
        dropped=dropped,
        quarantined=len(rejected),
        documents=loaded.documents,
        judgments=judgments,
        pii_matches=pii_matches,
        pii_questions=pii_questions,
        language_disagreements=disagreements,
        merged_reference_answers=hygiene.merged_reference_answers,
        selection={
            "languages": ds.languages,
            "per_language": ds.per_language,
            "limit": ds.limit,
            "seed": cfg.seed,
        },
    )
    if loaded.cut:  # only then: a report without cuts stays as it was
        report["truncated"] = loaded.cut
    report.update(_without_prompt(questions))
    return Curated(
        questions=questions,
        judgments=judgments,
        quarantine=_quarantine_rows(rejected, cfg),
        report=report,
    )


def _without_prompt(questions: list[Question]) -> dict[str, Any]:
    """`prompt_unavailable`: questions per language kept for their stored answers, with no
    prompt to ask a new model (`meta.prompt_unavailable`); nothing when there are none."""
    unavailable = Counter(q.language for q in questions if q.meta.get(PROMPT_UNAVAILABLE))
    return {"prompt_unavailable": dict(sorted(unavailable.items()))} if unavailable else {}


def _selected(hygiene: Hygiene, ds: DatasetConfig, seed: int) -> Hygiene:
    """The questions the dataset config selects: its languages, per-language sample and
    relevance filter, each counting what it dropped."""
    if ds.languages:
        keep = [q.language in ds.languages for q in hygiene.questions]
        _keep(hygiene, keep, "language_not_selected")
    if ds.per_language is not None:
        _keep(
            hygiene,
            per_language_mask(hygiene.questions, ds.per_language, seed),
            "over_per_language",
        )
    if ds.relevance_filter:
        hygiene = apply_relevance_filter(hygiene, load_relevance_filter(ds.relevance_filter))
    return hygiene


def _keep(hygiene: Hygiene, keep: list[bool], reason: str) -> None:
    """Keep the questions (and their origins) `keep` marks; count the rest dropped for `reason`."""
    before = len(hygiene.questions)
    hygiene.questions = [q for q, k in zip(hygiene.questions, keep, strict=True) if k]
    hygiene.origins = [o for o, k in zip(hygiene.origins, keep, strict=True) if k]
    hygiene.dropped[reason] += before - len(hygiene.questions)


def main_task(cfg: ParakhConfig) -> None:
    ds = cfg.dataset
    layout = Layout.of(cfg)
    source = resolve(ds.path)
    quarantine = resolve(ds.quarantine or layout.curated_questions.with_name("quarantine.jsonl"))
    parse_options(ds.adapter, ds.options)  # a bad option fails before anything is read
    if ds.relevance_filter:
        load_relevance_filter(ds.relevance_filter)
    loaded = load_dataset(
        ds.adapter,
        source,
        ds.options,
        strict=ds.strict,
        limits=ds.max_chars,
        over_length=ds.over_length,
    )
    curated = run(cfg, loaded)
    # Everything is computed before the first write: a failure above leaves no output behind.
    write_jsonl(layout.curated_questions, curated.questions)
    write_jsonl(layout.curated_kb, loaded.documents)
    judgments_path = layout.curated_questions.with_name("human_judgments.jsonl")
    if curated.judgments:
        write_jsonl(judgments_path, curated.judgments)
    if not ds.strict:
        write_jsonl(quarantine, curated.quarantine)
    write_json(layout.curation_report, curated.report)
    write_run_spec(
        spec_path(layout.curated_questions),
        stage="curate",
        config={"dataset": ds.model_dump(), "seed": cfg.seed},  # the seed picks per_language
        inputs={"source": source},
    )
    if tracking_configured(cfg.tracking.uri):
        log_curation(
            curated.report,
            {"dataset": ds.model_dump(mode="json")},
            layout.curation_report,
            tracking_uri(cfg.tracking.uri),
        )
    report = curated.report
    if not curated.questions:  # lenient, every row quarantined (`check_loaded`)
        print(
            f"curate: warning: all {report['quarantined']} rows were quarantined; no questions "
            f"to evaluate (see {quarantine})",
            file=sys.stderr,
        )
    print(
        f"curate: {report['rows_out']} of {report['rows_in']} questions kept "
        f"(dropped: {report['dropped'] or 'none'}), {len(loaded.documents)} KB documents"
        + (f", {len(curated.judgments)} human judgments" if curated.judgments else "")
        + (f", {report['quarantined']} rows quarantined" if not ds.strict else "")
        + (f", {len(report['truncated'])} texts cut to size" if "truncated" in report else "")
        + f" -> {layout.curated_questions.parent}"
    )


def log_curation(
    report: dict[str, Any], params: dict[str, Any], report_path: Path, uri: str
) -> str:
    """The curation report as one MLflow run (found again, not duplicated, for the same
    report): its counts as metrics, the settings as params, the report file as an artifact."""
    run = StageRun(
        experiment=CURATION_EXPERIMENT,
        name=f"curate/{report['dataset']}",
        tags={
            "dataset": str(report["dataset"]),
            "stage": "curate",
            "report_sha256": sha256_obj(report),
        },  # fmt: skip
        params=params,
        metrics=report_metrics(report),
        artifacts=((report_path, None),),
    )
    return log_stage_run(uri, run)


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
