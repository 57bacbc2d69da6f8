// The live score keeper: the events of `tablier sheet` entered with buttons as they happen;
// the server computes the sheet with the code of `tablier sheet` after each one. An event the
// rules refuse is shown with the reason and dropped; nothing entered before it is lost.
"use strict";
const $ = (id) => document.getElementById(id);
const PAGE = JSON.parse($("page-data").textContent);
let fields = null;    // the record: variant, players, marks, events...
let view = null;      // the server's view of it
let downloadUrl = null;

async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"content-type": "application/json"},
                              body: JSON.stringify(body)});
  const data = await r.json().catch(() => ({error: "the server's answer is not JSON"}));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

// the form of a variant's sheet, as its ladder says: "points" (a game of holes), "marks" (the
// partie à écrire), "honours" (combiné)
function formOf(variant) {
  const v = PAGE.variants.find((x) => x.id === variant);
  return v ? v.form : null;
}

function setupForm() {
  const form = formOf($("sheet-variant").value);
  for (const e of document.querySelectorAll(".ecrire-only")) e.hidden = form === "points";
}
$("sheet-variant").addEventListener("change", setupForm);
setupForm();

// try the record with one more event (or none); keep it only if the rules accept it
async function tryFields(candidate, check) {
  document.body.setAttribute("data-busy", "1");
  $("sheet-error").textContent = "";
  try {
    const v = await post("/api/sheets/view", {fields: candidate});
    if (check) {
      const why = check(v);
      if (why) throw new Error(why);
    }
    fields = v.fields;
    view = v;
    draw();
    return true;
  } catch (e) {
    $("sheet-error").textContent = e.message;
    return false;
  } finally { document.body.setAttribute("data-busy", "0"); }
}

function addEvent(text, check) {
  const candidate = {...fields, events: [...(fields.events || []), text]};
  return tryFields(candidate, check);
}

$("sheet-setup").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const variant = $("sheet-variant").value;
  const f = {variant, players: [$("name-a").value.trim(), $("name-b").value.trim()], events: []};
  if (formOf(variant) !== "points") {
    const m = $("marks").value.trim();
    if (!/^[0-9]+$/.test(m)) { $("sheet-error").textContent = `marks: ${JSON.stringify(m)} is not a number`; }
    f.marks = Number(m);
    // a short partie agreed at the board (2 or 4 marks): the record says so in its options
    if (f.marks === 2 || f.marks === 4) f.options = {min_marks: f.marks};
  }
  $("keeper").hidden = false;
  tryFields(f);
});

$("sheet-file").addEventListener("change", async () => {
  const f = $("sheet-file").files[0];
  if (!f) return;
  $("sheet-error").textContent = "";
  $("keeper").hidden = false;
  try {
    const v = await post("/api/sheets/view", {record: await f.text()});
    fields = v.fields; view = v; draw();
  } catch (e) { $("sheet-error").textContent = e.message; }
});

$("reset").addEventListener("click", () => addEvent("reset"));
$("undo-event").addEventListener("click", () => {
  if (!fields || !fields.events.length) return;
  tryFields({...fields, events: fields.events.slice(0, -1)});
});

// who may call the refait: the player whose hole on his own throw was the last event (a go
// must directly follow the goer's own-throw holes), whichever box the button is in
function refaitCaller() {
  const events = fields.events || [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    for (const p of fields.players) {
      if (e.startsWith(`${p} +`)) return / on /.test(e.slice(p.length)) ? null : p;
    }
    return null;
  }
  return null;
}

function refaitCheck(before) {
  return (v) => {
    const marks = v.sheet.marks || [];
    const last = marks[marks.length - 1];
    if (marks.length === before + 1 && last.kind === "refait") return null;
    return "not a refait: a go is a refait only with equal holes, six or more each; " +
           "use \"go\" to go";
  };
}

function sideBox(i) {
  const [me, other] = [fields.players[i], fields.players[1 - i]];
  const form = view.form;
  const box = el("div", {class: "panel side", "data-player": me});
  box.append(el("h3", {}, me));
  const score = el("div", {class: "score"});
  const s = view.sheet;
  if (form === "points") {
    const p = s.players[me];
    score.textContent = `${p.holes} holes, ${p.points} points` + (p.bredouille ? ", bredouille" : "");
  } else {
    const play = view.in_play;
    const holes = play ? play.holes[me] : null;
    const markers = play && play.markers[me].length ? ` (${play.markers[me].join(", ")})` : "";
    score.textContent = (play ? `${holes} hole${holes === 1 ? "" : "s"}${markers} in mark ` +
                         `${play.mark} of ${play.of}; ` : "") + `lost marks ${s.lost_marks[me]}`;
  }
  box.append(score);
  const onOther = el("label", {class: "toggle"});
  const tick = el("input", {type: "checkbox", class: "on-other"});
  onOther.append(tick, document.createTextNode(` on ${other}'s throw`));
  box.append(onOther);
  const plus = el("div", {class: "plus"});
  const numbers = form === "points" ? [1, 2, 3, 4, 5, 6, 8, 10, 12] : [1, 2, 3, 4];
  for (const n of numbers) {
    const b = el("button", {class: "big plus-n", "data-n": n}, `+${n}`);
    b.addEventListener("click", () => {
      const on = tick.checked ? ` on ${other}` : "";
      tick.checked = false;
      addEvent(`${me} +${n}${on}`);
    });
    plus.append(b);
  }
  box.append(plus);
  const row = el("div", {class: "buttons"});
  const words = [["go", "go"]];
  if (form !== "points") words.push(["refait", "go"], ["banner", "banner"], ["necktie", "necktie"]);
  if (form === "honours") words.push(["suspend ecrire", "suspend ecrire"], ["suspend honours", "suspend honours"]);
  for (const [label, word] of words) {
    const b = el("button", {class: "big word", "data-word": label}, label);
    b.addEventListener("click", () => {
      if (label !== "refait") { addEvent(`${me} ${word}`); return; }
      const caller = refaitCaller();
      if (!caller) {
        $("sheet-error").textContent = "a refait is called right after the hole that makes " +
          "the holes equal, six or more each, by the player who made it on his own throw";
        return;
      }
      addEvent(`${caller} go`, refaitCheck((view.sheet.marks || []).length));
    });
    row.append(b);
  }
  box.append(row);
  return box;
}

function draw() {
  $("sides").replaceChildren(sideBox(0), sideBox(1));
  const list = $("events");
  list.replaceChildren();
  for (const e of fields.events) list.append(el("li", {}, e));
  $("sheet-text").textContent = view.text;
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([view.toml], {type: "application/toml"}));
  $("sheet-download").href = downloadUrl;
}
