"""Every limit the rule compiler enforces on an untrusted variant file, in one place.

docs/dsl.md ("Limits") states them for authors; a file over one of them is refused at load time
with a `dsl-limit` diagnostic (a pip off the board with `dsl-range`), never run.
"""
from __future__ import annotations

#: characters in one snippet, and how deep its syntax may nest
MAX_SNIPPET_CHARS = 4000
MAX_DEPTH = 40
#: parts of one rule once its definitions are expanded (the work of expanding them included)
MAX_NODES = 20_000
#: levels of nesting of one rule once its definitions are expanded
MAX_EXPANDED_DEPTH = 100
#: aggregates inside aggregates
MAX_AGGREGATE_NESTING = 5

#: a number written in a snippet, or an integer option a snippet reads, is within ±MAX_LITERAL
MAX_LITERAL = 1_000_000
#: every number a snippet computes is bounded at load time (interval analysis) within ±MAX_VALUE
MAX_VALUE = 1_000_000_000_000

#: a range `a..b` holds at most MAX_RANGE_VALUES numbers, all within RANGE_MIN..RANGE_MAX; a range
#: whose bounds are computed is checked on their load-time bounds and clipped at run time
MAX_RANGE_VALUES = 64
RANGE_MIN, RANGE_MAX = -1000, 1000

# What the cost model assumes of the quantities a file cannot bound itself, used only to price
# the rules inside one call (the number of calls is bounded from the variant: dsl/runs.py)
ASSUMED_PATHS = 24            # paths of one play (`pl.paths`): the orders of a doublet's 4 steps
ASSUMED_STEPS = 4             # steps of one path
#: bounds assumed for the throw counters (a range computed from them is clipped at run time)
ROLLS_CAP = 1000
SETUP_CAP = 1000
#: and for the ladder's points an end or value rule may read (`my_points`, `their_points`)
POINTS_CAP = 1000

#: the most work the rules of one file may do in one throw, in the cost model's units (one unit:
#: one part of the expanded rule evaluated once): every hook's cost times the number of times it
#: runs (dsl/runs.py), summed over the file, its `extends` and a rotation's games; about 10 ns a
#: unit, 10 s at most for a throw at the bounds (docs/dsl.md, "Limits")
COST_BUDGET = 1_000_000_000

#: aggregates over a fixed set of at most MAX_UNROLL_ITEMS pips are written out term by term
#: when the written-out form has at most MAX_UNROLL_NODES parts; all of a hook's written-out
#: forms together may add at most HOOK_UNROLL_BUDGET parts (so generated code stays linear in
#: the expanded rule)
MAX_UNROLL_ITEMS = 24
MAX_UNROLL_NODES = 2000
HOOK_UNROLL_BUDGET = 20_000
