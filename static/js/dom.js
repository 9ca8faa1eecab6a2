// Building DOM nodes: `el(tag, attrs, ...children)` and `svg(...)`. Text goes in through
// textContent only (names and chat are whatever people typed).

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false && child !== "") node.append(child);
  return node;
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

export const $ = (id) => document.getElementById(id);

/** Set a node's text only when it differs: text written anew, even the same, lays the page
 * out again, and the countdowns write four times a second on every page of the table. */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Replace a panel's children only when `signature` changed (keeps focus and clicks steady). */
const signatures = new WeakMap();
export function replaceIfChanged(node, signature, build) {
  if (signatures.get(node) === signature) return false;
  signatures.set(node, signature);
  node.replaceChildren(...build().filter(Boolean));
  return true;
}
