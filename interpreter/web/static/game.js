// The game page: the board as the server draws it (SVG), a play entered by clicks step by
// step (a checker, then one of the highlighted destinations), undo, typed plays, decisions as
// labelled buttons, the score, what the throw scored and the log. Everything comes from the
// JSON API; the page follows the game live from its event stream (falling back to asking for
// the state every second), so that a play made in another browser shows here at once.
//
// Seats: a game of two people is played from its seats' links, `/game/ID?seat=TOKEN` (the page
// that made the game holds both seats: `?seat=WHITE&seat=BLACK`). The page answers only for
// the sides its tokens hold (`state.may_answer`); without a seat it watches, read-only.
"use strict";
const $ = (id) => document.getElementById(id);
const GAME = JSON.parse($("page-data").textContent).id;
const API = `/api/games/${GAME}`;
const SEATS = new URLSearchParams(location.search).getAll("seat").filter((t) => t).slice(0, 2);
const QUERY = SEATS.length ? "?" + SEATS.map((t) => `seat=${encodeURIComponent(t)}`).join("&") : "";
let state = null;
let entered = [];     // the steps of the play being entered: [[from, to], ...]
let picked = null;    // the point whose checker was chosen
let busy = false;
const POLL_MS = 150;  // while a bot is to move, the state is asked again (one bot turn each)
const WATCH_MS = 1000;  // without the event stream, the state is asked this often
const SNAP_PX = 20;   // a tap this close to a point that can be chosen chooses it (phones)
const MIN_TARGET_PX = 44;  // the least height of a clickable area on the screen
const CANDIDATES_SHOWN = 5;  // the hint's ranked answers shown before "more"
// a screen this narrow (a phone held upright) is shown the board's narrow form: the frame
// turned a quarter turn, its points stacked down the screen
const NARROW = window.matchMedia("(max-width: 600px)");
const narrow = () => NARROW.matches;
const boardOf = (s) => (narrow() && s.svg_narrow) || s.svg;

async function call(url, body) {
  const r = await fetch(url, body === undefined ? {} :
    {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
  const data = await r.json().catch(() => ({error: "the server's answer is not JSON"}));
  if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), {status: r.status, data});
  return data;
}

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;

// -- who this page plays -------------------------------------------------------------------

// whether this page answers the question asked now
function mine() {
  const q = state && state.question;
  return !!q && !state.bot_to_move && (state.may_answer || []).includes(q.player);
}

// the token of this page's seat for `side` (none in a game without seats)
function tokenFor(side) {
  const i = (state.seats_given || []).indexOf(side);
  return i >= 0 ? SEATS[i] : undefined;
}

