"""`bench/bench_store.py` still runs: its ways call the services' own writes, whose
arguments change with them (it once failed unseen, when `astore_move` took `meanwhile`)."""

import sys

import pytest
from django.db import connection  # noqa: F401 (the skip condition's)

from tests.live import ROOT, anyio_backend, isolated_prefix, no_lingering_connections  # noqa: F401

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix"),
              pytest.mark.skipif("connection.vendor != 'postgresql'",
                                 reason="the event loop stores moves itself on PostgreSQL only")]


async def test_each_way_of_the_store_benchmark_times_the_moves_of_a_whole_hand():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_store
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from rooms.services import moves

    store = moves.astore_move
    ways = await bench_store.play(3)  # a hand to warm each way up, then one timed hand each
    assert [way.name for way in ways] == ["query string", "loop (prepared)", "bare write"]
    assert all(len(way.walls) > 50 and way.cpu > 0 for way in ways)
    assert moves.astore_move is store and not bench_store.STRING_CONNECTION
