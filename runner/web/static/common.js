// maumau serve: helpers every page uses. The DOM is built with textContent only, never from HTML strings.
"use strict";

const SUIT_PIPS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RED_SUITS = new Set(["D", "H"]);
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// ------------------------------------------------------------------ a site written by `maumau report`
// runner/web/site.py writes the answers of the API as scripts beside the pages (a browser runs a script from
// file:// where it refuses a fetch): data/tournament.js sets window.maumauTournament before this file runs, and
// each match's data/matches/ID.js, added when its replay is opened, calls maumauReplay.

function inSite() { return typeof window.maumauTournament === "object" && window.maumauTournament !== null; }

let replayArrived = null;
function maumauReplay(data) { if (replayArrived) replayArrived(data); }

function siteReplay(matchId) {
  const match = window.maumauTournament.matches.find((m) => m.match === matchId);
  if (!match) return Promise.reject(new ApiError(404, `no match ${matchId} in this report`));
  return new Promise((resolve, reject) => {
    replayArrived = resolve;
    const script = document.createElement("script");
    script.src = `data/matches/${encodeURIComponent(match.file)}.js`;
    script.onerror = () => reject(new ApiError(404, `the replay file of ${matchId} is missing from this report`));
    document.head.append(script);
  });
}

function siteMatches(params) {
  let rows = window.maumauTournament.matches;
  const bot = params.get("bot");
  if (bot) rows = rows.filter((m) => m.players.includes(bot));
  if (bot && params.get("lost") === "1") rows = rows.filter((m) => !m.winners.includes(bot));
  if (params.get("faults") === "1") rows = rows.filter((m) => m.faults.length && (!bot || m.faults.includes(bot)));
  const offset = Number(params.get("offset") || 0), limit = Number(params.get("limit") || 100);
  return { total: rows.length, matches: rows.slice(offset, offset + limit) };
}

async function siteApi(path) {
  const url = new URL(path, location.href), data = window.maumauTournament;
  if (url.pathname === "/api/standings") return data.standings;
  if (url.pathname === "/api/history") return data.history;
  if (url.pathname === "/api/matches") return siteMatches(url.searchParams);
  if (url.pathname === "/api/replay") return siteReplay(url.searchParams.get("m"));
  throw new ApiError(404, `this report has no ${url.pathname}`);
}

// The address of a match's replay: the server's viewer, or the site's page.
function replayHref(tournament, matchId) {
  return inSite() ? `replay.html?m=${encodeURIComponent(matchId)}`
    : `/replay?t=${encodeURIComponent(tournament)}&m=${encodeURIComponent(matchId)}`;
}

async function api(path, options = {}) {
  if (inSite()) return siteApi(path);
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
    else if (key === "style") node.style.cssText = value;  // through the CSSOM: the pages' CSP refuses style attributes
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

const RANK_NAMES = { J: "jack", Q: "queen", K: "king", A: "ace" };

// A card in words, for screen readers: "7 of hearts", "jack of diamonds", "red joker".
function cardName(text) {
  if (!text) return "none";
  const rank = text.slice(0, -1), suit = text.slice(-1);
  if (rank === "X") return `${suit === "R" ? "red" : "black"} joker`;
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit] || suit}`;
}

// A card drawn from its notation (RULES.md): 10H, JD, 7S; jokers XR, XB. The suit shows as its symbol in each
// corner (never by colour alone); `tag` makes it a button where it can be played.
function cardEl(text, size = "", tag = "span") {
  const rank = text.slice(0, -1), suit = text.slice(-1);
  const joker = rank === "X";
  const red = joker ? suit === "R" : RED_SUITS.has(suit);
  const pip = joker ? "\u2605" : (SUIT_PIPS[suit] || suit);
  return el(tag, { class: `card ${red ? "red" : "black"} suit-${suit} ${size}`.trim(), "data-card": text, title: cardName(text),
    "aria-label": cardName(text), role: tag === "span" ? "img" : null },
  el("span", { class: "rank", text: joker ? "J\u2605" : rank, "aria-hidden": "true" }),
  el("span", { class: "pip", text: pip, "aria-hidden": "true" }));
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

// ------------------------------------------------------------------ a card flying across the table (table, replay)

function centreOf(node) {
  const box = node.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

async function fly(node, from, to, ms) {
  if (!from || !to) return;
  node.classList.add("flying");
  document.body.append(node);
  const start = centreOf(from), end = centreOf(to);
  node.style.left = `${start.x}px`;
  node.style.top = `${start.y}px`;
  const animation = node.animate([{ transform: "translate(-50%, -50%) scale(.8)" },
    { transform: `translate(calc(${end.x - start.x}px - 50%), calc(${end.y - start.y}px - 50%)) scale(1)` }],
  { duration: ms, easing: "ease-in-out", fill: "forwards" });
  await animation.finished.catch(() => null);
  node.remove();
}

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

function query(name) { return new URLSearchParams(location.search).get(name); }
