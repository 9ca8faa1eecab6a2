"""Rooms: the lobby list with its filters, a room's public detail, its hands."""

from rooms.services import hand_start, room_create, room_dissolve, seat_take


def test_the_list_shows_status_preset_seats_taken_and_spectators(api, alice, bob, full_table):
    full = full_table("qingdao", allow_spectators=False)
    two = room_create(creator=alice, name="two so far", preset="classic")
    seat_take(room_id=two.pk, player=alice)
    seat_take(room_id=two.pk, player=bob)

    rows = api.get("/api/rooms/").json()["results"]

    assert [(r["id"], r["preset"], r["status"], r["seats_taken"], r["allow_spectators"], r["public_records"])
            for r in rows] == [
        (two.pk, "classic", "open", 2, True, False),
        (full.pk, "qingdao", "open", 5, False, False),
    ]


def test_dissolved_rooms_are_listed_only_when_asked_for(api, alice):
    gone = room_create(creator=alice, name="gone", preset="classic")
    room_dissolve(room_id=gone.pk)
    kept = room_create(creator=alice, name="kept", preset="lianzhong")

    assert [r["id"] for r in api.get("/api/rooms/").json()["results"]] == [kept.pk]
    assert [r["id"] for r in api.get("/api/rooms/", {"status": "dissolved"}).json()["results"]] == [gone.pk]


def test_the_list_filters_by_preset_and_status(api, alice, full_table):
    playing = full_table("classic")
    hand_start(room_id=playing.pk)
    room_create(creator=alice, name="waiting", preset="classic")
    room_create(creator=alice, name="other game", preset="qingdao")

    assert [r["id"] for r in api.get("/api/rooms/", {"status": "playing"}).json()["results"]] == [playing.pk]
    assert [r["name"] for r in api.get("/api/rooms/", {"preset": "qingdao"}).json()["results"]] == ["other game"]


def test_a_room_shows_its_seats_options_and_running_hand(api, players, full_table):
    room = full_table("lianzhong", public_records=True)
    hand = hand_start(room_id=room.pk)

    body = api.get(f"/api/rooms/{room.pk}/").json()

    assert body["status"] == "playing" and body["seats_taken"] == 5 and body["public_records"] is True
    assert body["creator"]["display_name"] == "alice"
    assert [(seat["index"], seat["player"]["display_name"]) for seat in body["seats"]] == [
        (index, player.display_name) for index, player in enumerate(players)]
    assert body["current_hand"]["id"] == hand.pk and body["current_hand"]["phase"] == "bidding"
    assert body["options"]["timers"] == {"play": 20, "bid": 15, "declare": 8}


def test_an_empty_seat_has_no_player_and_an_idle_room_no_hand(api, alice):
    room = room_create(creator=alice, name="quiet", preset="classic")

    body = api.get(f"/api/rooms/{room.pk}/").json()

    assert [seat["player"] for seat in body["seats"]] == [None] * 5 and body["current_hand"] is None


def test_an_unknown_room_is_not_found(api, db):
    assert api.get("/api/rooms/424242/").status_code == 404
    assert api.get("/api/rooms/424242/hands/").status_code == 404


def test_an_abandoned_hand_is_listed_with_the_room(api, full_table):
    room = full_table("classic")
    first = hand_start(room_id=room.pk)
    room_dissolve(room_id=room.pk)  # abandons the hand

    rows = api.get(f"/api/rooms/{room.pk}/hands/").json()["results"]

    assert [(r["id"], r["number"], r["phase"], r["scored"]) for r in rows] == [(first.pk, 1, "abandoned", False)]
