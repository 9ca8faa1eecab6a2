"""The columns a move writes keep their JSON as text (`rooms.fields.JSONText`)."""

import orjson
import pytest
from django.db import connection

from baohuang import engine
from rooms.fields import JSONText
from rooms.models import Hand, HandEvent
from rooms.services import hand_act, hand_start

PER_MOVE = ((Hand, "state"), (HandEvent, "action"), (HandEvent, "event"), (HandEvent, "public"))


def stored_text(model, name: str, pk: int):
    """The column as the database gives it, past the ORM."""
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {q(name)} FROM {q(model._meta.db_table)} WHERE {q('id')} = %s", [pk])
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_a_moves_state_and_event_are_stored_as_their_json_text_and_read_back_whole(full_table):
    hand = hand_start(room_id=full_table("classic").pk)
    seat = engine.actors(hand.state)[0]
    hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0)
    hand = Hand.objects.get(pk=hand.pk)
    event = HandEvent.objects.get(hand=hand)
    for row, (model, name) in zip((hand, event, event, event), PER_MOVE):
        text = stored_text(model, name, row.pk)
        # A jsonb column would come back from psycopg already decoded, not as text.
        assert isinstance(text, str) and orjson.loads(text) == getattr(row, name)
    assert event.action == {"type": "decline", "seat": seat} and hand.state["phase"] == hand.phase


@pytest.mark.django_db
def test_the_per_move_columns_are_text_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps every JSON as text")
    with connection.cursor() as cursor:
        for model, name in PER_MOVE:
            cursor.execute("SELECT data_type FROM information_schema.columns WHERE table_name = %s AND column_name = %s",
                           [model._meta.db_table, name])
            assert cursor.fetchone() == ("text",)


def test_none_is_null_and_a_value_its_compact_json():
    field = JSONText()
    assert field.get_prep_value(None) is None and field.from_db_value(None, None, connection) is None
    assert field.get_prep_value({"cards": ["3S"], "n": 1}) == '{"cards":["3S"],"n":1}'
    assert field.from_db_value('{"a":[1,null]}', None, connection) == {"a": [1, None]}


@pytest.mark.django_db
def test_djangos_serializers_carry_the_values_through(full_table):
    from django.core import serializers

    hand = hand_start(room_id=full_table("classic").pk)
    text = serializers.serialize("json", [hand])
    (again,) = serializers.deserialize("json", text)
    assert again.object.state == hand.state
