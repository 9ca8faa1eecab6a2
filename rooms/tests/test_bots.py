"""Bots: the creator fills a seat with a bot of a level; bots play that level's policy
through Celery (issues 5, 18)."""

import time

import pytest
from django.db import transaction

from baohuang import engine
from baohuang.errors import ServiceError
from rooms import think
from rooms.levels import DEFAULT_BOT_LEVEL, LEVELS, POLICY
from rooms.models import Hand, HandEvent, Player, Room, Seat
from rooms.records import seat_record
from rooms.services import hand_act, player_guest, room_create, seat_ready, seat_take
from rooms.services.bots import bot_move, seat_add_bot
from rooms.services.schedule import schedule_decision
from rooms.tasks import seat_move
from rooms.tests.play import deal_instead
from rooms.tests.worker import celery_workers, wait_for, worker  # noqa: F401  (fixtures)
from scoring.models import LedgerEntry


def bot_room(preset="lianzhong", *, bots=4, levels=(), **options):
    """alice in seat 0 and ``bots`` bots, of ``levels`` in turn (default 普通 normal)."""
    alice = player_guest(nickname="alice")
    room = room_create(creator=alice, name="bots", preset=preset, options=options)
    seat_take(room_id=room.pk, player=alice, index=0)
    for number in range(bots):
        level = {"level": levels[number % len(levels)]} if levels else {}
        seat_add_bot(room_id=room.pk, by=alice, **level)
    return room, alice


# --- adding a bot -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_creator_fills_an_empty_seat_with_a_labelled_bot():
    alice = player_guest(nickname="alice")
    room = room_create(creator=alice, name="bots", preset="classic")
    seat = seat_add_bot(room_id=room.pk, by=alice, index=3)
    assert seat.index == 3
    assert seat.player.is_bot and seat.player.display_name == "1"  # worded per language: 机器人 1 / Bot 1
    second = seat_add_bot(room_id=room.pk, by=alice)
    assert second.index == 0 and second.player.display_name == "2"  # the lowest free seat, the next number


@pytest.mark.django_db
@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_is_added_at_the_level_chosen(level):
    alice = player_guest(nickname="alice")
    room = room_create(creator=alice, name="bots", preset="classic")
    seat = seat_add_bot(room_id=room.pk, by=alice, level=level)
    assert Player.objects.get(pk=seat.player_id).bot_level == level


@pytest.mark.django_db
def test_a_bot_is_normal_unless_chosen_and_an_unknown_level_is_refused():
    alice = player_guest(nickname="alice")
    room = room_create(creator=alice, name="bots", preset="classic")
    assert seat_add_bot(room_id=room.pk, by=alice).player.bot_level == "normal"  # 普通
    bots_before = Player.objects.filter(is_bot=True).count()
    with pytest.raises(ServiceError) as error:
        seat_add_bot(room_id=room.pk, by=alice, level="grandmaster")
    assert error.value.code == "bad_level"
    assert Player.objects.filter(is_bot=True).count() == bots_before


@pytest.mark.django_db
def test_only_the_creator_adds_bots():
    alice, bob = player_guest(nickname="alice"), player_guest(nickname="bob")
    room = room_create(creator=alice, name="bots", preset="classic")
    bots_before = Player.objects.filter(is_bot=True).count()
    with pytest.raises(ServiceError) as error:
        seat_add_bot(room_id=room.pk, by=bob)
    assert error.value.code == "not_creator"
    assert Player.objects.filter(is_bot=True).count() == bots_before


@pytest.mark.django_db
def test_a_room_that_allows_no_bots_refuses_one():
    alice = player_guest(nickname="alice")
    room = room_create(creator=alice, name="bots", preset="classic", options={"allow_bots": False})
    with pytest.raises(ServiceError) as error:
        seat_add_bot(room_id=room.pk, by=alice)
    assert error.value.code == "bots_not_allowed"
    assert not Seat.objects.filter(room=room, player__isnull=False).exists()


@pytest.mark.django_db
def test_a_full_room_refuses_a_bot_and_keeps_no_bot_player():
    room, alice = bot_room("classic")  # alice and four bots
    bots_before = Player.objects.filter(is_bot=True).count()
    with pytest.raises(ServiceError) as error:
        seat_add_bot(room_id=room.pk, by=alice)
    assert error.value.code == "room_full"
    assert Player.objects.filter(is_bot=True).count() == bots_before  # rolled back


