"""Metrics: reference-based lexical metrics and NoMIRACL hallucination / error rates."""
