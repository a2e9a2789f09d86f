"""Parakh's metrics as Hugging Face `evaluate` modules, shipped inside the package.

Each module is one file here that `evaluate.load` takes by path, so it loads with no Hub
lookup and works with the network cut:

    import evaluate
    from parakh import evaluate_metrics

    rouge = evaluate.load(str(evaluate_metrics.path("rouge_l")))
    rouge.compute(predictions=["भारत की राजधानी"], references=[["भारत की राजधानी"]])
    # {'rouge_l': 1.0}

The modules call the `parakh.metrics` functions the judge stage calls, so their figures are
Parakh's: Indic-correct exact match, token F1, ROUGE-L (rouge-score's scorer with Parakh's
Unicode tokenizer), sentence chrF, and NoMIRACL hallucination and error rates (the paper's
FP/(FP+TN) and FN/(FN+TP), invalid outputs apart). They import `evaluate`
(`pip install 'parakh[evaluate]'`); this package does not.
"""

from __future__ import annotations

from pathlib import Path

# The reference metrics (`_reference.ReferenceMetricModule`) and NoMIRACL's rates.
MODULES: tuple[str, ...] = ("exact_match", "token_f1", "rouge_l", "chrf", "nomiracl")


def path(name: str) -> Path:
    """The file of the `evaluate` module `name`, for `evaluate.load(str(path(name)))`."""
    if name not in MODULES:
        from parakh.config.loading import unknown_name_message

        raise ValueError(unknown_name_message("evaluate module", name, MODULES))
    return Path(__file__).with_name(f"{name}.py")
