"""The live-play consumer, message by message (docs/protocol.md), over the real Redis layer."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async

from baohuang import engine
from rooms.frames import PHRASES
from rooms.selectors import CHAT_HISTORY, room_picture
from rooms.models import ChatMessage, Hand, HandEvent, Room, Seat
from rooms.services import hand_act, hand_start, player_guest, room_create, room_dissolve, seat_take
from tests.live import (Client, anyio_backend, closed_at_the_end, db, isolated_prefix,  # noqa: F401
                        no_lingering_connections, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]


@pytest.fixture
def table(full_table, players):
    """A classic room with alice … erin seated, and a signed-in session for each."""
    room = full_table("classic")
    return room, [session_key(player) for player in players]


@pytest.fixture
def frank(db):
    player = player_guest(nickname="frank")
    return player, session_key(player)


def path(room_id) -> str:
    return f"/ws/rooms/{getattr(room_id, 'pk', room_id)}/"


async def joined(room, session=None) -> Client:
    client = Client(path(room), session=session)
    connected, _ = await client.connect()
    assert connected
    await client.expect("snapshot")
    return client


async def seated(room, sessions) -> list[Client]:
    return [await joined(room, session) for session in sessions]


async def close_all(*groups):
    for group in groups:
        for client in group if isinstance(group, list) else [group]:
            await client.close()


async def dealt(room, clients) -> dict:
    """Deal a hand; every client gets a snapshot of it (returns the first client's)."""
    hand = await db(hand_start)(room_id=room.pk)
    snaps = [await client.expect("snapshot") for client in clients]
    assert all(snap["hand"]["id"] == hand.pk for snap in snaps)
    return snaps[0]


def awaited(hand_id: int) -> tuple[int, int, dict]:
    """(actor seat, version, a legal action for it: the 托管 policy's choice)."""
    hand = Hand.objects.get(pk=hand_id)
    seat = engine.actors(hand.state)[0]
    action = engine.autoplay(hand.state, seat)
    return seat, hand.version, {key: value for key, value in action.items() if key != "seat"}


# -- connecting ---------------------------------------------------------------------------


async def test_a_seated_player_gets_a_snapshot_with_its_seat_and_no_hand(table):
    room, sessions = table
    alice = Client(path(room), session=sessions[0])
    assert (await alice.connect())[0]
    snap = await alice.expect("snapshot")
    assert snap["you"]["role"] == "player" and snap["you"]["seat"] == 0
    assert snap["you"]["player"]["name"] == "alice"
    assert snap["room"]["preset"] == "classic" and snap["hand"] is None and snap["version"] is None
    assert [seat["player"]["name"] for seat in snap["seats"]] == ["alice", "bob", "charlie", "dave", "erin"]
    assert snap["seats"][0]["online"] is True and snap["seats"][1]["online"] is False
    assert snap["phrases"] == PHRASES
    assert await db(lambda: Seat.objects.get(room=room, index=0).online)()
    await alice.close()


async def test_a_socket_opens_while_the_one_thread_for_thread_sensitive_work_is_busy(table):
    """Nothing a socket does to open waits for the one thread a process keeps for
    thread-sensitive work: Channels read the session's user there, so a server's sockets
    reconnecting together (a restart) opened one after another (`baohuang.socket_session`)."""
    room, sessions = table
    release = threading.Event()
    busy = asyncio.ensure_future(sync_to_async(release.wait, thread_sensitive=True)())
    try:
        alice = Client(path(room), session=sessions[0])
        assert (await alice.connect())[0]
        snap = await alice.expect("snapshot")
        assert snap["you"]["player"]["name"] == "alice" and snap["you"]["seat"] == 0
        assert not busy.done()  # the thread was busy all along
    finally:
        release.set()
        await busy
    await alice.close()


async def test_an_anonymous_socket_watches_with_the_spectator_view(table):
    room, sessions = table
    watcher = await joined(room)
    players = await seated(room, sessions)
    await dealt(room, players + [watcher])
    snap, spectator = players[4].frames[-1], watcher.frames[-1]
    assert spectator["you"] == {"player": None, "seat": None, "role": "spectator"}
    assert "hand" not in spectator["hand"]["view"] and spectator["hand"]["view"]["seat"] is None
    assert snap["hand"]["view"]["hand"] == (await db(lambda: Hand.objects.get(room=room).state)())["hands"][4]
    await close_all(players, watcher)


async def test_a_broadcast_that_sends_snapshots_reads_the_room_once_for_all_its_sockets(table, frank, monkeypatch):
    import rooms.room_pictures

    room, sessions = table
    reads = []

    def counted(room_id):
        reads.append(room_id)
        return room_picture(room_id)

    monkeypatch.setattr(rooms.room_pictures, "room_picture", counted)
    watchers = [await joined(room), await joined(room, frank[1])]
    players = await seated(room, sessions)
    hand = await db(hand_start)(room_id=room.pk)
    state = (await db(lambda: Hand.objects.get(pk=hand.pk))()).state
    for index, client in enumerate(players):  # each frame is its reader's own
        snap = await client.expect("snapshot")
        assert snap["you"]["seat"] == index and snap["hand"]["view"] == engine.view(state, index)
    for client in watchers:
        snap = await client.expect("snapshot")
        assert snap["you"]["role"] == "spectator" and snap["hand"]["view"] == engine.view(state, None)
    assert watchers[1].frames[-1]["you"]["player"]["name"] == "frank" and watchers[0].frames[-1]["you"]["player"] is None
    assert reads == [room.pk]  # one read for the seven sockets (their connects read for themselves)
    await close_all(players, watchers)


async def test_an_anonymous_socket_is_closed_when_the_room_allows_no_spectators(players):
    room = await db(room_create)(creator=players[0], name="private", preset="classic",
                                 options={"allow_spectators": False})
    client = Client(path(room))
    await client.connect()
    error = await client.expect("error")
    assert error["code"] == "spectators_not_allowed"
    assert (await client.expect("_closed"))["code"] == 4403


async def test_a_signed_in_visitor_sees_seats_but_nothing_of_the_hand(players, frank):
    room = await db(room_create)(creator=players[0], name="private", preset="classic",
                                 options={"allow_spectators": False})
    for index, player in enumerate(players):
        await db(seat_take)(room_id=room.pk, player=player, index=index)
    visitor = await joined(room, frank[1])
    assert visitor.frames[0]["you"]["role"] == "visitor"
    hand = await db(hand_start)(room_id=room.pk)
    snap = await visitor.expect("snapshot")
    assert snap["hand"]["id"] == hand.pk and snap["hand"]["view"] is None
    seat, version, action = await db(awaited)(hand.pk)
    await db(hand_act)(hand_id=hand.pk, seat=seat, action=action, expected_version=version)
    event = await visitor.expect("event")
    assert event == {"type": "event", "hand": hand.pk, "version": 1, "view": None}
    await visitor.close()


async def test_no_room_and_a_dissolved_room_close_the_socket_with_a_reason(table):
    room, sessions = table
    missing = Client(path(room.pk + 1000), session=sessions[0])
    await missing.connect()
    assert (await missing.expect("error"))["code"] == "no_room"
    assert (await missing.expect("_closed"))["code"] == 4404
    await db(room_dissolve)(room_id=room.pk)
    gone = Client(path(room), session=sessions[0])
    await gone.connect()
    assert (await gone.expect("error"))["code"] == "room_closed"
    assert (await gone.expect("_closed"))["code"] == 4410


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "https://127.0.0.1"])
async def test_a_foreign_origin_is_refused_at_the_handshake(table, origin):
    room, sessions = table
    client = Client(path(room), session=sessions[0], origin=origin)  # the site is http://127.0.0.1
    connected, _ = await client.connect()
    assert not connected


