"""Translate-test: ask in English, answer in English, translate the answer back.

The INDIC QA BENCHMARK found that for low-resource languages this beats direct inference (its
abstract and §4); it translated context and question into English (§3.2). Each step is its own
DVC stage, with every intermediate text kept on the rows: `index` retrieves with the question as
asked; `translate` puts each question (and, if configured, its passages) into English on
`Question.translation` (`translate_questions`) and the retrieved chunks not in English
(`translate_retrievals`); `generate` asks in English (answers in `pivot/`); `back-translate`
puts each answer into the question's answer language, keeping the English one on
`Generation.translation`; `judge` compares the back-translated `response` as in direct runs.
A failed translation (query, passage or chunk) makes the question's generation an `error` row.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import closing

from parakh.backends.cache import ResponseCache
from parakh.config.translator import TranslatorConfig
from parakh.errors import ConfigError
from parakh.schema import (
    Generation,
    Passage,
    QueryTranslation,
    Question,
    ResponseTranslation,
    Retrieval,
    RetrievedChunk,
)
from parakh.text.langid import label_language
from parakh.text.languages import ENGLISH, LanguageTag
from parakh.translation.service import TranslationService, make_service


def source_tag(question: Question) -> LanguageTag:
    """The question's language in the script it is written in (romanized: Latin)."""
    return LanguageTag.of(question.language, question.script)


def text_tag(text: str, hint: str | None = None) -> LanguageTag | None:
    """The detected language of a passage or chunk; None when it has no letters."""
    label = label_language(text, hint)
    try:
        return LanguageTag.of(label.language, label.script)
    except ConfigError:  # undetermined: digits, symbols
        return None


def translate_questions(
    service: TranslationService, questions: Sequence[Question], translate_context: bool
) -> list[Question]:
    """Copies of `questions` with `translation` set: the English query, or the reason not."""
    asked: dict[int, LanguageTag] = {}
    records: dict[int, QueryTranslation] = {}
    for i, q in enumerate(questions):
        try:
            asked[i] = source_tag(q)
        except ConfigError as e:
            records[i] = QueryTranslation(
                translator=service.name, source_language=q.language, status="error", error=str(e)
            )
    results = service.translate_each(
        [(tag, ENGLISH, questions[i].text) for i, tag in asked.items()]
    )
    for (i, source), result in zip(asked.items(), results, strict=True):
        records[i] = QueryTranslation(
            translator=service.name,
            source_language=source.code,
            status="unchanged" if source == ENGLISH else ("ok" if result.ok else "error"),
            text=result.text,
            error=result.error,
        )
    if translate_context:
        _translate_passages(service, questions, records)
    return [q.model_copy(update={"translation": records[i]}) for i, q in enumerate(questions)]


def _translate_passages(
    service: TranslationService, questions: Sequence[Question], records: dict[int, QueryTranslation]
) -> None:
    """Put each question's passages into English on its record; a failure fails the record."""
    places: list[tuple[int, int, LanguageTag]] = []
    translated: dict[int, list[Passage]] = {}
    for i, q in enumerate(questions):
        if not q.contexts or records[i].status == "error":
            continue
        translated[i] = list(q.contexts)
        for j, passage in enumerate(q.contexts):
            tag = text_tag(passage.text, q.language)
            if tag is not None and tag != ENGLISH:
                places.append((i, j, tag))
    results = service.translate_each(
        [(tag, ENGLISH, questions[i].contexts[j].text) for i, j, tag in places]
    )
    for (i, j, _), result in zip(places, results, strict=True):
        if result.ok:
            translated[i][j] = translated[i][j].model_copy(update={"text": result.text})
        elif records[i].status != "error":
            passage_id = questions[i].contexts[j].id
            records[i] = records[i].model_copy(
                update={"status": "error", "error": f"passage {passage_id}: {result.error}"}
            )
    for i, passages in translated.items():
        if records[i].status != "error":
            records[i] = records[i].model_copy(update={"contexts": passages})


def question_for_prompt(question: Question) -> Question:
    """The question as the model is asked it: under translate-test an English copy (text,
    language, response language and passages); otherwise the question itself."""
    t = question.translation
    if t is None or t.status == "error" or t.text is None:
        return question
    update: dict[str, object] = {
        "text": t.text,
        "language": t.pivot_language,
        "response_language": t.pivot_language,
        "script": "Latin",
        "romanized": False,
    }
    if t.contexts is not None:
        update["contexts"] = t.contexts
    return question.model_copy(update=update)


