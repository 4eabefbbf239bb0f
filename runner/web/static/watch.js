// Watching results: the tournaments under --results, one tournament's standings (refreshed while it runs) and matches.
"use strict";

const tournament = inSite() ? "." : query("t");
const seenProgress = [];  // [time, matches stored] as this page saw them: the pace that gives the time left
const COLOURS = ["#1b4f8a", "#c8102e", "#1f6b3a", "#b86e00", "#6b21a8", "#0e7490", "#9d174d", "#4d5b14"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "3 6"];
const PAGE = 100;
let shownMatches = 0;
let storedBefore = -1;
let listGeneration = 0;  // the match list's requests answer in any order: one for filters changed since is dropped

function fmt(number, digits = 3) { return typeof number === "number" ? number.toFixed(digits) : number; }

async function listing() {
  document.getElementById("listing").classList.remove("hidden");
  const { tournaments } = await api("/api/tournaments");
  clear(document.getElementById("tournaments"), tournaments.length ? el("table", { class: "grid" },
    el("tr", {}, ["tournament", "ruleset", "entrants", "matches", "state"].map((h) => el("th", { text: h }))),
    tournaments.map((t) => el("tr", {},
      el("td", {}, el("a", { href: `/watch?t=${encodeURIComponent(t.name)}`, text: t.name })),
      el("td", { text: t.ruleset || "" }), el("td", { text: (t.entrants || []).join(", ") }),
      el("td", { class: "num", text: t.error ? "" : `${t.stored} of ${t.planned}` }),
      el("td", { class: t.error ? "error" : "", text: t.error ? t.error : (t.finished ? "finished" : "running or interrupted") }))))
    : el("p", { class: "muted", text: "No tournament in the results directory yet." }));
  const { logs } = await api("/api/logs");
  clear(document.getElementById("logs"), logs.length ? el("ul", {}, logs.map((path) => el("li", {},
    el("a", { href: `/replay?log=${encodeURIComponent(path)}`, text: path }))))
    : el("p", { class: "muted", text: "No game log files there." }));
}

function standingsTable(data) {
  const columns = [["#", "rank"], ["entrant", "entrant"], ["matches", "matches"], ["W", "wins"], ["D", "draws"], ["L", "losses"],
    ["score", "score"], ["win rate", "win_rate"], ["95% CI", null], ["pts/round", "points_per_round"], ["rounds won", "rounds_won"],
    ["faults", "faults"], ["rating", null]];
  return el("table", { class: "grid" }, el("tr", {}, columns.map(([h]) => el("th", { class: "num", text: h }))),
    data.standings.map((row) => el("tr", { "data-testid": "standing" }, columns.map(([, key], i) => {
      let text;
      if (i === 8) {
        return el("td", { class: "num ci" }, `${fmt(row.win_rate_low)}\u2013${fmt(row.win_rate_high)}`,
          intervalBar(row.win_rate_low, row.win_rate, row.win_rate_high));
      }
      else if (i === 12) text = `${fmt(row.rating, 2)} \u00b1 ${fmt(row.rating_sigma, 2)}`;
      else text = ["win_rate", "points_per_round"].includes(key) ? fmt(row[key], key === "win_rate" ? 3 : 2) : row[key];
      return el("td", { class: i === 1 ? "" : "num", text });
    }))));
}

