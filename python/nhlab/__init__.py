"""nhlab from Python: constrained and nonholonomic mechanics with the command line's numbers.

Every computation is the ``nhlab`` command line's own command, run in this process
by the same Rust core (``nhlab._nhlab``), with the GIL released while it runs; this
module turns its CSV and JSON into pandas and NumPy. So ``Model.run`` gives the
values ``nhlab run`` writes, bit for bit, and so on for ``eval``, ``linearize`` and
``export`` (docs/python.md).

    >>> import nhlab
    >>> m = nhlab.gallery("rolling-disk")
    >>> m.coordinates
    ['x', 'y', 'psi', 'theta', 'phi']
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import sys
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _nhlab
from .maps import StabilityMap, on_cluster, sweep_flags

if sys.version_info >= (3, 11):
    import tomllib as _toml
else:  # pragma: no cover - exercised on older Pythons only
    import tomli as _toml

__all__ = [
    "Lab",
    "Model",
    "StabilityMap",
    "Equations",
    "Problem",
    "ScenarioError",
    "ComputeError",
    "load",
    "from_sympy",
    "gallery",
    "gallery_names",
    "__version__",
]

__version__ = _nhlab.version()

Number = Union[int, float]


class Problem:
    """One problem of a scenario, at its place: ``field`` (``parameters.m``), ``line``
    and ``column`` (1-based; ``None`` where the problem has no one place) and the
    ``message``, in the model's language (English unless ``language="zh"``)."""

    __slots__ = ("field", "line", "column", "message")

    def __init__(self, field: str, line: Optional[int], column: Optional[int], message: str):
        self.field = field
        self.line = line
        self.column = column
        self.message = message

    def __repr__(self) -> str:
        at = f"line {self.line}, column {self.column}: " if self.line is not None else ""
        return f"Problem({at}{self.field}: {self.message})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and (self.field, self.line, self.column, self.message) == (
            other.field,
            other.line,
            other.column,
            other.message,
        )


class ScenarioError(ValueError):
    """A scenario (or an option) the lab refuses: ``problems`` lists each, at its place."""

    def __init__(self, problems: List[Problem], text: str):
        super().__init__(text)
        self.problems = problems


class ComputeError(RuntimeError):
    """A computation that failed (a singular matrix, a state that is not finite)."""


# `error: <stdin>:12:5: parameters.m: message`, or without a place.
_PLACED = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<column>\d+): (?P<field>[^\s:][^:]*?): (?P<message>.*)$")
_UNPLACED = re.compile(r"^(?P<file><stdin>|[^:]*\.(?:toml|json)): (?P<field>[^\s:][^:]*?): (?P<message>.*)$")


def _problems(stderr: str) -> List[Problem]:
    out = []
    for line in stderr.splitlines():
        if not line.startswith("error: "):
            continue
        said = line[len("error: ") :]
        placed = _PLACED.match(said)
        if placed:
            out.append(Problem(placed["field"], int(placed["line"]), int(placed["column"]), placed["message"]))
            continue
        unplaced = _UNPLACED.match(said)
        if unplaced:
            out.append(Problem(unplaced["field"], None, None, unplaced["message"]))
        else:
            out.append(Problem("", None, None, said))
    return out


LANGUAGES = ("en", "zh")

# The few problems this module finds itself, in each language.
_OWN_WORDS = {
    "en": {"no-parameter": "no such parameter", "no-input": "no such input", "cannot-edit": "written in a form with_parameters cannot edit; edit the text"},
    "zh": {"no-parameter": "没有这个参数", "no-input": "没有这个输入", "cannot-edit": "此写法 with_parameters 无法修改，请直接修改文本"},
}


def _language(given: str) -> str:
    """``en`` or ``zh`` (``zh-CN``, ``zh_Hans`` and the like too)."""
    base = re.split(r"[-_]", str(given).lower())[0]
    if base not in LANGUAGES:
        raise ValueError(f"unknown language {given!r}: use 'en' or 'zh'")
    return base


