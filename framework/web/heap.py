"""A worker's heap given back to the system once what filled it is gone: after a crowd of event
streams closed, the C allocator keeps their freed memory for the process (it returns only the
top of its heap), so the worker stays at its peak. ``HeapTrimmer`` asks glibc's
``malloc_trim`` to release the free pages every few seconds, only when the heap has shrunk
since the last look (Python's own arenas go back by themselves once empty)."""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

DEFAULT_TRIM_S = 10.0


def malloc_trim() -> Callable[[], int] | None:
    """glibc's ``malloc_trim(0)``, or None where the C library has none (musl, macOS)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: int(trim(0))


def heap_in_use() -> int:
    """Bytes the C allocator has handed out and not had back (``mallinfo2``'s ``uordblks``
    plus its mmapped chunks), or -1 where unknown."""
    name = ctypes.util.find_library("c")
    if name is None:
        return -1

    class MallInfo2(ctypes.Structure):
        _fields_ = [(f, ctypes.c_size_t) for f in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                   "fsmblks", "uordblks", "fordblks", "keepcost")]

    try:
        fn = ctypes.CDLL(name).mallinfo2
    except (OSError, AttributeError):
        return -1
    fn.restype = MallInfo2
    info = fn()
    return int(info.uordblks + info.hblkhd)


class HeapTrimmer:
    """Every ``interval`` seconds (a thread of its own: a greenlet under gevent), trim the
    heap if the memory in use went down by ``min_drop`` bytes since the last trim's look."""

    def __init__(self, interval: float = DEFAULT_TRIM_S, min_drop: int = 8 << 20) -> None:
        self.interval = interval
        self.min_drop = min_drop
        self.trims = 0  # times the heap was trimmed (tests, monitoring)
        self._trim = malloc_trim()
        self._stop = threading.Event()
        self._high = 0

    @property
    def available(self) -> bool:
        return self._trim is not None and heap_in_use() >= 0

    def start(self) -> bool:
        """Start trimming in this process; False where this C library cannot."""
        if not self.available:
            return False
        threading.Thread(target=self._run, name="arena-heap-trim", daemon=True).start()
        return True

    def stop(self) -> None:
        self._stop.set()

    def look(self) -> bool:
        """One look: trim when the heap in use fell by ``min_drop`` since the highest seen."""
        used = heap_in_use()
        self._high = max(self._high, used)
        if self._trim is None or self._high - used < self.min_drop:
            return False
        self._trim()
        self.trims += 1
        self._high = used
        return True

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.look()
            except Exception:  # the worker goes on; its memory stays as it is
                log.exception("trimming the heap of worker %s failed", os.getpid())