function duration(seconds) {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function showProgress(data) {
  const bar = document.getElementById("progress-bar");
  bar.max = Math.max(1, data.planned);
  bar.value = data.stored;
  const share = data.planned ? Math.round(100 * data.stored / data.planned) : 100;
  let left = "";
  if (data.finished) left = "finished";
  else if (inSite()) left = `${share}% when this report was written (${window.maumauTournament.written}); it was still running`;
  else {
    const now = Date.now() / 1000;
    if (!seenProgress.length || seenProgress[seenProgress.length - 1][1] !== data.stored) seenProgress.push([now, data.stored]);
    const [t0, n0] = seenProgress[0];
    const rate = (data.stored - n0) / Math.max(1e-9, now - t0);
    left = rate > 0 ? `${share}% · about ${duration((data.planned - data.stored) / rate)} left at the pace seen here`
      : `${share}% · time left: once the next matches come in`;
  }
  document.getElementById("time-left").textContent = left;
}

// The interval of a rate drawn as a bar on 0..1, the rate a tick: read beside the numbers, not instead of them.
function intervalBar(low, mid, high) {
  return el("span", { class: "interval", title: `${fmt(low)}–${fmt(high)}`, "aria-hidden": "true" },
    el("span", { class: "band", style: `left:${100 * low}%;width:${100 * (high - low)}%` }),
    el("span", { class: "mid", style: `left:${100 * mid}%` }));
}

function crosstable(data) {
  const names = data.standings.map((row) => row.entrant);
  const cells = new Map(data.crosstable.map((c) => [`${c.entrant}\u0000${c.opponent}`, c]));
  return el("table", { class: "grid cross" }, el("tr", {}, el("th", { text: "ahead of →" }),
    names.map((name) => el("th", { class: "num", text: name }))),
  names.map((row) => el("tr", { "data-testid": "cross-row" }, el("th", { text: row }), names.map((col) => {
    if (row === col) return el("td", { class: "num muted", text: "—" });
    const c = cells.get(`${row}\u0000${col}`);
    if (!c) return el("td", { class: "num muted", text: "" });
    const label = `${row} ahead of ${col} in ${fmt(100 * c.share, 0)}% of ${c.matches} matches (95% ${fmt(100 * c.low, 0)}–${fmt(100 * c.high, 0)}%)`;
    return el("td", { class: "num", title: label, "aria-label": label,
      style: `background: rgba(${c.share >= 0.5 ? "31,107,58" : "200,16,46"}, ${Math.min(0.45, Math.abs(c.share - 0.5))})` },
    `${fmt(100 * c.share, 0)}%`, el("div", { class: "small muted", text: `${fmt(100 * c.low, 0)}–${fmt(100 * c.high, 0)}` }));
  }))));
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(key, value);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

// Each entrant's score per match as the matches came in: a line with its band; names at the lines' ends and in a key
// with each line's dash, so that the lines are told apart without their colours.
function chart(history, order) {
  const W = 720, H = 300, left = 40, right = 12, top = 10, bottom = 30;
  const total = Math.max(1, history.matches);
  const x = (n) => left + (W - left - right) * n / total, y = (v) => top + (H - top - bottom) * (1 - v);
  const names = order.filter((name) => history.series[name] && history.series[name].length);
  const parts = [];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(svg("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: "grid-line" }),
      svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, document.createTextNode(v.toFixed(2))));
  }
  parts.push(svg("text", { x: (left + W) / 2, y: H - 6, "text-anchor": "middle", class: "tick" },
    document.createTextNode(`matches stored (${history.matches})`)));
  names.forEach((name, i) => {
    const points = history.series[name], colour = COLOURS[i % COLOURS.length];
    const band = points.map(([n, , low]) => `${x(n)},${y(low)}`).concat(points.slice().reverse().map(([n, , , high]) => `${x(n)},${y(high)}`));
    parts.push(svg("polygon", { points: band.join(" "), fill: colour, opacity: 0.15 }));
    parts.push(svg("polyline", { points: points.map(([n, mean]) => `${x(n)},${y(mean)}`).join(" "), fill: "none",
      stroke: colour, "stroke-width": 2, "stroke-dasharray": DASHES[i % DASHES.length] || null, "data-testid": "chart-line",
      "data-entrant": name }));
  });
  const key = el("div", { class: "chart-key" }, names.map((name, i) => el("span", {},
    svg("svg", { width: 34, height: 10, "aria-hidden": "true" }, svg("line", { x1: 0, x2: 34, y1: 5, y2: 5,
      stroke: COLOURS[i % COLOURS.length], "stroke-width": 3, "stroke-dasharray": DASHES[i % DASHES.length] || null })),
    ` ${name} ${fmt(history.series[name][history.series[name].length - 1][1], 3)}`)));
  return [svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart-svg",
    "aria-label": `score per match of ${names.join(", ")} over ${history.matches} matches` }, parts), key];
}

