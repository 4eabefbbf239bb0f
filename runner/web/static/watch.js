// Watching results: the tournaments under --results, one tournament's standings (refreshed while it runs) and matches.
"use strict";

const tournament = query("t");
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
      if (i === 8) text = `${fmt(row.win_rate_low)}\u2013${fmt(row.win_rate_high)}`;
      else if (i === 12) text = `${fmt(row.rating, 2)} \u00b1 ${fmt(row.rating_sigma, 2)}`;
      else text = ["win_rate", "points_per_round"].includes(key) ? fmt(row[key], key === "win_rate" ? 3 : 2) : row[key];
      return el("td", { class: i === 1 ? "" : "num", text });
    }))));
}

async function refreshStandings() {
  try {
    const data = await api(`/api/standings?t=${encodeURIComponent(tournament)}`);
    document.getElementById("title").textContent = `${data.name} (${data.ruleset})`;
    document.getElementById("progress").textContent =
      `${data.stored} of ${data.planned} matches${data.finished ? ", finished" : ", updating while it runs"}`;
    clear(document.getElementById("standings"), standingsTable(data),
      data.adjacent.filter((c) => !c.separated).map((c) => el("p", { class: "muted",
        text: `too close to call: ${c.above} vs ${c.below} (${c.ahead} of ${c.matches} ahead, CI ${fmt(c.low, 2)}\u2013${fmt(c.high, 2)})` })));
    const bots = document.getElementById("bot");
    if (bots.options.length === 1) for (const row of data.standings) bots.append(el("option", { value: row.entrant, text: row.entrant }));
    showError("error", null);
    if (data.stored !== storedBefore && shownMatches <= PAGE) await loadMatches(true);  // new matches: the first page again
    storedBefore = data.stored;
    if (!data.finished) setTimeout(refreshStandings, 3000);
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
        el("td", {}, el("a", { href: `/replay?t=${encodeURIComponent(tournament)}&m=${encodeURIComponent(m.match)}`, text: m.match })),
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
  for (const id of ["bot", "lost", "faults"]) document.getElementById(id).addEventListener("change", () => loadMatches(true));
  document.getElementById("more").addEventListener("click", () => loadMatches(false));
  refreshStandings();
} else {
  listing().catch((error) => showError("error", error));
}
