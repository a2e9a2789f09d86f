"""Translate whole texts: segment, look up the cache, batch the rest, rejoin.

Every translator goes through `translate_texts`, so all of them share sentence segmentation,
de-duplication of repeated sentences, batching and the response cache. The cache is the
generation cache (`parakh.backends.cache.ResponseCache`, one SQLite file); a translation's key
is the sha256 of the translator's identity, the language pair and the sentence, namespaced so
that it never meets a generation key. Failed sentences are never cached.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tqdm import tqdm

from parakh.backends.base import Completion
from parakh.backends.cache import ResponseCache
from parakh.config.translator import TranslatorConfig
from parakh.hashing import sha256_obj
from parakh.text.languages import LanguageTag
from parakh.text.sentences import Segmented, segment
from parakh.translation.base import Translated, Translator, make_translator


@dataclass(frozen=True)
class TextTranslation(Translated):
    """A whole text's translation, or the reason there is none (the first failed sentence's),
    with how many of its sentences there were and how many came from the cache."""

    sentences: int = 0
    cached_sentences: int = 0


class TranslationService:
    """A translator with its cache and batch size: the object stages and commands hold."""

    def __init__(
        self,
        translator: Translator,
        cache: ResponseCache | None,
        segment_sentences: bool = True,
        show_progress: bool = True,
    ) -> None:
        self.translator, self.name = translator, translator.name
        self.show_progress = show_progress  # a bar per language pair on stderr
        self.cache = cache
        self.segment_sentences = segment_sentences
        self.batch_size = translator.cfg.batch_size

    def translate_texts(
        self, texts: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[TextTranslation]:
        """Each text from `source` to `target`, in order; same-language pairs and blank texts
        come back unchanged without a translator call."""
        if source == target:
            return [TextTranslation(text=t) for t in texts]
        segmented = [segment(t, self.segment_sentences) for t in texts]
        unique = list(dict.fromkeys(s for seg in segmented for s in seg.sentences))
        results, hits = self._translate_sentences(unique, source, target)
        return [self._rejoin(seg, results, hits) for seg in segmented]

    def translate_each(
        self, requests: Sequence[tuple[LanguageTag, LanguageTag, str]]
    ) -> list[TextTranslation]:
        """Each (source, target, text), in order: one `translate_texts` call per language pair,
        the pairs in the order they first appear."""
        by_pair: dict[tuple[LanguageTag, LanguageTag], list[int]] = defaultdict(list)
        for i, (source, target, _) in enumerate(requests):
            by_pair[source, target].append(i)
        out: dict[int, TextTranslation] = {}
        for (source, target), places in by_pair.items():
            texts = [requests[i][2] for i in places]
            out.update(zip(places, self.translate_texts(texts, source, target), strict=True))
        return [out[i] for i in range(len(requests))]

    def _translate_sentences(
        self, sentences: list[str], source: LanguageTag, target: LanguageTag
    ) -> tuple[dict[str, Translated], set[str]]:
        # a sentence's cache key: translator identity, language pair, sentence
        request = {"kind": "translation", "translator": self.translator.identity()}
        request |= {"source": source.flores, "target": target.flores}
        keys = {s: sha256_obj({**request, "text": s}) for s in sentences}
        results: dict[str, Translated] = {}
        for sentence, key in keys.items():
            hit = self.cache.get(key) if self.cache is not None else None
            if hit is not None and hit.text is not None:
                results[sentence] = Translated(text=hit.text)
        hits = set(results)
        todo = [s for s in sentences if s not in hits]
        bar = tqdm(
            total=len(sentences),
            initial=len(hits),
            desc=f"translate {source.code}->{target.code}",
            unit="sentence",
            disable=not self.show_progress or not todo,
            dynamic_ncols=True,
        )
        with bar:
            for start in range(0, len(todo), self.batch_size):
                batch = todo[start : start + self.batch_size]
                translated = self.translator.translate_batch(batch, source, target)
                if len(translated) != len(batch):
                    raise RuntimeError(
                        f"translator '{self.name}' returned {len(translated)} results for "
                        f"{len(batch)} sentences"
                    )
                for sentence, result in zip(batch, translated, strict=True):
                    results[sentence] = result
                    if result.ok and self.cache is not None:
                        self.cache.put(keys[sentence], Completion(text=result.text))
                failed = [r.error for r in translated if not r.ok]
                if failed:  # one line per batch that lost sentences, above the bar
                    tqdm.write(
                        f"translate {source.code}->{target.code}: {len(failed)} of {len(batch)} "
                        f"sentences of batch {start // self.batch_size + 1} failed "
                        f"({failed[0]}); their texts carry the reason",
                        file=sys.stderr,
                    )
                bar.update(len(batch))
        return results, hits

    @staticmethod
    def _rejoin(seg: Segmented, results: dict[str, Translated], hits: set[str]) -> TextTranslation:
        n, cached = len(seg.sentences), sum(s in hits for s in seg.sentences)
        failed = [results[s] for s in seg.sentences if not results[s].ok]
        if failed:
            error = failed[0].error or "empty translation"
            return TextTranslation(text=None, error=error, sentences=n, cached_sentences=cached)
        joined = seg.join([results[s].text or "" for s in seg.sentences])
        return TextTranslation(text=joined, sentences=n, cached_sentences=cached)

    def close(self) -> None:
        self.translator.close()


def make_service(cfg: TranslatorConfig, cache: ResponseCache | None) -> TranslationService:
    """A translation service for an active translator config (`none` is a ConfigError)."""
    translator = make_translator(cfg)
    assert cfg.kind != "none"
    return TranslationService(translator, cache, segment_sentences=cfg.segment)