// the seats of this page, sent with its answers: the server checks the side asked holds one,
// and answers the STATE as this page sees it
function seatBody() {
  if (!state || !state.seated || !SEATS.length) return {};
  return {seat: SEATS.length === 1 ? SEATS[0] : SEATS};
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

// a step from a point to itself unstacks the pair there (Doblet): `19u`
function stepsText(steps) {
  return steps.map((s) => s[0] === s[1] ? `${label(s[0])}u` : `${label(s[0])}/${label(s[1])}`)
    .join(" ");
}

function setBusy(on) { document.body.setAttribute("data-busy", on ? "1" : "0"); }

// the board's SVG, its small clickable areas given an invisible pad of MIN_TARGET_PX on a
// narrow screen (the drawing itself is left as it is)
function drawBoard(svg) {
  $("board").innerHTML = svg;
  const root = $("board").querySelector("svg");
  if (!root || !root.viewBox || !root.viewBox.baseVal || !root.viewBox.baseVal.width) return;
  // one half of a board (a route of 12 points) is taller than wide: no taller than the window
  if (root.classList.contains("half") && !root.classList.contains("narrow")) {
    const vb = root.viewBox.baseVal;
    root.style.maxWidth = `calc((100vh - 4em) * ${vb.width / vb.height})`;
    root.style.margin = "0 auto";
  }
  const scale = root.getBoundingClientRect().width / root.viewBox.baseVal.width;
  if (!scale) return;
  const least = MIN_TARGET_PX / scale;
  for (const hit of root.querySelectorAll("rect.hit[data-pip]")) {
    const h = Number(hit.getAttribute("height"));
    if (h >= least) continue;
    const pad = hit.cloneNode(false);
    pad.setAttribute("class", "pad");
    pad.setAttribute("y", String(Number(hit.getAttribute("y")) - (least - h) / 2));
    pad.setAttribute("height", String(least));
    pad.setAttribute("fill-opacity", "0");
    hit.parentNode.insertBefore(pad, hit);
  }
}

// on a phone a point is narrower than a finger: each point a tap may choose now (the checkers
// that can move, the destinations of the one picked) gets an invisible area at least
// MIN_TARGET_PX wide, taken from the points, bar and tray beside it that cannot be chosen
// (shared half and half with the next point that can be); the desktop board is left as it is
function widenTargets() {
  const root = $("board").querySelector("svg");
  if (!root || !root.viewBox || !root.viewBox.baseVal || !root.viewBox.baseVal.width) return;
  const scale = root.getBoundingClientRect().width / root.viewBox.baseVal.width;
  if (!scale) return;
  const want = MIN_TARGET_PX / scale;
  const can = choosable();
  const boxes = [...root.querySelectorAll("rect.hit[data-pip]")].map((r) => ({
    pip: Number(r.getAttribute("data-pip")), x: Number(r.getAttribute("x")),
    y: Number(r.getAttribute("y")), w: Number(r.getAttribute("width")),
    h: Number(r.getAttribute("height"))}));
  // (the middle row of a board of 36 points has the slots above 30)
  const points = boxes.filter((b) => (b.pip >= 1 && b.pip <= 24) || b.pip > 30);
  if (!points.length || points[0].w >= want) return;
  // the two rows of points; the bar and the tray stand in both
  const rows = [...new Set(points.map((b) => b.y))].map((y) => {
    const h = points.find((b) => b.y === y).h;
    return boxes.filter((b) => b.y <= y && b.y + b.h >= y + h && (b.pip <= 25 || b.pip > 30))
      .sort((a, b) => a.x - b.x);
  });
  const room = new Map();   // pip → [left, right] free on each side, the least over its rows
  for (const row of rows) {
    const start = row[0].x;
    const end = row[row.length - 1].x + row[row.length - 1].w;
    row.forEach((b, i) => {
      if (!can.has(b.pip)) return;
      let left = b.x - start;
      for (let k = i - 1; k >= 0; k--)
        if (can.has(row[k].pip)) { left = (b.x - (row[k].x + row[k].w)) / 2; break; }
      let right = end - (b.x + b.w);
      for (let k = i + 1; k < row.length; k++)
        if (can.has(row[k].pip)) { right = (row[k].x - (b.x + b.w)) / 2; break; }
      const had = room.get(b.pip);
      room.set(b.pip, had ? [Math.min(had[0], left), Math.min(had[1], right)] : [left, right]);
    });
  }
  for (const b of boxes) {
    if (!room.has(b.pip) || b.w >= want) continue;
    const [left, right] = room.get(b.pip);
    const need = want - b.w;
    let l = Math.min(left, need / 2);
    const r = Math.min(right, need - l);
    l = Math.min(left, need - r);
    // an area on each side, over the neighbours only: the point's own area stays its own
    for (const [x, w] of [[b.x - l, l], [b.x + b.w, r]]) {
      if (w <= 0) continue;
      const zone = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      for (const [k, v] of Object.entries({class: "zone", x, y: b.y, width: w, height: b.h,
                                           fill: "#fff", "fill-opacity": "0", "data-pip": b.pip}))
        zone.setAttribute(k, String(v));
      // in the narrow form the areas are drawn in the frame's turned coordinates
      (root.querySelector("g.turn") || root).append(zone);
    }
  }
}

async function drawEntry() {
  setBusy(true);
  const version = state.version;
  const steps = nextSteps();
  const movable = [...new Set(steps.map((s) => s[0]))];
  const targets = picked === null ? [] : steps.filter((s) => s[0] === picked).map((s) => s[1]);
  const body = {steps: entered, movable, targets};
  if (picked !== null) body.picked = picked;
  if (narrow()) body.narrow = true;
  try {
    const r = await call(`${API}/preview`, body);
    if (state.version !== version) return;      // the game moved on meanwhile
    drawBoard(r.svg);
    widenTargets();
  } catch (e) {
    if (state.version === version) $("error").textContent = e.message;
  }
  drawQuestion();
  setBusy(false);
}

// the points a click may choose now: the checkers that can move, and the destinations of the
// one picked
function choosable() {
  const steps = nextSteps();
  const out = new Set(steps.map((s) => s[0]));
  if (picked !== null) for (const s of steps) if (s[0] === picked) out.add(s[1]);
  return out;
}

// the point a click chooses: the one under it if it can be chosen, else the nearest that can
// within SNAP_PX (a finger is wider than a point on a phone), else the one under it
function pipAt(ev) {
  const node = ev.target.closest("[data-pip]");
  let under = node ? Number(node.getAttribute("data-pip")) : null;
  if (under === 27) under = 0;
  const can = choosable();
  if (under !== null && can.has(under)) return under;
  let best = null;
  let bestD = SNAP_PX;
  for (const hit of $("board").querySelectorAll(
    "rect.hit[data-pip], rect.pad[data-pip], rect.zone[data-pip]")) {
    const pip = Number(hit.getAttribute("data-pip"));
    if (!can.has(pip)) continue;
    const r = hit.getBoundingClientRect();
    const dx = Math.max(r.left - ev.clientX, 0, ev.clientX - r.right);
    const dy = Math.max(r.top - ev.clientY, 0, ev.clientY - r.bottom);
    const d = Math.hypot(dx, dy);
    if (d < bestD) { best = pip; bestD = d; }
  }
  return best !== null ? best : under;
}

function onBoardClick(ev) {
  if (busy || !mine() || state.question.kind !== "play") return;
  const pip = pipAt(ev);
  if (pip === null) return;
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

function waitingText() {
  return `Waiting for ${state.question.player}…`;
}

function drawQuestion() {
  const q = state.question;
  const box = $("question");
  box.replaceChildren();
  const my = mine();
  $("typed").hidden = !(q && q.kind === "play" && my);
  if (!q) {
    const over = (state.result && state.result.contest) || "game";
    box.append(el("h3", {}, state.finished ? `The ${over} is over` : "Stopped"));
    if (state.result) box.append(el("p", {id: "result"}, resultText(state)));
    if (state.stopped) box.append(el("p", {id: "stopped"}, state.stopped));
    box.append(reviewButton());
    return;
  }
  box.append(el("h3", {id: "asked"}, my ? q.text : q.watch_text));
  // a dead cube was not offered before this throw: why, once
  if (state.cube_note) box.append(el("p", {id: "cube-note", class: "note"}, `(${state.cube_note.text})`));
  if (!my) {
    box.append(el("p", {class: "waiting", id: "waiting"}, waitingText()));
    return;
  }
  if (q.kind === "play") {
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
    // a choice before the game's first throw: what the file says of it, above its labels
    // (short labels, `19-24`: side by side in one row)
    const choosing = q.decision === "choose";
    if (q.description) box.append(el("p", {id: "described", class: "described"}, q.description));
    const row = el("div", {class: choosing ? "choices labels" : "choices"});
    const labels = q.labels || {};
    for (const word of q.choices) {
      const b = el("button", {class: "big answer", "data-answer": word}, labels[word] || cap(word));
      b.addEventListener("click", () => send(word));
      row.append(b);
    }
    row.append(hintButton());
    box.append(row);
    // on a phone the board fills the first screen: a choice is brought into view, once
    if (choosing && narrow() && shownChoice !== state.version) {
      shownChoice = state.version;
      row.scrollIntoView({block: "nearest"});
    }
  }
  if (q.hint) {
    box.append(el("p", {id: "hint"}, `hint: ${q.hint_label || q.hint}`));
    // the second best and the difference, apart: the hint itself stays a play one can type
    if (q.hint_detail && q.hint_detail.reason)
      box.append(el("p", {id: "hint-reason"}, `${q.hint_detail.bot}: ${q.hint_detail.reason}`));
    if (q.hint_candidates && q.hint_candidates.length > 1) box.append(candidateList(q));
    if (q.hint_cube) {
      const c = q.hint_cube;
      box.append(el("p", {id: "hint-cube"}, "The cube: " + c.numbers.map(
        (n) => `${n.answer} ${signed(n.value)}`).join(", ") + (c.right ? `; right: ${c.right}` : "")));
    }
  }
}

// the version of the state whose choice was brought into view on a phone (once a question)
let shownChoice = null;
const signed = (v) => (v >= 0 ? "+" : "\u2212") + Math.abs(v).toFixed(3);
let showAll = false;    // the hint's list: its first CANDIDATES_SHOWN, or all it has

// the hint's best answers ranked, each with its value and what it gives up to the best: a
// play is set up on the board by a tap (Play confirms it), a word answers the question
function candidateList(q) {
  const unit = (q.hint_detail && q.hint_detail.unit) || "";
  const wrap = el("div", {id: "hint-list", class: "candidates"});
  wrap.append(el("p", {class: "help-line"}, q.kind === "play" ?
    `The best plays, valued in ${unit} (tap one to set it on the board):` :
    `The answers, valued in ${unit}:`));
  const list = el("ol", {});
  const all = q.hint_candidates;
  const shown = showAll ? all : all.slice(0, CANDIDATES_SHOWN);
  for (const c of shown) {
    const b = el("button", {type: "button", class: "candidate", "data-answer": c.answer});
    b.append(el("span", {class: "cand-play"}, c.play), el("span", {class: "cand-value"}, signed(c.value)),
             el("span", {class: "cand-error"}, c.error > 0 ? signed(-c.error) : "best"));
    b.addEventListener("click", () => pickCandidate(c));
    const li = el("li", {});
    li.append(b);
    list.append(li);
  }
  wrap.append(list);
  if (all.length > CANDIDATES_SHOWN) {
    const more = el("button", {type: "button", id: "hint-more"}, showAll ? "Fewer" :
                    `Show ${all.length - CANDIDATES_SHOWN} more`);
    more.addEventListener("click", () => { showAll = !showAll; drawQuestion(); });
    wrap.append(more);
  }
  return wrap;
}

function pickCandidate(c) {
  if (busy || !mine()) return;
  const q = state.question;
  if (q.kind !== "play") { send(c.answer); return; }
  const play = q.plays.find((p) => p.text === c.answer);
  if (!play || !play.paths.length) { send(c.answer); return; }
  entered = play.paths[0].map((s) => s.slice());
  picked = null;
  drawEntry();
}

// -- the review of a game over ------------------------------------------------------------------

function reviewButton() {
  const b = el("button", {id: "review-button", class: "big primary"}, "Review this game");
  b.addEventListener("click", async () => {
    b.disabled = true;
    b.textContent = "Reviewing…";
    $("error").textContent = "";
    setBusy(true);
    try { drawReview(await call(`${API}/review`, seatBody())); }
    catch (e) { $("error").textContent = e.message; }
    b.disabled = false;
    b.textContent = "Review this game";
    setBusy(false);
  });
  return b;
}

const fixed = (v, n = 3) => Number(v).toFixed(n);

function drawReview(r) {
  const panel = $("review");
  panel.replaceChildren();
  panel.hidden = false;
  const rev = r.review;
  panel.append(el("h3", {}, "Review of the game"));
  if (r.partial) panel.append(el("p", {class: "note", id: "review-partial"},
    `Partial: the review stopped after ${fixed(r.max_seconds, 0)} s of work; the figures cover ` +
    "the decisions reviewed before that (tablier analyse reviews the whole save)."));
  const t = rev.thresholds;
  panel.append(el("p", {class: "help-line"}, `By ${rev.by}, values in ${rev.unit}. Marks: ` +
    `doubtful from ${t.doubtful}, bad from ${t.bad}, very bad from ${t["very bad"]}` +
    (rev.marked ? ` (${rev.marked}).` : ".")));
  const names = Object.keys(rev.players);
  const table = el("table", {id: "review-totals", class: "totals"});
  const head = el("tr", {});
  head.append(el("th", {}, ""));
  for (const n of names) {
    const kind = rev.players[n].kind;
    head.append(el("th", {}, kind && kind !== n ? `${n} (${kind})` : n));
  }
  table.append(head);
  const rows = [["Decisions", (p) => String(p.decisions)],
                ["Mean error", (p) => fixed(p.mean_error, 4)],
                ["Best answer", (p) => `${Math.round(100 * p.best_share)} %`],
                ["Doubtful", (p) => String(p.marks.doubtful)],
                ["Bad", (p) => String(p.marks.bad)],
                ["Very bad", (p) => String(p.marks["very bad"])],
                ["Luck", (p) => signed(p.luck)]];
  for (const [label, f] of rows) {
    const tr = el("tr", {});
    tr.append(el("th", {}, label));
    for (const n of names) tr.append(el("td", {}, f(rev.players[n])));
    table.append(tr);
  }
  panel.append(table);
  const marked = rev.decisions.filter((d) => d.mark);
  panel.append(el("h3", {}, marked.length ? `Marked decisions (${marked.length})` :
                  "No decision marked"));
  const list = el("ol", {id: "review-errors", class: "errors"});
  for (const d of marked) {
    const li = el("li", {class: `mark-${d.mark.replace(" ", "-")}`});
    const dice = d.dice.length ? ` ${d.dice.join("-")}` : "";
    const game = rev.decisions.some((x) => x.game > 1) ? `game ${d.game}, ` : "";
    li.append(el("div", {class: "err-head"},
                 `${game}turn ${d.turn} · ${d.player}${dice} · ${d.kind}: ${d.mark} (${fixed(d.error, 3)})`));
    li.append(el("div", {}, `played ${d.played}`), el("div", {}, `best ${d.best}`));
    list.append(li);
  }
  panel.append(list);
  panel.scrollIntoView({block: "start"});
}

function hintButton() {
  const b = el("button", {id: "hint-button", class: "big"}, "Hint");
  b.addEventListener("click", async () => {
    setBusy(true);
    try { show(await call(`${API}/hint`, seatBody())); }
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
  if (busy || !mine()) return false;
  busy = true;
  setBusy(true);
  $("error").textContent = "";
  let ok = false;
  try {
    const s = await call(`${API}/answer`, {answer, version: state.version,
                                           ...seatBody()});
    entered = []; picked = null;
    show(s);
    ok = true;
  } catch (e) {
    busy = false;
    if (e.status === 409 && e.data && e.data.state) {
      // the board changed under the page: shown again as it is, and said so
      entered = []; picked = null;
      show(e.data.state, true);
    }
    $("error").textContent = e.message;
    setBusy(false);
    if (e.status === 503) refresh();   // out of time: the game may have moved on, or stopped
  } finally { busy = false; }
  return ok;
}

// -- who plays, and the links of the seats ----------------------------------------------------

function linkRow(id, title, url) {
  const row = el("div", {class: "link-row"});
  const input = el("input", {id, readonly: "", value: url, "aria-label": title});
  const copy = el("button", {type: "button", class: "copy", "data-copies": id}, "Copy");
  copy.addEventListener("click", async () => {
    input.focus();
    input.select();
    let done = false;
    try { await navigator.clipboard.writeText(url); done = true; }
    catch (e) { try { done = document.execCommand("copy"); } catch (e2) { done = false; } }
    copy.textContent = done ? "Copied" : "Select and copy";
    setTimeout(() => { copy.textContent = "Copy"; }, 2000);
  });
  input.addEventListener("focus", () => input.select());
  row.append(el("label", {for: id}, title), input, copy);
  return row;
}

let seatShown = null;
function drawSeat() {
  const seat = $("seat");
  const key = `${state.seated}:${state.seat}`;
  if (key === seatShown) return;
  seatShown = key;
  document.body.setAttribute("data-role", !state.seated ? "open" :
                             state.seat === null ? "watch" : "seat");
  seat.classList.remove("watching", "white", "black", "both");
  if (!state.seated) {
    seat.hidden = true;
  } else {
    seat.hidden = false;
    if (state.seat === null) {
      seat.textContent = SEATS.length ? "Watching: this link holds no seat of this game" :
        "Watching: you hold no seat in this game";
      seat.classList.add("watching");
    } else if (state.seat === "both") {
      seat.textContent = "You play both sides, on this screen";
      seat.classList.add("both");
    } else {
      seat.textContent = `You play ${state.seat}`;
      seat.classList.add(state.seat);
    }
  }
  // the save holds the seed, and so the dice to come: the players' only
  $("save").hidden = state.seated && state.seat === null;
  $("save").setAttribute("href", `${API}/save${QUERY}`);
  const links = $("links");
  links.hidden = !state.seated || state.seat === null;
  if (links.hidden) return;
  const page = `${location.origin}/game/${GAME}`;
  const list = $("links-list");
  list.replaceChildren();
  if (state.seat === "both") {
    $("links-help").textContent = "This screen plays both sides. To play on two screens, open " +
      "White's link on White's screen and Black's on Black's (send it to your opponent). A " +
      "seat's link plays that side: give it only to its player. The watch link only shows the game.";
    for (const side of ["white", "black"])
      list.append(linkRow(`link-${side}`, `${cap(side)}'s seat`,
                          `${page}?seat=${encodeURIComponent(tokenFor(side))}`));
    links.open = true;
  } else {
    $("links-help").textContent = `Your seat's link plays ${state.seat}: keep it to come back ` +
      "to the game, here or on another screen. The watch link shows the game to onlookers.";
    list.append(linkRow(`link-${state.seat}`, `Your seat (${state.seat})`,
                        `${page}?seat=${encodeURIComponent(tokenFor(state.seat))}`));
  }
  list.append(linkRow("link-watch", "Watch (no seat)", page));
}

// -- the whole page ----------------------------------------------------------------------------

let botTimer = null;
function botPoll() {
  if (botTimer === null) botTimer = setTimeout(() => { botTimer = null; refresh(); }, POLL_MS);
}

// show a STATE, unless the page shows a newer one already (the answer to this page's request
// and the event stream both bring it); `force`: shown whatever its version
function show(s, force = false) {
  if (!force && state && s.version <= state.version) {
    if (state.bot_to_move) botPoll();
    return;
  }
  if (state && s.version !== state.version) {
    entered = []; picked = null; showAll = false;
    if (!busy) $("error").textContent = "";
  }
  state = s;
  drawSeat();
  drawBoard(boardOf(s));
  const q = s.question;
  // under the board, where a phone shows it without scrolling: who is on roll, the dice,
  // the score and, in a race, both pip counts
  const pips = s.pips ? `pips white ${s.pips.white}, black ${s.pips.black}` : "";
  const words = (s.score.lines && s.score.lines.length) ? s.score.lines.join("; ") : s.score.text;
  const score = [words, pips].filter((x) => x).join("; ");
  $("status").textContent = (s.finished ? resultText(s) :
    q ? `${s.players.white} (white) v ${s.players.black} (black); ${s.on_roll} on roll` +
        (s.dice ? `, ${s.dice.join("-")}` : "") : "") +
    // a match or partie over: its result says the final score
    (score && !(s.finished && s.result && s.result.contest) ? ` — ${score}` : "");
  $("score").textContent = score || "one game, no running score";
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
    botPoll();
    return;
  }
  if (q && q.kind === "play" && mine()) drawEntry(); else { drawQuestion(); setBusy(false); }
}

let pollErrors = 0;
async function refresh() {
  try {
    const r = await call(API + QUERY);
    pollErrors = 0;
    show(r.state);
  } catch (e) {
    $("error").textContent = e.message;
    if (++pollErrors < 3) setTimeout(refresh, 1000); else setBusy(false);
  }
}

// the game followed live: its event stream, else the state asked every WATCH_MS
let watching = null;
function watchByPolling() {
  if (watching === null)
    watching = setInterval(() => { if (!busy && pollErrors < 3) refresh(); }, WATCH_MS);
}

function listen() {
  if (!window.EventSource) { watchByPolling(); return; }
  const stream = new EventSource(`${API}/events${QUERY}`);
  let failures = 0;
  stream.onmessage = (ev) => {
    failures = 0;
    let s = null;
    try { s = JSON.parse(ev.data); } catch (e) { return; }
    show(s);
  };
  stream.onerror = () => {
    // refused (too many streams, the server stopping) or dropped again and again: poll
    if (stream.readyState === EventSource.CLOSED || ++failures >= 3) {
      stream.close();
      watchByPolling();
    }
  };
}

$("board").addEventListener("click", onBoardClick);
// the screen turned or resized across the breakpoint: the board in its other form
NARROW.addEventListener("change", () => {
  if (!state) return;
  if (state.question && state.question.kind === "play" && mine() && !state.bot_to_move) drawEntry();
  else drawBoard(boardOf(state));
});
$("typed").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  if (await send($("typed-play").value)) $("typed-play").value = "";
});
call(API + QUERY).then((r) => { show(r.state); listen(); })
  .catch((e) => { $("error").textContent = e.message; });
