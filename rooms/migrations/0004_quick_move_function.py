"""Formerly created `rooms_quick_move`, a PostgreSQL function that stored ordinary moves
with its own copy of `hand_act`'s checks. Every move now goes through the one path
(`rooms.services.hands`, docs/architecture.md); 0008 drops the function where an earlier
version of this migration made it. Kept, empty, so the migration history stays whole."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("rooms", "0003_chat_message")]

    operations = []
