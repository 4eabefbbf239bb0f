// maumau serve: helpers every page uses. The DOM is built with textContent only, never from HTML strings.
"use strict";

const SUIT_PIPS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RED_SUITS = new Set(["D", "H"]);
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: {} };
  if (options.json !== undefined) {
    init.method = options.method || "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.json);
  } else if (options.bytes !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/octet-stream";
    init.body = options.bytes;
  } else if (init.method === "POST") {
    init.headers["Content-Type"] = "application/json";
    init.body = "{}";
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `${response.status} ${response.statusText}`);
  }
  return data;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function clear(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// A card drawn from its notation (RULES.md): 10H, JD, 7S; jokers XR, XB.
function cardEl(text, size = "") {
  const rank = text.slice(0, -1), suit = text.slice(-1);
  const joker = rank === "X";
  const red = joker ? suit === "R" : RED_SUITS.has(suit);
  const pip = joker ? "\u2605" : (SUIT_PIPS[suit] || suit);
  return el("span", { class: `card ${red ? "red" : "black"} ${size}`.trim(), "data-card": text, title: text },
    el("span", { class: "rank", text: joker ? "J\u2605" : rank }), el("span", { class: "pip", text: pip }));
}

function backEl(size = "") {
  return el("span", { class: `card back ${size}`.trim(), "aria-hidden": "true" });
}

function suitText(suit, name) {
  return `${SUIT_PIPS[suit] || ""} ${name || SUIT_NAMES[suit] || suit}`.trim();
}

function showError(where, error) {
  const node = document.getElementById(where);
  if (!node) return;
  node.textContent = error ? `Error: ${error.message || error}` : "";
}

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

function query(name) { return new URLSearchParams(location.search).get(name); }
