"""The table on a phone, in landscape and on a desktop, in a real Chromium: everything
needed to play is on one screen, the marks are never covered, and the traps of the old
table are gone (swipe-select, 要不起, 抢庄's confirmation, 取消托管, the offline banner).

One human against four bots (a real Celery worker). Screenshots land in artifacts/.
"""

import random
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.driver import Game, Seat, axe_violations

PHONE = {"width": 375, "height": 812}
SMALL_PHONE = {"width": 360, "height": 640}  # the commonest small Android screen
NARROWEST_PHONE = {"width": 320, "height": 568}  # the first iPhone SE
LANDSCAPE = {"width": 812, "height": 375}
SMALL_LANDSCAPE = {"width": 568, "height": 320}  # the first iPhone SE turned
DESKTOP = {"width": 1366, "height": 768}
VIEWPORTS = {"phone": PHONE, "small-phone": SMALL_PHONE, "narrowest-phone": NARROWEST_PHONE, "landscape": LANDSCAPE,
             "small-landscape": SMALL_LANDSCAPE, "desktop": DESKTOP}

# What must lie inside the viewport, measured in the page: the hand's cards, the top set,
# every action button shown; and whether the page scrolls at all.
FITS_JS = """() => {
  const inside = (node) => { const r = node.getBoundingClientRect();
    return r.width > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5; };
  const shown = (node) => node.checkVisibility();
  const out = (selector) => [...document.querySelectorAll(selector)].filter(shown).filter((n) => !inside(n))
    .map((n) => `${selector}: ${n.dataset.action || n.dataset.card || n.className}`);
  return {scroll: document.scrollingElement.scrollHeight, height: innerHeight,
          scrollWidth: document.scrollingElement.scrollWidth, width: innerWidth,
          bar: document.querySelector(".table-bar").getBoundingClientRect().height,
          // the centre's content (the top set, whose turn, the called card, the deal's lines) in
          // sight, not scrolled to
          centre: document.getElementById("center").scrollHeight - document.getElementById("center").clientHeight,
          cards: document.querySelectorAll("#hand .card").length,
          // the bar of actions' lines
          barLines: new Set([...document.querySelectorAll("#controls button")].filter(shown).map((b) => b.offsetTop)).size,
          // what the centre shows (a line's words, not its box; a name cut short by its own box),
          // under the round log's toggle in its corner
          underToggle: [...document.querySelectorAll("#center p, #center .owner, #center .cards, #center .deal-info")]
            .filter(shown).filter((node) => { const t = document.querySelector("#history > summary").getBoundingClientRect();
              const boxes = [...node.querySelectorAll(".nick")].map((nick) => nick.getBoundingClientRect());
              const words = document.createRange(), walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
              for (let text = walk.nextNode(); text; text = walk.nextNode()) {
                if (text.parentElement.closest(".nick")) continue;
                words.selectNodeContents(text); boxes.push(...words.getClientRects()); }
              boxes.push(...[...node.querySelectorAll(".card")].map((card) => card.getBoundingClientRect()));
              return boxes.some((r) => r.width > 0 && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom); })
            .map((node) => node.textContent),
          // each row of the hand within the hand's box (else its ends are cut off on a narrow screen)
          rowsOver: [...document.querySelectorAll("#hand .hand-row")].map((row) => row.getBoundingClientRect().width)
            .filter((width) => width > document.getElementById("hand").clientWidth + 0.5),
          outside: [...out("#hand .card .face"), ...out("#top-set"), ...out("#controls button"), ...out("#prompt button"),
                    ...out(".seat"), ...out(".table-bar button"), ...out(".table-bar summary")],
          // a role's badge cut off by the edge of its seat's line
          cut: [...document.querySelectorAll(".seat .badge:not(.level)")].filter((badge) => {
            const r = badge.getBoundingClientRect(), line = badge.closest(".who").getBoundingClientRect();
            return r.right > line.right + 0.5; }).map((badge) => badge.textContent),
          // a seat's name or card count drawn over by something else (the centre grown too tall)
          covered: [...document.querySelectorAll(".seat .name, .seat .count")].filter(shown).filter((node) => {
            const r = node.getBoundingClientRect(), top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return top && !node.closest(".seat").contains(top); }).map((node) => node.textContent)};
}"""

# How far the faces of the set on the table run past the centre's sides (px; 0 or less: inside).
TOP_SET_PAST_JS = """() => { const c = document.getElementById("center").getBoundingClientRect();
  const faces = [...document.querySelectorAll("#top-set .card .face")].map((face) => face.getBoundingClientRect());
  return Math.max(...faces.map((r) => Math.max(c.left - r.left, r.right - c.right))); }"""

# The five seats round the felt: where each one's centre lies, seen from the felt's centre
# (degrees counter-clockwise from "right", as on a clock face turned), and what it shows.
SEATS_JS = """() => {
  const felt = document.querySelector("#felt").getBoundingClientRect();
  const cx = felt.left + felt.width / 2, cy = felt.top + felt.height / 2;
  const inside = (r) => r.width > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  return [0, 1, 2, 3, 4].map((position) => {
    const box = document.querySelector(`#seat-pos-${position}`);
    const r = box.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const part = (selector) => { const node = box.querySelector(selector);
      return node && node.checkVisibility() && inside(node.getBoundingClientRect()) ? node.textContent.trim() || "shown" : null; };
    return {position, seat: Number(box.dataset.seat), angle: Math.atan2(cy - y, x - cx) * 180 / Math.PI,
            y, me: box.classList.contains("me"), turn: box.classList.contains("turn"),
            name: part(".name"), count: part(".count"), online: part(".dot"), ring: part(".ring"),
            timer: part(".timer"), badges: [...box.querySelectorAll(".badge")].map((b) => b.textContent)};
  });
}"""


# What animates on the seats' countdown rings over three ticks of the countdown (0.75 s),
# looked at every animation frame.
RING_ANIMATIONS_JS = """() => new Promise((resolve) => {
  const seen = new Set(), until = performance.now() + 750;
  const look = () => {
    for (const a of document.getAnimations()) {
      if (a.effect && a.effect.target && a.effect.target.closest(".ring")) seen.add(a.transitionProperty || a.animationName);
    }
    if (performance.now() < until) requestAnimationFrame(look); else resolve([...seen]);
  };
  requestAnimationFrame(look);
})"""


# How far the bar's content runs past its box, and which of its controls lie outside the
# viewport.
BAR_FITS_JS = """() => { const bar = document.querySelector(".table-bar");
  const outside = [...bar.querySelectorAll("button, summary, .conn")].filter((node) => node.checkVisibility())
    .filter((node) => { const r = node.getBoundingClientRect(); return r.left < -0.5 || r.right > innerWidth + 0.5; })
    .map((node) => node.id || node.className);
  return {over: Math.max(0, bar.scrollWidth - bar.clientWidth), outside}; }"""


