"""The example notebook (docs/classroom.ipynb) runs from top to bottom without errors."""

from __future__ import annotations

import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("matplotlib")
pytest.importorskip("pandas")

NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "docs" / "classroom.ipynb"


def test_classroom_notebook_executes():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any("<svg" in h for h in html)  # the board rendered itself
    assert any('type="range"' in h for h in html)  # the solution's slider
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the chart
