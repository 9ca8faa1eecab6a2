"""Reads of players, rooms, seats and hands (services do the writing)."""

from baohuang import engine
from rooms.models import Hand, HandEvent, Room, Seat


def rooms_open():
    """Rooms a player can look at in the lobby, newest first."""
    return Room.objects.exclude(status=Room.Status.DISSOLVED).order_by("-created")


def room_get(*, room_id: int) -> Room | None:
    return Room.objects.filter(pk=room_id).first()


def may_watch(*, room: Room, user, hand: Hand | None = None) -> bool:
    """Whether `user` may follow the room's play from outside a seat: its spectator view,
    events and chat — on every path (socket, pages, API).

    Everyone when the room's option `allow_spectators` is on (the default). Off, only
    staff, the room's players (a seat, also one left mid-hand) and the players dealt into
    `hand`; a signed-in visitor sees the seats, to sit down, and nothing else.
    """
    if room.options.get("allow_spectators", True):
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or (hand is not None and user.pk in hand.players):
        return True
    return Seat.objects.filter(room=room, player=user).exists()


def room_seats(*, room: Room) -> list[Seat]:
    return list(Seat.objects.filter(room=room).select_related("player").order_by("index"))


def seat_of_player(*, room: Room, player) -> Seat | None:
    """The seat the player plays in this room (also while it plays on under 托管 after leaving)."""
    return Seat.objects.filter(room=room, player=player).first()


def hand_current(*, room: Room) -> Hand | None:
    """The running hand, if any."""
    return Hand.objects.filter(room=room, ended__isnull=True).order_by("-number").first()


def hand_latest(*, room: Room) -> Hand | None:
    return Hand.objects.filter(room=room).order_by("-number").first()


def hand_events_since(*, hand: Hand, version: int):
    """Events after `version`, oldest first (to catch a client up; redact before sending)."""
    return HandEvent.objects.filter(hand=hand, version__gt=version).order_by("version")


def hand_view(*, hand: Hand, seat: int | None) -> dict:
    """What `seat` (None: a spectator) may see of the hand now (engine.view)."""
    return engine.view(hand.state, seat)


def hand_replay(*, hand: Hand) -> dict:
    """Rebuild the hand from its seed and stored actions (restart safety, admin check)."""
    actions = list(HandEvent.objects.filter(hand=hand).order_by("version").values_list("action", flat=True))
    return engine.replay(hand.preset, hand.seed, actions, options=hand.options, tribute=tuple(hand.tribute))

