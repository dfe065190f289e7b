"""`explorer serve`: registered with its options; a usage error is a message, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args):
    return subprocess.run([sys.executable, "-m", "explorer", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200"})


def test_serve_help_lists_its_options():
    r = _run("serve", "--help")
    assert r.returncode == 0
    for opt in ("--port", "--address", "--show", "--no-show", "5006"):
        assert opt in r.stdout


def test_bad_port_is_a_usage_error_without_traceback():
    r = _run("serve", "--port", "abc")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and "--port" in r.stderr
