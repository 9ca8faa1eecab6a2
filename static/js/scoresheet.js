// The score sheet at the end of a hand: places, each seat's score, the room's running
// ledger, and (qingdao) the tribute owed at the next deal.

const ledgerCache = new Map(); // hand id → ledger rows (the ledger only changes between hands)

export function renderScoreSheet({ body, buttons, T, view, seatName, buttonsList, ledgerUrl, handId }) {
  const result = view.result;
  const rows = [];
  result.places.forEach((seat, place) => {
    if (seat === null) return;
    const roles = [];
    if (result.emperor === seat) roles.push(T.emperor);
    if (result.guard === seat && result.guard !== result.emperor) roles.push(T.guard);
    if (result.solo && result.emperor === seat) roles.push(T.solo);
    if (result.menzan.includes(seat)) roles.push(T.menzan);
    const score = result.scores[seat];
    rows.push(`<tr data-seat="${seat}"><td>${escape(T.places[place])}</td><td>${escape(seatName(seat))}</td>`
      + `<td>${escape(roles.join(" "))}</td><td class="num ${score > 0 ? "plus" : score < 0 ? "minus" : ""}">${score > 0 ? "+" : ""}${score}</td></tr>`);
  });
  const declared = result.declared.map((entry) => `${escape(seatName(entry.seat))} ${escape(T.declared[entry.what] || entry.what)}`);
  let html = `<p class="outcome">${escape(T.outcome[result.outcome] || "")}${declared.length ? ` · ${declared.join("、")}` : ""}</p>`
    + `<table class="list scores"><thead><tr><th>${escape(T.place)}</th><th>${escape(T.player)}</th><th>${escape(T.role)}</th>`
    + `<th class="num">${escape(T.score)}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  const owed = (result.tribute || []).filter((debt) => debt.cards > 0);
  if (owed.length) {
    html += `<h3>${escape(T.tributeOwed)}</h3><ul class="tribute">${owed.map((debt) => `<li>${escape(
      T.tributeCards.replace("%(from)s", seatName(debt.from)).replace("%(to)s", seatName(debt.to)).replace("%(n)s", debt.cards))}</li>`).join("")}</ul>`;
  }
  html += `<h3>${escape(T.ledger)}</h3><div class="ledger" id="room-ledger">…</div>`;
  body.innerHTML = html;
  buttons.replaceChildren(...buttonsList);
  loadLedger(ledgerUrl, handId, T).then((table) => {
    const slot = body.querySelector("#room-ledger");
    if (slot) slot.innerHTML = table;
  });
}

async function loadLedger(url, handId, T) {
  if (!ledgerCache.has(handId)) {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      ledgerCache.set(handId, (await response.json()).players);
    } catch {
      return "";
    }
  }
  const players = ledgerCache.get(handId);
  return `<table class="list"><tbody>${players.map((row) => `<tr><td>${escape(row.name)}</td>`
    + `<td class="num ${row.points > 0 ? "plus" : row.points < 0 ? "minus" : ""}">${row.points > 0 ? "+" : ""}${row.points}</td></tr>`).join("")}</tbody></table>`;
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
