"""A small value network: one hidden layer of sigmoid units, sigmoid outputs (numpy).

The outputs are probabilities of the play's outcome for the player the state is valued for:
`win`, then for each value level v above one that the variant's games can reach (backgammon's
gammon 2 and backgammon 3), `win>=v` and `lose>=v`. Their expected value in game units is
`equity()`; `flip()` turns outputs for one player into outputs for the other.

Weights live in a `.npz` file with the variant's id, the names of the input features (a network
is refused on features it was not trained on), the value levels and how it was trained.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from interpreter.players._numpy import np

from interpreter.errors import TablierError

FORMAT = "tablier-value-net/1"


class WeightsError(TablierError):
    """A weights file that cannot be used: unreadable, of another format, or for other
    features than the variant's."""


def _sigmoid(z: np.ndarray) -> np.ndarray:
    # the logistic function through tanh: no overflow, no clipping
    return 0.5 + 0.5 * np.tanh(0.5 * z)


class ValueNet:
    """inputs → hidden (sigmoid) → outputs (sigmoid)."""

    def __init__(self, inputs: int, hidden: int, levels: Sequence[int] = (), *,
                 seed: int = 0, scale: float = 0.1):
        rng = np.random.default_rng(seed)
        self.levels = tuple(int(v) for v in levels)
        outputs = 1 + 2 * len(self.levels)
        # all parameters live in one flat array (`theta`); W1, b1, W2, b2 are views of it
        self.theta = rng.uniform(-scale, scale,
                                 inputs * hidden + hidden + hidden * outputs + outputs)
        self._views(inputs, hidden, outputs)
        self.meta: dict[str, Any] = {}
        self._flip = self._flip_index()
        self._weights = self._equity_weights()

    def _views(self, inputs: int, hidden: int, outputs: int) -> None:
        t = self.theta
        a = inputs * hidden
        b = a + hidden
        c = b + hidden * outputs
        self.W1 = t[:a].reshape(inputs, hidden)
        self.b1 = t[a:b]
        self.W2 = t[b:c].reshape(hidden, outputs)
        self.b2 = t[c:]
        self.blocks = (0, a, b, c)

    @property
    def inputs(self) -> int:
        return self.W1.shape[0]

    @property
    def hidden(self) -> int:
        return self.W1.shape[1]

    @property
    def outputs(self) -> int:
        return self.W2.shape[1]

    def _flip_index(self) -> np.ndarray:
        k = len(self.levels)
        return np.array([0] + [1 + k + i for i in range(k)] + [1 + i for i in range(k)])

    def _equity_weights(self) -> np.ndarray:
        """Equity = (2 win - 1) + sum over levels of (v - previous v)(win>=v - lose>=v)."""
        w = np.zeros(self.outputs)
        w[0] = 2.0
        prev = 1
        k = len(self.levels)
        for i, v in enumerate(self.levels):
            w[1 + i] = v - prev
            w[1 + k + i] = -(v - prev)
            prev = v
        return w

    # -- evaluation -----------------------------------------------------------------------------

    def forward(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(hidden, outputs) for the rows of X."""
        H = _sigmoid(X @ self.W1 + self.b1)
        return H, _sigmoid(H @ self.W2 + self.b2)

    def outputs_of(self, X: np.ndarray) -> np.ndarray:
        return self.forward(X)[1]

    def equity(self, Y: np.ndarray) -> np.ndarray:
        """The expected game value of each row of outputs, in game units (−max..max)."""
        return Y @ self._weights - 1.0

    def flip(self, Y: np.ndarray) -> np.ndarray:
        """Outputs for the other player."""
        out = Y[..., self._flip].copy()
        out[..., 0] = 1.0 - out[..., 0]
        return out

    def target(self, won: float, level: int) -> np.ndarray:
        """The outputs a finished play gives, for the player it is seen by: `won` his share of
        the win (1, 0, or one half for a play without a winner, which reaches no value level)."""
        k = len(self.levels)
        t = np.zeros(self.outputs)
        t[0] = float(won)
        if won in (0.0, 1.0):
            for i, v in enumerate(self.levels):
                if level >= v:
                    t[(1 + i) if won else (1 + k + i)] = 1.0
        return t

    # -- gradients (for training) ---------------------------------------------------------------

    def add_gradients(self, x: np.ndarray, E: np.ndarray, scale: float) -> np.ndarray:
        """Add d output / d theta at x, divided by `scale`, to the traces E (outputs × params),
        touching only the rows of W1 whose input is not zero; the outputs at x."""
        h = _sigmoid(x @ self.W1 + self.b1)
        y = _sigmoid(h @ self.W2 + self.b2)
        gy = y * (1.0 - y) / scale                        # (O,)
        gh = (self.W2 * gy).T * (h * (1.0 - h))           # (O, H)
        O, H, I = self.outputs, self.hidden, self.inputs
        _z, a, b, c = self.blocks
        nz = np.flatnonzero(x)
        EW1 = E[:, :a].reshape(O, I, H)
        EW1[:, nz, :] += x[nz][None, :, None] * gh[:, None, :]
        E[:, a:b] += gh
        EW2 = E[:, b:c].reshape(O, H, O)
        idx = np.arange(O)
        EW2[idx, :, idx] += gy[:, None] * h[None, :]
        E[idx, c + idx] += gy
        return y

    def widened(self, hidden: int, *, seed: int = 0, scale: float = 0.1) -> "ValueNet":
        """A copy with `hidden` hidden units that gives the same outputs: the new units' input
        weights are drawn small (uniform in ±`scale`, from `seed`), their weights to the
        outputs are zero, so training grows them from where this network stands."""
        if hidden < self.hidden:
            raise TablierError(f"a network of {self.hidden} hidden units cannot shrink to "
                               f"{hidden}")
        out = ValueNet(self.inputs, hidden, self.levels)
        rng = np.random.default_rng(seed)
        h = self.hidden
        out.W1[:, :h] = self.W1
        out.W1[:, h:] = rng.uniform(-scale, scale, (self.inputs, hidden - h))
        out.b1[:h] = self.b1
        out.b1[h:] = 0.0
        out.W2[:h] = self.W2
        out.W2[h:] = 0.0
        out.b2[:] = self.b2
        out.meta = dict(self.meta)
        return out

    @property
    def params(self) -> list[np.ndarray]:
        return [self.W1, self.b1, self.W2, self.b2]

    # -- files ----------------------------------------------------------------------------------

    def save(self, path: str | Path, meta: dict[str, Any]) -> None:
        path = Path(path)
        info = dict(meta, format=FORMAT, levels=list(self.levels))
        from interpreter.outputs import open_output
        with open_output(path, binary=True) as fh:
            np.savez(fh, W1=self.W1, b1=self.b1, W2=self.W2, b2=self.b2,
                     meta=np.array(json.dumps(info, sort_keys=True)))
        self.meta = info

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: np.array(data[k]) for k in ("W1", "b1", "W2", "b2", "meta")}
        except FileNotFoundError:
            raise WeightsError(f"no weights file {str(path)!r}") from None
        except (OSError, ValueError, KeyError) as exc:
            raise WeightsError(f"{str(path)!r} is not a weights file of tablier: "
                               f"{type(exc).__name__}") from None
        try:
            meta = json.loads(str(arrays["meta"]))
        except ValueError:
            raise WeightsError(f"{str(path)!r}: unreadable metadata") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise WeightsError(f"{str(path)!r} is not a {FORMAT} weights file")
        W1, b1, W2, b2 = (arrays[k].astype(np.float64) for k in ("W1", "b1", "W2", "b2"))
        levels = tuple(int(v) for v in meta.get("levels", ()))
        if (W1.ndim != 2 or b1.shape != (W1.shape[1],) or W2.ndim != 2
                or W2.shape[0] != W1.shape[1] or W2.shape[1] != 1 + 2 * len(levels)
                or b2.shape != (W2.shape[1],)):
            raise WeightsError(f"{str(path)!r}: the arrays' shapes do not fit together")
        if len(meta.get("features", ())) != W1.shape[0]:
            raise WeightsError(f"{str(path)!r}: {W1.shape[0]} inputs but "
                               f"{len(meta.get('features', ()))} feature names")
        net = cls(W1.shape[0], W1.shape[1], levels)
        net.theta[:] = np.concatenate([W1.ravel(), b1, W2.ravel(), b2])
        net.meta = meta
        return net

    def check_features(self, names: Sequence[str], variant_id: str, where: str) -> None:
        """Refuse a network trained on other features than `names`."""
        mine = list(self.meta.get("features", ()))
        if mine != list(names):
            extra = sorted(set(mine) - set(names))[:3]
            missing = sorted(set(names) - set(mine))[:3]
            raise WeightsError(
                f"{where}: trained on other features than {variant_id!r} has "
                f"(trained for {self.meta.get('variant')!r}; "
                f"{'not in this variant: ' + ', '.join(extra) if extra else ''}"
                f"{'; missing: ' + ', '.join(missing) if missing else ''})".replace("(; ", "("))
