"""What operators see of play: a log line per hand, and the game's Prometheus metrics.

An adapter like `notify`: the services call it (after commit, so a rolled-back write is
never counted) and it depends on nothing above it. The metrics are read by
`baohuang.health.metrics` at `/metrics`.

Several processes serve one site (Uvicorn processes, Celery workers), each counting its
own part: with `PROMETHEUS_MULTIPROC_DIR` set (`make run` and `deploy/` set it) every
process writes its values to files in that directory and `/metrics` adds them up
(prometheus-client's multiprocess mode); the directory must be emptied when the site
starts. Without it each process counts alone, which is right for one process (tests).
Numbers the database holds anyway — rooms by status, players online — are read from it
at each scrape instead (`baohuang.health.TableCollector`), so they are right across
restarts and processes.
"""

import logging

from prometheus_client import Counter, Gauge, Histogram

from baohuang.after_commit import after_commit

log = logging.getLogger("rooms.hands")

HANDS_STARTED = Counter("baohuang_hands_started", "Hands dealt (redeals of void hands included).", ["preset"])
HANDS_FINISHED = Counter("baohuang_hands_finished", "Hands ended, by outcome (scored, unscored, void).",
                         ["preset", "outcome"])
MOVES = Counter("baohuang_moves", "Actions stored, by who made them (player, trustee, bot).", ["by"])
# Each labelled counter, looked up once, not by `labels()` on every move (2.2 µs a call
# against 0.65 µs for the child's own `inc`); made here, the three series show from the
# start, at 0.
MOVES_BY = {by: MOVES.labels(by) for by in ("player", "trustee", "bot")}
ACTION_SECONDS = Histogram("baohuang_action_seconds", "From an act frame's arrival to its ack being sent.",
                           buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))
TIMER_LATENESS = Histogram("baohuang_timer_lateness_seconds",
                           "How long after its deadline a timed-out decision was acted on.",
                           buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30))
TRUSTEE_ENTRIES = Counter("baohuang_trustee_entries", "Seats entering 托管, by reason (timeout, asked, left).",
                          ["reason"])
ERRORS = Counter("baohuang_errors", "Error frames sent to sockets, by code.", ["code"])
OPEN_SOCKETS = Gauge("baohuang_open_sockets", "WebSockets open now.", multiprocess_mode="livesum")


def _after_commit(function) -> None:
    after_commit(function)


def hand_started(hand) -> None:
    """A deal was written: after commit, log it and count it."""
    def done():
        log.info("room %s: hand %s (#%s, %s) started", hand.room_id, hand.pk, hand.number, hand.preset)
        HANDS_STARTED.labels(hand.preset).inc()
    _after_commit(done)


def hand_finished(hand) -> None:
    """A hand's end was written (`hand.result`, `hand.scored`): after commit, log and count."""
    outcome = "void" if hand.result.get("void") else "scored" if hand.scored else "unscored"

    def done():
        log.info("room %s: hand %s (#%s, %s) finished: %s after %s actions", hand.room_id, hand.pk, hand.number,
                 hand.preset, outcome, hand.version)
        HANDS_FINISHED.labels(hand.preset, outcome).inc()
    _after_commit(done)


def move_stored(*, by: str) -> None:
    """An action was written by `by` (player, trustee, bot); every move takes one path."""
    _after_commit(MOVES_BY[by].inc)


def trustee_entered(reason: str) -> None:
    _after_commit(lambda: TRUSTEE_ENTRIES.labels(reason).inc())