# -- sit, leave, start ------------------------------------------------------------------


async def test_sit_takes_the_seat_online_and_every_socket_gets_a_snapshot(players, frank):
    room = await db(room_create)(creator=players[0], name="new", preset="lianzhong")
    watcher = await joined(room)
    frank_client = await joined(room, frank[1])
    assert frank_client.frames[0]["you"]["role"] == "spectator"
    await frank_client.send({"type": "sit", "seat": 2, "client_id": "s1"})
    assert (await frank_client.expect("ack"))["client_id"] == "s1"
    mine = await frank_client.expect("snapshot")
    assert mine["you"] == {"player": {"id": frank[0].pk, "name": "frank", "bot": False}, "seat": 2, "role": "player"}
    theirs = await watcher.expect("snapshot")
    assert theirs["seats"][2]["player"]["name"] == "frank" and theirs["seats"][2]["online"] is True
    await frank_client.send({"type": "sit", "seat": 3})
    assert (await frank_client.expect("error"))["code"] == "already_seated"
    await close_all(watcher, frank_client)


async def test_sit_errors_keep_the_connection(table, frank):
    room, sessions = table
    frank_client = await joined(room, frank[1])
    await frank_client.send({"type": "sit", "seat": 0, "client_id": "x"})
    assert await frank_client.expect("error") == {
        "type": "error", "code": "seat_taken",
        "message": "That seat is taken.", "params": {}, "client_id": "x"}
    await frank_client.send({"type": "sit"})
    assert (await frank_client.expect("error"))["code"] == "room_full"
    await frank_client.send({"type": "sit", "seat": 7})
    assert (await frank_client.expect("error"))["code"] == "bad_field"
    await frank_client.send({"type": "sit", "seat": "1"})
    assert (await frank_client.expect("error"))["code"] == "bad_field"
    anonymous = await joined(room)
    await anonymous.send({"type": "sit", "seat": 1})
    assert (await anonymous.expect("error"))["code"] == "not_signed_in"
    await frank_client.send({"type": "ping"})
    assert (await frank_client.expect("pong"))["type"] == "pong"
    await close_all(frank_client, anonymous)


