"""Hugging Face seq2seq translation models: find the weights offline, load lazily, generate.

Weights come from a local folder (`path`) or the Hugging Face cache; nothing is downloaded
unless the translator says `allow_download: true`. A missing model fails before any work with
the model id, the places looked in, and how to point the config at a local copy. A model is
identified for caching by its id, revision and a fingerprint of its files, which is computed
without loading it, so a fully cached run never loads a model at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import cached_property
from pathlib import Path
from typing import Any

from parakh.config.translator import IndicTrans2Config, NLLBConfig, WeightsRef
from parakh.errors import ConfigError, MissingDependencyError
from parakh.hashing import sha256_obj
from parakh.project import resolve
from parakh.text.languages import LanguageTag
from parakh.translation.base import Translated

INSTALL = "pip install -e '.[translate]'   # torch (CPU build) and transformers"
_FINGERPRINT_BYTES = 1 << 20


def require_transformers() -> tuple[Any, Any]:
    """(torch, transformers), or the install line to run."""
    try:
        import torch
        import transformers
    except ImportError as e:
        raise MissingDependencyError("transformers and torch", INSTALL) from e
    return torch, transformers


def missing_weights(
    translator: str, field: str, ref: WeightsRef, looked_in: str, reason: str
) -> ConfigError:
    local = f"/models/{ref.model_id.rsplit('/', 1)[-1]}"
    return ConfigError(
        f"translator '{translator}': weights for '{ref.model_id}' ({field}) not found ({reason}).\n"
        f"  Looked in: {looked_in}.\n"
        "  Nothing is downloaded at run time. Either copy the model to a folder once, e.g.\n"
        f"    hf download {ref.model_id} --local-dir {local}\n"
        f"  and set `{field}.path: {local}` in conf/translator/<name>.yaml (or pass "
        f"translator.{field}.path={local}),\n"
        "  or set `allow_download: true` (translator.allow_download=true) to fetch it into "
        "the Hugging Face cache."
    )


def resolve_weights(translator: str, field: str, ref: WeightsRef, allow_download: bool) -> Path:
    """The folder holding the model: `ref.path`, else its Hugging Face cache snapshot."""
    if ref.path:
        folder = resolve(Path(ref.path).expanduser())
        where = f"the local path {folder}"
        missing = "no such folder" if not folder.is_dir() else "the folder has no config.json"
    else:
        try:
            from huggingface_hub import constants, snapshot_download
        except ImportError as e:
            raise MissingDependencyError("transformers and torch", INSTALL) from e
        where = f"the Hugging Face cache at {constants.HF_HUB_CACHE} (`{field}.path` is not set)"
        try:
            snapshot = snapshot_download(
                ref.model_id, revision=ref.revision, local_files_only=not allow_download
            )
        except Exception as e:  # hub errors vary by version; each means "not available here"
            raise missing_weights(translator, field, ref, where, type(e).__name__) from e
        folder, missing = Path(str(snapshot)), "incomplete snapshot"
    if not (folder / "config.json").is_file():
        raise missing_weights(translator, field, ref, where, missing)
    return folder


def weights_fingerprint(folder: Path) -> str:
    """sha256 over each file's name, size and first MiB: changes when the weights change,
    and costs milliseconds even for gigabyte checkpoints."""
    entries = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts):
            continue
        with path.open("rb") as f:
            head = hashlib.sha256(f.read(_FINGERPRINT_BYTES)).hexdigest()
        entries.append((str(rel), path.stat().st_size, head))
    return sha256_obj(entries)


@dataclass
class Seq2SeqModel:
    """The checkpoint `cfg.<field>` names and its tokenizer, loaded on first use; its folder is
    found (or the missing weights reported) and its cache `identity` computed at once."""

    cfg: IndicTrans2Config | NLLBConfig
    field: str
    folder: Path = dc_field(init=False)
    identity: dict[str, str | None] = dc_field(init=False)  # model id, revision, fingerprint
    remote_code: bool = dc_field(init=False)  # the checkpoint's own modelling code is trusted
    loads: int = dc_field(default=0, init=False)  # times the weights were loaded

    def __post_init__(self) -> None:
        ref: WeightsRef = getattr(self.cfg, self.field)
        self.folder = resolve_weights(self.cfg.name, self.field, ref, self.cfg.allow_download)
        fingerprint = weights_fingerprint(self.folder)
        self.identity = {"model_id": ref.model_id, "revision": ref.revision, "weights": fingerprint}
        self.remote_code = getattr(self.cfg, "trust_remote_code", False)

    @cached_property
    def tokenizer(self) -> Any:
        _, transformers = require_transformers()
        return transformers.AutoTokenizer.from_pretrained(
            str(self.folder), local_files_only=True, trust_remote_code=self.remote_code
        )

    @cached_property
    def model(self) -> Any:
        torch, transformers = require_transformers()
        model = transformers.AutoModelForSeq2SeqLM.from_pretrained(
            str(self.folder),
            local_files_only=True,
            trust_remote_code=self.remote_code,
            dtype=getattr(torch, self.cfg.dtype),
        )
        self.loads += 1
        return model.to(self.cfg.device).eval()

    def token_id(self, token: str) -> int | None:
        """The id of a single vocabulary token (a language tag), or None if it has none."""
        token_id = self.tokenizer.convert_tokens_to_ids(token)
        return None if token_id in (None, self.tokenizer.unk_token_id) else int(token_id)

    def translate(
        self,
        texts: Sequence[str],
        forced_bos_token_id: int | None = None,
        finish: Callable[[int, str], str] = lambda i, output: output,
    ) -> list[Translated]:
        """Translate one batch of prepared texts, in order, with the config's decoding settings.
        A text over `max_input_tokens` (special tokens included) fails with its length, never
        silently truncated. `finish(i, output)` post-processes text i."""
        max_input_tokens = self.cfg.max_input_tokens
        lengths = [len(ids) for ids in self.tokenizer(list(texts))["input_ids"]]
        too_long = f"sentence of {{}} tokens is longer than max_input_tokens ({max_input_tokens})"
        results = [Translated(text=None, error=too_long.format(n)) for n in lengths]
        fits = [i for i, n in enumerate(lengths) if n <= max_input_tokens]
        if not fits:
            return results
        torch, _ = require_transformers()
        inputs = self.tokenizer([texts[i] for i in fits], return_tensors="pt", padding=True)
        kwargs: dict[str, Any] = {
            "num_beams": self.cfg.num_beams,
            "max_new_tokens": self.cfg.max_new_tokens,
        }
        if forced_bos_token_id is not None:
            kwargs["forced_bos_token_id"] = forced_bos_token_id
        with torch.inference_mode():
            inputs = {k: v.to(self.cfg.device) for k, v in inputs.items()}
            output = self.model.generate(**inputs, **kwargs)
        decoded: list[str] = self.tokenizer.batch_decode(output, skip_special_tokens=True)
        for i, text in zip(fits, decoded, strict=True):
            text = finish(i, text.strip())
            results[i] = Translated(text=text) if text else Translated(None, "empty translation")
        return results

    def close(self) -> None:
        self.__dict__.pop("model", None)  # loaded again if used again
        self.__dict__.pop("tokenizer", None)


def model_tag(tag: LanguageTag, overrides: dict[str, str]) -> str:
    """The tag a model uses for `tag`: a config override by code or FLORES tag, else FLORES."""
    return overrides.get(tag.flores, overrides.get(tag.code, tag.flores))


def no_tag_error(model: str, tag: str, language: LanguageTag) -> ValueError:
    """`model` has no tag for `language` (romanized text: use an LLM translator)."""
    hint = " (romanized text is not supported; use an LLM translator)" if language.romanized else ""
    return ValueError(f"{model} has no language tag '{tag}'{hint}")
