# The two commands: `make run` (the server) and `make test` (the whole suite).
# Both create .venv with Python 3.11 and install requirements.txt when it changed.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test venv migrate clean

venv: $(STAMP)

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# Migrates, then starts Redis (embedded unless REDIS_URL is set), Uvicorn on
# http://127.0.0.1:8000 and a Celery worker with beat. Ctrl-C stops them all.
run: venv
	$(PY) -m baohuang.run

migrate: venv
	$(PY) manage.py migrate

# The whole suite (exit code of pytest; 5 = nothing collected is a failure too), after the
# table page's pure modules under Node's test runner (static/js/tests/).
# Uses REDIS_URL, or a temporary embedded Redis. Extra arguments: make test ARGS="-k leave -x"
test: venv
	node --test static/js/tests/
	$(PY) -m baohuang.run pytest $(ARGS)

clean:
	rm -rf $(VENV) var .pytest_cache
