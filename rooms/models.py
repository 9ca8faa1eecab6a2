"""Players, rooms, seats, hands and the hand's event log, and table chat.

Only `rooms.services` writes these rows; everything else reads them through
`rooms.selectors` or the admin.
"""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext

from rooms.fields import JSONText
from rooms.levels import LEVELS, playing_level
from rooms.options import DEFAULTS as DEFAULT_OPTIONS

SEATS = 5


class Preset(models.TextChoices):
    """The rule presets (must equal engine.PRESETS; a test checks it)."""

    CLASSIC = "classic", "classic 叫庄保皇"
    LIANZHONG = "lianzhong", "lianzhong 皇保保皇"
    QINGDAO = "qingdao", "qingdao 青岛保皇"
    LIANZHONG_CLASSIC = "lianzhong_classic", "lianzhong_classic 联众经典"


class Player(AbstractUser):
    """Anyone who can sit at a table: a guest (nickname only), an account, or a bot."""

    display_name = models.CharField(max_length=40)
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=8, blank=True, choices=[(level, level) for level in LEVELS],
                                 help_text="a bot's level (rooms.levels): the policy it plays; blank for people")
    # Moderation (rooms/services/moderation.py), changed only with a ModerationEntry.
    chat_muted_until = models.DateTimeField(null=True, blank=True)
    banned = models.BooleanField(default=False)
    ban_reason = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return shown_name(name=self.display_name or self.username, bot=self.is_bot)

    @property
    def level(self) -> str:
        """The level a bot plays at (`levels.playing_level`)."""
        return playing_level(self.bot_level)


def shown_name(*, name: str, bot: bool) -> str:
    """A player's name as people see it, in the active language. A bot's stored name is
    only its number, worded here (机器人 3 / Bot 3) and by the table's `playerName`
    (static/js/i18n.js), which reads the `bot` flag of the protocol's player records."""
    return gettext("Bot %(number)s") % {"number": name} if bot else name


def default_options() -> dict:
    return {**DEFAULT_OPTIONS, "timers": dict(DEFAULT_OPTIONS["timers"])}


class Room(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"  # seats can change; no hand is running
        PLAYING = "playing"  # a hand is running
        DISSOLVED = "dissolved"  # closed for good

    name = models.CharField(max_length=60)
    preset = models.CharField(max_length=24, choices=Preset.choices)
    options = models.JSONField(default=default_options)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    creator = models.ForeignKey(Player, models.SET_NULL, null=True, blank=True, related_name="rooms_created")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    unattended_since = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text="since when no seated player has been connected (None: one is); see rooms.services.rooms_close_abandoned")
    ready_due = models.DateTimeField(
        null=True, blank=True,
        help_text="准备: when the wait for ready runs out (all five seated, no hand, someone not ready); "
                  "then another seated player may free a seat that is not ready. See rooms.services.ready")

    def __str__(self) -> str:
        return f"{self.name} ({self.preset}, #{self.pk})"


class Seat(models.Model):
    """One of the five places at a room's table (0–4); all five rows exist from creation."""

    room = models.ForeignKey(Room, models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, models.PROTECT, null=True, blank=True, related_name="seats")
    online = models.BooleanField(default=False)
    trustee = models.BooleanField(default=False, help_text="托管: the room's policy plays for this seat")
    trustee_entries = models.PositiveSmallIntegerField(default=0, help_text="times this seat entered 托管 this hand")
    left = models.BooleanField(default=False, help_text="the player left mid-hand; the seat plays on under 托管")
    ready = models.BooleanField(default=False, help_text="准备: ready for the next deal (a bot always is)")

    class Meta:
        ordering = ["room", "index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="seat_index_unique_per_room"),
            models.UniqueConstraint(
                fields=["room", "player"], condition=Q(player__isnull=False), name="one_seat_per_player_per_room"
            ),
            models.CheckConstraint(condition=Q(index__lt=SEATS), name="seat_index_0_to_4"),
        ]

    # More than three entries in one hand lock 托管 on (RULES §8).
    TRUSTEE_LOCK_AFTER = 3

    @property
    def trustee_locked(self) -> bool:
        return self.trustee_entries > self.TRUSTEE_LOCK_AFTER

    def __str__(self) -> str:
        return f"room {self.room_id} seat {self.index}: {self.player or 'empty'}"


