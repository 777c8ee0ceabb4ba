"""``nhlab.Lab``: the live lab in a notebook cell — an anywidget showing a model's
scene, a panel, playback and sliders, as the page's embed does, with its values kept
in step with Python both ways (docs/notebooks.md).

The widget's ES module (``static/lab.mjs``, made by ``scripts/widget.sh``) carries the
whole lab: nothing is fetched from a network, so it works offline, in JupyterLab,
Notebook 7, VS Code, and in a static page built from the notebook with the widget's
state saved (it runs there without a kernel).
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import shutil
from typing import Any, Iterable, Optional, Union

import anywidget
import traitlets

from . import Model, load

MODULE = pathlib.Path(__file__).parent / "static" / "lab.mjs"

#: The controls beside the scene and playback (the page's ``&controls=``).
CONTROLS = ("parameters", "initial", "methods", "stability", "equations")

_METHODS = ("lagrange", "udwadia-kalaba", "gauss", "voronets", "hamel", "euler", "vakonomic")


class Lab(anywidget.AnyWidget):
    """The lab for ``model`` (a :class:`nhlab.Model`, a scenario's text or a path to
    one) in a notebook cell.

    ``panel``: the panel beside the scene — a plot's id (``energy``,
    ``trajectory``, ``residuals``, ``e-vector``, …), ``stability`` or ``none``; by
    default the scenario's first plot. ``controls``: which of :data:`CONTROLS` show
    (default ``["parameters"]``: the sliders). ``height``: the frame's height in
    pixels (default: it follows its content). ``language``: ``en`` or ``zh`` (default
    the model's).

    Kept in step both ways: ``scenario`` (the text), ``parameters`` (name → value),
    ``inputs`` (an input taken as an argument → its value), ``methods``, ``t`` (the
    clock), ``playing``, ``language``. Setting one from Python restarts or seeks the
    lab; a slider moved in the lab changes ``parameters`` (and ``scenario``) here.
    ``title`` and ``error`` (the lab's last problem, empty when none) come from the
    lab; :attr:`runs` is the runs of what it plays, as :meth:`Model.run` gives them.
    """

    _esm = MODULE

    scenario = traitlets.Unicode("").tag(sync=True)
    parameters = traitlets.Dict().tag(sync=True)
    inputs = traitlets.Dict().tag(sync=True)
    methods = traitlets.List(traitlets.Unicode()).tag(sync=True)
    t = traitlets.Float(0.0).tag(sync=True)
    playing = traitlets.Bool(True).tag(sync=True)
    language = traitlets.Unicode("en").tag(sync=True)
    panel = traitlets.Unicode("").tag(sync=True)
    controls = traitlets.List(traitlets.Unicode(), default_value=["parameters"]).tag(sync=True)
    height = traitlets.Int(0).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    loaded = traitlets.Int(0).tag(sync=True)

    def __init__(
        self,
        model: Union[Model, str, "os.PathLike[str]"],
        panel: Optional[str] = None,
        controls: Union[None, str, Iterable[str]] = None,
        height: Optional[int] = None,
        language: Optional[str] = None,
    ):
        if not MODULE.is_file():
            raise RuntimeError(
                f"this build of nhlab has no widget module ({MODULE}): build the lab's page and the "
                "widget (trunk build --release --offline; bash scripts/widget.sh) before pip install ./python"
            )
        model = model if isinstance(model, Model) else load(model)
        shown = [controls] if isinstance(controls, str) else list(controls) if controls is not None else ["parameters"]
        shown = [c.strip() for part in shown for c in part.split(",") if c.strip()]
        unknown = [c for c in shown if c not in CONTROLS]
        if unknown:
            raise ValueError(f"no control {', '.join(map(repr, unknown))}: choose from {', '.join(CONTROLS)}")
        super().__init__(
            scenario=model.text,
            parameters=model.parameters,
            inputs=_input_values(model),
            methods=_run_methods(model),
            language=language or model.language,
            panel=panel or "",
            controls=shown,
            height=int(height or 0),
            title=model.title,
        )

    @traitlets.validate("parameters")
    def _known_parameters(self, proposal):
        return _finite(proposal["value"], Model(self.scenario, self.language).parameters, "parameter")

    @traitlets.validate("inputs")
    def _known_inputs(self, proposal):
        return _finite(proposal["value"], _input_values(Model(self.scenario, self.language)), "input")

    @traitlets.validate("methods")
    def _known_methods(self, proposal):
        methods = list(proposal["value"])
        unknown = [m for m in methods if m not in _METHODS]
        if not methods or unknown:
            raise traitlets.TraitError(f"methods: {', '.join(map(repr, unknown)) or 'none given'}; choose from {', '.join(_METHODS)}")
        return methods

    @traitlets.validate("t")
    def _finite_t(self, proposal):
        if not math.isfinite(proposal["value"]):
            raise traitlets.TraitError("t must be a finite time")
        return proposal["value"]

    @traitlets.validate("language")
    def _known_language(self, proposal):
        if proposal["value"] not in ("en", "zh"):
            raise traitlets.TraitError("language: `en` or `zh`")
        return proposal["value"]

    @traitlets.validate("scenario")
    def _valid_scenario(self, proposal):
        Model(proposal["value"], self.language)  # its problems, at their lines, as a ScenarioError
        return proposal["value"]

    @traitlets.observe("scenario")
    def _follow_scenario(self, change):
        # A text set from Python brings its own values (the lab's answer says the same).
        model = Model(change["new"], self.language)
        self.set_trait("parameters", model.parameters)
        self.set_trait("inputs", _input_values(model))
        self.set_trait("methods", _run_methods(model))
        self.set_trait("title", model.title)

    def myst(self, esm: str = "nhlab-lab.mjs") -> str:
        """This lab as MyST's ``{anywidget}`` directive, for a Jupyter Book or MyST
        page that shows it without a kernel: ``esm`` is where the page finds the
        widget's module (:func:`save_module` puts it there); the body is the lab's
        values now, as JSON."""
        values = {key: getattr(self, key) for key in ("inputs", "methods", "t", "playing", "language", "panel", "controls", "height")}
        model = self.model  # the text with the values set here
        values.update(scenario=model.text, parameters=model.parameters)
        return f"```{{anywidget}} {esm}\n{json.dumps(values, ensure_ascii=False, indent=1)}\n```\n"

    @property
    def model(self) -> Model:
        """The model the lab plays: its text, with the values of ``parameters`` (a
        value set here is in it before the lab has answered)."""
        model = Model(self.scenario, self.language)
        changed = {k: v for k, v in self.parameters.items() if model.parameters.get(k) != v}
        return model.with_parameters(**changed) if changed else model

    @property
    def runs(self):
        """The runs of what the lab plays — its text, ``parameters``, ``methods`` and
        its inputs' values now — from its start to the scenario's ``t_end``, as
        :meth:`Model.run` gives them (a pandas DataFrame). An input moved by hand while
        it played steered the lab's own runs from that moment; here it holds its value
        now from the start."""
        return self.model.run(methods=list(self.methods) or None, inputs=dict(self.inputs) or None)


def save_module(path: Union[str, "os.PathLike[str]"]) -> pathlib.Path:
    """Copies the widget's ES module to ``path`` (a file, or a folder to put
    ``nhlab-lab.mjs`` in): for a static page whose ``{anywidget}`` directive names it
    (:meth:`Lab.myst`). Returns the file written."""
    target = pathlib.Path(path)
    if target.is_dir():
        target = target / "nhlab-lab.mjs"
    shutil.copyfile(MODULE, target)
    return target


def _run_methods(model: Model) -> list:
    """The methods the scenario runs (``run.methods``; by default Lagrange's alone)."""
    run = model._read.get("run") or {}
    return [str(m) for m in run.get("methods", ["lagrange"])]


def _input_values(model: Model) -> dict:
    """Each input of ``[inputs]`` taken as an argument (no signal drives it) → its value."""
    out = {}
    for name, given in (model._read.get("inputs") or {}).items():
        if isinstance(given, dict) and "signal" in given:
            continue
        value = given.get("value", 0.0) if isinstance(given, dict) else given
        if isinstance(value, (int, float)):
            out[name] = float(value)
    return out


def _finite(values: Any, known: dict, kind: str) -> dict:
    out = {}
    for name, value in dict(values).items():
        if name not in known:
            raise traitlets.TraitError(f"no {kind} `{name}` in this scenario (it has {', '.join(known) or 'none'})")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise traitlets.TraitError(f"{kind} `{name}`: {value!r} is not a number") from None
        if not math.isfinite(number):
            raise traitlets.TraitError(f"{kind} `{name}` must be finite, not {value!r}")
        out[name] = number
    return out
