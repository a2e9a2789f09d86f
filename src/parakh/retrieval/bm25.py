"""BM25 over chunks with a tokenizer that keeps Indic scripts whole (bm25s underneath).

Words are `parakh.text.tokenize.tokenize` tokens: runs of letters, combining marks and digits,
NFC-normalised and lower-cased, so matras, viramas and nuktas stay inside their word (a
whitespace or `\\w+` tokenizer splits or glues them). A chunk that shares no word with the
query scores zero and is never returned: BM25 has no opinion about it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from parakh.config.retrieval import BM25Params
from parakh.errors import MissingDependencyError
from parakh.retrieval.index import top_k_stable
from parakh.text.tokenize import tokenize

Tokenizer = Callable[[str], list[str]]


def whitespace_tokenize(text: str) -> list[str]:
    """The baseline: lower-cased words split on whitespace, punctuation left attached."""
    return text.lower().split()


TOKENIZERS: dict[str, Tokenizer] = {"script_aware": tokenize, "whitespace": whitespace_tokenize}


class BM25Index:
    def __init__(self, texts: Sequence[str], params: BM25Params | None = None) -> None:
        params = params or BM25Params()
        self.size = len(texts)
        self._tokenizer = tokenizer = TOKENIZERS[params.tokenizer]
        self._model: Any = None
        if self.size:
            try:
                import bm25s
            except ImportError as e:
                raise MissingDependencyError("bm25s", "pip install bm25s") from e
            self._model = bm25s.BM25(k1=params.k1, b=params.b, method=params.method)
            self._model.index([tokenizer(t) for t in texts], show_progress=False)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every chunk for `query`; -inf where the chunk shares no word."""
        words = self._tokenizer(query)
        if not self.size or not words:
            return np.full(self.size, -np.inf)
        raw = np.asarray(self._model.get_scores(words), dtype=np.float64)
        return np.where(raw > 0, raw, -np.inf)

    def search(self, queries: Sequence[str], k: int) -> list[list[tuple[int, float]]]:
        """The k best (chunk position, score) pairs per query, ties broken by position."""
        return [top_k_stable(self.scores(q), k) for q in queries]
