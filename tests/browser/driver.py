"""Driving the table page like a person: Playwright clicks only, reading the page's DOM.

A `Seat` is one browser context (one signed-in guest). `play_hand` moves whichever page
shows it is that player's turn, by clicking the buttons a player would: 叫庄 with the
card picker or 登基, "no declaration" in the window, 提示 then 出牌 to lead, and 过 (or
now and then 提示 + 出牌) to follow. Nothing here sends protocol frames itself.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")  # Debian's package
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 860}


def wait_limits(context) -> None:
    """Upper bounds of a click's and a page load's wait (each returns as soon as the button
    or page is there): high enough for twenty pages on a loaded two-core machine."""
    context.set_default_timeout(30_000)
    context.set_default_navigation_timeout(60_000)


def axe_violations(page) -> list[dict]:
    """The page's accessibility violations by axe (WCAG 2 A and AA, and best practice)."""
    # Evaluated through the driver, not added as a <script>: the pages' Content-Security-Policy
    # refuses inline scripts, as it should.
    page.evaluate((Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8"))
    result = page.evaluate("""() => axe.run(document, {runOnly: ["wcag2a", "wcag2aa", "best-practice"]})""")
    return [{"id": v["id"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]} for v in result["violations"]]


class Seat:
    """One player in their own browser context."""

    def __init__(self, browser, base_url: str, name: str, *, viewport=DESKTOP, context=None):
        self.name = name
        self.base_url = base_url
        self.browser = browser
        self.viewport = viewport
        self.owns_context = context is None
        if context is None:
            context = browser.new_context(viewport=viewport, locale="zh-CN", reduced_motion="reduce")
            wait_limits(context)
        self.context = context
        self.page: Page = context.new_page()
        self.page.set_viewport_size(viewport)
        self.keyboard = False  # play with the keyboard shortcuts instead of clicks
        self.console: list[str] = []
        self.page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))
        self.page.on("pageerror", lambda error: self.console.append(f"pageerror: {error}"))
        # Every socket frame, shortened: written to artifacts/ when a test fails.
        self.page.on("websocket", lambda socket: (
            socket.on("framesent", lambda frame: self.console.append(f"ws> {str(frame)[:200]}")),
            socket.on("framereceived", lambda frame: self.console.append(f"ws< {str(frame)[:200]}")),
            socket.on("close", lambda _: self.console.append("ws closed"))))

    def tab(self, *, viewport=None) -> "Seat":
        """The same signed-in player in a browser context of its own (the session cookie
        copied), so each table's page is the visible page of its context."""
        context = self.browser.new_context(viewport=viewport or self.viewport, locale="zh-CN", reduced_motion="reduce",
                                           storage_state=self.context.storage_state())
        wait_limits(context)
        seat = Seat(self.browser, self.base_url, self.name, viewport=viewport or self.viewport, context=context)
        seat.owns_context = True
        return seat

    def close(self):
        if self.owns_context:
            self.context.close()

    # -- lobby ---------------------------------------------------------------------

    def become_guest(self):
        self.page.goto(self.base_url + "/")
        self.page.fill("#id_nickname", self.name)
        self.page.click("form[action$='/guest/'] button[type=submit]")
        expect(self.page.locator("a.me")).to_have_text(self.name)

    def open_lobby(self):
        self.page.goto(self.base_url + "/")

    def read_in_english(self):
        """Switch the site's language to English (it is Chinese by default)."""
        self.open_lobby()
        self.page.click("#language-button, form.lang button")
        expect(self.page.locator("html")).to_have_attribute("lang", "en")

    def create_room(self, preset: str, *, name: str | None = None, bots: int = 0, timers: int = 120,
                    pause: float | None = None) -> int:
        page = self.page
        if page.url.rstrip("/") != self.base_url:
            self.open_lobby()
        for section in ("details.create-room", "details.more-options"):  # the form starts folded
            if not page.locator(section).evaluate("node => node.open"):
                page.click(f"{section} > summary")
        page.fill("#id_name", name or f"{preset} {self.name}")
        page.select_option("#id_preset", preset)
        for kind in ("play", "bid", "declare"):
            page.fill(f"#id_timer_{kind}", str(timers))
        if bots:
            page.fill("#id_bots", str(bots))
        if pause is not None:
            page.fill("#id_trustee_delay", str(pause))
        page.click("form.room-form button[type=submit]")
        page.wait_for_url("**/rooms/*/")
        self.wait_connected()
        return int(page.url.rstrip("/").split("/")[-1])

    def quick_start(self, preset: str, how: str) -> int:
        """One tap in the lobby's quick start: `how` is "bots" (和机器人打一局) or "match" (找人打)."""
        self.page.click(f".quick-presets li[data-preset='{preset}'] button.quick-{how}")
        self.page.wait_for_url("**/rooms/*/")
        self.wait_connected()
        return int(self.page.url.rstrip("/").split("/")[-1])

    def join(self, room_id: int):
        """From the lobby's room list: the 加入 (join) link, which takes the lowest free seat."""
        self.page.goto(self.base_url + "/")
        self.page.click(f"tr[data-room='{room_id}'] a.join")
        self.page.wait_for_url(f"**/rooms/{room_id}/")
        self.wait_connected()
        expect(self.page.locator("#table")).to_have_attribute("data-role", "player")

    def wait_connected(self):
        expect(self.page.locator("#table")).to_have_attribute("data-conn", "online")

    # -- reading the table -----------------------------------------------------------

    def table(self) -> dict:
        return self.page.eval_on_selector("#table", "node => ({...node.dataset})")

    def my_turn(self) -> bool:
        return self.table().get("myTurn") == "1"

    def version(self) -> str:
        return self.table().get("version", "")

    def notice(self) -> str:
        return self.page.inner_text("#notice")

    def screenshot(self, name: str):
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    # -- one move ----------------------------------------------------------------------

    def click(self, selector: str):
        self.page.locator(selector).first.click()

    def has(self, selector: str) -> bool:
        return self.page.locator(selector).count() > 0

    def buttons(self) -> dict:
        """The table's state and which of the move buttons are on the page, in one read."""
        return self.page.evaluate(BUTTONS_JS)

    def move(self, rng: random.Random, *, follow_rate: float = 0.0) -> str:
        """Make this seat's move by clicking; returns what it did."""
        now = self.buttons()
        phase = now["phase"]
        if phase == "bidding":
            if now["call"]:
                self.click("#prompt [data-action=call]")
                self.click("#prompt [data-action=call-card]")
                return "call"
            if now["accept"]:
                self.click("#prompt [data-action=accept]")
                return "accept"
            self.click("#prompt [data-action=decline]")
            return "decline"
        if phase == "declaring":
            self.click("#prompt [data-action=declare][data-what=none]")
            return "declare none"
        if phase == "playing" and self.keyboard:
            # Keys only: H picks a hint, Enter plays it, P passes (the buttons' shortcuts).
            # A person presses once the button is there to press: `Game.step` moves a seat
            # only when its page is settled, so the toolbar read here is the latest.
            if not now["pass"]:
                expect(self.page.locator("#controls [data-action=hint]")).to_be_enabled()
                self.page.keyboard.press("h")
                expect(self.page.locator("#hand .card.selected").first).to_be_visible()
                expect(self.page.locator("#controls [data-action=play]")).to_be_enabled()
                self.page.keyboard.press("Enter")
                return "play (keys)"
            expect(self.page.locator("#controls [data-action=pass]")).to_be_enabled()
            self.page.keyboard.press("p")
            return "pass (keys)"
        if phase == "playing":
            leading = not now["pass"]
            if leading or (now["hint"] and rng.random() < follow_rate):
                self.click("#controls [data-action=hint]")
                if self.has("#hand .card.selected"):
                    self.click("#controls [data-action=play]")
                    return "play"
                if leading:
                    raise AssertionError(f"{self.name}: no hint for a lead: {self.notice()}")
            self.click("#controls [data-action=pass]")
            return "pass"
        raise AssertionError(f"{self.name}: my turn in phase {phase!r}")


