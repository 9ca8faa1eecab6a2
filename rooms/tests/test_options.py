"""Room options: defaults filled in, anything odd refused with bad_options."""

from importlib import import_module

import pytest

from baohuang.errors import ServiceError
from rooms.options import clean_options


def test_defaults_fill_everything_not_given():
    options = clean_options({"timers": {"play": 30}, "grab_solo": True})
    assert options["timers"] == {"play": 30, "bid": 15, "declare": 8}
    assert options["grab_solo"] is True and options["hold_sixes"] is True
    assert options["trustee_level"] == "novice"


@pytest.mark.parametrize(
    "raw",
    [
        {"timers": {"play": 4}},
        {"timers": {"play": 121}},
        {"timers": {"play": "20"}},
        {"timers": {"nap": 20}},
        {"hold_sixes": "yes"},
        {"trustee_level": "clever"},
        {"trustee_policy": "strong"},  # the option before levels (migration 0012)
        {"colour": "red"},
        {"trustee_delay": -1},
    ],
)
def test_bad_options_are_refused(raw):
    with pytest.raises(ServiceError) as error:
        clean_options(raw)
    assert error.value.code == "bad_options"


@pytest.mark.django_db
@pytest.mark.parametrize("policy, level", [("baseline", "novice"), ("strong", "normal")])
def test_rooms_and_bots_from_before_levels_are_migrated(policy, level):
    from django.apps import apps

    from rooms.models import Player, Room, default_options

    migration = import_module("rooms.migrations.0012_bot_levels")
    old = {key: value for key, value in default_options().items() if key != "trustee_level"}
    room = Room.objects.create(name="old", preset="classic", options={**old, "trustee_policy": policy})
    bot = Player.objects.create(username="bot-old", display_name="Bot 1", is_bot=True)
    migration.forwards(apps, None)
    room.refresh_from_db()
    bot.refresh_from_db()
    assert room.options == clean_options({**old, "trustee_level": level})  # a valid room again
    assert bot.bot_level == "normal"  # bots played the strong policy before levels
    migration.backwards(apps, None)
    room.refresh_from_db()
    assert room.options["trustee_policy"] == policy and "trustee_level" not in room.options
