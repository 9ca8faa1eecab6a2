"""No leaks (RULES §8 hidden information): every frame five seats and a spectator receive
over whole hands of each preset holds no other seat's card and does not reveal a 暗保 guard
or a 暗独 emperor to anyone but itself before the rules reveal it.

The hands are driven over the sockets (each actor sends `act`); the test then replays the
hand from its stored actions and checks each recorded frame against the true state at that
frame's version.

The fields of "what happened" are covered too: the round log's cards must be public, a
seat's 记牌器 must be the engine's counter for that seat (which depends on no hidden card,
baohuang/engine/tests/test_counter.py), every recipient is shown the same commitment to
the deal, and the seed and salt appear in no frame before the hand has ended; the cards
shown by 摊牌 only at the end.
"""

import json
import re

import pytest

from baohuang import engine
from baohuang.engine.counter import unseen
from baohuang.engine.fairness import commitment
from rooms.models import Hand, HandEvent
from rooms.services import hand_start
from tests.live import (Client, anyio_backend, closed_at_the_end, db, isolated_prefix,  # noqa: F401
                        no_lingering_connections, play_hand, quick_action, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]

CARD = re.compile(r"^(?:[2-9TJQKA][SHDC]|[SB]J)\*?$")
SILENT = {"none", "an_bao", "dark_solo"}  # declaration answers that never show (engine bidding.SILENT)
SPECTATOR = 5  # index of the spectator among the recorded clients

# Hands to play: a 暗保 guard in each preset (lianzhong_classic: the called card's 4th copy), and a 暗独 (qingdao). Seeds are found below
# so that the secret is kept past the declaration window, whatever the deal.
HANDS = [("classic", None), ("lianzhong", None), ("qingdao", "dark"), ("lianzhong_classic", None)]
KEEP_SECRET_UNTIL = 12  # versions


def secret_kept(preset: str, seed: int, solo) -> bool:
    """Whether `quick_action` playing this deal keeps a `solo` (None: a guard) hidden a while."""
    state = engine.new_hand(preset, seed, options=ENGINE_OPTIONS)
    while not state["revealed"] and engine.result(state) is None:
        seat = engine.actors(state)[0]
        state, _ = engine.apply(state, {**quick_action(state, seat), "seat": seat})
    wanted = state["guard"] is not None if solo is None else state["solo"] == solo
    return wanted and state["version"] >= KEEP_SECRET_UNTIL


def find_seed(preset: str, solo) -> int:
    # Long seeds, so that the seed's digits cannot turn up in a frame by chance.
    return next(seed for seed in range(10**12, 10**12 + 500) if secret_kept(preset, seed, solo))


ENGINE_OPTIONS = {"hold_sixes": True, "grab_solo": False, "card_counter": True}  # the room defaults (rooms.options)


def true_states(hand_id: int) -> list[dict]:
    """The hand's engine state at every version, rebuilt from its seed and stored actions."""
    hand = Hand.objects.get(pk=hand_id)
    state = engine.new_hand(hand.preset, hand.seed, options=hand.options, tribute=tuple(hand.tribute),
                            salt=hand.salt)
    states = [state]
    for action in HandEvent.objects.filter(hand=hand).order_by("version").values_list("action", flat=True):
        state, _ = engine.apply(state, action)
        states.append(state)
    return states


def walk(value, key=None):
    """Every (key, value) pair in a JSON frame, depth first (key None for list items)."""
    yield key, value
    if isinstance(value, dict):
        for inner_key, inner in value.items():
            yield from walk(inner, inner_key)
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner, key)


def cards_in(value) -> set[str]:
    found = set()
    for _, item in walk(value):
        if isinstance(item, str):
            found.update(token for token in item.split() if CARD.match(token))
    return found


def knowledge(states: list[dict], seat: int | None) -> list[set[str]]:
    """By version: the card identities `seat` may have seen — its own hands so far,
    everything played or shown face up, the public role cards, tribute and 3s it gave or
    took (qingdao)."""
    known = {"BJ*", "SJ*", "4H*"}
    first = states[0]
    for entry in first.get("tribute_paid", []):
        if seat in (entry["from"], entry["to"]):
            known.add(entry["card"])
    for entry in first.get("threes", []):
        if seat in (entry["buyer"], entry["seller"]) and entry["paid"]:
            known.add(entry["paid"])
    by_version = []
    for state in states:
        if seat is not None:
            known.update(state["hands"][seat])
        for entry in state["round"]:
            known.update(entry.get("cards") or [])
        if state["bidding"] and "bundle" in state["bidding"]:
            known.update(state["bidding"]["bundle"])
        known.update(card for card in (state["called"], state["guard_card"]) if card)
        if state["phase"] == "ended":  # 摊牌: every seat's remaining cards are shown
            known.update(card for hand in state["hands"] for card in hand)
        by_version.append(set(known))
    return by_version


def frame_version(frame: dict) -> int | None:
    if frame["type"] == "event":
        return frame["version"]
    if frame["type"] == "snapshot" and frame["hand"]:
        return frame["hand"]["version"]
    return None