# `settled`: the page is online with no move awaiting its answer, and has drawn the latest
# version it holds (it draws once per animation frame, so it may be a frame behind). Only
# then does it show what a person would act on: while its socket is re-opened after a drop,
# or before a frame is drawn, the toolbar shows a turn the server may have moved past.
BUTTONS_JS = """() => {
  const t = document.getElementById("table").dataset;
  const q = (s) => document.querySelector(s) !== null;
  const {conn, store} = window.bhTable;
  const settled = conn.open && !store.pending && store.hand !== null && t.version === String(store.hand.version);
  return {phase: t.phase, version: t.version, myTurn: t.myTurn === "1", running: t.running === "1", settled,
          error: t.error || "", call: q("#prompt [data-action=call]"), accept: q("#prompt [data-action=accept]"),
          pass: q("#controls [data-action=pass]"), hint: q("#controls [data-action=hint]:not([disabled])")};
}"""

TABLE_JS = """() => {
  const table = window.bhTable && window.bhTable.store;
  const hand = table && table.hand;
  return hand ? {id: hand.id, version: hand.version, running: hand.running,
                 phase: hand.view ? hand.view.phase : null, actors: hand.view ? hand.view.actors : []} : null;
}"""


class Game:
    """One table being clicked through a hand; `step()` never blocks on the server, so
    several tables can be driven at once while each waits for its events."""

    def __init__(self, seats: list[Seat], *, rng: random.Random, humans=None, follow_rate=0.3,
                 follows=6, on_move=None, name="game"):
        self.seats = seats
        self.humans = humans if humans is not None else seats
        self.by_seat = {}
        self.rng = rng
        self.follow_rate = follow_rate
        # Following (beating the set on the table) is clicked now and then, `follows` times
        # at most: each follow makes the round longer, and the suite has a time budget.
        self.follows = follows
        self.on_move = on_move
        self.name = name
        self.moves = 0
        self.done = False
        self.pending = None  # (seat, version, since) after a click, until the page moves on
        self.log: list[str] = []
        # True: a human with a set to answer is left to answer it (a test waiting for that
        # moment must not have it clicked away between its look and this step's).
        self.hold_follows = False

    def seat_of(self, seat: Seat) -> int:
        return int(seat.page.evaluate("() => window.bhTable.store.you.seat"))

    def step(self) -> bool:
        """One look at the table, and a click if a human is awaited. True once it ended."""
        if self.done:
            return True
        if self.pending is not None:
            seat, version, since = self.pending
            now = seat.buttons()
            if now["version"] == version and now["running"] and not now["error"]:
                if time.monotonic() - since > 45:  # generous: CI machines can be busy
                    raise AssertionError(f"{self.name}: {seat.name}'s move at version {version} got no answer")
                return False
            if now["error"] and now["error"] != "stale_version":
                raise AssertionError(f"{self.name}: the server refused {seat.name}'s move: {seat.notice()}")
            self.pending = None
            self.moves += 1
            if self.on_move is not None:
                self.on_move(self.moves)
        table = self.humans[0].page.evaluate(TABLE_JS)
        if table is None:
            return False
        if not table["running"] and table["phase"] == "ended":
            expect(self.humans[0].page.locator("#score-sheet")).to_be_visible()
            self.done = True
            return True
        if not self.by_seat:
            self.by_seat = {self.seat_of(seat): seat for seat in self.humans}
        for index in table["actors"]:
            seat = self.by_seat.get(index)
            if seat is None:
                continue
            now = seat.buttons()
            if not now["myTurn"] or not now["settled"] or (self.hold_follows and now["phase"] == "playing" and now["pass"]):
                continue
            rate = self.follow_rate if self.follows > 0 else 0.0
            try:
                did = seat.move(self.rng, follow_rate=rate)
            except PlaywrightTimeout:
                # The button went away under the pointer. Fine only if the table moved on
                # without this seat (its page was a frame behind); otherwise it is a bug.
                after = seat.buttons()
                if after["version"] == now["version"] and after["myTurn"]:
                    raise
                self.log.append(f"{seat.name}@{now['version']}: moved on before the click")
                return False
            if did == "play" and now["pass"]:
                self.follows -= 1
            self.log.append(f"{seat.name}@{now['version']}: {did}")
            self.pending = (seat, now["version"], time.monotonic())
            return False
        return False


def play_games(games: list[Game], *, timeout: float = 300.0) -> None:
    """Step every game round-robin until all of them reach the score sheet."""
    started = time.monotonic()
    while not all(game.done for game in games):
        if time.monotonic() - started > timeout:
            states = {game.name: game.moves for game in games}
            raise AssertionError(f"hands did not end within {timeout} s: moves so far {states}")
        progressed = False
        for game in games:
            if not game.done:
                before = (game.moves, game.pending)
                try:
                    game.step()
                except Exception as error:
                    error.add_note(f"{game.name}'s last moves: {game.log[-12:]}")
                    raise
                progressed = progressed or (game.moves, game.pending) != before
        if not progressed:
            games[0].humans[0].page.wait_for_timeout(10)


def play_hand(seats: list[Seat], *, rng: random.Random, timeout: float = 300.0, **options) -> int:
    """Click one table through a hand; returns the moves made."""
    game = Game(seats, rng=rng, **options)
    play_games([game], timeout=timeout)
    return game.moves
