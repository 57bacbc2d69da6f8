"""The board as an SVG picture: a pure function from a position (and options) to SVG text.

Used by the web board (`tablier serve`), by `tablier draw --svg/--png`, and by any report that
wants a picture of a position. No browser is needed to make it; the text parses as XML.

The frame is drawn from the side of one player, the *viewer*: the board passed in is seen by him
(kernel/board.py: positive counts are his checkers). Two rows of twelve points, a bar between the
halves, a tray at one end for the checkers borne off:

- `near = "home"` (backgammon, as gnubg draws it): the viewer's row holds his pips 12..1, his
  home board on the right, the far row his pips 13..24; checkers leave at the right;
- `near = "start"` (the trictrac family and the 12-point Tric-Trac): the viewer's row holds his
  own route first, pips 24..13 from his talon (Start) on the left to his coin on the right, the
  far row pips 1..12; both talons at the left end, where checkers leave;
- a route of 12 points (Medio emperador) is one half of the board: the viewer's pips 12..7 on
  his row from the left, 6..1 back along the far row (pip 1 across from pip 12), the tray at
  that end, where both sides leave, and the bar at the other, the board's middle;
- a route of 18 points (Seys dos e as) stands where backgammon's first three quarters do (pips
  18..7 along the far row, 6..1 on the near row at the left), the fourth quarter drawn faint,
  marked "not used", with nothing to click;
- the 36 points of XII scripta are three rows of twelve, each split in halves of six by the bar:
  the viewer's far row (pips 13..24) and near row (12..1) as backgammon's, and between them the
  middle row (pips 36..25 from the left), which both sides enter and share, drawn as fields
  holding men of either colour, its labels over it; an arrow at the end of each row shows which
  way the viewer's men run, and the caption says the route. Its points carry the board's slot
  in `data-pip` (pips 25..36 have slots of their own, kernel/board.py), as the steps of its
  plays name them; the labels name the pips;
- `mirror` draws the same frame left for right;
- `narrow` (a phone held upright) turns the frame a quarter turn clockwise, the viewer's row
  down the left and the tray at the bottom (backgammon) or the top (the trictrac family), the
  points shortened so that the board is 380 units across and a point and a checker 41 units
  along the rows; every text is stood upright again, every part keeps its class and `data-pip`.

Stacks show every checker (squeezed beyond five, with the count written on the top one); pinned
checkers (slot 28 of the layouts that pin) lie under the stack that pins them; checkers waiting
off the board (slots 29 and 30) stand in the tray with their count; a pair of men still stacked
one on the other (Doblet's, `Geometry.stack_slot`) is one checker with a doubled outline and
the count 2, titled as such, with a caption saying what the outline means. Point labels are given by
the caller, in any notation, with optional point names (talon, coin de repos...). Highlights:
checkers that may move (`movable`), destinations (`targets`), the last chosen point (`picked`).
Every point, the bar and the trays carry `data-pip` (0 = off, 25 = bar), so that a page can
make them clickable; each checker is a `<circle class="checker" data-pip=... data-side=...>`.

Holes and points (the trictrac family's ladders, `marking_of` a ladder's state): the frame
along each row is widened into a rail with twelve holes, one at the foot of each point of the
player's row counted from his talon, and a start hole beyond the talon; his peg (`circle.peg`,
`data-holes`) stands in the hole of his holes, and his jeton (`circle.jeton`, `data-points`)
at the foot of the point that counts his points from the talon, six against the bar, as the
points are marked on a real board; two jetons while he marks in bredouille after the
opponent. Combiné adds the honours game's silver peg beside à écrire's gold one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_OFF, their_pip

#: sizes, in SVG user units
PW = 44          # width of a point
R = 19           # checker radius
PH = 5 * 2 * R   # height of a point: five checkers
GAP = 46         # the space between the two rows (dice, messages)
BARW = 48        # width of the bar
TRAY = 58        # width of the tray of checkers borne off
FRAME = 12       # the wooden frame around each part
RAIL = 34        # the frame along a row where holes and points are marked (pegs and jetons)
LABEL = 40       # the band of point labels (and names) above and below
#: the narrow form (a phone held upright): the frame turned a quarter turn, the points
#: shortened so that the board is NARROW_ACROSS units across, the checkers a little larger
NARROW_ACROSS = 380
NARROW_LABEL = 32
#: along the rows, the narrow form is as short as a finger's width a point allows: 41 units
#: a point, the checkers 41 across with their edge, the bar and the tray 42, the frame 8
NARROW_PW, NARROW_R, NARROW_BARW, NARROW_TRAY, NARROW_FRAME = 41, 19.5, 42, 42, 8

COLOURS = {"white": ("#f6f1e3", "#5b4a33", "#222"), "black": ("#2c2a28", "#0d0d0d", "#f2f2f2")}


@dataclass(frozen=True)
class Geometry:
    """What the picture needs to know of a variant's board (`from_variant`)."""

    near: str = "home"
    mirror: bool = False
    #: whether checkers are hit to a bar (the bar is drawn in every case: it is the board's)
    bar: bool = True
    #: pips with a name of their own, from the viewer's side: pip → name
    names: Mapping[int, str] = field(default_factory=dict)
    #: the coins (own, opponent's), drawn with a mark
    corners: tuple[int, ...] = ()
    #: the length of each side's route (`[board] points`): 24, 12 (one half of the board, two
    #: rows of six) or 18 (three quarters of the board, the fourth drawn unused), or 36 (three
    #: rows of twelve, XII scripta)
    points: int = 24
    #: the kernel board's slot of the mover's mask of pairs still stacked (`[board] stacked`,
    #: Doblet; the opponent's, in his own pips, is the next slot); 0: none
    stack_slot: int = 0
    #: the route, to place the opponent's stacked pairs (kernel.board.their_pip)
    route: str = "opposite"

    def stacked_pips(self, board: Sequence[int]) -> tuple[set[int], set[int]]:
        """(the viewer's pips whose pair is stacked, the opponent's, both in the viewer's
        pips)."""
        k = self.stack_slot
        if not k or len(board) <= k + 1:
            return set(), set()
        mine, theirs = board[k], board[k + 1]
        return ({p for p in range(1, 25) if mine >> p & 1},
                {their_pip(self.route, q, self.points) for q in range(1, 25) if theirs >> q & 1})

    #: the board slot of each pip 0..points where they differ (a board of 36 points), else ()
    slots: tuple[int, ...] = ()

    @classmethod
    def from_variant(cls, variant: Any, near: str | None = None, mirror: bool = False
                     ) -> Geometry:
        """The geometry of `variant`: the trictrac layout where the variant has coins, where a
        player's route starts on his own row, else backgammon's."""
        mr = variant.move_rules
        corners = tuple(p for p in (mr.own_corner, mr.opp_corner) if p is not None)
        if near is None:
            near = "start" if corners else "home"
        layout = getattr(variant, "geometry", None)
        points = getattr(layout, "points", 24)
        stacks = bool(getattr(layout, "stacks", False))
        return cls(near=near, mirror=mirror, bar=mr.enter == "bar",
                   names=point_names(variant), corners=corners,
                   points=points if points in (12, 18, 36) else 24,
                   stack_slot=layout.stack_slot if stacks and layout is not None else 0,
                   route=getattr(layout, "route", "opposite"),
                   slots=tuple(getattr(layout, "slots", ())) if points == 36 else ())


