// The table: the seat's state from /api/seats/TOKEN (only what this seat may know), long-polled; moves posted back.
"use strict";

const token = location.pathname.split("/").pop();
let state = null;
let version = -1;
let sending = false;
let focus = null;  // a card of the hand whose moves are shown alone

function render() {
  const s = state;
  const title = `${s.ruleset.name} \u00b7 ${s.level}` + (s.table ? ` \u00b7 round ${s.table.round}` : "");
  document.getElementById("title").textContent = title;
  document.title = `maumau: ${title}`;
  const invite = document.getElementById("invite");
  invite.classList.toggle("hidden", !s.join);
  if (s.join) {
    const link = document.getElementById("invite-link");
    link.href = s.join;
    link.textContent = new URL(s.join, location.href).href;
  }
  document.getElementById("leave").disabled = ["left", "eliminated", "forfeit"].includes(s.seat_status) ||
    ["over", "stopped", "failed"].includes(s.status) || s.leaving;
  showError("error", s.error || null);
  renderWaiting(s);
  renderTable(s);
  renderReport(s);
  renderResult(s);
  renderSince(s);
  renderScores(s);
}

function renderWaiting(s) {
  const box = document.getElementById("waiting");
  let text = "";
  if (s.seat_status === "waiting") text = "You join this match with the lowest total when the next round starts.";
  else if (s.leaving) text = "You leave the match when this round ends; until then your turns are played at random.";
  else if (s.seat_status === "left") text = "You left the match.";
  else if (s.seat_status === "eliminated") text = "You are out of the match: your total passed the limit. The others play on.";
  else if (s.status === "stopped") text = "This game was stopped.";
  box.classList.toggle("hidden", !text);
  box.textContent = text;
}

function renderTable(s) {
  const felt = document.getElementById("felt"), t = s.table;
  felt.classList.toggle("hidden", !t);
  if (!t) {
    for (const id of ["seats", "top", "hand", "moves", "prompt"]) clear(document.getElementById(id));
    return;
  }
  clear(document.getElementById("seats"), t.seats.filter((seat) => seat.seat !== s.you).map((seat) => el("div", {
    class: `seat${seat.seat === t.to_act ? " to-act" : ""}${seat.in_round ? "" : " gone"}`, "data-testid": `seat-${seat.seat}`,
  }, el("div", { class: "name", text: seat.name }),
     el("div", { class: "backs" }, Array.from({ length: Math.min(seat.cards, 12) }, () => backEl("tiny"))),
     el("div", { text: `${seat.cards} card${seat.cards === 1 ? "" : "s"} \u00b7 total ${seat.total}` }),
     seat.place ? el("div", { class: "muted", text: `out, in place ${seat.place}` }) : null,
     seat.shown.length ? el("div", { class: "shown", "data-testid": `shown-${seat.seat}` },
       "showed ", seat.shown.map((card) => cardEl(card, "tiny"))) : null)));
  clear(document.getElementById("top"), cardEl(t.top));
  document.getElementById("pile-info").textContent = `pile ${t.pile}`;
  const badges = [el("span", { class: `badge suit-${t.suit}`, "data-testid": "suit", text: `suit to follow: ${suitText(t.suit, t.suit_name)}` })];
  if (t.pending) badges.push(el("span", { class: "badge warn", "data-testid": "pending", text: `penalty waiting: ${t.pending}` }));
  for (const note of t.notes) badges.push(el("span", { class: "badge warn", "data-testid": "note", text: note }));
  if (t.to_act !== null && t.to_act !== s.you && s.players[t.to_act]) {
    badges.push(el("span", { class: "badge", text: `${s.players[t.to_act].name} to play` }));
  }
  clear(document.getElementById("state-badges"), el("div", {}, badges));
  clear(document.getElementById("stock-card"), backEl());
  document.getElementById("stock-info").textContent = `stock ${t.stock}`;
  document.getElementById("prompt").textContent = s.moves.length ? (s.prompt || "Your move") : "";
  const firsts = new Map();
  s.moves.forEach((move, index) => {
    if (move.cards.length) firsts.set(move.cards[0], [...(firsts.get(move.cards[0]) || []), index]);
  });
  const me = t.seats.find((seat) => seat.seat === s.you);
  clear(document.getElementById("hand"), t.hand.map((card) => {
    const node = cardEl(card);
    const moves = firsts.get(card);
    if (moves) {
      node.classList.add("playable");
      if (focus === card) node.classList.add("chosen");
      node.addEventListener("click", () => (moves.length === 1 ? send(moves[0]) : showMovesOf(card)));
    }
    return node;
  }), me ? el("div", { class: "muted", text: `your total ${me.total}` }) : null);
  const shown = s.moves.map((move, index) => [move, index]).filter(([move]) => !focus || move.cards[0] === focus);
  clear(document.getElementById("moves"), shown.map(([move, index]) => el("button", {
    "data-testid": "move", "data-kind": move.kind, "data-cards": move.cards.join(" "), disabled: sending,
    onclick: () => send(index),
  }, move.cards.map((card) => cardEl(card, "tiny")), move.text)),
  focus ? el("button", { onclick: () => { focus = null; render(); }, text: "all moves" }) : null);
}

