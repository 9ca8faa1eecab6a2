"""A room's options: defaults and validation (the only place that knows their shape)."""

from baohuang.errors import ServiceError
from rooms.levels import DEFAULT_TRUSTEE_LEVEL, LEVELS

TIMER_KINDS = ("play", "bid", "declare")  # engine.decision_kind() values
TIMER_RANGE = (5, 120)  # seconds
READY_RANGE = (10, 300)  # seconds to press 准备 before the others may free the seat

DEFAULTS = {
    "timers": {"play": 20, "bid": 15, "declare": 8},  # silence answers the 表态 window (RULES §8): keep it short
    "hold_sixes": True,  # 憋6 (lianzhong, lianzhong_classic)
    "grab_solo": False,  # 抢独 (lianzhong, lianzhong_classic)
    "trustee_level": DEFAULT_TRUSTEE_LEVEL,  # the level (rooms.levels) that plays for seats under 托管
    "allow_bots": True,
    "allow_spectators": True,
    "card_counter": True,  # 记牌器: each seat's view counts the cards it has not seen yet
    "public_records": False,  # ended hands' full records (deal, every action) readable by anyone, not only its players
    "trustee_delay": 1.0,  # the pace of 托管 seats and bots: their think time (rooms.think) in seconds
    "ready_time": 30,  # 准备: seconds a full table waits for ready before a late seat may be freed
}

# The part of the options the engine itself reads (stored with each hand).
ENGINE_KEYS = ("hold_sixes", "grab_solo", "card_counter")


def _bad(message: str) -> ServiceError:
    return ServiceError("bad_options", message)


def _clean_timers(raw) -> dict:
    if not isinstance(raw, dict):
        raise _bad("timers must be an object like {\"play\": 20, \"bid\": 15, \"declare\": 15}")
    unknown = set(raw) - set(TIMER_KINDS)
    if unknown:
        raise _bad(f"unknown timer kind(s): {', '.join(sorted(unknown))}")
    timers = dict(DEFAULTS["timers"])
    low, high = TIMER_RANGE
    for kind, seconds in raw.items():
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not low <= seconds <= high:
            raise _bad(f"the {kind} timer must be a whole number of seconds from {low} to {high}")
        timers[kind] = seconds
    return timers


def clean_options(raw: dict | None) -> dict:
    """Return complete options: defaults overlaid with `raw`; raises bad_options."""
    raw = raw or {}
    if not isinstance(raw, dict):
        raise _bad("options must be an object")
    unknown = set(raw) - set(DEFAULTS)
    if unknown:
        raise _bad(f"unknown option(s): {', '.join(sorted(unknown))}")
    options = {**DEFAULTS, **raw}
    options["timers"] = _clean_timers(raw.get("timers", {}))
    for name in ("hold_sixes", "grab_solo", "card_counter", "allow_bots", "allow_spectators", "public_records"):
        if not isinstance(options[name], bool):
            raise _bad(f"{name} must be true or false")
    if options["trustee_level"] not in LEVELS:
        raise _bad(f"trustee_level must be one of {', '.join(LEVELS)}")
    delay = options["trustee_delay"]
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= 10:
        raise _bad("trustee_delay must be a number of seconds from 0 to 10")
    ready, (low, high) = options["ready_time"], READY_RANGE
    if isinstance(ready, bool) or not isinstance(ready, int) or not low <= ready <= high:
        raise _bad(f"ready_time must be a whole number of seconds from {low} to {high}")
    return options


def engine_options(options: dict) -> dict:
    return {key: options[key] for key in ENGINE_KEYS}
