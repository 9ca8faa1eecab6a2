"""What the API returns (read-only), and the query parameters it accepts.

Output serializers only read attributes; anything that needs the engine (a hand's public
view, redacted events, the deal) is computed in the view and passed in as plain data.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from rooms.models import Preset, Room
from scoring.leaderboard import ORDERS, PERIODS

# -- query parameters ----------------------------------------------------------------


class LeaderboardQuery(serializers.Serializer):
    preset = serializers.ChoiceField(choices=Preset.choices, required=False, help_text="only hands of this preset")
    period = serializers.ChoiceField(
        choices=PERIODS, default="all", help_text="all time, the last 30 or 7 days, or since midnight (server time)"
    )
    order = serializers.ChoiceField(
        choices=ORDERS, default="points",
        help_text="rank by points, or by skill rating (the rating now: the period only chooses who is listed)")
    min_hands = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, default=0, help_text="leave off players with fewer hands")


class RoomListQuery(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=Room.Status.choices, required=False, help_text="default: every room not dissolved"
    )
    preset = serializers.ChoiceField(choices=Preset.choices, required=False)


class EventsQuery(serializers.Serializer):
    since = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, default=0, help_text="only events after this version (to catch up)"
    )


# -- errors ----------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable snake_case code, e.g. not_found, throttled")
    detail = serializers.CharField(help_text="a readable sentence")
    fields = serializers.DictField(required=False, help_text="invalid parameters: messages by name")


# -- players ---------------------------------------------------------------------------


class PlayerBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()


class TotalsSerializer(serializers.Serializer):
    points = serializers.IntegerField()
    hands = serializers.IntegerField(help_text="scored hands played")
    wins = serializers.IntegerField(help_text="hands whose side won")
    win_rate = serializers.FloatField(help_text="wins / hands, 0 without hands")


class PresetTotalsSerializer(TotalsSerializer):
    preset = serializers.ChoiceField(choices=Preset.choices)


class PlayerProfileSerializer(PlayerBriefSerializer):
    joined = serializers.DateTimeField(source="date_joined")
    totals = TotalsSerializer(help_text="every ledger entry")
    presets = PresetTotalsSerializer(many=True, help_text="per preset (entries from a room of that preset)")


class MeSerializer(PlayerProfileSerializer):
    username = serializers.CharField()
    is_staff = serializers.BooleanField()


class LedgerEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    points = serializers.IntegerField()
    preset = serializers.CharField(help_text="empty for entries without a room")
    won = serializers.BooleanField(allow_null=True, help_text="hand_score only: whether the side won")
    room = serializers.IntegerField(source="room_id", allow_null=True)
    hand = serializers.IntegerField(source="hand_id", allow_null=True)
    note = serializers.CharField()
    created = serializers.DateTimeField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 + players with more points (or a higher rating)")
    player = serializers.SerializerMethodField()
    points = serializers.IntegerField()
    hands = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    rating = serializers.FloatField(
        allow_null=True, help_text="skill rating now (μ − 3σ) in the preset asked for, else the best over presets; null if unrated")

    @extend_schema_field(PlayerBriefSerializer)
    def get_player(self, standing) -> dict:
        return {"id": standing.player_id, "display_name": standing.display_name, "is_bot": False}


class TokenRequestSerializer(AuthTokenSerializer):
    """An account's credentials, with their real shape in the schema (Django usernames; no NUL)."""

    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150, write_only=True)
    password = serializers.RegexField(r"^[^\x00]+\Z", max_length=4096, trim_whitespace=False, write_only=True,
                                      style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='send as "Authorization: Token <token>"')


# -- rooms -----------------------------------------------------------------------------


class RoomSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    preset = serializers.ChoiceField(choices=Preset.choices)
    status = serializers.ChoiceField(choices=Room.Status.choices)
    seats_taken = serializers.IntegerField(help_text="seats with a player (0–5)")
    allow_spectators = serializers.SerializerMethodField()
    public_records = serializers.SerializerMethodField()
    created = serializers.DateTimeField()

    def get_allow_spectators(self, room) -> bool:
        return bool(room.options.get("allow_spectators", True))

    def get_public_records(self, room) -> bool:
        return bool(room.options.get("public_records", False))


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    player = PlayerBriefSerializer(allow_null=True)
    online = serializers.BooleanField()
    trustee = serializers.BooleanField(help_text="托管: the room's policy plays for this seat")
    left = serializers.BooleanField(help_text="left mid-hand; plays on under 托管")


class HandBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    preset = serializers.ChoiceField(choices=Preset.choices)
    phase = serializers.CharField()
    version = serializers.IntegerField()
    started = serializers.DateTimeField()
    ended = serializers.DateTimeField(allow_null=True)
    scored = serializers.BooleanField()


class RoomDetailSerializer(RoomSerializer):
    options = serializers.JSONField(help_text="timers, 憋6/抢独, 托管 policy, bots, spectators, public records")
    creator = PlayerBriefSerializer(allow_null=True)
    seats = SeatSerializer(many=True)
    current_hand = HandBriefSerializer(allow_null=True)


# -- hands -----------------------------------------------------------------------------


class SeatPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerBriefSerializer(allow_null=True, help_text="null if the player no longer exists")


class HandSerializer(HandBriefSerializer):
    room = serializers.IntegerField(source="room_id")
    players = SeatPlayerSerializer(source="seat_players", many=True)
    view = serializers.JSONField(help_text="engine.view(state, None): what a spectator sees now")
    record_visible = serializers.BooleanField(help_text="whether you may read the full record")


class PublicEventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField()
    by_trustee = serializers.BooleanField()
    created = serializers.DateTimeField()
    event = serializers.JSONField(allow_null=True, help_text="engine.event_view(event, None); null = a bare version bump")


class RecordActionSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.JSONField()
    event = serializers.JSONField(help_text="the engine's full event")
    by_trustee = serializers.BooleanField()
    created = serializers.DateTimeField()


@extend_schema_field(OpenApiTypes.OBJECT)
class DealField(serializers.JSONField):
    pass


class HandRecordSerializer(HandBriefSerializer):
    room = serializers.IntegerField(source="room_id")
    seed = serializers.CharField(help_text="decimal: the deal's random seed (too large for a JavaScript number)")
    salt = serializers.CharField(help_text="the per-hand salt of the seed's commitment (SHA-256 of 'seed:salt'); "
                                           "empty for hands dealt before commitments")
    options = serializers.JSONField(help_text="engine options the hand was dealt under")
    players = SeatPlayerSerializer(source="seat_players", many=True)
    tribute = serializers.JSONField(help_text="进贡 debts paid in cards at this deal (engine form)")
    deal = DealField(help_text="hands: each seat's cards at the start of bidding; qingdao: tribute_paid, threes (买3)")
    actions = RecordActionSerializer(many=True)
    result = serializers.JSONField(allow_null=True, help_text="places, scores, outcome, tribute owed …; null if abandoned")