def check_seats(human: Seat, name: str) -> None:
    """You at the bottom, then the others in play order (seat + 1 is your 下家, who plays
    after you) round the table counter-clockwise, as players sit: 下家 on your right, 上家
    on your left. Each seat shows its name, cards left, online dot and ring inside the
    screen; the seat whose turn it is shows its countdown."""
    seats = human.page.evaluate(SEATS_JS)
    mine = human.page.evaluate("() => window.bhTable.store.you.seat")
    assert [seat["seat"] for seat in seats] == [(mine + k) % 5 for k in range(5)], f"{name}: {seats}"
    assert seats[0]["me"] and seats[0]["y"] == max(seat["y"] for seat in seats), f"{name}: you are not at the bottom"
    turned = [(seat["angle"] - seats[0]["angle"]) % 360 for seat in seats[1:]]
    assert turned == sorted(turned) and len(set(turned)) == 4, f"{name}: not in play order round the table: {turned}"
    assert seats[1]["angle"] % 360 < 90 or seats[1]["angle"] % 360 > 270, f"{name}: your 下家 is not on your right"
    for seat in seats:
        shown = {key: seat[key] for key in ("name", "count", "online", "ring")}
        assert all(shown.values()), f"{name}: seat {seat['seat']} hides part of itself: {shown}"
    assert seats[0]["count"].isdigit(), f"{name}: your seat shows no count of cards left"
    counting = [seat for seat in seats if seat["turn"] and seat["timer"] and any(c.isdigit() for c in seat["timer"])]
    assert counting, f"{name}: no countdown on the seat to play: {seats}"


# Each marked card's stamp must be the topmost element at its own centre.
STAMPS_JS = """() => [...document.querySelectorAll(".card .stamp")].filter((s) => s.checkVisibility()).map((stamp) => {
  const r = stamp.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {card: stamp.closest(".card").dataset.card, top: hit === stamp || stamp.contains(hit),
          hit: hit ? hit.className : null};
})"""

# A 44-card hand holding every marked card, drawn by the page from a view of its own:
# only the drawing is tested here (the real hand's marks are checked above).
MARKED_HAND = ("BJ* BJ BJ SJ SJ 2S 2H 2C AS AH AD KS KH KC QS QH QD JS JH JC TS TH TD 9S 9H 9D "
               "8S 8H 8D 7S 7H 7D 6S 6H 6D 5S 5H 5D 4H* 4S 4C 3S 3H 3D").split()


def wait_for_my_follow(human: Seat, game: Game, *, timeout: float = 180) -> None:
    """Click the human through the hand (bots play the rest) until it must answer a set."""
    page = human.page
    game.hold_follows = True  # else a bot's play landing between the look below and the step is passed
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        now = page.evaluate("""() => { const h = window.bhTable.store.hand; const v = h && h.view;
          return {following: Boolean(v && v.phase === 'playing' && v.table.top && v.actors.includes(v.seat)
                  && window.bhTable.store.hand.running), pending: Boolean(window.bhTable.store.pending)}; }""")
        if now["following"] and not now["pending"]:
            return
        if game.step():
            # Nobody beat a set the human led, to the end of the hand (the deal is random,
            # and a CI run drew such a hand): the next one.
            human.click("#score-sheet [data-action=ready]")
            expect(page.locator("#table")).to_have_attribute("data-running", "1")
            game.done = False
            continue
        page.wait_for_timeout(20)
    raise AssertionError("the human never had a set to answer")


def resize(human: Seat, viewport: dict) -> None:
    """The page at `viewport`'s size, laid out and drawn again for it."""
    page = human.page
    page.set_viewport_size(viewport)
    page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=[viewport["width"], viewport["height"]])
    # Two frames: the page's resize handler and ResizeObserver run in the first one. A page
    # that draws no frame (a CI run once hung here, we think, until pytest-timeout's 600 s)
    # goes on after 2 s, to fail on what it measures rather than hang.
    page.evaluate("""() => new Promise((done) => {
      requestAnimationFrame(() => requestAnimationFrame(done)); setTimeout(done, 2000); })""")
    page.evaluate("() => window.bhTable.render()")


def draw_view(human: Seat, **fields) -> None:
    """The page drawn from its hand's view with `fields` replaced: only the drawing is
    tested with such a view (the server never sent it)."""
    human.page.evaluate("""(fields) => { const {store, render} = window.bhTable;
      store.hand.view = {...store.hand.view, ...fields}; render(); }""", fields)


def check_fits(human: Seat, name: str, viewport: dict) -> None:
    page = human.page
    resize(human, viewport)
    fits = page.evaluate(FITS_JS)
    human.screenshot(f"fit-{name}")
    assert fits["scroll"] <= fits["height"], f"{name}: the page scrolls ({fits['scroll']} > {fits['height']})"
    assert fits["scrollWidth"] <= fits["width"], f"{name}: the page scrolls sideways"
    assert fits["bar"] <= 52, f"{name}: the header is more than one line ({fits['bar']} px)"
    assert fits["barLines"] <= 1, f"{name}: the bar of actions takes {fits['barLines']} lines"
    assert fits["cards"] > 0
    assert not fits["rowsOver"], f"{name}: a row of the hand is wider than its box: {fits['rowsOver']}"
    assert not fits["outside"], f"{name}: outside the viewport: {fits['outside']}"
    assert not fits["covered"], f"{name}: drawn over: {fits['covered']}"
    assert not fits["underToggle"], f"{name}: under the round log's toggle: {fits['underToggle']}"
    assert fits["centre"] <= 1, f"{name}: the centre scrolls ({fits['centre']} px of it out of sight)"
    assert not fits["cut"], f"{name}: a role's badge is cut off: {fits['cut']}"
    # The context prefers reduced motion: no card flies in, no countdown pulses.
    assert page.evaluate("() => document.getAnimations().length") == 0
    stamps = page.evaluate(STAMPS_JS)
    assert all(stamp["top"] for stamp in stamps), f"{name}: a stamp is covered: {stamps}"
    check_seats(human, name)


