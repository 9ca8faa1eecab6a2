import { test } from "node:test";
import assert from "node:assert/strict";
import { setText } from "../dom.js";

// A stand-in node that counts writes: each one would lay the page out again.
function node(text) {
  let current = text;
  const writes = [];
  return {
    writes,
    get textContent() { return current; },
    set textContent(value) { writes.push(value); current = value; },
  };
}

test("a countdown's text is written only when it changes", () => {
  const timer = node("");
  for (const text of ["12s", "12s", "12s", "12s", "11s", "11s"]) setText(timer, text);
  assert.deepEqual(timer.writes, ["12s", "11s"]);
  assert.equal(timer.textContent, "11s");
});

test("emptying a text is a write, and empty stays unwritten", () => {
  const note = node("要不起");
  setText(note, "");
  setText(note, "");
  assert.deepEqual(note.writes, [""]);
});
