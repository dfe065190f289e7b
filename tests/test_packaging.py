"""The distribution builds and installs: an sdist, a wheel built from that sdist, and the wheel installed (with its
dependencies) into a clean virtual environment, where the import name ``explorer`` and the ``explorer`` command work
from any directory, with the packaged scenarios, maps, tables and stylesheets.

The distribution name is ``tabletop-rules-explorer`` (``explorer`` on the package index is another project's); the
``pip install`` lines of the docs (README, docs/embedding.md, docs/getting-started.md) name it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DIST = "tabletop-rules-explorer"
BUILD_PIN = "build==1.6.1"
"""The PEP 517 front end the test installs into its clean environment (the project's own venv does not need it)."""


def test_the_distribution_name_is_ours_and_the_import_name_stays():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["name"] == DIST
    assert meta["tool"]["setuptools"]["packages"]["find"]["include"] == ["explorer*"]


def test_docs_install_the_distribution_by_its_name():
    """Every ``pip install`` line of the docs names the distribution (or a path to its wheel / the checkout), never
    the bare ``explorer`` of another project."""
    lines = []
    for f in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        lines += [(f.name, m.group(0)) for m in re.finditer(r"pip install [^`\n]*", f.read_text())]
    assert any(DIST in line for _, line in lines), lines
    for name, line in lines:
        assert not re.search(r"pip install (-\S+ )*['\"]?explorer\b", line), f"{name}: {line}"


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)
    assert r.returncode == 0, f"{cmd}: {r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.mark.slow
def test_sdist_and_wheel_build_and_the_wheel_installs_into_a_clean_venv(tmp_path):
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    _run([str(py), "-m", "pip", "install", "-q", BUILD_PIN], env=env)
    out = tmp_path / "dist"
    # the default of `python -m build`: the sdist first, then the wheel built from the unpacked sdist
    _run([str(py), "-m", "build", "--outdir", str(out), str(ROOT)], env=env)
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    assert sdist.name.startswith("tabletop_rules_explorer-") and wheel.name.startswith("tabletop_rules_explorer-")
    for doc in ("docs/getting-started.md", "docs/embedding.md", "README.md"):   # the docs' install lines name it
        assert f"dist/{wheel.name}" in (ROOT / doc).read_text(), doc
    _run([str(py), "-m", "pip", "install", "-q", str(wheel)], env=env)
    elsewhere = tmp_path / "elsewhere"   # not the checkout: `import explorer` must come from the installed wheel
    elsewhere.mkdir()
    probe = ("import explorer, importlib.metadata as m, pathlib; "
             "print(pathlib.Path(explorer.__file__).resolve()); print(m.version('tabletop-rules-explorer')); "
             "from explorer.serving.widget_js import ipycanvas_bundle; print(ipycanvas_bundle().is_file()); "
             "import importlib.resources as r; print((r.files('explorer.render') / 'static' / 'explorer.css').is_file())")
    r = _run([str(py), "-c", probe], cwd=elsewhere, env=env)
    where, version, bundle, css = r.stdout.splitlines()
    assert str(venv) in where and str(ROOT) not in where
    assert version == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert bundle == "True" and css == "True"
    for args, words in ((["resolve", "tr-05"], "TR-05"), (["scenarios", "--game", "dagger"], "dg-"),
                        (["resolve", "me-03"], "Husk")):
        r = _run([str(venv / "bin" / "explorer"), *args], cwd=elsewhere, env=env)
        assert words in r.stdout, (args, r.stdout[:500])
