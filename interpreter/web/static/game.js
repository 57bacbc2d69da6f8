// The game page: the board as the server draws it (SVG), a play entered by clicks step by
// step (a checker, then one of the highlighted destinations), undo, typed plays, decisions as
// buttons, the score, what the throw scored and the log. Everything comes from the JSON API.
"use strict";
const $ = (id) => document.getElementById(id);
const GAME = JSON.parse($("page-data").textContent).id;
const API = `/api/games/${GAME}`;
let state = null;
let entered = [];     // the steps of the play being entered: [[from, to], ...]
let picked = null;    // the point whose checker was chosen
let busy = false;
const POLL_MS = 150;  // while a bot is to move, the state is asked again (one bot turn each)

async function call(url, body) {
  const r = await fetch(url, body === undefined ? {} :
    {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
  const data = await r.json().catch(() => ({error: "the server's answer is not JSON"}));
  if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), {status: r.status});
  return data;
}

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

// -- the play being entered ---------------------------------------------------------------

function same(a, b) { return a[0] === b[0] && a[1] === b[1]; }

// the legal step sequences that begin with the steps entered, with their play
function consistent() {
  const out = [];
  state.question.plays.forEach((play, i) => {
    for (const path of play.paths) {
      if (path.length >= entered.length && entered.every((s, k) => same(s, path[k])))
        out.push({play: i, path});
    }
  });
  return out;
}

function nextSteps() {
  const seen = new Map();
  for (const c of consistent())
    if (c.path.length > entered.length) {
      const s = c.path[entered.length];
      seen.set(s.join("/"), s);
    }
  return [...seen.values()];
}

// the play the entered steps complete, if they complete one
function completed() {
  const done = consistent().filter((c) => c.path.length === entered.length);
  return done.length ? state.question.plays[done[0].play] : null;
}

// a pip of the player on roll as the game's notation names it (bar, off, in, T, 5'...)
function label(pip) {
  const names = (state && state.labels) || {};
  return names[String(pip)] || String(pip);
}

function stepsText(steps) {
  return steps.map((s) => `${label(s[0])}/${label(s[1])}`).join(" ");
}

function setBusy(on) { document.body.setAttribute("data-busy", on ? "1" : "0"); }

async function drawEntry() {
  setBusy(true);
  const steps = nextSteps();
  const movable = [...new Set(steps.map((s) => s[0]))];
  const targets = picked === null ? [] : steps.filter((s) => s[0] === picked).map((s) => s[1]);
  const body = {steps: entered, movable, targets};
  if (picked !== null) body.picked = picked;
  try {
    const r = await call(`${API}/preview`, body);
    $("board").innerHTML = r.svg;
  } catch (e) { $("error").textContent = e.message; }
  drawQuestion();
  setBusy(false);
}

function onBoardClick(ev) {
  if (busy || !state || state.bot_to_move || !state.question || state.question.kind !== "play") return;
  const node = ev.target.closest("[data-pip]");
  if (!node) return;
  let pip = Number(node.getAttribute("data-pip"));
  if (pip === 27) pip = 0;
  const steps = nextSteps();
  if (picked !== null) {
    const step = steps.find((s) => s[0] === picked && s[1] === pip);
    if (step) {
      entered.push(step);
      picked = null;
      const left = nextSteps();
      // one checker left to move with one number: pick it for the player
      const sources = [...new Set(left.map((s) => s[0]))];
      if (sources.length === 1 && left.length) picked = sources[0];
      drawEntry();
      return;
    }
  }
  if (steps.some((s) => s[0] === pip)) picked = pip === picked ? null : pip;
  else picked = null;
  drawEntry();
}

// -- the question -----------------------------------------------------------------------------

