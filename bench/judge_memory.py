"""Judge memory and time at scale: `python -m parakh.stages.judge` on N synthetic answers.

Acceptance (#19 item 3): the judge's peak memory at N = 100,000 questions stays under 1 GB.
The project is built in a throw-away folder: N curated questions in five languages with a
reference answer and categories, one model's answers carrying realistic prompts (a system
message and a knowledge base of about 2 KB, as generate writes them), and the retrieved chunks.
The stage runs as dvc.yaml runs it, in a child process (`judge=reference`, one model, no
progress bar); its wall time and peak RSS (the child's `rusage` from `os.wait4`, which is
`resource.getrusage(RUSAGE_CHILDREN)` for that child alone) are recorded with N, the input
sizes and the sha256 of the rows and summary it wrote, so two runs (e.g. before and after a
change, with `--src` naming the other checkout's `src/`, whose `conf/` beside it is used too)
can be compared for byte-identical output.

    python bench/judge_memory.py [--questions 100000] [--judge reference] [--label after]
        [--src PATH] [--shards N] [--output bench/results/judge_memory.json]

`--shards N` judges in N shards (each recorded) and measures `parakh merge-shards judge` instead.
`--rubric-sample K` judges with `bench_rubric` instead: the reference metrics and the coherence
rubric, scored by a scripted judge model (no server) on K questions per language, the others'
rubric rows `skipped`, as the smoke and served judges sample.

Each run is stored under its `--label` in the output file, beside the runs already there.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from parakh.hashing import sha256_path
from parakh.io import atomic_open, dumps, write_json

REPO = Path(__file__).resolve().parents[1]
OUTPUT = Path(__file__).resolve().parent / "results" / "judge_memory.json"
BOUND_BYTES = 1 << 30
MODEL = "extractive"  # a model config judge=reference needs; nothing is loaded or asked

SENTENCES = {
    "en": [
        "Use the eye drops four times a day for one month after the surgery.",
        "Do not wash your head for ten days, and keep water out of the operated eye.",
        "Wear the dark glasses outdoors and the eye shield at night for a week.",
        "There are no food restrictions after cataract surgery; eat as you usually do.",
    ],
    "hi": [
        "सर्जरी के बाद एक महीने तक दिन में चार बार आँख की दवा डालें।",
        "दस दिनों तक सिर न धोएँ और ऑपरेशन वाली आँख में पानी न जाने दें।",
        "एक हफ्ते तक बाहर काला चश्मा और रात में आँख की ढाल पहनें।",
        "मोतियाबिंद की सर्जरी के बाद खाने पर कोई रोक नहीं है।",
    ],
    "ta": [
        "அறுவை சிகிச்சைக்குப் பிறகு ஒரு மாதம் நாளுக்கு நான்கு முறை கண் சொட்டு மருந்து போடவும்.",
        "பத்து நாட்களுக்கு தலைக்கு குளிக்க வேண்டாம்.",
        "ஒரு வாரம் வெளியே கருப்புக் கண்ணாடி அணியவும்.",
        "உணவில் எந்தக் கட்டுப்பாடும் இல்லை.",
    ],
    "te": [
        "శస్త్రచికిత్స తర్వాత ఒక నెల పాటు రోజుకు నాలుగు సార్లు కంటి చుక్కలు వేయండి.",
        "పది రోజుల పాటు తలస్నానం చేయవద్దు.",
        "ఒక వారం బయట నల్ల కళ్లజోడు పెట్టుకోండి.",
        "ఆహారంపై ఎలాంటి నిషేధం లేదు.",
    ],
    "kn": [
        "ಶಸ್ತ್ರಚಿಕಿತ್ಸೆಯ ನಂತರ ಒಂದು ತಿಂಗಳು ದಿನಕ್ಕೆ ನಾಲ್ಕು ಬಾರಿ ಕಣ್ಣಿನ ಹನಿಗಳನ್ನು ಹಾಕಿ.",
        "ಹತ್ತು ದಿನಗಳ ಕಾಲ ತಲೆಗೆ ಸ್ನಾನ ಮಾಡಬೇಡಿ.",
        "ಒಂದು ವಾರ ಹೊರಗೆ ಕಪ್ಪು ಕನ್ನಡಕ ಧರಿಸಿ.",
        "ಆಹಾರದ ಮೇಲೆ ಯಾವುದೇ ನಿರ್ಬಂಧವಿಲ್ಲ.",
    ],
}
LANGUAGES = sorted(SENTENCES)
CATEGORIES = (["condition-specific"], [], ["misspelled", "non-native"], ["unanswerable"])
SYSTEM = (
    "You are HealthBot, an assistant that answers questions from patients and their attendants "
    "about cataract surgery at an eye hospital. Answer concisely, in at most three sentences, "
    "using only the knowledge base given below. Never use outside knowledge. The knowledge base "
    "has two parts: RawChunks, taken from the hospital's documents, and KBUpdateChunks, answers "
    "written later by the hospital's doctors. KBUpdateChunks are newer and listed newest first: "
    "when they disagree with RawChunks, or with each other, follow the newest KBUpdateChunk. If "
    'the knowledge base does not contain the answer, reply exactly: "I do not know the answer '
    "to your question. If this needs to be answered by a doctor, please schedule a "
    'consultation."'
)


def _text(language: str, i: int, count: int) -> str:
    pool = SENTENCES[language]
    return " ".join(pool[(i + k) % len(pool)] for k in range(count))


def build_project(root: Path, n: int, conf: Path) -> dict[str, int]:
    """`conf` (a checkout's conf/) and the curate, index and generate outputs of N questions;
    returns each input file's size in bytes."""
    shutil.copytree(conf, root / "conf")
    processed = root / "data" / "processed" / "demo"
    files = {
        "questions": processed / "curate" / "questions.jsonl",
        "retrieval": processed / "index" / "retrieval.jsonl",
        "generations": processed / "generate" / f"{MODEL}.jsonl",
    }
    with (
        atomic_open(files["questions"]) as questions,
        atomic_open(files["retrieval"]) as retrieval,
        atomic_open(files["generations"]) as generations,
    ):
        for i in range(n):
            language = LANGUAGES[i % len(LANGUAGES)]
            qid = f"q{i:06d}"
            question = {
                "id": qid,
                "text": f"{_text(language, i, 1)} ({i})?",
                "language": language,
                "response_language": language,
                "categories": CATEGORIES[i % len(CATEGORIES)],
                "reference_answers": [_text(language, i + 1, 2)],
                "domain": "cataract-surgery",
            }
            questions.write(dumps(question) + "\n")
            chunks = [
                {
                    "chunk_id": f"raw:doc{(i + k) % 50}#{k}",
                    "document_id": f"raw:doc{(i + k) % 50}",
                    "kind": "raw",
                    "score": round(0.9 - k / 20, 4),
                    "text": _text(language, i + k, 3),
                }
                for k in range(4)
            ]
            retrieval.write(
                dumps({"question_id": qid, "raw_chunks": chunks, "kb_update_chunks": []}) + "\n"
            )
            knowledge = "\n".join(f"[{k + 1}] {c['text']}" for k, c in enumerate(chunks))
            user = (
                f"RawChunks:\n{knowledge}\n\nKBUpdateChunks:\n(none)\n\nQuery: {question['text']}"
            )
            response = _text(language, i + (i % 3), 1 + i % 3)
            generation = {
                "question_id": qid,
                "model": MODEL,
                "status": "error" if i % 97 == 0 else "ok",
                "response": None if i % 97 == 0 else response,
                "error": "HTTP 500: server error" if i % 97 == 0 else None,
                "messages": [
                    {"role": "system", "content": SYSTEM},
                    {"role": "user", "content": user},
                ],
                "usage": {"prompt_tokens": 480, "completion_tokens": 40},
                "latency_s": 0.5,
                "request_hash": f"{i:064x}",
            }
            generations.write(dumps(generation) + "\n")
    return {name: path.stat().st_size for name, path in files.items()}


def add_rubric_judge(root: Path, per_language: int) -> str:
    """conf/judge/bench_rubric.yaml and its scripted judge model; returns the judge's name."""
    verdict = json.dumps({"Score": 2, "Justification": "scripted verdict"})
    juror = {"name": "bench_juror", "backend": "scripted", "default_response": verdict}
    (root / "conf" / "model" / "bench_juror.yaml").write_text(json.dumps(juror))
    judge = {
        "defaults": [{"/model@model": "bench_juror"}],
        "name": "bench_rubric",
        "prompt": "judge_healthbot",
        "rubrics": ["coherence"],
        "reference_metrics": ["token_f1", "rouge_l", "chrf", "language_match"],
        "sample_per_language": per_language,
    }
    (root / "conf" / "judge" / "bench_rubric.yaml").write_text(json.dumps(judge))
    return "bench_rubric"


def run_child(root: Path, module: str, overrides: list[str], src: Path | None) -> dict[str, Any]:
    """`python -m <module> <overrides>` in the project, in a child process: wall time, peak
    RSS (the child's own `rusage`, from `os.wait4`: what `RUSAGE_CHILDREN` gives for one
    child), exit code and the last lines it printed."""
    env = {**os.environ, "PARAKH_ROOT": str(root)}
    if src is not None:  # another checkout's code, ahead of the installed one
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(src), env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", module, *overrides]
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        tail = log.read().decode("utf-8", "replace").strip().splitlines()[-3:]
    return {
        "command": " ".join(command[1:]),
        "returncode": child.returncode,
        "wall_s": round(wall, 2),
        "peak_rss_bytes": usage.ru_maxrss * 1024,  # Linux: KiB
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
        "output_tail": tail,
    }


def stage_overrides(judge: str) -> list[str]:
    return ["dataset=demo", f"model={MODEL}", f"judge={judge}", "progress=false"]


def outputs(root: Path, judge: str) -> dict[str, Any]:
    rows = root / "data" / "processed" / "demo" / "judge" / judge / f"{MODEL}.jsonl"
    summary = rows.with_name(f"{MODEL}.summary.json")
    if not rows.is_file():
        return {}
    with rows.open("rb") as f:
        count = sum(1 for _ in f)
    return {
        "rows": count,
        "rows_bytes": rows.stat().st_size,
        "rows_sha256": sha256_path(rows),
        "summary_sha256": sha256_path(summary),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=100_000)
    parser.add_argument("--judge", default="reference")
    parser.add_argument("--label", default="current", help="the key this run is stored under")
    parser.add_argument(
        "--src", type=Path, default=None, help="run this src/ instead, with the conf/ beside it"
    )
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--keep", type=Path, default=None, help="build the project here, keep it")
    parser.add_argument(
        "--shards", type=int, default=0, help="judge in this many shards, then merge-shards"
    )
    parser.add_argument(
        "--rubric-sample", type=int, default=0, help="judge=bench_rubric, K questions a language"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="parakh-judge-memory-") as scratch:
        root = args.keep or Path(scratch) / "project"
        start = time.perf_counter()
        conf = REPO / "conf" if args.src is None else args.src.parent / "conf"
        sizes = build_project(root, args.questions, conf)
        built = time.perf_counter() - start
        if args.rubric_sample:
            args.judge = add_rubric_judge(root, args.rubric_sample)
        overrides = stage_overrides(args.judge)
        shard_runs = [
            run_child(
                root,
                "parakh.stages.judge",
                [*overrides, f"shard={i}", f"num_shards={args.shards}"],
                args.src,
            )
            for i in range(args.shards)
        ]
        if args.shards:  # the merge is what is measured; the shards are recorded beside it
            merge = ["merge-shards", "judge", *overrides, f"num_shards={args.shards}"]
            measured = run_child(root, "parakh.cli", merge, args.src)
        else:
            measured = run_child(root, "parakh.stages.judge", overrides, args.src)
        written = outputs(root, args.judge)
    result = {
        "questions": args.questions,
        "judge": args.judge,
        **({"rubric_sample_per_language": args.rubric_sample} if args.rubric_sample else {}),
        "model": MODEL,
        "src": str(args.src) if args.src else "this checkout",
        "input_bytes": sizes,
        "build_s": round(built, 1),
        **measured,
        **written,
        "bound_bytes": BOUND_BYTES,
        "passes": measured["returncode"] == 0 and measured["peak_rss_bytes"] < BOUND_BYTES,
        "cpus": os.cpu_count(),
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
    }
    if shard_runs:
        result["shard_runs"] = shard_runs
    previous = json.loads(args.output.read_text()) if args.output.is_file() else {}
    previous.setdefault("runs", {})[args.label] = result
    write_json(args.output, previous)
    print(
        f"{args.label}: {'merge of ' * bool(args.shards)}judge={args.judge} N={args.questions}: "
        f"exit {measured['returncode']}, "
        f"wall {measured['wall_s']} s, peak RSS {measured['peak_rss_mib']} MiB "
        f"({'PASS' if result['passes'] else 'FAIL'} < 1 GiB) -> {args.output}"
    )


if __name__ == "__main__":
    main()
