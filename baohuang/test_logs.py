"""The logging configuration: quiet task chatter at INFO, all of it at DEBUG, JSON lines."""

import io
import json
import logging
import logging.config

import pytest

from baohuang import logs


@pytest.fixture
def configured():
    """Apply a config, capture the console, and put the project's logging back after."""
    from django.conf import settings

    stream = io.StringIO()

    def apply(**kwargs):
        config = logs.config(**kwargs)
        config["handlers"]["console"]["stream"] = stream
        logging.config.dictConfig(config)
        return stream

    yield apply
    logging.config.dictConfig(settings.LOGGING)


def test_task_lines_are_held_back_at_info(configured):
    stream = configured(level="INFO", fmt="text")
    logging.getLogger("celery.app.trace").info("Task rooms.seat_move[1] succeeded in 0.01s")
    logging.getLogger("uvicorn.access").info("GET / 200")
    logging.getLogger("rooms.hands").info("room 1: hand 1 (#1, classic) started")
    logging.getLogger("celery.app.trace").error("Task rooms.seat_move[2] raised")
    assert stream.getvalue().splitlines()[0].endswith("rooms.hands: room 1: hand 1 (#1, classic) started")
    assert "succeeded" not in stream.getvalue() and "GET /" not in stream.getvalue()
    assert "raised" in stream.getvalue()


def test_task_lines_show_at_debug(configured):
    stream = configured(level="DEBUG", fmt="text")
    logging.getLogger("celery.worker.strategy").info("Task rooms.seat_move[1] received")
    logging.getLogger("celery.beat").debug("beat: Waking up")  # chatter stops at INFO
    assert "received" in stream.getvalue() and "Waking" not in stream.getvalue()


def test_json_format_writes_one_object_a_line(configured):
    stream = configured(level="INFO", fmt="json")
    logging.getLogger("rooms.hands").info("room %s: hand started", 7)
    record = json.loads(stream.getvalue().splitlines()[0])
    assert record["message"] == "room 7: hand started"
    assert record["levelname"] == "INFO" and record["name"] == "rooms.hands"


@pytest.mark.parametrize("kwargs, name", [({"level": "LOUD", "fmt": "text"}, "LOG_LEVEL"),
                                          ({"level": "INFO", "fmt": "xml"}, "LOG_FORMAT")])
def test_refuses_what_it_cannot_understand(kwargs, name):
    with pytest.raises(ValueError, match=name):
        logs.config(**kwargs)
