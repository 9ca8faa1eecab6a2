"""Fixtures shared by every app's tests: the five named players and a full table."""

import itertools
import time

import pytest

NAMES = ("alice", "bob", "charlie", "dave", "erin")


def pytest_collection_modifyitems(items):
    """The browser tests first, then the rest of `tests/` (servers, benchmarks, nginx),
    then the apps' own: the longest tests (one takes minutes) start early, so under
    pytest-xdist the short ones fill in at the end instead of one worker waiting alone on
    a long test. The sort is stable: within each part, the order of collection."""
    def part(item) -> int:
        return 0 if item.nodeid.startswith("tests/browser/") else 1 if item.nodeid.startswith("tests/") else 2

    items.sort(key=part)


def _player(name):
    from rooms.services import player_guest

    return player_guest(nickname=name)


@pytest.fixture(autouse=True)
def fresh_limits():
    """Rate-limit and throttle counters start at zero in every test (this process's cache;
    a shared one named by CACHE_URL is left alone: clearing it would empty a whole Redis db)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()


@pytest.fixture(scope="session", autouse=True)
def flush_waits_out_a_deadlock():
    """Retry the flush between transactional tests when PostgreSQL picked it as a deadlock's
    victim. A module's Celery worker (rooms/tests/worker.py) or a live server may still be in
    a transaction of the test just ended (a timer firing); TRUNCATE locks table after table,
    and when the two meet in opposite orders PostgreSQL aborts one of them, sometimes the
    flush, which failed that test's teardown. Tried again, it waits for that transaction."""
    from django.db import OperationalError
    from django.db.backends.base.operations import BaseDatabaseOperations

    flush = BaseDatabaseOperations.execute_sql_flush

    def patient(self, sql_list):
        for attempt in range(5):
            try:
                return flush(self, sql_list)
            except OperationalError as error:
                if "deadlock" not in str(error) or attempt == 4:
                    raise
                time.sleep(0.2)

    BaseDatabaseOperations.execute_sql_flush = patient
    yield
    BaseDatabaseOperations.execute_sql_flush = flush


@pytest.fixture
def alice(db):
    return _player("alice")


@pytest.fixture
def bob(db):
    return _player("bob")


@pytest.fixture
def charlie(db):
    return _player("charlie")


@pytest.fixture
def dave(db):
    return _player("dave")


@pytest.fixture
def erin(db):
    return _player("erin")


@pytest.fixture
def players(alice, bob, charlie, dave, erin):
    """alice … erin, who sit in seats 0 … 4 at `full_table`."""
    return [alice, bob, charlie, dave, erin]


@pytest.fixture
def full_table(players):
    """A factory: a room of the given preset with alice … erin in seats 0 … 4."""
    from rooms.services import room_create, seat_take

    def make(preset="classic", **options):
        room = room_create(creator=players[0], name=f"{preset} table", preset=preset, options=options)
        for index, player in enumerate(players):
            seat_take(room_id=room.pk, player=player, index=index)
        return room

    return make


@pytest.fixture
def fixed_seeds(monkeypatch):
    """Deal seeds 1, 2, 3, … instead of random ones, so hands are the same every run."""
    seeds = itertools.count(1)
    monkeypatch.setattr("rooms.services.hands.new_seed", lambda: next(seeds))
