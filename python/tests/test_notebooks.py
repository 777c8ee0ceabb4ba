"""The example notebooks (examples/*.ipynb) run from top to bottom in a kernel of the
package's environment (nbclient), as a reader runs them; their own cells assert the
numbers they show (against Model.run, published values, closed forms)."""

import pathlib

import nbformat
import pytest
from nbclient import NotebookClient

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[2] / "examples").glob("*.ipynb"))


def test_there_are_the_three_examples():
    assert [p.stem for p in EXAMPLES] == ["bicycle-stability", "cart-pole-controller", "sleigh-formulations"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_notebook_runs(path, tmp_path):
    book = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in book.cells if cell.cell_type == "code"), "examples are kept without outputs"
    NotebookClient(book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    shown = [o for cell in book.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in shown if o.output_type == "error"]
    # The lab cell shows the widget (its state is saved in the notebook's metadata).
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in shown)
