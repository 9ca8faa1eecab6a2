"""The table's room panel (房间设置): the room's settings as a player reads them, and the
room's finished hands the viewer may replay.

The settings are the room's options (`rooms.options`), labelled as the lobby's room form
labels them, in the request's language; 憋6 and 抢独 only for the presets they apply to.
Options are public: everyone who may watch the table may read them.
"""

from django.utils.translation import gettext as _

from baohuang.engine import preset_named
from rooms.forms import PRESET_LABELS, RoomForm
from rooms.levels import LABELS as LEVEL_LABELS
from rooms.models import Hand, Room
from rooms.options import DEFAULTS
from rooms.selectors import record_visible

HANDS_LISTED = 20


def _label(field: str) -> str:
    return str(RoomForm.base_fields[field].label)


def _on_off(value: bool) -> str:
    return _("On") if value else _("Off")


def _seconds(value) -> str:
    return _("%(s)ss") % {"s": f"{value:g}"}


def room_settings(room: Room) -> list[dict]:
    """[{"key", "label", "value"}] for the room's settings, in the order the form asks them."""
    options = {**DEFAULTS, **room.options}  # a room older than an option has its default
    preset = preset_named(room.preset)
    timers = {**DEFAULTS["timers"], **options["timers"]}
    rows = [("preset", _label("preset"), str(PRESET_LABELS.get(room.preset, room.preset)))]
    rows += [(f"timer_{kind}", _label(f"timer_{kind}"), _seconds(timers[kind])) for kind in ("play", "bid", "declare")]
    rows.append(("ready_time", _label("ready_time"), _seconds(options["ready_time"])))
    if preset.sixes_option:
        rows.append(("hold_sixes", _label("hold_sixes"), _on_off(options["hold_sixes"])))
    if preset.grab_option:
        rows.append(("grab_solo", _label("grab_solo"), _on_off(options["grab_solo"])))
    rows += [
        ("card_counter", _label("card_counter"), _on_off(options["card_counter"])),
        ("trustee_level", _label("trustee_level"), str(LEVEL_LABELS[options["trustee_level"]])),
        ("trustee_delay", _label("trustee_delay"), _seconds(options["trustee_delay"])),
        ("allow_bots", _label("allow_bots"), _on_off(options["allow_bots"])),
        ("allow_spectators", _label("allow_spectators"), _on_off(options["allow_spectators"])),
        ("public_records", _label("public_records"), _on_off(options["public_records"])),
    ]
    return [{"key": key, "label": label, "value": value} for key, label, value in rows]


def replayable_hands(room: Room, viewer) -> list[Hand]:
    """The room's last finished hands (newest first) whose replay ``viewer`` may watch."""
    hands = Hand.objects.filter(room=room, ended__isnull=False).order_by("-number")[:HANDS_LISTED]
    found = []
    for hand in hands:
        hand.room = room  # record_visible reads the room's options
        if record_visible(hand, viewer):
            found.append(hand)
    return found
