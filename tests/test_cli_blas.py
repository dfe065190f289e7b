"""The command line asks OpenBLAS for one thread before numpy can load (``explorer.cli.BLAS_THREADS``), keeping a
value the user set; ``benchmarks/bench_cli_start.py`` measures what it saves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from explorer import cli

ROOT = Path(__file__).resolve().parents[1]


def test_main_sets_one_blas_thread_when_unset(monkeypatch, capsys):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert cli.main(["--help"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"


def test_main_keeps_the_users_value(monkeypatch, capsys):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    assert cli.main(["--help"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "2"


def test_set_before_numpy_loads_in_a_real_command():
    """In a fresh ``python -m explorer.cli`` process that computes a Line of Fire (numpy loads during the
    command), the variable is already set when numpy is imported."""
    code = ("import os, sys, builtins\n"
            "seen = []\n"
            "real = builtins.__import__\n"
            "def imp(name, *a, **k):\n"
            "    if name == 'numpy' and not seen: seen.append(os.environ.get('OPENBLAS_NUM_THREADS'))\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = imp\n"
            "from explorer.cli import main\n"
            "code = main(['tagraid', 'lof', 'lof-demo'])\n"
            "sys.stderr.write('SEEN=%r\\n' % seen)\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "SEEN=['1']" in out.stderr