def point_names(variant: Any) -> dict[int, str]:
    """The names of the points that have one, by the mover's pips: the names the variant file
    gives in its `[notation]` table (the treatises' talon, coin de repos... in the trictrac
    family), the opponent's same points where his route puts them (the mirror pips, or the
    mover's pip 12 for his head when both run the same way round); where the file names none,
    Start and Home where men enter from a start and Home counts as off, and corner for a coin."""
    from interpreter.notation import point_names as file_names

    mr = variant.move_rules
    names = dict(file_names(variant))
    geometry = getattr(variant, "geometry", None)
    route = getattr(geometry, "route", "opposite")
    length = getattr(geometry, "points", 24)
    for pip, name in list(names.items()):
        if 1 <= pip <= length:
            names.setdefault(their_pip(route, pip, length), name)
    if mr.enter == "start":
        names.setdefault(mr.start_pip, "Start")
        if mr.off_pip >= 1:
            names.setdefault(mr.off_pip, "Home")
    for corner in (mr.own_corner, mr.opp_corner):
        if corner is not None:
            names.setdefault(corner, "corner")
    return names


# -- where things are --------------------------------------------------------------------------

#: a route of 18 points is drawn as the first three quarters of a 24-point one: its pip p stands
#: where the longer route's pip p + 6 does, and the longer route's last quarter is left unused
SHIFT18 = 6


def _column(g: Geometry, pip: int) -> tuple[int, bool]:
    """(column from the left, 0..11, or 0..5 on a route of 12 points; on the near row?) of a
    pip.

    A route of 12 points is one half of the board, as Medio emperador is played: the viewer's
    pips 12..7 along his own row from the left, then 6..1 back along the far row, pip 1
    across from pip 12 (where the opponent starts, his route the same the other way round).
    A route of 18 points takes the place of the first three quarters of backgammon's: the
    starting quarter (pips 18..13) and the one beside it (12..7) along the far row, the one
    diagonally across from the start (6..1) on the near row, the fourth quarter unused."""
    if g.points == 12:
        near = pip >= 7
        col = 12 - pip if near else pip - 1
        return (5 - col if g.mirror else col), near
    if g.points == 18:
        pip += SHIFT18
    if pip > 24:
        # the middle row of a board of 36 points, pips 36..25 from the left
        col = 36 - pip
        return (11 - col if g.mirror else col), False
    return _column24(g, pip)


def _column24(g: Geometry, pip: int) -> tuple[int, bool]:
    """`_column` of a pip of the 24-point board (the unused quarter of an 18-point route is
    drawn where pips 1..6 would be)."""
    if g.near == "home":
        near = pip <= 12
        col = 12 - pip if near else pip - 13
    else:
        near = pip >= 13
        col = 24 - pip if near else pip - 1
    if g.mirror:
        col = 11 - col
    return col, near


def _tray_left(g: Geometry) -> bool:
    """Whether the tray is at the left end (checkers leave at the left); on a route of 12
    points, at the end of pips 12 and 1, where both sides leave."""
    if g.points == 12:
        return not g.mirror
    return (g.near == "start") != g.mirror


