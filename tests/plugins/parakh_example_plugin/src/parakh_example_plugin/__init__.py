"""An example Parakh plugin: `backend: echo`, the metric `contains_reference`, the judge
`prompt_compliance` and the dataset adapter `qa_csv`, each registered in pyproject.toml."""
