"""The table in a real Chromium, driven by clicks: five players, each preset, bots, reloads.

Run alone: `DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/pytest tests/browser`.
Screenshots of the table and the score sheet land in artifacts/.
"""

import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import expect

from baohuang import engine
from baohuang.engine.cards import sort_hand
from tests.browser.driver import DESKTOP, PHONE, Game, Seat, play_games

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("alice", "bob", "charlie", "dave", "erin")
MORE_NAMES = ("frank", "grace", "heidi", "ivan", "judy")
PRESETS = ("classic", "lianzhong", "qingdao", "lianzhong_classic")
# After 30 clicked moves (past the refused follow, the mid-hand screenshots and the
# reload), the services play on until the 托管 baseline would end the hand in 15 more
# moves; then the clicks go on to the score sheet. Twenty pages share the machine:
# on two cores each click costs about half a second.
FAST_FORWARD_AFTER = 30
CLICKED_AT_END = 15

HAND_NOW = """() => {
  const hand = window.bhTable.store.hand;
  return {id: hand.id, version: hand.version, running: hand.running,
          cards: hand.view.hand, counts: hand.view.counts, phase: hand.view.phase};
}"""


def reload_mid_hand(seat: Seat, room_id: int) -> None:
    """Reload the page: it must come back with the same hand, cards and counts. First the
    page must have caught up with the hand: another seat's move was just answered on that
    seat's page, and this one may be a frame behind (the race that made this test flaky)."""
    hand = hand_of_room(room_id)
    expect(seat.page.locator("#table")).to_have_attribute("data-version", str(hand.version))
    before = seat.page.evaluate(HAND_NOW)
    assert before["running"], "reload only makes sense mid-hand"
    seat.page.reload()
    seat.wait_connected()
    expect(seat.page.locator("#table")).to_have_attribute("data-version", str(before["version"]))
    after = seat.page.evaluate(HAND_NOW)
    assert after == before
    expect(seat.page.locator("#hand .card")).to_have_count(len(before["cards"]))
    seat.screenshot("table-after-reload")


WRONG_SIZE_JS = """() => {
  // Cards of one rank, but one against a set of two or more, or two against a single: a
  // follow of the wrong size (no joker, marked card, 3 or 6: those have rules of their
  // own that would be refused first). Their keys (a hand may hold two cards alike).
  const size = window.bhTable.store.hand.view.table.top.cards.length;
  const cards = [...document.querySelectorAll("#hand button.card")]
    .map((node) => ({key: node.dataset.key, card: node.dataset.card}))
    .filter(({card}) => !card.endsWith("*") && !card.endsWith("J") && !"36".includes(card[0]));
  if (size >= 2) return cards.length ? [cards[cards.length - 1].key] : null;
  const rank = (card) => card[0];
  const pair = cards.find((one, i) => cards.slice(i + 1).some((other) => rank(other.card) === rank(one.card)));
  return pair ? cards.filter(({card}) => rank(card) === rank(pair.card)).slice(0, 2).map(({key}) => key) : null;
}"""


def try_an_illegal_follow(seats: list[Seat]) -> bool:
    """If a seat is following, select cards of one rank but of the wrong number (one card
    against a set of two or more, a pair against a single) and 出牌: the page must explain
    the refusal in its own words, from the error's code (never the server's English
    sentence). Any follow will do, so it happens early in every deal. True once done."""
    for seat in seats:
        now = seat.buttons()
        if not (now["settled"] and now["myTurn"] and now["pass"] and now["hint"]):
            continue  # not following, or nothing in the hand beats the top (出牌 stays disabled)
        cards = seat.page.evaluate(WRONG_SIZE_JS)
        if not cards:
            continue
        version = now["version"]
        for key in cards:
            seat.click(f"#hand button.card[data-key='{key}']")
        seat.click("#controls [data-action=play]")
        notice = seat.page.locator("#notice.error")
        expect(notice).to_contain_text(re.compile(r"\d+ 张"))  # the page's own words for wrong_size …
        assert "does not beat" not in notice.inner_text()  # … and not the engine's English
        assert seat.version() == version  # nothing changed
        seat.click("#controls [data-action=clear]")
        return True
    return False


