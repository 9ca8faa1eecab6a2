import { test } from "node:test";
import assert from "node:assert/strict";
import { keyed, keysOf, layout, swipe } from "../selection.js";

test("copies of one card get keys of their own", () => {
  assert.deepEqual(keyed(["9S", "9S", "BJ*"]).map((c) => c.key), ["9S#0", "9S#1", "BJ*#0"]);
});

test("a swipe sets every card it crossed, either way, and leaves the others", () => {
  const keys = ["a", "b", "c", "d", "e"];
  assert.deepEqual([...swipe(new Set(["e"]), keys, 1, 3, true)].sort(), ["b", "c", "d", "e"]);
  assert.deepEqual([...swipe(new Set(["a", "b", "c"]), keys, 2, 0, false)], []);
  // going back shrinks the run: cards no longer crossed get their old state back
  assert.deepEqual([...swipe(new Set(["e"]), keys, 1, 1, true)].sort(), ["b", "e"]);
});

test("a hint's cards select the first copies in the shown order", () => {
  assert.deepEqual([...keysOf(["AS", "AS", "AH", "KS"], ["AS", "AH"])].sort(), ["AH#0", "AS#0"]);
});

test("44 cards at 375 px make two rows of 22 with a strip of at least 15 px", () => {
  const plan = layout(44, 367, 46, 15);
  assert.equal(plan.rows, 2);
  assert.equal(plan.perRow, 22);
  assert.ok(plan.step >= 15, plan.step);
  assert.ok(plan.step * 21 + 46 <= 367);
});

test("on a wide screen the hand is one row; a few cards do not spread wider than a card's strip", () => {
  assert.equal(layout(44, 800, 46, 15).rows, 1);
  const few = layout(3, 800, 46, 15);
  assert.equal(few.rows, 1);
  assert.ok(few.step <= 46 * 0.66);
  assert.deepEqual(layout(0, 375, 46, 15).rows, 0);
});
