"""A small value network: one hidden layer of sigmoid units, sigmoid outputs (numpy).

The outputs are probabilities of the play's outcome for the player the state is valued for:
`win`, then for each value level v above one that the variant's games can reach (backgammon's
gammon 2 and backgammon 3), `win>=v` and `lose>=v`. Their expected value in game units is
`equity()`; `flip()` turns outputs for one player into outputs for the other.

Weights live in a `.npz` file with the variant's id, the names of the input features (a network
is refused on features it was not trained on), the value levels and how it was trained.
"""
from __future__ import annotations

import io
import json
import math
import struct
import zipfile
from pathlib import Path
from typing import IO, Any, Callable, Sequence

from interpreter.players._numpy import np

from interpreter.bounded import in_range, is_int, parse_json, read_bytes, shown
from interpreter.errors import InputError, TablierError
from interpreter.threadsafe import literal_python

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

    def transferred(self, names: Sequence[str], levels: Sequence[int], *, hidden: int = 0,
                    seed: int = 0, scale: float = 0.1) -> tuple["ValueNet", str]:
        """A network for other features (`names`) and value levels that starts from what this
        one knows, and a line saying what carried over: each input named as one of this
        network's features keeps its weights, an input it never saw starts at zero (its hidden
        units say what they said), and the win output and each value level both know keep
        theirs; a level this one lacks starts small and is learned. At least this network's
        hidden units (more where `hidden` asks; the new ones silent at first)."""
        h = max(self.hidden, hidden)
        out = ValueNet(len(names), h, levels, seed=seed, scale=scale)
        old = self.hidden
        mine = {str(n): i for i, n in enumerate(self.meta.get("features", ()))}
        kept = 0
        for j, name in enumerate(names):
            i = mine.get(name)
            if i is None:
                out.W1[j, :old] = 0.0
            else:
                out.W1[j, :old] = self.W1[i]
                kept += 1
        out.b1[:old] = self.b1
        k_old, k_new = len(self.levels), len(out.levels)
        pairs = [(0, 0)]
        for a, v in enumerate(out.levels):
            if v in self.levels:
                b = self.levels.index(v)
                pairs += [(1 + a, 1 + b), (1 + k_new + a, 1 + k_old + b)]
        out.W2[old:] = 0.0
        for a, b in pairs:
            out.W2[:old, a] = self.W2[:, b]
            out.b2[a] = self.b2[b]
        said = (f"{kept} of {len(names)} inputs, {len(pairs)} of {out.outputs} outputs and "
                f"{old} hidden units carried over")
        return out, said

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
        """The network in the weights file `path`, read as untrusted input (`read_weights`,
        `checked_meta`): any fault is one `WeightsError`."""
        where = shown(str(path), 120)
        arrays, text = read_weights(path)
        meta = checked_meta(text, where)
        W1, b1, W2, b2 = (arrays[k].astype(np.float64) for k in ("W1", "b1", "W2", "b2"))
        levels = tuple(meta.get("levels", ()))
        if (b1.shape != (W1.shape[1],) or W2.shape[0] != W1.shape[1]
                or W2.shape[1] != 1 + 2 * len(levels) or b2.shape != (W2.shape[1],)):
            raise WeightsError(f"{where}: the arrays' shapes do not fit together")
        features = meta.get("features", [])
        if len(features) != W1.shape[0]:
            raise WeightsError(f"{where}: {W1.shape[0]} inputs but {len(features)} feature "
                               f"names")
        if W1.shape[0] < 1 or W1.shape[1] < 1:
            raise WeightsError(f"{where}: a network needs at least one input and one hidden "
                               f"unit")
        theta = np.concatenate([W1.ravel(), b1, W2.ravel(), b2])
        if not np.isfinite(theta).all():
            raise WeightsError(f"{where}: the weights hold NaN or infinite numbers")
        net = cls(W1.shape[0], W1.shape[1], levels)
        net.theta[:] = theta
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


# -- reading a weights file from a stranger -----------------------------------------------------
#
# `np.load` trusts its file: it allocates what an array's header declares (a file of 780 KB that
# declares 10,000 x 10,000 numbers takes 3 GB), decompresses a member whole, opens a FIFO and
# waits on it. A weights file is untrusted input (docs/security.md), so it is read here: once,
# by the bounded reader (a regular file of at most MAX_WEIGHTS_BYTES), the zip opened from
# memory with its directory checked (the number of members, each member's declared size)
# before anything is decompressed, each `.npy` header parsed and its dtype and shape checked
# before its data is read, the data read by a bounded read of exactly the size the header
# gives. Nothing is unpickled.

