"""Skill ratings stored per hand: who is rated, which way they move, and recomputation."""

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone


from rooms.services import hand_start, player_bot, room_create, room_dissolve, seat_take, trustee_set
from rooms.tests.play import finished_by_engine, play_to_end
from scoring import skill
from scoring.models import AppendOnly, Rating, RatingChange
from scoring.services import hand_rate, ratings_recompute, seat_won

PRESETS = ("classic", "lianzhong", "qingdao")


def _changes(hand):
    return {change.seat: change for change in RatingChange.objects.filter(hand=hand)}


@pytest.mark.parametrize("preset", PRESETS)
def test_a_rated_hand_moves_the_winners_up_and_the_losers_down(full_table, preset):
    hand = finished_by_engine(full_table(preset))

    changes = _changes(hand)
    assert sorted(changes) == [0, 1, 2, 3, 4]
    emperor_side, rebels = skill.sides(hand.result)
    for seat, change in changes.items():
        assert change.player_id == hand.players[seat] and change.preset == preset
        assert (change.mu_before, change.sigma_before) == (skill.NEW.mu, skill.NEW.sigma)
        if hand.result["outcome"] == "draw":
            assert change.mu == pytest.approx(change.mu_before)
        else:
            assert (change.mu > change.mu_before) == seat_won(hand.result, seat)
    # Each side moves together: partners alike, opponents alike.
    assert len({round(changes[seat].mu, 9) for seat in emperor_side}) == 1
    assert len({round(changes[seat].mu, 9) for seat in rebels}) == 1
    rating = Rating.objects.get(player_id=hand.players[0], preset=preset)
    assert (rating.hands, rating.mu, rating.sigma) == (1, changes[0].mu, changes[0].sigma)
    assert rating.ordinal == pytest.approx(changes[0].mu - 3 * changes[0].sigma)


def test_a_hand_played_to_its_end_is_rated_once(full_table):
    hand = play_to_end(hand_start(room_id=full_table("lianzhong").pk).pk)

    assert hand.scored and sorted(_changes(hand)) == [0, 1, 2, 3, 4]
    assert set(Rating.objects.values_list("hands", flat=True)) == {1}


def test_the_next_hand_starts_from_the_stored_rating(full_table):
    room = full_table("classic")
    first = finished_by_engine(room)
    second = finished_by_engine(room)

    for seat, change in _changes(second).items():
        before = _changes(first)[seat]
        assert (change.mu_before, change.sigma_before) == (before.mu, before.sigma)
    assert set(Rating.objects.filter(preset="classic").values_list("hands", flat=True)) == {2}


def test_a_rating_says_when_it_last_moved(full_table):
    room = full_table("classic")
    finished_by_engine(room)
    first = dict(Rating.objects.values_list("player_id", "updated"))
    finished_by_engine(room)

    second = dict(Rating.objects.values_list("player_id", "updated"))
    assert second.keys() == first.keys() and all(second[player] > first[player] for player in first)


def test_recomputing_from_scratch_gives_the_stored_values(full_table):
    for preset in ("classic", "qingdao", "classic", "lianzhong"):
        room = full_table(preset)
        finished_by_engine(room)
        finished_by_engine(room)
        room_dissolve(room_id=room.pk)
    assert RatingChange.objects.count() == 40

    assert ratings_recompute() == (8, 0)
    call_command("ratings_recompute")  # exits 0: nothing differs


def test_recomputing_finds_and_replaces_a_wrong_stored_value(full_table):
    room = full_table("lianzhong")
    finished_by_engine(room)
    finished_by_engine(room)
    right = list(RatingChange.objects.values_list("hand_id", "player_id", "mu", "sigma"))
    with connection.cursor() as cursor:  # as if the model's parameters had changed
        cursor.execute(f"UPDATE {RatingChange._meta.db_table} SET mu = mu + 1")

    assert ratings_recompute() == (2, 10)
    with pytest.raises(SystemExit):
        call_command("ratings_recompute")
    assert ratings_recompute(write=True) == (2, 10)
    assert ratings_recompute() == (2, 0)
    assert list(RatingChange.objects.values_list("hand_id", "player_id", "mu", "sigma")) == right


def test_a_rating_change_cannot_be_edited_or_deleted(full_table):
    hand = finished_by_engine(full_table("classic"))
    change = RatingChange.objects.filter(hand=hand).first()
    change.mu = 99.0
    with pytest.raises(AppendOnly):
        change.save()
    with pytest.raises(AppendOnly):
        change.delete()
    with pytest.raises(AppendOnly):
        RatingChange.objects.filter(hand=hand).update(mu=0)


def test_a_hand_with_every_seat_under_trustee_is_not_rated(full_table):
    room = full_table("qingdao")
    hand = hand_start(room_id=room.pk)
    for seat in range(5):
        trustee_set(room_id=room.pk, seat=seat, on=True)
    hand = play_to_end(hand.pk)

    assert not hand.scored and not RatingChange.objects.exists() and not Rating.objects.exists()
    assert ratings_recompute() == (0, 0)


def test_a_hand_of_bots_only_is_not_rated(alice):
    room = room_create(creator=alice, name="bots", preset="classic")
    for index in range(5):
        seat_take(room_id=room.pk, player=player_bot(number=index + 1), index=index)
    hand = finished_by_engine(room)

    assert hand.scored and not RatingChange.objects.exists()
    assert ratings_recompute() == (0, 0)


def test_bots_at_a_table_with_a_human_are_rated_as_their_own_entries(alice):
    room = room_create(creator=alice, name="practice", preset="classic")
    seat_take(room_id=room.pk, player=alice, index=0)
    for index in range(1, 5):
        seat_take(room_id=room.pk, player=player_bot(number=index + 1), index=index)
    hand = finished_by_engine(room)

    assert sorted(_changes(hand)) == [0, 1, 2, 3, 4]
    assert Rating.objects.filter(player__is_bot=True).count() == 4


@pytest.mark.parametrize("guard, up", [(2, {2}), (None, {2}), (4, {2, 4})])
def test_a_solo_is_rated_one_against_four_and_a_pair_two_against_three(full_table, guard, up):
    hand = hand_start(room_id=full_table("classic").pk)
    hand.result = {"void": False, "emperor": 2, "guard": guard, "outcome": "win"}
    hand.scored, hand.ended = True, timezone.now()
    hand.save()
    hand_rate(hand=hand)

    moved = {seat: change.mu - change.mu_before for seat, change in _changes(hand).items()}
    assert {seat for seat, delta in moved.items() if delta > 0} == up
    assert len({round(delta, 9) for delta in moved.values()}) == 2  # one move per side
