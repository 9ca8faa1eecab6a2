"""A player's data as plain JSON (`manage.py export_player`): the account, its ledger, the
hands it sat in with its own actions, its chat and the moderation log about it.

Only what is the player's own or was shown at their table: a hand still running is
listed without its result, seed or actions (they are secret until it ends).
"""

from django.db import connection

from rooms.models import ChatMessage, Hand, HandEvent, ModerationEntry, Player
from scoring.models import LedgerEntry


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def player_hands(player: Player) -> list[Hand]:
    """Hands dealt with the player in a seat (`Hand.players`, the ids per seat)."""
    hands = Hand.objects.order_by("started", "pk").select_related("room")
    if connection.features.supports_json_field_contains:
        return list(hands.filter(players__contains=[player.pk]))
    return [hand for hand in hands if player.pk in hand.players]  # SQLite, for development


def _hand(hand: Hand, player: Player) -> dict:
    seat = hand.players.index(player.pk)
    record = {"id": hand.pk, "room": hand.room_id, "room_name": hand.room.name, "number": hand.number,
              "preset": hand.preset, "seat": seat, "started": _when(hand.started), "ended": _when(hand.ended)}
    if hand.running:
        return record
    events = HandEvent.objects.filter(hand=hand, seat=seat).order_by("version")
    return {**record, "seed": hand.seed, "scored": hand.scored, "result": hand.result,
            "actions": [{"version": event.version, "action": event.action, "by_trustee": event.by_trustee,
                         "at": _when(event.created)} for event in events]}


def player_export(player: Player) -> dict:
    ledger = LedgerEntry.objects.filter(player=player).order_by("created", "pk")
    chat = ChatMessage.objects.filter(player=player).order_by("created", "pk")
    moderation = ModerationEntry.objects.filter(player=player).order_by("created", "pk")
    return {
        "player": {"id": player.pk, "username": player.username, "display_name": player.display_name,
                   "email": player.email, "is_bot": player.is_bot, "joined": _when(player.date_joined),
                   "last_login": _when(player.last_login)},
        "ledger": [{"id": entry.pk, "kind": entry.kind, "points": entry.points, "room": entry.room_id,
                    "hand": entry.hand_id, "preset": entry.preset, "note": entry.note, "at": _when(entry.created)}
                   for entry in ledger],
        "hands": [_hand(hand, player) for hand in player_hands(player)],
        "chat": [{"room": line.room_id, "seat": line.seat, "text": line.text, "phrase": line.phrase,
                  "at": _when(line.created)} for line in chat],
        "moderation": [{"action": entry.action, "until": _when(entry.until), "reason": entry.reason,
                        "at": _when(entry.created)} for entry in moderation],
    }