def _cli(args: Sequence[str], text: str, language: str = "en") -> tuple[str, str]:
    """Runs ``nhlab ARGS`` on ``text`` (standard input), its problems and notes in
    ``language``; its output and its notes."""
    status, out, err = _nhlab.run_cli([*args, "--language", language], text)
    stderr = err.decode("utf-8", "replace")
    if status == 2:
        problems = _problems(stderr)
        raise ScenarioError(problems, "\n".join(p.message if not p.field else f"{p.field}: {p.message}" for p in problems) or stderr)
    if status != 0:
        raise ComputeError(stderr.strip().removeprefix("error: "))
    return out.decode("utf-8"), stderr


def _number(x: float) -> str:
    """A float as the command line reads it back to the same bits."""
    if not math.isfinite(x):
        raise ValueError(f"not a finite number: {x!r}")
    return repr(float(x))


def _arrays(value: Any) -> Any:
    """JSON with its matrices (lists of equal lists of numbers) as NumPy arrays."""
    import numpy as np

    if isinstance(value, dict):
        return {k: _arrays(v) for k, v in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(r, list) for r in value):
            widths = {len(r) for r in value}
            if len(widths) == 1 and all(isinstance(x, (int, float)) or x is None for r in value for x in r):
                return np.array([[np.nan if x is None else x for x in r] for r in value], dtype=float)
        return [_arrays(v) for v in value]
    return value


class Equations:
    """A method's equations of motion: ``text`` and ``latex`` as ``nhlab derive``
    prints them, and ``terms``, its JSON (``mass_matrix``, ``forcing``,
    ``constraint_jacobian``, ``constraint_bias`` as expression texts, and each
    equation's ``label``, ``text`` and ``latex``)."""

    def __init__(self, method: str, text: str, latex: str, terms: Dict[str, Any], coordinates=(), parameters=(), definitions=None):
        self.method = method
        self.text = text
        self.latex = latex
        self.terms = terms
        self._names = (list(coordinates), list(parameters), dict(definitions or {}))

    def __repr__(self) -> str:
        return f"Equations({self.method!r})"

    def sympy(self) -> Dict[str, Any]:
        """``M``, ``F``, ``A``, ``b`` of ``M q̈ = F + Aᵀλ``, ``A q̈ = b`` as SymPy
        matrices: coordinates as ``dynamicsymbols`` (speeds their time derivatives),
        parameters as symbols, the scenario's definitions written out (needs SymPy)."""
        from .sympy_bridge import equations_sympy

        coordinates, parameters, definitions = self._names
        return equations_sympy(self.terms, coordinates, parameters, definitions)


