"""Curation: turning adapter output into questions the other stages can trust.

Language labels (`labels`), hygiene (`hygiene`: duplicates, conflicts, relevance filter), PII
redaction (`redaction`), query-category tags (`categories`), quarantine files (`quarantine`) and
the curation report (`report`). The curate stage strings them together.
"""
