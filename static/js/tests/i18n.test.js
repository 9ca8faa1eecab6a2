import { test } from "node:test";
import assert from "node:assert/strict";
import { cardName, errorText, fill, fmt, playerName, plural, seatName } from "../i18n.js";

const ZH = {
  cardNames: { card: "%(suit)s%(rank)s", suits: { S: "黑桃", H: "红桃", C: "梅花", D: "方块" }, bigJoker: "大王",
    smallJoker: "小王", crown: "皇牌（大王）", sword: "保牌（小王）", baozi: "保子（红桃4）" },
  listJoin: "、", errorGeneric: "操作未被接受。", botName: "机器人 %(number)s", seatNumber: "%(n)s 号位",
  errors: { wrong_size: "跟牌要 %(size)s 张。", does_not_beat: "%(cards)s 压不过桌上的牌。" },
};

test("cards are named as players name them, never in notation", () => {
  assert.equal(cardName(ZH, "4H"), "红桃4");
  assert.equal(cardName(ZH, "TD"), "方块10");
  assert.equal(cardName(ZH, "BJ"), "大王");
  assert.equal(cardName(ZH, "SJ"), "小王");
  assert.equal(cardName(ZH, "BJ*"), "皇牌（大王）");
  assert.equal(cardName(ZH, "4H*"), "保子（红桃4）");
});

test("a refusal is worded from its code and parameters; an unknown code gets the generic sentence", () => {
  assert.equal(errorText(ZH, "wrong_size", { size: 2 }), "跟牌要 2 张。");
  assert.equal(errorText(ZH, "does_not_beat", { cards: "4H 4S" }), "红桃4、黑桃4 压不过桌上的牌。");
  assert.equal(errorText(ZH, "something_new", { x: 1 }), "操作未被接受。");
});

test("a code with one sentence per reason picks it by `why`, else its default", () => {
  const T = { ...ZH, errors: { does_not_beat: { rank: "%(cards)s 比桌上的小。", default: "压不过桌上的牌。" } } };
  assert.equal(errorText(T, "does_not_beat", { cards: ["BJ*"], why: "rank" }), "皇牌（大王） 比桌上的小。");
  assert.equal(errorText(T, "does_not_beat", { cards: ["4H"], why: "later" }), "压不过桌上的牌。");
});

test("placeholders missing from the values are left empty", () => {
  assert.equal(fmt("%(a)s-%(b)s", { a: 1 }), "1-");
});

test("a bot is named in the page's language from its number; a person by the name sent", () => {
  assert.equal(playerName(ZH, { id: 9, name: "3", bot: true }), "机器人 3");
  assert.equal(playerName({ ...ZH, botName: "Bot %(number)s" }, { id: 9, name: "3", bot: true }), "Bot 3");
  assert.equal(playerName(ZH, { id: 4, name: "阿强81", bot: false }), "阿强81");
  assert.equal(seatName(ZH, null, 2), "3 号位");
  assert.equal(seatName(ZH, { name: "2", bot: true }, 2), "机器人 2");
});

test("a counted text takes the plural form of its count in the page's language", () => {
  const cards = { one: "%(n)s card", other: "%(n)s cards" };
  assert.equal(fmt(plural(cards, 1, "en"), { n: 1 }), "1 card");
  assert.equal(fmt(plural(cards, 2, "en"), { n: 2 }), "2 cards");
  assert.equal(fmt(plural(cards, 0, "en"), { n: 0 }), "0 cards");
  const zhang = { one: "%(n)s 张", other: "%(n)s 张" };
  assert.equal(fmt(plural(zhang, 1, "zh-hans"), { n: 1 }), "1 张");
  assert.equal(plural("a plain text", 3, "en"), "a plain text");
});

test("fill puts strings or nodes in a text's places, a list spread in its place, for el()", () => {
  const name = { node: "阿强81" }; // any value: el() appends nodes and strings alike
  assert.deepEqual(fill("轮到 %(name)s 出牌", { name }), ["轮到 ", name, " 出牌"]);
  assert.deepEqual(fill("等待 %(names)s", { names: [name, "、", "机器人 3"] }), ["等待 ", name, "、", "机器人 3", ""]);
  assert.deepEqual(fill("%(gone)s left", {}), ["", "", " left"]);
  assert.equal(fmt("%(a)s → %(b)s: %(n)s", { a: "x", b: "y", n: 3 }), "x → y: 3"); // fmt: the same, as one string
});
