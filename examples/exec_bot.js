#!/usr/bin/env node
// A maumau bot in JavaScript: the JSON-lines protocol of docs/protocol.md, with Node's standard library only.
//   maumau play -r standard -b 'exec:node examples/exec_bot.js' -b random
//   maumau check-bot 'exec:node examples/exec_bot.js'
// Strategy: play a random legal card that is not a Jack, as many cards at once as the rules allow; else any legal action.
"use strict";
const readline = require("readline");

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");  // one line per message
}

// A small seeded generator (mulberry32), so that a match replays exactly from match_start's seed.
function seeded(seed) {
  let a = Number(BigInt(seed) % 4294967296n) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = seeded(0);

function choose(view) {
  const legal = view.legal;
  const plays = legal.filter((a) => a.type === "play");
  const noJacks = plays.filter((a) => !a.card.startsWith("J"));
  if (noJacks.length) {  // of those, the plays that put down the most cards (a play of several lists the rest in "more")
    const most = Math.max(...noJacks.map((a) => (a.more || []).length));
    const longest = noJacks.filter((a) => (a.more || []).length === most);
    return longest[Math.floor(random() * longest.length)];
  }
  if (plays.length) return plays[Math.floor(random() * plays.length)];
  return legal[Math.floor(random() * legal.length)];
}

send({ type: "hello", name: "example-node", protocol: 2 });
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "match_start") {
    random = seeded(message.seed);
    send({ type: "ready", id: message.id });
  } else if (message.type === "act") {
    send({ type: "action", id: message.id, action: choose(message.view) });  // the reply echoes the request's id
  } else if (message.type === "match_end") {
    send({ type: "ready", id: message.id });
  } else if (message.type === "bye") {
    process.exit(0);
  }
});
