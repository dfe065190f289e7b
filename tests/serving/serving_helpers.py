"""Helpers of the serving tests (imported by name: tests/ is not a package, and ``conftest`` is ambiguous)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any


def run_async(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coro`` to its end and return its result, on a fresh event loop in a fresh thread: in a whole test run the
    browser tests' session-wide Playwright keeps an event loop running in the main thread, where ``asyncio.run``
    refuses to start another."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