def check_frames(frames: list[dict], seat: int | None, states: list[dict], hand_id: int, played: set[str]) -> dict:
    """Assert that no frame leaks; returns what the recipient saw of the roles (controls)."""
    revealed_at = next((s["version"] for s in states if s["revealed"]), len(states))
    truth = states[-1]
    guard, emperor, solo = truth["guard"], truth["emperor"], truth["solo"]
    saw_itself = False
    known = knowledge(states, seat)
    secrets = (str(truth["seed"]), truth["salt"])
    promised = commitment(truth["seed"], truth["salt"])
    commitments = 0
    for frame in frames:
        version = frame_version(frame)
        if version is None or (frame["type"] == "snapshot" and frame["hand"]["id"] != hand_id):
            continue
        assert frame.get("hand", hand_id) == hand_id or frame["type"] == "snapshot"
        state = states[version]
        over = state["phase"] in ("ended", "void")
        if not over:  # the deal's secret stays secret while the hand runs
            text = json.dumps(frame)
            assert not any(secret in text for secret in secrets), f"seed or salt sent at version {version}"
        for key, value in walk(frame):
            assert key not in ("hands", "deck"), f"raw state key {key!r} in {frame['type']}"
            assert key not in ("seed", "salt") or over, f"{key} in a frame at version {version}"
            if key == "fair":
                assert value["commitment"] == promised
                commitments += 1
            if key == "counter":
                assert seat is not None and value == unseen(state, seat), f"seat {seat}'s counter"
            if key == "showdown":
                assert over, f"摊牌 at version {version}"
            if key == "hand" and isinstance(value, list):
                assert seat is not None, "a spectator frame holds a hand"
                assert value == state["hands"][seat], f"seat {seat} was sent a hand that is not its own"
        unknown = cards_in(frame) - known[version] - played_until(played, version)
        assert not unknown, f"seat {seat} saw cards {sorted(unknown)} at version {version}"
        hidden = version < revealed_at
        for key, value in walk(frame):
            if isinstance(value, dict) and value.get("guard") is not None:
                if value["guard"] == seat:
                    saw_itself = True
                elif hidden:
                    raise AssertionError(f"seat {seat} learned the guard at version {version}")
            if key == "solo" and value == "dark" and hidden:
                assert seat == emperor, f"seat {seat} learned of a 暗独 at version {version}"
                saw_itself = True
            if isinstance(value, dict) and value.get("what") in SILENT:
                assert value.get("seat") == seat, f"seat {seat} saw another seat's silent answer"
    assert commitments, f"seat {seat} was never shown the deal's commitment"
    return {"guard": guard, "solo": solo, "emperor": emperor, "saw_itself": saw_itself,
            "revealed_at": revealed_at}


def played_until(played: dict, version: int) -> set[str]:
    return {card for at, cards in played.items() if at <= version for card in cards}


@pytest.mark.parametrize("preset, solo", HANDS)
async def test_no_frame_leaks_a_card_or_a_hidden_role(full_table, players, monkeypatch, preset, solo):
    import rooms.services.hands

    seed = find_seed(preset, solo)
    monkeypatch.setattr(rooms.services.hands, "new_seed", lambda: seed)
    room = await db(full_table)(preset)
    sessions = [await db(session_key)(player) for player in players]
    clients = [Client(f"/ws/rooms/{room.pk}/", session=session) for session in sessions]
    clients.append(Client(f"/ws/rooms/{room.pk}/"))  # the spectator
    for client in clients:
        assert (await client.connect())[0]
        await client.expect("snapshot")
    hand = await db(hand_start)(room_id=room.pk)
    for client in clients:
        await client.expect("snapshot", where=lambda frame: frame["hand"] is not None)
    _, played = await play_hand(clients, hand.pk, await db(lambda: Hand.objects.get(pk=hand.pk).state)())
    for client in clients:  # the end of the hand: a last snapshot with the result
        await client.expect("snapshot", where=lambda frame: not frame["hand"]["running"])
    states = await db(true_states)(hand.pk)
    assert states[-1]["phase"] == "ended"

    seen = {}
    for index, client in enumerate(clients):
        client.drain_unread()
        seat = None if index == SPECTATOR else index
        events = [frame["version"] for frame in client.frames if frame["type"] == "event"]
        assert events == list(range(1, len(states))), "versions reach every recipient once, in order"
        seen[seat] = check_frames(client.frames, seat, states, hand.pk, played)

    # Controls, so the checks above cannot pass vacuously: the secret existed, its holder
    # was told, nobody else was, and every seat did see its own cards.
    truth = seen[None]
    assert truth["revealed_at"] >= KEEP_SECRET_UNTIL and truth["solo"] == solo
    keeper = truth["guard"] if truth["solo"] is None else truth["emperor"]
    assert seen[keeper]["saw_itself"]
    assert not any(info["saw_itself"] for seat, info in seen.items() if seat != keeper)
    for seat in range(5):
        assert any(key == "hand" and isinstance(value, list) and value
                   for frame in clients[seat].frames for key, value in walk(frame))
