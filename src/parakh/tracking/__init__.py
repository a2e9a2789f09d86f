"""Run specs, code versions and MLflow logging."""
