// The replay viewer: frames of a game log (every hand face up) from a tournament match, a log file or an upload.
"use strict";

let replay = null;  // {players, frames}
let states = [];  // the whole table after each frame (frames carry only what changed)
let at = 0;
let playing = false;
let stepping = false;  // a step's animation is under way
let waiting = 0;  // steps asked for meanwhile: taken at once, without their animation, when it ends
const speedBox = document.getElementById("speed");
speedBox.value = localStorage.getItem("maumau-speed") ?? "420";
if (!speedBox.value) speedBox.value = "420";
speedBox.addEventListener("change", () => localStorage.setItem("maumau-speed", speedBox.value));

function load(data, title, names = null) {
  replay = names ? { ...data, players: data.players.map((name, seat) => names[seat] || name) } : data;
  states = [];
  let state = {};
  for (const frame of data.frames) {
    state = { ...state, ...frame };
    states.push(state);
  }
  document.getElementById("title").textContent = title;
  document.getElementById("open").classList.add("hidden");
  document.getElementById("viewer").classList.remove("hidden");
  const position = document.getElementById("position");
  position.max = states.length - 1;
  clear(document.getElementById("events"), data.frames.map((frame, index) =>
    el("div", { "data-index": index, text: frame.text, onclick: () => go(index) })));
  go(0);
}

function name(seat) { return replay.players[seat] || `seat ${seat}`; }

function go(index) {
  at = Math.max(0, Math.min(index, states.length - 1));
  const s = states[at];
  document.getElementById("position").value = at;
  document.getElementById("counter").textContent = `event ${at + 1} of ${states.length}` + (s.round ? ` \u00b7 round ${s.round}` : "");
  document.getElementById("event").textContent = s.text;
  clear(document.getElementById("top"), s.top ? cardEl(s.top) : null);
  document.getElementById("pile-info").textContent = `pile ${s.pile || 0}`;
  clear(document.getElementById("stock-card"), backEl());
  document.getElementById("stock-info").textContent = `stock ${s.stock || 0}`;
  clear(document.getElementById("badges"), s.suit ? el("span", { class: `badge suit-${s.suit}`, text: `suit: ${suitText(s.suit)}` }) : null);
  const gone = s.gone || {}, out = new Set(s.out || []);
  clear(document.getElementById("hands"), (s.hands || []).map((hand, seat) => el("div", {
    class: `replay-seat${s.seat === seat ? " acting" : ""}`, "data-testid": `hand-${seat}`,
  }, el("div", { class: "name", text: `${name(seat)} \u00b7 total ${(s.totals || [])[seat] ?? 0}` +
      (gone[seat] ? ` \u00b7 ${gone[seat]}` : out.has(seat) ? " \u00b7 out of the round" : "") }),
     el("div", {}, hand.map((card) => cardEl(card, "small"))))));
  const list = document.getElementById("events");
  for (const node of list.querySelectorAll(".current")) node.classList.remove("current");
  const current = list.children[at];
  if (current) {
    current.classList.add("current");
    current.scrollIntoView({ block: "nearest" });
  }
}

function roundStart(from, step) {
  for (let i = from + step; i >= 0 && i < states.length; i += step) {
    if (replay.frames[i].type === "round_start") return i;
  }
  return step > 0 ? states.length - 1 : 0;
}

// One event forward, shown as at the table: the card played flies from its hand to the pile, the cards drawn from
// the stock to the hand; then the table after it.
async function step() {
  if (!replay || at >= states.length - 1) return;
  if (stepping) { waiting += 1; return; }
  stepping = true;
  try {
    const to = at + 1, before = states[at], after = states[to], frame = replay.frames[to];
    const ms = Number(speedBox.value) || 0;
    const hand = frame.seat === null || frame.seat === undefined ? null : document.querySelector(`[data-testid=hand-${frame.seat}]`);
    if (ms && hand && frame.type === "play" && after.top) {
      await fly(cardEl(after.top), hand, document.getElementById("top"), ms);
    } else if (ms && hand && frame.type === "draw") {
      const drawn = ((after.hands || [])[frame.seat] || []).length - ((before.hands || [])[frame.seat] || []).length;
      const flights = [];
      for (let i = 0; i < Math.min(Math.max(drawn, 1), 5); i += 1) {
        flights.push(sleep(i * ms / 5).then(() => fly(backEl(), document.getElementById("stock-card"), hand, ms)));
      }
      await Promise.all(flights);
    }
    go(to + waiting);
  } finally {
    stepping = false;
    waiting = 0;
  }
}

async function togglePlay() {
  const button = document.getElementById("play");
  if (playing) {
    playing = false;
    button.textContent = "play";
    return;
  }
  playing = true;
  button.textContent = "pause";
  while (playing && at < states.length - 1) {
    await step();
    await sleep(Math.max(120, (Number(speedBox.value) || 0) / 2));
  }
  playing = false;
  button.textContent = "play";
}

async function open() {
  const t = query("t"), m = query("m"), log = query("log"), seat = query("seat");
  if (inSite()) {
    if (!m) throw new Error("give the match: replay.html?m=ID (the report's index lists them)");
    const data = await api(`/api/replay?t=.&m=${encodeURIComponent(m)}`);
    load(data, `${m} of ${window.maumauTournament.name}` + (data.replayed ? " (re-played from its seed: no stored log)" : ""));
  } else if (t && m) {
    const data = await api(`/api/replay?t=${encodeURIComponent(t)}&m=${encodeURIComponent(m)}`);
    load(data, `${m} of ${t}` + (data.replayed ? " (re-played from its seed: no stored log)" : ""));
  } else if (log) {
    load(await api(`/api/logs/replay?path=${encodeURIComponent(log)}`), log);
  } else if (seat) {
    const response = await fetch(`/api/seats/${encodeURIComponent(seat)}/log`);
    if (!response.ok) throw new Error((await response.json()).error);
    const bytes = await response.arrayBuffer();
    const names = (await api(`/api/seats/${encodeURIComponent(seat)}`)).scores.names;  // as the score list named them
    load(await api("/api/logs/upload?name=this%20game", { bytes }), "the game you played", names);
  }
}

document.getElementById("log-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const data = await api(`/api/logs/upload?name=${encodeURIComponent(file.name)}`, { bytes: await file.arrayBuffer() });
    load(data, file.name);
    showError("error", null);
  } catch (error) {
    showError("error", error);
  }
});
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("last").addEventListener("click", () => go(states.length - 1));
document.getElementById("prev").addEventListener("click", () => go(at - 1));
document.getElementById("next").addEventListener("click", step);
document.getElementById("prev-round").addEventListener("click", () => go(roundStart(at, -1)));
document.getElementById("next-round").addEventListener("click", () => go(roundStart(at, 1)));
document.getElementById("play").addEventListener("click", togglePlay);
document.getElementById("position").addEventListener("input", (event) => go(Number(event.target.value)));
document.addEventListener("keydown", (event) => {
  if (!replay) return;
  if (event.target.closest && event.target.closest("input, select")) return;
  if (event.key === "ArrowRight") step();
  else if (event.key === "ArrowLeft") go(at - 1);
});
open().catch((error) => showError("error", error));
