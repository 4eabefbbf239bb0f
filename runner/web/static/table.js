// The table: the seat's state from /api/seats/TOKEN (only what this seat may know), long-polled; moves posted back.
// Moves are made on the cards: a raised card is played by tapping it, the stock draws; several cards are chosen in
// order, then played with one button; a wild card's suit or rank is chosen on a picker at the card. The others'
// moves (the state's `acts`) are shown one by one, a card flying to the pile or from the stock, at the speed set.
"use strict";

const token = location.pathname.split("/").pop();
let state = null;       // the state shown
let version = -1;
let sending = false;
let chosen = [];        // cards chosen so far for a play of several, in play order
let call = null;        // the announcement to make with the next play ("mau", ...), where the ruleset has them
let picking = null;     // {cards, moves}: the moves of a play that differ by the suit or rank named
let lastAct = -1;       // the number of the last act shown (animated or not)
let keyboard = false;   // the person plays with the keyboard: the first legal card takes the focus

const speedBox = document.getElementById("speed");
speedBox.value = localStorage.getItem("maumau-speed") ?? "420";
if (!speedBox.value) speedBox.value = "420";
speedBox.addEventListener("change", () => localStorage.setItem("maumau-speed", speedBox.value));
function speed() { return Number(speedBox.value) || 0; }

// ------------------------------------------------------------------ the moves, grouped by the cards they put down

function same(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }
function startsWith(cards, prefix) { return prefix.length <= cards.length && prefix.every((x, i) => x === cards[i]); }

function indexed(s) { return s.moves.map((move, index) => ({ ...move, index })); }

// The moves the current call allows: those with the call chosen, or, for cards with no move of that call, any.
function withCall(moves) {
  const fit = moves.filter((m) => (m.announce || null) === call);
  return fit.length ? fit : moves.filter((m) => !m.announce).length ? moves.filter((m) => !m.announce) : moves;
}

function cardMoves(s) { return indexed(s).filter((m) => m.cards.length); }

// The cards that may come next after `chosen`, and whether `chosen` is itself a whole play.
function nextCards(s) {
  const moves = cardMoves(s).filter((m) => m.cards.length && startsWith(m.cards, chosen));
  const next = new Set(moves.filter((m) => m.cards.length > chosen.length).map((m) => m.cards[chosen.length]));
  const whole = chosen.length ? moves.filter((m) => same(m.cards, chosen)) : [];
  return { next, whole };
}

function stockMove(s) { return indexed(s).find((m) => m.kind === "draw"); }
function otherMoves(s) { return indexed(s).filter((m) => !m.cards.length && m.kind !== "draw" && m.kind !== "namesuit"); }

// Play `moves` (all of the same cards): at once if one fits the call, else the picker of suits or ranks.
function playOf(cards, moves) {
  const fitting = withCall(moves);
  if (fitting.length === 1) { send(fitting[0].index); return; }
  picking = { cards, moves: fitting };
  render();
}

function tapCard(card) {
  if (sending || !state || !state.moves.length) return;
  const at = chosen.indexOf(card);
  if (at >= 0) {  // a chosen card tapped again: it and those after it are put back
    chosen = chosen.slice(0, at);
    picking = null;
    render();
    return;
  }
  const { next } = nextCards(state);
  if (!next.has(card)) return;
  chosen = [...chosen, card];
  const { next: further, whole } = nextCards(state);
  // a card that cannot be followed by more is played at once; a play of several waits for its Play button
  if (chosen.length === 1 && !further.size && whole.length) { playOf(chosen, whole); return; }
  picking = null;
  render();
}

function tapStock() {
  if (sending || !state) return;
  const move = stockMove(state);
  if (move) send(move.index);
}

// ------------------------------------------------------------------ render

