"""Ensembles: one run per case (``nhlab run --cases``), on every core or in chunks
on a Dask cluster — each chunk the model's text and its cases as plain data, run by
the same Rust code, the rows put together in order: the local table, bit for bit."""

from __future__ import annotations

import io
import math
import os
import tempfile
from typing import Any, List, Mapping, Sequence, Tuple

from .maps import chunk_rows


def cases_csv(cases: Any, number) -> Tuple[List[str], str]:
    """The cases (a list of dicts, or a DataFrame) as ``--cases`` reads them: a
    header of every name any case gives, a row per case (an empty cell where a case
    gives none), each value written to its bits."""
    rows: List[Mapping[str, Any]]
    if hasattr(cases, "to_dict") and hasattr(cases, "columns"):
        rows = cases.to_dict("records")
    else:
        rows = [dict(c) for c in cases]
    if not rows:
        raise ValueError("an ensemble needs at least one case")
    names: List[str] = []
    for row in rows:
        names.extend(n for n in row if n not in names)
    lines = [",".join(names)]
    for k, row in enumerate(rows):
        cells = []
        for name in names:
            value = row.get(name)
            if value is None or (isinstance(value, float) and math.isnan(value)):
                cells.append("")
                continue
            try:
                x = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"case {k}: {name} = {value!r} is not a number") from None
            if not math.isfinite(x):
                raise ValueError(f"case {k}: {name} = {value!r} is not finite")
            cells.append(number(x))
        lines.append(",".join(cells))
    return names, "\n".join(lines) + "\n"


def run_chunk(text: str, language: str, args: Sequence[str], csv: str) -> str:
    """One chunk of cases, where it runs (this process or a worker): ``nhlab run -
    ARGS --cases FILE``'s table."""
    from . import _cli

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "cases.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write(csv)
        out, _ = _cli([*args, "--cases", path], text, language)
    return out


def table(out: str):
    import pandas as pd

    return pd.read_csv(io.StringIO(out), float_precision="round_trip", keep_default_na=False, na_values=[""])


def on_cluster(client, text: str, language: str, args: Sequence[str], csv: str, chunks: int):
    """The ensemble's table from chunks of its cases run on ``client``'s workers, in
    order, numbered as one table."""
    import pandas as pd

    header, *rows = csv.splitlines()
    spans = chunk_rows(len(rows), chunks)
    parts = [header + "\n" + "\n".join(rows[a:b]) + "\n" for a, b in spans]
    n = len(parts)
    outs = client.gather(client.map(run_chunk, [text] * n, [language] * n, [list(args)] * n, parts, pure=False))
    frames = []
    for (a, _), out in zip(spans, outs):
        frame = table(out)
        frame["case"] += a
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
