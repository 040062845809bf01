# Two commands for a newcomer: `make run` (the floor on embedded defaults) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# uvicorn processes of `make serve`, as the systemd unit runs (docs/operations/production.md):
# a process runs Python on one CPU at a time (docs/benchmarks.md,
# "Four web workers rather than two").
WORKERS ?= 4

.PHONY: run test lint serve install install-dev bench simulate messages clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Tapis needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

run: install
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py print_urls --host $(HOST) --port $(PORT)
	@echo "In another terminal: make simulate (dealers play real rounds at tables SIM 1 and SIM 2 and the jackpot display comes alive)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) casino.asgi:application

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy tables/rules

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install-dev
	$(BIN)/python -m tables.rules bench

# Simulated dealers at a human pace against `make run` (same database, same port).
simulate: install
	$(BIN)/python manage.py simulate_floor --tables 2 --rounds 50 --speed 1 --base http://$(HOST):$(PORT)

# A month of past play at tables SIM 1-4 (rounds settled by the engine, tray counts, fills and
# the drop), so the reports at /reports/ are full; same database as `make run`.
.PHONY: demo-month
demo-month: install
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py demo_month --days 30 --tables 4 --rounds 60

# Socket limits of `make serve` (docs/operations/security.md, "Security headers, request and
# socket limits"): a request's head within
# SERVER_HEAD_SECONDS and SERVER_HEAD_MAX_BYTES (casino/server_limits.py), WebSocket messages
# up to 64 KiB and 8 queued per socket, a ping every 20 s (a peer silent 20 s more is
# dropped), idle keep-alive connections closed after 5 s, at most 2000 connections per worker.
UVICORN_LIMITS := --http casino.server_limits:GuardedHttpToolsProtocol --ws-max-size 65536 \
	--ws-max-queue 8 --ws-ping-interval 20 --ws-ping-timeout 20 --timeout-keep-alive 5 \
	--limit-concurrency 2000

# Production: several ASGI workers, a Celery worker and beat, against PostgreSQL and Redis.
# Needs DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY and DJANGO_DEBUG=False in the environment.
# casino.supervise starts the three and restarts whichever dies (Ctrl-C stops them all); a
# production host runs them as systemd units instead (docs/operations/systemd/).
serve: install
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" -a -n "$$DJANGO_SECRET_KEY" || \
		{ echo "make serve needs DATABASE_URL, REDIS_URL and DJANGO_SECRET_KEY"; exit 2; }
	DJANGO_DEBUG=False $(BIN)/python manage.py check --deploy --fail-level WARNING
	DJANGO_DEBUG=False $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=False $(BIN)/python manage.py collectstatic --noinput -v0
	DJANGO_DEBUG=False $(BIN)/python -m casino.supervise \
		"worker=$(BIN)/celery -A casino worker -l info --concurrency 2" \
		"beat=$(BIN)/celery -A casino beat -l info --schedule $(VENV)/celerybeat-schedule" \
		"web=$(BIN)/uvicorn casino.asgi:application --host $(HOST) --port $(PORT) \
			--workers $(WORKERS) --proxy-headers $(UVICORN_LIMITS)"

CATALOGUES := $(foreach app,casino tables tables/pit tables/accounting tables/ratings jackpot,\
	$(app)/locale/fr/LC_MESSAGES/django.po)

messages: install-dev
	# Every translation the catalogues hold now, so that a message makemessages finds in another
	# app's catalogue than before keeps its translation: only a new message is left untranslated.
	msgcat --use-first $(CATALOGUES) -o $(VENV)/translations-fr.po
	# casino's catalogue also holds the root templates/ (LOCALE_PATHS), so it is made from the root.
	$(BIN)/python manage.py makemessages -l fr --no-obsolete -i tables -i jackpot -i .venv -i tests -i static -i staticfiles
	for app in tables/pit tables/accounting tables/ratings; do (cd $$app && ../../$(BIN)/django-admin makemessages -l fr --no-obsolete); done
	(cd tables && ../$(BIN)/django-admin makemessages -l fr --no-obsolete -i pit -i accounting -i ratings)
	(cd jackpot && ../$(BIN)/django-admin makemessages -l fr --no-obsolete)
	for po in $(CATALOGUES); do \
		msgmerge -q --no-fuzzy-matching -o $$po $(VENV)/translations-fr.po $$po && \
		msgattrib --no-obsolete -o $$po $$po && \
		echo "$$po: $$(msgfmt --statistics -o /dev/null $$po 2>&1)"; \
	done
	$(BIN)/python manage.py compilemessages -v0

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
