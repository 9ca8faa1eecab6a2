"""Qingdao tribute (进贡): owed at the end of a hand, paid in cards at the next deal,
turned into points when payer or receiver leaves first (seed 003: 一张贡折合成一分)."""

from collections import Counter

import pytest

from rooms.models import Room
from rooms.services import hand_start, room_dissolve, seat_leave
from rooms.tests.play import play_to_end
from scoring.models import LedgerEntry, TributeDebt


def engine_debts(debts):
    return sorted((d.payer_seat, d.receiver_seat, d.cards, d.kind) for d in debts)


def result_debts(result):
    return sorted((d["from"], d["to"], d["cards"], d["kind"]) for d in result["tribute"] if d["cards"] > 0)


@pytest.fixture
def owed(full_table):
    """A qingdao room after a scored hand that left tribute owed."""
    room = full_table("qingdao")
    for _ in range(4):
        hand = play_to_end(hand_start(room_id=room.pk).pk)
        if TributeDebt.objects.filter(hand=hand).exists():
            return room, hand
    pytest.fail("four qingdao hands without any tribute")


def test_a_qingdao_hand_leaves_the_debts_of_its_result(owed, players):
    room, hand = owed
    debts = TributeDebt.objects.filter(hand=hand)
    assert engine_debts(debts) == result_debts(hand.result)
    assert all(d.status == "open" and d.payer == players[d.payer_seat] for d in debts)


def test_the_next_deal_pays_open_debts_in_cards(owed):
    room, hand = owed
    debts = list(TributeDebt.objects.filter(hand=hand))
    following = hand_start(room_id=room.pk)

    expected = [{"from": d.payer_seat, "to": d.receiver_seat, "cards": d.cards, "kind": d.kind} for d in debts]
    assert following.tribute == expected
    assert following.state["tribute_in"] == expected
    # The engine moved the cards, one transfer per card. Who receives which card is settled
    # at the deal (the guard gets the highest of the rebels' cards), so compare per seat.
    if all(d.kind == "highest" for d in debts):
        moved = following.state["tribute_paid"]
        for side, seat_key in (("from", "payer_seat"), ("to", "receiver_seat")):
            paid = Counter(t[side] for t in moved)
            owed = Counter()
            for debt in debts:
                owed[getattr(debt, seat_key)] += debt.cards
            assert paid == owed
    for debt in debts:
        debt.refresh_from_db()
        assert debt.status == "paid" and debt.paid_in == following and debt.settled is not None
    assert not LedgerEntry.objects.filter(kind="tribute_points").exists()


def test_leaving_between_hands_turns_owed_cards_into_points(owed, players):
    room, hand = owed
    debt = TributeDebt.objects.filter(hand=hand).first()
    payer, receiver = debt.payer, debt.receiver
    theirs = TributeDebt.objects.filter(hand=hand, payer=payer) | TributeDebt.objects.filter(hand=hand, receiver=payer)
    owed_by = sum(d.cards for d in theirs if d.payer == payer)
    owed_to = sum(d.cards for d in theirs if d.receiver == payer)

    seat_leave(room_id=room.pk, player=payer)

    entries = LedgerEntry.objects.filter(kind="tribute_points")
    assert sum(e.points for e in entries.filter(player=payer)) == owed_to - owed_by
    assert sum(e.points for e in entries.filter(player=receiver)) >= debt.cards - sum(
        d.cards for d in theirs if d.payer == receiver
    )
    assert sum(e.points for e in entries) == 0
    assert all(d.status == "converted" for d in TributeDebt.objects.filter(pk__in=[d.pk for d in theirs]))
    others = TributeDebt.objects.filter(hand=hand).exclude(payer=payer).exclude(receiver=payer)
    assert all(d.status == "open" for d in others)


def test_one_point_per_owed_card(owed):
    room, hand = owed
    debt = TributeDebt.objects.filter(hand=hand).first()
    room_dissolve(room_id=room.pk)
    pair = LedgerEntry.objects.filter(kind="tribute_points", hand=hand, note__contains="进贡")
    assert pair.filter(player=debt.payer, points=-debt.cards).exists()
    assert pair.filter(player=debt.receiver, points=debt.cards).exists()


def test_dissolving_the_room_converts_every_open_debt(owed):
    room, hand = owed
    total = sum(d.cards for d in TributeDebt.objects.filter(hand=hand))
    room_dissolve(room_id=room.pk)
    room.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED
    assert not TributeDebt.objects.filter(room=room, status="open").exists()
    gained = LedgerEntry.objects.filter(kind="tribute_points", points__gt=0)
    assert sum(e.points for e in gained) == total
