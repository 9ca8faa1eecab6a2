"""What happened, in a real Chromium: the round log and 上一轮, the 记牌器 dropping as
jokers are played, 摊牌 with the explained score sheet after an early end, a replay played
to its end matching the stored result, and the rules pages in both languages.

The hand is moved by the services in this process (`rooms.tests.play.step`) and the page
is reloaded to show it: what is checked is what the page draws from its snapshot.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.driver import DESKTOP, PHONE, Seat

pytestmark = pytest.mark.django_db(transaction=True)


# Whether the score sheet scrolls sideways, which 摊牌 card faces stick out of it, and
# which places (头科 …) are broken over two lines.
SHOWDOWN_FITS_JS = """() => {
  const sheet = document.querySelector("#score-sheet"), box = sheet.getBoundingClientRect();
  const outside = [...sheet.querySelectorAll("#showdown .card .face")].filter((face) => {
    const r = face.getBoundingClientRect();
    return r.left < box.left || r.right > box.right; }).map((face) => face.parentNode.dataset.card);
  const broken = [...sheet.querySelectorAll("table.scores tbody td:first-child")].filter((cell) => {
    const text = document.createRange(); text.selectNodeContents(cell);
    return text.getClientRects().length > 1; }).map((cell) => cell.textContent);
  return {scrolls: sheet.scrollWidth > sheet.clientWidth, outside, broken};
}"""


def seated_table(alice_page, preset: str):
    """A room with the browser's guest in seat 0 and four more players, its hand dealt."""
    from rooms.models import Player
    from rooms.services import hand_start, room_create, seat_take

    alice = Player.objects.get(display_name=alice_page.name)
    room = room_create(creator=alice, name="history", preset=preset, options={})
    seat_take(room_id=room.pk, player=alice, index=0)
    for index, name in enumerate(["bob", "charlie", "dave", "erin"], start=1):
        seat_take(room_id=room.pk, player=Player.objects.create_user(f"{name}-{room.pk}", display_name=name), index=index)
    return room, hand_start(room_id=room.pk)


def until(hand_id: int, done) -> "Hand":  # noqa: F821
    from rooms.models import Hand
    from rooms.tests.play import step

    for _ in range(3000):
        hand = Hand.objects.get(pk=hand_id)
        if done(hand):
            return hand
        step(hand_id)
    raise AssertionError("the hand never got there")


def show(seat: Seat, room_id: int):
    seat.page.goto(f"{seat.base_url}/rooms/{room_id}/")
    seat.wait_connected()