def ready_all(seats: list[Seat], within: str = "") -> None:
    """Every seat presses 准备 (its button `within` the centre, or the score sheet): each
    mark shows on the last page before it presses too, and its press deals."""
    for seat in seats[:-1]:
        seat.click(f"{within}[data-action=ready]")
        expect(seat.page.locator("#center [data-action=unready]")).to_be_visible()  # 取消准备 is offered
    expect(seats[-1].page.locator(".seat .badge.ready")).to_have_count(len(seats) - 1)
    seats[-1].click(f"{within}[data-action=ready]")


def fast_forward(room_id: int, seats: list[Seat]) -> None:
    """Play the middle of the room's hand through the one write path (`hand_act`), as a
    timer or a bot does from another process: the 托管 baseline's line to the end of the
    hand, worked out by the engine, but its last `CLICKED_AT_END` moves; every page follows
    by its events. Clicks cost a second or more each on a busy machine, and the suite has
    a time budget."""
    from django.db import connection

    from rooms.services import hand_act

    def play():  # on a thread of its own: Playwright's event loop runs on this one
        try:
            hand = hand_of_room(room_id)
            state, line = hand.state, []
            while state["phase"] == "playing":
                line.append(engine.autoplay(state, engine.actors(state)[0], "baseline"))
                state, _event = engine.apply(state, line[-1])
            for action in line[:-CLICKED_AT_END]:
                hand_act(hand_id=hand.pk, seat=action["seat"], action=action, expected_version=hand.version)
                hand.refresh_from_db()
            return hand
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        hand = pool.submit(play).result()
    for seat in seats:
        expect(seat.page.locator("#table")).to_have_attribute("data-version", str(hand.version))


def hand_of_room(room_id: int, number: int = 1):
    from rooms.models import Hand

    return Hand.objects.get(room_id=room_id, number=number)


def assert_score_sheet_matches(seat: Seat, room_id: int) -> None:
    from scoring.models import LedgerEntry

    hand = hand_of_room(room_id)
    assert hand.phase == "ended" and hand.result and not hand.result["void"]
    sheet = seat.page.locator("#score-sheet")
    expect(sheet).to_be_visible()
    for seat_index, score in enumerate(hand.result["scores"]):
        shown = f"+{score}" if score > 0 else str(score)
        expect(sheet.locator(f"tr[data-seat='{seat_index}'] td.num")).to_have_text(shown)
    expect(sheet.locator("#room-ledger tr")).to_have_count(5)
    assert LedgerEntry.objects.filter(hand=hand, kind="hand_score").count() == 5


