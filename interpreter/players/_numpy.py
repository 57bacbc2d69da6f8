"""numpy for the bots, with one BLAS thread.

The bots multiply small matrices (a few dozen positions by a few hundred features) many times
a second; a multithreaded BLAS spends more on waking its threads than on the products (four
times slower here on two cores), and a machine shared by several jobs loses more. The thread
counts must be set before numpy is first imported: every bot module imports numpy from here.
"""
from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

__all__ = ["np"]
