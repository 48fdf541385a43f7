"""Reading files of boards, in the layouts ``npuzzle batch`` reads."""

from __future__ import annotations

import math
import os
from typing import List, Optional, Tuple, Union

from ._native import Board
from .errors import InvalidBoard

PathLike = Union[str, "os.PathLike[str]"]

#: The most bytes a file of boards may have, as on the command line (256 MiB). The cap is
#: on the bytes read, not the size the file claims: ``/dev/zero`` and pipes claim 0.
MAX_INPUT_BYTES = 256 << 20


def read_text(path: PathLike) -> str:
    """The text of a file of boards, read as the command line reads one.

    Raises ``InvalidBoard`` for a file over 256 MiB (``MAX_INPUT_BYTES``) or one that is not
    UTF-8, and ``OSError`` when it cannot be read (missing, a directory, no permission).
    """
    name = os.fspath(path)
    if os.path.isdir(name):
        raise IsADirectoryError(f"cannot read {name}: it is a directory")
    with open(name, "rb") as f:
        if os.fstat(f.fileno()).st_size > MAX_INPUT_BYTES:
            raise InvalidBoard(f"{name} is larger than 256 MiB")
        # In pieces, so no more than the cap (and one piece) is ever held.
        data = bytearray()
        while len(data) <= MAX_INPUT_BYTES:
            piece = f.read(min(1 << 20, MAX_INPUT_BYTES + 1 - len(data)))
            if not piece:
                break
            data += piece
    if len(data) > MAX_INPUT_BYTES:
        raise InvalidBoard(f"{name} is larger than 256 MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidBoard(f"{name} is not UTF-8 text") from None


def _is_square(n: int) -> bool:
    return n >= 4 and math.isqrt(n) ** 2 == n


def read_instances(path: PathLike, size=None) -> List[Tuple[Board, Optional[int]]]:
    """Boards of a file with the optimal length written after the tiles, if any.

    One board per line (``#`` starts a comment), tiles separated by spaces or commas,
    optionally followed by the board's optimal length, as in ``data/korf100-15puzzle.txt``;
    or the classroom format, whose first line is the order alone (``3`` or ``3x4``).
    Raises ``InvalidBoard`` naming the line of the first bad board, or for a file over
    256 MiB (as ``npuzzle batch`` does) or not UTF-8.
    """
    text = read_text(path)
    lines = [(i + 1, l.split("#", 1)[0].strip()) for i, l in enumerate(text.splitlines())]
    lines = [(n, l) for n, l in lines if l]
    if lines and size is None:
        first = lines[0][1].lower().replace("n=", "")
        if first.isdigit() or ("x" in first and first.replace("x", "").isdigit()):
            size, lines = first, lines[1:]
    cells = None
    if size is not None:
        rows, cols = Board.goal(size).shape
        cells = rows * cols
    out = []
    for number, line in lines:
        tokens = line.replace(",", " ").split()
        expected = None
        count = len(tokens)
        has_length = (cells is not None and count == cells + 1) or (
            cells is None and not _is_square(count) and _is_square(count - 1)
        )
        if has_length and "/" not in line and tokens[-1].isdigit():
            expected = int(tokens[-1])
            tokens = tokens[:-1]
        try:
            board = Board(" ".join(tokens) if "/" not in line else line, size)
        except InvalidBoard as e:
            raise InvalidBoard(f"line {number}: {e}") from None
        out.append((board, expected))
    if not out:
        raise InvalidBoard(f"{os.fspath(path)} has no boards")
    return out


def read_boards(path: PathLike, size=None) -> List[Board]:
    """The boards of a file (see ``read_instances``), without their lengths."""
    return [b for b, _ in read_instances(path, size)]