@pytest.mark.django_db(transaction=True)
def test_five_players_click_a_hand_of_each_preset_to_the_score_sheet(browser, server, seats_to_close):
    """Five browser contexts, one table per preset (all four) played at once by clicks; a
    page is reloaded mid-hand and its hand goes on; lianzhong_classic's bidding is worded
    as its own; the qingdao tribute shows at the next deal. The start and the end of each
    hand are clicked, the middle is played through the services (`fast_forward`)."""
    tables = {}
    # A player sits at three tables at most (the server's seat limit): two groups of five,
    # each at two tables, the second in a tab of its own. The second of each is on a phone.
    for names, presets in ((NAMES, PRESETS[:2]), (MORE_NAMES, PRESETS[2:])):
        people = [Seat(browser, server.url, name, viewport=PHONE if index == 1 else DESKTOP)
                  for index, name in enumerate(names)]
        seats_to_close.extend(people)
        for person in people:
            person.become_guest()
        for preset in presets:
            seats = people if preset == presets[0] else [person.tab() for person in people]
            seats_to_close.extend(seats if preset != presets[0] else [])
            tables[preset] = seats

    for preset, seats in tables.items():
        room = seats[0].create_room(preset)
        for seat in seats[1:]:
            seat.join(room)
        ready_all(seats)
        expect(seats[0].page.locator("#table")).to_have_attribute("data-running", "1")
        tables[preset] = (room, seats)

    # lianzhong_classic words its own bidding (RULES §6): the throne is called for or
    # yielded (让位), accepting with no call is 明独保; after a circle of 让位 the seat
    # offered it must take it if it can call (not classic's 逼庄).
    room, seats = tables["lianzhong_classic"]
    expect(seats[0].page.locator("#center")).to_contain_text("叫牌登基或让位")
    for seat in seats:
        expect(seat.page.locator("#table")).to_have_attribute("data-phase", "bidding")
    actor = next(seat for seat in seats if seat.my_turn())
    expect(actor.page.locator("#prompt [data-action=decline]")).to_have_text("让位")
    expect(actor.page.locator("#prompt [data-action=accept]")).to_have_text("明独保")
    if actor.has("#prompt [data-action=call]"):
        expect(actor.page.locator("#prompt [data-action=call]")).to_have_text("叫牌登基")
    forced = seats[0].page.evaluate("""() => { const {store, render} = window.bhTable; const v = store.hand.view;
      const saved = v.bidding; v.bidding = {...saved, forced: true, declined: [0, 1, 2, 3, 4]}; render();
      const text = document.getElementById("center").textContent; v.bidding = saved; render(); return text; }""")
    assert "让位已满一圈" in forced and "已让位" in forced and "逼庄" not in forced, forced

    # Someone without a nickname watches the classic table from the lobby's 旁观 link.
    watcher = Seat(browser, server.url, "watcher", viewport=PHONE)
    seats_to_close.append(watcher)
    watcher.open_lobby()
    watcher.click(f"tr[data-room='{tables['classic'][0]}'] a.watch")
    watcher.wait_connected()
    expect(watcher.page.locator("#table")).to_have_attribute("data-role", "spectator")

    refused = []

    def on_move(preset, seats):
        def hook(moves):
            if preset == "classic" and moves >= 10 and not refused and try_an_illegal_follow(seats):
                refused.append(moves)
            if moves == 20:
                seats[0].screenshot(f"table-{preset}-desktop")
                seats[1].screenshot(f"table-{preset}-phone")
            if moves == FAST_FORWARD_AFTER:
                fast_forward(tables[preset][0], seats)
            if preset == "classic" and moves == 25:
                reload_mid_hand(seats[1], tables[preset][0])
                watched = watcher.page.evaluate("() => window.bhTable.store.hand.view")
                assert "hand" not in watched and watched["seat"] is None  # public view only
                expect(watcher.page.locator("#hand .card")).to_have_count(0)
                expect(watcher.page.locator(".seat .count")).to_have_count(5)
                watcher.screenshot("table-classic-spectator-phone")
        return hook

    games = [Game(seats, rng=random.Random(index), name=preset, on_move=on_move(preset, seats))
             for index, (preset, (room, seats)) in enumerate(tables.items())]
    started = time.monotonic()
    play_games(games, timeout=900)  # an upper bound: returns when the four hands end
    print(f"\nclicked hands: {', '.join(f'{game.name} {game.moves} moves' for game in games)} "
          f"in {time.monotonic() - started:.0f} s ({len(games)} tables at once)")
    assert refused, "no seat ever followed a set of two or more cards"

    for preset, (room, seats) in tables.items():
        seats[0].screenshot(f"score-sheet-{preset}-desktop")
        seats[1].screenshot(f"score-sheet-{preset}-phone")
        for seat in seats:
            assert_score_sheet_matches(seat, room)
        assert not [line for seat in seats for line in seat.console if line.startswith("pageerror")]

    # qingdao: the debts of hand 1 are paid in cards at the deal of hand 2, and shown.
    room, seats = tables["qingdao"]
    owed = [debt for debt in hand_of_room(room).result["tribute"] if debt["cards"]]
    ready_all(seats, "#score-sheet ")
    expect(seats[0].page.locator("#table")).to_have_attribute("data-running", "1")
    paid = hand_of_room(room, 2).state["tribute_paid"]
    assert bool(paid) == bool(owed)
    expect(seats[0].page.locator("#deal-info .transfer.tribute")).to_have_count(len(paid))
    seats[0].screenshot("qingdao-tribute-at-next-deal")