# --- a bot's move -----------------------------------------------------------------------------


def bots_turn(level: str, preset: str = "qingdao"):
    """A dealt hand of alice and four bots of ``level``, at a decision a bot takes."""
    room, alice = bot_room(preset, levels=(level,))
    hand = seat_ready(room_id=room.pk, player=alice)  # bots are always ready
    seat = engine.actors(hand.state)[0]
    if seat == 0:  # alice decides first: let her accept, so a bot is awaited next
        hand_act(hand_id=hand.pk, seat=0, action={"type": "accept"}, expected_version=0)
        hand.refresh_from_db()
        seat = [s for s in engine.actors(hand.state) if s != 0][0]
    return hand, seat


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["novice", "normal"])
def test_a_bot_plays_its_levels_move_and_ignores_a_stale_version(level):
    hand, seat = bots_turn(level)
    expected = engine.autoplay(hand.state, seat, POLICY[level])
    assert seat_move(hand.pk, hand.version + 7, seat) == "moved"  # not the version now
    assert seat_move(hand.pk, hand.version, seat) == "acted:trustee"  # the task a bot's turn queues
    event = HandEvent.objects.get(hand=hand, version=hand.version + 1)
    assert event.action == expected and not event.by_trustee
    assert seat_move(hand.pk, hand.version + 1, 0) == "moved"  # alice is no bot, nor under 托管


@pytest.mark.django_db
def test_a_bot_stored_without_a_level_plays_and_is_listed_at_the_default_level():
    hand, seat = bots_turn("novice")
    Player.objects.filter(is_bot=True).update(bot_level="")  # as a bot made in the admin
    expected = engine.autoplay(hand.state, seat, POLICY[DEFAULT_BOT_LEVEL])
    assert seat_move(hand.pk, hand.version, seat) == "acted:trustee"
    assert HandEvent.objects.get(hand=hand, version=hand.version + 1).action == expected
    bot = Seat.objects.get(room=hand.room, index=seat)
    assert seat_record(bot)["player"]["level"] == DEFAULT_BOT_LEVEL


@pytest.mark.django_db
def test_a_decision_the_hand_moved_past_while_the_bot_thought_is_not_applied():
    # The task read the hand at version v and decided from it; meanwhile the hand moved
    # on (here: the bot's own move, stored by another message). The version fence refuses
    # the late move, whatever it is.
    hand, seat = bots_turn("normal")
    read_at_v = Hand.objects.get(pk=hand.pk)
    assert seat_move(hand.pk, hand.version, seat) == "acted:trustee"
    bot = Seat.objects.select_related("player").get(room_id=hand.room_id, index=seat)
    assert bot_move(hand=read_at_v, seat=bot, version=read_at_v.version) is None
    assert HandEvent.objects.filter(hand=hand, version__gt=read_at_v.version).count() == 1


# --- a table of bots, with a real worker ------------------------------------------------------


def play_own_turns(hand_ids: list[int], seat: int, *, seconds: float) -> None:
    """Alice acts on her own turns only, in every hand, until they all end (a void hand,
    黄庄, is followed by its redeal)."""
    end = time.monotonic() + seconds
    running = {hand_id: None for hand_id in hand_ids}  # hand → the version last looked at
    while running and time.monotonic() < end:
        for hand_id, seen in list(running.items()):
            version, over = Hand.objects.filter(pk=hand_id).values_list("version", "ended").get()
            if over is not None:
                del running[hand_id]
                redeal = Hand.objects.filter(room__hands=hand_id, ended__isnull=True).first()
                if redeal is not None:  # 黄庄: the same table plays the redeal
                    running[redeal.pk] = None
                continue
            if version == seen:
                continue  # nothing new: do not load the state again
            running[hand_id] = version
            hand = Hand.objects.get(pk=hand_id)
            if seat in engine.actors(hand.state):
                action = engine.autoplay(hand.state, seat, "strong")
                try:
                    hand_act(hand_id=hand_id, seat=seat, action=action, expected_version=hand.version)
                except ServiceError as error:
                    assert error.code == "stale_version"  # a bot answered in the same window first
        time.sleep(0.02)
    if running:
        pytest.fail(f"hands {sorted(running)} did not end within {seconds} s")


