"""glibc's memory calls, where the C library is glibc (no asyncio here: render workers use it).

Pillow's image buffers and the threads that drew boards leave freed memory in glibc's heap and
arenas; ``malloc_trim(0)`` gives it back to the system.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable


def malloc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)`` as a call, or None on another C library."""
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    return lambda: trim(0)
