"""Hand replays (回放): a finished hand, step by step, with every hand face up.

`steps` rebuilds a hand from its seed and stored actions (as `state.replay` does) and
returns one step per version: the deal, then each action. A step is what a spectator sees
at that version (`views.view(state, None)`) plus every seat's cards, so only a hand that
is over may be replayed — the caller checks that (the product: `rooms.replays`).
"""

from __future__ import annotations

from .state import apply, new_hand
from .views import event_view, view


def steps(preset: str, seed, actions, *, options=None, tribute=(), salt=None) -> list[dict]:
    """``[{"version", "event", "hands", "view"}, …]`` from the deal (version 0) to the end.

    ``event`` is None for the deal, else the event as a spectator saw it then; ``view`` is
    the spectator's view after it; ``hands`` are the five seats' cards at that moment.
    """
    state = new_hand(preset, seed, options=options, tribute=tribute, salt=salt)
    found = [_step(state, None)]
    for action in actions:
        state, event = apply(state, action)
        found.append(_step(state, event_view(event, None)))
    return found


def _step(state: dict, event: dict | None) -> dict:
    shown = view(state, None)
    return {"version": state["version"], "event": event,
            "hands": [list(hand) for hand in state["hands"]], "view": shown}