function showMovesOf(card) {
  focus = card;
  render();
}

function renderReport(s) {
  const box = document.getElementById("report"), r = s.report;
  box.classList.toggle("hidden", !r);
  if (!r) { clear(box); return; }
  const head = r.winner === null ? `Round ${r.round} is blocked: every hand counts`
    : `Round ${r.round}: ${r.winner_name} ${r.winner_name === "you" ? "go" : "went"} out` + (r.card ? " with " : "");
  const rows = r.hands.map((hand) => el("tr", {},
    el("td", { text: hand.name }), el("td", {}, hand.cards.length ? hand.cards.map((c) => cardEl(c, "small")) : "-"),
    el("td", { class: "num", text: hand.points })));
  const parts = [el("h2", {}, head, r.card ? cardEl(r.card, "small") : null),
    r.deciding ? el("p", { class: "muted", text: "A deciding round: its points are not added." }) : null,
    el("table", { class: "grid" }, el("tr", {}, el("th", { text: "hand left" }), el("th", { text: "cards" }),
      el("th", { class: "num", text: "points" })), rows)];
  if (s.status === "between") {
    if (!s.ready) {
      parts.push(el("p", {}, el("button", { class: "primary", "data-testid": "next-round", onclick: nextRound,
        text: `Next round (${s.next_round})` })));
    } else if (s.waiting_for.length) {
      parts.push(el("p", { class: "muted", text: `waiting for ${s.waiting_for.join(", ")} to start the next round` }));
    }
  }
  clear(box, parts);
}

function renderResult(s) {
  const box = document.getElementById("result"), r = s.result;
  box.classList.toggle("hidden", !r);
  if (!r) { clear(box); return; }
  clear(box, el("h2", { text: "The match is over" }),
    el("p", { class: "winner", "data-testid": "winner", text: r.you_won ? "You win!" : `Winner: ${r.winners.join(" and ")}` }),
    el("p", { text: `Ranking: ${r.ranking.join(", ")}` }),
    el("p", {}, el("a", { href: `/replay?seat=${encodeURIComponent(token)}`, "data-testid": "replay-link", text: "Replay this match, every hand face up" }),
      " \u00b7 ", el("a", { href: `/api/seats/${encodeURIComponent(token)}/log`, text: "Download its game log" }),
      " \u00b7 ", el("a", { href: "/", text: "New game" })));
}

function renderSince(s) {
  const box = document.getElementById("since");
  clear(box, s.since.map((line) => el("div", { text: line.text })));
  box.scrollTop = box.scrollHeight;
}

function renderScores(s) {
  const sc = s.scores, struck = new Set(sc.struck), out = new Set(sc.out);
  const head = el("tr", {}, el("th", { text: "player" }), sc.rounds.map((r) => el("th", { class: "num", text: `R${r.round}` })),
    el("th", { class: "num", text: "total" }));
  const rows = sc.names.map((name, seat) => el("tr", { class: struck.has(seat) ? "struck" : null, "data-testid": `score-${seat}` },
    el("td", { text: name + (out.has(seat) ? " (out)" : "") }),
    sc.rounds.map((r) => el("td", { class: "num", text: r.points[seat] === undefined ? "" : r.points[seat] })),
    el("td", { class: "num", text: sc.totals[seat] })));
  clear(document.getElementById("scores"), el("table", { class: "grid" }, head, rows));
}

async function post(path, body = {}) {
  sending = true;
  try {
    await api(path, { json: body });
    showError("error", null);
  } catch (error) {
    showError("error", error);
  } finally {
    sending = false;
    if (state) render();  // moves that came while it was sent were shown disabled
  }
}

async function send(index) {
  if (sending || !state) return;
  focus = null;
  const turn = state.turn;
  state.moves = [];
  render();
  await post(`/api/seats/${token}/move`, { turn, move: index });
}

async function nextRound() { await post(`/api/seats/${token}/next`); }

async function leave() {
  if (!confirm("Leave this match?")) return;
  await post(`/api/seats/${token}/leave`);
}

async function poll() {
  for (;;) {
    try {
      const next = await api(version < 0 ? `/api/seats/${token}` : `/api/seats/${token}?after=${version}`);
      if (next.version !== version || !state) {
        version = next.version;
        if (!next.moves.length || !state || next.turn !== state.turn) focus = null;
        state = next;
        render();
      }
      if (["over", "stopped", "failed"].includes(state.status)) return;
      if (!state.moves.length) await sleep(120);  // others are playing: let a few of their moves come together
    } catch (error) {
      showError("error", error);
      if (error.status === 404) return;
      await sleep(2000);
    }
  }
}

document.getElementById("leave").addEventListener("click", leave);
poll();
