"""Room options: defaults filled in, anything odd refused with bad_options."""

import pytest

from baohuang.errors import ServiceError
from rooms.options import clean_options


def test_defaults_fill_everything_not_given():
    options = clean_options({"timers": {"play": 30}, "grab_solo": True})
    assert options["timers"] == {"play": 30, "bid": 15, "declare": 8}
    assert options["grab_solo"] is True and options["hold_sixes"] is True
    assert options["trustee_policy"] == "baseline"


@pytest.mark.parametrize(
    "raw",
    [
        {"timers": {"play": 4}},
        {"timers": {"play": 121}},
        {"timers": {"play": "20"}},
        {"timers": {"nap": 20}},
        {"hold_sixes": "yes"},
        {"trustee_policy": "clever"},
        {"colour": "red"},
        {"trustee_delay": -1},
    ],
)
def test_bad_options_are_refused(raw):
    with pytest.raises(ServiceError) as error:
        clean_options(raw)
    assert error.value.code == "bad_options"
