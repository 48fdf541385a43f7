"""Shared fixtures: the command-line binary, when one is built, to compare against."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
from typing import List, Optional

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def cli_path() -> Optional[str]:
    """``NPUZZLE_CLI``, else the workspace's release build, if there is one."""
    env = os.environ.get("NPUZZLE_CLI")
    if env:
        return env
    built = REPO / "target" / "release" / "npuzzle"
    return str(built) if built.exists() else None


class Cli:
    """Runs the ``npuzzle`` binary."""

    def __init__(self, path: str) -> None:
        self.path = path

    def run(self, args: List[str], stdin: Optional[str] = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [self.path, *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def json(self, args: List[str]) -> dict:
        out = self.run([*args, "--json"])
        assert out.returncode in (0, 1, 3), out.stderr
        return json.loads(out.stdout)

    def error(self, args: List[str]) -> str:
        """The one-line message of a command that fails on invalid input (exit 2)."""
        out = self.run(args)
        assert out.returncode == 2, (args, out.returncode, out.stdout, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1, out.stderr
        assert lines[0].startswith("error: ")
        return lines[0][len("error: ") :]


@pytest.fixture(scope="session")
def cli() -> Cli:
    path = cli_path()
    if path is None:
        pytest.skip("no npuzzle binary (build it with cargo build --release or set NPUZZLE_CLI)")
    return Cli(path)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("NPUZZLE_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set NPUZZLE_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