async def test_the_hand_deals_when_all_five_are_seated_and_ready(players):
    room = await db(room_create)(creator=players[0], name="t", preset="qingdao")
    for index, player in enumerate(players[:4]):
        await db(seat_take)(room_id=room.pk, player=player, index=index)
    sessions = [await db(session_key)(player) for player in players]
    clients = await seated(room, sessions[:4])
    for seat, client in enumerate(clients):  # 准备 at a table of four: nothing is dealt
        await client.send({"type": "ready", "client_id": f"r{seat}"})
        assert await client.expect("ack") == {"type": "ack", "client_id": f"r{seat}", "version": None,
                                              "repeated": False}
        for other in clients:  # everyone sees the mark
            await other.expect("presence", where=lambda f: f["seat"]["index"] == seat and f["seat"]["ready"])
    assert not await db(Hand.objects.filter(room=room).exists)()
    erin = await joined(room, sessions[4])
    await erin.send({"type": "sit", "seat": 4})
    snap = await erin.expect("snapshot")
    assert [seat["ready"] for seat in snap["seats"]] == [True, True, True, True, False]
    assert snap["room"]["ready_due"] > snap["server_time"]  # the full table waits for erin
    for client in clients:
        await client.expect("snapshot")
    await erin.send({"type": "ready", "client_id": "go"})
    assert await erin.expect("ack") == {"type": "ack", "client_id": "go", "version": 0, "repeated": False}
    state = await db(lambda: Hand.objects.get(room=room).state)()
    for seat, client in enumerate(clients + [erin]):
        snap = await client.expect("snapshot", where=lambda f: f["hand"] is not None)
        assert snap["hand"]["running"] and snap["hand"]["version"] == 0 and snap["version"] == 0
        assert snap["hand"]["view"]["hand"] == state["hands"][seat]
        assert snap["hand"]["deadline"] > snap["server_time"]
        assert snap["room"]["status"] == "playing" and snap["room"]["ready_due"] is None
        assert not any(seat["ready"] for seat in snap["seats"])  # asked again for the next hand
    await clients[2].send({"type": "ready"})
    assert (await clients[2].expect("error"))["code"] == "hand_running"
    await erin.send({"type": "sit", "seat": 4})
    assert (await erin.expect("error"))["code"] in ("hand_running", "already_seated")
    await close_all(clients, erin)


async def test_leave_between_hands_frees_the_seat_and_mid_hand_puts_it_under_trustee(table):
    room, sessions = table
    clients = await seated(room, sessions)
    await clients[4].send({"type": "leave", "client_id": "bye"})
    await clients[4].expect("ack")
    snap = await clients[4].expect("snapshot")
    assert snap["you"]["role"] == "spectator" and snap["seats"][4]["player"] is None
    for client in clients[:4]:
        assert (await client.expect("snapshot"))["seats"][4]["player"] is None
    await clients[4].send({"type": "leave"})
    assert (await clients[4].expect("error"))["code"] == "not_seated"
    await clients[4].send({"type": "sit", "seat": 4})
    for client in clients:
        await client.expect("snapshot")
    await dealt(room, clients)
    await clients[3].send({"type": "leave"})
    snap = await clients[3].expect("snapshot")
    assert snap["you"]["role"] == "spectator" and "hand" not in snap["hand"]["view"]
    assert snap["seats"][3]["left"] and snap["seats"][3]["trustee"] and not snap["seats"][3]["online"]
    await close_all(clients)


async def test_spectators_and_anonymous_sockets_cannot_play(table):
    room, sessions = table
    watcher = await joined(room)
    for kind in ("ready", "free", "leave", "chat"):
        await watcher.send({"type": kind, "text": "hi", "seat": 1})
        assert (await watcher.expect("error"))["code"] == "not_signed_in"
    await watcher.send({"type": "act", "client_id": "a", "expected_version": 0, "action": {"type": "pass"}})
    assert (await watcher.expect("error"))["code"] == "not_signed_in"
    await watcher.close()


# -- act ----------------------------------------------------------------------------------