def check_prompts(human: Seat, name: str) -> None:
    """The widest prompts, drawn by the page from views of its own: lianzhong classic's
    four bids (叫牌登基 明独保 让位 抢庄), the emperor's three declarations and 叫牌's card
    picker, with nothing called or on the table yet. In English on a 4-inch phone the bids
    took four lines and covered your seat."""
    view = human.page.evaluate("() => window.bhTable.store.hand.view")
    me = view["seat"]
    states = {
        "bid": dict(phase="bidding", table=None, roles={}, actors=[me], turn=me, may=["call", "accept", "decline", "seize"],
                    bidding={"crown": me, "throne": True, "declined": [], "forced": False}, choices={"call": ["AS", "KH"]}),
        "declare": dict(phase="declaring", table=None, actors=[me], may=["declare"],
                        window={"step": "declare", "pending": [me]}, choices={"declare": ["none", "dark_solo", "open_solo"]}),
    }
    for state, fields in states.items():
        draw_view(human, **fields)
        expect(human.page.locator("#prompt button")).to_have_count(len(fields["may"]) if state == "bid" else 3)
        for size, viewport in VIEWPORTS.items():
            check_fits(human, f"{name}-{size}-{state}", viewport)
    # 叫牌's picker, here of six cards (a hand holds one or two triples on average), in the
    # bids' place: the keyboard lands on its first card, and Cancel brings the bids back.
    page = human.page
    draw_view(human, **{**states["bid"], "may": ["call", "decline"], "bidding": {"crown": me, "declined": [], "forced": False},
                        "choices": {"call": ["SJ", "AS", "KH", "QC", "JD", "TS"]}})
    page.click("#prompt [data-action=call]")
    expect(page.locator("#prompt .pick")).to_have_count(6)
    expect(page.locator("#prompt [data-action=decline]")).to_have_count(0)
    expect(page.locator("#prompt .pick").first).to_be_focused()
    for size, viewport in VIEWPORTS.items():
        check_fits(human, f"{name}-{size}-pick", viewport)
    page.click("#prompt [data-action=cancel-call]")
    expect(page.locator("#prompt .pick")).to_have_count(0)
    expect(page.locator("#prompt [data-action=call]")).to_be_focused()
    expect(page.locator("#prompt [data-action=decline]")).to_be_visible()
    draw_view(human, **{key: view.get(key) for key in ("phase", "table", "roles", "actors", "turn", "may", "choices")})


LONG_SET = ["3S", "3S", "3H", "3H", "3C", "3C", "3D", "3D"]  # the most cards of one rank (four decks)


def check_badges(human: Seat, name: str) -> None:
    """A hand late in lianzhong, drawn by the page from a view of its own: 保子 declared
    明保 and went out first, a hoe rebelled (反) and went out second, another hoe twisted
    (扭). Every badge shows whole at every size: 明保 and 反 are said on the role's own badge,
    and those that do not fit beside a name go on a second line. (保子 头科 明保 ran past the
    seat's edge on every phone.) The two who went out show their places in their rings, where
    their counts were 0, each other seat shows a card it played (its tallest last move), and
    the set to beat is a long one (eight 3s: more than 6 cards go under their owner's name);
    on a desktop the place is larger, as the ring is. (With the real hand's set, a 7-card set
    scrolled the centre 12 px in English at 320 × 568, in one CI run.)
    In English on a 4-inch phone, "open guard" then "1st" took three lines, "Hoe" and "twist"
    two, the seats grew and the centre scrolled (39 px)."""
    view = human.page.evaluate("() => window.bhTable.store.hand.view")
    o = [(view["seat"] + k) % 5 for k in range(5)]
    counts = [0 if seat in (o[2], o[3]) else count for seat, count in enumerate(view["counts"])]
    last = [None if seat == o[0] else {"type": "play", "cards": ["3S"]} for seat in range(5)]
    top = {**view["table"]["top"], "seat": o[4], "cards": LONG_SET}
    draw_view(human, roles={**view["roles"], "emperor": o[1], "guard": o[2], "solo": None}, hoes=[o[0], o[3], o[4]],
              declared=[{"seat": o[2], "what": "ming_bao"}, {"seat": o[3], "what": "rebel"}, {"seat": o[4], "what": "niu"}],
              places=[o[2], o[3]], counts=counts, table={**view["table"], "last": last, "top": top})
    page = human.page
    expect(page.locator(f".seat[data-seat='{o[2]}'] .badge.guard")).to_have_text(re.compile("明保|open guard"))
    expect(page.locator(f".seat[data-seat='{o[2]}'] .badge.declared")).to_have_count(0)
    expect(page.locator(f".seat[data-seat='{o[3]}'] .badge.hoe")).to_have_text(re.compile("反|rebel"))
    expect(page.locator(f".seat[data-seat='{o[2]}'] .count")).to_have_text(re.compile("头科|1st"))
    expect(page.locator(f".seat[data-seat='{o[3]}'] .count")).to_have_text(re.compile("二科|2nd"))
    for size, viewport in VIEWPORTS.items():
        resize(human, viewport)
        fits = page.evaluate(FITS_JS)
        human.screenshot(f"fit-{name}-{size}-badges")
        assert not fits["cut"], f"{name}-{size}: a badge is cut off: {fits['cut']}"
        assert not fits["covered"], f"{name}-{size}: drawn over: {fits['covered']}"
        assert fits["centre"] <= 1, f"{name}-{size}: the centre scrolls ({fits['centre']} px of it out of sight)"
        if size == "desktop":  # the larger ring has room for a larger place (it was 10.4 px)
            place = page.locator(f".seat[data-seat='{o[2]}'] .count.place")
            assert place.evaluate("(node) => parseFloat(getComputedStyle(node).fontSize)") >= 12
    draw_view(human, **{key: view[key] for key in ("roles", "hoes", "declared", "places", "counts", "table")})


# The deal's lines (tribute, 买3) that break badly: inside a part (at 568 × 320 in Chinese, a
# 买3 line's words broke, "⇄" alone on their second line), or at all where the line fits whole.
# A part is a name, the arrow, the words, "⇄ 4♥": each text of a line is centred on a row of its parts.
TRANSFERS_BROKEN_JS = """() => [...document.querySelectorAll("#deal-info .transfer")].filter((line) => {
  const centre = (rect) => (rect.top + rect.bottom) / 2;
  const rows = [...line.children].map((part) => centre(part.getBoundingClientRect()));
  const texts = [...line.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim())
    .flatMap((node) => { const range = document.createRange(); range.selectNodeContents(node);
                         return [...range.getClientRects()]; });
  if (texts.some((rect) => !rows.some((row) => Math.abs(centre(rect) - row) <= 1.5))) return true;
  const height = line.getBoundingClientRect().height;
  line.style.cssText = "white-space: nowrap; width: max-content; flex-wrap: nowrap";
  const whole = line.getBoundingClientRect();
  line.style.cssText = "";
  const box = line.parentElement, style = getComputedStyle(box);
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return height > whole.height + 1 && whole.width <= room; }).map((line) => line.textContent)"""


