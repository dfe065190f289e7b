"""Building the documentation site in tests (``tests/test_docs.py``, the browser test of the built site)."""

import os
import subprocess
import sys
from pathlib import Path


def build_sphinx(src: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    """``sphinx -b html -W --keep-going`` of ``src`` into ``out`` (doctrees in ``out/.doctrees``), with this checkout
    first on ``PYTHONPATH`` (the notebooks' kernels inherit it)."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going", *extra,
                           "-d", str(out / ".doctrees"), str(src), str(out)], capture_output=True, text=True,
                          env=env, timeout=1800)
