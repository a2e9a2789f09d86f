"""Parakh's results on MLflow's LLM-evaluation pages (`tracking.genai=true`): a trace per judged
answer with a Feedback per judge row not skipped and the reference as an Expectation, and the
curated questions as an evaluation dataset `<dataset>-<digest>`.

Each trace costs a request; the cost at 10,000 judge rows (bench/results/mlflow_genai.json) is
why it is off by default. MLflow keeps traces only in a database-backed store or a server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from parakh.hashing import sha256_obj, sha256_text
from parakh.schema import Judgment
from parakh.tracking.datasets import DatasetRef
from parakh.tracking.samples import JudgedAnswer

SPAN_BATCH = 500
LINK_BATCH = 100  # MlflowClient.link_traces_to_run takes at most 100 traces a call
RECORD_BATCH = 1000
PREVIEW_CHARS = 1000
REFERENCE = "expected_response"  # MLflow's name for the reference answer expectation
GENAI_STORES = ("sqlite:", "postgresql", "mysql", "mssql", "http://", "https://")


@dataclass
class GenaiLog:
    """What the LLM-evaluation pages get: each system's judged answers, who judged them."""

    dataset: DatasetRef | None
    answers: dict[str, list[JudgedAnswer]]  # system -> its judged answers
    judge_sources: dict[str, str]  # system -> judge model (or jury) that scored its rows
    reference_metrics: set[str]
    questions: list[dict[str, Any]] = field(default_factory=list)  # evaluation dataset rows
    tags: dict[str, str] = field(default_factory=dict)  # on every trace: dataset, judge

    def key_material(self) -> str:
        return sha256_obj(
            {
                "answers": {
                    s: [
                        [a.question_id, a.question, a.answer, a.reference, list(a.context)]
                        for a in answers
                    ]
                    for s, answers in sorted(self.answers.items())
                },
                "judges": self.judge_sources,
                "questions": self.questions,
            }
        )


def log_genai(
    uri: str, experiment_id: str, genai: GenaiLog, runs: dict[tuple[str, str], str], key: str
) -> str:
    """Log every judged answer as a trace of its (system, language) run in `runs`, linked to
    the system's (`all`) run too, and the dataset; trace ids derive from the sweep `key`.
    Returns what was logged, counted, or why nothing was."""
    import time

    from mlflow.tracing.client import TracingClient
    from mlflow.tracking import MlflowClient

    if not uri.startswith(GENAI_STORES):
        return (
            f"tracking.genai: traces need a database-backed store or a tracking server, not "
            f"{uri}; none logged"
        )
    start = time.perf_counter()
    client, runs_client = TracingClient(uri), MlflowClient(uri)
    now_ms = int(time.time() * 1000)
    traces = assessments = 0
    for system, answers in genai.answers.items():
        spans: list[Any] = []
        linked: list[str] = []
        for answer in answers:
            run_id = runs.get((system, answer.language), runs[(system, "all")])
            info, span = _trace(experiment_id, genai, answer, run_id, key, now_ms)
            client.start_trace(info)
            spans.append(span)
            linked.append(info.trace_id)
            assessments += len(info.assessments)
        traces += len(linked)
        for i in range(0, len(spans), SPAN_BATCH):
            client.log_spans(experiment_id, spans[i : i + SPAN_BATCH])
        for i in range(0, len(linked), LINK_BATCH):
            runs_client.link_traces_to_run(linked[i : i + LINK_BATCH], runs[(system, "all")])
    records = _log_evaluation_dataset(runs_client, experiment_id, genai)
    seconds = time.perf_counter() - start
    return (
        f"{traces} traces with {assessments} assessments, {records} evaluation dataset records "
        f"({seconds:.1f} s)"
    )