class Model:
    """A scenario (``nhlab/1``, TOML or JSON) and what the lab computes of it.

    A model is its text: it pickles as that (multiprocessing, joblib and Dask ship
    it), and each call runs the command line's command on it in this process.
    ``language``: ``"en"`` or ``"zh"``, the language of its problems and notes."""

    def __init__(self, text: str, language: str = "en"):
        self._text = text
        self._language = _language(language)
        self._read = _read(text)
        # Refused here, at its places, rather than at the first computation.
        self._report, _ = self._cli(["check", "-"])

    def _cli(self, args: Sequence[str]) -> tuple[str, str]:
        return _cli(args, self._text, self._language)

    def __reduce__(self):
        return (Model, (self._text, self._language))

    def __repr__(self) -> str:
        return f"<nhlab.Model {self.title!r}>"

    @property
    def text(self) -> str:
        """The scenario's text, as given."""
        return self._text

    @property
    def language(self) -> str:
        """The language of its problems and notes: ``en`` or ``zh``."""
        return self._language

    @property
    def title(self) -> str:
        return str(self._read.get("title", ""))

    @property
    def coordinates(self) -> List[str]:
        return list(self._read.get("coordinates", []))

    @property
    def parameters(self) -> Dict[str, float]:
        """Every parameter's value, by name (inputs included, at their values)."""
        out = {}
        for name, p in self._read.get("parameters", {}).items():
            out[name] = float(p["value"] if isinstance(p, dict) else p)
        return out

    @property
    def inputs(self) -> List[str]:
        """The parameters taken as inputs (``[inputs]``): ``run(inputs=...)`` sets them."""
        inputs = self._read.get("inputs", {})
        return list(inputs.keys()) if isinstance(inputs, dict) else list(inputs)

    def with_parameters(self, **values: Number) -> "Model":
        """A new model with these parameters' values; this one is unchanged."""
        text = self._text
        known = self.parameters
        for name, value in values.items():
            if name not in known:
                said = _OWN_WORDS[self._language]["no-parameter"]
                raise ScenarioError([Problem(f"parameters.{name}", None, None, said)], f"parameters.{name}: {said}")
            text = _set_parameter(text, name, float(value), self._language)
        return Model(text, self._language)

    def with_inputs(self, **values: Union[Number, str]) -> "Model":
        """A new model with these inputs (``[inputs]``) set: a number is the input's
        value, a text its ``signal`` — an expression of ``t``, the parameters and,
        for a feedback law, the coordinates and velocities (``F="-(2*x + 30*theta)"``).
        In the lab an input with a signal follows it, and has no slider."""
        text = self._text
        for name, value in values.items():
            if name not in self.inputs:
                said = _OWN_WORDS[self._language]["no-input"]
                raise ScenarioError([Problem(f"inputs.{name}", None, None, said)], f"inputs.{name}: {said}")
            if isinstance(value, str):
                text = _set_entry(text, "inputs", name, "signal", value, self._language)
            else:
                text = _set_entry(text, "inputs", name, "value", float(value), self._language)
        return Model(text, self._language)

    def check(self) -> Dict[str, Any]:
        """What ``nhlab check`` reports, as a dict: ``title``, ``coordinates``,
        ``parameters``, ``constraints`` (one line each), ``degrees_of_freedom``,
        ``methods``, ``integrators``, ``warnings``, and the whole ``report``."""
        out: Dict[str, Any] = {"report": self._report, "constraints": [], "warnings": []}
        lines = self._report.splitlines()
        out["title"] = lines[0] if lines else ""
        in_constraints = False
        for line in lines[1:]:
            if in_constraints and line.startswith("  "):
                out["constraints"].append(line.strip())
                continue
            in_constraints = False
            key, _, value = line.partition(": ")
            if key == "coordinates":
                out["coordinates"] = [c.strip() for c in value.split(",")]
            elif key == "parameters":
                out["parameters"] = value
            elif key == "constraints":
                in_constraints = True
            elif key == "degrees of freedom":
                out["degrees_of_freedom"] = int(value.split()[0])
            elif key == "methods":
                out["methods"] = [m.strip() for m in value.split(",")]
            elif key == "integrators":
                out["integrators"] = [i.strip() for i in value.split(" (")[0].split(",")]
            elif key:
                out[key.replace(" ", "_")] = value
        return out

    def run(
        self,
        t_end: Optional[float] = None,
        methods: Optional[Iterable[str]] = None,
        integrator: Union[None, str, Iterable[str]] = None,
        dt: Optional[float] = None,
        sample_at: Union[None, str, Iterable[float]] = None,
        columns: Union[None, str, Iterable[str]] = None,
        inputs: Optional[Mapping[str, Union[float, str]]] = None,
    ):
        """The runs as ``nhlab run`` writes them: a pandas DataFrame with the same
        columns and values. ``methods`` and ``integrator`` default to the
        scenario's; ``sample_at``: times or ``"START:STOP:STEP"``; ``columns``:
        ``all`` (default), ``state`` or groups (``energy``, ``residuals``, ``e``,
        ``contacts``); ``inputs``: name → a value or a signal text, as ``--input``.
        Notes (a contact that slips, a run that ended) are in ``df.attrs["notes"]``."""
        import pandas as pd

        args = ["run", "-"]
        if t_end is not None:
            args += ["--t-end", _number(t_end)]
        for m in [methods] if isinstance(methods, str) else methods or []:
            args += ["--method", m]
        for i in [integrator] if isinstance(integrator, str) else integrator or []:
            args += ["--integrator", i]
        if dt is not None:
            args += ["--dt", _number(dt)]
        if sample_at is not None:
            times = sample_at if isinstance(sample_at, str) else ",".join(_number(t) for t in sample_at)
            args += ["--sample-at", times]
        if columns is not None:
            args += ["--columns", columns if isinstance(columns, str) else ",".join(columns)]
        for name, value in (inputs or {}).items():
            args += ["--input", f"{name}={value if isinstance(value, str) else _number(value)}"]
        out, notes = self._cli(args)
        frame = pd.read_csv(io.StringIO(out), float_precision="round_trip", keep_default_na=True)
        frame.attrs["notes"] = [line for line in notes.splitlines() if line]
        return frame

    def eval(
        self,
        t: Optional[float] = None,
        q: Optional[Mapping[str, float]] = None,
        v: Optional[Mapping[str, float]] = None,
        method: str = "lagrange",
    ) -> Dict[str, Any]:
        """``nhlab eval``'s JSON as a dict, at the initial state or the one given (a
        coordinate or speed not named keeps its initial value); vectors keyed by
        name as there, matrices as NumPy arrays."""
        args = ["eval", "-", "--method", method]
        at = _at(t, q, v)
        if at:
            args += ["--at", at]
        out, _ = self._cli(args)
        return _arrays(json.loads(out))

    def linearize(
        self,
        at: Optional[Mapping[str, float]] = None,
        sweep: Union[None, bool, str] = None,
        state_space: bool = False,
        method: Optional[str] = None,
    ) -> Dict[str, Any]:
        """``nhlab linearize``'s JSON as a dict (matrices as NumPy arrays). ``at``:
        name → value (``"x'"`` for a speed), as ``--at``; ``sweep``: ``None`` the
        scenario's, ``False`` none, or ``"NAME=START:STOP:STEP"``."""
        args = ["linearize", "-", "--format", "json"]
        if method is not None:
            args += ["--method", method]
        if at:
            args += ["--at", ",".join(f"{k}={_number(x)}" for k, x in at.items())]
        if sweep is False:
            args += ["--no-sweep"]
        elif isinstance(sweep, str):
            args += ["--sweep", sweep]
        if state_space:
            args += ["--state-space"]
        out, _ = self._cli(args)
        return _arrays(json.loads(out))

    def stability_map(
        self,
        axes: Optional[Mapping[str, Sequence[float]]] = None,
        at: Optional[Mapping[str, float]] = None,
        method: Optional[str] = None,
        threads: Optional[int] = None,
        client: Any = None,
        chunks: Optional[int] = None,
    ) -> "StabilityMap":
        """``nhlab linearize`` over the grid of ``axes`` (name → increasing values; two
        or three parameters or speeds ``"x'"``), on every core (or ``threads``): a
        :class:`StabilityMap` with NumPy arrays shaped by the axes, in their order.
        ``at`` and ``method`` as for :meth:`linearize`. With ``client`` (a
        ``dask.distributed.Client``) the first axis' values are cut into ``chunks``
        (default: four per worker) computed on the cluster's workers, each on
        ``threads`` threads (default 1): the same map, bit for bit. Without ``axes``,
        the scenario's own map: ``[stability]``'s ``sweep`` and ``map`` at every one
        of their values (``nhlab linearize --map``; a ``ScenarioError`` when the
        table declares none)."""
        if axes is None:
            # The grid `--map` stands for, from one row of it (its first value).
            out, _ = self._cli(["linearize", "-", "--map", "--rows", "0:1", "--format", "json"])
            axes = {a["name"]: a["values"] for a in json.loads(out)["axes"]}
        args = ["linearize", "-", "--format", "json", *sweep_flags(axes, _number)]
        if method is not None:
            args += ["--method", method]
        if at:
            args += ["--at", ",".join(f"{k}={_number(x)}" for k, x in at.items())]
        if client is not None:
            args += ["--threads", str(int(threads or 1))]
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            rows = len(next(iter(axes.values())))
            keep = lambda speeds: ["--keep-speed", ",".join(speeds)] if speeds else []  # noqa: E731
            result = on_cluster(client, self._text, self._language, args, rows, chunks or 4 * workers, keep)
            return StabilityMap(result)
        if threads is not None:
            args += ["--threads", str(int(threads))]
        out, _ = self._cli(args)
        return StabilityMap(json.loads(out))

    def ensemble(
        self,
        cases: Any,
        t_end: Optional[float] = None,
        method: str = "lagrange",
        integrator: Optional[str] = None,
        outputs: Optional[Iterable[str]] = None,
        client: Any = None,
        threads: Optional[int] = None,
        chunks: Optional[int] = None,
    ):
        """One run per case, on every core (or ``threads``): ``nhlab run --cases``'s
        table as a DataFrame, one row per case. ``cases``: a list of dicts (or a
        DataFrame) of parameter values, initial coordinates (``"x"``) and speeds
        (``"x'"``; those a case does not name are solved from the constraints). A row:
        ``case``, the case's values, ``ended`` (``t_end``, or why its run ended before),
        ``final_t`` and the state where it ended (``final_x``, ``final_x'``), and for
        each contact the first
        time it lifted off (``lift_off_<contact>``) and slipped (``slip_<contact>``).
        ``outputs``: only these of the columns after the case's values. With
        ``client`` (a ``dask.distributed.Client``) the cases are cut into ``chunks``
        (default: four per worker) run on the cluster's workers: the same table, bit
        for bit."""
        from .ensembles import cases_csv, on_cluster, run_chunk, table

        names, csv = cases_csv(cases, _number)
        args = ["run", "-", "--method", method]
        if t_end is not None:
            args += ["--t-end", _number(t_end)]
        if integrator is not None:
            args += ["--integrator", integrator]
        if client is not None:
            args += ["--threads", str(int(threads or 1))]
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            frame = on_cluster(client, self._text, self._language, args, csv, chunks or 4 * workers)
        else:
            if threads is not None:
                args += ["--threads", str(int(threads))]
            frame = table(run_chunk(self._text, self._language, args, csv))
        if outputs is not None:
            wanted = list(outputs)
            unknown = [o for o in wanted if o not in frame.columns[len(names) + 1 :]]
            if unknown:
                raise ValueError(f"no output {', '.join(map(repr, unknown))}: the ensemble's are {', '.join(frame.columns[len(names) + 1 :])}")
            frame = frame[["case", *names, *wanted]]
        return frame

    def export(self, language: str, method: str = "lagrange", name: str = "model") -> str:
        """The file ``nhlab export --lang LANGUAGE`` writes (``c``, ``python``,
        ``matlab``, ``rust``), its identifier ``name``."""
        import tempfile

        # The file's stem names its functions, as the command line's --out does.
        with tempfile.TemporaryDirectory() as folder:
            suffix = {"c": ".c", "python": ".py", "matlab": ".m", "rust": ".rs"}.get(language, "")
            path = os.path.join(folder, name + suffix)
            self._cli(["export", "-", "--lang", language, "--method", method, "--out", path])
            with open(path, encoding="utf-8") as f:
                return f.read()

    def equations(self, method: str = "lagrange") -> Equations:
        """The equations of motion under ``method`` (``nhlab derive``)."""
        text, _ = self._cli(["derive", "-", "--method", method, "--format", "text"])
        latex, _ = self._cli(["derive", "-", "--method", method, "--format", "latex"])
        terms, _ = self._cli(["derive", "-", "--method", method, "--format", "json"])
        definitions = self._read.get("definitions", {})
        return Equations(method, text, latex, json.loads(terms), self.coordinates, self.parameters, definitions)


