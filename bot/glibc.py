"""glibc's memory calls, where the C library is glibc (no asyncio here: render workers use it).

Pillow's image buffers and the threads that drew boards leave freed memory in glibc's heap and
arenas; ``malloc_trim(0)`` gives it back to the system, ``mallopt`` caps the arenas.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from typing import Any

#: mallopt's parameter number for the arena limit (glibc's malloc.h).
M_ARENA_MAX = -8


def _libc_function(name: str) -> Any | None:
    """A function of the C library by name, or None (another C library, or none found)."""
    library = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(library), name) if library else None
    except (OSError, AttributeError):
        return None


def malloc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)`` as a call, or None on another C library."""
    trim = _libc_function("malloc_trim")
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    return lambda: trim(0)


def mallopt(parameter: int, value: int) -> bool:
    """glibc's ``mallopt``; False when it refused or the C library has none."""
    function = _libc_function("mallopt")
    if function is None:
        return False
    function.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(function(parameter, value))
