"""The benchmark scripts still run, as a fresh machine runs them: each at its smallest size,
in a process of its own, on a scratch database it creates and migrates itself. They call the
product's own code, whose names and arguments change with it; two of them once failed
unseen for sessions ("no such table", a `TypeError`). The figures are not judged here (they
belong to the closing notes), only that each script prints them, and that no move, echo or
table errs. `bench_store` has its own test (test_bench_store.py)."""

import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.live import ROOT, database_url

PY_SPY = Path(sys.executable).parent / "py-spy"
needs_postgresql = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                      reason="the script's scratch database is a PostgreSQL one")
needs_nginx = pytest.mark.skipif(shutil.which("nginx") is None, reason="the production shape's proxy is nginx")


def run(script: str, *arguments: str, env: dict | None = None) -> str:
    """`bench/<script>` with `arguments`, from the repository's root; its output."""
    environment = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script), *arguments], cwd=ROOT,
                          env={**environment, **(env or {})}, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture
def scratch_database():
    """The URL of a database that does not exist yet (the script creates it), dropped after;
    named for this test alone, as other runs of the suite may share the server."""
    name = f"bh_test_bench_{uuid.uuid4().hex[:12]}"
    url = database_url({**connection.settings_dict, "NAME": name})
    yield url
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def redis_url() -> str:
    from django.conf import settings

    return settings.REDIS_URL


def test_the_engine_benchmark_prints_each_presets_figures():
    output = run("bench_engine.py", "--hands", "1")
    for preset in ("classic", "lianzhong", "qingdao", "lianzhong_classic"):
        assert f"{preset}:" in output
    assert output.count("actions/s") >= 4


def test_the_legal_actions_benchmark_prints_the_worst_hand_on_every_top():
    output = run("bench_legal.py")
    assert output.count("worst 44 cards") >= 9


def test_the_policy_benchmark_compares_the_policies_in_every_preset():
    output = run("bench_policy.py", "--hands", "2")
    for preset in ("classic", "lianzhong", "qingdao", "lianzhong_classic"):
        assert re.search(rf"^{preset}\s+-?\d", output, re.MULTILINE), output


@needs_postgresql
def test_the_hand_act_benchmark_plays_a_hand_through_the_service(scratch_database):
    output = run("bench_hand_act.py", "--hands", "1", "--database", scratch_database, "--redis", redis_url())
    assert re.search(r"\d+ actions in .* actions/s, .* queries/action", output), output


@needs_postgresql
@pytest.mark.skipif(not PY_SPY.exists(), reason="py-spy records the profile: pip install -r requirements-dev.txt")
def test_the_live_benchmark_plays_and_echoes_a_room_with_no_error_and_profiles_it(scratch_database, tmp_path):
    profile = tmp_path / "live.raw"
    # Eight rooms, so the profile holds enough samples of the server's work for each of the
    # move's steps to show: on a fast machine one room's hand gave 26, none in the INSERT.
    output = run("bench_live.py", "--rooms", "8", "--database", scratch_database, "--redis", redis_url(),
                 "--profile", str(profile))
    for way in ("game", "echo", "write", "raw", "loop"):
        assert re.search(rf"^{way} +\d+ msgs in .* p50 .* errors 0", output, re.MULTILINE), output
    assert "game p50 / echo p50 = " in output and "game, CPU per move: server" in output
    split = run("cpu_split.py", str(profile))  # the game's steps, found on the server's stacks
    shares = {name: float(share) for share, name in re.findall(r"^ *(\d+\.\d)%  (.+)$", split, re.MULTILINE)}
    assert shares["frames: views + JSON, per kind (rooms.event_frames)"] > 0, split
    assert shares[next(name for name in shares if name.startswith("INSERT event"))] > 0, split
    assert shares["other"] < 25, split


@needs_postgresql
def test_the_capacity_benchmark_plays_tables_at_human_pace_with_no_error(scratch_database):
    output = run("bench_capacity.py", "--tables", "5", "--seconds", "2", "--database", scratch_database,
                 "--redis", redis_url())
    assert re.search(r"N=\s+5 tables, +26 sockets .* \d+ moves in .* p99 .* Celery \d+% .* RSS", output), output
    assert re.findall(r"errors (\d+)", output) == ["0"], output
    # On its new database the moves found their events in the log by its index. Analysed
    # while empty, the log was planned as empty, and each move's fenced UPDATE read the
    # whole log (bench_live.tables_with_rows).
    with psycopg.connect(scratch_database) as database:
        read, by_index = database.execute("SELECT seq_tup_read, idx_scan FROM pg_stat_user_tables "
                                          "WHERE relname = 'rooms_handevent'").fetchone()
    assert (read, by_index > 0) == (0, True), (read, by_index)


