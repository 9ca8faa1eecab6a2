"""`manage.py export_player <username or id> [--output FILE]`: the player's data as JSON
(ops/export.py), for a player who asks for it or before an account is closed."""

import json

from django.core.management.base import BaseCommand, CommandError

from ops.export import player_export
from rooms.models import Player


class Command(BaseCommand):
    help = "Export a player's account, ledger, hands, chat and moderation log as JSON."

    def add_arguments(self, parser):
        parser.add_argument("player", help="username, or numeric id")
        parser.add_argument("--output", help="write to this file instead of standard output")

    def handle(self, *args, player, output=None, **options):
        found = Player.objects.filter(username=player).first()
        if found is None and player.isdigit():
            found = Player.objects.filter(pk=int(player)).first()
        if found is None:
            raise CommandError(f"no player with username or id {player!r}")
        text = json.dumps(player_export(found), ensure_ascii=False, indent=2)
        if output:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text + "\n")
            self.stderr.write(f"wrote {output}")
        else:
            self.stdout.write(text)
