"""translate: translate-test inputs. With `translator=none` (default) questions pass through.

python -m parakh.stages.translate dataset=demo translator=none
"""

from __future__ import annotations

from parakh.config import ParakhConfig, hydra_entry
from parakh.errors import ConfigError
from parakh.io import read_jsonl, write_jsonl
from parakh.layout import Layout, spec_path
from parakh.schema import Question
from parakh.tracking.runspec import write_run_spec


def run(cfg: ParakhConfig, questions: list[Question]) -> list[Question]:
    if cfg.translator.kind == "none":
        return questions
    raise ConfigError(f"translator kind '{cfg.translator.kind}' is not available")


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    questions = read_jsonl(layout.curated_questions, Question)
    out = run(cfg, questions)
    write_jsonl(layout.translated_questions, out)
    write_run_spec(
        spec_path(layout.translated_questions),
        stage="translate",
        config={"translator": cfg.translator.model_dump()},
        inputs={"questions": layout.curated_questions},
    )
    print(
        f"translate ({cfg.translator.name}): {len(out)} questions -> {layout.translated_questions}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