def test_round_log_counter_showdown_sheet_and_replay(browser, server, seats_to_close):
    alice = Seat(browser, server.url, "alice", viewport=DESKTOP)
    seats_to_close.append(alice)
    alice.become_guest()
    room, hand = seated_table(alice, "lianzhong")

    # A round won: the drawer lists this round (empty) and, one tap away, the last one.
    hand = until(hand.pk, lambda h: (h.state.get("previous_round") or {}).get("entries"))
    previous = hand.state["previous_round"]
    show(alice, room.pk)
    alice.page.click("#history summary")
    expect(alice.page.locator("#round-log")).to_have_attribute("data-which", "current")
    alice.page.click("#history [data-action=previous-round]")
    log = alice.page.locator("#round-log[data-which=previous] li")
    expect(log).to_have_count(len(previous["entries"]))
    assert [item.get_attribute("data-type") for item in log.all()] == [e["type"] for e in previous["entries"]]
    alice.screenshot("round-log-previous")

    # The counter counts what alice has not seen; a big joker played lowers it.
    from baohuang.engine.counter import totals

    def expected_big_jokers(h):
        mine = sum(1 for card in h.state["hands"][0] if card.startswith("BJ"))
        return totals("lianzhong")["BJ"] - h.state["gone"].get("BJ", 0) - mine

    counter = alice.page.locator("#counter li[data-key=BJ]")
    expect(counter).to_have_attribute("data-n", str(expected_big_jokers(hand)))
    gone = hand.state["gone"].get("BJ", 0)
    later = until(hand.pk, lambda h: not h.running or h.state["gone"].get("BJ", 0) > gone)
    if later.running:
        show(alice, room.pk)
        alice.page.click("#history summary")
        expect(counter).to_have_attribute("data-n", str(expected_big_jokers(later)))
        alice.screenshot("counter-after-a-big-joker")

    # The end (early, with cards still held): 摊牌 and the explained score sheet.
    ended = until(hand.pk, lambda h: not h.running)
    show(alice, room.pk)
    sheet = alice.page.locator("#score-sheet")
    expect(sheet).to_be_visible()
    expect(sheet.locator("#explain")).to_contain_text("g = 6 −" if ended.result["solo"] is None else "→")
    held = [seat for seat, cards in enumerate(ended.state["hands"]) if cards]
    expect(sheet.locator("#showdown li")).to_have_count(len(held))
    alice.screenshot("showdown-explained-sheet")
    # On a phone every card of 摊牌 shows whole inside the sheet, with no sideways scroll,
    # and each place on one line.
    alice.page.set_viewport_size(PHONE)
    assert alice.page.evaluate(SHOWDOWN_FITS_JS) == {"scrolls": False, "outside": [], "broken": []}
    alice.screenshot("showdown-phone")
    alice.page.set_viewport_size(DESKTOP)

    # The replay, from the score sheet: a jump to the last round, then played to its end at
    # the fastest speed (every step is the engine's, rebuilt by the server: playing all
    # ~500 of them at 4 a second would only add two minutes).
    sheet.locator("[data-action=replay]").click()
    replay = alice.page.locator("#replay")
    expect(replay).to_have_attribute("data-at", "0")
    # The step buttons draw their icons (no symbol characters a phone's fonts may lack), once
    # the page's stylesheets have loaded: a run measured them before, at no size.
    alice.page.wait_for_load_state("load")
    steps = alice.page.eval_on_selector_all(".replay-bar button[aria-label]", """(buttons) => buttons.map((b) => {
      const icon = b.querySelector("svg.icon"), box = icon && icon.getBoundingClientRect();
      return {id: b.id, text: b.textContent.trim(), drawn: Boolean(box && box.width >= 8 && box.height >= 8)}; })""")
    assert steps == [{"id": name, "text": "", "drawn": True}
                     for name in ("replay-first", "replay-back", "replay-next", "replay-last")], steps
    rounds = alice.page.locator("#replay-round option")
    alice.page.select_option("#replay-round", rounds.nth(rounds.count() - 1).get_attribute("value"))
    assert int(replay.get_attribute("data-at")) > 0
    expect(replay).to_have_attribute("data-ended", "false")
    alice.page.select_option("#replay-speed", "4")
    alice.page.click("#replay-play")
    expect(replay).to_have_attribute("data-ended", "true")
    scores = alice.page.locator("#replay-result").get_attribute("data-scores")
    assert scores == ",".join(str(n) for n in ended.result["scores"])
    expect(alice.page.locator("#fair-verdict")).to_have_attribute("data-ok", "true")
    alice.screenshot("replay-ended")


def test_the_rules_pages_in_both_languages(browser, server, seats_to_close):
    reader = Seat(browser, server.url, "reader", viewport=DESKTOP)
    seats_to_close.append(reader)
    reader.page.goto(server.url + "/rules/")
    expect(reader.page.locator("article.rules h1")).to_have_text("保皇怎么玩")
    reader.page.click("a[data-preset=qingdao]")
    expect(reader.page.locator("article.rules h1")).to_contain_text("青岛")
    expect(reader.page.locator(".card.mark-baozi").first).to_be_visible()
    reader.page.click("form.lang button[value=en]")
    expect(reader.page.locator("article.rules h2").first).to_contain_text("qingdao")
    expect(reader.page.locator("article.rules")).to_contain_text("Tribute")
    reader.screenshot("rules-qingdao-english")
