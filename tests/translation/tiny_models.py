"""Tiny randomly initialised seq2seq checkpoints built on the spot (no download).

An M2M100 model (d_model 16, one layer each side) saved with either a word-level tokenizer
whose added special tokens are IndicTrans2's FLORES tags (tags travel in the text), or an
`NllbTokenizer` trained as BPE on a few sentences (tags set through `src_lang`). Weights are
random, so outputs are gibberish, but deterministic: enough to check tags, segmentation,
re-joining, batching and caching.
"""

from __future__ import annotations

import json
from pathlib import Path

SPECIAL = ["<s>", "<pad>", "</s>", "<unk>"]
INDICTRANS2_TAGS = ["eng_Latn", "hin_Deva", "tam_Taml", "kan_Knda"]
CORPUS = [
    "Use the eye drops four times a day .",
    "Do not wash your head for ten days .",
    "ऑपरेशन के बाद सिर से कब नहा सकते हैं ?",
    "आँख में ड्रॉप दिन में कितनी बार डालनी है ?",
    "दवा दिन में चार बार डालें ।",
]


def _m2m100(vocab_size: int, folder: Path, seed: int, suppress: list[int]) -> None:
    """Save a random M2M100; `suppress` ids are never generated (so no output is empty)."""
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration

    torch.manual_seed(seed)
    config = M2M100Config(
        vocab_size=vocab_size,
        d_model=16,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=32,
        decoder_ffn_dim=32,
        max_position_embeddings=128,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
        decoder_start_token_id=2,
        init_std=1.0,  # large random weights: outputs vary with the input
    )
    model = M2M100ForConditionalGeneration(config)
    model.generation_config.suppress_tokens = suppress
    model.save_pretrained(folder)


def build_indictrans2_like(folder: Path, seed: int = 0) -> Path:
    """A word-level tokenizer over CORPUS (IndicTrans2-style tokenized text) + FLORES tags."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    words = sorted({w for s in CORPUS for w in s.split()})
    vocab = {t: i for i, t in enumerate(SPECIAL + words)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.add_special_tokens(INDICTRANS2_TAGS)
    tok.post_processor = processors.TemplateProcessing(
        single="$A </s>", special_tokens=[("</s>", vocab["</s>"])]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        pad_token="<pad>",
        eos_token="</s>",
        unk_token="<unk>",
        additional_special_tokens=INDICTRANS2_TAGS,
    )
    folder.mkdir(parents=True, exist_ok=True)
    fast.save_pretrained(folder)
    _m2m100(len(fast), folder, seed, fast.convert_tokens_to_ids(SPECIAL + INDICTRANS2_TAGS))
    return folder


def build_nllb_like(folder: Path, seed: int = 0) -> Path:
    """An `NllbTokenizer` (all FLORES-200 tags) over a BPE trained on CORPUS."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import NllbTokenizer

    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    bpe.train_from_iterator(CORPUS, trainers.BpeTrainer(vocab_size=300, special_tokens=SPECIAL))
    model = json.loads(bpe.to_str())["model"]
    merges = [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]]
    tokenizer = NllbTokenizer(vocab=model["vocab"], merges=merges)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(folder)
    # forced target tags must stay possible; every other special token is suppressed
    forced = {"eng_Latn", "hin_Deva", "tam_Taml"}
    specials = SPECIAL + [t for t in tokenizer.extra_special_tokens if t not in forced]
    _m2m100(len(tokenizer), folder, seed, tokenizer.convert_tokens_to_ids(specials))
    return folder