@pytest.mark.django_db(transaction=True)
def test_one_human_and_four_bots_play_a_hand_through_a_dropped_socket(browser, server, bot_worker, seats_to_close):
    """The human makes every own move (plays with the keyboard shortcuts); once, the socket
    drops right after a move is sent: the page reconnects, re-sends it with the same
    client_id, and it is applied once."""
    from rooms.models import HandEvent
    from rooms.models import Seat as SeatRow

    human = Seat(browser, server.url, "alice", viewport=PHONE)
    seats_to_close.append(human)
    human.become_guest()
    human.keyboard = True  # this player plays with the keys (H, Enter, P)
    room = human.create_room("lianzhong", bots=4, pause=0)
    expect(human.page.locator(".seat.bot")).to_have_count(4)
    human.click("[data-action=ready]")  # 准备: the bots always are
    expect(human.page.locator("#table")).to_have_attribute("data-running", "1")

    # Break the socket right after the first `act` of a playing turn goes out, and record
    # every ack, to see the re-send answered as a repeat.
    human.page.evaluate("""() => {
      const conn = window.bhTable.conn;
      window.acks = [];
      const onMessage = conn.hooks.onMessage;
      conn.hooks.onMessage = (m) => { if (m.type === "ack") window.acks.push(m); onMessage(m); };
      const send = conn.send.bind(conn);
      conn.send = (frame) => {
        send(frame);
        if (frame.type === "act" && !window.dropped && window.bhTable.store.hand.view.phase === "playing") {
          window.dropped = frame.client_id;
          conn.breakSocket();
        }
      };
    }""")
    game = Game([human], rng=random.Random(5), name="bots")
    play_games([game], timeout=240)
    human.screenshot("score-sheet-bots-phone")

    # Nobody played for the human: no timeout, no 托管 (every move above was its own).
    assert SeatRow.objects.get(room_id=room, index=0).trustee_entries == 0
    dropped = human.page.evaluate("window.dropped")
    assert dropped, "the human never made a move in play"
    assert HandEvent.objects.filter(hand__room_id=room, client_id=dropped).count() == 1
    acks = [ack for ack in human.page.evaluate("window.acks") if ack["client_id"] == dropped]
    assert [ack["repeated"] for ack in acks] == [True]  # the re-send was answered, not applied
    assert_score_sheet_matches(human, room)


SEATS_KEPT_JS = """(change) => {
  // Mark every seat's nodes, draw the page again (after changing one seat's data, when
  // asked), and report which seats still show the marked nodes, in one turn of the page.
  const {store, render} = window.bhTable;
  for (const node of document.querySelectorAll(".seat > *")) node.marked = true;
  if (change !== null) store.seats[change].online = !store.seats[change].online;
  render();
  const kept = [...document.querySelectorAll(".seat")].map((box) =>
    box.children.length > 0 && [...box.children].every((node) => node.marked));
  return {kept, offline: document.querySelectorAll(".seat.offline").length};
}"""


