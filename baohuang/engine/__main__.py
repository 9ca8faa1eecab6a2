"""Command line of the engine: ``python -m baohuang.engine simulate --preset P --hands N --seed S``.

Prints one JSON object per line per hand (see `simulate.summary` for the fields).
"""

from __future__ import annotations

import argparse
import json
import sys

from .cards import PRESETS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m baohuang.engine",
                                     description="The 保皇 rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    simulate = commands.add_parser(
        "simulate", help="play hands at one table with five automatic players")
    simulate.add_argument("--preset", choices=PRESETS, required=True)
    simulate.add_argument("--hands", type=_count, default=1, help="how many hands (default 1)")
    simulate.add_argument("--seed", default="0",
                          help="the table's seed; each hand's seed is derived from it")
    simulate.add_argument("--grab-solo", action="store_true",
                          help="lianzhong room option 抢独 (off by default)")
    simulate.add_argument("--no-hold-sixes", action="store_true",
                          help="lianzhong: turn off the room option 憋6 (on by default)")
    return parser


def _count(text: str) -> int:
    number = int(text)
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a count of hands >= 0, got {text}")
    return number


def _seed(text: str):
    """An integer seed stays an integer (so hand seeds match ``new_hand(preset, int)``)."""
    try:
        return int(text)
    except ValueError:
        return text


def main(argv=None, out=None) -> int:
    args = build_parser().parse_args(argv)
    out = out or sys.stdout
    from .simulate import simulate

    options = {"grab_solo": args.grab_solo, "hold_sixes": not args.no_hold_sixes}
    for line, _state, _actions in simulate(args.preset, args.hands, _seed(args.seed),
                                           options=options):
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
