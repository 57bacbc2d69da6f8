"""The HTML of the web board's pages: small documents that load the app's own script and style
(`static/`); what they show comes from the JSON API."""
from __future__ import annotations

import json
from html import escape
from typing import Any

HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/static/style.css">
</head><body>
<header><a class="home" href="/">Tablier</a> <nav><a href="/">New game</a>
<a href="/sheet">Score sheet</a></nav></header>
<main>
"""
TAIL = "</main></body></html>\n"


def _page(title: str, body: str, script: str | None = None, data: Any = None) -> str:
    out = HEAD.format(title=escape(title)) + body
    if data is not None:
        # JSON inside a <script> element: "</" is written "<\/" so that no text ends it early
        text = json.dumps(data).replace("</", "<\\/")
        out += f'<script id="page-data" type="application/json">{text}</script>\n'
    if script:
        out += f'<script src="/static/{script}"></script>\n'
    return out + TAIL


def message_page(title: str, message: str) -> str:
    return _page(title, f"<h1>{escape(title)}</h1><p>{escape(message)}</p>"
                 '<p><a href="/">Start a game</a></p>')


#: what the start page says of a player beside its kind
KIND_NOTES = {"human": "a person", "search:3:learned": "the strongest: a few seconds a move"}


def index_page(variants: list[dict], kinds: list[str],
               notations: dict[str, list[str]] | None = None, served: bool = False,
               networks: list[str] | None = None) -> str:
    """The start page: `variants` are the built-in ones and the files of the served folder
    (`serve --variants DIR`, named by their file names), which `served` says there is;
    `networks` the built-in ones with a network shipped (the players that use one are offered
    for those, and for the served files)."""
    options = "".join(f'<option value="{escape(v["id"])}">{escape(v["name"])} '
                      f'({escape(v["id"])})</option>' for v in variants)
    players = "".join(f'<option value="{escape(k)}">{escape(k)}'
                      f'{f" ({KIND_NOTES[k]})" if k in KIND_NOTES else ""}</option>'
                      for k in kinds)
    body = f"""
<h1>Play a game</h1>
<form id="new-game" class="panel">
  <label>Variant <select name="variant" id="variant">{options}
    {'<option value="">a variant file…</option>' if served else ''}</select></label>
  <label id="path-label" hidden>Variant file (the name of a file in the folder given to
    <code>serve --variants</code>)
    <input name="path" id="variant-path" placeholder="quick-trictrac.toml"></label>
  <div class="row">
    <label>White <select name="white" id="white">{players}</select></label>
    <label>Black <select name="black" id="black">{players}</select></label>
  </div>
  <label>Notation (how the points are named)
    <select name="notation" id="notation"><option value="pips">pips</option></select></label>
  <label>Seed <input name="seed" id="seed" inputmode="numeric" placeholder="random"></label>
  <label>Options, one KEY=VALUE a line (as <code>--set</code>)
    <textarea name="set" id="set" rows="3"
      placeholder="ladder.match_length=5&#10;dice.doublets=&quot;twice&quot;"></textarea></label>
  <p class="help">Two people: choose <code>human</code> for both. The page that opens plays
    both sides on this screen, and gives each side a link of its own to play from another
    screen or another machine.</p>
  <button type="submit" id="start" class="big">Start</button>
  <p class="error" id="new-error" role="alert"></p>
</form>
<h2>Resume a saved game</h2>
<form id="resume-game" class="panel">
  <label>Saved game (TOML): paste it, or choose the file
    <textarea id="resume-text" rows="4"></textarea></label>
  <input type="file" id="resume-file" accept=".toml,text/plain">
  <button type="submit" id="resume" class="big">Resume</button>
  <p class="error" id="resume-error" role="alert"></p>
</form>
"""
    builtin = [v["id"] for v in variants if not v["id"].endswith(".toml")]
    return _page("Tablier", body, "index.js", {"kinds": kinds, "notations": notations or {},
                                                "builtin": builtin,
                                                "networks": networks or []})


def game_page(game_id: str, name: str) -> str:
    body = f"""
<div id="game" class="game">
  <section class="board-side">
    <div id="board" class="board" aria-label="the board"></div>
    <div id="status" class="status" role="status"></div>
  </section>
  <section class="controls">
    <p id="seat" class="seat" hidden></p>
    <div id="question" class="panel" aria-live="polite"></div>
    <div id="review" class="panel review" hidden></div>
    <form id="typed" class="panel typed" hidden>
      <label>Type a play <input id="typed-play" autocomplete="off" autocapitalize="off"
        spellcheck="false" placeholder="from/to from/to"></label>
      <button type="submit" id="typed-send">Play typed</button>
    </form>
    <p class="error" id="error" role="alert"></p>
    <details id="links" class="panel links" hidden><summary>Players' links</summary>
      <p id="links-help" class="help"></p><div id="links-list"></div></details>
    <div class="panel"><h3>Score</h3><div id="score"></div>
      <h3>This throw</h3><ul id="items"></ul></div>
    <div class="panel buttons">
      <a id="save" class="button" href="/api/games/{escape(game_id)}/save" download>Save</a>
      <a class="button" href="/">New game</a></div>
    <details class="panel" open><summary>Log</summary><pre id="log"></pre></details>
  </section>
</div>
"""
    return _page(f"{name} — Tablier", body, "game.js", {"id": game_id})


def sheet_page(variants: list[dict]) -> str:
    options = "".join(f'<option value="{escape(v["id"])}" data-kind="{escape(v["kind"])}">'
                      f'{escape(v["name"])}</option>' for v in variants)
    body = f"""
<h1>Keep the score of a game on a real board</h1>
<form id="sheet-setup" class="panel">
  <label>Game <select id="sheet-variant">{options}</select></label>
  <div class="row">
    <label>First player <input id="name-a" value="Alice" maxlength="100"></label>
    <label>Second player <input id="name-b" value="Bob" maxlength="100"></label>
  </div>
  <label class="ecrire-only">Marks <input id="marks" inputmode="numeric" value="12"></label>
  <button type="submit" id="sheet-start" class="big">Start the sheet</button>
  <label>Or continue a record (TOML) <input type="file" id="sheet-file"
    accept=".toml,text/plain"></label>
</form>
<div id="keeper" hidden>
  <div id="sides" class="sides"></div>
  <div class="panel buttons">
    <button id="reset" class="big">reset (men set up again)</button>
    <button id="undo-event" class="big">undo the last event</button>
    <a id="sheet-download" class="button" download="sheet.toml" href="#">Download the record</a>
  </div>
  <p class="error" id="sheet-error" role="alert"></p>
  <div class="panel"><h3>Events</h3><ol id="events" start="0"></ol></div>
  <div class="panel"><h3>The sheet</h3><pre id="sheet-text"></pre></div>
</div>
"""
    return _page("Score sheet — Tablier", body, "sheet.js", {"variants": variants})
