"""Fixtures of the serving tests: a simulated installed stack, and Panel's process-wide state put back after each
test that changes it."""

from __future__ import annotations

import warnings

import pytest

from explorer.serving import versions


@pytest.fixture
def installed(monkeypatch):
    """``set(**{dist: version or None})``: make the serving patches see these installed versions (the rest as
    pinned) and forget which warnings were issued; everything is put back afterwards."""
    monkeypatch.setattr(versions, "_warned", set())
    monkeypatch.setattr(versions, "_logged", set())

    def set_versions(**found):
        env = dict(versions.PINS)
        env.update(found)
        monkeypatch.setattr(versions, "_ENVIRONMENT", env)
    set_versions()
    return set_versions


@pytest.fixture
def quiet_versions():
    """Version warnings (if a test simulates a mismatch) are not shown."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", versions.ServingVersionWarning)
        yield
