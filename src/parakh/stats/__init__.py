"""Statistics behind the leaderboards: seeded bootstrap intervals, paired tests between models,
rank intervals, and judge-human agreement with declared scale mappings.

Everything here is pure numpy on plain arrays, seeded explicitly, so the same inputs give the
same numbers on every run and every machine.
"""