#: the largest weights file read: the shipped ones are 78 to 250 KB; MAX_PARAMS numbers of
#: float64, stored, fit in it
MAX_WEIGHTS_BYTES = 64 << 20
#: the members a weights file may hold (np.savez writes five)
MAX_MEMBERS = 16
#: the size of a zip's central directory read (five members take about 300 bytes)
MAX_DIRECTORY_BYTES = 1 << 16
#: the largest `.npy` header read (numpy writes 128 bytes; numpy itself reads at most 10,000)
MAX_NPY_HEADER = 4096
#: the largest network read: inputs, hidden units, value levels, parameters in all
MAX_INPUTS = 10_000
MAX_HIDDEN = 4_096
MAX_LEVELS = 16
MAX_LEVEL = 1000
MAX_OUTPUTS = 1 + 2 * MAX_LEVELS
MAX_PARAMS = 8_000_000
#: the metadata: characters of its JSON text, of a feature's name, of the variant's id
MAX_META_CHARS = 1 << 20
MAX_NAME_CHARS = 200

#: the members read, and the largest shape of each (None: a string scalar)
_SHAPES: dict[str, tuple[int, ...] | None] = {
    "meta": None, "W1": (MAX_INPUTS, MAX_HIDDEN), "b1": (MAX_HIDDEN,),
    "W2": (MAX_HIDDEN, MAX_OUTPUTS), "b2": (MAX_OUTPUTS,)}
_NPY_MAGIC = b"\x93NUMPY"
_END = b"PK\x05\x06"
_END64_LOCATOR = b"PK\x06\x07"
#: what the zip and npy readers may raise on a damaged file
_BROKEN = (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError,
           EOFError, OSError, ValueError, struct.error, OverflowError, IndexError, KeyError,
           TypeError, SyntaxError, RecursionError, MemoryError)


def read_weights(path: str | Path) -> tuple[dict[str, np.ndarray], str]:
    """The four arrays (W1, b1, W2, b2) and the metadata's JSON text of the weights file
    `path`, read within bounds. `WeightsError` for anything else: a name that cannot be opened,
    what is not a regular file, a file over MAX_WEIGHTS_BYTES, a damaged zip, a member that
    declares more than the bounds, an array of another dtype or shape."""
    where = shown(str(path), 120)
    try:
        data = read_bytes(path, display=where, limit=MAX_WEIGHTS_BYTES)
    except InputError as error:
        if error.code == "file-not-found":
            raise WeightsError(f"no weights file {where}") from None
        raise WeightsError(f"cannot read the weights file {where}: {error.reason}") from None
    try:
        return _read_npz(data)
    except _NotWeights as error:
        raise WeightsError(f"{where} is not a weights file of tablier: {error}") from None
    except _BROKEN as error:
        raise WeightsError(f"{where} is not a weights file of tablier: a damaged archive "
                           f"({type(error).__name__})") from None


class _NotWeights(Exception):
    """Why bytes are not a weights file (the message, said after the file's name)."""


def _directory_fault(data: bytes) -> str | None:
    """Why the zip's directory may not be read, from its end record found as `zipfile` finds
    it (the last 22 bytes, or else the last signature in the last 64 KiB): more members than
    MAX_MEMBERS, a directory larger than MAX_DIRECTORY_BYTES, a zip64 record (only archives of
    gigabytes or 65,535 members need one); None when it may."""
    size = len(data)
    if size >= 22 and data[-22:-18] == _END and data[-2:] == b"\0\0":
        at = size - 22
    else:
        at = data.rfind(_END, max(0, size - (1 << 16) - 22))
    if at < 0 or at + 22 > size:
        return "not a zip archive"
    if at >= 20 and data[at - 20:at - 16] == _END64_LOCATOR:
        return "a zip64 archive"
    _disk, _cd_disk, here, count, cd_size, _offset, _comment = struct.unpack(
        "<HHHHIIH", data[at + 4:at + 22])
    if count > MAX_MEMBERS or here > MAX_MEMBERS:
        return f"{count:,} members (at most {MAX_MEMBERS})"
    if cd_size > MAX_DIRECTORY_BYTES:
        return f"a directory of {cd_size:,} bytes (at most {MAX_DIRECTORY_BYTES:,})"
    return None