def _at(t: Optional[float], q: Optional[Mapping[str, float]], v: Optional[Mapping[str, float]]) -> str:
    parts = []
    if t is not None:
        parts.append(f"t={_number(t)}")
    parts += [f"{k}={_number(x)}" for k, x in (q or {}).items()]
    parts += [f"{k if k.endswith(chr(39)) else k + chr(39)}={_number(x)}" for k, x in (v or {}).items()]
    return ",".join(parts)


def _read(text: str) -> Dict[str, Any]:
    """The scenario's tables (for its title, names and values; the lab checks it)."""
    try:
        return json.loads(text) if text.lstrip().startswith("{") else _toml.loads(text)
    except (ValueError, _toml.TOMLDecodeError):
        # The lab's own check says where (raised by Model).
        return {}


_TABLE = re.compile(r"^\s*\[")


def _set_parameter(text: str, name: str, value: float, language: str = "en") -> str:
    """`text` with parameter `name`'s value set: in JSON by its object, in TOML on
    its line of `[parameters]` (`m = 1.0` or `m = { value = 1.0, … }`)."""
    return _set_entry(text, "parameters", name, "value", value, language)


def _set_entry(text: str, table: str, name: str, key: str, value: Union[float, str], language: str = "en") -> str:
    """`text` with `key` (`value`, or an input's `signal`) of entry `name` of
    `[table]` set: in JSON by its object, in TOML on its line (`m = 1.0` or
    `m = { value = 1.0, … }`; a key the inline table lacks is added to it)."""
    written = json.dumps(value) if isinstance(value, str) else _number(value)
    if text.lstrip().startswith("{"):
        data = json.loads(text)
        entry = data[table][name]
        if isinstance(entry, dict):
            entry[key] = value
        elif key == "value":
            data[table][name] = value
        else:
            data[table][name] = {"value": entry, key: value}
        return json.dumps(data, indent=2)
    lines = text.split("\n")
    inside = False
    pattern = re.compile(r'^(\s*)("?)' + re.escape(name) + r'\2(\s*=\s*)(.*)$')
    for k, line in enumerate(lines):
        if _TABLE.match(line):
            inside = line.strip().split("#")[0].strip() == f"[{table}]"
            continue
        m = pattern.match(line) if inside else None
        if not m:
            continue
        rest = m.group(4)
        if rest.lstrip().startswith("{"):
            new, count = re.subn(r'(\b' + key + r'\s*=\s*)("(?:[^"\\]|\\.)*"|[^,}]+)', lambda v: v.group(1) + written, rest, count=1)
            if count == 0:
                new, count = re.subn(r"\{\s*", lambda _: "{ " + f"{key} = {written}, ", rest, count=1)
            if count == 0:
                break
        else:
            comment = rest.find("#")
            kept = rest[:comment].strip() if comment >= 0 else rest.strip()
            new = written if key == "value" else f"{{ value = {kept}, {key} = {written} }}"
            new += " " + rest[comment:] if comment >= 0 else ""
        lines[k] = f"{m.group(1)}{m.group(2)}{name}{m.group(2)}{m.group(3)}{new}"
        return "\n".join(lines)
    said = _OWN_WORDS[language]["cannot-edit"]
    raise ScenarioError([Problem(f"{table}.{name}", None, None, said)], f"{table}.{name}: {said}")


