// The start page: a new game, or a saved game resumed, through the JSON API.
"use strict";
const $ = (id) => document.getElementById(id);

async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"content-type": "application/json"},
                              body: JSON.stringify(body)});
  const data = await r.json().catch(() => ({error: "the server's answer is not JSON"}));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

// "KEY=VALUE" lines as the API's "set" object; a value is read as JSON where it can be
// (5, true, "twice"), else kept as a string
function readSets(text) {
  const sets = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const eq = line.indexOf("=");
    if (eq < 1) throw new Error(`option line ${JSON.stringify(line)}: write KEY=VALUE`);
    const value = line.slice(eq + 1).trim();
    try { sets[line.slice(0, eq).trim()] = JSON.parse(value); }
    catch (e) { sets[line.slice(0, eq).trim()] = value; }
  }
  return sets;
}

$("white").value = "human";
$("black").value = document.querySelector("#black option[value=greedy]") ? "greedy" : "random";
const PAGE = JSON.parse(($("page-data") || {}).textContent || "{}");
// the notations of the chosen variant (pips, and Guiton's, Malfilâtre's... in trictrac)
function setNotations() {
  const have = (PAGE.notations || {})[$("variant").value] || ["pips"];
  const keep = $("notation").value;
  $("notation").replaceChildren(...have.map((n) => {
    const o = document.createElement("option");
    o.value = n; o.textContent = n;
    return o;
  }));
  $("notation").value = have.includes(keep) ? keep : have[0];
}
// the players that use a network (learned, search:3:learned...) only where one ships for the
// variant (a served file may have its own: they stay offered there)
function setPlayers() {
  const v = $("variant").value;
  const builtin = (PAGE.builtin || []).includes(v);
  const ok = !builtin || (PAGE.networks || []).includes(v);
  for (const side of ["white", "black"]) {
    const select = $(side);
    for (const o of select.options)
      if (o.value.includes("learned")) { o.hidden = !ok; o.disabled = !ok; }
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "greedy";
  }
}
$("variant").addEventListener("change", () => {
  $("path-label").hidden = $("variant").value !== "";
  setNotations();
  setPlayers();
});
setNotations();
setPlayers();

// the page of a game: with its seats, when two people play it (this page's maker holds both)
function gamePage(data) {
  const seats = data.seats ? ["white", "black"].map((s) => data.seats[s]) : [];
  const query = seats.map((t) => `seat=${encodeURIComponent(t)}`).join("&");
  return `/game/${data.id}` + (query ? `?${query}` : "");
}

$("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("new-error").textContent = "";
  try {
    const body = {variant: $("variant").value || $("variant-path").value.trim(),
                  white: $("white").value, black: $("black").value, set: readSets($("set").value),
                  notation: $("notation").value};
    const seed = $("seed").value.trim();
    if (seed) {
      if (!/^-?[0-9]+$/.test(seed)) throw new Error(`the seed ${JSON.stringify(seed)} is not a whole number`);
      body.seed = Number(seed);
    }
    const data = await post("/api/games", body);
    location.href = gamePage(data);
  } catch (e) { $("new-error").textContent = e.message; }
});

$("resume-file").addEventListener("change", async () => {
  const f = $("resume-file").files[0];
  if (f) $("resume-text").value = await f.text();
});

$("resume-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("resume-error").textContent = "";
  try {
    const data = await post("/api/games", {resume: $("resume-text").value});
    location.href = gamePage(data);
  } catch (e) { $("resume-error").textContent = e.message; }
});
