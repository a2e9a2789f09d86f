"""Pipeline stages: curate, translate, index, generate, judge, aggregate.

Each module has a pure `run(...)` and a thin `main()` that reads config and writes files.
No stage imports another stage.
"""
