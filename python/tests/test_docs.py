"""Every Python example of docs/python.md runs as written (from the repository's root)."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_doc_has_examples():
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_example_runs(code):
    if "dask" in code:
        pytest.importorskip("distributed")
    if "compare" in code:
        pytest.importorskip("pandas")
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr


def test_the_one_line_solve():
    line = re.search(r'^python -c "(.*)"$', DOC.read_text(), re.M).group(1)
    out = subprocess.run([sys.executable, "-c", line], cwd=REPO, capture_output=True, text=True)
    assert out.returncode == 0 and "Solution(length=31, optimal=True" in out.stdout
