"""Qingdao tribute (进贡) between hands, and buying threes (买3) after the deal — RULES §5, §7.

A finished qingdao hand leaves debts for the next hand (`tribute_debts`). After the next
deal they are paid in cards (`pay_tribute`), then every seat without a 3 buys one
(`buy_threes`). All three functions are pure: they return new hands and never mutate.

A debt is `{"from": seat, "to": seat, "cards": n, "kind": "highest" | "two"}`.

[decision] Who receives the highest card of a "highest" tribute depends on the cards dealt
next hand (the guard gets the highest of the rebels' cards; rebels receive the emperor
side's cards best place first). A debt therefore carries a *provisional* payer→receiver
pairing, fixed from this hand's places, which is what converts to points if a seat leaves
before the next deal (one point per owed card, RULES §7). When the cards are paid,
`pay_tribute` pools every "highest" card paid and hands them out high to low in the order
of the debt list, so the list order is the receivers' priority order.
"""

from baohuang.engine.cards import is_marked, sort_hand, value

PRESET = "qingdao"
KINDS = ("highest", "two")
OUTCOMES = ("win", "draw", "lose")


def tribute_debts(*, emperor, guard, solo, declarations, places, outcome, sold_three):
    """The tribute owed for the next hand by this hand's result, in priority order.

    `places` is this hand's finishing order, `outcome` the emperor side's result,
    `sold_three` the seats that sold a 3 in this hand's 买3.
    """
    _check_result(emperor, guard, solo, places, outcome)
    # 明保 / 明独 double the tribute (贡牌翻番).
    per_seat = 2 if ("ming_bao" in declarations or solo == "open") else 1
    # A draw counts as a loss for the emperor side (seed 003: 平局则皇帝一方进贡).
    side_wins = outcome == "win"
    if solo is not None:
        return _solo_debts(emperor, places, side_wins, per_seat, sold_three)
    rebels = [seat for seat in places if seat not in (emperor, guard)]  # best place first
    if side_wins:
        # Each rebel owes its highest card; the guard gets the highest of them, the
        # emperor the next two. Provisionally the best-placed rebel owes the guard.
        payers = _slots(rebels, per_seat)
        receivers = [guard] * per_seat + [emperor] * (2 * per_seat)
    else:
        # The emperor owes its two highest cards, the guard one; rebels receive by place,
        # best place first, highest card first.
        payers = [emperor] * (2 * per_seat) + [guard] * per_seat
        receivers = _slots(rebels, per_seat)
    return _pair(payers, receivers, "highest")


def _solo_debts(emperor, places, side_wins, per_seat, sold_three):
    """A solo emperor's tribute is paid in 2s (皇帝打独时吃贡进贡都是2)."""
    others = [seat for seat in places if seat != emperor]  # best place first
    if side_wins:
        # Every other seat owes one 2; a seat with none pays nothing (没2不进).
        return [_debt(seat, emperor, per_seat, "two") for seat in others]
    # The emperor owes four 2s, one per seat; if short, the best places receive first and
    # seats that sold a 3 this hand receive last (卖3者最后吃贡). The sort is stable, so
    # places still order the sellers among themselves.
    # [decision] Doubled (明独), each seat's two 2s come together: the best place receives
    # both before the next seat receives any.
    receivers = sorted(others, key=lambda seat: seat in sold_three)
    return [_debt(emperor, seat, per_seat, "two") for seat in receivers]


def pay_tribute(hands, debts):
    """Pay `debts` in cards right after the deal; returns `(new hands, transfers)`.

    Transfers are `{"from", "to", "card"}` in the order the cards move.
    [decision] RULES §7: "highest" means the payer's highest card by qingdao value, marked
    cards included — the 保子 `4H*` is the highest card there is — and between equal cards
    (`BJ`, `BJ*`) the unmarked copy goes first. The role travels with the card: the deal
    is paid before the bidding opens, so the receiver of `4H*` is this hand's guard and
    the receiver of `BJ*` is first offered the throne. A payer without the card owed
    (no 2) pays nothing for that debt.
    """
    _check_hands(hands)
    for debt in debts:
        _check_debt(debt)
    hands = [list(hand) for hand in hands]
    transfers = _pay_highest(hands, [debt for debt in debts if debt["kind"] == "highest"])
    transfers += _pay_twos(hands, [debt for debt in debts if debt["kind"] == "two"])
    return hands, transfers


def _pay_highest(hands, debts):
    # Every payer hands over its highest cards first, then the pool goes out high to low
    # to the receivers in debt order (the guard gets the highest of the three; rebels
    # receive best place first).
    owed = {}
    for debt in debts:
        owed[debt["from"]] = owed.get(debt["from"], 0) + debt["cards"]
    pool = []
    for payer, count in owed.items():
        for card in sort_hand(hands[payer], PRESET)[:count]:
            hands[payer].remove(card)
            pool.append((payer, card))
    pool.sort(key=lambda paid: -value(paid[1], PRESET))  # stable: ties keep payer order
    receivers = _slots([debt["to"] for debt in debts], [debt["cards"] for debt in debts])
    transfers = []
    for (payer, card), receiver in zip(pool, receivers):
        hands[receiver].append(card)
        transfers.append({"from": payer, "to": receiver, "card": card})
    return transfers


