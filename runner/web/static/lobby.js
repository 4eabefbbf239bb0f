// The lobby: New game with a ruleset (registered, or a house-rule file checked by the server), a level and a table size.
"use strict";

const HOUSE = "__house__";
let rulesets = [];
let house = null;  // the checked house rules: {summary, text, filename}

function chosen() {
  const value = document.getElementById("ruleset").value;
  return value === HOUSE ? (house && house.summary) : rulesets.find((r) => r.name === value);
}

function fitPlayers() {
  const slider = document.getElementById("players"), rules = chosen();
  const start = document.getElementById("start");
  start.disabled = !rules;
  if (!rules) return;
  slider.min = rules.min;
  slider.max = rules.max;
  slider.value = Math.min(Math.max(Number(slider.value), rules.min), rules.max);
  document.getElementById("players-shown").textContent = slider.value;
  document.getElementById("ruleset-description").textContent =
    `${rules.description || ""} (${rules.min}\u2013${rules.max} players)`.trim();
}

async function readHouseFile(input) {
  const file = input.files[0];
  if (!file) return;
  document.getElementById("house-text").value = await file.text();
  document.getElementById("house-text").dataset.filename = file.name;
  await checkHouse();
}

async function checkHouse() {
  const area = document.getElementById("house-text"), result = document.getElementById("house-result");
  house = null;
  fitPlayers();
  try {
    const summary = await api("/api/rulesets/check", { json: { yaml: area.value, filename: area.dataset.filename || null } });
    house = { summary, text: area.value, filename: area.dataset.filename || null };
    result.className = "";
    result.textContent = `ok: ${summary.name}, ${summary.min}\u2013${summary.max} players, ${summary.format}`;
  } catch (error) {
    result.className = "error";
    result.textContent = `Error: ${error.message}`;
  }
  fitPlayers();
}

async function newGame(event) {
  event.preventDefault();
  showError("error", null);
  const value = document.getElementById("ruleset").value;
  const body = { level: document.getElementById("level").value, players: Number(document.getElementById("players").value) };
  if (value === HOUSE) {
    if (!house) { showError("error", "check the house rules first"); return; }
    body.yaml = house.text;
    body.filename = house.filename;
  } else {
    body.ruleset = value;
  }
  document.getElementById("start").disabled = true;
  try {
    const game = await api("/api/games", { json: body });
    location.assign(game.url);
  } catch (error) {
    showError("error", error);
    document.getElementById("start").disabled = false;
  }
}

async function init() {
  const lobby = await api("/api/lobby");
  rulesets = lobby.rulesets;
  const select = document.getElementById("ruleset");
  for (const rules of rulesets) select.append(el("option", { value: rules.name, text: rules.name }));
  select.append(el("option", { value: HOUSE, text: "House rules: upload or paste a file\u2026" }));
  select.value = rulesets.some((r) => r.name === lobby.default) ? lobby.default : rulesets[0].name;
  const level = document.getElementById("level");
  for (const name of lobby.levels) level.append(el("option", { value: name, text: name }));
  level.value = "medium";
  if (lobby.watch) document.getElementById("watch-link").classList.remove("hidden");
  select.addEventListener("change", () => {
    document.getElementById("house").classList.toggle("hidden", select.value !== HOUSE);
    fitPlayers();
  });
  document.getElementById("players").addEventListener("input", (e) => {
    document.getElementById("players-shown").textContent = e.target.value;
  });
  document.getElementById("house-file").addEventListener("change", (e) => readHouseFile(e.target));
  document.getElementById("house-check").addEventListener("click", checkHouse);
  document.getElementById("house-text").addEventListener("input", () => { house = null; fitPlayers(); });
  document.getElementById("new-game").addEventListener("submit", newGame);
  fitPlayers();
}

init().catch((error) => showError("error", error));
