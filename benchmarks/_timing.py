"""Timing helper shared by the benchmark scripts (run as scripts: ``benchmarks/`` is on ``sys.path``)."""

from __future__ import annotations

import time
from typing import Callable


def best(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best (smallest) wall time of ``repeat`` calls of ``fn``, in seconds (``time.perf_counter``)."""
    t = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    return min(t)