def check_deal(human: Seat, name: str) -> None:
    """qingdao's deal told in the centre while the seats declare (no set on the table yet):
    two tributes and three 买3, one of them free. On short screens its cards are chips one
    text line high, so it fits a phone turned (812 × 375; it scrolled 42 px as pictures)
    and a small phone upright; on the shortest ones its lines are smaller too, so it fits
    a 4-inch phone upright. Turned (568 × 320), the lines alone are shown, packed tight
    (the seats in gold say who is to declare): the centre scrolled 42 px there (45 px in
    English). qingdao calls no card, so none is drawn. Then the same deal under the bidding,
    the throne offered to the human: on a 4-inch phone turned its name is for screen readers
    only (in English it took two lines and the centre scrolled 13 px over one 买3 line). The
    hand's own view is drawn again after."""
    view = human.page.evaluate("() => window.bhTable.store.hand.view")
    draw_view(human, phase="declaring", window={"pending": [1, 2, 3]}, actors=[1, 2, 3], table=None,
              roles={**view["roles"], "called": None},
              deal={"tribute_paid": [{"from": 1, "to": 2, "card": "2S"}, {"from": 3, "to": 4, "card": "BJ*"}],
                    "threes": [{"seller": 0, "buyer": 1, "paid": "TH"}, {"seller": 2, "buyer": 3, "paid": "4H*"},
                               {"seller": 4, "buyer": 0, "paid": None}]})
    expect(human.page.locator("#deal-info .transfer")).to_have_count(5)
    for size, viewport in VIEWPORTS.items():
        resize(human, viewport)
        human.screenshot(f"fit-{name}-{size}-deal")
        fits = human.page.evaluate(FITS_JS)
        assert fits["centre"] <= 1, f"{name}-{size}: the deal's lines scroll the centre ({fits['centre']} px out of sight)"
        assert not fits["underToggle"], f"{name}-{size}: under the round log's toggle: {fits['underToggle']}"
        broken = human.page.evaluate(TRANSFERS_BROKEN_JS)
        assert not broken, f"{name}-{size}: the deal's lines break badly: {broken}"
    # The same deal under the bidding, the throne offered to the human.
    draw_view(human, phase="bidding", turn=view["seat"], actors=[view["seat"]], bidding={"bundle": []})
    for size, viewport in VIEWPORTS.items():
        resize(human, viewport)
        human.screenshot(f"fit-{name}-{size}-deal-bidding")
        fits = human.page.evaluate(FITS_JS)
        assert fits["centre"] <= 1, f"{name}-{size}: the bidding over the deal scrolls the centre ({fits['centre']} px)"
    draw_view(human, **{key: view.get(key) for key in ("phase", "window", "actors", "table", "roles", "deal", "turn",
                                                       "bidding")})


LONG_NAMES = ["Alexandrina_Kowalska", "Bartholomew_Zielinsk", "Konstantinos_Papadop", "Maximilianus_Wojcik1",
              "Wilhelmina_Rasmussen"]  # a nickname's 20 letters, no place to break

# The centre's content out of sight (it scrolls), and a name in the round log that runs past
# its box (under the cards beside it).
NAMES_FIT_JS = """() => { const c = document.getElementById("center"), log = document.getElementById("round-log");
  return {centre: c.scrollHeight - c.clientHeight, across: c.scrollWidth - c.clientWidth,
          log: log ? log.scrollWidth - log.clientWidth : 0,
          spilt: [...document.querySelectorAll("#round-log .who")].filter((who) => who.scrollWidth > who.clientWidth
            && getComputedStyle(who).overflowX === "visible").map((who) => who.textContent)}; }"""


def seat_players(human: Seat, players: list) -> None:
    human.page.evaluate("""(players) => { const {store, render} = window.bhTable;
      store.seats.forEach((seat, i) => { seat.player = players[i]; }); render(); }""", players)


def check_long_names(human: Seat, name: str) -> None:
    """Every seat's player with a 20-letter name (the longest a nickname may be), drawn by the
    page: the centre's lines that name seats still fit at every size — who holds the crown (or
    lianzhong classic's throne) and who passed it on, who is offered the throne over qingdao's
    fullest deal (its tributes and 买3 name two seats a line), who is yet to declare, who
    played the set and whose turn it is — and the round log's names stay in their column.
    Names there are cut short: four of them took a line each and the centre scrolled 168 px
    at 812 × 375."""
    page = human.page
    view = page.evaluate("() => window.bhTable.store.hand.view")
    players = page.evaluate("() => window.bhTable.store.seats.map((seat) => seat.player)")
    me = view["seat"]
    o = [(me + k) % 5 for k in range(1, 5)]
    deal = {"tribute_paid": [{"from": o[0], "to": o[1], "card": "2S"}, {"from": o[2], "to": o[3], "card": "BJ*"}],
            "threes": [{"seller": o[0], "buyer": o[1], "paid": "TH"}, {"seller": o[2], "buyer": o[3], "paid": "4H*"},
                       {"seller": me, "buyer": o[0], "paid": None}]}
    unroled = {**view["roles"], "emperor": None, "called": None}
    states = {
        "crown": dict(phase="bidding", roles=unroled, table=None, deal=None, actors=[o[0]], turn=o[0],
                      bidding={"crown": o[0], "declined": o[1:], "forced": False}),
        # lianzhong classic's words, the longest: "… holds the throne: call a card to rule, or yield it"
        "throne": dict(phase="bidding", roles=unroled, table=None, deal=None, actors=[o[0]], turn=o[0],
                       bidding={"crown": o[0], "throne": True, "declined": o[1:], "forced": False}),
        "offered": dict(phase="bidding", roles=unroled, table=None, deal=deal, actors=[o[0]], turn=o[0],
                        bidding={"bundle": []}),
        "declaring": dict(phase="declaring", roles=unroled, table=None, deal=deal, actors=o, window={"pending": o}),
        "called": dict(phase="declaring", roles=view["roles"], table=None, deal=None, actors=o, window={"pending": o}),
        "playing": dict(phase="playing", roles=view["roles"], deal=None, actors=[o[0]], turn=o[0],
                        table={"leader": o[1], "last": [None] * 5, "passed": [],
                               "top": {"seat": o[1], "cards": LONG_SET[:7]}}),
    }
    seat_players(human, [{**player, "name": LONG_NAMES[index], "bot": False} for index, player in enumerate(players)])
    for state, fields in states.items():
        draw_view(human, may=[], **fields)
        for size, viewport in VIEWPORTS.items():
            resize(human, viewport)
            fits = page.evaluate(NAMES_FIT_JS)
            human.screenshot(f"fit-{name}-{size}-long-names-{state}")
            assert fits["centre"] <= 1 and fits["across"] <= 1, f"{name}-{size}-{state}: the centre scrolls: {fits}"
            under = page.evaluate(FITS_JS)["underToggle"]
            assert not under, f"{name}-{size}-{state}: under the round log's toggle: {under}"
            broken = page.evaluate(TRANSFERS_BROKEN_JS)
            assert not broken, f"{name}-{size}-{state}: the deal's lines break badly: {broken}"
    entries = [{"seat": seat, "type": "play", "cards": LONG_SET} for seat in o]
    draw_view(human, **states["playing"], log={"round": entries, "previous": None})
    page.click("#history > summary")
    for size, viewport in VIEWPORTS.items():
        resize(human, viewport)
        fits = page.evaluate(NAMES_FIT_JS)
        human.screenshot(f"fit-{name}-{size}-long-names-log")
        assert fits["log"] <= 1 and not fits["spilt"], f"{name}-{size}: the round log's names: {fits}"
    page.click("#history [data-action=close-history]")
    seat_players(human, players)
    draw_view(human, **{key: view.get(key) for key in ("phase", "roles", "table", "deal", "actors", "turn", "bidding",
                                                       "window", "may", "log")})


