"""Logging for every process (Uvicorn, the Celery worker and beat, manage.py): one
`dictConfig` built from two settings.

- `LOG_LEVEL` (default INFO): at INFO a console shows what an operator needs — process
  starts and stops, a line per hand started and finished, warnings and errors. The chatter
  of a busy server — one line per Celery task received and done, per beat message sent,
  per HTTP request or socket — is logged at INFO by Celery and Uvicorn themselves, so
  their loggers for it are held at WARNING unless LOG_LEVEL=DEBUG.
- `LOG_FORMAT` (default `text`): `json` writes one JSON object a line (python-json-logger),
  for a log collector in production.

Celery would otherwise replace this configuration with its own (`--loglevel`); the
`setup_logging` handler in `baohuang.celery` keeps it.
"""

import logging

CHATTY = (
    "celery.app.trace",  # "Task … succeeded in …"
    "celery.worker.strategy",  # "Task … received"
    "celery.beat",  # "Scheduler: Sending due task …" every few seconds
    "axes.apps",  # django-axes' banner in every process, manage.py commands included
)  # and uvicorn.access: a line per HTTP request and WebSocket handshake
FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def config(*, level: str, fmt: str) -> dict:
    """The `LOGGING` dict for `level` (a logging level name) and `fmt` (`text` or `json`)."""
    if not isinstance(logging.getLevelName(level), int):
        raise ValueError(f"LOG_LEVEL={level!r}: expected DEBUG, INFO, WARNING, ERROR or CRITICAL")
    if fmt not in FORMATS:
        raise ValueError(f"LOG_FORMAT={fmt!r}: expected one of {', '.join(FORMATS)}")
    chatty = "INFO" if level == "DEBUG" else "WARNING"
    formatter = (
        {"()": "pythonjsonlogger.json.JsonFormatter",
         "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s"}
        if fmt == "json" else {"format": TEXT_FORMAT}
    )
    # Uvicorn's loggers have handlers of their own (and don't propagate): give them ours,
    # so the format is one for every line.
    uvicorn = {"handlers": ["console"], "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "default"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            **{name: {"level": chatty} for name in CHATTY},
            "uvicorn": {**uvicorn, "level": level},
            "uvicorn.error": {**uvicorn, "level": level},
            "uvicorn.access": {**uvicorn, "level": chatty},
            # Every SQL statement (logged at DEBUG when DEBUG is on) would drown the rest.
            "django.db.backends": {"level": "INFO"},
        },
    }
