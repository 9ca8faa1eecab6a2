"""How the protocol shows a seat, a chat line and a moment (shared by reads and writes)."""

from rooms.models import ChatMessage, Player, Seat


def epoch_ms(moment) -> int | None:
    """A deadline or time as sent: epoch milliseconds (broadcasts carry no datetimes)."""
    return None if moment is None else int(moment.timestamp() * 1000)


def player_record(player: Player) -> dict:
    """A player as every frame shows it: `name` as stored, the same for every language (a
    bot's is its number), and `bot`, so the page words a bot's name (机器人 3 / Bot 3)."""
    return {"id": player.pk, "name": player.display_name or player.username, "bot": player.is_bot}


def seat_record(seat: Seat) -> dict:
    """One seat as the protocol shows it (`snapshot.seats`, `presence.seat`)."""
    player = seat.player
    return {
        "index": seat.index,
        "player": None if player is None else {**player_record(player),
                                               "level": player.level if player.is_bot else None},
        "online": seat.online,
        "trustee": seat.trustee,
        "trustee_locked": seat.trustee_locked,
        "trustee_entries": seat.trustee_entries,
        "left": seat.left,
        "ready": seat.ready,
    }


def chat_record(message: ChatMessage) -> dict:
    """A chat line as the protocol shows it (`chat` frames, `snapshot.chat`)."""
    return {"player": player_record(message.player), "seat": message.seat,
            "text": message.text, "phrase": message.phrase or None, "at": epoch_ms(message.created)}
