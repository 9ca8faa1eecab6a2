"""The lobby's forms: a guest nickname, and a new room with its preset and options.

They only validate what a person typed; `rooms.services` decides whether it is allowed.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from rooms.levels import DEFAULT_BOT_LEVEL, LABELS
from rooms.models import Preset
from rooms.options import DEFAULTS, READY_RANGE, TIMER_RANGE
from rooms.services.players import NICKNAME_MAX
from rooms.services.rooms import NAME_MAX

PRESET_LABELS = {
    Preset.CLASSIC: _("Classic 叫庄保皇"),
    Preset.LIANZHONG: _("Lianzhong 皇保保皇"),
    Preset.QINGDAO: _("Qingdao 青岛保皇"),
    Preset.LIANZHONG_CLASSIC: _("Lianzhong classic 联众经典"),
}
LEVEL_CHOICES = list(LABELS.items())  # 入门, 普通, 高手


class GuestForm(forms.Form):
    """A guest (游客) needs only a nickname."""

    nickname = forms.CharField(label=_("Nickname"), max_length=NICKNAME_MAX)


def _timer(label, kind):
    low, high = TIMER_RANGE
    return forms.IntegerField(label=label, min_value=low, max_value=high,
                              initial=DEFAULTS["timers"][kind])


class RoomForm(forms.Form):
    """A new room: name, preset (玩法) and the room options of `rooms.options`."""

    name = forms.CharField(label=_("Room name"), max_length=NAME_MAX)
    preset = forms.ChoiceField(label=_("Rules"), choices=list(PRESET_LABELS.items()),
                               initial=Preset.CLASSIC)
    timer_play = _timer(_("Seconds to play"), "play")
    timer_bid = _timer(_("Seconds to bid"), "bid")
    timer_declare = _timer(_("Seconds to declare"), "declare")
    ready_time = forms.IntegerField(label=_("Seconds to press Ready 准备 before the others may free the seat"),
                                    min_value=READY_RANGE[0], max_value=READY_RANGE[1], initial=DEFAULTS["ready_time"],
                                    required=False)
    hold_sixes = forms.BooleanField(label=_("Hold sixes 憋6 (lianzhong, lianzhong classic)"), required=False,
                                    initial=DEFAULTS["hold_sixes"])
    grab_solo = forms.BooleanField(label=_("Grab solo 抢独 (lianzhong, lianzhong classic)"), required=False,
                                   initial=DEFAULTS["grab_solo"])
    card_counter = forms.BooleanField(label=_("Card counter 记牌器"), required=False,
                                      initial=DEFAULTS["card_counter"])
    public_records = forms.BooleanField(label=_("Public records: anyone may replay this room's finished hands"),
                                        required=False, initial=DEFAULTS["public_records"])
    trustee_level = forms.ChoiceField(label=_("Auto-play 托管 level"), initial=DEFAULTS["trustee_level"],
                                      choices=LEVEL_CHOICES)
    allow_bots = forms.BooleanField(label=_("Allow bots"), required=False,
                                    initial=DEFAULTS["allow_bots"])
    allow_spectators = forms.BooleanField(label=_("Allow spectators"), required=False,
                                          initial=DEFAULTS["allow_spectators"])
    trustee_delay = forms.FloatField(label=_("Think time of 托管 seats and bots (seconds, about)"),
                                     min_value=0, max_value=10, initial=DEFAULTS["trustee_delay"])
    bots = forms.IntegerField(label=_("Bots to seat now"), min_value=0, max_value=4, initial=0,
                              required=False)
    bot_level = forms.ChoiceField(label=_("Bot level"), initial=DEFAULT_BOT_LEVEL, choices=LEVEL_CHOICES,
                                  required=False)

    BASIC = ("name", "preset", "bots", "bot_level")  # shown first; the rest under "More options"

    def basic_fields(self):
        return [self[name] for name in self.BASIC]

    def more_fields(self):
        return [field for field in self if field.name not in self.BASIC]

    def clean(self):
        data = super().clean()
        if data.get("bots") and not data.get("allow_bots"):
            self.add_error("bots", _("This room does not allow bots."))
        data["bot_level"] = data.get("bot_level") or DEFAULT_BOT_LEVEL
        return data

    def options(self) -> dict:
        """The room options, in the shape `room_create` takes."""
        data = self.cleaned_data
        return {
            "timers": {"play": data["timer_play"], "bid": data["timer_bid"],
                       "declare": data["timer_declare"]},
            "hold_sixes": data["hold_sixes"],
            "grab_solo": data["grab_solo"],
            "card_counter": data["card_counter"],
            "public_records": data["public_records"],
            "trustee_level": data["trustee_level"],
            "allow_bots": data["allow_bots"],
            "allow_spectators": data["allow_spectators"],
            "trustee_delay": data["trustee_delay"],
            "ready_time": data["ready_time"] or DEFAULTS["ready_time"],
        }
