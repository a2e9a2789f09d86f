"""k-shot examples, drawn deterministically from questions that are never evaluated.

The pool is a file of `Question` rows (a dev split, or any held-out set); it must share no id
and no question text with the evaluated questions, or the run fails before any model call.
Examples are the same for every question of a language: the pool is ordered by a seeded hash
of each id and the first k of the question's language are taken, topped up from other languages
when there are fewer than k. This is Parakh's own choice, made so that runs are reproducible,
not one taken from a paper.
"""

from __future__ import annotations

from collections.abc import Sequence

from parakh.config.generation import FewShotConfig
from parakh.errors import ConfigError
from parakh.hashing import sha256_text
from parakh.io import read_jsonl
from parakh.project import resolve
from parakh.schema import Question
from parakh.text.normalize import canonical_text


def load_pool(
    cfg: FewShotConfig, evaluated: Sequence[Question], dataset_pool: str | None = None
) -> list[Question]:
    """The example pool (`generation.fewshot.path`, else the dataset's), ordered by seeded hash;
    [] when k is 0."""
    pool_path = cfg.path if cfg.path is not None else dataset_pool
    if cfg.k == 0:
        return []
    if pool_path is None:
        raise ConfigError(
            "generation.fewshot.k > 0 needs a pool of examples: set the dataset's fewshot_pool "
            "or generation.fewshot.path to a questions JSONL that is never evaluated (e.g. a "
            "dev split)"
        )
    path = resolve(pool_path)
    if not path.is_file():
        raise ConfigError(f"generation.fewshot.path: no file at {path}")
    pool = read_jsonl(path, Question)
    check_disjoint(pool, evaluated, str(path))
    return sorted(pool, key=lambda q: sha256_text(f"{cfg.seed}:{q.id}"))


def check_disjoint(pool: Sequence[Question], evaluated: Sequence[Question], where: str) -> None:
    """Few-shot examples that are also test items would leak answers: refuse them."""
    ids = {q.id for q in evaluated}
    texts = {_match_key(q.text) for q in evaluated}
    for example in pool:
        if example.id in ids or _match_key(example.text) in texts:
            raise ConfigError(
                f"{where}: few-shot example '{example.id}' is also an evaluated question; the "
                "few-shot pool must come from a split that is never evaluated"
            )


def choose_examples(
    pool: Sequence[Question], question: Question, cfg: FewShotConfig
) -> list[Question]:
    """The k examples for `question` (same language first when `same_language`)."""
    if cfg.same_language:  # a stable sort: pool order within each side
        pool = sorted(pool, key=lambda q: q.language != question.language)
    return list(pool[: cfg.k])


def _match_key(text: str) -> str:
    return " ".join(canonical_text(text).casefold().split())