async def test_an_action_is_acked_and_every_recipient_gets_its_own_event(table):
    room, sessions = table
    clients = await seated(room, sessions)
    watcher = await joined(room)
    snap = await dealt(room, clients + [watcher])
    hand_id = snap["hand"]["id"]
    seat, version, action = await db(awaited)(hand_id)
    await clients[seat].send({"type": "act", "action": action, "expected_version": version, "client_id": "m1"})
    assert await clients[seat].expect("ack") == {"type": "ack", "client_id": "m1", "version": 1, "repeated": False}
    state = await db(lambda: Hand.objects.get(pk=hand_id).state)()
    for index, client in enumerate(clients):
        event = await client.expect("event")
        assert event["hand"] == hand_id and event["version"] == 1
        assert event["event"]["type"] == action["type"] and event["event"]["seat"] == seat
        assert event["view"]["hand"] == state["hands"][index] and event["view"]["version"] == 1
        assert isinstance(event["deadline"], int)
    spectator = await watcher.expect("event")
    assert "hand" not in spectator["view"] and spectator["event"]["seat"] == seat
    await close_all(clients, watcher)


async def test_the_movers_ack_follows_the_moves_event(table):
    room, sessions = table
    clients = await seated(room, sessions)
    await dealt(room, clients)
    hand_id = (await db(lambda: Hand.objects.get(room=room))()).pk
    for number in range(3):
        seat, version, action = await db(awaited)(hand_id)
        mover = clients[seat]
        await mover.send({"type": "act", "action": action, "expected_version": version, "client_id": f"o{number}"})
        ack = await mover.expect("ack", client_id=f"o{number}")
        assert ack == {"type": "ack", "client_id": f"o{number}", "version": version + 1, "repeated": False}
        kinds = [(frame["type"], frame.get("version")) for frame in mover.frames if frame["type"] in ("event", "ack")]
        assert kinds[-2:] == [("event", version + 1), ("ack", version + 1)]
        for client in clients:
            await client.until_version(hand_id, version + 1)
    await close_all(clients)


async def test_live_events_are_replayed_from_the_snapshot_state_without_reading_the_hand(table, monkeypatch):
    import rooms.hand_states

    room, sessions = table
    clients = await seated(room, sessions)
    hand_id = (await dealt(room, clients))["hand"]["id"]

    def no_reads(*args):
        raise AssertionError("the hand was read back for a live event")

    monkeypatch.setattr(rooms.hand_states, "state_at", no_reads)
    for _ in range(4):
        seat, version, action = await db(awaited)(hand_id)
        await clients[seat].send({"type": "act", "action": action, "expected_version": version,
                                  "client_id": f"r{version}"})
        await clients[seat].expect("ack")
    hand = await db(lambda: Hand.objects.get(pk=hand_id))()
    for index, client in enumerate(clients):
        last = await client.until_version(hand_id, 4)
        assert last["view"] == engine.view(hand.state, index)
        assert last["deadline"] == int(hand.deadline.timestamp() * 1000)
    await close_all(clients)


async def test_illegal_actions_get_engine_codes_and_change_nothing(table):
    room, sessions = table
    clients = await seated(room, sessions)
    await clients[0].send({"type": "act", "client_id": "early", "expected_version": 0, "action": {"type": "pass"}})
    assert (await clients[0].expect("error"))["code"] == "no_hand"
    snap = await dealt(room, clients)
    hand_id = snap["hand"]["id"]
    seat, version, action = await db(awaited)(hand_id)
    other = (seat + 1) % 5
    await clients[other].send({"type": "act", "client_id": "o", "expected_version": 0, "action": {"type": "decline"}})
    error = await clients[other].expect("error")
    assert error["code"] == "not_your_turn" and error["client_id"] == "o" and error["message"]
    assert error["params"] == {"turn": seat}  # the page words it: whose turn it is
    await clients[seat].send({"type": "act", "client_id": "c", "expected_version": 0,
                              "action": {"type": "call", "card": "ZZ"}})
    assert (await clients[seat].expect("error"))["code"] in ("bad_action", "cannot_call")
    await clients[seat].send({"type": "act", "client_id": "s", "expected_version": 0,
                              "action": {"type": "play", "cards": "3S"}})
    error = await clients[seat].expect("error")
    assert error["code"] == "wrong_phase" and error["params"] == {"action": "play", "phase": "bidding"}
    await clients[seat].send({"type": "act", "client_id": "t", "expected_version": 0, "action": {"type": "fly"}})
    assert (await clients[seat].expect("error"))["code"] == "unknown_action"
    await clients[seat].send({"type": "act", "client_id": "u", "expected_version": 0,
                              "action": {"type": "pass", "seat": other}})
    assert (await clients[seat].expect("error"))["code"] == "bad_action"
    assert await db(lambda: Hand.objects.get(pk=hand_id).version)() == 0
    await asyncio.sleep(0.2)
    for client in clients:
        client.drain_unread()
        assert not [frame for frame in client.frames if frame["type"] == "event"]
    await close_all(clients)


