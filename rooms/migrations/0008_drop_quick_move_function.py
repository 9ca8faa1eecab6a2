"""Drop `rooms_quick_move` (see 0004): no rule or check lives in SQL any more."""

from django.db import migrations

DROP = "DROP FUNCTION IF EXISTS rooms_quick_move(bigint, bigint, integer, integer, bigint, jsonb, integer, text, " \
       "boolean, timestamptz, jsonb, integer[], jsonb, jsonb, jsonb, text);"


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("rooms", "0007_hand_salt")]

    operations = [migrations.RunPython(drop, migrations.RunPython.noop)]
