"""How many times each kind of hook runs, bounded from the variant's checkers, dice and board.

The cost model prices one call of a hook (`bounds.Cost`); what a throw costs is that price times
the number of calls, and the number of calls is bounded here from what the file declares, never
assumed:

- a step of a play moves one checker from one of the slots the mover occupies: at most
  `m = min(checkers, 25)` of them (24 points and the bar or the men waiting to enter);
- the candidate paths of one throw (a `forbid` rule runs once on each, whatever its length) are
  the step sequences: for a doublet played `k` times at most m + m² + ... + m^k, for two
  different numbers at most 2m + 2m² (each step also picks its die); the single moves a rule
  `on = "move"` is asked of are prefixes of them, bounded alike;
- the distinct plays of one throw (a `prefer` rule, a score `on = "play"` run once on each): for
  two numbers at most the paths; for a doublet the end board depends only on which slots the k
  steps leave from, so at most the multisets of at most k slots, C(m, 1) + ... + C(m + k - 1, k);
- with three dice (`[turn] count = 3`, each die one move) the paths of one order are at most
  m + m² + m³, over at most 6 orders; a play's end board is fixed by which man each die moves:
  three men (at most m³ ways), one man with two dice in either order and another with the
  third (6m²), or one man with all three in any order (6m), so at most m³ + 6m² + 6m plays;
  with two dice alike the men they move are a multiset (m·C(m + 1, 2) + 3m² + 3m), and with
  three alike C(m + 2, 3) + m² + m;
- the boards a bot judges for one decision (`[bot] features`, and the end and value rules it
  asks of each board): the plays of the throw, and for the search two throws deep
  (`search:2`, the widest it keeps, `WIDTH`) the plays of the 21 replies to each kept play
  (56 with three dice).
  The judge reads a feature on the board seen by each side: twice a board;
- the throws a rule on the throw (a `score` rule) is run for: the throw played, and in the
  search two throws deep each of the 21 replies to each kept play, played on a copy.

Checked against the kernel: in random positions of 15 men, the most paths one doublet gave was
41,448, within the bound of 54,240.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

#: the plays a search of two throws keeps for its second look (players/search.py `width`)
WIDTH = 6
#: the candidates the throw's special moves may add (a `puissance` of the trictrac family)
EXTRA = 2


@dataclass(frozen=True)
class Runs:
    """Calls of each kind of hook in one throw, for one variant."""

    slots: int
    steps: int
    paths: int
    plays: int
    boards: int
    throws: int = 1 + WIDTH * 21

    @property
    def moves(self) -> int:
        return self.paths


def runs_of(checkers: int = 15, doublet_moves: int = 4, dice: int = 2) -> Runs:
    """The bounds for a variant of `checkers` men a side whose doublets are played
    `doublet_moves` times, or whose throws are of three dice (`dice = 3`; see the module)."""
    m = max(1, min(int(checkers), 25))
    if dice == 3:
        paths3 = 6 * (m + m * m + m ** 3) + EXTRA
        # the plays of a throw of three different numbers, of a doublet and a third number
        # (two dice alike: the men they move are a multiset), and of a triplet
        distinct = min(paths3, m ** 3 + 6 * m * m + 6 * m + EXTRA)
        pair = min(distinct, m * comb(m + 1, 2) + 3 * m * m + 3 * m + EXTRA)
        triple = min(pair, comb(m + 2, 3) + m * m + m + EXTRA)
        replies3 = 20 * distinct + 30 * pair + 6 * triple      # the 56 throws of the next player
        return Runs(m, 3, paths3, distinct, distinct + WIDTH * replies3, 1 + WIDTH * 56)
    k = max(2, int(doublet_moves))
    doublet_paths = sum(m ** j for j in range(1, k + 1))
    mixed_paths = 2 * m + 2 * m * m
    paths = max(doublet_paths, mixed_paths) + EXTRA
    doublet_plays = min(doublet_paths, sum(comb(m + j - 1, j) for j in range(0, k + 1))) + EXTRA
    mixed_plays = mixed_paths + EXTRA
    plays = max(doublet_plays, mixed_plays)
    replies = 15 * mixed_plays + 6 * doublet_plays       # the 21 throws of the next player
    boards = plays + WIDTH * replies
    return Runs(m, k, paths, plays, boards)
