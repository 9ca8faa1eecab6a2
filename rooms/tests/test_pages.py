"""The pages: lobby (guest nickname, new room, room list), table, player, leaderboard."""

import json

import pytest
from django.urls import reverse

from rooms.models import Room, Seat
from rooms.services import hand_start, player_bot, player_guest, room_create, seat_take
from rooms.tests.play import finished_by_engine, play_to_end
from rooms.views import ledger_chart
from scoring.models import LedgerEntry
from scoring.services import ledger_adjust

pytestmark = pytest.mark.django_db


def room_post(**overrides):
    data = {"name": "alice's table", "preset": "lianzhong", "timer_play": 30, "timer_bid": 12,
            "timer_declare": 10, "hold_sixes": "on", "trustee_level": "expert", "allow_bots": "on",
            "allow_spectators": "on", "trustee_delay": "0.5", "bots": 0}
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def test_lobby_speaks_chinese_by_default_and_english_on_request(client):
    chinese = client.get("/")
    assert chinese.status_code == 200
    assert "游客入场" in chinese.content.decode()
    english = client.get("/", headers={"accept-language": "en"})
    assert "Play as a guest" in english.content.decode()


def test_language_switch_sets_english_for_the_session(client):
    response = client.post(reverse("rooms:set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Play as a guest" in client.get("/").content.decode()


def test_guest_nickname_signs_the_browser_in(client):
    response = client.post(reverse("rooms:guest"), {"nickname": "  alice  "})
    assert response.status_code == 302
    lobby = client.get("/").content.decode()
    assert "alice" in lobby and "开新房间" in lobby  # signed in: the new-room form shows


def test_guest_with_empty_nickname_is_refused(client):
    client.post(reverse("rooms:guest"), {"nickname": "   "})
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("language, expected, engine_english", [
    ("zh-hans", "这个昵称是保留的，请换一个。", "That nickname is reserved"),
    ("en", "That nickname is reserved: choose another.", "这个昵称"),
])
def test_a_refused_nickname_is_worded_in_the_pages_language(client, language, expected, engine_english):
    client.post(reverse("rooms:guest"), {"nickname": "admin"}, headers={"accept-language": language})
    lobby = client.get("/", headers={"accept-language": language}).content.decode()
    assert expected in lobby and engine_english not in lobby


def test_a_refused_room_is_worded_in_chinese_with_its_parameters(client, alice):
    client.force_login(alice)
    for room in range(3):  # SEATS_PER_PLAYER tables held: the fourth is refused
        client.post(reverse("rooms:room_new"), room_post(name=f"t{room}"))
    client.post(reverse("rooms:room_new"), room_post(name="one too many"))
    lobby = client.get("/").content.decode()
    assert "你已经坐在 3 张牌桌上了，先离开一张吧。" in lobby and "leave one first" not in lobby


def test_new_room_takes_preset_and_options_and_seats_its_creator(client, alice):
    client.force_login(alice)
    response = client.post(reverse("rooms:room_new"), room_post())
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("rooms:table", args=[room.pk])
    assert room.preset == "lianzhong" and room.creator == alice
    assert room.options["timers"] == {"play": 30, "bid": 12, "declare": 10}
    assert room.options["hold_sixes"] is True and room.options["grab_solo"] is False
    assert room.options["trustee_level"] == "expert" and room.options["trustee_delay"] == 0.5
    assert Seat.objects.get(room=room, index=0).player == alice


def test_new_room_with_a_timer_out_of_range_shows_the_form_again(client, alice):
    client.force_login(alice)
    response = client.post(reverse("rooms:room_new"), room_post(timer_play=2))
    assert response.status_code == 400
    assert not Room.objects.exists()


def test_new_room_refuses_bots_when_bots_are_not_allowed(client, alice):
    client.force_login(alice)
    response = client.post(reverse("rooms:room_new"), room_post(allow_bots=None, bots=2))
    assert response.status_code == 400
    assert not Room.objects.exists()


def test_new_room_needs_a_player(client):
    client.post(reverse("rooms:room_new"), room_post())
    assert not Room.objects.exists()


def test_lobby_lists_open_rooms_with_free_seats_and_a_join_link(client, alice, bob):
    room = room_create(creator=alice, name="Open table", preset="qingdao")
    seat_take(room_id=room.pk, player=alice)
    seat_take(room_id=room.pk, player=bob)
    page = client.get("/").content.decode()
    assert "Open table" in page and "2/5" in page and "青岛保皇" in page
    assert f'href="/rooms/{room.pk}/?join=1"' in page


def test_the_lobby_says_how_many_seated_players_are_ready(client, alice, bob, charlie):
    from rooms.services import seat_ready

    room = room_create(creator=alice, name="Waiting", preset="classic")
    for player in (alice, bob, charlie):
        seat_take(room_id=room.pk, player=player)

    def shown():
        row = client.get(reverse("rooms:lobby_rooms")).content.decode().split(f'data-room="{room.pk}"')[1]
        return row.split("</tr>")[0]

    assert "ready-count" not in shown()  # nobody is ready yet
    seat_ready(room_id=room.pk, player=alice)
    seat_ready(room_id=room.pk, player=charlie)
    assert 'data-ready="2"' in shown() and "2 人已准备" in shown()
    seat_ready(room_id=room.pk, player=charlie, on=False)
    assert 'data-ready="1"' in shown() and "1 人已准备" in shown()
    client.post(reverse("rooms:set_language"), {"language": "en", "next": "/"})
    assert "1 ready" in shown()


def test_the_lobbys_room_list_is_served_alone_waiting_rooms_first_closed_rooms_gone(client, alice, bob):
    from rooms.services import room_dissolve

    lonely = room_create(creator=alice, name="Lonely", preset="classic")
    seat_take(room_id=lonely.pk, player=alice)
    busy = room_create(creator=bob, name="Busy", preset="classic")
    seat_take(room_id=busy.pk, player=bob)
    seat_take(room_id=busy.pk, player=alice)
    closed = room_create(creator=bob, name="Closed", preset="classic")
    room_dissolve(room_id=closed.pk)

    response = client.get(reverse("rooms:lobby_rooms"))
    assert response.status_code == 200
    assert [item["room"].name for item in response.context["rooms"]] == ["Busy", "Lonely"]
    html = response.content.decode()
    assert "<html" not in html and "Closed" not in html and html.index("Busy") < html.index("Lonely")
    assert f'data-url="{reverse("rooms:lobby_rooms")}"' in client.get("/").content.decode()


def test_table_page_carries_the_socket_path_and_the_viewers_seat(client, full_table, players):
    room = full_table("classic")
    client.force_login(players[2])
    response = client.get(reverse("rooms:table", args=[room.pk]))
    assert response.status_code == 200
    config = json.loads(response.content.decode().split('id="table-config" type="application/json">')[1].split("</script>")[0])
    assert config["ws"] == f"/ws/rooms/{room.pk}/" and config["seat"] == 2 and config["player"] == players[2].pk
    assert response.context["text"]["play"] == "出牌"  # the table's words, in Chinese


def test_anonymous_visitor_of_a_room_without_spectators_goes_to_the_lobby(client, alice):
    room = room_create(creator=alice, name="Private", preset="classic", options={"allow_spectators": False})
    response = client.get(reverse("rooms:table", args=[room.pk]))
    assert response.status_code == 302 and response["Location"].startswith("/?next=")


def test_unknown_room_is_404(client):
    assert client.get(reverse("rooms:table", args=[999])).status_code == 404


def test_player_page_draws_the_running_total(client, alice):
    for points in (5, -8, 10):
        ledger_adjust(player=alice, points=points, note="test")
    client.force_login(alice)
    response = client.get(reverse("rooms:player", args=[alice.pk]))
    assert response.status_code == 200
    assert response.context["total"] == 7
    assert [row["total"] for row in response.context["history"]] == [7, -3, 5]  # newest first
    assert "<polyline" in response.content.decode()


def test_ledger_chart_puts_zero_and_each_total_on_the_line():
    chart = ledger_chart([5, -3, 7], width=100, height=100, pad=0)
    points = [tuple(map(float, pair.split(","))) for pair in chart["points"].split()]
    assert [x for x, _ in points] == [0.0, 33.3, 66.7, 100.0]
    assert points[3][1] == 0.0 and points[2][1] == 100.0  # 7 is the top, -3 the bottom
    assert chart["zero"] == points[0][1]
    assert ledger_chart([]) is None


def test_player_page_shows_places_roles_outcomes_and_the_rating_per_preset(client, full_table, players):
    from scoring.models import Rating
    from scoring.selectors import role_in, side_outcome

    room = full_table("classic")
    hands = [finished_by_engine(room) for _ in range(3)]
    alice = players[0]

    row = client.get(reverse("rooms:player", args=[alice.pk])).context["by_preset"][0]  # public: anyone sees it

    places = [hand.result["places"].index(0) + 1 for hand in hands]
    assert row["preset"] == "classic" and row["hands"] == 3
    assert row["average_place"] == round(sum(places) / 3, 2)
    assert row["points_per_hand"] == round(sum(hand.result["scores"][0] for hand in hands) / 3, 2)
    expected = {}
    for hand in hands:
        counts = expected.setdefault(role_in(hand.result, 0), {"hands": 0, "win": 0, "draw": 0, "loss": 0})
        counts["hands"] += 1
        counts[side_outcome(hand.result, 0)] += 1
    assert {r["role"]: {k: r[k] for k in ("hands", "win", "draw", "loss")} for r in row["roles"]} == expected
    assert row["rating"] == round(Rating.objects.get(player=alice, preset="classic").ordinal, 1)
    assert row["rating_chart"]["points"].count(",") == 4  # the start and one point per rated hand


def test_player_page_links_the_last_hands_to_their_replays_for_those_who_may_watch(client, full_table, players):
    room = full_table("qingdao")
    hands = [finished_by_engine(room) for _ in range(2)]
    alice, bob = players[0], players[1]
    page = reverse("rooms:player", args=[alice.pk])

    client.force_login(bob)  # played those hands: may replay them
    rows = client.get(page).context["last_hands"]
    assert [row["hand"].pk for row in rows] == [hands[1].pk, hands[0].pk]
    assert rows[0]["place"] == hands[1].result["places"].index(0) + 1
    assert rows[0]["points"] == hands[1].result["scores"][0]
    assert reverse("rooms:hand_replay", args=[hands[1].pk]) in client.get(page).content.decode()

    client.logout()  # a stranger: the room keeps no public records
    assert client.get(page).context["last_hands"] == []
    Room.objects.filter(pk=room.pk).update(options={**room.options, "public_records": True})
    assert len(client.get(page).context["last_hands"]) == 2


def test_roles_and_outcomes_of_a_seat():
    from scoring.selectors import role_in, side_outcome

    pair = {"emperor": 1, "guard": 3, "outcome": "lose"}
    assert [role_in(pair, seat) for seat in range(5)] == ["rebel", "emperor", "rebel", "guard", "rebel"]
    assert [side_outcome(pair, seat) for seat in range(5)] == ["win", "loss", "win", "loss", "win"]
    for solo in ({"emperor": 2, "guard": None, "outcome": "draw"}, {"emperor": 2, "guard": 2, "outcome": "draw"}):
        assert role_in(solo, 2) == "solo" and role_in(solo, 0) == "rebel" and side_outcome(solo, 0) == "draw"


def test_leaderboard_ranks_by_points_and_leaves_bots_off(client, alice, bob):
    robot = player_bot(number=1)
    ledger_adjust(player=alice, points=3, note="test")
    ledger_adjust(player=bob, points=9, note="test")
    ledger_adjust(player=robot, points=50, note="test")
    rows = client.get(reverse("rooms:leaderboard")).context["rows"]
    assert [(row["name"], row["points"], row["rank"]) for row in rows] == [("bob", 9, 1), ("alice", 3, 2)]


def test_leaderboard_switches_to_skill_rating_with_a_minimum_of_hands(client, alice, bob):
    from scoring.models import Rating

    ledger_adjust(player=alice, points=9, note="test")
    ledger_adjust(player=bob, points=3, note="test")
    Rating.objects.create(player=alice, preset="classic", mu=4.0, sigma=1.0, ordinal=1.0, hands=1)
    Rating.objects.create(player=bob, preset="qingdao", mu=8.0, sigma=1.0, ordinal=5.0, hands=1)

    response = client.get(reverse("rooms:leaderboard"), {"order": "rating"})
    assert [(row["name"], row["rating"], row["rank"]) for row in response.context["rows"]] == [
        ("bob", 5.0, 1), ("alice", 1.0, 2)]
    assert b'<option value="rating" selected>' in response.content
    assert not client.get(reverse("rooms:leaderboard"), {"order": "rating", "min_hands": "1"}).context["rows"]
    ignored = client.get(reverse("rooms:leaderboard"), {"order": "elo", "min_hands": "-3"}).context
    assert (ignored["order"], ignored["min_hands"]) == ("points", 0)


def test_leaderboard_counts_hands_and_hands_won_per_side(client, full_table, players):
    room = full_table("classic")
    hand = play_to_end(hand_start(room_id=room.pk).pk)
    rows = {row["player_id"]: row for row in client.get(reverse("rooms:leaderboard"), {"preset": "classic"}).context["rows"]}
    result = hand.result
    for seat, player in enumerate(players):
        emperor_side = seat in (result["emperor"], result["guard"])
        won = (emperor_side and result["outcome"] == "win") or (not emperor_side and result["outcome"] == "lose")
        assert rows[player.pk]["hands"] == 1
        assert rows[player.pk]["wins"] == int(won)
        assert rows[player.pk]["points"] == result["scores"][seat]
    assert not client.get(reverse("rooms:leaderboard"), {"preset": "qingdao"}).context["rows"]


def test_room_ledger_sums_this_rooms_entries_only(client, full_table, players):
    room = full_table("classic")
    hand = play_to_end(hand_start(room_id=room.pk).pk)
    ledger_adjust(player=players[0], points=100, note="elsewhere")  # no room: not counted
    data = client.get(reverse("rooms:room_ledger", args=[room.pk])).json()
    totals = {row["id"]: row["points"] for row in data["players"]}
    assert totals == {player.pk: hand.result["scores"][seat] for seat, player in enumerate(players)}
    assert LedgerEntry.objects.filter(room=room).count() == 5


def test_guest_names_are_escaped_on_every_page(client):
    mallory = player_guest(nickname="<b>mallory</b>")
    ledger_adjust(player=mallory, points=1, note="test")
    for url in (reverse("rooms:leaderboard"), reverse("rooms:player", args=[mallory.pk])):
        page = client.get(url).content.decode()
        assert "<b>mallory</b>" not in page and "&lt;b&gt;mallory&lt;/b&gt;" in page


def _viewer(client, who):
    if who is not None:
        client.force_login(who)
    return client


@pytest.mark.parametrize("viewer", ["anonymous", "other player"])
def test_public_player_page_shows_no_ledger_entries_or_notes(client, full_table, players, viewer):
    room = full_table("classic")
    play_to_end(hand_start(room_id=room.pk).pk)
    ledger_adjust(player=players[0], points=7, note="admin carol: refund after a crash")
    _viewer(client, None if viewer == "anonymous" else players[1])
    response = client.get(reverse("rooms:player", args=[players[0].pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert response.context["history"] is None
    assert "refund after a crash" not in page and room.name not in page
    assert 'class="list ledger"' not in page
    # The public facts stay: the total, the figures per preset, the chart.
    total = sum(LedgerEntry.objects.filter(player=players[0]).values_list("points", flat=True))
    assert response.context["total"] == total
    assert [row["preset"] for row in response.context["by_preset"]] == ["classic"]
    assert response.context["by_preset"][0]["hands"] == 1
    assert "<polyline" in page


@pytest.mark.parametrize("viewer", ["owner", "staff"])
def test_owner_and_staff_see_the_ledger_entries_with_notes(client, alice, bob, viewer):
    ledger_adjust(player=alice, points=7, note="refund after a crash")
    if viewer == "staff":
        bob.is_staff = True
        bob.save()
    _viewer(client, alice if viewer == "owner" else bob)
    response = client.get(reverse("rooms:player", args=[alice.pk]))
    assert [row["entry"].note for row in response.context["history"]] == ["refund after a crash"]
    assert "refund after a crash" in response.content.decode()


def test_deactivated_player_has_no_page_and_no_rank(client, alice, bob):
    ledger_adjust(player=alice, points=3, note="test")
    ledger_adjust(player=bob, points=9, note="test")
    bob.is_active = False
    bob.save()
    assert client.get(reverse("rooms:player", args=[bob.pk])).status_code == 404
    rows = client.get(reverse("rooms:leaderboard")).context["rows"]
    assert [row["player_id"] for row in rows] == [alice.pk]


def test_leaderboard_names_an_account_without_display_name_by_its_username(client, alice):
    alice.display_name = ""
    alice.save()
    ledger_adjust(player=alice, points=3, note="test")
    rows = client.get(reverse("rooms:leaderboard")).context["rows"]
    assert [row["name"] for row in rows] == [alice.username]