class _Frame:
    """The coordinates of the parts of one picture; `rail` the width of the frame along the two
    rows (wider where pegs and jetons are drawn in it)."""

    def __init__(self, g: Geometry, rail: int = FRAME, narrow: bool = False):
        self.g = g
        self.rail = rail
        self.narrow = narrow
        self.label = NARROW_LABEL if narrow else LABEL
        self.gap = GAP
        self.r = NARROW_R if narrow else R
        #: the widths along the rows: a point, the bar, the tray, the frame between parts
        self.pw, self.barw, self.tray, self.frame = \
            (NARROW_PW, NARROW_BARW, NARROW_TRAY, NARROW_FRAME) if narrow else \
            (PW, BARW, TRAY, FRAME)
        #: the length of a point: five checkers, or what leaves the narrow form its width
        self.ph = (NARROW_ACROSS - 2 * (self.label + rail) - GAP) // 2 if narrow else PH
        if narrow and g.points == 36:
            # three rows across the same width
            self.ph = (NARROW_ACROSS - 2 * (self.label + rail) - 2 * GAP) // 3
        self.tray_left = _tray_left(g)
        self.top = self.label + rail                      # y of the far row's edge
        self.bottom = self.top + 2 * self.ph + GAP        # y of the near row's edge
        self.mid = self.top + self.ph + GAP / 2
        #: a board of 36 points: the middle row's top edge, under the far row and a band for
        #: its labels; the near row and the space for the dice below it
        self.row3 = 0
        if g.points == 36:
            self.row3 = self.top + self.ph + GAP
            self.bottom = self.row3 + 2 * self.ph + GAP
            self.mid = self.row3 + self.ph + GAP / 2
        self.height = self.bottom + rail + self.label
        if g.points == 12:
            # one half of the board: the tray, the six points of each row, the bar beside them
            # (the board's middle); the tray at the other end
            if self.tray_left:
                self.tray_x = self.frame
                left = self.frame + self.tray + self.frame
                self.bar_x = left + 6 * self.pw
                self.width = self.bar_x + self.barw + self.frame
            else:
                self.bar_x = self.frame
                left = self.frame + self.barw
                self.tray_x = left + 6 * self.pw + self.frame
                self.width = self.tray_x + self.tray + self.frame
            self.half = [left]
            return
        left = self.frame + (self.tray + self.frame if self.tray_left else 0)
        self.half = [left, left + 6 * self.pw + self.barw]      # x of the two halves
        self.bar_x = left + 6 * self.pw
        self.tray_x = self.frame if self.tray_left else \
            left + 12 * self.pw + self.barw + self.frame
        self.width = left + 12 * self.pw + self.barw + self.frame + \
            (0 if self.tray_left else self.tray + self.frame)

    def point_x(self, col: int) -> float:
        return self.half[col // 6] + (col % 6) * self.pw


def _wrap(name: str) -> list[str]:
    """A point's name on one line, or two when it is long (`case de` / `l'écolier`)."""
    words = name.split()
    if len(name) <= 10 or len(words) < 2:
        return [name]
    best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k]))
                                                      - len(" ".join(words[k:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


# -- holes and points marked on the frame (the trictrac family) ---------------------------------

@dataclass(frozen=True)
class Marking:
    """What one player has marked on the frame: his points (a jeton on the rail at the foot of
    the point that counts them from his talon; two jetons while he marks in bredouille after
    the opponent), his holes (his peg in the holes of his rail; `counts` says what the peg
    counts), in combiné the honours game's holes (a second peg, silver beside the gold of
    à écrire, one bimetallic peg while they are equal), his banner and his necktie."""

    points: int = 0
    holes: int = 0
    two_jetons: bool = False
    honours: int | None = None
    banner: bool = False
    necktie: bool = False
    counts: str = "holes"


def _pair(sides: Mapping[str, Any], key: str) -> tuple[Any, Any] | None:
    v = sides.get(key)
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return v[0], v[1]
    return None


def _count(x: Any) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) and x >= 0 else 0


def marking_of(sides: Mapping[str, Any] | None) -> tuple[Marking, Marking] | None:
    """The marking of both players (white's, black's) from a ladder's state with sides named
    as saves hold it (`Ladder.sides()`: `points`, `holes`, `bredouille`; à écrire's
    `mark_holes`, `banner`, `necktie`; combiné's `honours_holes`; the 12-point Tric-Trac's
    `games`): None for a ladder that marks no points (the cube's, a rotation's)."""
    if not isinstance(sides, Mapping):
        return None
    points = _pair(sides, "points")
    holes = _pair(sides, "mark_holes") or _pair(sides, "holes")
    counts = "holes of the mark" if _pair(sides, "mark_holes") else "holes"
    if holes is None and _pair(sides, "games") is not None:
        holes, counts = _pair(sides, "games"), "games won (their values)"
    if points is None or holes is None:
        return None
    bred = _pair(sides, "bredouille") or (False, False)
    honours = _pair(sides, "honours_holes")
    banner = _pair(sides, "banner") or (False, False)
    necktie = _pair(sides, "necktie") or (False, False)
    pts = (_count(points[0]), _count(points[1]))
    return tuple(Marking(points=pts[i], holes=_count(holes[i]),
                         two_jetons=bool(bred[i]) and pts[i] > 0 and pts[1 - i] > 0,
                         honours=None if honours is None else _count(honours[i]),
                         banner=bool(banner[i]), necktie=bool(necktie[i]), counts=counts)
                 for i in (0, 1))  # type: ignore[return-value]


#: the colours of the pegs: à écrire's (gold) and the honours game's (silver) in combiné
GOLD, SILVER = ("#d9a520", "#7a5a12"), ("#d6d6d6", "#5c5c5c")
#: the jetons' colour (fill, edge)
JETON = ("#f4e3a1", "#8a6d1c")
#: the radius of a peg and of a jeton (the rail is `RAIL` wide: jetons on its inner half,
#: the holes on its outer half)
PEG_R, JETON_R = 7.5, 8


def _rail_x(f: _Frame, g: Geometry, k: int, viewer: bool) -> float:
    """The middle of the k-th point from a player's talon (0: the start hole beyond the
    talon) along his row: the viewer's row is his pips 24..13, the opponent's the viewer's
    pips 1..12."""
    def centre(n: int) -> float:
        col, _near = _column(g, 25 - n if viewer else n)
        return f.point_x(col) + f.pw / 2
    if k == 0:
        return 2 * centre(1) - centre(2)
    return centre(k)


def _peg(out: list[str], x: float, y: float, fill: tuple[str, str], side: str, what: str,
         n: int, half: tuple[str, str] | None = None) -> None:
    """A peg in a hole of the rail: a disc of `fill` (two halves with `half`), with a light
    edge so that a dark peg shows on the wood."""
    cls = f"peg {what}"
    if half is None:
        out.append(f"<circle{_attrs(class_=cls, cx=f'{x:.1f}', cy=f'{y:.1f}', r=PEG_R, fill=fill[0], stroke='#f3e2c0', stroke_width=2, data_side=side, data_holes=n)}/>")
    else:
        out.append(f"<g{_attrs(class_=cls, data_side=side, data_holes=n)}>")
        r = PEG_R
        out.append(f"<path{_attrs(d=f'M{x:.1f},{y - r:.1f} A{r},{r} 0 0,0 {x:.1f},{y + r:.1f} Z', fill=fill[0])}/>")
        out.append(f"<path{_attrs(d=f'M{x:.1f},{y - r:.1f} A{r},{r} 0 0,1 {x:.1f},{y + r:.1f} Z', fill=half[0])}/>")
        out.append(f"<circle{_attrs(cx=f'{x:.1f}', cy=f'{y:.1f}', r=r, fill='none', stroke='#f3e2c0', stroke_width=2)}/>")
        out.append("</g>")
    out.append(f"<circle{_attrs(cx=f'{x - 2.5:.1f}', cy=f'{y - 2.5:.1f}', r=2, fill='#fff', fill_opacity=0.55)}/>")


def _marks(out: list[str], f: _Frame, g: Geometry, marks: tuple[Marking, Marking],
           colours: tuple[str, str]) -> None:
    """Each player's holes and points on his rail (the viewer's along the near row, the
    opponent's along the far one): twelve holes and the start hole beyond the talon, his peg
    in the hole of his holes (round again after twelve, the count written beside it), his
    jeton at the foot of the point that counts his points from the talon (six against the
    bar), two jetons while he marks in bredouille."""
    for m, colour, viewer in ((marks[0], colours[0], True), (marks[1], colours[1], False)):
        side = "mover" if viewer else "opponent"
        edge = f.bottom if viewer else f.top
        sign = 1 if viewer else -1
        jy, hy = edge + sign * 9.5, edge + sign * (f.rail - 9)
        title = (f"{colour}: {m.points} point{'s' if m.points != 1 else ''}"
                 f"{' (in bredouille: two jetons)' if m.two_jetons else ''}, {m.holes} "
                 f"{m.counts}" + (f", {m.honours} holes of the honours game"
                                  if m.honours is not None else ""))
        out.append(f"<g{_attrs(class_='marks', data_side=side, data_colour=colour)}><title>{escape(title)}</title>")
        for k in range(13):
            out.append(f"<circle{_attrs(class_='hole', cx=f'{_rail_x(f, g, k, viewer):.1f}', cy=f'{hy:.1f}', r=3, fill='#2a170b')}/>")
        pegs: list[tuple[int, tuple[str, str], str, tuple[str, str] | None]] = []
        if m.honours is None:
            pegs.append((m.holes, COLOURS[colour][:2], "holes", None))
        elif m.honours == m.holes:
            pegs.append((m.holes, GOLD, "holes honours", SILVER))
        else:
            pegs += [(m.holes, GOLD, "holes", None), (m.honours, SILVER, "honours", None)]
        for n, fill, what, half in pegs:
            x = _rail_x(f, g, (n - 1) % 12 + 1 if n else 0, viewer)
            _peg(out, x, hy, fill, side, what, n, half)
            if n > 12:
                out.append(f"<text{_attrs(class_='peg-count', x=f'{x + 9:.1f}', y=f'{hy + 4:.1f}', font_size=11, font_weight='bold', fill='#fff')}>{n}</text>")
        first = _rail_x(f, g, 1 if m.holes else 0, viewer)
        if m.necktie:
            out.append(f"<circle{_attrs(class_='necktie', cx=f'{first:.1f}', cy=f'{hy:.1f}', r=PEG_R + 3, fill='none', stroke='#c0392b', stroke_width=2.2)}><title>{escape(colour)}'s necktie</title></circle>")
        if m.banner:
            bx = _rail_x(f, g, 0, viewer)
            top = hy - sign * 3
            out.append(f"<g{_attrs(class_='banner', data_side=side)}><title>{escape(colour)}'s banner</title>"
                       f"<line{_attrs(x1=f'{bx:.1f}', y1=f'{hy:.1f}', x2=f'{bx:.1f}', y2=f'{top - sign * 16:.1f}', stroke='#f3e2c0', stroke_width=1.5)}/>"
                       f"<polygon{_attrs(points=f'{bx:.1f},{top - sign * 16:.1f} {bx + 13:.1f},{top - sign * 12:.1f} {bx:.1f},{top - sign * 8:.1f}', fill='#c0392b')}/></g>")
        if m.points:
            k = min(m.points, 12)
            x = _rail_x(f, g, k, viewer)
            if k == 6:
                # six points: the jeton against the bar
                x += (f.pw / 2 - 9) * (1 if _rail_x(f, g, 7, viewer) > x else -1)
            # a second jeton lies beside the first, towards the talon
            back = 7 if _rail_x(f, g, 1, viewer) > _rail_x(f, g, 2, viewer) else -7
            for j in range(2 if m.two_jetons else 1):
                out.append(f"<circle{_attrs(class_='jeton', cx=f'{x + back * j:.1f}', cy=f'{jy:.1f}', r=JETON_R, fill=JETON[0], stroke=JETON[1], stroke_width=1.6, data_side=side, data_points=m.points)}/>")
            if m.points > 12:
                out.append(f"<text{_attrs(class_='jeton-count', x=f'{x:.1f}', y=f'{jy + 4:.1f}', text_anchor='middle', font_size=10, font_weight='bold', fill='#3b2a06')}>{m.points}</text>")
        out.append("</g>")


# -- the picture -------------------------------------------------------------------------------

def _attrs(**kw: Any) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
                   for k, v in kw.items() if v is not None)


def _checker(out: list[str], x: float, y: float, colour: str, pip: int, side: str,
             cls: str = "checker", r: float = R) -> None:
    fill, stroke, _ = COLOURS[colour]
    out.append(f"<circle{_attrs(class_=cls, cx=f'{x:.1f}', cy=f'{y:.1f}', r=r, fill=fill, stroke=stroke, stroke_width=2, data_pip=pip, data_side=side)}/>")


def _stack(out: list[str], x: float, edge: float, down: bool, n: int, colour: str, pip: int,
           side: str, room: float = PH, pinned: str | None = None, r: float = R,
           stacked: bool = False) -> None:
    """`n` checkers of radius `r` standing on a point whose base is at `edge`, growing down
    (far row) or up, squeezed when they do not fit in `room`. A pinned checker of colour
    `pinned` lies first, under them. `stacked`: the two are a pair still stacked one on the
    other (Doblet), drawn as one checker with a doubled outline."""
    if stacked and n == 2 and not pinned:
        cy = edge + (1 if down else -1) * r
        fill, stroke, ink = COLOURS[colour]
        out.append(f"<g{_attrs(class_='stacked', data_pip=pip)}><title>a pair of {colour}'s "
                   f"still stacked, one man on the other</title>")
        _checker(out, x, cy, colour, pip, side, r=r)
        _checker(out, x, cy, colour, pip, side, r=r - 6)
        out.append(f"<text{_attrs(class_='count', x=f'{x:.1f}', y=f'{cy + 5:.1f}', fill=ink, text_anchor='middle', font_size=14, font_weight='bold')}>2</text>")
        out.append("</g>")
        return
    total = n + (1 if pinned else 0)
    step = 2 * r if total <= 1 else min(2 * r, (room - 2 * r) / (total - 1))
    squeezed = total * 2 * r > room + 0.5
    sign = 1 if down else -1
    k = 0
    if pinned:
        cy = edge + sign * r
        other = "mover" if side == "opponent" else "opponent"
        out.append(f"<g{_attrs(class_='pin', data_pip=pip)}><title>a {pinned} checker pinned "
                   f"under {colour}'s: it cannot move until they leave</title>")
        _checker(out, x, cy, pinned, pip, other, cls="checker pinned", r=r)
        out.append(f"<circle{_attrs(cx=f'{x:.1f}', cy=f'{cy:.1f}', r=5, fill='#c0392b')}/>")
        ink = COLOURS[pinned][2]
        out.append(f"<text{_attrs(class_='pin-label', x=f'{x:.1f}', y=f'{cy - sign * 8 + 3:.1f}', fill=ink, text_anchor='middle', font_size=8, font_weight='bold')}>pin</text>")
        out.append("</g>")
        k = 1
    cy = edge
    for i in range(n):
        cy = edge + sign * (r + (k + i) * step)
        _checker(out, x, cy, colour, pip, side, r=r)
    if squeezed and n:
        ink = COLOURS[colour][2]
        out.append(f"<text{_attrs(class_='count', x=f'{x:.1f}', y=f'{cy + 6:.1f}', fill=ink, text_anchor='middle', font_size=17, font_weight='bold')}>{n}</text>")


def _die(out: list[str], x: float, y: float, n: int, size: float = 34, used: bool = False
         ) -> None:
    out.append(f"<g{_attrs(class_='die' + (' used' if used else ''), data_die=n)}>")
    out.append(f"<rect{_attrs(x=f'{x:.1f}', y=f'{y:.1f}', width=size, height=size, rx=6, fill='#fffdf6' if not used else '#d8d2c4', stroke='#333', stroke_width=1.5)}/>")
    c, q = size / 2, size / 4
    spots = {1: [(c, c)], 2: [(q, q), (3 * q, 3 * q)], 3: [(q, q), (c, c), (3 * q, 3 * q)],
             4: [(q, q), (3 * q, q), (q, 3 * q), (3 * q, 3 * q)],
             5: [(q, q), (3 * q, q), (c, c), (q, 3 * q), (3 * q, 3 * q)],
             6: [(q, q), (3 * q, q), (q, c), (3 * q, c), (q, 3 * q), (3 * q, 3 * q)]}
    for dx, dy in spots.get(n, []):
        out.append(f"<circle{_attrs(cx=f'{x + dx:.1f}', cy=f'{y + dy:.1f}', r=3.4, fill='#222')}/>")
    out.append("</g>")


def _cube(out: list[str], x: float, y: float, value: int, owner: str) -> None:
    """The doubling cube, its face up: 64 while centred at 1, as on a real board."""
    size = 36
    face = 64 if owner == "centre" and value == 1 else value
    out.append(f"<g{_attrs(class_='cube', data_owner=owner, data_value=value)}>"
               f"<title>the cube at {value}, {'centred' if owner == 'centre' else 'owned by ' + owner}"
               f"</title>")
    out.append(f"<rect{_attrs(x=f'{x - size / 2:.1f}', y=f'{y:.1f}', width=size, height=size, rx=5, fill='#fbf7ea', stroke='#222', stroke_width=2)}/>")
    out.append(f"<text{_attrs(x=f'{x:.1f}', y=f'{y + size / 2 + 6:.1f}', text_anchor='middle', font_size=17 if face < 100 else 13, font_weight='bold', fill='#222')}>{face}</text>")
    out.append("</g>")


def _unused_quarter(out: list[str], f: _Frame, g: Geometry) -> None:
    """The quarter of the board a route of 18 points does not use: its points drawn faint and
    plain (no `data-pip`, nothing to click), marked "not used"."""
    out.append(f"<g{_attrs(class_='unused')}><title>not used in this game: its route has 18 "
               f"points, three quarters of the board</title>")
    cols = []
    for pip in range(1, 7):
        col, near = _column24(g, pip)
        cols.append(col)
        x = f.point_x(col)
        base, tip = (f.bottom, f.bottom - f.ph + 8) if near else (f.top, f.top + f.ph - 8)
        out.append(f"<polygon{_attrs(points=f'{x},{base} {x + f.pw},{base} {x + f.pw / 2},{tip}', fill='#ddd3bf', stroke='#c9bda6', stroke_width=0.6)}/>")
    _col, near = _column24(g, 1)
    x0 = f.point_x(min(cols))
    y0 = f.bottom - f.ph if near else f.top
    out.append(f"<rect{_attrs(x=x0, y=y0, width=6 * f.pw, height=f.ph, fill='#8c7b62', fill_opacity=0.18)}/>")
    out.append(f"<text{_attrs(class_='unused-label', x=x0 + 3 * f.pw, y=f'{y0 + f.ph / 2 + 5:.1f}', text_anchor='middle', font_size=15, font_style='italic', fill='#6b5a44')}>not used</text>")
    out.append("</g>")


def _route_caption(labels: Mapping[int, str], narrow: bool = False) -> str:
    """The route of a board of 36 points in words, for the caption (shorter in the narrow
    form, as wide as a phone)."""
    def lab(p: int) -> str:
        return labels.get(p, str(p))
    if narrow:
        return (f"route: middle row {lab(36)}–{lab(25)}, far row {lab(24)}–{lab(13)}, "
                f"near row {lab(12)}–{lab(1)}, off")
    return (f"route: enter on the middle row, {lab(36)} to {lab(25)}, then the far row, "
            f"{lab(24)} to {lab(13)}, then the near row, {lab(12)} to {lab(1)}, and off")


def _route_arrows(out: list[str], f: _Frame, g: Geometry) -> None:
    """The way the viewer's men run along each row of a board of 36 points: an arrow at the
    end of each row, beside the tray (the far row's and the near row's in their label bands,
    the middle row's in the band over it)."""
    right = not g.mirror
    tx = f.tray_x + f.tray / 2
    # (the middle row and the near row run away from the left, the far row towards it; once
    # the narrow form turns the frame a quarter turn, left is up and right down)
    back, on = ("▲", "▼") if f.narrow else ("◀", "▶")
    rows = ((14, back if right else on, "far"), (int(f.row3 - GAP / 2 + 5), on if right else back,
                                               "middle"),
            (f.height - LABEL + 13, on if right else back, "near"))
    out.append(f"<g{_attrs(class_='route')}><title>the route of the men of the player whose "
               f"board this is: the middle row, then the far row, then the near row</title>")
    for y, arrow, row in rows:
        out.append(f"<text{_attrs(class_='route-arrow', x=f'{tx:.1f}', y=y, text_anchor='middle', font_size=14, fill='#f3e2c0' if row == 'middle' else '#333', data_row=row)}>{arrow}</text>")
    out.append("</g>")


def _narrow_label(out: list[str], f: _Frame, pip: int, xc: float, near: bool, text: str,
                  name: str | None) -> None:
    """A point's label (and name) in the narrow form: across its band, one under the other
    along the point once the frame is turned, each centred where `_turn` sets it upright."""
    band = f.height - f.label / 2 if near else f.label / 2
    lines = _wrap(name) if name else []
    top = xc - (13 + 9 * len(lines)) / 2
    out.append(f"<text{_attrs(class_='label', x=f'{top + 6.5 if lines else xc:.1f}', y=f'{band + 0.35 * 13:.1f}', text_anchor='middle', font_size=13, fill='#333', data_pip=pip)}>{escape(text)}</text>")
    for k, line in enumerate(lines):
        out.append(f"<text{_attrs(class_='name', x=f'{top + 17.5 + 9 * k:.1f}', y=f'{band + 0.35 * 7:.1f}', text_anchor='middle', font_size=7, font_style='italic', fill='#7a4a22')}>{escape(line)}</text>")


_TEXT = re.compile(r"<text([^>]*)>([^<]*)</text>")


def _upright(m: re.Match[str]) -> str:
    """A text of the wide form turned back a quarter turn about its middle, so that it stands
    upright once the frame is turned."""
    attrs, body = m.group(1), m.group(2)
    a = dict(re.findall(r' ([\w-]+)="([^"]*)"', attrs))
    size = float(a.get("font-size", 16))
    x, y = float(a.get("x", 0)), float(a.get("y", 0))
    cx = x if a.get("text-anchor") == "middle" else x + 0.3 * size * len(body)
    return (f'<text{attrs} transform="rotate(-90 {cx:.1f} {y - 0.35 * size:.1f})">{body}'
            f"</text>")


def _turn(out: list[str], f: _Frame, caption: str | None, width: int | None) -> list[str]:
    """The narrow form: the wide picture in `out` turned a quarter turn clockwise (the
    viewer's row down the left, the far row down the right, the tray at the bottom), every
    text stood upright again; the caption under it, across."""
    across, down = f.height, f.width
    height = down + (22 if caption else 0)
    size = f' width="{width}" height="{round(width * height / across)}"' if width else ""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="tablier-board narrow" '
            f'viewBox="0 0 {across} {height}"{size} font-family="sans-serif" role="img">')
    body = [_TEXT.sub(_upright, line) for line in out[2:]]
    turned = [head, out[1], f'<g class="turn" transform="translate({across},0) rotate(90)">',
              *body, "</g>"]
    if caption:
        turned.append(f"<text{_attrs(class_='caption', x=across / 2, y=height - 6, text_anchor='middle', font_size=10, fill='#333')}>{escape(caption)}</text>")
    return turned


