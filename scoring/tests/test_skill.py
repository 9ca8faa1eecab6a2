"""The rating model (scoring.skill): sides, ranks and how an outcome moves both sides."""

import pytest

from scoring import skill
from scoring.skill import NEW, Skill


def _result(emperor, guard, outcome, void=False):
    return {"void": void, "emperor": emperor, "guard": guard, "outcome": outcome}


def test_sides_of_a_two_against_three_hand():
    assert skill.sides(_result(3, 1, "win")) == ([1, 3], [0, 2, 4])


@pytest.mark.parametrize("guard", [None, 2])
def test_a_solo_is_one_against_four(guard):
    # A solo emperor has no guard (抢庄, 抢独) or is the guard himself (独保, 红桃4 held).
    assert skill.sides(_result(2, guard, "lose")) == ([2], [0, 1, 3, 4])


def test_a_void_hand_has_no_sides():
    assert skill.sides(_result(None, None, None, void=True)) is None
    assert skill.sides(None) is None


@pytest.mark.parametrize("size", [1, 2])
def test_a_win_moves_the_emperor_side_up_and_the_rebels_down(size):
    emperor_side, rebels = skill.rate([NEW] * size, [NEW] * (5 - size), "win")
    assert all(new.mu > NEW.mu for new in emperor_side)
    assert all(new.mu < NEW.mu for new in rebels)


@pytest.mark.parametrize("size", [1, 2])
def test_a_loss_moves_the_rebels_up(size):
    emperor_side, rebels = skill.rate([NEW] * size, [NEW] * (5 - size), "lose")
    assert all(new.mu < NEW.mu for new in emperor_side)
    assert all(new.mu > NEW.mu for new in rebels)


@pytest.mark.parametrize("size", [1, 2])
def test_sides_of_equal_skill_are_equal_whatever_their_size(size):
    # The mean, not the sum: three rebels are not favourites over two (nor four over one).
    win_side, win_rebels = skill.rate([NEW] * size, [NEW] * (5 - size), "win")
    lose_side, lose_rebels = skill.rate([NEW] * size, [NEW] * (5 - size), "lose")
    assert win_side[0].mu - NEW.mu == pytest.approx(NEW.mu - win_rebels[0].mu)
    assert win_side[0].mu - NEW.mu == pytest.approx(lose_rebels[0].mu - NEW.mu)
    draw_side, draw_rebels = skill.rate([NEW] * size, [NEW] * (5 - size), "draw")
    assert draw_side[0].mu == pytest.approx(NEW.mu) and draw_rebels[0].mu == pytest.approx(NEW.mu)


def test_a_draw_moves_the_stronger_side_down():
    strong, weak = Skill(30.0, 4.0), Skill(20.0, 4.0)
    emperor_side, rebels = skill.rate([strong, strong], [weak, weak, weak], "draw")
    assert emperor_side[0].mu < strong.mu and rebels[0].mu > weak.mu


def test_beating_a_stronger_side_gains_more():
    upset, _ = skill.rate([NEW, NEW], [Skill(35.0, 3.0)] * 3, "win")
    expected, _ = skill.rate([NEW, NEW], [Skill(15.0, 3.0)] * 3, "win")
    assert upset[0].mu > expected[0].mu


def test_a_strong_partner_makes_a_win_count_less():
    with_strong, _ = skill.rate([NEW, Skill(40.0, 2.0)], [NEW] * 3, "win")
    with_weak, _ = skill.rate([NEW, Skill(10.0, 2.0)], [NEW] * 3, "win")
    assert with_strong[0].mu < with_weak[0].mu


def test_playing_makes_a_rating_surer():
    side, rebels = skill.rate([NEW, NEW], [NEW] * 3, "win")
    assert all(new.sigma < NEW.sigma for new in side + rebels)


def test_the_ordinal_of_a_new_player_is_zero():
    assert NEW.ordinal == pytest.approx(0.0)