function showRules() {
  const rules = window.maumauTournament.rules;
  document.getElementById("rules-panel").classList.remove("hidden");
  document.getElementById("rules-name").textContent = rules.name;
  clear(document.getElementById("rules"), el("ul", {}, rules.words.map((line) => el("li", { text: line }))));
  document.getElementById("rules-yaml").textContent = rules.yaml;
}

async function refreshStandings() {
  try {
    const data = await api(`/api/standings?t=${encodeURIComponent(tournament)}`);
    document.getElementById("title").textContent = `${data.name} (${data.ruleset})`;
    document.getElementById("progress").textContent =
      `${data.stored} of ${data.planned} matches${data.finished ? ", finished" : inSite() ? ", still running when written" : ", updating while it runs"}`;
    showProgress(data);
    if (data.stored !== storedBefore) {
      const history = await api(`/api/history?t=${encodeURIComponent(tournament)}`);
      clear(document.getElementById("chart"), chart(history, data.standings.map((row) => row.entrant)));
      clear(document.getElementById("crosstable"), crosstable(data));
    }
    clear(document.getElementById("standings"), standingsTable(data),
      data.adjacent.filter((c) => !c.separated).map((c) => el("p", { class: "muted",
        text: `too close to call: ${c.above} vs ${c.below} (${c.ahead} of ${c.matches} ahead, CI ${fmt(c.low, 2)}\u2013${fmt(c.high, 2)})` })));
    const bots = document.getElementById("bot");
    if (bots.options.length === 1) for (const row of data.standings) bots.append(el("option", { value: row.entrant, text: row.entrant }));
    showError("error", null);
    if (data.stored !== storedBefore && shownMatches <= PAGE) await loadMatches(true);  // new matches: the first page again
    storedBefore = data.stored;
    if (!data.finished && !inSite()) setTimeout(refreshStandings, 3000);
  } catch (error) {
    showError("error", error);
  }
}

async function loadMatches(fresh) {
  if (fresh) listGeneration += 1;
  const generation = listGeneration;
  const params = new URLSearchParams({ t: tournament, offset: fresh ? 0 : shownMatches, limit: PAGE });
  const bot = document.getElementById("bot").value;
  if (bot) params.set("bot", bot);
  if (document.getElementById("lost").checked) params.set("lost", "1");
  if (document.getElementById("faults").checked) params.set("faults", "1");
  try {
    const data = await api(`/api/matches?${params}`);
    if (generation !== listGeneration) return;  // the list of the filters as they are now comes with its own
    const box = document.getElementById("matches");
    if (fresh) {
      shownMatches = 0;
      clear(box, el("table", { class: "grid", id: "match-table" }, el("tr", {},
        ["match", "seats", "winners", "rounds", "faults"].map((h) => el("th", { text: h })))));
    }
    const table = document.getElementById("match-table");
    for (const m of data.matches) {
      table.append(el("tr", { "data-testid": "match" },
        el("td", {}, el("a", { href: replayHref(tournament, m.match), text: m.match })),
        el("td", { text: m.players.join(", ") }), el("td", { text: m.winners.join(", ") }),
        el("td", { class: "num", text: m.rounds }), el("td", { text: m.faults.join(", ") })));
    }
    shownMatches += data.matches.length;
    document.getElementById("more").classList.toggle("hidden", shownMatches >= data.total);
    if (!data.total) box.append(el("p", { class: "muted", text: "No match fits the filters." }));
  } catch (error) {
    showError("error", error);
  }
}

if (tournament) {
  document.getElementById("one").classList.remove("hidden");
  if (inSite()) showRules();
  for (const id of ["bot", "lost", "faults"]) document.getElementById(id).addEventListener("change", () => loadMatches(true));
  document.getElementById("more").addEventListener("click", () => loadMatches(false));
  refreshStandings();
} else {
  listing().catch((error) => showError("error", error));
}