async def test_act_field_errors_are_bad_field(table):
    room, sessions = table
    clients = await seated(room, sessions)
    await dealt(room, clients)
    bad = [
        {"type": "act", "expected_version": 0, "action": {"type": "pass"}},  # no client_id
        {"type": "act", "client_id": "", "expected_version": 0, "action": {"type": "pass"}},
        {"type": "act", "client_id": "x" * 65, "expected_version": 0, "action": {"type": "pass"}},
        {"type": "act", "client_id": "a", "expected_version": "0", "action": {"type": "pass"}},
        {"type": "act", "client_id": "a", "expected_version": True, "action": {"type": "pass"}},
        {"type": "act", "client_id": "a", "expected_version": -1, "action": {"type": "pass"}},
        {"type": "act", "client_id": "a", "expected_version": 0, "action": "pass"},
        {"type": "act", "client_id": "a", "expected_version": 0, "action": {"kind": "pass"}},
    ]
    for frame in bad:
        await clients[0].send(frame)
        error = await clients[0].expect("error")
        assert error["code"] == "bad_field", frame
    await close_all(clients)


async def test_a_stale_expected_version_gets_stale_version_and_a_snapshot(table):
    room, sessions = table
    clients = await seated(room, sessions)
    hand_id = (await dealt(room, clients))["hand"]["id"]
    seat, version, action = await db(awaited)(hand_id)
    await clients[seat].send({"type": "act", "action": action, "expected_version": version, "client_id": "one"})
    await clients[seat].expect("ack")
    await clients[0].send({"type": "act", "action": {"type": "declare", "what": "none"},
                           "expected_version": 0, "client_id": "late"})
    error = await clients[0].expect("error")
    assert error["code"] == "stale_version" and error["client_id"] == "late"
    snap = await clients[0].expect("snapshot")
    assert snap["version"] == snap["hand"]["view"]["version"] == 1
    await close_all(clients)


async def test_a_resent_client_id_is_acked_again_and_applied_once(table):
    room, sessions = table
    clients = await seated(room, sessions)
    hand_id = (await dealt(room, clients))["hand"]["id"]
    seat, version, action = await db(awaited)(hand_id)
    frame = {"type": "act", "action": action, "expected_version": version, "client_id": "same"}
    await clients[seat].send(frame)
    first = await clients[seat].expect("ack")
    await clients[seat].send(frame)
    again = await clients[seat].expect("ack")
    assert first["version"] == again["version"] == 1 and again["repeated"] and not first["repeated"]
    assert await db(lambda: Hand.objects.get(pk=hand_id).version)() == 1
    await clients[seat].until_version(hand_id, 1)  # the event may come before or after the acks
    await clients[seat].nothing(0.2)
    assert [f["version"] for f in clients[seat].frames if f["type"] == "event"] == [1]
    await close_all(clients)


async def test_two_sockets_acting_at_once_one_is_applied_the_other_is_stale(table, players):
    room, sessions = table
    clients = await seated(room, sessions)
    hand_id = (await dealt(room, clients))["hand"]["id"]
    seat, version, _ = await db(awaited)(hand_id)
    twin = await joined(room, sessions[seat])  # the same player in a second tab
    await asyncio.gather(
        clients[seat].send({"type": "act", "action": {"type": "seize"}, "expected_version": version,
                            "client_id": "tab1"}),
        twin.send({"type": "act", "action": {"type": "decline"}, "expected_version": version, "client_id": "tab2"}),
    )
    outcomes = []
    for client in (clients[seat], twin):
        frame = await client.expect("ack") if await _first_is(client, "ack") else await client.expect("error")
        outcomes.append(frame["type"] if frame["type"] == "ack" else frame["code"])
    assert sorted(outcomes) == ["ack", "stale_version"]
    assert await db(lambda: Hand.objects.get(pk=hand_id).version)() == 1
    await close_all(clients, twin)


async def _first_is(client, kind: str) -> bool:
    """Whether an `ack` or an `error` (whichever comes first) is of type `kind`."""
    while True:
        frame = await client.receive()
        if frame["type"] in ("ack", "error"):
            client._unread.insert(0, frame)
            return frame["type"] == kind


# -- trustee, chat, ping ---------------------------------------------------------------


