"""Stability maps from Python: ``Model.stability_map`` runs ``nhlab linearize`` with
one ``--sweep NAME=V1,V2,…`` per axis (every core, in this process) and reads its JSON
into NumPy arrays shaped by the axes.

With a ``dask.distributed.Client`` the first axis is cut into chunks of rows
(``--rows I:J``), each sent to a worker as plain data (the scenario's text and the
flags) and computed there by the same Rust code; the chunks put together are the
local map, bit for bit, because a point, a boundary's bisection and whether it is
refined depend on the grid and its row alone."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Mapping, Sequence, Tuple

__all__ = ["StabilityMap"]


class StabilityMap:
    """The motion linearised at every point of a grid of swept quantities.

    ``axes``: name → values, in the order given. ``max_real``: the largest real part
    at each point, shaped by the axes. ``stable``: whether every real part is at most
    zero (within the neutral band). ``eigenvalues``: complex, shaped ``axes + (n,)``,
    sorted by real part. ``boundaries``: a list of dicts — ``axis`` (the one
    crossed), ``at`` (the boundary's value on every axis), ``becomes`` (``"stable"``
    or ``"unstable"`` past it) and ``refined`` (found by bisection)."""

    def __init__(self, result: Dict[str, Any]):
        import numpy as np

        self.method: str = result["method"]
        self.axes: Dict[str, Any] = {a["name"]: np.asarray(a["values"], dtype=float) for a in result["axes"]}
        shape = tuple(len(v) for v in self.axes.values())
        self.max_real = np.asarray(result["max_real"], dtype=float).reshape(shape)
        self.stable = np.asarray(result["stable"], dtype=bool).reshape(shape)
        pairs = np.asarray(result["eigenvalues"], dtype=float)
        self.eigenvalues = (pairs[..., 0] + 1j * pairs[..., 1]).reshape(shape + (pairs.shape[-2],))
        self.held_speeds: List[str] = list(result.get("held_speeds", []))
        self.boundaries: List[Dict[str, Any]] = list(result["boundaries"])

    def __repr__(self) -> str:
        shape = " × ".join(f"{name} ({len(v)})" for name, v in self.axes.items())
        return f"<nhlab.StabilityMap {shape}: {len(self.boundaries)} boundaries>"

    def to_xarray(self):
        """The map as an ``xarray.Dataset`` (``max_real``, ``stable``, and
        ``eigenvalues`` with a ``mode`` dimension), its axes as coordinates."""
        import xarray as xr

        dims = list(self.axes)
        return xr.Dataset(
            {
                "max_real": (dims, self.max_real),
                "stable": (dims, self.stable),
                "eigenvalues": (dims + ["mode"], self.eigenvalues),
            },
            coords=dict(self.axes),
            attrs={"method": self.method},
        )


def sweep_flags(axes: Mapping[str, Sequence[float]], number) -> List[str]:
    """``--sweep NAME=V1,V2,…`` for each axis, its values written to their bits."""
    if not 2 <= len(axes) <= 3:
        raise ValueError(f"a map has 2 or 3 axes, not {len(axes)} (one axis: Model.linearize(sweep=...))")
    flags: List[str] = []
    for name, values in axes.items():
        values = [float(x) for x in values]
        if len(values) < 2:
            raise ValueError(f"axis {name!r}: at least two values")
        flags += ["--sweep", f"{name}=" + ",".join(number(x) for x in values)]
    return flags


#: A map's arrays, and the type of their values.
ARRAYS = (("max_real", float), ("stable", bool), ("eigenvalues", float))


def _chunk(text: str, language: str, args: List[str], rows: Tuple[int, int]) -> Dict[str, Any]:
    """One chunk of rows of a map, on a worker: ``nhlab linearize ARGS --rows I:J``,
    its values as NumPy arrays. An array pickles as its bytes, so the client receives
    a chunk as a copy; nested lists of Python floats took it 0.7 s a 10⁵-point map
    to receive, while the workers waited."""
    import numpy as np

    from . import _cli

    out, _ = _cli([*args, "--rows", f"{rows[0]}:{rows[1]}"], text, language)
    part = json.loads(out)
    for key, kind in ARRAYS:
        part[key] = np.asarray(part[key], dtype=kind)
    return part


def chunk_rows(rows: int, chunks: int) -> List[Tuple[int, int]]:
    """``rows`` values of the first axis cut into at most ``chunks`` runs, in order."""
    chunks = max(1, min(chunks, rows))
    edges = [rows * k // chunks for k in range(chunks + 1)]
    return [(a, b) for a, b in zip(edges, edges[1:]) if b > a]


def on_cluster(client, text: str, language: str, args: List[str], rows: int, chunks: int, keep: Callable[[List[str]], List[str]]) -> Dict[str, Any]:
    """The map's JSON from chunks computed on ``client``'s workers, put together in
    order. Where chunks hold different speeds (a speed nothing couples to at some
    points only), they are computed again keeping in the state every speed some but
    not all of them hold, as the whole map does at once (``keep`` gives the flags)."""
    spans = chunk_rows(rows, chunks)

    def computed(flags: List[str]) -> List[Dict[str, Any]]:
        n = len(spans)
        return client.gather(client.map(_chunk, [text] * n, [language] * n, [flags] * n, spans, pure=False))

    parts = computed(args)
    held = [set(p["held_speeds"]) for p in parts]
    if any(h != held[0] for h in held):
        some = sorted(set.union(*held) - set.intersection(*held))
        parts = computed([*args, *keep(some)])
    import numpy as np

    whole = dict(parts[0])
    for key, _ in ARRAYS:
        whole[key] = np.concatenate([p[key] for p in parts])
    whole["boundaries"] = [b for p in parts for b in p["boundaries"]]
    whole["rows"] = [0, rows]
    return whole