def _read_npz(data: bytes) -> tuple[dict[str, np.ndarray], str]:
    fault = _directory_fault(data)
    if fault is not None:
        raise _NotWeights(fault)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = zf.infolist()
        if len(infos) > MAX_MEMBERS:
            raise _NotWeights(f"{len(infos):,} members (at most {MAX_MEMBERS})")
        names = [i.filename for i in infos]
        if len(set(names)) != len(names):
            raise _NotWeights("two members of the same name")
        found = {}
        for key in _SHAPES:
            if key + ".npy" not in names:
                raise _NotWeights(f"no array {key!r}")
            info = zf.getinfo(key + ".npy")
            if info.flag_bits & 0x1:
                raise _NotWeights(f"{key!r} is encrypted")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise _NotWeights(f"{key!r} is compressed by an unknown method")
            found[key] = info
        # what the members declare, before any is decompressed
        most = MAX_PARAMS * 8 + MAX_META_CHARS * 4 + len(_SHAPES) * (12 + MAX_NPY_HEADER)
        declared = sum(i.file_size for i in found.values())
        if declared > most:
            raise _NotWeights(f"its arrays declare {declared:,} bytes (at most {most:,})")
        arrays: dict[str, np.ndarray] = {}
        params = 0
        for key, info in found.items():
            with zf.open(info) as fh:
                arrays[key], count = _npy(fh, info.file_size, key, MAX_PARAMS - params)
            params += count
    meta = arrays.pop("meta")
    try:
        text = str(meta.item())
        text.encode("utf-8")
    except (ValueError, UnicodeError):
        raise _NotWeights("its metadata is not text") from None
    return arrays, text


def _npy(fh: IO[bytes], size: int, key: str, room: int) -> tuple[np.ndarray, int]:
    """The array of the `.npy` member `key` open in `fh` (`size` bytes declared), its header
    read and checked before its data: a float array of the shape's bounds (at most `room`
    numbers) or, for `meta`, a string scalar; (array, numbers it holds)."""
    magic = fh.read(8)
    if len(magic) < 8 or magic[:6] != _NPY_MAGIC:
        raise _NotWeights(f"{key!r} is not a .npy array")
    version = (magic[6], magic[7])
    if version not in ((1, 0), (2, 0)):
        raise _NotWeights(f"{key!r} is a .npy array of version {version[0]}.{version[1]} "
                          f"(1.0 and 2.0 are read)")
    length = fh.read(2 if version == (1, 0) else 4)
    n = int.from_bytes(length, "little")
    if len(length) not in (2, 4) or n > MAX_NPY_HEADER:
        raise _NotWeights(f"{key!r} has a header of {n:,} bytes (at most {MAX_NPY_HEADER:,})")
    header = fh.read(n)
    if len(header) != n:
        raise _NotWeights(f"{key!r} is cut short")
    shape, fortran, dtype = _npy_header(header, key)
    bound = _SHAPES[key]
    if bound is None:
        if dtype.kind != "U" or shape != () or dtype.itemsize // 4 > MAX_META_CHARS:
            raise _NotWeights(f"{key!r} is not a string of at most {MAX_META_CHARS:,} "
                              f"characters")
        count = 0
    else:
        if dtype.kind != "f" or dtype.itemsize not in (4, 8) or dtype.fields is not None \
                or dtype.subdtype is not None:
            raise _NotWeights(f"{key!r} holds {dtype.str if not dtype.hasobject else 'objects'}"
                              f", not float32 or float64 numbers")
        if len(shape) != len(bound) or not all(
                isinstance(d, int) and 0 <= d <= most for d, most in zip(shape, bound)):
            dims = " x ".join(f"{d:,}" if isinstance(d, int) else "?" for d in shape)
            limit = " x ".join(f"{d:,}" for d in bound)
            raise _NotWeights(f"{key!r} is {dims or 'a scalar'} (at most {limit})")
        count = math.prod(shape)
        if count > room:
            raise _NotWeights(f"more than {MAX_PARAMS:,} weights")
    nbytes = dtype.itemsize if bound is None else count * dtype.itemsize
    if size != 8 + len(length) + n + nbytes:
        raise _NotWeights(f"{key!r} declares {size:,} bytes, its shape {nbytes:,}")
    body = fh.read(nbytes + 1)
    if len(body) != nbytes:
        raise _NotWeights(f"{key!r} is cut short")
    if bound is None:
        return np.frombuffer(body, dtype=dtype, count=1).reshape(()), 0
    array = np.frombuffer(body, dtype=dtype, count=count)
    return array.reshape(shape, order="F" if fortran else "C"), count


