"""Settings for the 保皇 server, read from the environment.

Every value comes from an environment variable with a development default. The helpers
below fail loudly (ImproperlyConfigured) on a value they cannot understand, rather than
silently falling back: a typo in production must stop the process, not weaken it.

Production needs at least: DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, REDIS_URL.
"""

import ipaddress
import os
import re
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from baohuang import logs
from baohuang.embedded_redis import EMBEDDED_URL

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: str) -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected one of 1/0, true/false, yes/no, on/off")


def envint(name: str, default: str, *, low: int, high: int) -> int:
    value = os.environ.get(name, default).strip()
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected an integer") from None
    if not low <= number <= high:
        raise ImproperlyConfigured(f"{name}={number}: expected {low}..{high}")
    return number


def envfloat(name: str, default: str, *, low: float, high: float) -> float:
    value = os.environ.get(name, default).strip()
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a number") from None
    if not low <= number <= high:
        raise ImproperlyConfigured(f"{name}={number}: expected {low}..{high}")
    return number


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def envnetworks(name: str, default: str) -> list:
    try:
        return [ipaddress.ip_network(item, strict=False) for item in envlist(name, default)]
    except ValueError as error:
        raise ImproperlyConfigured(f"{name}: {error}") from None


def envrate(name: str, default: str) -> str | None:
    """A rate like "20/h" or "10/30s" (count/period, period s, m, h or d); "off" is None."""
    value = os.environ.get(name, default).strip().lower()
    if value == "off":
        return None
    if not re.fullmatch(r"[1-9]\d*/\d*[smhd]", value):
        raise ImproperlyConfigured(f"{name}={value!r}: expected count/period like 20/h or 10/30s, or off")
    return value


def envredis(name: str, default: str) -> str:
    value = os.environ.get(name, default).strip()
    if urlparse(value).scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a redis://, rediss:// or unix:// URL")
    return value


def envdatabase(name: str, default: str) -> dict:
    value = os.environ.get(name, default).strip()
    try:
        config = dj_database_url.parse(value, conn_max_age=envint("CONN_MAX_AGE", "0", low=0, high=3600))
    except Exception as error:  # dj-database-url raises several types for bad URLs
        raise ImproperlyConfigured(f"{name}={value!r}: {error}") from None
    if config["ENGINE"] == "django.db.backends.postgresql":
        # Django's own pool (psycopg_pool): a thread borrows a connection for one service
        # call and gives it back, so a process holds at most DB_POOL_MAX connections
        # however many sockets and threads it serves (README: sizing). A waiting call
        # fails after 10 s instead of queueing for ever.
        if config["CONN_MAX_AGE"]:
            raise ImproperlyConfigured("CONN_MAX_AGE: PostgreSQL connections come from the pool (DB_POOL_MAX); "
                                       "leave CONN_MAX_AGE unset")
        size = envint("DB_POOL_MAX", "10", low=1, high=500)
        config.setdefault("OPTIONS", {})["pool"] = {"min_size": min(2, size), "max_size": size, "timeout": 10}
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # Two writers (Uvicorn and the Celery worker) share the file: wait for the lock
        # instead of failing, and take it at BEGIN so a read never has to be upgraded.
        config["OPTIONS"] = {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        # The test database is a file next to the real one, not Django's default in-memory
        # database: that one shares a cache between connections, whose table locks fail at
        # once ("database table is locked") instead of waiting, so two sockets acting at the
        # same moment would get a server error in tests but not in `make run`.
        if config["NAME"] != ":memory:":
            name = Path(config["NAME"])
            config["TEST"] = {"NAME": str(name.with_name(f"test_{name.name}"))}
    return config


def dev_secret_key() -> str:
    """A key generated once per checkout and kept in var/, so restarts keep sessions."""
    path = VAR_DIR / "dev-secret-key"
    if not path.exists():
        VAR_DIR.mkdir(exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        draft.write_text(secrets.token_urlsafe(50))
        try:  # whole or not at all, and the first process wins: the others read its key
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


DEBUG = envbool("DEBUG", "1")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = dev_secret_key()

# How many proxies in front of the server append to `X-Forwarded-For` (nginx with
# `proxy_add_x_forwarded_for`: 1). 0 believes no header: the socket's peer is the client.
# Every per-address limit counts by this (baohuang/clients.py).
NUM_PROXIES = envint("NUM_PROXIES", "0", low=0, high=10)

# /metrics (ops/views.py) answers a bearer METRICS_TOKEN, or clients whose address (behind
# NUM_PROXIES) is in METRICS_ALLOWED_ADDRESSES (addresses or networks, e.g. 10.0.0.0/8);
# with neither it is off.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
METRICS_ALLOWED_ADDRESSES = envnetworks("METRICS_ALLOWED_ADDRESSES", "")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

_DEFAULT_DATABASE = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
if "DATABASE_URL" not in os.environ:
    VAR_DIR.mkdir(exist_ok=True)  # SQLite will not create the directory itself
DATABASES = {"default": envdatabase("DATABASE_URL", _DEFAULT_DATABASE)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The ledger's covering index (INCLUDE) is PostgreSQL's; SQLite, for development only,
    # does without it, and need not say so at every start.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]

REDIS_URL = envredis("REDIS_URL", EMBEDDED_URL)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files (works offline)
    "channels",
    "csp",  # Content-Security-Policy (CONTENT_SECURITY_POLICY below)
    "axes",  # password guessing: failed logins per client address (AXES_* below)
    "rooms",
    "scoring",
    "api",
    "ops",  # /healthz, /readyz, /metrics; the admin's live dashboard
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # zh-hans by default, English on request
    "api.http_errors.EnglishApi",  # the API answers in English only: one language per response
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "rooms.middleware.BannedMiddleware",  # a banned player's pages say so (and why)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into baohuang.lockout's answer
]

ROOT_URLCONF = "baohuang.urls"
ASGI_APPLICATION = "baohuang.asgi.application"
AUTH_USER_MODEL = "rooms.Player"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Password guessing (django-axes): after AXES_FAILURE_LIMIT failed logins from one client
# address, that address may not log in for AXES_COOLOFF_MINUTES — on /login/,
# /admin/login/ and POST /api/auth/token/ alike (they all go through `authenticate`).
# Failures are counted in the database (the admin lists them under "Axes").
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out address before any password check
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", "10", low=1, high=1000)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", "15", low=1, high=10080))
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_CLIENT_IP_CALLABLE = "baohuang.clients.request_address"  # behind NUM_PROXIES trusted proxies
AXES_LOCKOUT_CALLABLE = "baohuang.lockout.locked_out"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Chinese by default; the pages offer an English switch (django.views.i18n.set_language).
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))