# Where an open drawer lies, and whether its closing button is the topmost thing at its centre.
DRAWER_JS = """(details) => { const drawer = document.querySelector(`${details} .drawer`), r = drawer.getBoundingClientRect();
  const close = document.querySelector(`${details} [data-action=close-history]`) || document.querySelector(`${details} > summary`);
  const c = close.getBoundingClientRect(), top = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
  return {inside: r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5,
          box: [r.left, r.top, r.right, r.bottom], closable: Boolean(top && close.contains(top))}; }"""


def check_drawers(human: Seat, name: str) -> None:
    """The round log, the chat and the menu each open inside the screen (scrolling inside
    when it is short) and close again: the round log from inside, since it covers its toggle."""
    page = human.page
    for details in ("#history", "#chat", "#menu"):
        page.click(f"{details} > summary")
        expect(page.locator(f"{details} .drawer")).to_be_visible()
        drawer = page.evaluate(DRAWER_JS, details)
        human.screenshot(f"drawer-{name}-{details[1:]}")
        assert drawer["inside"], f"{name}: {details} opens past the screen's edge: {drawer['box']}"
        assert drawer["closable"], f"{name}: {details} cannot be closed: its button is covered"
        page.click(f"{details} [data-action=close-history]" if details == "#history" else f"{details} > summary")
        expect(page.locator(f"{details} .drawer")).to_be_hidden()


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao", "lianzhong_classic"])
@pytest.mark.django_db(transaction=True)
def test_a_running_hand_fits_each_screen_without_scrolling(browser, server, bot_worker, seats_to_close, preset):
    human = Seat(browser, server.url, "阿强81", viewport=PHONE)
    seats_to_close.append(human)
    human.become_guest()
    human.create_room(preset, bots=4, pause=0)
    human.click("[data-action=ready]")  # 准备: the bots always are
    expect(human.page.locator("#table")).to_have_attribute("data-running", "1")
    game = Game([human], rng=random.Random(3), name=preset)
    wait_for_my_follow(human, game)
    for name, viewport in VIEWPORTS.items():
        check_fits(human, f"{preset}-{name}", viewport)
        check_drawers(human, f"{preset}-{name}")

    # The widest bar of actions, drawn by the page from a view of its own: a 保子 who cannot
    # beat the set (出牌 提示 要不起 让, then 按张数 重选 托管). A CI run drew it at 320 × 568,
    # where it took two lines and the centre scrolled 46 px.
    draw_view(human, may=["pass", "yield"], hints=[])
    expect(human.page.locator("#controls [data-action=yield]")).to_be_visible()
    expect(human.page.locator("#table")).to_have_attribute("data-cannot-beat", "1")
    for name, viewport in VIEWPORTS.items():
        check_fits(human, f"{preset}-{name}-stuck", viewport)

    # The longest set there is on the table (16 nines and 8 jokers): its strips narrow so
    # that it lies inside the centre at every size, clear of the round log's toggle. A bomb
    # of 16 ran past both sides of the centre at 568 × 320; one of 20 or more still did
    # there, and one of 24 at 320 × 568.
    view = human.page.evaluate("() => window.bhTable.store.hand.view")
    longest = ["SJ"] * 4 + ["BJ"] * 4 + ["9S", "9H", "9C", "9D"] * 4
    draw_view(human, table={**view["table"], "top": {"seat": (view["seat"] + 1) % 5, "cards": longest}})
    for name, viewport in VIEWPORTS.items():
        resize(human, viewport)
        human.screenshot(f"fit-{preset}-{name}-bomb")
        past = human.page.evaluate(TOP_SET_PAST_JS)
        assert past <= 0.5, f"{preset}-{name}: the set on the table runs {past} px past the centre"
        fits = human.page.evaluate(FITS_JS)
        assert not fits["underToggle"], f"{preset}-{name}: the set lies under the round log's toggle"
        assert fits["centre"] <= 1, f"{preset}-{name}: the centre scrolls ({fits['centre']} px of it out of sight)"
    draw_view(human, table=view["table"])

    # The drawing of the marks, on a full 44-card hand with every marked card in it.
    draw_view(human, hand=MARKED_HAND)
    for name, viewport in VIEWPORTS.items():
        check_fits(human, f"{preset}-{name}-marked", viewport)
        assert human.page.locator("#hand .card .stamp").count() == 2  # BJ* and 4H*
        rows = human.page.locator("#hand .hand-row").count()
        assert rows <= 2, f"{name}: the 44-card hand takes {rows} rows"

    if preset == "lianzhong_classic":
        check_prompts(human, preset)
    if preset == "lianzhong":
        check_badges(human, preset)

    # The deal animation plays only for a player who has not asked for reduced motion.
    redeal = "() => { const {ui, render} = window.bhTable; ui.handKey = ''; ui.handSignature = null; render();" \
             " return document.getAnimations().length; }"
    human.page.emulate_media(reduced_motion="no-preference")
    assert human.page.evaluate(redeal) > 0
    human.page.emulate_media(reduced_motion="reduce")
    assert human.page.evaluate(redeal) == 0

    if preset == "qingdao":
        check_deal(human, preset)
        check_long_names(human, preset)
    assert not [line for line in human.console if line.startswith("pageerror")]


# The bar of actions: each button's words, and its name where the words are shorter.
ACTIONS_JS = """() => Object.fromEntries([...document.querySelectorAll("#controls button")]
  .map((b) => [b.dataset.action, [b.textContent, b.getAttribute("aria-label")]]))"""


