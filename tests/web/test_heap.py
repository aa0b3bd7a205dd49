"""A worker gives freed memory back to the system (framework.web.heap)."""

from __future__ import annotations

import pytest

from framework.web.heap import HeapTrimmer, heap_in_use, malloc_trim


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_the_heap_is_trimmed_once_it_shrank_and_the_memory_goes_back() -> None:
    trimmer = HeapTrimmer(min_drop=16 << 20)
    if not trimmer.available:
        pytest.skip("this C library has no malloc_trim/mallinfo2 (not glibc)")
    assert trimmer.look() is False  # nothing went down yet
    # many small blocks (a crowd of streams' buffers), then every other one kept: the freed
    # ones are holes the allocator keeps for the process until trimmed
    blocks = [bytes(2000) + bytes([i % 256]) for i in range(40_000)]
    assert trimmer.look() is False  # grew: no trim
    before = rss_kib()
    kept = blocks[::8]
    del blocks
    assert trimmer.look() is True and trimmer.trims == 1
    assert rss_kib() < before - 30_000  # most of the ~80 MB given back
    assert trimmer.look() is False  # no new drop: no second trim
    assert kept and heap_in_use() > 0 and malloc_trim() is not None


def test_a_settled_worker_freezes_what_it_loaded_and_collects_the_old_generations_rarely() -> None:
    """In a process of its own (``gc.freeze`` would hold this test process's objects)."""
    import subprocess
    import sys

    script = (
        "import gc, weakref\n"
        "from framework.web.server import GC_THRESHOLDS, settle_heap\n"
        "settle_heap()\n"
        "assert gc.get_threshold() == GC_THRESHOLDS, gc.get_threshold()\n"
        "assert gc.get_freeze_count() > 1000, gc.get_freeze_count()\n"
        "class Node: pass\n"
        "a, b = Node(), Node(); a.other, b.other = b, a  # a cycle made once settled\n"
        "gone = weakref.ref(a); del a, b\n"
        "gc.collect()\n"
        "assert gone() is None, 'a cycle made after settling is still collected'\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