def board_svg(board: Sequence[int], geometry: Geometry | None = None, *,
              dice: Sequence[int] | None = None, colours: tuple[str, str] = ("white", "black"),
              labels: Mapping[int, str] | None = None, names: Mapping[int, str] | None = None,
              movable: Iterable[int] = (), targets: Iterable[int] = (), picked: int | None = None,
              used_dice: Sequence[int] = (), caption: str | None = None,
              width: int | None = None, cube: tuple[int, str | None] | None = None,
              marks: tuple[Marking, Marking] | None = None, narrow: bool = False) -> str:
    """The SVG text of `board` (a kernel board seen by the viewer) in `geometry`.

    `colours` are the viewer's and the opponent's ("white" or "black"); `labels` pip → text
    (default: the viewer's pip numbers); `names` pip → name (default: the geometry's);
    `movable`, `targets`: pips to highlight (0 off, 25 the bar); `picked` the pip chosen;
    `used_dice` the numbers already played (drawn greyed); `caption` a line under the board;
    `width` the picture's width in pixels (default: its natural size, scalable); `cube` the
    doubling cube, (value, owner: "mover", "opponent" or None when centred), drawn on the bar:
    in its middle when centred, at the owner's end otherwise; `marks` the holes and points of
    the viewer and the opponent (`Marking`), drawn with pegs and jetons on a wider frame along
    the rows (the trictrac family's layout only); `narrow` the form for a phone held upright
    (`_turn`): the frame turned a quarter turn, the points shortened, the same parts and
    `data-pip`s."""
    g = geometry or Geometry()
    if g.near != "start" or g.points != 24:
        marks = None
    f = _Frame(g, RAIL if marks is not None else FRAME, narrow)
    ph = f.ph
    labels = {p: str(p) for p in range(1, g.points + 1)} if labels is None else labels
    names = g.names if names is None else names
    movable, targets = set(movable), set(targets)
    mine, theirs = colours
    if g.points == 36 and not caption:
        caption = _route_caption(labels, narrow)
    if not g.slots and len(board) > 28 and board[28] and not caption:
        caption = "pin: a checker pinned under the stack that holds it (it cannot move)"
    stacked_mine, stacked_theirs = g.stacked_pips(board)
    if (stacked_mine or stacked_theirs) and not caption:
        caption = "a doubled outline: a pair still stacked, one man on the other"
    height = f.height + (22 if caption else 0)
    size = f' width="{width}" height="{round(width * height / f.width)}"' if width else ""
    # (a board of one half, a route of 12 points, is taller than wide: the page keeps it
    # within the window's height by its class)
    half = " half" if g.points == 12 else ""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tablier-board{half}" '
           f'viewBox="0 0 {f.width} {height}"{size} font-family="sans-serif" role="img">',
           "<style>.hit{cursor:pointer}.target .tri{fill:#3fa34d}.target .hit{fill:#3fa34d;"
           "fill-opacity:.18}.movable circle.checker{stroke:#e67e22;stroke-width:4}"
           ".picked .hit{fill:#e67e22;fill-opacity:.22}.unentered.movable circle.checker{stroke:#e67e22;"
           "stroke-width:3}.movable .waiting-label{fill:#ffd08a}"
           "text.count,text.waiting-label,text.pin-label,.cube{pointer-events:none}</style>",
           f"<rect{_attrs(class_='frame', x=0, y=f.label, width=f.width, height=f.bottom + f.rail - f.label, rx=8, fill='#6b4226')}/>"]
    # the two halves and the tray
    for hx in f.half:
        out.append(f"<rect{_attrs(x=hx, y=f.top, width=6 * f.pw, height=f.bottom - f.top, fill='#e9d8b4')}/>")
    out.append(f"<rect{_attrs(class_='bar', x=f.bar_x, y=f.top, width=f.barw, height=f.bottom - f.top, fill='#5a371f')}/>")
    out.append(f"<rect{_attrs(class_='tray', x=f.tray_x, y=f.top, width=f.tray, height=f.bottom - f.top, fill='#4a2d19')}/>")
    corners = set(g.corners)
    if g.points == 18:
        _unused_quarter(out, f, g)
    # the points
    for pip in range(1, g.points + 1):
        col, near = _column(g, pip)
        x = f.point_x(col)
        # the board's slot of the pip: itself, but on the middle row of a board of 36 points
        slot = g.slots[pip] if g.slots else pip
        middle = pip > 24
        cls = ["point"]
        if slot in targets:
            cls.append("target")
        if slot in movable:
            cls.append("movable")
        if slot == picked:
            cls.append("picked")
        base, tip = (f.bottom, f.bottom - ph + 8) if near else (f.top, f.top + ph - 8)
        if middle:
            base = f.row3
        shade = "#a0522d" if col % 2 == 0 else "#f3e9d2"
        if pip in corners:
            shade = "#7a2e1a" if col % 2 == 0 else "#d9b98a"
        out.append(f"<g{_attrs(class_=' '.join(cls), data_pip=slot)}>")
        if middle:
            # a field of the shared middle row: men of either colour stand on it
            out.append(f"<rect{_attrs(class_='tri field', x=f'{x + 2:.1f}', y=base, width=f.pw - 4, height=ph, rx=5, fill=shade, stroke='#6b4226', stroke_width=0.6)}/>")
        else:
            out.append(f"<polygon{_attrs(class_='tri', points=f'{x},{base} {x + f.pw},{base} {x + f.pw / 2},{tip}', fill=shade, stroke='#6b4226', stroke_width=0.6)}/>")
        title = f"pip {labels.get(pip, pip)}" + (f": {names[pip]}" if pip in names else "") + \
            (" (the middle row, both sides' route)" if middle else "")
        n = board[slot]
        pinned = None
        if not g.slots and len(board) > 28 and board[28] >> pip & 1 and n:
            pinned = theirs if n > 0 else mine
        if n:
            _stack(out, x + f.pw / 2, base, not near, abs(n), mine if n > 0 else theirs, slot,
                   "mover" if n > 0 else "opponent", room=ph, pinned=pinned, r=f.r,
                   stacked=pip in (stacked_mine if n > 0 else stacked_theirs))
        # the point's clickable area lies over its checkers
        y0 = f.bottom - ph if near else base if middle else f.top
        out.append(f"<rect{_attrs(class_='hit', x=x, y=y0, width=f.pw, height=ph, fill='#fff', fill_opacity=0, data_pip=slot)}><title>{escape(title)}</title></rect>")
        out.append("</g>")
        # the label and the name, outside the frame
        text = labels.get(pip, "")
        if f.narrow and not middle:
            _narrow_label(out, f, slot, x + f.pw / 2, near, text, names.get(pip))
            continue
        ly = f.height - LABEL + 13 if near else 14
        if middle:
            # in the band between the far row and the middle row, over its field
            ly = int(f.row3 - GAP / 2 + 5)
        out.append(f"<text{_attrs(class_='label', x=x + f.pw / 2, y=ly, text_anchor='middle', font_size=13, fill='#5b3a1f' if middle else '#333', data_pip=slot)}>{escape(text)}</text>")
        if pip in names and not middle:
            lines = _wrap(names[pip])
            for k, line in enumerate(lines):
                ny = (f.height - 14 + 10 * k) if near else (LABEL - 14 + 10 * k)
                if not near and len(lines) == 1:
                    ny += 4
                out.append(f"<text{_attrs(class_='name', x=x + f.pw / 2, y=ny, text_anchor='middle', font_size=8.5, font_style='italic', fill='#7a4a22')}>{escape(line)}</text>")
    if g.points == 36:
        _route_arrows(out, f, g)
    # the bar: the viewer's checkers on the far half (he enters there), the opponent's near;
    # on a route of 12 points each enters on his own row: the viewer's near, the opponent's far
    bx = f.bar_x + f.barw / 2
    out.append(f"<g{_attrs(class_='barpoint' + (' target' if 25 in targets else '') + (' movable' if 25 in movable else '') + (' picked' if picked == 25 else ''), data_pip=25)}>")
    own_near = g.points == 12
    if board[BAR]:
        _stack(out, bx, f.mid + GAP / 2 if own_near else f.mid - GAP / 2, own_near, board[BAR],
               mine, 25, "mover", room=ph, r=f.r)
    if board[OPP_BAR]:
        _stack(out, bx, f.mid - GAP / 2 if own_near else f.mid + GAP / 2, not own_near,
               board[OPP_BAR], theirs, 26, "opponent", room=ph, r=f.r)
    out.append(f"<rect{_attrs(class_='hit', x=f.bar_x, y=f.top, width=f.barw, height=f.bottom - f.top, fill='#fff', fill_opacity=0, data_pip=25)}><title>bar</title></rect>")
    out.append("</g>")
    # the tray: the viewer's checkers off on his row, the opponent's on the far row
    tx = f.tray_x
    # a checker off is a slice 10 high, thinner where fifteen would pass the middle
    step = min(10.0, (ph + GAP / 2 - 24) / 15)
    out.append(f"<g{_attrs(class_='off' + (' target' if 0 in targets else ''), data_pip=0)}>")
    for count, colour, side, near in ((board[OFF], mine, "mover", True),
                                      (board[OPP_OFF], theirs, "opponent", False)):
        fill, stroke, ink = COLOURS[colour]
        for i in range(count):
            y = f.bottom - 4 - (i + 1) * step if near else f.top + 4 + i * step
            out.append(f"<rect{_attrs(class_='checker off', x=tx + 6, y=f'{y:g}', width=f.tray - 12, height=f'{step - 1:g}', rx=2, fill=fill, stroke=stroke, data_pip=0 if near else 27, data_side=side)}/>")
        if count:
            y = f.bottom - 4 - count * step - 6 if near else f.top + 4 + count * step + 14
            out.append(f"<text{_attrs(class_='count', x=tx + f.tray / 2, y=y, text_anchor='middle', font_size=13, fill='#fff')}>{count}</text>")
    out.append(f"<rect{_attrs(class_='hit', x=tx, y=f.top, width=f.tray, height=f.bottom - f.top, fill='#fff', fill_opacity=0, data_pip=0)}><title>off</title></rect>")
    out.append("</g>")
    # checkers waiting off the board (slots 29, 30), in the tray's middle
    if len(board) > 30:
        for count, colour, side, dy in ((board[29], mine, "mover", 12),
                                        (board[30], theirs, "opponent", -12)):
            if count:
                cy = f.mid + dy
                out.append(f"<g{_attrs(class_='unentered', data_side=side)}>")
                pip = 29 if side == "mover" else 30
                group = "unentered" + (" movable" if pip in movable else "") + \
                    (" picked" if pip == picked else "")
                out[-1] = f"<g{_attrs(class_=group, data_side=side, data_pip=pip)}>"
                _checker(out, tx + 16, cy, colour, pip, side, cls="checker waiting", r=9)
                out.append(f"<text{_attrs(class_='count', x=tx + 30, y=cy + 4, font_size=12, fill='#fff', font_weight='bold')}>{count}</text>")
                # the label: below the viewer's count, above the opponent's, so that two
                # labels never meet between the counts
                label_y = cy + (21 if side == "mover" else -14)
                if f.narrow:    # turned, the label stands beside the checker: clear of it
                    label_y += 12 if side == "mover" else -12
                out.append(f"<text{_attrs(class_='waiting-label', x=tx + f.tray / 2, y=label_y, font_size=9, fill='#f3e2c0', text_anchor='middle')}>to enter</text>")
                if side == "mover":
                    # a finger wide in the narrow form too
                    hy, hh = (cy - 15, 44) if f.narrow else (cy - 12, 38)
                    out.append(f"<rect{_attrs(class_='hit', x=tx, y=hy, width=f.tray, height=hh, fill='#fff', fill_opacity=0, data_pip=pip)}/>")
                out.append(f"<title>{count} {colour} waiting off the board to enter</title></g>")
    if marks is not None:
        _marks(out, f, g, marks, colours)
    if cube is not None:
        value, owner = cube
        cube_y = f.mid - 18 if owner is None else (f.bottom - 40 if owner == "mover" else f.top + 4)
        who = "centre" if owner is None else (mine if owner == "mover" else theirs)
        _cube(out, bx, cube_y, value, who)
    # the dice, on the viewer's side of the half away from the tray
    if dice:
        # (one half only on a route of 12 points: the dice in its middle)
        # (on a route of 18 points, the half whose quarters are both used)
        if len(f.half) == 1:
            dx = f.half[0] + 3 * f.pw - (44 * len(dice) - 10) / 2
        else:
            dx = f.half[0 if g.points == 18 else 1] + 3 * f.pw - 40
        used = list(used_dice)
        for i, d in enumerate(dice):
            is_used = d in used
            if is_used:
                used.remove(d)
            _die(out, dx + i * 44, f.mid - 17, int(d), used=is_used)
    if f.narrow:
        out = _turn(out, f, caption, width)
    elif caption:
        out.append(f"<text{_attrs(class_='caption', x=f.width / 2, y=height - 6, text_anchor='middle', font_size=14, fill='#333')}>{escape(caption)}</text>")
    out.append("</svg>")
    return "\n".join(out)