@needs_postgresql
@needs_nginx
def test_the_capacity_benchmark_plays_through_the_sites_nginx_with_tls(scratch_database):
    output = run("bench_capacity.py", "--tables", "3", "--seconds", "2", "--nginx", "--processes", "2",
                 "--database", scratch_database, "--redis", redis_url())
    assert re.search(r"N=\s+3 tables, +16 sockets .* \d+ moves in .* p99 .* nginx \d+% .* RSS", output), output
    assert re.findall(r"errors (\d+)", output) == ["0"], output


@needs_postgresql
@pytest.mark.parametrize("through", ["", pytest.param("--nginx", marks=needs_nginx)])
def test_the_reconnect_benchmark_gives_every_socket_its_snapshot(scratch_database, through):
    output = run("bench_reconnect.py", "--tables", "3", "--database", scratch_database, "--redis", redis_url(),
                 *filter(None, [through]))
    assert re.search(r"N=\s+3 tables, +16 sockets: 16 had their snapshot, the last after .* \d+ openings .* "
                     r"seats online 15 of 15 .* server CPU [\d.]+ ms a socket", output), output
    assert ("nginx CPU" in output) == bool(through), output
    assert re.findall(r"errors (\d+)", output) == ["0"], output


@needs_postgresql
def test_the_leaderboard_benchmark_seeds_its_ledger_and_times_every_case(scratch_database):
    output = run("bench_leaderboard.py", "--requests", "3", env={"DATABASE_URL": scratch_database})
    assert "seeded 1000 players and 200000 ledger entries" in output
    for case in ("all", "30d", "7d", "today", "rating, 30d"):
        assert re.search(rf"^{re.escape(case)} +\d+\.\d+ +\d+\.\d+", output, re.MULTILINE), output


def test_the_cpu_split_steps_name_code_that_exists():
    """`cpu_split` finds a step by a piece of a frame's name in py-spy's stacks
    (`function (path/file.py:line)`): each piece must still name a function of ours where
    it says, or Django's transaction, or a file of ours."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import cpu_split
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from django.db.transaction import Atomic

    sources = {path: path.read_text() for folder in ("baohuang", "rooms", "scoring", "api")
               for path in (ROOT / folder).rglob("*.py") if "tests" not in path.parts}
    for step, piece in cpu_split.STEPS + cpu_split.CONTAINERS:
        if piece == "Atomic.__exit__":
            assert Atomic.__exit__
        elif " (" in piece:
            function, _, where = piece.partition(" (")
            assert any(re.search(rf"def {function}\(", text) for path, text in sources.items()
                       if str(path.relative_to(ROOT)).startswith(where)), step
        else:
            assert (ROOT / f"{piece}.py").exists(), step


def test_the_cpu_split_counts_each_sample_once_for_the_innermost_step_listed(tmp_path):
    move = ("run (asyncio/events.py:80);websocket_receive (rooms/consumers.py:207);"
            "ahand_act (rooms/services/acting.py:50);astore_move (rooms/services/moves.py:133)")
    profile = tmp_path / "live.raw"
    profile.write_text(f"{move} 3\n"
                       f"{move};_results (baohuang/loop_database.py:148);"
                       f"EventFrames.ahead (rooms/event_frames.py:91) 2\n"
                       "run (asyncio/events.py:80);send_text (rooms/consumers.py:415) 1\n"
                       "select (selectors.py:468) 4\n")
    output = run("cpu_split.py", str(profile))
    assert "10 samples holding the GIL" in output
    assert re.search(r"^ 30\.0%  INSERT event \+ UPDATE hand", output, re.MULTILINE), output
    assert re.search(r"^ 20\.0%  frames: views", output, re.MULTILINE), output
    assert re.search(r"^ 10\.0%  socket send", output, re.MULTILINE), output
    assert re.search(r"^ 40\.0%  other", output, re.MULTILINE), output