@pytest.mark.django_db(transaction=True)
def test_a_redraw_replaces_only_the_seats_whose_content_changed(browser, server, seats_to_close):
    """The page is drawn again on every frame; a seat's nodes are replaced only when what it
    shows changed (a move changes two or three seats: the browser restyles and lays out only
    those)."""
    human = Seat(browser, server.url, "alice", viewport=PHONE)
    seats_to_close.append(human)
    human.become_guest()
    human.create_room("classic", bots=3)
    expect(human.page.locator(".seat.bot")).to_have_count(3)
    same = human.page.evaluate(SEATS_KEPT_JS, None)
    assert same == {"kept": [True] * 5, "offline": 0}, same  # nothing changed: nothing drawn again
    # Seat 0 (alice's own) shows as offline: it alone is drawn again.
    changed = human.page.evaluate(SEATS_KEPT_JS, 0)
    assert changed["kept"].count(False) == 1 and changed["offline"] == 1, changed


def test_the_hand_is_sorted_as_the_engine_sorts_it(browser):
    """static/js/cards.js only draws and sorts cards (提示 comes from the engine's view, see
    baohuang/engine/tests/test_views.py): its rank order matches the engine's."""
    page = browser.new_page()
    try:
        source = (ROOT / "static/js/cards.js").read_text(encoding="utf-8").replace("export ", "")
        page.set_content("<!doctype html><title>sorting</title>")
        page.add_script_tag(content=source + "\nwindow.BH = {sortByRank};")
        rng = random.Random(11)
        cases = []
        for preset in PRESETS:
            for seed in range(10):
                hand = engine.new_hand(preset, seed)["hands"][seed % 5]
                cases.append({"preset": preset, "hand": rng.sample(hand, len(hand))})
        results = page.evaluate("cases => cases.map(c => BH.sortByRank(c.hand, c.preset))", cases)
        for case, got in zip(cases, results):
            assert got == sort_hand(case["hand"], case["preset"])
    finally:
        page.close()


