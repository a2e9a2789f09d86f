"""Rubric LLM judges: rubrics as data, constrained JSON output, strict parsing."""