def translate_retrievals(
    service: TranslationService,
    questions: Sequence[Question],
    retrievals: Sequence[Retrieval],
) -> tuple[list[Retrieval], list[Question]]:
    """Retrieved chunks not in English, in English, and `questions` with each chunk that
    failed to translate recorded on its question's `translation` (status `error`), so its
    generation becomes an error row at back-translation."""
    hints = {q.id: q.language for q in questions}
    places: list[tuple[int, str, int, LanguageTag]] = []
    for i, r in enumerate(retrievals):
        for part in ("raw_chunks", "kb_update_chunks"):
            for j, chunk in enumerate(getattr(r, part)):
                tag = text_tag(chunk.text, hints.get(r.question_id))
                if tag is not None and tag != ENGLISH:
                    places.append((i, part, j, tag))
    results = service.translate_each(
        [(tag, ENGLISH, getattr(retrievals[i], part)[j].text) for i, part, j, tag in places]
    )
    errors: dict[str, str] = {}
    chunks: dict[tuple[int, str], list[RetrievedChunk]] = {}
    for (i, part, j, _), result in zip(places, results, strict=True):
        current = chunks.setdefault((i, part), list(getattr(retrievals[i], part)))
        if result.ok:
            current[j] = current[j].model_copy(update={"text": result.text})
        else:
            qid = retrievals[i].question_id
            errors.setdefault(qid, f"chunk {current[j].chunk_id}: {result.error}")
    out = list(retrievals)
    for (i, part), new_chunks in chunks.items():
        out[i] = out[i].model_copy(update={part: new_chunks})
    return out, [_with_context_error(q, errors.get(q.id)) for q in questions]


def _with_context_error(question: Question, error: str | None) -> Question:
    """`question` with a chunk's failed translation on its record (a first failure kept)."""
    t = question.translation
    if error is None or t is None or t.status == "error":
        return question
    failed = t.model_copy(update={"status": "error", "error": error})
    return question.model_copy(update={"translation": failed})


def back_translate(
    service: TranslationService,
    questions: Sequence[Question],
    generations: Sequence[Generation],
) -> list[Generation]:
    """Each generation with its answer in the question's answer language and the model's
    English answer kept on `translation`; failures become `error` rows with the reason.

    `questions` are the questions as curated, each with its `translation` record."""
    by_id = {q.id: q for q in questions}
    out: list[Generation] = []
    pending: dict[int, LanguageTag] = {}
    for i, g in enumerate(generations):
        q = by_id[g.question_id]
        target = LanguageTag.of(q.answer_language)  # in its primary script
        record = ResponseTranslation(
            translator=service.name,
            target_language=target.code,
            status="error",
            query=question_for_prompt(q).text,
            pivot_response=g.response,
        )
        failure = _failure(q, g)
        if failure is not None:
            out.append(_failed(g, record, failure))
            continue
        if target == ENGLISH:
            record = record.model_copy(update={"status": "unchanged"})
        else:
            pending[i] = target
        out.append(g.model_copy(update={"translation": record}))
    results = service.translate_each(
        [(ENGLISH, target, generations[i].response or "") for i, target in pending.items()]
    )
    for i, result in zip(pending, results, strict=True):
        sent = out[i].translation
        assert sent is not None
        if result.ok:
            done = sent.model_copy(update={"status": "ok"})
            out[i] = out[i].model_copy(update={"response": result.text, "translation": done})
        else:
            out[i] = _failed(out[i], sent, f"back-translation failed: {result.error}")
    return out


def _failure(q: Question, g: Generation) -> str | None:
    t = q.translation
    if t is not None and t.status == "error":
        # The query translated but a passage or chunk did not: the context failed.
        part = "query" if t.text is None else "context"
        return f"{part} translation failed: {t.error}"
    if g.status != "ok":
        return f"no answer to back-translate: {g.error}"
    return None


def _failed(g: Generation, record: ResponseTranslation, reason: str) -> Generation:
    record = record.model_copy(update={"status": "error", "error": reason})
    return g.model_copy(
        update={
            "status": "error",
            "response": None,
            "error": g.error if g.status != "ok" else f"translate-test: {reason}",
            "translation": record,
        }
    )


def back_translate_generations(
    translator_cfg: TranslatorConfig,
    questions: Sequence[Question],
    generations: Sequence[Generation],
    cache: ResponseCache | None,
) -> list[Generation]:
    """`back_translate` with a translator made from config; `none` returns the input."""
    if translator_cfg.kind == "none":
        return list(generations)
    with closing(make_service(translator_cfg, cache)) as service:
        return back_translate(service, questions, generations)


def translate_inputs(
    translator_cfg: TranslatorConfig,
    questions: Sequence[Question],
    retrievals: Sequence[Retrieval],
    cache: ResponseCache | None,
) -> tuple[list[Question], list[Retrieval]]:
    """Everything a translate-test run needs in English: the questions (with their records,
    `text` still as asked) and, with `translate_context`, the retrieved chunks; `none`
    returns the inputs."""
    if translator_cfg.kind == "none":
        return list(questions), list(retrievals)
    with closing(make_service(translator_cfg, cache)) as service:
        translated = translate_questions(service, questions, translator_cfg.translate_context)
        if not translator_cfg.translate_context:
            return translated, list(retrievals)
        english, translated = translate_retrievals(service, translated, retrievals)
        return translated, english
