"""SymPy in and out: a model's equations as SymPy matrices (``Equations.sympy``), and
a model from SymPy expressions (``nhlab.from_sympy``).

Coordinates are SymPy ``dynamicsymbols`` (functions of ``t``, as
``sympy.physics.mechanics`` writes them) and their speeds are their time derivatives;
parameters are plain symbols. The text between the two is nhlab's expression
language: ``^`` for powers, ``x'`` for a speed, and the functions ``sin cos tan asin
acos atan atan2 sinh cosh tanh exp ln sqrt abs sign``.
"""

from __future__ import annotations

import keyword
import re
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

_FUNCTIONS = ["sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "ln", "sqrt", "abs", "sign"]
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _sympy():
    try:
        import sympy
        from sympy.physics.mechanics import dynamicsymbols
    except ImportError as e:  # pragma: no cover - SymPy is optional
        raise ImportError("nhlab's SymPy bridge needs SymPy: pip install sympy") from e
    return sympy, dynamicsymbols


def to_sympy(texts: Any, coordinates: Sequence[str], parameters: Iterable[str]):
    """nhlab expression texts (a string, or nested lists of them) as SymPy
    expressions in ``dynamicsymbols`` for ``coordinates`` and symbols for the rest."""
    sympy, dynamicsymbols = _sympy()
    t = sympy.Symbol("t")
    q = {name: dynamicsymbols(name) for name in coordinates}
    # Placeholders for the speeds (`x'` is not a Python name), replaced afterwards.
    speeds = {f"_nhlab_speed_{name}": sympy.Symbol(f"_nhlab_speed_{name}") for name in coordinates}
    names: Dict[str, Any] = {"t": t, "pi": sympy.pi}
    names.update({p: sympy.Symbol(p) for p in parameters})
    names.update(q)
    names.update(speeds)
    functions = {
        "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "asin": sympy.asin, "acos": sympy.acos,
        "atan": sympy.atan, "atan2": sympy.atan2, "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh,
        "exp": sympy.exp, "ln": sympy.log, "sqrt": sympy.sqrt, "abs": sympy.Abs, "sign": sympy.sign,
    }
    back = {speeds[f"_nhlab_speed_{name}"]: q[name].diff(t) for name in coordinates}

    def one(text: str):
        source = re.sub(r"\b([A-Za-z_][A-Za-z0-9_]*)'", r"_nhlab_speed_\1", text).replace("^", "**")
        # A name that is a Python keyword (the bicycle's `lambda`) under another name.
        source = _NAME.sub(lambda m: f"_nhlab_kw_{m.group(0)}" if keyword.iskeyword(m.group(0)) else m.group(0), source)
        local: Dict[str, Any] = dict(functions)
        for name in _NAME.findall(source):
            plain = name[len("_nhlab_kw_") :] if name.startswith("_nhlab_kw_") else name
            if plain in names:
                local[name] = names[plain]
            elif name not in functions:
                local[name] = sympy.Symbol(plain)
        expr = sympy.sympify(source, locals=local, rational=False)
        return expr.xreplace(back)

    def walk(value: Any):
        if isinstance(value, list):
            return [walk(v) for v in value]
        return one(value)

    return walk(texts)


def equations_sympy(
    terms: Mapping[str, Any],
    coordinates: Sequence[str],
    parameters: Iterable[str],
    definitions: Optional[Mapping[str, str]] = None,
) -> Dict[str, Any]:
    """``M``, ``F``, ``A``, ``b`` of ``M q̈ = F + Aᵀλ``, ``A q̈ = b`` as SymPy matrices,
    the scenario's ``definitions`` (name → expression text) written out."""
    sympy, _ = _sympy()
    n = len(coordinates)
    parameters = list(parameters)
    defined = {sympy.Symbol(k): to_sympy(v, coordinates, parameters) for k, v in (definitions or {}).items()}

    def expand(value):
        if isinstance(value, list):
            return [expand(v) for v in value]
        # A definition may use those before it: as deep as there are definitions.
        for _ in range(len(defined) + 1):
            if not value.free_symbols & defined.keys():
                break
            value = value.xreplace(defined)
        return value

    convert = lambda key: expand(to_sympy(terms.get(key, []), coordinates, parameters))  # noqa: E731
    mass = sympy.Matrix(convert("mass_matrix"))
    forcing = sympy.Matrix(convert("forcing"))
    rows = convert("constraint_jacobian")
    jacobian = sympy.Matrix(rows) if rows else sympy.zeros(0, n)
    bias = sympy.Matrix(convert("constraint_bias")) if rows else sympy.zeros(0, 1)
    return {"M": mass, "F": forcing, "A": jacobian, "b": bias}


def _text(expr, coordinates: Sequence[Any]) -> str:
    """A SymPy expression in nhlab's expression language."""
    sympy, _ = _sympy()
    t = sympy.Symbol("t")
    replace = {}
    for c in coordinates:
        name = _coordinate_name(c)
        replace[c.diff(t)] = sympy.Symbol(f"{name}'")
        replace[c] = sympy.Symbol(name)
    expr = sympy.sympify(expr)
    # Speeds first: x(t)' before x(t).
    expr = expr.subs({k: v for k, v in replace.items() if isinstance(k, sympy.Derivative)})
    expr = expr.subs({k: v for k, v in replace.items() if not isinstance(k, sympy.Derivative)})
    if expr.has(sympy.Derivative):
        raise ValueError(f"{expr}: only coordinates and their first derivatives are allowed")
    text = sympy.sstr(expr, full_prec=True, order="none")
    text = text.replace("**", "^").replace("Abs(", "abs(").replace("log(", "ln(")
    return text


def _coordinate_name(c) -> str:
    sympy, _ = _sympy()
    if isinstance(c, sympy.Symbol):
        return c.name
    if isinstance(c, sympy.core.function.AppliedUndef):
        return type(c).__name__
    raise ValueError(f"{c}: a coordinate is a SymPy symbol or dynamicsymbol")


def from_sympy_text(
    coordinates: Sequence[Any],
    kinetic: Any,
    potential: Any = 0,
    forces: Optional[Mapping[Any, Any]] = None,
    constraints: Sequence[Any] = (),
    parameters: Optional[Mapping[Any, float]] = None,
    title: str = "From SymPy",
    initial: Optional[Mapping[Any, float]] = None,
    speeds: Optional[Mapping[Any, float]] = None,
    t_end: Optional[float] = None,
) -> str:
    """The nhlab/1 text of a model given in SymPy (see ``nhlab.from_sympy``)."""
    sympy, _ = _sympy()
    t = sympy.Symbol("t")
    # Plain symbols become functions of t, so that their derivatives are speeds.
    qs = []
    for c in coordinates:
        if isinstance(c, sympy.Symbol):
            qs.append(sympy.Function(c.name)(t))
        else:
            qs.append(c)
    plain = {c: q for c, q in zip(coordinates, qs) if isinstance(c, sympy.Symbol)}
    lift = lambda e: sympy.sympify(e).subs(plain) if plain else sympy.sympify(e)  # noqa: E731
    names = [_coordinate_name(q) for q in qs]
    quote = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'  # noqa: E731
    lines = [
        'format = "nhlab/1"',
        f"title = {quote(title)}",
        "coordinates = [" + ", ".join(quote(n) for n in names) + "]",
        f"kinetic = {quote(_text(lift(kinetic), qs))}",
        f"potential = {quote(_text(lift(potential), qs))}",
    ]
    if parameters:
        lines.append("")
        lines.append("[parameters]")
        for p, value in parameters.items():
            lines.append(f"{p.name if hasattr(p, 'name') else str(p)} = {float(value)!r}")
    if forces:
        lines.append("")
        lines.append("[forces]")
        by_name = {(_coordinate_name(k) if not isinstance(k, str) else k): v for k, v in forces.items()}
        for name, value in by_name.items():
            lines.append(f"{name} = {quote(_text(lift(value), qs))}")
    for k, c in enumerate(constraints):
        lines += ["", "[[constraints]]", f'name = "c{k + 1}"', f"expr = {quote(_text(lift(c), qs))}"]
    lines += ["", "[initial]"]
    def values(given, every):
        given = {(_coordinate_name(plain.get(k, k)) if not isinstance(k, str) else k): float(v) for k, v in (given or {}).items()}
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise ValueError(f"not coordinates: {', '.join(unknown)}")
        return ", ".join(f"{n} = {given.get(n, 0.0)!r}" for n in names if every or n in given)
    lines.append(f"q = {{ {values(initial, True)} }}")
    if speeds:
        lines.append(f"v = {{ {values(speeds, False)} }}")
    if t_end is not None:
        lines += ["", "[run]", f"t_end = {float(t_end)!r}"]
    return "\n".join(lines) + "\n"