def _npy_header(header: bytes, key: str) -> tuple[tuple[int, ...], bool, np.dtype]:
    """(shape, Fortran order, dtype) of a `.npy` header (a Python literal of a dict, as
    numpy writes it): read with `ast.literal_eval` (under the parse lock of threadsafe.py) on at
    most MAX_NPY_HEADER characters, the dtype a plain one named by a string (`'<f8'`,
    `'<U3123'`)."""
    try:
        d = literal_python(header.decode("latin-1"))
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        raise _NotWeights(f"{key!r} has an unreadable header") from None
    if not isinstance(d, dict) or set(d) != {"descr", "fortran_order", "shape"}:
        raise _NotWeights(f"{key!r} has an unreadable header")
    shape, fortran, descr = d["shape"], d["fortran_order"], d["descr"]
    if not isinstance(shape, tuple) or not all(is_int(n) for n in shape) \
            or not isinstance(fortran, bool) or not isinstance(descr, str):
        raise _NotWeights(f"{key!r} has an unreadable header")
    try:
        dtype = np.dtype(descr)
    except (TypeError, ValueError, OverflowError, MemoryError):
        raise _NotWeights(f"{key!r} has an unknown dtype {shown(descr, 30)}") from None
    return shape, fortran, dtype


def _plain_fault(value: Any) -> str | None:
    """Why a value of the metadata is not plain JSON data (a number not finite); None when it
    is. The JSON reader bounds the nesting."""
    if isinstance(value, float):
        return None if math.isfinite(value) else "a number that is not finite"
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        for v in value:
            fault = _plain_fault(v)
            if fault is not None:
                return fault
    return None


def checked_meta(text: str, where: str) -> dict[str, Any]:
    """The metadata of a weights file (its JSON text) read by the bounded JSON reader and
    checked field by field; other fields pass as they are (plain JSON data)."""
    try:
        meta = parse_json(text, limit=MAX_META_CHARS)
    except InputError as error:
        raise WeightsError(f"{where}: unreadable metadata: {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise WeightsError(f"{where} is not a {FORMAT} weights file")
    fault = _plain_fault(meta)
    if fault is not None:
        raise WeightsError(f"{where}: the metadata holds {fault}")
    levels = meta.get("levels", [])
    if not (isinstance(levels, list) and len(levels) <= MAX_LEVELS
            and all(in_range(v, 2, MAX_LEVEL) for v in levels)
            and all(a < b for a, b in zip(levels, levels[1:]))):
        raise WeightsError(f"{where}: `levels` must be a list of at most {MAX_LEVELS} "
                           f"increasing whole numbers from 2 to {MAX_LEVEL}, not "
                           f"{shown(levels)}")
    features = meta.get("features", [])
    if not (isinstance(features, list) and all(
            isinstance(f, str) and 0 < len(f) <= MAX_NAME_CHARS for f in features)):
        raise WeightsError(f"{where}: `features` must be a list of names of at most "
                           f"{MAX_NAME_CHARS} characters, not {shown(features)}")
    variant = meta.get("variant", "")
    if not isinstance(variant, str) or len(variant) > MAX_NAME_CHARS:
        raise WeightsError(f"{where}: `variant` must be a variant's id, not {shown(variant)}")
    for key, test, what in _TRAINING:
        if key in meta and not test(meta[key]):
            raise WeightsError(f"{where}: `{key}` must be {what}, not {shown(meta[key])}")
    return meta


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _rows(v: Any) -> bool:
    return isinstance(v, list) and all(
        isinstance(r, list) and all(_number(x) for x in r) for r in v)


#: the fields `tablier train --resume` reads back (players/td.py), checked where present
_TRAINING: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("games", lambda v: in_range(v, 0, 10**15), "a count of plays"),
    ("cpu_seconds", lambda v: _number(v) and v >= 0, "a number of seconds"),
    ("hidden", lambda v: in_range(v, 1, MAX_HIDDEN), "a number of hidden units"),
    ("seed", is_int, "a whole number"),
    ("schedule", _rows, "a list of rows of numbers"),
    ("widened", _rows, "a list of rows of numbers"),
)