@pytest.mark.django_db(transaction=True)
def test_in_english_the_bar_of_actions_takes_shorter_words_to_keep_one_line(browser, server, bot_worker,
                                                                            seats_to_close):
    """English words are wider than Chinese ones: on a phone upright the bar took two lines
    (Play Hint Pass Yield By count Clear Auto-play, 440 px at 375 px wide) and the centre
    scrolled at 320 × 568. There it takes shorter words, named in full for screen readers;
    the narrowest phone's widest bar leaves out its disabled Play and Hint. The bids and
    declarations fit too."""
    human = start_with_bots(browser, server, seats_to_close, "classic", name="alice", before=Seat.read_in_english)
    wait_for_my_follow(human, Game([human], rng=random.Random(3), name="english-bar"))
    page = human.page
    # Each bar drawn from a view of its own, the first one a 保子's who can beat the set: what
    # the human may do is the deal's (a run's human could not beat it, and its first bar read
    # "Can't beat it").
    hand = page.evaluate("() => window.bhTable.store.hand.view.hand")
    for state, may in (("", ["play", "pass", "yield"]), ("-stuck", ["pass"]), ("-stuck-guard", ["pass", "yield"])):
        stuck = "play" not in may
        draw_view(human, may=may, hints=[] if stuck else [hand[:1]])
        for name, viewport in VIEWPORTS.items():
            check_fits(human, f"english-{name}{state}", viewport)
            actions = page.evaluate(ACTIONS_JS)
            if viewport["width"] > 430:  # the words in full, as before
                assert actions["trustee"] == ["Auto-play", None]
                assert actions["pass"][0] == ("Can't beat it" if stuck else "Pass")
            else:
                assert actions["trustee"] == ["Auto", "Auto-play"]
                assert actions["sort"] == ["Sort", "By count"]
                assert actions["pass"] == (["Pass", "Can't beat it"] if stuck else ["Pass", None])
            assert ("play" in actions) == (state != "-stuck-guard" or name != "narrowest-phone")
    check_prompts(human, "english")
    check_badges(human, "english")
    check_deal(human, "english")
    check_long_names(human, "english")
    # A shortened button does what its name says: 'Sort' by count, then by rank.
    resize(human, NARROWEST_PHONE)
    page.click("#controls [data-action=sort]")
    expect(page.locator("#controls [data-action=sort]")).to_have_attribute("aria-label", "By rank")
    assert not [line for line in human.console if line.startswith("pageerror")]


def start_with_bots(browser, server, seats_to_close, preset: str, *, name="阿强81", timers=120, pause=0.0,
                    viewport=PHONE, before=None) -> Seat:
    human = Seat(browser, server.url, name, viewport=viewport)
    seats_to_close.append(human)
    if before is not None:
        before(human)
    human.become_guest()
    human.create_room(preset, bots=4, pause=pause, timers=timers)
    human.click("[data-action=ready]")  # 准备: the bots always are
    expect(human.page.locator("#table")).to_have_attribute("data-running", "1")
    return human


def room_of(human: Seat) -> int:
    return human.page.evaluate("() => JSON.parse(document.getElementById('table-config').textContent).room")


def selected(human: Seat) -> list[str]:
    return human.page.eval_on_selector_all("#hand .card.selected", "nodes => nodes.map((n) => n.dataset.key)")


def strip_centre(human: Seat, index: int) -> tuple[float, float]:
    box = human.page.locator("#hand button.card").nth(index).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class Wire:
    """The page's socket through a switch. `cut()` is a dead network: every socket open
    now stays silent for good (frames dropped both ways, nothing closed), as do sockets
    opened while cut; after `mend()` new sockets get through. Frames that got through up
    are kept in `sent`."""

    def __init__(self, page):
        self.cut_off = False
        self.live: list[dict] = []
        self.sent: list[str] = []
        page.route_web_socket("**/ws/rooms/**", self.route)

    def route(self, ws):
        server = ws.connect_to_server()
        line = {"dead": self.cut_off}
        self.live.append(line)

        def up(message):
            if not line["dead"]:
                self.sent.append(message)
                server.send(message)

        def down(message):
            if not line["dead"]:
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    def cut(self):
        self.cut_off = True
        for line in self.live:
            line["dead"] = True

    def mend(self):
        self.cut_off = False


