# The README's two commands: `make demo` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench bench-peers clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml setup.py $(wildcard solver/_accel_c/*) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

demo: $(STAMP)
	$(BIN)/snapsolve --overwrite sample_images
	@echo "annotated photos: sample_images/*.solved.jpg"

test: $(STAMP)
	$(BIN)/python -m pytest
	$(BIN)/ruff check .

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m benchmarks.solver
	$(BIN)/python -m benchmarks.accuracy
	$(BIN)/python -m benchmarks.correction
	$(BIN)/python -m benchmarks.startup
	$(BIN)/python -m benchmarks.speed
	$(BIN)/python -m benchmarks.batch
	$(BIN)/python -m benchmarks.memory
	$(BIN)/python -m benchmarks.grid
	$(BIN)/python -m benchmarks.cells
	$(BIN)/python -m benchmarks.robustness
	$(BIN)/python -m benchmarks.corners
	$(BIN)/python -m benchmarks.faint
	$(BIN)/python -m benchmarks.shaded
	$(BIN)/python -m benchmarks.turns
	$(BIN)/python -m benchmarks.pen --variants
	$(BIN)/python -m benchmarks.pen_verdicts
	$(BIN)/python -m benchmarks.fonts
	$(BIN)/python -m benchmarks.fonts --pen

# snapsolve's solver against the pip-installable peers (the bench extra installs them)
bench-peers: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python -m benchmarks.peers

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
	find sample_images -name '*.solved.*' -delete
