"""One settings module, driven by the environment.

Embedded defaults (SQLite, in-memory channel layer, eager Celery) let a newcomer run the
floor with nothing installed; DATABASE_URL and REDIS_URL switch to the production profile.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


# Every environment variable is read here, through these helpers: a value they cannot read
# stops the start with a message naming it, rather than quietly meaning the default.
TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    spelled = value.strip().lower()
    if spelled not in TRUE | FALSE:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a boolean: use one of {', '.join(sorted(TRUE | FALSE))}"
        )
    return spelled in TRUE


def _parsed(name: str, value: str, kind):
    try:
        return kind(value.strip())
    except ValueError:
        words = {int: "a whole number", float: "a number"}.get(kind, kind.__name__)
        raise ImproperlyConfigured(f"{name}={value!r}: {value.strip()!r} is not {words}") from None


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value is None else _parsed(name, value, int)


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return default if value is None else _parsed(name, value, float)


def env_list(name: str, kind=str) -> list:
    """A comma-separated list (empty items dropped), each item read as `kind`."""
    value = os.environ.get(name, "")
    return [_parsed(name, item, kind) for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_DEBUG=False")
    # Only for the embedded development profile; production refuses to start without a key.
    SECRET_KEY = "django-insecure-tapis-development-only-key-not-for-production-use-0123456789"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS") or (
    ["127.0.0.1", "localhost", "testserver"] if DEBUG else []
)
if not ALLOWED_HOSTS:
    # Without it every request would be refused with a 400: say so at start instead.
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS is required when DJANGO_DEBUG=False")
CSRF_FAILURE_VIEW = "casino.views.csrf_failure"
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "casino",
    "jackpot",
    "tables",
    "tables.pit",
    "tables.accounting",
    "tables.ratings",
]

MIDDLEWARE = [
    "casino.middleware.ServerTimingMiddleware",
    "casino.signin.RequestOriginMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Near the top, so that every answer carries the header, those a middleware below makes too.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads a body (CSRF, the views): errors under /api/ are JSON.
    "casino.api_errors.ApiErrorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "casino.middleware.NoStoreMiddleware",
    "casino.middleware.StaffLanguageMiddleware",
    "casino.property_time.PropertyTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "casino.middleware.SharedTabletSessionMiddleware",
    "casino.middleware.TemporarySecretMiddleware",
]

ROOT_URLCONF = "casino.urls"
ASGI_APPLICATION = "casino.asgi.application"
WSGI_APPLICATION = "casino.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "casino.context_processors.floor",
                "csp.context_processors.nonce",
            ],
        },
    },
]

DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    # Under ASGI a request may run in a thread of its own, so persistent connections
    # (CONN_MAX_AGE) pile up, one per thread, until PostgreSQL refuses more; and a new
    # connection per request costs a backend start (~7 ms measured). A pool per process
    # (psycopg_pool, through Django's own "pool" option) reuses a few connections instead.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    # A connection is checked before use: with the pool, the pool runs a cheap query on the
    # connection it is about to hand out and replaces a dead one (Django passes psycopg_pool
    # ConnectionPool.check_connection when this is on); without it, a persistent connection
    # is checked at a request's start. After a PostgreSQL restart every pooled connection is
    # dead, and without the check each gave one request a 500 (issue 23).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DB_CONN_HEALTH_CHECKS", True)
    # Parameters bound by the server, and each statement prepared on its connection after 5
    # uses (psycopg's default): PostgreSQL then parses and plans a tap's statements once per
    # connection, not on every tap (docs/benchmarks.md). Not behind a transaction-mode pooler.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5
    )
    DB_POOL_MAX_SIZE = env_int("DB_POOL_MAX_SIZE", 8)
    if DB_POOL_MAX_SIZE > 0:
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            # Opened with the pool, at a web worker's start (casino/asgi.py). Few: the pool
            # hands out the connection idle longest, and a backend little used answers slower.
            "min_size": min(env_int("DB_POOL_MIN_SIZE", 1), DB_POOL_MAX_SIZE),
            "max_size": DB_POOL_MAX_SIZE,
            "timeout": 10,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # IMMEDIATE: a transaction takes SQLite's write lock when it begins, so that two
            # tables settling at once are serialised (SQLite has no SELECT ... FOR UPDATE: a
            # deferred transaction could read a row another one is about to change).
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # The tests' database in a file, not in memory: the browser tests' server answers
            # from other threads, and an in-memory database's shared cache refuses a locked
            # table at once ("database table is locked") where a file waits out the timeout.
            "TEST": {"NAME": str(BASE_DIR / "test-db.sqlite3")},
        }
    }

AUTH_USER_MODEL = "casino.Staff"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "casino:login"
LOGIN_REDIRECT_URL = "tables:table_list"
LOGOUT_REDIRECT_URL = "casino:login"

# French decree option (arrêté du 14 mai 2007, art. 55-20): a table's maximum must be exactly
# one of these multiples of its minimum, e.g. TABLES_MAX_TO_MIN_RATIOS=10,20,30; empty: any.
TABLES_MAX_TO_MIN_RATIOS = tuple(env_list("TABLES_MAX_TO_MIN_RATIOS", int))

# Sign-in, PIN approvals and their throttle: docs/operations/signin-and-throttling.md.
# Three wrong PINs (or passwords) in a row lock an account for PIN_LOCKOUT_FIRST_SECONDS; each
# further three in a row lock it twice as long, at most PIN_LOCKOUT_MINUTES (casino.pins).
PIN_LOCKOUT_FIRST_SECONDS = env_int("PIN_LOCKOUT_FIRST_SECONDS", 60)
PIN_LOCKOUT_MINUTES = env_int("PIN_LOCKOUT_MINUTES", 15)
# Failed sign-ins and approvals per source address and per tablet (casino.signin): this many
# within the window (from the last failure) block the source or tablet for BLOCK seconds, each
# failure after a block doubles the wait, up to MAX_BLOCK.
SIGNIN_THROTTLE_SOURCE_FAILURES = env_int("SIGNIN_THROTTLE_SOURCE_FAILURES", 10)
SIGNIN_THROTTLE_DEVICE_FAILURES = env_int("SIGNIN_THROTTLE_DEVICE_FAILURES", 10)
SIGNIN_THROTTLE_WINDOW_SECONDS = env_int("SIGNIN_THROTTLE_WINDOW_SECONDS", 300)
SIGNIN_THROTTLE_BLOCK_SECONDS = env_int("SIGNIN_THROTTLE_BLOCK_SECONDS", 300)
SIGNIN_THROTTLE_MAX_BLOCK_SECONDS = env_int("SIGNIN_THROTTLE_MAX_BLOCK_SECONDS", 3600)
# The house's failures within the window that raise a pit alert (never a house-wide block).
SIGNIN_ALERT_TOTAL_FAILURES = env_int("SIGNIN_ALERT_TOTAL_FAILURES", 100)
# A refused sign-in answers after a whole multiple of this (seconds; 0: at once).
SIGNIN_FAILURE_MIN_SECONDS = env_float("SIGNIN_FAILURE_MIN_SECONDS", 1.0)
# Proxies in front that append the client to X-Forwarded-For (0: trust REMOTE_ADDR only).
SIGNIN_TRUSTED_PROXIES = env_int("SIGNIN_TRUSTED_PROXIES", 0)
# While the cache (Redis) does not answer, the counts are kept in each process's memory and
# Redis is tried again after this many seconds.
SIGNIN_CACHE_RETRY_SECONDS = env_float("SIGNIN_CACHE_RETRY_SECONDS", 5)
# The password sign-in shares the PIN's lockout and throttle (casino.backends, casino.signin).
AUTHENTICATION_BACKENDS = ["casino.backends.LockoutBackend"]
# A sign-in on a shared tablet (by PIN, or on a bound tablet) lasts a shift at most and ends
# after this long without a request (casino.middleware.SharedTabletSessionMiddleware).
SHARED_TABLET_SESSION_MINUTES = env_int("SHARED_TABLET_SESSION_MINUTES", 480)
SHARED_TABLET_IDLE_MINUTES = env_int("SHARED_TABLET_IDLE_MINUTES", 15)
# An approver whose account the asker created, gave a role or a temporary password or PIN to
# within this many days is not independent of the asker (casino.duties).
SEPARATION_DAYS = env_int("SEPARATION_DAYS", 30)
# The cookie a tablet keeps its own language in (it belongs to the table, not the person).
DEVICE_LANGUAGE_COOKIE = "tapis_device_language"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
# casino/locale also holds the strings of the root templates/ (the top level is fixed).
LOCALE_PATHS = [BASE_DIR / "casino" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Content-Security-Policy (django-csp): scripts, styles, images and sockets only from this
# server, nothing inline. A template that truly needs an inline <script> or <style> gives it
# nonce="{{ CSP_NONCE }}". Tests: tests/jackpot/test_security_headers.py (pages walked in Chromium).
from csp.constants import NONCE, NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        # 'self' covers ws:// and wss:// to this host (CSP level 3): the live channels.
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Request and socket limits. A form or JSON body over 256 KiB is refused (413/400) before it
# is read into memory; the servers' own limits (message size, headers, idle handshakes) are
# set where they start (Makefile `serve`: UVICORN_LIMITS) and below.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_BYTES", 256 * 1024)
# A request's head (request line and headers, a WebSocket handshake too) must arrive within
# this many seconds and this many bytes (uvicorn itself bounds neither; casino.server_limits).
SERVER_HEAD_SECONDS = env_float("SERVER_HEAD_SECONDS", 10)
SERVER_HEAD_MAX_BYTES = env_int("SERVER_HEAD_MAX_BYTES", 16 * 1024)

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

REDIS_URL = env_str("REDIS_URL")
# Which channels-redis layer carries the display feed; chosen by measurement with
# `manage.py jackpot_bench_sockets` (docs/benchmarks.md, "Display sockets").
CHANNEL_LAYER_BACKEND = env_str("CHANNEL_LAYER_BACKEND", "channels_redis.core.RedisChannelLayer")
# The sign-in throttle's counts (casino.signin) must be shared by every worker: Redis in
# production; the process's memory in the embedded profile (one process there).
# A Redis that does not answer within a second is taken for down: the throttle then counts in
# the process (casino.signin) rather than hold a sign-in or an approval.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": CHANNEL_LAYER_BACKEND, "CONFIG": {"hosts": [REDIS_URL]}}
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# A worker keeps its connection pool from task to task (casino.celery returns the connection
# after each, as after a request): Celery's default closes the pool around every task, which
# cost each task a new PostgreSQL backend (docs/benchmarks.md, "A worker's connections").
# Celery still closes it after this many tasks, harmlessly.
CELERY_DB_REUSE_MAX = 1000
CELERY_TIMEZONE = "UTC"

# The Celery worker and beat each leave a heartbeat this often; the pit shows an alert for one
# not heard from for HEARTBEAT_SILENT_SECONDS (casino.heartbeat, docs/operations/resilience.md).
HEARTBEAT_SECONDS = env_float("HEARTBEAT_SECONDS", 15)
HEARTBEAT_SILENT_SECONDS = env_float("HEARTBEAT_SILENT_SECONDS", 60)

# The keys kept out of the database (casino.secret_keys): the audit chain's and the PINs', each
# with the earlier keys still needed to check what they keyed. Empty: a development key.
AUDIT_HMAC_KEY = env_str("AUDIT_HMAC_KEY")
AUDIT_HMAC_PREVIOUS_KEYS = env_str("AUDIT_HMAC_PREVIOUS_KEYS")
PIN_HMAC_KEY = env_str("PIN_HMAC_KEY")
PIN_HMAC_PREVIOUS_KEYS = env_str("PIN_HMAC_PREVIOUS_KEYS")
# The file of the audit chain's checkpoints (casino.checkpoints); empty: named after the database.
AUDIT_CHECKPOINT_PATH = env_str("AUDIT_CHECKPOINT_PATH")

# `make serve`'s supervisor (casino.supervise): restart delays and the stop's grace period.
SUPERVISE_RESTART_DELAY = env_float("SUPERVISE_RESTART_DELAY", 1.0)
SUPERVISE_MAX_DELAY = env_float("SUPERVISE_MAX_DELAY", 30.0)
SUPERVISE_STABLE_SECONDS = env_float("SUPERVISE_STABLE_SECONDS", 30.0)
SUPERVISE_STOP_SECONDS = env_float("SUPERVISE_STOP_SECONDS", 10.0)

# The audit chain's sealer (casino.audit): an entry not sealed this many seconds after it was
# written is a break for audit_verify (the sealer is down, or the entry was held back).
AUDIT_SEAL_MAX_LAG_SECONDS = env_int("AUDIT_SEAL_MAX_LAG_SECONDS", 60)

# The progressive's meter readings (every 15 minutes, and within a minute of each shift
# change) and its reconciliation of the cached meters against the ledger (see jackpot.tasks).
CELERY_BEAT_SCHEDULE: dict = {
    # Seals the audit entries no hand-off sealed (a lost task) and checkpoints the chain's
    # head when it moved, so that a cut-off end shows within seconds (casino.audit).
    "audit-seal-sweep": {"task": "casino.tasks.audit_seal_sweep", "schedule": 10.0},
    "jackpot-meter-readings": {
        "task": "jackpot.tasks.meter_readings_periodic",
        "schedule": crontab(minute="*/15"),
    },
    "jackpot-shift-change-readings": {
        "task": "jackpot.tasks.meter_readings_shift_change",
        "schedule": crontab(minute="*"),
    },
    "jackpot-reconciliation": {
        "task": "jackpot.tasks.reconcile_banks",
        "schedule": crontab(minute="*/15"),
    },
    # Connected-display rows a dead server left behind (not renewed for 45 s), and screens
    # left without a live socket (a link fault, audited once): rows match sockets within a
    # minute. The web processes sweep too (jackpot.consumers), for the embedded profile.
    "jackpot-display-connections-prune": {
        "task": "jackpot.tasks.display_connections_prune",
        "schedule": 15.0,
    },
    # Every rule set version's par sheet (tables.parsheet): the missing ones computed, once
    # per base game, at night's quiet hour; a manager can also ask for one at any time.
    "tables-parsheets": {
        "task": "tables.tasks.compute_missing_parsheets",
        "schedule": crontab(minute=30, hour=5),
    },
    # The pit's idle-table and dealer-rotation alerts (seconds: a crontab cannot go below 1 min).
    "pit-alerts-check": {"task": "tables.pit.tasks.alerts_check", "schedule": 30.0},
    # Beat sends it, the worker runs it: the pit shows either one silent (casino.heartbeat).
    "casino-heartbeat": {"task": "casino.heartbeat", "schedule": HEARTBEAT_SECONDS},
    # The gaming days that closed, rolled up for the reports (each day once; the reports are
    # right without it, only slower on long periods).
    "accounting-summarize-closed-days": {
        "task": "accounting.summarize_closed_days",
        "schedule": crontab(minute="5"),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}

# Production hardening: every flag `manage.py check --deploy` asks for.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    if not SECURE_SSL_REDIRECT:
        # Only for a TLS-terminating reverse proxy that redirects HTTP to HTTPS itself (it
        # must then send X-Forwarded-Proto); the deployment check cannot see the proxy.
        SILENCED_SYSTEM_CHECKS = ["security.W008"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