@pytest.mark.django_db(transaction=True)
def test_swipe_select_pass_when_nothing_beats_auto_play_and_a_cut_network(browser, server, bot_worker, seats_to_close):
    """On a phone: drag across cards selects the run (and back unselects it), a tap toggles,
    重选 clears; with no play that beats the top set the bar offers 要不起; 托管 shows its
    banner and 取消托管 ends it; a cut network shows 连接中断 with the buttons disabled, and
    the action sent into the cut is re-sent once, with its client_id, after the reconnect."""
    from rooms.models import HandEvent

    wires = {}
    human = start_with_bots(browser, server, seats_to_close, "qingdao",
                            before=lambda seat: wires.setdefault("wire", Wire(seat.page)))
    wire = wires["wire"]
    page = human.page

    # No text selection or double-tap zoom on the table; the hand takes every touch itself.
    styles = page.evaluate("""() => ({select: getComputedStyle(document.getElementById("table")).userSelect,
      table: getComputedStyle(document.getElementById("table")).touchAction,
      hand: getComputedStyle(document.getElementById("hand")).touchAction})""")
    assert styles == {"select": "none", "table": "manipulation", "hand": "none"}

    # Swipe with the mouse from the 1st card to the 6th: six selected; back from the 6th
    # (selected) to the 4th unselects those three; a tap toggles one; 重选 clears.
    keys = page.eval_on_selector_all("#hand button.card", "nodes => nodes.map((n) => n.dataset.key)")
    page.mouse.move(*strip_centre(human, 0))
    page.mouse.down()
    for index in range(1, 6):
        page.mouse.move(*strip_centre(human, index), steps=3)
    page.mouse.up()
    assert selected(human) == keys[:6]
    page.mouse.move(*strip_centre(human, 5))
    page.mouse.down()
    page.mouse.move(*strip_centre(human, 3), steps=4)
    page.mouse.up()
    assert selected(human) == keys[:3]
    page.locator("#hand button.card").nth(8).click()
    assert selected(human) == keys[:3] + [keys[8]]
    human.screenshot("swipe-selected-phone")
    human.click("#controls [data-action=clear]")
    assert selected(human) == []

    # The same with a finger (touch events through the browser's input layer).
    cdp = human.context.new_cdp_session(page)
    x0, y0 = strip_centre(human, 10)
    points = [strip_centre(human, index) for index in range(10, 14)]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for x, y in points[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator("#hand .card.selected")).to_have_count(4)
    assert selected(human) == keys[10:14]
    human.click("#controls [data-action=clear]")

    # 要不起: following a set with no hint left, 过 becomes 要不起 and 出牌 / 提示 stay, disabled.
    game = Game([human], rng=random.Random(8), name="qingdao")
    wait_for_my_follow(human, game)
    page.evaluate("() => { const {store, render} = window.bhTable; store.hand.view.hints = []; render(); }")
    expect(page.locator("#table")).to_have_attribute("data-cannot-beat", "1")
    assert page.title().startswith("轮到你了")  # the tab says it is your turn
    expect(page.locator("#controls [data-action=pass]")).to_have_text("要不起")
    expect(page.locator("#controls [data-action=play]")).to_be_disabled()
    expect(page.locator("#controls [data-action=hint]")).to_be_disabled()
    expect(page.locator("#turn-note")).to_have_text("没有大过桌上的牌。")
    human.screenshot("cannot-beat-phone")
    # Your turn with motion allowed: the ring counts down in steps, nothing animating
    # between them (a transition per tick had the page repaint 60 times a second all turn).
    page.emulate_media(reduced_motion="no-preference")
    assert page.evaluate(RING_ANIMATIONS_JS) == []
    page.emulate_media(reduced_motion="reduce")
    version = int(human.version())
    human.click("#controls [data-action=pass]")
    page.wait_for_function("(v) => window.bhTable.store.hand.version > v", arg=version)
    seat = page.evaluate("() => window.bhTable.store.you.seat")
    passed = HandEvent.objects.get(hand__room_id=room_of(human), version=version + 1)
    assert (passed.seat, passed.action["type"]) == (seat, "pass")

    # 托管 on: the banner says so, with 取消托管 and the dissolve warning; one tap ends it.
    human.click("#controls [data-action=trustee]")
    banner = page.locator("#trustee-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("房间就会解散")
    human.screenshot("trustee-banner-phone")
    human.click("#trustee-banner [data-action=trustee-off]")
    expect(banner).to_have_count(0)
    expect(page.locator(".seat.me .badge.trustee")).to_have_count(0)

    # A cut network: within the heartbeat's 3 s the page says so and disables the buttons;
    # an action sent into the cut is re-sent once after the reconnect and applied once.
    wait_for_my_follow(human, game)
    expect(page.locator("#controls [data-action=pass]")).to_be_enabled()
    wire.cut()
    human.click("#controls [data-action=pass]")
    pending = page.evaluate("() => window.bhTable.store.pending.client_id")
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#conn")).to_have_text("连接中断")
    expect(page.locator("#controls [data-action=pass]")).to_be_disabled()
    assert page.get_attribute("#controls [data-action=pass]", "title")  # the reason, on the button
    human.screenshot("offline-banner-phone")
    wire.mend()
    expect(page.locator("#table")).to_have_attribute("data-conn", "online", timeout=20000)
    expect(page.locator("#offline-banner")).to_have_count(0)
    page.wait_for_function("() => window.bhTable.store.pending === null")
    resent = [frame for frame in wire.sent if pending in frame]
    assert len(resent) == 1, resent  # the first copy went into the cut; the re-send got through
    assert HandEvent.objects.filter(client_id=pending).count() == 1
    assert not [line for line in human.console if line.startswith("pageerror")]


@pytest.mark.django_db(transaction=True)
def test_seizing_the_throne_asks_first_in_a_dialog(browser, server, bot_worker, seats_to_close):
    """While a bot thinks over its bid, 抢庄 is offered: the tap opens a dialog; 取消 sends
    nothing, 确定 makes the seat emperor."""
    human = start_with_bots(browser, server, seats_to_close, "classic", pause=10)
    page = human.page
    seize = page.locator("#prompt [data-action=seize]")
    decline = page.locator("#prompt [data-action=decline]")
    expect(seize.or_(decline).first).to_be_visible()
    if not seize.is_visible() or human.my_turn():  # the human holds the crown: pass it on first
        decline.click()
        # Seize may be on the page already: wait for the refusal itself, not the button.
        expect(page.locator("#table")).not_to_have_attribute("data-my-turn", "1")
    expect(seize).to_be_visible()
    assert not human.my_turn()
    version = human.version()
    seize.click()
    dialog = page.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("抢庄")
    human.screenshot("seize-confirm-phone")
    page.click("#confirm-no")
    expect(dialog).to_be_hidden()
    assert human.version() == version
    assert not [line for line in human.console if line.startswith("ws> ") and '"seize"' in line]
    seize.click()
    page.click("#confirm-yes")
    # The sound toggle is remembered by this browser.
    page.click("#menu summary")
    page.click("#mute-button")
    expect(page.locator("#mute-button")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => window.bhTable.store.hand.view.roles.emperor === window.bhTable.store.you.seat")
    expect(page.locator(".seat.me .badge.emperor")).to_be_visible()
    page.reload()
    human.wait_connected()
    expect(page.locator("#mute-button")).to_have_attribute("aria-pressed", "true")


@pytest.mark.django_db(transaction=True)
def test_a_timed_out_seat_warns_then_plays_on_auto_and_the_dissolved_room_names_everyone(
        browser, server, bot_worker, seats_to_close):
    """The human never moves: its countdown turns into a warning in the last 5 s, the
    timeout puts it under 托管 with the banner, the hand ends with it still there and the
    room dissolves — the score sheet names all five players and leads back to the lobby."""
    human = start_with_bots(browser, server, seats_to_close, "lianzhong", timers=6)
    page = human.page
    expect(page.locator(".seat.me.turn.urgent .timer")).to_be_visible(timeout=30000)
    human.screenshot("last-seconds-phone")
    expect(page.locator("#trustee-banner")).to_be_visible(timeout=30000)
    expect(page.locator("#trustee-banner [data-action=trustee-off]")).to_be_visible()
    expect(page.locator("#trustee-banner")).to_contain_text("房间就会解散")
    sheet = page.locator("#score-sheet")
    expect(sheet).to_be_visible(timeout=120000)
    expect(page.locator("#score-sheet .dissolved")).to_be_visible()
    names = page.eval_on_selector_all("#score-sheet td.player", "cells => cells.map((c) => c.textContent)")
    assert len(names) == 5 and "阿强81" in names and not [name for name in names if name.startswith("#")], names
    human.screenshot("dissolved-score-sheet-phone")
    page.click("#score-sheet [data-action=lobby]")
    page.wait_for_url(server.url + "/")


# The page's visible words, less what people typed (their names, chat) and the card pictures
# (aria-hidden), and the language switch (it names the other language in its own words,
# marked with `lang`): with the names cut out of every sentence that holds one.
WORDS_JS = """() => {
  const store = window.bhTable.store;
  // People's names as typed; a bot's name is worded by the page (机器人 3 / Bot 3), so it stays in.
  const people = [...store.players, ...store.seats.map((s) => s.player)].filter((p) => p && !p.bot);
  const names = [...new Set(people.map((p) => p.name))].sort((a, b) => b.length - a.length);
  const skip = ".room-name, .chat, [aria-hidden=true], body [lang], script, style";
  const words = [];
  const add = (text) => { for (const name of names) text = text.split(name).join(" "); if (text.trim()) words.push(text.trim()); };
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { add(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE || node.matches(skip)) return;
    if (!node.checkVisibility()) return;
    for (const attr of ["aria-label", "title", "placeholder"]) if (node.getAttribute(attr)) add(node.getAttribute(attr));
    node.childNodes.forEach(walk);
  };
  walk(document.body);
  return words;
}"""
HAN = "[\u3400-\u9fff]"
NOTATION = r"\b(?:10|[2-9TJQKA])[SHCD]\*?(?![a-z])|\b[SB]J\*?\b"


def english_words_leak(human: Seat) -> list[str]:
    import re

    return [text for text in human.page.evaluate(WORDS_JS) if re.search(HAN, text)]


def chinese_page_leaks(human: Seat) -> list[str]:
    import re

    return [text for text in human.page.evaluate(WORDS_JS)
            if re.search(NOTATION, text) or re.search(r"[A-Za-z]{3,}", text)]


# Stand-ins for the browser's Wake Lock, vibration and Web Audio (outside the product):
# they count what the page asked for.
SIGNALS_JS = """
window.signals = {wake: 0, released: 0, vibrate: 0, tones: 0};
Object.defineProperty(navigator, "wakeLock", {value: {request: async () => {
  window.signals.wake += 1;
  const sentinel = new EventTarget();
  sentinel.release = async () => { window.signals.released += 1; sentinel.dispatchEvent(new Event("release")); };
  return sentinel; }}});
navigator.vibrate = () => { window.signals.vibrate += 1; return true; };
window.AudioContext = class { constructor() { this.currentTime = 0; this.destination = {}; }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: (x) => x}; }
  createOscillator() { return {frequency: {}, connect: (x) => x, start: () => { window.signals.tones += 1; }, stop() {}}; } };
"""


@pytest.mark.django_db(transaction=True)
def test_the_language_switch_words_every_text_of_a_hand(browser, server, bot_worker, seats_to_close):
    """A whole hand in English: no Chinese word on the page at any move, the score sheet
    included (names aside). Then the switch: the same table in Chinese shows no English
    and no card notation."""
    def english(seat):
        seat.context.add_init_script(SIGNALS_JS)
        seat.read_in_english()

    human = start_with_bots(browser, server, seats_to_close, "qingdao", name="alice", before=english)
    page = human.page
    expect(page.locator("html")).to_have_attribute("lang", "en")
    seen = []

    def check(_moves):
        leaks = english_words_leak(human)
        assert not leaks, f"Chinese on the English page: {leaks}"
        seen.append(page.get_attribute("#table", "data-phase"))

    game = Game([human], rng=random.Random(2), name="english", on_move=check)
    check(0)
    # On small phones in English a bot's seat with the long "Emperor" badge and its level
    # still shows its name and the whole badge (the level gives way first, then the name),
    # and every seat fits.
    page.evaluate("""() => { const {store, render} = window.bhTable; const v = store.hand.view;
      window.realView = v; store.hand.view = {...v, roles: {...v.roles, emperor: (v.seat + 1) % 5, guard: null}}; render(); }""")
    check_fits(human, "english-small-phone", SMALL_PHONE)
    check_fits(human, "english-small-landscape", SMALL_LANDSCAPE)
    page.set_viewport_size(PHONE)
    page.evaluate("() => { const {store, render} = window.bhTable; store.hand.view = window.realView; render(); }")
    from tests.browser.driver import play_games

    play_games([game], timeout=240)
    expect(page.locator("#score-sheet")).to_be_visible()
    expect(page.locator("#room-ledger tr").first).to_be_visible()
    check(-1)
    # The bar, in English, with the Scores button a hand adds: still one line, the menu in
    # sight (it was pushed off a 375 px screen), down to the narrowest phones (320 px).
    assert page.evaluate(BAR_FITS_JS) == {"over": 0, "outside": []}
    page.set_viewport_size(NARROWEST_PHONE)
    page.wait_for_function("(w) => innerWidth === w", arg=NARROWEST_PHONE["width"])
    assert page.evaluate(BAR_FITS_JS) == {"over": 0, "outside": []}
    page.set_viewport_size(PHONE)
    # Counted words agree with their counts ("1 card", "2 cards"), never "card(s)".
    sheet_text = page.inner_text("#score-sheet")
    assert "(s)" not in sheet_text and not re.search(r"\b1 cards\b|\b([02-9]|\d\d+) card\b", sheet_text), sheet_text
    human.screenshot("english-score-sheet-phone")
    assert "playing" in seen
    # Your turn rang, buzzed and the screen was kept awake during the hand, then let go.
    signals = page.evaluate("window.signals")
    assert signals["tones"] > 0 and signals["vibrate"] > 0, signals
    assert signals["wake"] >= 1 and signals["released"] >= 1, signals

    page.click("#score-sheet [data-action=close-sheet]")
    page.click("#menu summary")
    page.click("#language-button")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    human.wait_connected()
    expect(page.locator("#score-sheet")).to_be_visible()  # the latest hand's sheet, on arrival
    expect(page.locator("#room-ledger tr").first).to_be_visible()
    human.screenshot("chinese-score-sheet-phone")
    leaks = chinese_page_leaks(human)
    assert not leaks, f"English or card notation on the Chinese page: {leaks}"


@pytest.mark.django_db(transaction=True)
def test_lobby_and_table_pass_the_accessibility_check(browser, server, bot_worker, seats_to_close):
    """axe-core 4.10.3 (vendored in tests/browser/vendor/, MPL-2.0): WCAG 2 A/AA and best
    practices, on the lobby before and after signing in, and on the table mid-hand."""
    visitor = Seat(browser, server.url, "visitor", viewport=PHONE)
    seats_to_close.append(visitor)
    visitor.open_lobby()
    assert axe_violations(visitor.page) == []
    human = start_with_bots(browser, server, seats_to_close, "classic")
    human.open_lobby()
    assert axe_violations(human.page) == []
    human.page.go_back()
    human.wait_connected()
    game = Game([human], rng=random.Random(4), name="axe")
    wait_for_my_follow(human, game)
    assert axe_violations(human.page) == []
