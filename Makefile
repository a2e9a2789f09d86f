# Parakh: `make demo` runs the whole pipeline offline on the bundled demo data;
# `make test` runs the test suite. Both create .venv and install what they need first.
VENV   ?= .venv
PYTHON ?= python3
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.parakh-installed
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
# llama-cpp-python compiles llama.cpp from source: use both cores.
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2
# Build for a portable x86-64 (AVX2) CPU, not -march=native: on a CPU with AMX inside a VM
# that does not grant the AMX tile state, a native build's AMX matmul kernel dies with a
# general protection fault on the first forward pass (seen with llama-cpp-python 0.3.36).
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
# The judge DVC runs (params.yaml); leaderboards live under reports/<dataset>/<judge>/.
JUDGE  := $(shell sed -n 's/^judge: *\([A-Za-z0-9_.-]*\).*/\1/p' params.yaml)

.PHONY: install demo test lint clean-outputs

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[local,dev]'
	touch $(STAMP)

demo: install
	dvc repro
	@echo
	@cat reports/demo/$(JUDGE)/leaderboard.md
	@echo
	@echo "Open the runs with: .venv/bin/mlflow ui --backend-store-uri sqlite:///mlflow.db"

# One pytest worker per core, at most 8 (pytest-xdist; each worker and what it starts keep
# their own cores, tests/conftest.py). A test module runs whole on one worker (loadfile): some
# modules' tests build on one another's project; the modules with slow tests go first.
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(min(8, len(os.sched_getaffinity(0))))" 2>/dev/null || echo 2)

test: install
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile

lint: install
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy src/parakh

clean-outputs:
	rm -rf data/processed/demo reports .parakh mlflow.db mlruns