# Live play's broadcasts go through Redis pub/sub (baohuang.broadcast), and presence keeps its
# entries there. Pub/sub ignores the db number, so deployments sharing one Redis need their
# own prefix. (No Channels channel layer: nothing is sent to a socket's own channel.)
CHANNEL_PREFIX = os.environ.get("CHANNEL_PREFIX", "asgi")

# Django's cache holds the API's anonymous throttle counters: in each process's memory by
# default; with several server processes, CACHE_URL (a Redis URL — another db number of
# REDIS_URL will do) makes them count together.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": envredis("CACHE_URL", CACHE_URL),
            "KEY_PREFIX": os.environ.get("CHANNEL_PREFIX", "asgi"),
        }
    }

# Rate limits (baohuang/limits.py), "count/period" with period s, m, h or d ("10/30s"), or "off".
LIMITS = {
    "guests": envrate("LIMIT_GUESTS", "20/h"),  # new guest players per client address
    "rooms": envrate("LIMIT_ROOMS", "20/h"),  # new rooms per client address
    "chat": envrate("LIMIT_CHAT", "10/10s"),  # chat lines per player, all sockets together
    "reads": envrate("LIMIT_READS", "120/m"),  # player pages, leaderboard, replays per address
}
RATELIMIT_USE_CACHE = "default"
# Seats one (human) player may hold at once across rooms not dissolved.
SEATS_PER_PLAYER = envint("SEATS_PER_PLAYER", "3", low=1, high=100)

# A socket counts as live this long after its last heartbeat (sent every third of it);
# seats shown online with no live socket (their server process died) go offline at the
# next presence sweep (rooms/presence.py).
PRESENCE_TTL_SECONDS = envint("PRESENCE_TTL_SECONDS", "30", low=1, high=3600)

# A room with no seated player connected for this long, between hands, is dissolved by
# the beat task rooms.close_abandoned (its open 进贡 debts become points; it leaves the lobby).
ABANDONED_ROOM_SECONDS = envint("ABANDONED_ROOM_SECONDS", "600", low=10, high=7 * 24 * 3600)

# Timers, 托管 and bot moves and the periodic sweep run in Celery (rooms/tasks.py → rooms/services/timers.py).
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {}
# The 高手 (expert) level searches this long per decision, in the worker (rooms.levels).
BOT_SEARCH_SECONDS = envfloat("BOT_SEARCH_SECONDS", "1.0", low=0.01, high=10)
# No task runs much longer than one search (a sweep runs a few of them, one per stalled
# hand): a task stuck past these limits is stopped, its hand picked up by the next sweep.
CELERY_TASK_SOFT_TIME_LIMIT = 30 + 10 * BOT_SEARCH_SECONDS
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 10

# The REST API (api/): public reads need no login; the browser session or a token
# (`Authorization: Token …`, from POST /api/auth/token/) identifies the owner of private data.
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: its WWW-Authenticate header makes "log in first" a 401, not a 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.AnonymousThrottle", "api.throttles.SignedInThrottle"],
    "DEFAULT_THROTTLE_RATES": {"anon": os.environ.get("API_ANON_RATE", "120/min"),
                               "user": os.environ.get("API_USER_RATE", "600/min")},
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "保皇 (Baohuang) server API",
    "DESCRIPTION": "Leaderboards, players, rooms and hand histories of the 保皇 server (read-only).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# Content-Security-Policy (django-csp): scripts, styles, images, fonts and connections only
# from this site — the pages have no inline script or style, and must keep it so. The API
# documentation pages (their libraries inject styles) relax style-src alone (api/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],  # 'self' covers the same host's ws:// and wss:// (CSP level 3)
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# The language switch's cookie: never read by scripts, not sent cross-site.
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"

# Behind a TLS-terminating proxy in production; `manage.py check --deploy` stays quiet.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "1")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]  # monitors ask over plain HTTP
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000", low=0, high=63072000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "1")
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "1")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True

# What a console shows at each level, and JSON lines for production (baohuang/logs.py).
try:
    LOGGING = logs.config(level=os.environ.get("LOG_LEVEL", "INFO").strip().upper(),
                          fmt=os.environ.get("LOG_FORMAT", "text").strip().lower())
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None
