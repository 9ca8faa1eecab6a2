"""Fixtures shared by every app's tests: the five named players and a full table."""

import itertools

import pytest

NAMES = ("alice", "bob", "charlie", "dave", "erin")


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
