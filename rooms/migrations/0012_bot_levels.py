"""Bot and 托管 levels (issue 18): bots get a level (those already seated played the
strong policy: 普通 normal); rooms' ``trustee_policy`` option becomes ``trustee_level``."""

from django.db import migrations, models

LEVEL_OF_POLICY = {"baseline": "novice", "strong": "normal"}  # rooms.levels, as of this migration


def forwards(apps, schema_editor):
    apps.get_model("rooms", "Player").objects.filter(is_bot=True).update(bot_level="normal")
    Room = apps.get_model("rooms", "Room")
    for room in Room.objects.filter(options__has_key="trustee_policy").iterator():
        policy = room.options.pop("trustee_policy")
        room.options["trustee_level"] = LEVEL_OF_POLICY.get(policy, "novice")
        room.save(update_fields=["options"])


def backwards(apps, schema_editor):
    policy_of_level = {level: policy for policy, level in LEVEL_OF_POLICY.items()}
    Room = apps.get_model("rooms", "Room")
    for room in Room.objects.filter(options__has_key="trustee_level").iterator():
        level = room.options.pop("trustee_level")
        room.options["trustee_policy"] = policy_of_level.get(level, "strong")
        room.save(update_fields=["options"])


class Migration(migrations.Migration):

    dependencies = [
        ("rooms", "0011_ready"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="bot_level",
            field=models.CharField(blank=True, choices=[("novice", "novice"), ("normal", "normal"), ("expert", "expert")],
                                   help_text="a bot's level (rooms.levels): the policy it plays; blank for people",
                                   max_length=8),
        ),
        migrations.RunPython(forwards, backwards),
    ]