def _trace(
    experiment_id: str,
    genai: GenaiLog,
    answer: JudgedAnswer,
    run_id: str,
    key: str,
    now_ms: int,
) -> tuple[Any, Any]:
    from mlflow.entities import Span, TraceInfo, TraceLocation, TraceState
    from mlflow.tracing.constant import SpanAttributeKey, TraceMetadataKey, TraceTagKey
    from mlflow.tracing.utils import build_otel_context
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.trace import Status, StatusCode

    digest = sha256_text(f"{key}\0{answer.system}\0{answer.question_id}")
    otel_trace_id, span_id = int(digest[:32], 16), int(digest[32:48], 16) or 1
    trace_id = f"tr-{digest[:32]}"
    inputs = {"question": answer.question, "context": list(answer.context)}
    outputs = {"answer": answer.answer}
    attributes = {
        SpanAttributeKey.REQUEST_ID: json.dumps(trace_id),
        SpanAttributeKey.SPAN_TYPE: json.dumps("CHAIN"),
        SpanAttributeKey.INPUTS: json.dumps(inputs, ensure_ascii=False),
        SpanAttributeKey.OUTPUTS: json.dumps(outputs, ensure_ascii=False),
    }
    start_ns = now_ms * 1_000_000
    span = Span(
        ReadableSpan(
            name="answer",
            context=build_otel_context(otel_trace_id, span_id),
            parent=None,
            start_time=start_ns,
            end_time=start_ns + 1_000_000,
            attributes=attributes,
            status=Status(StatusCode.OK),
            resource=Resource.get_empty(),
        )
    )
    info = TraceInfo(
        trace_id=trace_id,
        trace_location=TraceLocation.from_experiment_id(experiment_id),
        request_time=now_ms,
        state=TraceState.OK,
        request_preview=answer.question[:PREVIEW_CHARS],
        response_preview=(answer.answer or "")[:PREVIEW_CHARS],
        execution_duration=1,
        trace_metadata={TraceMetadataKey.SOURCE_RUN: run_id, "mlflow.trace_schema.version": "3"},
        tags={
            TraceTagKey.TRACE_NAME: "answer",
            "mlflow.trace.spansLocation": "TRACKING_STORE",
            **genai.tags,
            "model": answer.system,
            "language": answer.language,
            "question_id": answer.question_id,
        },
        assessments=_assessments(genai, answer, trace_id),
    )
    return info, span


def _assessments(genai: GenaiLog, answer: JudgedAnswer, trace_id: str) -> list[Any]:
    from mlflow.entities import AssessmentSource, Expectation

    judge = genai.judge_sources.get(answer.system, "judge")
    found = [
        _feedback(j, trace_id, judge, genai) for j in answer.judgments if j.status != "skipped"
    ]
    if answer.reference:
        dataset = genai.dataset.name if genai.dataset else "dataset"
        source = AssessmentSource(source_type="HUMAN", source_id=dataset)
        found.append(Expectation(REFERENCE, answer.reference, source=source, trace_id=trace_id))
    return found


def _feedback(row: Judgment, trace_id: str, judge: str, genai: GenaiLog) -> Any:
    from mlflow.entities import AssessmentError, AssessmentSource, Feedback

    if row.metric in genai.reference_metrics:
        source = AssessmentSource(source_type="CODE", source_id=f"parakh.{row.metric}")
    else:
        source = AssessmentSource(source_type="LLM_JUDGE", source_id=judge)
    metadata = {"status": row.status, "scale_max": str(row.scale_max)}
    if row.flags:
        metadata["flags"] = ",".join(row.flags)
    error = None
    if row.status != "ok":
        error = AssessmentError(
            error_code=row.status.upper(), error_message=row.reason or row.status
        )
    return Feedback(
        name=row.metric,
        value=None if error else row.score,
        rationale=None if error else row.justification,
        error=error,
        source=source,
        trace_id=trace_id,
        metadata=metadata,
    )


def _log_evaluation_dataset(client: Any, experiment_id: str, genai: GenaiLog) -> int:
    """The curated questions as the evaluation dataset `<dataset>-<digest>`, created once per
    version (an existing one is left as it is); returns the records written."""
    if genai.dataset is None or not genai.questions:
        return 0
    ref = genai.dataset
    name = f"{ref.name}-{ref.digest[:12]}"
    if list(client.search_datasets([experiment_id], filter_string=f"name = '{name}'")):
        return 0
    tags = {"dataset": ref.name, "digest": ref.digest, "source": json.dumps(ref.source)}
    created = client.create_dataset(name, experiment_id=[experiment_id], tags=tags)
    uri_of_source = next(iter(ref.source.values()))
    records = [
        {
            "inputs": {"question": q["question"]},
            **({"expectations": {REFERENCE: q["reference"]}} if q["reference"] else {}),
            "tags": {"language": q["language"], "question_id": q["id"]},
            "source": {"source_type": "DOCUMENT", "source_data": {"doc_uri": uri_of_source}},
        }
        for q in genai.questions
    ]
    store = client._tracking_client.store  # merge_records would use the global tracking URI
    for i in range(0, len(records), RECORD_BATCH):
        store.upsert_dataset_records(created.dataset_id, records[i : i + RECORD_BATCH])
    return len(records)
