// Joining a running match from its invitation link /join/GAME.
"use strict";

const game = location.pathname.split("/").pop();

async function init() {
  const info = await api(`/api/games/${game}`);
  document.getElementById("about").textContent =
    `${info.ruleset} against ${info.level} bots: ${info.players} of at most ${info.max} players` +
    (info.round ? `, round ${info.round}` : "") + (info.status === "over" ? " (the match is over)" : "");
  const button = document.getElementById("join");
  button.disabled = !info.table_changes || info.status !== "playing" && info.status !== "between";
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const seat = await api(`/api/games/${game}/join`, { json: {} });
      location.assign(seat.url);
    } catch (error) {
      showError("error", error);
    }
  });
}

init().catch((error) => showError("error", error));