function render() {
  const s = state;
  const title = `${s.ruleset.name} \u00b7 ${s.level}` + (s.table ? ` \u00b7 round ${s.table.round}` : "");
  document.getElementById("title").textContent = title;
  document.title = `maumau: ${title}`;
  document.getElementById("invite").classList.toggle("hidden", !s.join);
  if (!s.join) document.getElementById("invite-text").classList.add("hidden");
  else {
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

// Per seat, what its last act says at the table: a call ("Mau!") or that it was skipped; until it acts again.
function seatMarks(s) {
  const marks = new Map();
  for (const act of s.acts || []) {
    if (act.seat === null || act.seat === undefined) continue;
    if (act.type === "play" && act.announce) marks.set(act.seat, { kind: "call", text: `${callWord(act.announce)}!` });
    else if (act.type === "skip") marks.set(act.seat, { kind: "skipped", text: "skipped" });
    else marks.set(act.seat, null);
  }
  return marks;
}

function callWord(announce) { return announce === "maumau" ? "Mau Mau" : announce === "mau" ? "Mau" : announce; }

// The other seats in the order play reaches them from yours (clockwise: the next seat number).
function othersInOrder(s, t) {
  const n = t.seats.length, me = s.you ?? 0, dir = t.direction < 0 ? -1 : 1;
  const order = [];
  for (let i = 1; i < n; i += 1) order.push(t.seats[(((me + dir * i) % n) + n) % n]);
  return order;
}

function renderTable(s) {
  const felt = document.getElementById("felt"), t = s.table;
  felt.classList.toggle("hidden", !t);
  if (!t) {
    for (const id of ["seats", "top", "hand", "actions", "prompt", "moves"]) clear(document.getElementById(id));
    document.getElementById("picker").classList.add("hidden");
    return;
  }
  const marks = seatMarks(s);
  clear(document.getElementById("seats"), othersInOrder(s, t).map((seat) => {
    const mark = marks.get(seat.seat);
    const toAct = seat.seat === t.to_act;
    return el("div", {
      class: `seat${toAct ? " to-act" : ""}${seat.in_round ? "" : " gone"}`, "data-testid": `seat-${seat.seat}`,
      "data-seat": seat.seat, "aria-label": `${seat.name}, ${plural(seat.cards, "card")}, total ${seat.total}` +
        (toAct ? ", to play" : ""),
    }, el("div", { class: "name", text: seat.name }),
    el("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: Math.min(seat.cards, 8) }, () => backEl("tiny")),
      el("span", { class: "count", "data-testid": `count-${seat.seat}`, text: seat.cards })),
    el("div", { class: "sub", text: seat.place ? `out, place ${seat.place}` : `total ${seat.total}` }),
    mark ? el("div", { class: `bubble ${mark.kind}`, "data-testid": `${mark.kind}-${seat.seat}`, text: mark.text }) : null,
    toAct ? el("div", { class: "turn-dot", "aria-hidden": "true" }) : null,
    seat.shown.length ? el("div", { class: "shown", "data-testid": `shown-${seat.seat}` },
      "showed ", seat.shown.map((card) => cardEl(card, "tiny"))) : null);
  }));
  const dir = document.getElementById("direction");
  const clockwise = t.direction >= 0;
  if (dir.dataset.direction && dir.dataset.direction !== String(t.direction)) {
    dir.classList.remove("flip");
    void dir.offsetWidth;  // restart the animation
    dir.classList.add("flip");
  }
  dir.dataset.direction = String(t.direction);
  dir.textContent = clockwise ? "\u21bb" : "\u21ba";
  const after = othersInOrder(s, t)[0];
  document.getElementById("direction-text").textContent = `${clockwise ? "" : "reversed \u00b7 "}after you: ${after ? after.name : ""}`;
  dir.setAttribute("aria-label", `play goes ${clockwise ? "clockwise" : "anticlockwise"}`);
  dir.title = `play goes ${clockwise ? "clockwise" : "anticlockwise (reversed)"}; the seats above are in the order they play`;
  clear(document.getElementById("top"), cardEl(t.top));
  document.getElementById("top").setAttribute("aria-label", `top of the pile: ${cardName(t.top)}`);
  document.getElementById("pile-info").textContent = `pile ${t.pile}`;
  const wished = t.top && t.suit && !t.top.startsWith("X") && t.top.slice(-1) !== t.suit;
  const wish = document.getElementById("wish");
  wish.className = `wish suit-${t.suit}${t.suit && wished ? "" : " hidden"}`;
  wish.textContent = SUIT_PIPS[t.suit] || "";
  wish.setAttribute("aria-label", `wished suit: ${t.suit_name}`);
  wish.title = `suit to follow: ${t.suit_name}`;
  const pending = document.getElementById("pending");
  pending.classList.toggle("hidden", !t.pending);
  pending.textContent = t.pending ? `+${t.pending}` : "";
  pending.title = t.pending ? `a draw penalty of ${t.pending} is waiting` : "";
  const badges = [el("span", { class: `badge suit-${t.suit}`, "data-testid": "suit", text: `suit to follow: ${suitText(t.suit, t.suit_name)}` })];
  if (t.pending) badges.push(el("span", { class: "badge warn", "data-testid": "pending-badge", text: `penalty waiting: ${t.pending}` }));
  for (const note of t.notes) badges.push(el("span", { class: "badge warn", "data-testid": "note", text: note }));
  clear(document.getElementById("state-badges"), badges);

  const myTurn = s.moves.length > 0 && !sending;
  const draw = myTurn ? stockMove(s) : null;
  const stock = document.getElementById("stock");
  clear(document.getElementById("stock-card"), backEl());
  document.getElementById("stock-info").textContent = draw ? (t.pending ? `take ${t.pending}` : "draw") : `stock ${t.stock}`;
  stock.disabled = !draw;
  stock.classList.toggle("playable", !!draw);
  stock.setAttribute("aria-label", `stock, ${plural(t.stock, "card")}` + (draw ? `: ${draw.text}` : ""));
  stock.dataset.move = draw ? draw.index : "";

  const me = t.seats.find((seat) => seat.seat === s.you);
  const myMark = marks.get(s.you);
  document.getElementById("mine").textContent = (me ? `you \u00b7 ${plural(t.hand.length, "card")} \u00b7 total ${me.total}` : "") +
    (myMark && myMark.kind === "call" ? ` \u00b7 you called ${myMark.text}` : "");
  felt.classList.toggle("my-turn", myTurn);
  document.getElementById("prompt").textContent = myTurn ? (s.prompt || "Your move: tap a raised card or the stock")
    : t.to_act !== null && s.players[t.to_act] && t.to_act !== s.you ? `${s.players[t.to_act].name} to play` : "";

  const { next, whole } = myTurn ? nextCards(s) : { next: new Set(), whole: [] };
  const chosenSet = new Set(chosen);
  clear(document.getElementById("hand"), t.hand.map((card) => {
    const order = chosen.indexOf(card);
    const legal = next.has(card) || chosenSet.has(card);
    const node = cardEl(card, "", "button");
    node.type = "button";
    node.classList.add(legal ? "playable" : "dimmed");
    if (order >= 0) node.classList.add("chosen");
    node.disabled = !legal;
    node.setAttribute("data-testid", "card");
    node.setAttribute("aria-label", cardName(card) + (order >= 0 ? `, chosen ${order + 1}` : legal ? ", playable" : ""));
    if (order >= 0) node.append(el("span", { class: "order", text: order + 1, "aria-hidden": "true" }));
    node.addEventListener("click", () => tapCard(card));
    return node;
  }));

  const actions = [];
  if (myTurn) {
    const calls = [...new Set(s.moves.map((m) => m.announce || null))];
    const said = calls.filter((c) => c);
    if (calls.length === 1 && said.length) {  // the engine's plays carry the call due: it is made with the card
      actions.push(el("span", { class: "call-note", "data-testid": "call-note", "data-call": said[0],
        text: `your card says \u201c${callWord(said[0])}!\u201d` }));
    }
    if (calls.length > 1) {
      for (const word of calls.filter((c) => c)) {
        actions.push(el("button", { class: `call${call === word ? " on" : ""}`, "data-testid": "call", "data-call": word,
          "aria-pressed": call === word ? "true" : "false", onclick: () => { call = call === word ? null : word; render(); },
          text: `Say \u201c${callWord(word)}\u201d` }));
      }
    }
    if (chosen.length) {
      if (whole.length && !picking) {
        actions.push(el("button", { class: "primary", "data-testid": "play-chosen", onclick: () => playOf(chosen, whole),
          text: `Play ${chosen.length === 1 ? "it" : `these ${chosen.length}`}` }));
      }
      actions.push(el("button", { "data-testid": "unchoose", onclick: () => { chosen = []; picking = null; render(); }, text: "Put back" }));
    }
    const suits = indexed(s).filter((m) => m.kind === "namesuit");
    if (suits.length) picking = { cards: [], moves: suits };
    for (const move of otherMoves(s)) {
      actions.push(el("button", { class: move.kind === "pass" ? "keep" : "", "data-testid": `action-${move.kind}`,
        "data-kind": move.kind, onclick: () => send(move.index), text: capital(move.text) }));
    }
  }
  clear(document.getElementById("actions"), actions);
  renderPicker(myTurn);

  clear(document.getElementById("moves"), indexed(s).map((move) => el("button", {
    "data-testid": "move", "data-kind": move.kind, "data-cards": move.cards.join(" "), disabled: sending,
    onclick: () => send(move.index),
  }, move.cards.map((card) => cardEl(card, "tiny")), move.text)));
  if (myTurn && keyboard) focusFirst();
}

function renderPicker(myTurn) {
  const box = document.getElementById("picker");
  if (!myTurn || !picking) { box.classList.add("hidden"); clear(box); return; }
  const options = picking.moves.map((m) => {
    const label = m.suit ? suitText(m.suit) : m.rank ? `${m.rank}` : m.text;
    return el("button", { class: `pick${m.suit ? ` suit-${m.suit}` : ""}`, "data-testid": "pick", "data-suit": m.suit || "",
      "data-rank": m.rank || "", "aria-label": m.text, title: m.text, onclick: () => send(m.index) },
    m.suit ? el("span", { class: "big", text: SUIT_PIPS[m.suit] || m.suit }) : null,
    el("span", { text: m.suit ? SUIT_NAMES[m.suit] || m.suit : label }));
  });
  const shown = picking.cards.map((card) => card.slice(0, -1) + (SUIT_PIPS[card.slice(-1)] || card.slice(-1))).join(" ");
  const head = picking.cards.length ? `${picking.moves[0].rank ? "Wish a rank" : "Name a suit"} with ${shown}`
    : "Name the suit to follow";
  clear(box, el("div", { class: "picker-head", text: head }), el("div", { class: "options" }, options),
    picking.cards.length ? el("button", { class: "cancel", "data-testid": "pick-cancel", "aria-label": "cancel",
      onclick: () => { picking = null; chosen = []; render(); }, text: "\u2715" }) : null);
  box.classList.remove("hidden");
  const anchor = document.querySelector(`#hand [data-card="${CSS.escape(picking.cards[picking.cards.length - 1] || "")}"]`);
  box.style.left = "";
  if (anchor) {  // above the card it names, kept inside the hand's width
    const wrap = box.parentElement.getBoundingClientRect(), at = anchor.getBoundingClientRect();
    const width = box.getBoundingClientRect().width;
    box.style.left = `${Math.max(0, Math.min(at.left - wrap.left + at.width / 2 - width / 2, wrap.width - width))}px`;
  }
  if (keyboard) box.querySelector("button").focus();
}

function capital(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }
function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

// ------------------------------------------------------------------ keyboard: arrows move among what may be done

function controls() {
  return [...document.querySelectorAll("#picker:not(.hidden) button, #stock:enabled, #hand button:enabled, #actions button:enabled")];
}

function focusFirst() {
  if (controls().includes(document.activeElement)) return;
  const first = document.querySelector("#picker:not(.hidden) button, #hand button.playable:enabled, #stock:enabled, #actions button");
  if (first) first.focus();
}

document.addEventListener("keydown", (event) => {
  if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", " ", "Tab"].includes(event.key)) keyboard = true;
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
  if (event.target.closest && event.target.closest("select, input, textarea")) return;
  const all = controls();
  if (!all.length) return;
  event.preventDefault();
  const at = all.indexOf(document.activeElement);
  const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
  all[at < 0 ? 0 : (at + step + all.length) % all.length].focus();
});
document.addEventListener("pointerdown", () => { keyboard = false; });

// ------------------------------------------------------------------ the others' moves, one by one

function seatNode(seat) {
  return seat === state.you ? document.getElementById("hand") : document.querySelector(`#seats [data-seat="${seat}"]`);
}

// Show `act` on the table as it was before it: the card to the pile, or cards from the stock to a hand.
async function showAct(act, ms) {
  const seats = document.getElementById("seats");
  for (const node of seats.querySelectorAll(".seat")) node.classList.toggle("to-act", Number(node.dataset.seat) === act.seat);
  const from = seatNode(act.seat);
  if (act.type === "play") {
    const mine = act.seat === state.you ? document.querySelector(`#hand [data-card="${CSS.escape(act.cards[0])}"]`) : null;
    for (const card of act.cards) {
      await fly(cardEl(card), mine || from, document.getElementById("top"), ms);
      clear(document.getElementById("top"), cardEl(card));
      const count = document.querySelector(`[data-testid="count-${act.seat}"]`);
      if (count) count.textContent = Math.max(0, Number(count.textContent) - 1);
    }
    if (act.announce && from && act.seat !== state.you) {
      from.append(el("div", { class: "bubble call", text: `${callWord(act.announce)}!` }));
    }
  } else if (act.type === "draw") {
    const flights = [];
    for (let i = 0; i < Math.min(act.count, 5); i += 1) {
      flights.push(sleep(i * ms / 5).then(() => fly(backEl(), document.getElementById("stock"), from, ms)));
    }
    await Promise.all(flights);
    const count = document.querySelector(`[data-testid="count-${act.seat}"]`);
    if (count) count.textContent = Number(count.textContent) + act.count;
  } else if (act.type === "skip" && from) {
    from.append(el("div", { class: "bubble skipped", text: "skipped" }));
    await sleep(ms);
  } else {
    await sleep(ms / 2);
  }
}

async function show(next) {
  const acts = (next.acts || []).filter((act) => act.n > lastAct);
  const ms = speed();
  const visible = state && state.table && next.table && state.table.round === next.table.round && lastAct >= 0;
  if (ms > 0 && visible && !document.hidden) {
    for (const act of acts) {
      if (act.type === "round_start" || act.type === "reshuffle") continue;
      if (act.seat === state.you && act.type === "play" && acts.length === 1) continue;  // the person's own tap
      await showAct(act, ms);
    }
  }
  if (acts.length) lastAct = acts[acts.length - 1].n;
  else if (next.acts && next.acts.length) lastAct = Math.max(lastAct, next.acts[next.acts.length - 1].n);
  if (!next.moves.length || !state || next.turn !== state.turn) { chosen = []; picking = null; }
  state = next;
  render();
}

// ------------------------------------------------------------------ the rest of the page

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
    el("div", { class: "scroll-x" }, el("table", { class: "grid" }, el("tr", {}, el("th", { text: "hand left" }), el("th", { text: "cards" }),
      el("th", { class: "num", text: "points" })), rows))];
  if (s.status === "between") {
    if (!s.ready) {
      const button = el("button", { class: "primary big", "data-testid": "next-round", onclick: nextRound,
        text: `Next round (${s.next_round})` });
      parts.splice(1, 0, el("p", {}, button));
      if (keyboard) setTimeout(() => button.focus(), 0);
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
  const last = s.since[s.since.length - 1];
  document.getElementById("told").textContent = last ? last.text.trim() : "";
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
  const turn = state.turn;
  chosen = [];
  picking = null;
  call = null;
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
        await show(next);
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
document.getElementById("stock").addEventListener("click", tapStock);
document.getElementById("invite").addEventListener("click", async () => {
  const box = document.getElementById("invite-text");
  box.classList.toggle("hidden");
  try { await navigator.clipboard.writeText(document.getElementById("invite-link").href); } catch (e) { /* shown instead */ }
});
poll();
