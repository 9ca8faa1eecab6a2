"""Every ledger write keeps the running totals (LedgerTotal) and the entry's preset and win flag."""

from django.db import connection
from django.db.models import Count, Q, Sum
from django.test.utils import CaptureQueriesContext

from baohuang import engine
from rooms.models import Hand
from rooms.services import hand_start, player_kick, seat_leave
from rooms.services.common import running_hand
from rooms.tests.play import play_to_end, step
from scoring.models import LedgerEntry, LedgerTotal, TributeDebt
from scoring.services import ledger_adjust, ratings_recompute, seat_won, totals_rebuild


def totals():
    return sorted(LedgerTotal.objects.values_list("player_id", "preset", "points", "hands", "wins"))


def sums_of_the_ledger():
    rows = (LedgerEntry.objects.order_by().values("player_id", "preset")
            .annotate(points=Sum("points"), hands=Count("id", filter=Q(kind="hand_score")),
                      wins=Count("id", filter=Q(won=True))))
    return sorted((r["player_id"], r["preset"], r["points"], r["hands"], r["wins"]) for r in rows)


def test_totals_follow_hands_leaving_tribute_points_and_adjustments(full_table, players):
    room = full_table("qingdao")
    for _ in range(3):  # until a hand leaves 进贡 owed
        play_to_end(hand_start(room_id=room.pk).pk)
        if TributeDebt.objects.filter(room=room, status="open").exists():
            break
    debt = TributeDebt.objects.filter(room=room, status="open").first()
    if debt is not None:
        seat_leave(room_id=room.pk, player=debt.payer)  # debts become tribute_points entries
    kicked = next(p for p in players if debt is None or p.pk != debt.payer_id)
    player_kick(room_id=room.pk, player=kicked, note="spam")  # −40
    ledger_adjust(player=players[0], points=7, note="correction")  # no room: preset ""

    assert LedgerEntry.objects.filter(kind="leave_penalty").exists()
    assert totals() == sums_of_the_ledger()
    assert {row[1] for row in totals()} == {"qingdao", ""}


def last_move_of_a_scored_hand(room) -> list[str]:
    """Play hands of `room` until one is scored; the SQL of that hand's last move."""
    for _ in range(10):  # 黄庄 (everyone refused the throne) is rare: the room deals again
        hand_id = (running_hand(room) or hand_start(room_id=room.pk)).pk
        while True:
            hand = Hand.objects.get(pk=hand_id)
            seat = engine.actors(hand.state)[0]
            action = engine.autoplay(hand.state, seat)
            after, _ = engine.apply(hand.state, {**action, "seat": seat})
            if engine.result(after) is not None:
                break
            step(hand_id, action)
        with CaptureQueriesContext(connection) as queries:
            step(hand_id, action)
        if Hand.objects.get(pk=hand_id).scored:
            return [query["sql"] for query in queries.captured_queries]
    raise AssertionError("ten void hands in a row")


def test_a_hands_end_writes_its_entries_totals_and_debts_in_one_statement_each_with_no_savepoint_of_its_own(full_table):
    statements = last_move_of_a_scored_hand(full_table("qingdao"))

    def count(start):
        return sum(1 for sql in statements if sql.lstrip().upper().startswith(start.upper()))

    assert count('INSERT INTO "scoring_ledgerentry"') == 1
    assert count("INSERT INTO scoring_ledgertotal") == 1
    assert count('INSERT INTO "scoring_tributedebt"') <= 1
    # One: the move's own transaction, nested in the test's (none of the scoring's own).
    assert count("SAVEPOINT") == 1, "\n".join(sql[:100] for sql in statements)
    assert LedgerEntry.objects.filter(kind="hand_score").count() == 5
    assert totals() == sums_of_the_ledger()


def test_a_hands_end_writes_the_ratings_in_one_statement_and_the_room_once_without_reading_it(full_table):
    room = full_table("classic")
    statements = last_move_of_a_scored_hand(room)
    after_the_move = statements[[i for i, sql in enumerate(statements) if 'INTO "rooms_handevent"' in sql][-1]:]

    def count(start):
        return sum(1 for sql in after_the_move if sql.lstrip().upper().startswith(start.upper()))

    assert count('UPDATE "scoring_rating"') == 0 and count("INSERT INTO scoring_rating") == 1
    assert count('UPDATE "rooms_room"') == 1, "\n".join(sql[:100] for sql in after_the_move)
    assert count('SELECT "rooms_room"') == count('SELECT "rooms_hand"') == 0  # no read of the room, nor the hand
    room.refresh_from_db()
    assert room.status == "open" and room.ready_due is not None  # the wait for 准备 has started
    hand = Hand.objects.filter(room=room, scored=True).get()
    assert set(LedgerEntry.objects.filter(hand=hand).values_list("room_id", flat=True)) == {room.pk}
    assert ratings_recompute() == (1, 0)  # the ratings stored are the ones the hand gives


def test_rebuilding_the_totals_from_the_ledger_changes_nothing(full_table, players):
    room = full_table("lianzhong")
    player_kick(room_id=room.pk, player=players[1])  # −40 in lianzhong
    ledger_adjust(player=players[1], points=12, note="refund")
    ledger_adjust(player=players[2], points=-3, note="penalty")
    before = totals()

    assert totals_rebuild() == 3
    assert totals() == before == sums_of_the_ledger()
    assert before == [(players[1].pk, "", 12, 0, 0), (players[1].pk, "lianzhong", -40, 0, 0),
                      (players[2].pk, "", -3, 0, 0)]


def test_a_side_wins_by_the_outcome_of_the_emperor_side():
    # RULES §7: "win" is the emperor side's (皇帝 + 保皇派), "lose" the rebels' (造反派).
    two = {"emperor": 1, "guard": 3, "outcome": "win"}
    assert [seat_won(two, seat) for seat in range(5)] == [False, True, False, True, False]
    solo_lost = {"emperor": 2, "guard": None, "outcome": "lose"}
    assert [seat_won(solo_lost, seat) for seat in range(5)] == [True, True, False, True, True]
    assert [seat_won({**two, "outcome": "draw"}, seat) for seat in range(5)] == [False] * 5
    assert seat_won(None, 0) is None and seat_won({"void": True, "outcome": None}, 0) is None
