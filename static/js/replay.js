// The replay page of a finished hand (/hands/<id>/, rooms/replays.py): the steps the
// engine rebuilt from the stored seed and actions, every hand face up, with step, play /
// pause, speed and a jump to any round. The page holds no rules: each step carries the
// spectator's view at that version (engine.view) and the five hands.

import { $, el } from "./dom.js";
import { fmt, cardsName } from "./i18n.js";
import { cardRow } from "./render/card.js";

const config = JSON.parse($("replay-config").textContent);
const T = JSON.parse($("replay-text").textContent);
const { steps, names } = config;
const SPEEDS = [0.5, 1, 2, 4];
let at = 0;
let timer = null;
let speed = 1;

/** Where each round starts: a step in play with nothing played yet in the round. */
function roundStarts() {
  return steps.map((step, index) => (step.view.phase === "playing" && !step.view.log.round.length ? index : -1))
    .filter((index) => index >= 0);
}
const ROUNDS = roundStarts();

function roleOf(view, seat) {
  const roles = view.roles;
  if (roles.emperor === seat) return roles.solo ? T.soloTitle : T.emperorTitle;
  if (roles.guard === seat) return T.guardTitle;
  return "";
}

function describe(step) {
  const event = step.event;
  if (!event) return T.replayDeal;
  const who = names[event.seat];
  const what = { play: event.cards ? cardsName(T, event.cards) : "", pass: T.passed, yield: T.yielded }[event.type];
  return what !== undefined ? `${who}: ${what}` : `${who}: ${T.replayActions[event.type] || event.type}`;
}

function seatNode(step, seat) {
  const view = step.view;
  const place = view.places.indexOf(seat);
  const last = view.table ? view.table.last[seat] : null;
  return el("li", { class: "replay-seat", dataset: { seat: String(seat) } },
    el("div", { class: "who" },
      el("strong", { text: names[seat] }),
      roleOf(view, seat) ? el("span", { class: "badge", text: roleOf(view, seat) }) : null,
      place >= 0 ? el("span", { class: "place", text: T.places[place] }) : null,
      last ? el("span", { class: "last", text: last.type === "play" ? cardsName(T, last.cards) : T[last.type === "pass" ? "passed" : "yielded"] }) : null),
    cardRow(step.hands[seat], T, "mini"));
}

function resultNode(step) {
  const result = step.view.result;
  if (!result || result.void) return null;
  const rows = [0, 1, 2, 3, 4].map((seat) => el("tr", { dataset: { seat: String(seat) } },
    el("td", { class: "name", text: names[seat] }), el("td", { text: T.places[result.places.indexOf(seat)] }),
    el("td", { class: "points", text: String(result.scores[seat]) })));
  return el("table", { class: "list replay-result", id: "replay-result", dataset: { scores: result.scores.join(",") } },
    el("thead", {}, el("tr", {}, el("th", { text: T.player }), el("th", { text: T.place }), el("th", { text: T.score }))),
    el("tbody", {}, rows));
}

function render() {
  const step = steps[at];
  $("replay-seats").replaceChildren(...[0, 1, 2, 3, 4].map((seat) => seatNode(step, seat)));
  $("replay-what").textContent = describe(step);
  $("replay-step").textContent = fmt(T.replayStep, { n: at, total: steps.length - 1 });
  $("replay-position").value = String(at);
  const top = step.view.table && step.view.table.top;
  $("replay-top").replaceChildren(top ? cardRow(top.cards, T, "big") : "");
  const result = resultNode(step);
  $("replay-end").replaceChildren(...(result ? [result] : []));
  $("replay").dataset.at = String(at);
  $("replay").dataset.ended = String(at === steps.length - 1);
  const round = ROUNDS.filter((start) => start <= at).length;
  $("replay-round").value = round ? String(round) : "";
  $("replay-play").textContent = timer ? T.replayPause : T.replayPlay;
}

function go(index) {
  at = Math.max(0, Math.min(steps.length - 1, index));
  if (at === steps.length - 1) stop();
  render();
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
}

function play() {
  if (timer) { stop(); render(); return; }
  if (at === steps.length - 1) at = 0;
  timer = setInterval(() => go(at + 1), 1000 / speed);
  render();
}

function controls() {
  $("replay-first").addEventListener("click", () => { stop(); go(0); });
  $("replay-back").addEventListener("click", () => { stop(); go(at - 1); });
  $("replay-play").addEventListener("click", play);
  $("replay-next").addEventListener("click", () => { stop(); go(at + 1); });
  $("replay-last").addEventListener("click", () => { stop(); go(steps.length - 1); });
  $("replay-position").max = String(steps.length - 1);
  $("replay-position").addEventListener("input", (e) => { stop(); go(Number(e.target.value)); });
  const speeds = $("replay-speed");
  speeds.replaceChildren(...SPEEDS.map((value) => el("option", { value: String(value), text: `${value}×`, selected: value === 1 })));
  speeds.addEventListener("change", () => { speed = Number(speeds.value); if (timer) { stop(); play(); } });
  const rounds = $("replay-round");
  rounds.replaceChildren(el("option", { value: "", text: "—" }),
    ...ROUNDS.map((_, index) => el("option", { value: String(index + 1), text: fmt(T.replayRound, { n: index + 1 }) })));
  rounds.addEventListener("change", () => { if (rounds.value) { stop(); go(ROUNDS[Number(rounds.value) - 1]); } });
}

/** The commitment shown at the deal against the seed and salt revealed at the end. */
async function fairness() {
  const fair = config.fair;
  const node = $("replay-fair");
  if (!fair) { node.hidden = true; return; }
  $("fair-commitment").textContent = fair.commitment;
  $("fair-seed").textContent = fair.seed;
  $("fair-salt").textContent = fair.salt;
  let ok = fair.commitment_ok;
  if (globalThis.crypto && crypto.subtle) {  // check again here, without trusting the server
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${fair.seed}:${fair.salt}`));
    const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    ok = ok && hex === fair.commitment;
  }
  const verdict = $("fair-verdict");
  verdict.textContent = [ok ? T.fairOk : T.fairBad, fair.deal_ok === true ? T.fairDealOk : fair.deal_ok === false ? T.fairDealBad : ""].join(" ");
  verdict.dataset.ok = String(ok && fair.deal_ok !== false);
}

controls();
render();
fairness();
