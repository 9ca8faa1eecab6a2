"""`rooms_quick_move(...)`: the database half of a quick move (rooms/services/quick.py).

PostgreSQL only (SQLite never takes the quick path). One call takes the room's lock, as
every service does first, then — in statements that see every commit made before the
lock was granted (a VOLATILE function takes a fresh snapshot per statement) — checks on
the fresh hand and seats everything `hand_act` would, and if all hold stores the new state
and appends the event. Returns the hand's deadline then, or NULL having changed nothing.

A later migration that changes these tables must replace the function to match; the
equivalence test (rooms/tests/test_quick.py) fails if ordinary moves stop taking it.
"""

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION rooms_quick_move(
    p_room bigint, p_hand bigint, p_expected integer, p_seat integer, p_player bigint,
    p_state jsonb, p_version integer, p_phase text, p_keep boolean, p_deadline timestamptz,
    p_timers jsonb, p_awaited integer[], p_action jsonb, p_event jsonb, p_public jsonb,
    p_client_id text
) RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_deadline timestamptz;
BEGIN
    PERFORM 1 FROM rooms_room WHERE id = p_room FOR UPDATE;
    UPDATE rooms_hand AS h
    SET state = p_state, version = p_version, phase = p_phase,
        deadline = CASE WHEN p_keep THEN h.deadline ELSE p_deadline END
    WHERE h.id = p_hand AND h.room_id = p_room AND h.version = p_expected AND h.ended IS NULL
      -- the hand's queued turn-timer message covers the new deadline (else: queue one)
      AND h.timer_at > now() AND h.timer_at <= CASE WHEN p_keep THEN h.deadline ELSE p_deadline END
      AND (SELECT r.options -> 'timers' FROM rooms_room AS r WHERE r.id = p_room) = p_timers
      -- the mover is the seat's player, still seated, not under 托管
      AND EXISTS (SELECT 1 FROM rooms_seat AS s WHERE s.room_id = p_room AND s.index = p_seat
                  AND s.player_id = p_player AND NOT s.left AND NOT s.trustee)
      -- nobody awaited next is played by the server (托管, a bot, an empty seat)
      AND NOT EXISTS (SELECT 1 FROM rooms_seat AS s LEFT JOIN rooms_player AS p ON p.id = s.player_id
                      WHERE s.room_id = p_room AND s.index = ANY(p_awaited)
                      AND (s.trustee OR s.player_id IS NULL OR p.is_bot))
    RETURNING h.deadline INTO v_deadline;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO rooms_handevent (hand_id, version, seat, action, event, public, client_id, by_trustee, created)
    VALUES (p_hand, p_version, p_seat, p_action, p_event, p_public, p_client_id, false, now());
    RETURN v_deadline;
END
$$;
"""

DROP = "DROP FUNCTION IF EXISTS rooms_quick_move(bigint, bigint, integer, integer, bigint, jsonb, integer, text, " \
       "boolean, timestamptz, jsonb, integer[], jsonb, jsonb, jsonb, text);"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("rooms", "0003_chat_message")]

    operations = [migrations.RunPython(create, drop)]