class Hand(models.Model):
    """One deal in a room, with the engine's state. Rebuildable from seed + events."""

    class Phase(models.TextChoices):
        """The engine's `state["phase"]`, plus ABANDONED (ours)."""

        BIDDING = "bidding"  # choosing the emperor (叫庄 / 让皇)
        DECLARING = "declaring"  # the declaration window (明保, 反, 扭, 踢, …)
        PLAYING = "playing"
        ENDED = "ended"
        VOID = "void"  # 黄庄: nobody took the throne; the room redealt at once
        ABANDONED = "abandoned"  # the room was dissolved before the hand ended

    room = models.ForeignKey(Room, models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField(help_text="secret until the hand is over")
    salt = models.CharField(max_length=64, blank=True, default="",
                            help_text="the seed commitment's salt (engine.fairness); secret until the hand is over")
    preset = models.CharField(max_length=24, choices=Preset.choices)
    options = models.JSONField(default=dict, help_text="engine options it was dealt under")
    tribute = models.JSONField(default=list, help_text="qingdao debts paid in cards at this deal (engine form)")
    players = models.JSONField(default=list, help_text="player id per seat when dealt")
    state = JSONText(help_text="engine state")
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=16, choices=Phase.choices, db_index=True)
    deadline = models.DateTimeField(null=True, blank=True, help_text="when the open decision times out")
    timer_at = models.DateTimeField(
        null=True, blank=True, help_text="when the turn-timer message already queued for this hand fires"
    )
    result = models.JSONField(null=True, blank=True)
    scored = models.BooleanField(default=False)
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room", "number"]
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="hand_number_unique_per_room")]

    @property
    def running(self) -> bool:
        return self.ended is None

    def __str__(self) -> str:
        return f"room {self.room_id} hand {self.number}"


class HandEvent(models.Model):
    """Append-only: one accepted action and what happened, at the version it produced."""

    hand = models.ForeignKey(Hand, models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = JSONText()
    event = JSONText(help_text="the engine's full event (may name hidden cards: never send it as is)")
    public = JSONText(null=True, help_text="what a spectator may see of the event")
    client_id = models.CharField(max_length=64, null=True, blank=True)
    by_trustee = models.BooleanField(default=False, help_text="played by the 托管 policy")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="event_version_unique_per_hand"),
            models.UniqueConstraint(
                fields=["hand", "seat", "client_id"],
                condition=Q(client_id__isnull=False),
                name="event_client_id_unique_per_seat",
            ),
        ]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("hand events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("hand events are append-only")

    def __str__(self) -> str:
        return f"hand {self.hand_id} v{self.version} seat {self.seat}"


class ChatMessage(models.Model):
    """A line of table chat (free text or a quick phrase): kept so that a player who comes
    back sees the conversation, and so that operators can read what was said."""

    room = models.ForeignKey(Room, models.CASCADE, related_name="chat")
    player = models.ForeignKey(Player, models.PROTECT, related_name="chat")
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="the speaker's seat (none: watching)")
    text = models.CharField(max_length=200)
    phrase = models.CharField(max_length=32, blank=True, help_text="the quick phrase's id, if it was one")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["room", "id"]

    def __str__(self) -> str:
        return f"room {self.room_id}: {self.player}: {self.text}"


class ModerationEntry(models.Model):
    """The append-only moderation log: each mute, unmute, ban and unban, who did it and why."""

    class Action(models.TextChoices):
        MUTE = "mute", "mute chat"
        UNMUTE = "unmute", "unmute chat"
        BAN = "ban", "ban"
        UNBAN = "unban", "unban"

    player = models.ForeignKey(Player, models.PROTECT, related_name="moderation")
    staff = models.ForeignKey(Player, models.PROTECT, null=True, related_name="moderated")
    action = models.CharField(max_length=8, choices=Action.choices)
    until = models.DateTimeField(null=True, blank=True, help_text="end of a mute")
    reason = models.CharField(max_length=200)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "moderation log"

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.player} by {self.staff}: {self.reason}"
