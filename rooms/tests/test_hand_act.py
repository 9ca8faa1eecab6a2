"""Acting in a hand: versions, engine refusals, re-sent actions, who may act."""

from datetime import timedelta

import pytest
from django.utils import timezone

from baohuang import engine
from baohuang.errors import ServiceError
from rooms.models import HandEvent
from rooms.services import hand_act, hand_start, trustee_set
from rooms.tests.play import step


@pytest.fixture
def hand(full_table):
    return hand_start(room_id=full_table("classic").pk)


def actor(hand):
    return engine.actors(hand.state)[0]


def refusal(**kwargs):
    with pytest.raises(ServiceError) as error:
        hand_act(**kwargs)
    return error.value.code


def test_an_action_is_applied_stored_and_bumps_the_version(hand):
    seat = actor(hand)
    change = hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0)

    hand.refresh_from_db()
    assert hand.version == 1 and change.events[0]["version"] == 1
    event = HandEvent.objects.get(hand=hand)
    assert (event.version, event.seat, event.action) == (1, seat, {"type": "decline", "seat": seat})
    assert event.event == change.events[0]["event"]
    assert event.public == engine.event_view(event.event, None)
    assert hand.state == engine.apply(engine.new_hand("classic", hand.seed, options=hand.options, salt=hand.salt),
                                     event.action)[0]


def test_a_stale_version_applies_nothing(hand):
    seat = actor(hand)
    hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0)
    hand.refresh_from_db()
    following = actor(hand)
    assert refusal(hand_id=hand.pk, seat=following, action={"type": "decline"}, expected_version=0) == "stale_version"
    assert HandEvent.objects.filter(hand=hand).count() == 1


def test_engine_refusals_pass_through_with_their_code(hand):
    other = (actor(hand) + 1) % 5
    assert refusal(hand_id=hand.pk, seat=other, action={"type": "decline"}, expected_version=0) == "not_your_turn"
    assert refusal(hand_id=hand.pk, seat=actor(hand), action={"type": "play", "cards": "3S"},
                   expected_version=0) == "wrong_phase"
    hand.refresh_from_db()
    assert hand.version == 0 and not hand.events.exists()


def test_a_resent_client_id_returns_the_first_result_and_applies_nothing(hand):
    seat = actor(hand)
    first = hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0, client_id="c-1")
    again = hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0, client_id="c-1")

    assert again.repeated and not first.repeated
    assert again.events == first.events
    hand.refresh_from_db()
    assert hand.version == 1 and hand.events.count() == 1


def test_a_client_id_already_applied_is_never_applied_again_even_at_the_current_version(hand):
    seat = actor(hand)
    first = hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0, client_id="c-1")
    hand.refresh_from_db()
    # Refused by the engine now (another seat's turn): still the earlier answer.
    again = hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=hand.version,
                     client_id="c-1")
    assert again.repeated and again.events == first.events
    while actor(hand) != seat:  # play on until the seat is awaited again
        other = actor(hand)
        hand_act(hand_id=hand.pk, seat=other, action=engine.autoplay(hand.state, other, "baseline"),
                 expected_version=hand.version)
        hand.refresh_from_db()
    # A legal action at the current version under the same client_id: the stored one wins.
    version = hand.version
    later = hand_act(hand_id=hand.pk, seat=seat, action=engine.autoplay(hand.state, seat, "baseline"),
                     expected_version=version, client_id="c-1")
    assert later.repeated and later.events[0]["version"] == 1
    hand.refresh_from_db()
    assert hand.version == version and hand.events.filter(client_id="c-1").count() == 1


def test_only_the_seated_player_acts_for_a_seat(hand, players):
    seat = actor(hand)
    intruder = players[(seat + 1) % 5]
    assert refusal(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0,
                   player=intruder) == "not_seated"
    hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0, player=players[seat])


def test_an_action_naming_another_seat_is_refused(hand):
    seat = actor(hand)
    action = {"type": "decline", "seat": (seat + 1) % 5}
    assert refusal(hand_id=hand.pk, seat=seat, action=action, expected_version=0) == "bad_action"


def test_a_seat_under_trustee_does_not_act_by_hand(hand):
    seat = actor(hand)
    trustee_set(room_id=hand.room_id, seat=seat, on=True)
    assert refusal(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0) == "trustee_on"


def test_each_decision_gets_the_timer_of_its_kind(full_table):
    room = full_table("lianzhong", timers={"bid": 10, "declare": 40, "play": 60})
    hand = hand_start(room_id=room.pk)
    kinds, kept = [], 0
    while engine.decision_kind(hand.state) != "play":
        kind, step_before, actors = engine.decision_kind(hand.state), hand.state["window"], engine.actors(hand.state)
        deadline = hand.deadline
        step(hand.pk)
        hand.refresh_from_db()
        kinds.append(kind)
        window = hand.state["window"]
        if window and step_before and window["step"] == step_before["step"]:
            # one step of the declaration window, one timer: answers do not restart it
            assert set(engine.actors(hand.state)) < set(actors) and hand.deadline == deadline
            kept += 1
        else:
            assert hand.deadline != deadline
    assert kept > 0
    seconds = (hand.deadline - timezone.now()).total_seconds()
    assert "declare" in kinds and 58 <= seconds <= 60
