"""Shared by the command-line start tests: what a command leaves imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules_after(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, set[str]]:
    """Run ``explorer <argv>`` in a fresh interpreter (its output swallowed) and return its exit code and the names
    of every module loaded by then; ``env``: more environment variables (e.g. the parse cache's)."""
    code = ("import sys, io, contextlib\nfrom explorer.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    rc = main({argv!r})\n"
            "print(rc)\nprint('\\n'.join(sorted(sys.modules)))")
    env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    rc, *mods = out.stdout.split()
    return int(rc), set(mods)
