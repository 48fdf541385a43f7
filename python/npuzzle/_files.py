"""Reading files of boards, in the layouts ``npuzzle batch`` reads, with its parser (the
core's ``board_file``, through ``_native.parse_boards``): the same boards, lengths and
errors as the command line."""

from __future__ import annotations

import os
from typing import List, Optional, Tuple, Union

from . import _native
from ._native import Board, parse_boards
from .errors import InvalidBoard

PathLike = Union[str, "os.PathLike[str]"]

#: The most bytes a file of boards may have, the command line's cap (256 MiB). The cap is
#: on the bytes read, not the size the file claims: ``/dev/zero`` and pipes claim 0.
MAX_INPUT_BYTES: int = _native.MAX_INPUT_BYTES

#: The most lines of boards a file may have, the command line's cap (a million; a classroom
#: header, comments and blank lines do not count): parsed boards take several times the
#: bytes of their lines, so past it the file is refused before any board is made.
MAX_BOARD_LINES: int = _native.MAX_BOARD_LINES


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


def read_instances(path: PathLike, size=None) -> List[Tuple[Board, Optional[int]]]:
    """Boards of a file with the optimal length written after the tiles, if any.

    The file is read as ``npuzzle batch`` reads one, by the same parser: one board per line
    (tiles separated by spaces, tabs or commas), optionally followed by the board's optimal
    length, as in ``data/korf100-15puzzle.txt`` (``312045678 21`` for a digit string); or
    the classroom format, whose first line is the order alone (``3``, ``N=3`` or ``3x4``);
    or one board written over several lines. Blank lines and lines starting with ``#`` are
    skipped; line numbers count every line. ``size`` (``"RxC"``, an int or ``(rows,
    cols)``) is the shape when the file does not say it; a classroom order must agree.

    Raises ``InvalidBoard`` with the command line's message for the first bad line, which
    names the line (``line 3: board has duplicate tile 8``); for a ``START | GOAL`` line
    (its own goal would be lost: solve such pairs with ``npuzzle.solve(start, goal=goal)``);
    for a file without boards, over 256 MiB or over a million lines of boards
    (``MAX_BOARD_LINES``, as ``npuzzle batch`` does), or not UTF-8.
    """
    entries = parse_boards(read_text(path), size, os.fspath(path))
    if not entries:
        raise InvalidBoard(f"{os.fspath(path)} has no boards")
    for _, _, line, goal in entries:
        if goal is not None:
            raise InvalidBoard(
                f"line {line}: a START | GOAL line has its own goal, which read_instances "
                "would drop; solve the pair with npuzzle.solve(start, goal=goal)"
            )
    return [(board, expected) for board, expected, _, _ in entries]


def read_boards(path: PathLike, size=None) -> List[Board]:
    """The boards of a file (see ``read_instances``), without their lengths."""
    return [b for b, _ in read_instances(path, size)]
