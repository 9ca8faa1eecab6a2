"""`JSONText`: JSON kept as plain text, for the columns every move writes.

The hand's state and the move's event are written with every move and never queried
inside, only read back whole. PostgreSQL turns a `jsonb` value's text into its binary
form on every write; as `text` it only stores it: the move's round trip and PostgreSQL's
CPU per move are the lower for it (docs/architecture.md, "What one move costs"). The
columns written once a hand (options, result, …) stay `JSONField`.
"""

import orjson
from django.db import models

from rooms.json_text import dumps


def as_text(value) -> str | None:
    """What a `JSONText` column stores for `value`."""
    return None if value is None else dumps(value)


class JSONText(models.TextField):
    """A JSON value (a dict or a list) stored as its text, encoded and read by orjson; None is
    SQL NULL."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else orjson.loads(value)

    def get_prep_value(self, value):
        return as_text(value)

    def to_python(self, value):
        return value  # already the value (TextField's would turn a dict into its repr)

    def value_to_string(self, obj):
        return self.value_from_object(obj)  # as JSONField: Django's serializers write the value
