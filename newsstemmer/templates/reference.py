"""The natural-language reference of the automatic peak boundary (SPEC §3).

A template shared by k pages makes the normalised spectrum F'(f) stand out at
f = k; natural-language text gives a smooth, fast-falling F'(f).  The reference
holds the mean and standard deviation of F'(f) measured on natural-language
text of several sizes; a frequency is a peak at risk α when F'(f) ≥ mean +
z_α·sd.  The shipped reference is ``newsstemmer/data/amplification_reference.json``,
made by ``scripts/make_reference.py``.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

__all__ = ["Reference", "load_reference", "normalized"]


@dataclass
class Reference:
    """Mean and standard deviation of F'(f) for natural-language text, per frequency f.

    ``f`` lists the left edges of the tabulated frequency bins (every f up to 64,
    then 8 bins per doubling; each entry holds the mean over its bin); a frequency
    takes the bin it falls in, beyond the last edge the last bin.  ``sizes`` gives, per reference row, the text size
    (bytes) the row was measured on; :meth:`row` picks the row of the nearest size
    in log scale.
    """

    f: list[int]
    sizes: list[int]
    mean: list[list[float]]
    sd: list[list[float]]
    meta: dict = field(default_factory=dict)

    def row(self, n_bytes: int) -> int:
        """Index of the reference row measured on the size nearest ``n_bytes`` (log scale)."""
        if not self.sizes:
            raise ValueError("empty reference")
        target = math.log(max(n_bytes, 1))
        return min(range(len(self.sizes)), key=lambda i: abs(math.log(self.sizes[i]) - target))

    def threshold(self, alpha: float, n_bytes: int, max_f: int) -> np.ndarray:
        """mean + z_α·sd for f = 0..max_f (index f), at the row nearest ``n_bytes``."""
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
        z = statistics.NormalDist().inv_cdf(1.0 - alpha)
        i = self.row(n_bytes)
        fs = np.asarray(self.f, dtype=np.int64)
        bound = np.asarray(self.mean[i]) + z * np.asarray(self.sd[i])
        # each f takes the entry of the largest tabulated frequency ≤ f
        where = np.searchsorted(fs, np.arange(max_f + 1), side="right") - 1
        out = bound[np.clip(where, 0, len(fs) - 1)]
        out[: fs[0]] = np.inf
        return out

    @classmethod
    def from_json(cls, obj: dict) -> "Reference":
        """Read a reference file's JSON object; ``ValueError`` when it is not one or is corrupt."""
        if not isinstance(obj, dict) or obj.get("format") != "newsstemmer-amplification-reference":
            raise ValueError("not a newsstemmer amplification reference file")
        try:
            ref = cls(
                f=[int(x) for x in obj["f"]],
                sizes=[int(x) for x in obj["sizes"]],
                mean=[[float(x) for x in row] for row in obj["mean"]],
                sd=[[float(x) for x in row] for row in obj["sd"]],
                meta={k: v for k, v in obj.items() if k not in ("f", "sizes", "mean", "sd")},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"corrupt amplification reference: {exc}") from None
        if (not ref.f or any(len(r) != len(ref.f) for r in ref.mean + ref.sd)
                or len(ref.mean) != len(ref.sizes) or len(ref.sd) != len(ref.sizes)):
            raise ValueError("corrupt amplification reference: rows do not match its frequencies or sizes")
        return ref

    def to_json(self) -> dict:
        """The JSON object of a reference file (read back by :meth:`from_json`)."""
        out = dict(self.meta)
        out.update(format="newsstemmer-amplification-reference", f=self.f, sizes=self.sizes,
                   mean=self.mean, sd=self.sd)
        return out


@lru_cache(maxsize=4)
def load_reference(path: str | None = None) -> Reference:
    """The reference shipped in ``newsstemmer/data/amplification_reference.json`` (or ``path``)."""
    if path is None:
        text = resources.files("newsstemmer").joinpath("data/amplification_reference.json").read_text("utf-8")
    else:
        text = Path(path).read_text("utf-8")
    return Reference.from_json(json.loads(text))


def normalized(F: np.ndarray) -> np.ndarray:
    """F'(f) = F(f) / Σ_{f≥2} F(f) (index f; 0 at f < 2).

    The sum leaves out f = 1 (substrings occurring once): their total, Σ|d|²/2,
    measures document length, not repetition, and would make F' of a collection
    incomparable with that of a text of another size (choice, beyond the paper).
    """
    F = np.asarray(F, dtype=np.float64)
    out = np.zeros_like(F)
    total = F[2:].sum()
    if total > 0:
        out[2:] = F[2:] / total
    return out

