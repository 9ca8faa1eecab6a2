"""Where the server's CPU goes per move: a py-spy profile of the Uvicorn process, split
into the steps of one move's path (docs/architecture.md).

Recorded while `bench/bench_live.py` plays its game (py-spy: requirements-dev.txt):

    .venv/bin/python bench/bench_live.py --rooms 20 --profile var/live.raw
    .venv/bin/python bench/cpu_split.py var/live.raw

`--gil` keeps only samples of the thread holding the GIL, so the shares are of the
process's Python CPU, not of its waiting. Each sample counts once, for the first step in
the lists below that names a frame of its stack.
"""

import argparse
from collections import Counter

# (step, a piece of the frame's name): a step that runs inside another is listed before it
# (the frames are built while PostgreSQL stores the move, the ack is a socket send).
STEPS = [
    ("frames: views + JSON, per kind (rooms.event_frames)", "rooms/event_frames"),
    ("state at a version (STATES.at)", "at (rooms/hand_states"),
    ("engine.apply", "apply (baohuang/engine"),
    ("lock + token read (held.locked_token)", "lock_table_of_hand ("),
    ("INSERT event + UPDATE hand (moves.store_move, astore_move; on the held table, the lock too)", "store_move ("),
    ("COMMIT, then the after-commit hooks (publish …)", "Atomic.__exit__"),
    ("ack", "send_ack ("),
    ("socket send", "send_text ("),
    ("parse the frame (rooms.frames)", "read (rooms/frames"),
]
CONTAINERS = [
    ("hand_act / ahand_act, the rest", "hand_act ("),
    ("consumer receive, the rest", "websocket_receive ("),
    ("broadcasts heard from Redis (baohuang.broadcast)", "baohuang/broadcast"),
]
GENERIC = [
    ("thread pool hand-off", "threading.py"),
    ("event loop, Uvicorn, websockets", "asyncio/"),
]


def step_of(stack: list[str]) -> str:
    for steps in (STEPS, CONTAINERS, GENERIC):
        for name, piece in steps:
            if any(piece in frame for frame in stack):
                return name
    return "other"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", help="py-spy's --format raw output (collapsed stacks)")
    args = parser.parse_args()
    shares = Counter()
    with open(args.profile) as lines:
        for line in lines:
            stack, _, count = line.rstrip().rpartition(" ")
            shares[step_of(stack.split(";"))] += int(count)
    total = sum(shares.values())
    print(f"{total} samples holding the GIL")
    for name, _ in STEPS + CONTAINERS + GENERIC + [("other", "")]:
        print(f"{shares[name] / total * 100:5.1f}%  {name}")


if __name__ == "__main__":
    main()