function drawQuestion() {
  const q = state.question;
  const box = $("question");
  box.replaceChildren();
  $("typed").hidden = !(q && q.kind === "play");
  if (!q) {
    box.append(el("h3", {}, state.finished ? "The game is over" : "Stopped"));
    if (state.result) box.append(el("p", {id: "result"}, resultText(state)));
    if (state.stopped) box.append(el("p", {id: "stopped"}, state.stopped));
    return;
  }
  const who = q.player;
  if (q.kind === "play") {
    box.append(el("h3", {}, `${who} to play ${state.dice.join("-")}` +
                  (q.decision === "enter" ? ": enter a man" : "")));
    box.append(el("p", {class: "help"}, "Click a checker, then a highlighted point; or type the play below."));
    box.append(el("p", {class: "entered", id: "entered"}, entered.length ?
      stepsText(entered) : "—"));
    const row = el("div", {class: "choices"});
    const done = completed();
    const confirm = el("button", {id: "confirm", class: "primary big"},
                       done ? `Play ${done.label || done.text}` : "Play");
    if (!done) confirm.title = "enter a whole play first";
    confirm.disabled = !done;
    confirm.addEventListener("click", () => done && send(done.text));
    const undo = el("button", {id: "undo", class: "big"}, "Undo");
    undo.disabled = !entered.length && picked === null;
    undo.addEventListener("click", () => { entered.pop(); picked = null; drawEntry(); });
    row.append(confirm, undo, hintButton());
    box.append(row);
  } else {
    box.append(el("h3", {}, `${who}: ${q.decision}`));
    const row = el("div", {class: "choices"});
    for (const word of q.choices) {
      const b = el("button", {class: "big answer", "data-answer": word}, word);
      b.addEventListener("click", () => send(word));
      row.append(b);
    }
    row.append(hintButton());
    box.append(row);
  }
  if (q.hint) {
    box.append(el("p", {id: "hint"}, `hint: ${q.hint_label || q.hint}`));
    // the second best and the difference, apart: the hint itself stays a play one can type
    if (q.hint_detail && q.hint_detail.reason)
      box.append(el("p", {id: "hint-reason"}, `${q.hint_detail.bot}: ${q.hint_detail.reason}`));
  }
}

function hintButton() {
  const b = el("button", {id: "hint-button", class: "big"}, "Hint");
  b.addEventListener("click", async () => {
    setBusy(true);
    try { show(await call(`${API}/hint`, {})); }
    catch (e) { $("error").textContent = e.message; setBusy(false); }
  });
  return b;
}

function resultText(s) {
  const r = s.result;
  if (!r) return "";
  if (r.text) return r.text;
  if (!r.finished) return `stopped after ${r.turns} throws, unfinished`;
  if (r.winner === null) return `a draw after ${r.turns} throws`;
  return `${r.winner} wins, worth ${r.value} (after ${r.turns} throws)`;
}

async function send(answer) {
  if (busy) return;
  busy = true;
  setBusy(true);
  $("error").textContent = "";
  try {
    const s = await call(`${API}/answer`, {answer});
    entered = []; picked = null;
    show(s);
  } catch (e) {
    $("error").textContent = e.message;
    setBusy(false);
    if (e.status === 503) poll();   // out of time: the game may have moved on, or stopped
  } finally { busy = false; }
}

// -- the whole page ----------------------------------------------------------------------------

function show(s) {
  state = s;
  $("board").innerHTML = s.svg;
  const q = s.question;
  // under the board, where a phone shows it without scrolling: who is on roll, the dice,
  // the score and, in a race, both pip counts
  const pips = s.pips ? `pips white ${s.pips.white}, black ${s.pips.black}` : "";
  const words = (s.score.lines && s.score.lines.length) ? s.score.lines.join("; ") : s.score.text;
  const score = [words, pips].filter((x) => x).join("; ");
  $("status").textContent = (s.finished ? resultText(s) :
    q ? `${s.players.white} (white) v ${s.players.black} (black); ${s.on_roll} on roll` +
        (s.dice ? `, ${s.dice.join("-")}` : "") : "") + (score ? ` — ${score}` : "");
  $("score").textContent = score || "one game, no running score";
  if (q && q.kind === "play" && q.plays && q.plays.length)
    $("typed-play").placeholder = q.plays[0].label || q.plays[0].text;
  const items = $("items");
  items.replaceChildren();
  for (const it of s.items) items.append(el("li", {}, `${it.name}: ${it.points} to ${it.side}`));
  if (!s.items.length) items.append(el("li", {}, "nothing scored"));
  $("log").textContent = s.log.join("\n");
  $("log").scrollTop = $("log").scrollHeight;
  if (s.bot_to_move) {
    // the bot plays one turn a request: show its move, then ask again
    $("question").replaceChildren(el("h3", {}, `${q.player} (${s.players[q.player]}) is playing…`));
    $("typed").hidden = true;
    setBusy(true);
    setTimeout(poll, POLL_MS);
    return;
  }
  if (q && q.kind === "play") drawEntry(); else { drawQuestion(); setBusy(false); }
}

let pollErrors = 0;
function poll() {
  call(API).then((r) => { pollErrors = 0; show(r.state); }).catch((e) => {
    $("error").textContent = e.message;
    if (++pollErrors < 3) setTimeout(poll, 1000); else setBusy(false);
  });
}

$("board").addEventListener("click", onBoardClick);
$("typed").addEventListener("submit", (ev) => {
  ev.preventDefault();
  send($("typed-play").value).then(() => { if (!$("error").textContent) $("typed-play").value = ""; });
});
call(API).then((r) => show(r.state)).catch((e) => { $("error").textContent = e.message; });
