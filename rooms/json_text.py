"""JSON text of frames and stored columns, by orjson (one place, one encoding)."""

import orjson


def dumps(value) -> str:
    """`value` as compact JSON text; dict keys that are not strings (rare) become strings,
    as the standard library's json does. orjson's option for them triples the cost of
    every call, so it is used only for the values that need it."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
