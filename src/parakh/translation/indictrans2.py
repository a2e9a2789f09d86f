"""IndicTrans2 through `transformers`: indic-en and en-indic checkpoints, FLORES tags in text.

Each input is `src_tag tgt_tag sentence` after the preparation in
`parakh.translation.indic_processing`; outputs are turned back into the target script. Between
two Indic languages the sentence goes through English (indic-en, then en-indic).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parakh.config.translator import IndicTrans2Config
from parakh.text.languages import ENGLISH, LanguageTag
from parakh.translation import indic_processing
from parakh.translation.base import Translated, Translator
from parakh.translation.hf import Seq2SeqModel, model_tag, no_tag_error

# The languages the public IndicTrans2 checkpoints were trained on (FLORES-200 tags).
INDICTRANS2_TAGS = frozenset(
    {
        "asm_Beng", "ben_Beng", "brx_Deva", "doi_Deva", "eng_Latn", "gom_Deva", "guj_Gujr",
        "hin_Deva", "kan_Knda", "kas_Arab", "kas_Deva", "mai_Deva", "mal_Mlym", "mar_Deva",
        "mni_Beng", "mni_Mtei", "npi_Deva", "ory_Orya", "pan_Guru", "san_Deva", "sat_Olck",
        "snd_Arab", "snd_Deva", "tam_Taml", "tel_Telu", "urd_Arab",
    }
)  # fmt: skip


class IndicTrans2Translator(Translator):
    cfg: IndicTrans2Config

    def __init__(self, cfg: IndicTrans2Config) -> None:
        super().__init__(cfg)
        # Found now, so missing weights fail before any work; loaded only when needed.
        self.models = {field: Seq2SeqModel(cfg, field) for field in ("indic_en", "en_indic")}

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "indictrans2",
            "models": {field: model.identity for field, model in self.models.items()},
            "num_beams": self.cfg.num_beams,
            "max_new_tokens": self.cfg.max_new_tokens,
            "language_tags": self.cfg.language_tags,
            "preparation": 1,  # bump when indic_processing changes what the model sees
        }

    def tag(self, language: LanguageTag) -> str:
        tag = model_tag(language, self.cfg.language_tags)
        if tag not in INDICTRANS2_TAGS and tag not in self.cfg.language_tags.values():
            raise no_tag_error("IndicTrans2", tag, language)
        return tag

    def translate_batch(
        self, sentences: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[Translated]:
        try:
            self.tag(source)
            self.tag(target)
        except ValueError as e:
            return [Translated(text=None, error=str(e)) for _ in sentences]
        if source.code == "en" or target.code == "en":
            return self._translate(sentences, source, target)
        results = self._translate(sentences, source, ENGLISH)  # Indic -> Indic through English
        ok = [i for i, r in enumerate(results) if r.ok]
        onward = self._translate([results[i].text or "" for i in ok], ENGLISH, target)
        for i, r in zip(ok, onward, strict=True):
            results[i] = r
        return results

    def _translate(
        self, sentences: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[Translated]:
        if not sentences:
            return []
        model = self.models["indic_en" if target.code == "en" else "en_indic"]
        tags = (self.tag(source), self.tag(target))
        prepared = [indic_processing.preprocess(s, source, target, tags) for s in sentences]
        return model.translate(
            [p.text for p in prepared],
            finish=lambda i, output: indic_processing.postprocess(
                output, target, prepared[i].entities
            ),
        )

    def close(self) -> None:
        for model in self.models.values():
            model.close()
