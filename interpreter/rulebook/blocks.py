"""A small document model for generated pages, written out as Markdown or as one HTML page.

The rulebook and the diff build a list of blocks once and render it twice, so the Markdown and
the HTML always say the same thing. Inline text may use `code` spans and **strong** text, the
only markup the renderers know; everything else is written as text (escaped in HTML), so that
nothing read from a variant file can inject markup into the page.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str | None = None


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Items:
    """A bulleted list; an item may be followed by indented sub-items."""

    items: tuple[str, ...]
    sub: dict[int, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Code:
    text: str
    lang: str = ""


Block = Heading | Para | Items | Table | Code


def code(text: object) -> str:
    """`text` as an inline code span (backticks inside are doubled around, as Markdown wants)."""
    s = str(text)
    fence = "``" if "`" in s else "`"
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


# -- Markdown ------------------------------------------------------------------------------------

def _md_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def to_markdown(blocks: list[Block]) -> str:
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append("#" * b.level + " " + b.text)
        elif isinstance(b, Para):
            out.append(b.text)
        elif isinstance(b, Items):
            lines = []
            for i, item in enumerate(b.items):
                lines.append("- " + item)
                lines += ["  - " + s for s in b.sub.get(i, ())]
            out.append("\n".join(lines))
        elif isinstance(b, Table):
            lines = ["| " + " | ".join(_md_cell(h) for h in b.header) + " |",
                     "|" + "|".join("---" for _ in b.header) + "|"]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
            out.append("\n".join(lines))
        elif isinstance(b, Code):
            fence = "````" if "```" in b.text else "```"
            out.append(f"{fence}{b.lang}\n{b.text.rstrip()}\n{fence}")
    return "\n\n".join(out) + "\n"


# -- HTML ----------------------------------------------------------------------------------------

_INLINE = re.compile(r"(``\s?(?P<c2>.*?)\s?``|`(?P<c1>[^`]*)`|\*\*(?P<b>.+?)\*\*)")

CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 52rem; margin: 2rem auto;
       padding: 0 1rem; line-height: 1.45; color: #222; background: #fffdf8; }
h1, h2, h3, h4 { font-family: 'Palatino Linotype', Palatino, Georgia, serif; color: #5a2d0c;
                 line-height: 1.2; }
h1 { border-bottom: 2px solid #5a2d0c; padding-bottom: .3rem; }
h2 { border-bottom: 1px solid #d8c8b0; padding-bottom: .2rem; margin-top: 2.2rem; }
code, pre { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: .88em; }
code { background: #f3ece0; padding: 0 .2em; border-radius: 3px; }
pre { background: #f7f1e6; border: 1px solid #e4d8c4; padding: .6rem .8rem; overflow-x: auto; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .95em; }
th, td { border: 1px solid #d8c8b0; padding: .25rem .5rem; vertical-align: top;
         text-align: left; }
th { background: #efe4d2; }
ul { padding-left: 1.4rem; }
"""


def _inline(text: str) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        if m.group("b") is not None:
            out.append("<strong>" + _inline(m.group("b")) + "</strong>")
        else:
            body = m.group("c2") if m.group("c2") is not None else m.group("c1")
            out.append("<code>" + html.escape(body) + "</code>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def to_html(blocks: list[Block], title: str) -> str:
    """One self-contained page: inline CSS, no scripts, no external resources."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            + html_body(blocks) + "\n</body>\n</html>\n")


def html_body(blocks: list[Block]) -> str:
    """The blocks as HTML elements (for pages that add their own, e.g. the compare report)."""
    body: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            anchor = f' id="{html.escape(b.anchor, quote=True)}"' if b.anchor else ""
            body.append(f"<h{b.level}{anchor}>{_inline(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            body.append(f"<p>{_inline(b.text)}</p>")
        elif isinstance(b, Items):
            lines = ["<ul>"]
            for i, item in enumerate(b.items):
                sub = b.sub.get(i, ())
                inner = "".join(f"<li>{_inline(s)}</li>" for s in sub)
                lines.append(f"<li>{_inline(item)}" + (f"<ul>{inner}</ul>" if sub else "")
                             + "</li>")
            lines.append("</ul>")
            body.append("\n".join(lines))
        elif isinstance(b, Table):
            head = "".join(f"<th>{_inline(h)}</th>" for h in b.header)
            rows = "\n".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>"
                             for row in b.rows)
            body.append(f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n"
                        f"</table>")
        elif isinstance(b, Code):
            body.append(f"<pre><code>{html.escape(b.text.rstrip())}</code></pre>")
    return "\n".join(body)
