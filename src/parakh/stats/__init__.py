"""Statistics behind the leaderboards: seeded bootstrap intervals, paired tests, rank intervals,
judge-human agreement with declared scale mappings; pure numpy, the same on every machine."""
