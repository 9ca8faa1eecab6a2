"""Admin for players, rooms, seats, hands, the hand event log and table chat.

Admin actions go through the services, like every other writer: kicking costs −40 and
plays the seat on under 托管; dissolving abandons a running hand and converts debts.
Hands and their events are read-only here; a hand's page shows its event log and a
replay check (rebuilt from seed + actions, compared with the stored state).
"""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm, UserCreationForm
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from baohuang.admin_base import ReadOnlyAdmin
from baohuang.errors import ServiceError
from rooms import selectors, services
from rooms.models import ChatMessage, Hand, HandEvent, Player, Room, Seat


def _run(modeladmin, request, label, calls):
    """Run service calls, reporting each refusal by its readable message."""
    done = 0
    for call in calls:
        try:
            call()
            done += 1
        except ServiceError as error:
            modeladmin.message_user(request, f"{label}: {error.message} ({error.code})", messages.ERROR)
    if done:
        modeladmin.message_user(request, f"{label}: {done} done.", messages.SUCCESS)


class PlayerCreationForm(UserCreationForm):
    """An account with a password (guests and bots are created by the services)."""

    class Meta(UserCreationForm.Meta):
        model = Player
        fields = ("username", "display_name")


class PlayerChangeForm(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    add_form = PlayerCreationForm
    form = PlayerChangeForm
    list_display = ("username", "display_name", "is_bot", "is_staff", "banned", "chat_muted_until", "date_joined")
    list_filter = ("is_bot", "is_staff", "is_active", "banned")
    search_fields = ("username", "display_name", "email")
    fieldsets = UserAdmin.fieldsets + (
        ("Player", {"fields": ("display_name", "is_bot")}),
        ("Moderation", {"fields": ("banned", "ban_reason", "chat_muted_until", "moderate")}),
    )
    readonly_fields = ("banned", "ban_reason", "chat_muted_until", "moderate")

    @admin.display(description="Mute or ban")
    def moderate(self, player):
        """Moderation changes only with a log entry (rooms/admin_moderation.py)."""
        if player.pk is None:
            return "-"
        url = reverse("admin:rooms_moderationentry_add") + f"?player={player.pk}"
        return format_html('<a href="{}">Mute, unmute, ban or unban {}</a>', url, player)
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("username", "display_name", "password1", "password2")}),)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    max_num = 5
    fields = ("index", "player", "online", "trustee", "trustee_entries", "left")
    readonly_fields = fields  # seats change through the services only


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "preset", "status", "creator", "created")
    list_filter = ("preset", "status")
    search_fields = ("name", "creator__username", "creator__display_name")
    readonly_fields = ("status", "creator", "created", "updated")
    inlines = [SeatInline]
    actions = ["dissolve"]

    @admin.action(description="Dissolve the selected rooms (abandons a running hand)")
    def dissolve(self, request, queryset):
        calls = [lambda room=room: services.room_dissolve(room_id=room.pk, by=request.user) for room in queryset]
        _run(self, request, "Dissolve", calls)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("room", "index", "player", "online", "trustee", "trustee_entries", "left")
    list_filter = ("online", "trustee", "left", "room__status")
    search_fields = ("room__name", "player__username", "player__display_name")
    list_select_related = ("room", "player")
    actions = ["kick"]

    @admin.action(description="Kick the seated player from the room (−40 points)")
    def kick(self, request, queryset):
        calls = [
            lambda seat=seat: services.player_kick(room_id=seat.room_id, player=seat.player, by=request.user)
            for seat in queryset.select_related("player")
            if seat.player is not None
        ]
        _run(self, request, "Kick", calls)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("id", "room", "number", "preset", "phase", "version", "scored", "started", "ended")
    list_filter = ("preset", "phase", "scored")
    search_fields = ("room__name", "=seed")
    list_select_related = ("room",)
    fields = (
        "room", "number", "preset", "seed", "options", "tribute", "players", "phase", "version",
        "deadline", "timer_at", "scored", "started", "ended", "result", "replay_summary", "event_log",
    )
    readonly_fields = fields

    @admin.display(description="replay")
    def replay_summary(self, hand):
        events = hand.events.count()
        try:
            rebuilt = selectors.hand_replay(hand=hand)
        except Exception as error:  # show, don't crash the admin page
            return format_html("<b>replay failed</b>: {}", error)
        same = rebuilt == hand.state
        verdict = "matches the stored state" if same else "DIFFERS from the stored state"
        return format_html(
            "Rebuilt from seed {} and {} action(s): version {}, phase {} — {}.",
            hand.seed, events, rebuilt.get("version"), rebuilt.get("phase"), verdict,
        )

    @admin.display(description="event log")
    def event_log(self, hand):
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
            (
                (e.version, e.created.strftime("%H:%M:%S"), e.seat, "托管" if e.by_trustee else "", e.action, e.public)
                for e in hand.events.order_by("version")
            ),
        )
        head = "<tr><th>v</th><th>time</th><th>seat</th><th>by</th><th>action</th><th>public result</th></tr>"
        return format_html("<table>{}{}</table>", mark_safe(head), rows)


@admin.register(HandEvent)
class HandEventAdmin(ReadOnlyAdmin):
    list_display = ("hand", "version", "seat", "by_trustee", "action", "created")
    list_filter = ("by_trustee", "hand__preset")
    search_fields = ("hand__room__name", "client_id")
    list_select_related = ("hand",)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """What was said at the tables, for moderation (kick a player from the room's page)."""

    list_display = ("created", "room", "player", "seat", "text")
    list_filter = ("phrase",)
    search_fields = ("text", "player__username", "player__display_name", "room__name")
    list_select_related = ("room", "player")
    date_hierarchy = "created"


from rooms import admin_moderation  # noqa: E402,F401  (registers the moderation log)