def position_svg(variant: Any, board: Sequence[int], *, dice: Sequence[int] | None = None,
                 mover: int = 0, side: int | None = None, labels: Mapping[int, str] | None = None,
                 mirror: bool = False, cube: tuple[int, str | None] | None = None,
                 marking: tuple[Marking, Marking] | None = None, choices: bool = True,
                 **kw: Any) -> str:
    """The picture of `board`, seen by the mover (`mover`: 0 white, 1 black), drawn from the
    side of player `side` (default: the mover's): the board is turned to him first. `cube`:
    (value, owner "white" | "black" | None when centred); `marking`: white's and black's holes
    and points (`marking_of`), drawn on the frame; `choices`: the points a choice made before
    the game names (`[turn.choose]`: the goal quarter of Doze canes, a label `19-24` of the
    viewer's pips) are named under their labels by the choice's name (False while the choice
    is still to be made)."""
    from interpreter.notation import chosen

    side = mover if side is None else side
    g = Geometry.from_variant(variant, mirror=mirror)
    if side != mover:
        board = variant.flip(tuple(board))
    marked = [(rule, pips) for rule, _label, pips in chosen(variant, board) if pips] \
        if choices else []
    if marked:
        names = dict(g.names if kw.get("names") is None else kw["names"])
        for rule, pips in marked:
            for pip in pips:
                names.setdefault(pip, rule.name)
        kw["names"] = names
    colours = ("white", "black") if side == 0 else ("black", "white")
    drawn = None
    if cube is not None:
        owner = cube[1]
        drawn = (cube[0], None if owner is None else
                 "mover" if owner == colours[0] else "opponent")
    marks = None if marking is None else \
        (marking[0], marking[1]) if side == 0 else (marking[1], marking[0])
    return board_svg(board, g, dice=dice, colours=colours, labels=labels, cube=drawn,
                     marks=marks, **kw)


__all__ = ["Geometry", "Marking", "board_svg", "marking_of", "position_svg", "point_names"]
