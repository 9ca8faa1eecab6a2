"""Bots were stored as "Bot 3 (机器人)", two languages at once; now a bot's stored name is
only its number, worded per language where it is shown (rooms.models.shown_name)."""

import re

from django.db import migrations


def bot_names_to_numbers(apps, schema_editor):
    Player = apps.get_model("rooms", "Player")
    for bot in Player.objects.filter(is_bot=True).only("pk", "display_name"):
        number = re.search(r"\d+", bot.display_name)
        name = number.group(0) if number else "1"
        if name != bot.display_name:
            Player.objects.filter(pk=bot.pk).update(display_name=name)


def numbers_to_bot_names(apps, schema_editor):
    Player = apps.get_model("rooms", "Player")
    for bot in Player.objects.filter(is_bot=True).only("pk", "display_name"):
        Player.objects.filter(pk=bot.pk).update(display_name=f"Bot {bot.display_name} (机器人)")


class Migration(migrations.Migration):

    dependencies = [
        ("rooms", "0009_preset_lianzhong_classic"),
    ]

    operations = [
        migrations.RunPython(bot_names_to_numbers, numbers_to_bot_names),
    ]
