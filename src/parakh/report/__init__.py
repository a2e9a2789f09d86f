"""Leaderboards, plots and reports computed from per-sample judge rows."""
