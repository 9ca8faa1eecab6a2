import { test } from "node:test";
import assert from "node:assert/strict";
import { explainLine, ledgerLine } from "../explain.js";

const T = {
  emperor: "皇", guard: "保", listJoin: ", ",
  explain: {
    lianzhongSide: "g = 6 − (%(e)s + %(g)s) = %(base)s", classicSide: "A = %(e)s + %(g)s = %(side)s",
    solo: "%(solo)s, place %(place)s: %(points)s", seizedWon: "seized, out first", seizedLost: "seized, not first",
    qingdaoSide: "places %(e)s + %(g)s = %(sum)s", qingdaoSolo: "alone, place %(place)s",
    doubled: "%(n)s doubled", byPlace: "by place", eachRebel: "每人 %(n)s", split: "split evenly",
    why: { ming_bao: "明保", niu: "扭", open: "明独" }, solos: { dark: "暗独" }, presetSolos: { lianzhong_classic: { dark: "暗独保" } },
  },
  ledgerLines: { leave_penalty: "%(name)s left: %(points)s", tribute_points: { one: "%(from)s → %(to)s: %(n)s card, %(n)s point", other: "%(from)s → %(to)s: %(n)s cards, %(n)s points" } },
};
const seats = (e, g, r) => [{ role: "emperor", points: e }, { role: "guard", points: g },
  ...[0, 1, 2].map(() => ({ role: "rebel", points: r }))];

test("the lianzhong line reads as the issue's example", () => {
  const terms = { formula: "lianzhong_side", base: 1, emperor_place: 1, guard_place: 4, split: false,
    multipliers: [{ why: "ming_bao", factor: 2 }], factor: 2, seats: seats(4, 2, -2) };
  assert.equal(explainLine(T, terms), "g = 6 − (1 + 4) = 1; 明保 ×2 → 皇 +4, 保 +2, 每人 -2");
});

test("a solo names its kind and place and has no guard", () => {
  const terms = { formula: "lianzhong_solo", solo: "dark", place_points: 12, emperor_place: 1, guard_place: null,
    multipliers: [], factor: 1, seats: [{ role: "emperor", points: 12 }, ...[0, 1, 2, 3].map(() => ({ role: "rebel", points: -3 }))] };
  assert.equal(explainLine(T, terms), "暗独, place 1: +12 → 皇 +12, 每人 -3");
});

test("lianzhong_classic names its solo as its players do (暗独保)", () => {
  const terms = { formula: "lianzhong_solo", solo: "dark", place_points: 12, emperor_place: 1, guard_place: null,
    multipliers: [], factor: 1, seats: [{ role: "emperor", points: 12 }, ...[0, 1, 2, 3].map(() => ({ role: "rebel", points: -3 }))] };
  assert.equal(explainLine(T, terms, "lianzhong_classic"), "暗独保, place 1: +12 → 皇 +12, 每人 -3");
  assert.equal(explainLine(T, terms, "lianzhong"), "暗独, place 1: +12 → 皇 +12, 每人 -3");
});

test("classic shows negative place points in brackets", () => {
  const terms = { formula: "classic_side", place_points: { emperor: 6, guard: -3 }, side: 3, emperor_place: 1,
    guard_place: 4, multipliers: [], factor: 1, seats: seats(2, 1, -1) };
  assert.equal(explainLine(T, terms), "A = 6 + (-3) = 3 → 皇 +2, 保 +1, 每人 -1");
});

test("qingdao says which points were doubled", () => {
  const terms = { formula: "qingdao", outcome_by: { side_sum: 4 }, emperor_place: 1, guard_place: 3, doubled: [0, 1],
    multipliers: [{ why: "ming_bao", factor: 2 }], factor: 2, seats: seats(6, 2, 0) };
  assert.equal(explainLine(T, terms), "places 1 + 3 = 4; 明保 ×2 → 2 doubled");
});

test("the −40 for leaving and tribute turned into points are lines of their own, named by seat", () => {
  const name = (seat) => ["alice", "bob", "carol", "dave", "erin"][seat];
  assert.equal(ledgerLine(T, { kind: "leave_penalty", seat: 1, points: -40 }, name), "bob left: -40");
  assert.equal(ledgerLine(T, { kind: "tribute_points", from: 2, to: 4, cards: 2 }, name), "carol → erin: 2 cards, 2 points");
  assert.equal(ledgerLine(T, { kind: "tribute_points", from: 2, to: 4, cards: 1 }, name), "carol → erin: 1 card, 1 point");
  assert.equal(ledgerLine(T, { kind: "adjustment", points: 5 }, name), "");
});