def _pay_twos(hands, debts):
    transfers = []
    for debt in debts:
        twos = [card for card in _payable(hands[debt["from"]]) if _is_two(card)]
        for card in twos[:debt["cards"]]:
            hands[debt["from"]].remove(card)
            hands[debt["to"]].append(card)
            transfers.append({"from": debt["from"], "to": debt["to"], "card": card})
    return transfers


def buy_threes(hands):
    """买3: every seat without a 3 buys one; returns `(new hands, purchases)`.

    Buyers go in seat order 0..4. The seller is the seat holding the most 3s, ties going
    to the nearest in turn order after the buyer. The buyer pays a 2, else an SJ, else a
    BJ — never a marked card; with none of those the 3 is free. Purchases are
    `{"buyer", "seller", "paid": card | None}`. Afterwards every seat holds exactly one 3.
    """
    _check_hands(hands)
    hands = [list(hand) for hand in hands]
    threes = sum(_count_threes(hand) for hand in hands)
    if threes != 5:
        raise ValueError(f"a qingdao deal holds five 3s, these hands hold {threes}")
    purchases = []
    for buyer in range(5):
        if _count_threes(hands[buyer]):
            continue
        # max() keeps the first of equals, and the candidates run in turn order.
        candidates = [(buyer + step) % 5 for step in range(1, 5)]
        seller = max(candidates, key=lambda seat: _count_threes(hands[seat]))
        three = next(card for card in sort_hand(hands[seller], PRESET) if card[0] == "3")
        hands[seller].remove(three)
        hands[buyer].append(three)
        paid = _price_of_a_three(hands[buyer])
        if paid is not None:
            hands[buyer].remove(paid)
            hands[seller].append(paid)
        purchases.append({"buyer": buyer, "seller": seller, "paid": paid})
    assert all(_count_threes(hand) == 1 for hand in hands)
    return hands, purchases


def _price_of_a_three(hand):
    """A 2, else a small joker, else a big joker (没有2用小花或者大花买); never marked."""
    payable = _payable(hand)
    for acceptable in (_is_two, lambda card: card == "SJ", lambda card: card == "BJ"):
        for card in payable:
            if acceptable(card):
                return card
    return None


# --- helpers ----------------------------------------------------------------------------


def _payable(hand):
    """The hand's unmarked cards, highest first by qingdao value (a 2 or a joker paid for
    a 3, or a 2 owed by a solo, is never a marked card)."""
    return [card for card in sort_hand(hand, PRESET) if not is_marked(card)]


def _is_two(card):
    return card[0] == "2"


def _count_threes(hand):
    return sum(1 for card in hand if card[0] == "3")


def _slots(seats, counts):
    """Expand seats into one slot per card: counts is one int for all or one per seat."""
    if isinstance(counts, int):
        counts = [counts] * len(seats)
    return [seat for seat, count in zip(seats, counts) for _ in range(count)]


def _pair(payers, receivers, kind):
    """Zip payer and receiver slots into debts, merging runs of the same pair."""
    debts = []
    for payer, receiver in zip(payers, receivers, strict=True):
        if debts and (debts[-1]["from"], debts[-1]["to"]) == (payer, receiver):
            debts[-1]["cards"] += 1
        else:
            debts.append(_debt(payer, receiver, 1, kind))
    return debts


def _debt(payer, receiver, cards, kind):
    return {"from": payer, "to": receiver, "cards": cards, "kind": kind}


def _check_result(emperor, guard, solo, places, outcome):
    if sorted(places) != [0, 1, 2, 3, 4]:
        raise ValueError(f"places must list seats 0-4 once each, got {places!r}")
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}; expected one of {OUTCOMES}")
    if solo not in (None, "dark", "open"):
        raise ValueError(f"qingdao has no solo {solo!r}")
    if solo is None and (guard not in range(5) or guard == emperor):
        raise ValueError(f"a two-person side needs a guard other than the emperor, got {guard!r}")
    if emperor not in range(5):
        raise ValueError(f"emperor must be a seat 0-4, got {emperor!r}")


def _check_hands(hands):
    if len(hands) != 5:
        raise ValueError(f"expected five hands, got {len(hands)}")


def _check_debt(debt):
    if debt.get("kind") not in KINDS:
        raise ValueError(f"unknown tribute kind in {debt!r}; expected one of {KINDS}")
    if debt.get("from") not in range(5) or debt.get("to") not in range(5):
        raise ValueError(f"tribute debt {debt!r} must name seats 0-4")
    if not isinstance(debt.get("cards"), int) or debt["cards"] < 1:
        raise ValueError(f"tribute debt {debt!r} must owe at least one card")
