"""The moderation log in the admin: "add" mutes, unmutes, bans or unbans a player through
`player_moderate` (with a reason, and the staff member who did it); entries are never
changed or deleted. A player's admin page links here, the form already filled in."""

from django import forms
from django.contrib import admin

from baohuang.admin_base import AppendOnlyAdmin
from rooms.models import ModerationEntry
from rooms.services import player_moderate
from rooms.services.moderation import MUTE_MAX_MINUTES


class ModerationForm(forms.ModelForm):
    minutes = forms.IntegerField(required=False, min_value=1, max_value=MUTE_MAX_MINUTES,
                                 help_text="How long a mute lasts (minutes; 1440 is a day).")

    class Meta:
        model = ModerationEntry
        fields = ("player", "action", "minutes", "reason")

    def clean(self):
        data = super().clean()
        if data.get("action") == ModerationEntry.Action.MUTE and not data.get("minutes"):
            self.add_error("minutes", "A mute needs its length in minutes.")
        return data


@admin.register(ModerationEntry)
class ModerationEntryAdmin(AppendOnlyAdmin):
    form = ModerationForm
    add_fields = ModerationForm.Meta.fields
    shown_fields = ("player", "action", "until", "reason", "staff", "created")
    list_display = ("created", "player", "action", "until", "reason", "staff")
    list_filter = ("action", "created")
    search_fields = ("player__username", "player__display_name", "reason", "staff__username")
    list_select_related = ("player", "staff")
    raw_id_fields = ("player",)
    date_hierarchy = "created"

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data  # the form made the service's checks
        entry = player_moderate(player=data["player"], staff=request.user, action=data["action"],
                                reason=data["reason"], minutes=data.get("minutes"))
        obj.pk = entry.pk
        obj._state.adding = False
