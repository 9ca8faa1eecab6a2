"""Command line of the engine.

``python -m baohuang.engine simulate --preset P --hands N --seed S`` prints one JSON object
per line per hand (see `simulate.summary` for the fields).

``python -m baohuang.engine verify --preset P --seed S --salt T --commitment C`` checks a
revealed seed and salt against the commitment shown at the deal and prints the five hands
the seed deals (`fairness.verify`); it exits 1 when the commitment does not match.
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
                          help="lianzhong / lianzhong_classic room option 抢独 (off by default)")
    simulate.add_argument("--no-hold-sixes", action="store_true",
                          help="lianzhong / lianzhong_classic: turn off the room option 憋6 "
                               "(on by default)")
    verify = commands.add_parser(
        "verify", help="check a hand's revealed seed and salt against its commitment")
    verify.add_argument("--preset", choices=PRESETS, required=True)
    verify.add_argument("--seed", required=True, help="the seed revealed at the end of the hand")
    verify.add_argument("--salt", required=True, help="the salt revealed with it")
    verify.add_argument("--commitment", required=True, help="the SHA-256 shown at the deal")
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
    if args.command == "verify":
        return _verify(args, out)
    from .simulate import simulate

    options = {"grab_solo": args.grab_solo, "hold_sixes": not args.no_hold_sixes}
    for line, _state, _actions in simulate(args.preset, args.hands, _seed(args.seed),
                                           options=options):
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


def _verify(args, out) -> int:
    from .cards import format_cards
    from .fairness import verify

    checked = verify(args.preset, _seed(args.seed), args.salt, args.commitment)
    line = {"commitment_ok": checked["commitment_ok"], "commitment": checked["commitment"],
            "dealt": [format_cards(hand, args.preset) for hand in checked["dealt"]]}
    out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0 if checked["commitment_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