async def test_trustee_on_and_off_is_shown_to_every_socket(table):
    room, sessions = table
    clients = await seated(room, sessions)
    watcher = await joined(room)
    await clients[1].send({"type": "trustee", "on": True})
    assert (await clients[1].expect("error"))["code"] == "no_hand"
    await dealt(room, clients + [watcher])
    await clients[1].send({"type": "trustee", "on": "yes"})
    assert (await clients[1].expect("error"))["code"] == "bad_field"
    await clients[1].send({"type": "trustee", "on": True, "client_id": "t"})
    await clients[1].expect("ack")
    presence = await watcher.expect("presence", where=lambda f: f["seat"]["trustee"])
    assert presence["seat"]["index"] == 1 and presence["seat"]["trustee"] is True
    assert presence["seat"]["player"]["name"] == "bob"
    await clients[1].send({"type": "act", "client_id": "z", "expected_version": 0, "action": {"type": "pass"}})
    assert (await clients[1].expect("error"))["code"] == "trustee_on"
    await clients[1].send({"type": "trustee", "on": False})
    assert (await clients[0].expect("presence", seat=presence["seat"] | {"trustee": False}))
    await close_all(clients, watcher)


async def test_chat_text_and_quick_phrases_reach_the_room(table):
    room, sessions = table
    clients = await seated(room, sessions[:2])
    watcher = await joined(room)
    await clients[0].send({"type": "chat", "text": "  <b>你好</b>  ", "client_id": "c"})
    await clients[0].expect("ack")
    said = await watcher.expect("chat")
    assert said["text"] == "<b>你好</b>" and said["phrase"] is None and said["seat"] == 0
    assert said["player"]["name"] == "alice"
    await clients[1].send({"type": "chat", "phrase": "hurry"})
    said = await clients[0].expect("chat", seat=1)
    assert said["phrase"] == "hurry" and said["text"] == PHRASES["hurry"] and said["seat"] == 1
    for bad in ({"text": ""}, {"text": "x" * 201}, {"phrase": "insult"}, {"text": "a", "phrase": "nice"}, {},
                {"text": 5}):
        await clients[1].send({"type": "chat", **bad})
        assert (await clients[1].expect("error"))["code"] == "bad_field", bad
    await clients[1].send({"type": "chat", "text": "x" * 200})
    assert await watcher.expect("chat", where=lambda frame: frame["text"] == "x" * 200)
    await close_all(clients, watcher)


async def test_chat_is_stored_and_every_snapshot_repeats_the_latest_lines(table, frank, settings):
    settings.LIMITS = {**settings.LIMITS, "chat": None}  # more lines than the chat limit allows
    room, sessions = table
    alice = await joined(room, sessions[0])
    watcher_player, watcher_session = frank
    watcher = await joined(room, watcher_session)  # signed in, not seated
    await alice.send({"type": "chat", "text": "first", "client_id": "1"})
    await alice.expect("ack")
    await watcher.send({"type": "chat", "phrase": "nice", "client_id": "2"})
    await watcher.expect("ack")
    await alice.send({"type": "chat", "text": "", "client_id": "3"})  # refused: nothing stored
    assert (await alice.expect("error"))["code"] == "bad_field"
    for number in range(CHAT_HISTORY - 1):  # one line more than a snapshot repeats
        await alice.send({"type": "chat", "text": f"line {number}"})
        await asyncio.sleep(0.06)  # within the rate limit
    last = await alice.expect("chat", where=lambda frame: frame["text"] == f"line {CHAT_HISTORY - 2}")

    stored = await db(lambda: list(ChatMessage.objects.filter(room=room).values_list("seat", "text", "phrase")))()
    assert stored[:2] == [(0, "first", ""), (None, PHRASES["nice"], "nice")]
    assert len(stored) == CHAT_HISTORY + 1
    later = await joined(room, sessions[1])  # bob comes to the table afterwards
    lines = [frame for frame in later.frames if frame["type"] == "snapshot"][-1]["chat"]
    assert [line["text"] for line in lines] == [text for _, text, _ in stored[1:]]  # all but "first"
    assert lines[-1] == {key: value for key, value in last.items() if key != "type"}
    assert lines[0]["text"] == PHRASES["nice"] and lines[0]["phrase"] == "nice" and lines[0]["seat"] is None
    assert lines[0]["player"] == {"id": watcher_player.pk, "name": "frank", "bot": False}
    await close_all([alice, watcher, later])


async def test_ping_gets_a_pong_with_the_server_time(table):
    room, sessions = table
    alice = await joined(room, sessions[0])
    await alice.send({"type": "ping", "t": 12.5})
    pong = await alice.expect("pong")
    assert pong["t"] == 12.5 and pong["server_time"] > 1_700_000_000_000
    await alice.send({"type": "ping", "t": "now"})
    assert (await alice.expect("error"))["code"] == "bad_field"
    await alice.close()


# -- bad input and limits -----------------------------------------------------------------