def from_sympy(*args: Any, **kwargs: Any) -> Model:
    """A model from SymPy: ``coordinates`` (``dynamicsymbols``, or symbols taken as
    functions of ``t``), the ``kinetic`` and ``potential`` energies, generalised
    ``forces`` (coordinate → expression), ``constraints`` (expressions that vanish:
    holonomic ones in the coordinates and ``t``, the others in the speeds too, linear
    or not), ``parameters`` (symbol → value), ``title``, and the ``initial``
    coordinates and ``speeds`` (those not given are 0, and speeds the constraints fix
    are solved), ``t_end``; ``language`` as for :class:`Model`. Its text is
    ``model.text``. The other arguments are those of
    ``nhlab.sympy_bridge.from_sympy_text``."""
    from .sympy_bridge import from_sympy_text

    language = kwargs.pop("language", "en")
    return Model(from_sympy_text(*args, **kwargs), language)


def load(source: Union[str, "os.PathLike[str]"], language: str = "en") -> Model:
    """A model from a path to a scenario file, or from the scenario's text itself
    (TOML or JSON); ``language`` (``en`` or ``zh``) that of its problems and notes."""
    text = os.fspath(source)
    looks_like_text = "\n" in text or text.lstrip().startswith("{") or "=" in text
    if not looks_like_text or os.path.exists(text):
        with open(text, encoding="utf-8") as f:
            text = f.read()
    return Model(text, language)


def __getattr__(name: str) -> Any:
    # The widget imports anywidget (and with it ipywidgets): only when it is asked for.
    if name == "Lab":
        from .widget import Lab

        return Lab
    raise AttributeError(f"module 'nhlab' has no attribute {name!r}")


def gallery_names() -> List[str]:
    """The gallery's items (the page's), by name."""
    return list(_nhlab.gallery_names())


def gallery(name: str, language: str = "en") -> Model:
    """The gallery's item ``name`` (``rolling-disk``, ``whipple-bicycle``, …);
    ``language`` as for :func:`load`."""
    text = _nhlab.gallery_text(name)
    if text is None:
        raise KeyError(f"no gallery item `{name}` (see nhlab.gallery_names())")
    return Model(text, language)
