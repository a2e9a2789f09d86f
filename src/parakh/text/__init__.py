"""Text handling across Indic scripts: normalisation and tokenisation for the metrics."""
