"""The 保皇 rules engine: pure Python, standard library only (no Django).

Everything the product uses is imported from here; see docs/engine-contract.md.
`view` (`public_view` + `seat_view`), `event_view` and `autoplay` live in `views.py` / `policy.py` and are loaded on
first use, so importing the engine stays light.
"""

from .cards import format_cards, parse_cards
from .errors import IllegalAction
from .presets import PRESETS, Preset, preset_named
from .sets import beats
from .state import (actors, apply, check, decision_kind, from_json, legal_actions, new_hand,
                    replay, result, state_from_hands, to_json)

_LAZY = {"view": "views", "public_view": "views", "seat_view": "views", "event_view": "views",
         "autoplay": "policy", "silent_declaration": "policy"}

__all__ = ["PRESETS", "Preset", "preset_named", "IllegalAction", "parse_cards", "format_cards", "beats", "new_hand",
           "actors", "decision_kind", "legal_actions", "check", "apply", "result", "to_json",
           "from_json", "replay", "state_from_hands", *_LAZY]


def __getattr__(name):
    # views.py and policy.py are built on this state machine; import them on first use.
    if name in _LAZY:
        from importlib import import_module

        attribute = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = attribute
        return attribute
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
