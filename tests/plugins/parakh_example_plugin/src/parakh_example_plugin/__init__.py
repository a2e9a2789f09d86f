"""An example Parakh plugin: `backend: echo`, the metric `contains_reference` and the dataset
adapter `qa_csv`, each registered in pyproject.toml."""