@pytest.mark.django_db(transaction=True)
def test_two_players_chat_with_text_and_a_quick_phrase(browser, server, seats_to_close):
    """alice types a line and presses Send: bob (on a phone) and an anonymous spectator read
    it as plain text, "#1 alice: …"; bob's quick phrase shows on every page, in each page's
    language (the spectator reads English). The spectator
    reads but has no input; a snapshot with `chat` replaces the lines, one without keeps them."""
    alice = Seat(browser, server.url, "alice")
    bob = Seat(browser, server.url, "bob", viewport=PHONE)
    seats_to_close.extend([alice, bob])
    for person in (alice, bob):
        person.become_guest()
    room = alice.create_room("classic")
    bob.join(room)
    watcher = Seat(browser, server.url, "watcher", viewport=PHONE)
    seats_to_close.append(watcher)
    watcher.read_in_english()  # the spectator reads in English
    watcher.page.goto(f"{server.url}/rooms/{room}/")
    watcher.wait_connected()
    expect(watcher.page.locator("#table")).to_have_attribute("data-role", "spectator")
    for seat in (alice, bob, watcher):  # the chat is a drawer, closed at first
        expect(seat.page.locator("#chat-lines")).to_be_hidden()
        seat.click("#chat summary")
    expect(watcher.page.locator("#chat-lines")).to_be_visible()
    expect(watcher.page.locator("#chat-form")).to_be_hidden()
    expect(watcher.page.locator("#chat-phrases")).to_be_hidden()
    for seat in (alice, bob):
        expect(seat.page.locator("#chat-input")).to_be_visible()
        expect(seat.page.locator("#chat-input")).to_have_attribute("maxlength", "200")
        expect(seat.page.locator("#chat-phrases [data-phrase]")).to_have_count(8)

    # Blank input sends nothing; a line with markup in it is shown as the characters typed.
    said = "<b>谁先来?</b> & 'hi'"
    alice.page.fill("#chat-input", "   ")
    alice.page.click("#chat-send")
    alice.page.fill("#chat-input", f"  {said} ")
    alice.page.click("#chat-send")
    expect(alice.page.locator("#chat-input")).to_have_value("")
    for seat in (alice, bob, watcher):
        expect(seat.page.locator("#chat-lines li")).to_have_count(1)
        expect(seat.page.locator("#chat-lines li").last).to_have_text(f"#1 alice: {said}")
        expect(seat.page.locator("#chat-lines b")).to_have_count(0)  # text, not markup
    sent = [line for line in alice.console if line.startswith("ws> ") and '"type":"chat"' in line]
    assert len(sent) == 1, sent

    # A quick phrase (快捷语), clicked on the phone.
    hurry = bob.page.locator("#chat-phrases [data-phrase=hurry]")
    expect(hurry).to_have_text("快点吧，等得花都谢了")
    hurry.click()
    for seat in (alice, bob, watcher):
        expect(seat.page.locator("#chat-lines li")).to_have_count(2)
    # A phrase travels as its id: each page words it in its own language.
    for seat in (alice, bob):
        expect(seat.page.locator("#chat-lines li").last).to_have_text("#2 bob: 快点吧，等得花都谢了")
    expect(watcher.page.locator("#chat-lines li").last).to_have_text("#2 bob: Hurry up, the flowers are wilting")
    # The chat fits the phone's width: nothing sticks out sideways.
    assert bob.page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    box = bob.page.locator("#chat-send").bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    bob.screenshot("table-chat-phone")

    # A refusal before any deal is shown too (the notice is not inside the hidden hand).
    alice.page.evaluate("() => window.bhTable.conn.send({type: 'chat', text: 'x'.repeat(201)})")
    expect(alice.page.locator("#notice.error")).to_be_visible()

    # The server keeps the chat: a reloaded page shows the conversation again.
    alice.page.reload()
    alice.wait_connected()
    expect(alice.page.locator("#chat-lines li")).to_have_text([f"#1 alice: {said}", "#2 bob: 快点吧，等得花都谢了"])

    # Client side of `snapshot.chat`: absent keeps the lines, a list replaces them; at most
    # 100 lines are kept, the newest in view.
    watcher.page.evaluate("""() => {
      const {store, conn} = window.bhTable;
      const snapshot = (extra) => conn.hooks.onMessage({type: "snapshot", server_time: Date.now(), room: store.room,
        you: store.you, seats: store.seats, hand: store.hand, version: null, phrases: store.phrases, ...extra});
      snapshot({});
      window.keptLines = document.querySelectorAll("#chat-lines li").length;
      const carol = {player: {id: 1, name: "carol"}, seat: null, text: "早", phrase: null, at: 1};
      const erin = {player: {id: 5, name: "erin"}, seat: 4, text: "hi", phrase: null, at: 2};
      const lines = () => [...document.querySelectorAll("#chat-lines li")];
      snapshot({chat: [carol]});
      window.replaced = lines().map((li) => li.textContent);
      const first = lines()[0];
      snapshot({chat: [carol, erin]});  // what is shown stays (not read out again), the rest is added
      window.extended = lines().map((li) => li.textContent);
      window.keptNode = lines()[0] === first;
      for (let i = 0; i < 120; i++) {
        conn.hooks.onMessage({type: "chat", player: {id: 2, name: "dave"}, seat: 3, text: `line ${i}`, phrase: null, at: i});
      }
    }""")
    assert watcher.page.evaluate("window.keptLines") == 2
    assert watcher.page.evaluate("window.replaced") == ["carol: 早"]
    assert watcher.page.evaluate("window.extended") == ["carol: 早", "#5 erin: hi"]
    assert watcher.page.evaluate("window.keptNode")
    lines = watcher.page.locator("#chat-lines li")
    expect(lines).to_have_count(100)
    expect(lines.first).to_have_text("#4 dave: line 20")
    assert watcher.page.evaluate(
        "() => { const box = document.getElementById('chat-lines');"
        " return box.scrollHeight - box.scrollTop - box.clientHeight; }") <= 1  # scrolled to the newest
    assert not [line for seat in (alice, bob, watcher) for line in seat.console if line.startswith("pageerror")]