async def test_malformed_frames_get_errors_and_keep_the_connection(table):
    room, sessions = table
    alice = await joined(room, sessions[0])
    cases = [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('"ping"', "bad_json"),
        ('{"type": "dance", "client_id": "d"}', "unknown_type"),
        ('{"client_id": "d"}', "unknown_type"),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"),
        ('{"type": "chat", "text": "' + "保" * 1400 + '"}', "too_large"),  # 4200 bytes of UTF-8
    ]
    for text, code in cases:
        await alice.send_text(text)
        error = await alice.expect("error")
        assert error["code"] == code, text[:40]
        assert error["message"]
    assert alice.frames[-4]["client_id"] == "d"
    await alice.send_bytes(b"\x00\x01")
    assert (await alice.expect("error"))["code"] == "bad_json"
    await alice.send({"type": "ping"})
    assert await alice.expect("pong")
    await alice.close()


async def test_an_unexpected_failure_is_a_server_error_and_keeps_the_connection(table, monkeypatch):
    room, sessions = table
    import rooms.consumers

    def broken(**kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(rooms.consumers, "seat_ready", broken)
    alice = await joined(room, sessions[0])
    await alice.send({"type": "ready", "client_id": "s"})
    error = await alice.expect("error")
    assert error["code"] == "server_error" and error["client_id"] == "s" and "fire" not in error["message"]
    await alice.send({"type": "ping"})
    assert await alice.expect("pong")
    await alice.close()


async def test_more_than_twenty_messages_in_a_second_close_the_socket_with_1008(table):
    room, sessions = table
    alice = await joined(room, sessions[0])
    for _ in range(20):
        await alice.send({"type": "ping"})
    for _ in range(20):
        await alice.expect("pong")
    await alice.send({"type": "ping"})
    assert (await alice.expect("_closed"))["code"] == 1008


async def test_twenty_messages_a_second_are_allowed(table):
    room, sessions = table
    alice = await joined(room, sessions[0])
    for _ in range(3):
        for _ in range(19):
            await alice.send({"type": "ping"})
        for _ in range(19):
            await alice.expect("pong")
        await asyncio.sleep(1.05)
    await alice.send({"type": "ping"})
    assert await alice.expect("pong")
    await alice.close()


# -- presence -------------------------------------------------------------------------------


async def presence_after(client, mark: int, index: int, *, online: bool) -> dict:
    """The first presence frame for seat `index` with that `online` flag among the frames
    the client received after its first `mark` frames (reading more as needed)."""
    while True:
        for frame in client.frames[mark:]:
            if frame["type"] == "presence" and frame["seat"]["index"] == index and frame["seat"]["online"] == online:
                return frame
        await client.receive()


async def test_a_closed_socket_shows_the_seat_offline_with_its_deadline(table):
    room, sessions = table
    clients = await seated(room, sessions)
    snap = await dealt(room, clients)
    seat = snap["hand"]["view"]["actors"][0]
    await clients[seat].close()
    watcher = clients[(seat + 1) % 5]
    presence = await watcher.expect("presence", where=lambda f: f["seat"]["index"] == seat and not f["seat"]["online"])
    assert presence["seat"]["player"] is not None
    assert not await db(lambda: Seat.objects.get(room=room, index=seat).online)()
    again = await joined(room)
    snap = again.frames[0]
    assert snap["seats"][seat]["online"] is False and seat in snap["hand"]["view"]["actors"]
    assert snap["hand"]["deadline"] > snap["server_time"]  # the time left before 托管 acts
    mark = len(watcher.frames)
    back = await joined(room, sessions[seat])
    assert back.frames[0]["seats"][seat]["online"] is True
    await presence_after(watcher, mark, seat, online=True)
    await close_all([c for i, c in enumerate(clients) if i != seat], again, back)


async def test_a_second_tab_keeps_the_seat_online_when_the_first_closes(table):
    room, sessions = table
    first = await joined(room, sessions[1])
    second = await joined(room, sessions[1])
    watcher = await joined(room)
    await first.close()

    def shown() -> list[bool]:
        return [f["seat"]["online"] for f in watcher.frames if f["type"] == "presence" and f["seat"]["index"] == 1]

    # (The pub/sub layer may also hand a socket a broadcast published just before it
    # joined — here the first tab's own "online" — so look at the order of what it shows.)
    await watcher.expect("presence", where=lambda f: f["seat"]["index"] == 1 and not f["seat"]["online"])
    while shown()[-1] is False:
        await watcher.receive()
    assert shown()[-2:] == [False, True]
    assert await db(lambda: Seat.objects.get(room=room, index=1).online)()
    await close_all(second, watcher)


# -- reconnecting ---------------------------------------------------------------------------


async def _play(hand_id: int, moves: int) -> int:
    """Make `moves` moves through the services (as other clients or timers would)."""
    from rooms.tests.play import step

    for _ in range(moves):
        await db(step)(hand_id)
    return await db(lambda: Hand.objects.get(pk=hand_id).version)()


async def test_reconnecting_mid_hand_with_a_stale_version(table):
    room, sessions = table
    clients = await seated(room, sessions)
    hand_id = (await dealt(room, clients))["hand"]["id"]
    await _play(hand_id, 3)
    for client in clients:
        await client.until_version(hand_id, 3)
    seen = 3
    await clients[0].close()
    now = await _play(hand_id, 4)
    alice = await joined(room, sessions[0])
    snap = alice.frames[0]
    assert snap["version"] == now == 7 and snap["hand"]["view"]["version"] == 7
    # An action prepared before the drop is refused and answered with a fresh picture.
    await alice.send({"type": "act", "client_id": "old", "expected_version": seen, "action": {"type": "pass"}})
    assert (await alice.expect("error"))["code"] == "stale_version"
    assert (await alice.expect("snapshot"))["version"] == 7
    # Her old version is behind the snapshot this socket sent: the missed events come as
    # one `missed` frame (for the log), each redacted for her — never as repeated events.
    await alice.send({"type": "sync", "hand": hand_id, "version": seen, "client_id": "sy"})
    missed = await alice.expect("missed")
    assert missed["hand"] == hand_id and [entry["version"] for entry in missed["events"]] == [4, 5, 6, 7]
    stored = await db(lambda: list(HandEvent.objects.filter(hand_id=hand_id, version__gt=3)
                                   .order_by("version").values_list("event", flat=True)))()
    assert [entry["event"] for entry in missed["events"]] == [engine.event_view(event, 0) for event in stored]
    assert (await alice.expect("ack"))["version"] == 7
    assert not [frame for frame in alice.frames if frame["type"] == "event"]
    await close_all(clients[1:], alice)


async def test_sync_when_up_to_date_ahead_or_on_another_hand(table):
    room, sessions = table
    alice = await joined(room, sessions[0])
    await alice.send({"type": "sync", "version": 0})
    assert (await alice.expect("snapshot"))["hand"] is None  # no hand yet
    others = await seated(room, sessions[1:])
    hand_id = (await dealt(room, [alice] + others))["hand"]["id"]
    await alice.send({"type": "sync", "hand": hand_id, "version": 0, "client_id": "now"})
    assert await alice.expect("ack") == {"type": "ack", "client_id": "now", "version": 0, "repeated": False}
    assert [f["type"] for f in alice.frames[-2:]] == ["snapshot", "ack"]
    await alice.send({"type": "sync", "hand": hand_id, "version": 9})
    assert (await alice.expect("error"))["code"] == "stale_version"
    assert (await alice.expect("snapshot"))["version"] == 0
    await alice.send({"type": "sync", "hand": hand_id + 99, "version": 3})
    assert (await alice.expect("snapshot"))["hand"]["id"] == hand_id
    await alice.send({"type": "sync", "version": "3"})
    assert (await alice.expect("error"))["code"] == "bad_field"
    await close_all(alice, others)


async def test_a_lost_broadcast_is_filled_in_from_the_stored_events(table):
    room, sessions = table
    alice = await joined(room, sessions[0])
    others = await seated(room, sessions[1:])
    hand_id = (await dealt(room, [alice] + others))["hand"]["id"]
    # Move the hand on without telling anyone, as if pub/sub messages were lost.
    from rooms import notify

    real = notify._send
    notify._send = lambda room_id, message: None
    try:
        await _play(hand_id, 2)
    finally:
        notify._send = real
    await _play(hand_id, 1)
    events = [await alice.expect("event") for _ in range(3)]
    assert [event["version"] for event in events] == [1, 2, 3]
    assert "view" not in events[0] and "view" not in events[1] and events[2]["view"]["version"] == 3
    assert all(event["event"]["seat"] in range(5) for event in events)
    await asyncio.sleep(0.3)
    await alice.nothing(0.1)
    assert [f["version"] for f in alice.frames if f["type"] == "event"] == [1, 2, 3]  # no repeats
    assert [f["type"] for f in alice.frames].count("snapshot") == 2  # on connect, on the deal


async def test_a_room_dissolved_while_connected_sends_a_snapshot(table):
    room, sessions = table
    alice = await joined(room, sessions[0])
    await db(room_dissolve)(room_id=room.pk)
    snap = await alice.expect("snapshot")
    assert snap["room"]["status"] == Room.Status.DISSOLVED and snap["you"]["role"] == "spectator"
    await alice.close()

