"""Test-wide settings.

Under CI (``CI`` set) hypothesis runs derandomized: the same examples every run, so a red CI is reproducible and never
a coin toss. Locally it explores new random examples each run (and keeps failures in its database). No example has a
deadline (hypothesis' default is 200 ms): speed goals live in ``benchmarks/``, and a deadline failed a property test
only because the 2-core CI machine was busy.

The cache of validated built-in scenarios (:mod:`explorer.parsecache`) is off (``EXPLORER_CACHE=off``, inherited by
the commands the tests run) unless the environment sets it: a test that changes a parser must see it parse, and the
tests write nothing to the user's cache. ``tests/test_parsecache.py`` and the import tests of a cached command turn it
on, in a directory of their own.
"""

import os
from pathlib import Path

import pytest
from hypothesis import settings

from docs_helpers import build_sphinx

os.environ.setdefault("EXPLORER_CACHE", "off")

settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.register_profile("local", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")

NBVAL_OUTPUT_WAIT = 60
"""Seconds nbval waits for a notebook cell's next output message once the cell has replied (nbval's own: 5 s, fixed
in ``IPyNbCell.__init__``; past it the cell fails with "Timeout of 5 seconds exceeded waiting for output"). An upper
bound: the kernel sends them right after its reply, unless a loaded 2-core machine holds it back (a CI run once
charged 19 s to a check that takes 0.8 s). Applies when this file is loaded, as in ``./run test`` (every test
path)."""


def pytest_collection_modifyitems(items):
    for item in items:
        if type(item).__name__ == "IPyNbCell" and getattr(item, "output_timeout", None) == 5:
            item.output_timeout = NBVAL_OUTPUT_WAIT


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The documentation site built once per test session (``docs/`` with warnings as errors; notebooks executed
    through MyST-NB's cache in ``docs/_build/.jupyter_cache``): the output directory. Used by ``tests/test_docs.py``
    and the browser test of the built site. ``EXPLORER_DOCS_SITE=<dir>`` uses a site already built there instead
    (for iterating on the tests; CI leaves it unset)."""
    given = os.environ.get("EXPLORER_DOCS_SITE")
    if given:
        return Path(given)
    pytest.importorskip("myst_nb")
    out = tmp_path_factory.mktemp("site")
    r = build_sphinx(Path(__file__).resolve().parents[1] / "docs", out)
    assert r.returncode == 0, r.stderr[-3000:]
    return out