@pytest.mark.django_db(transaction=True)
def test_one_human_and_four_bots_play_a_complete_hand_of_each_preset(worker):
    rooms = {preset: bot_room(preset, levels=("novice", "normal"), trustee_delay=0)
             for preset in ("classic", "lianzhong", "qingdao")}
    policies = {1: "baseline", 2: "strong", 3: "baseline", 4: "strong"}  # seat → its bot's level's policy
    started = [seat_ready(room_id=room.pk, player=alice).pk for room, alice in rooms.values()]
    play_own_turns(started, 0, seconds=100)

    for preset, (room, _alice) in rooms.items():
        hand = Hand.objects.filter(room=room, phase=Hand.Phase.ENDED).get()
        assert hand.scored and sorted(hand.result["places"]) == [0, 1, 2, 3, 4], preset
        events = list(hand.events.order_by("version"))
        assert not any(event.by_trustee for event in events)  # nobody timed out or entered 托管
        state = engine.new_hand(preset, hand.seed, options=hand.options, tribute=tuple(hand.tribute))
        for event in events:  # every bot move is its level's choice, in its turn
            if event.seat != 0:
                assert event.action == engine.autoplay(state, event.seat, policies[event.seat]), preset
            state, _ = engine.apply(state, event.action)
        assert LedgerEntry.objects.filter(hand=hand).count() == 5
        room.refresh_from_db()
        assert room.status == Room.Status.OPEN  # no seat under 托管: the room goes on
        assert not Seat.objects.filter(room=room, trustee=True).exists()


@pytest.mark.django_db
def test_the_migration_keeps_only_the_number_of_an_old_mixed_language_bot_name():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("rooms.migrations.0010_bot_names_by_number")
    old = Player.objects.create(username="bot-old", display_name="Bot 3 (机器人)", is_bot=True)
    person = Player.objects.create(username="guest-old", display_name="Bot 3 (机器人)", is_bot=False)
    migration.bot_names_to_numbers(apps, None)
    old.refresh_from_db()
    person.refresh_from_db()
    assert old.display_name == "3" and person.display_name == "Bot 3 (机器人)"


# lianzhong, emperor 0 and guard 2 (SJ*): a dozen moves to the end.
SHORT_DEAL = ["BJ* 9S 6D QS", "6C 8H KD", "SJ* KC JC", "7C TC 8D", "TS JD 9H"]


@pytest.mark.django_db(transaction=True)
def test_bots_of_every_level_play_out_a_hand_in_the_worker_each_after_its_think_time(worker):
    # Five bots, 高手 ones among them: the worker plays the whole hand. Each move comes no
    # sooner than its think time at the room's pace (rooms.think), counted from the move
    # before; a 高手 move also takes its search, which the think time already covers.
    pace = 0.4
    alice = player_guest(nickname="alice")
    room = room_create(creator=alice, name="bots", preset="lianzhong",
                       options={"hold_sixes": False, "trustee_delay": pace})
    levels = ("expert", "novice", "normal", "expert", "normal")
    for index, level in enumerate(levels[:4]):
        seat_add_bot(room_id=room.pk, by=alice, index=index, level=level)
    with transaction.atomic():  # the fifth bot deals (bots are always ready); the deal is replaced at once
        seat_add_bot(room_id=room.pk, by=alice, index=4, level=levels[4])
        hand = Hand.objects.get(room=room)
        state = engine.state_from_hands("lianzhong", SHORT_DEAL, emperor=0, guard=2, options={"hold_sixes": False})
        deal_instead(hand, state)
    hand.refresh_from_db()
    schedule_decision(hand)  # what the random deal queued may play the first move: not timed below
    wait_for(lambda: Hand.objects.filter(pk=hand.pk, ended__isnull=False).exists(), seconds=60)

    events = list(hand.events.order_by("version"))
    assert len(events) >= 10 and not any(event.by_trustee for event in events)
    level_of = dict(enumerate(levels))
    before = Hand.objects.get(pk=hand.pk).started
    for event in events:
        state_then = state
        pause = think.pause(state_then, event.seat, pace=pace, hand_id=hand.pk, version=event.version - 1)
        if level_of[event.seat] != "expert":
            assert event.action == engine.autoplay(state_then, event.seat, POLICY[level_of[event.seat]])
        waited = (event.created - before).total_seconds()
        # A 高手 move takes its whole budget even when its search settles sooner (rooms.levels).
        assert event.version == 1 or waited >= pause - 0.02, (event.version, waited, pause)
        state, _ = engine.apply(state, event.action)
        before = event.created
    assert Hand.objects.get(pk=hand.pk).phase == Hand.Phase.ENDED
