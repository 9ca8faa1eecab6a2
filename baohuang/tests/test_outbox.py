"""The outbox (baohuang.outbox): work left to one thread, its Celery messages sent many in one.

Celery's `send_task` is replaced by a recorder here: what is tested is which messages the
outbox hands to Celery, and when. The live tests (tests/) run real timers through it and a
worker."""

import threading
import time

import pytest

from baohuang import outbox


class Sent(list):
    """The messages handed to Celery: (name, args, options, the sending thread's name)."""

    def __init__(self):
        super().__init__()
        self.changed = threading.Condition()

    def send_task(self, name, args, **options):
        with self.changed:
            self.append((name, args, options, threading.current_thread().name))
            self.changed.notify_all()

    def wait_for(self, count: int) -> list:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self) >= count, timeout=10), self
        return self


@pytest.fixture
def sent(monkeypatch):
    sent = Sent()
    monkeypatch.setattr(outbox.current_app, "send_task", sent.send_task)
    return sent


def test_outside_the_outbox_thread_a_message_is_sent_at_once(sent):
    outbox.send_task("rooms.decision_timeout", (7,), countdown=15.0, expires=75.0)
    assert sent == [("rooms.decision_timeout", (7,), {"countdown": 15.0, "expires": 75.0, "retry": False},
                     threading.current_thread().name)]


def test_a_batch_of_work_runs_in_order_on_the_outbox_thread_and_its_messages_go_in_one(sent, monkeypatch):
    monkeypatch.setattr(outbox, "LINGER_SECONDS", 1.0)  # the three are queued long before it ends
    ran = []

    def work(number):
        def queue_two():
            ran.append((number, threading.current_thread().name))
            outbox.send_task("rooms.seat_move", (number, 1, 2), countdown=2.0, expires=62.0)
            outbox.send_task("rooms.decision_timeout", (number,), countdown=20.0, expires=80.0)
        return queue_two

    before = time.time()
    for number in (1, 2, 3):
        outbox.run(work(number))
    (name, (messages,), options, thread), = sent.wait_for(1)
    assert ran == [(1, "outbox"), (2, "outbox"), (3, "outbox")] and thread == "outbox"
    assert name == outbox.SEND_ALL and options == {"retry": False}
    assert [message[:2] for message in messages] == [
        ["rooms.seat_move", [1, 1, 2]], ["rooms.decision_timeout", [1]], ["rooms.seat_move", [2, 1, 2]],
        ["rooms.decision_timeout", [2]], ["rooms.seat_move", [3, 1, 2]], ["rooms.decision_timeout", [3]]]
    seat_move, timer = messages[0], messages[1]
    assert before + 2.0 <= seat_move[2] <= time.time() + 2.0 and seat_move[3] == pytest.approx(seat_move[2] + 60)
    assert timer[2] == pytest.approx(seat_move[2] + 18, abs=0.5) and timer[3] == pytest.approx(timer[2] + 60)


def test_a_batch_of_one_message_sends_it_as_itself_and_a_failing_work_is_logged(sent, caplog):
    def fails():
        raise RuntimeError("boom")

    outbox.run(fails)
    outbox.run(lambda: outbox.send_task("rooms.decision_timeout", (5,), countdown=8.0, expires=68.0))
    (name, args, options, thread), = sent.wait_for(1)
    assert (name, args, thread) == ("rooms.decision_timeout", [5], "outbox")
    assert 5.0 < (options["eta"].timestamp() - time.time()) <= 8.0
    assert options["expires"].timestamp() == pytest.approx(options["eta"].timestamp() + 60)
    assert "outbox" in caplog.text and "boom" in caplog.text


def test_a_worker_sends_each_message_of_a_batch_with_its_eta_and_expiry(sent):
    now = time.time()
    outbox.send_each([["rooms.seat_move", [4, 9, 1], now + 3, now + 63], ["rooms.decision_timeout", [4], now - 1, now + 59]])
    (first, first_args, first_options, _), (second, second_args, second_options, _) = sent
    assert (first, first_args, second, second_args) == ("rooms.seat_move", [4, 9, 1], "rooms.decision_timeout", [4])
    assert first_options["eta"].timestamp() == pytest.approx(now + 3)
    assert first_options["expires"].timestamp() == pytest.approx(now + 63)
    assert second_options["eta"] is None  # already due: run at once
