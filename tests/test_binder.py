"""Binder files: pins match pyproject, postBuild is executable and its layout step works, the proxy config is sane."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement

from explorer.serving.widget_js import ipycanvas_bundle

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"


def _pins() -> dict[str, str]:
    pins = {}
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            req = Requirement(line)
            specs = list(req.specifier)
            assert len(specs) == 1 and specs[0].operator == "==", f"not pinned exactly: {line}"
            pins[req.name.lower().replace("_", "-")] = specs[0].version
    return pins


def test_requirements_pin_every_dependency_as_pyproject_does():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = _pins()
    wanted = meta["dependencies"] + [d for d in meta["optional-dependencies"]["test"]
                                     if d.split("==")[0] in ("jupyterlab", "ipykernel")]
    for dep in wanted:
        req = Requirement(dep)
        name = req.name.lower().replace("_", "-")
        assert name in pins, f"{name} missing from binder/requirements.txt"
        assert req.specifier.contains(pins[name]), f"{name}=={pins[name]} does not satisfy pyproject's {dep}"
        if any(s.operator == "==" for s in req.specifier):
            assert str(req.specifier) == f"=={pins[name]}"
    assert "jupyter-panel-proxy" in pins


def test_runtime_is_python_311():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"


def test_postbuild_is_executable_finds_the_bundle_and_places_the_proxy_config(tmp_path):
    post = BINDER / "postBuild"
    assert os.access(post, os.X_OK)
    assert post.read_text().startswith("#!/usr/bin/env bash")
    env = dict(os.environ, SKIP_INSTALL="1", PROXY_CONFIG_DIR=str(tmp_path), PYTHON=sys.executable,
               PYTHONPATH=str(ROOT))
    r = subprocess.run([str(post)], check=True, env=env, timeout=120, capture_output=True, text=True)
    assert r.stdout.strip() == str(ipycanvas_bundle())
    assert (tmp_path / "jupyter-panel-proxy.yml").read_text() == (BINDER / "jupyter-panel-proxy.yml").read_text()


def test_panel_proxy_config_lists_every_app_and_notebook_and_needs_no_static_dirs():
    cfg = yaml.safe_load((BINDER / "jupyter-panel-proxy.yml").read_text())
    for app in cfg["apps"]:
        assert (ROOT / app).is_file(), app
    everything = {p.relative_to(ROOT).as_posix() for pattern in ("apps/*.py", "notebooks/*.ipynb", "tutorials/*.ipynb")
                  for p in ROOT.glob(pattern)}
    assert set(cfg["apps"]) == everything and len(cfg["apps"]) == len(everything)
    # the apps and notebooks serve the ipycanvas bundle themselves (Bokeh's extension route): no route to configure
    assert "static_dirs" not in cfg


def test_every_notebook_sets_itself_up_for_panel_serve_in_its_first_code_cell():
    import json

    for nb in sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("tutorials/*.ipynb")):
        cells = json.loads(nb.read_text())["cells"]
        first = next(c for c in cells if c["cell_type"] == "code")
        assert "notebook_app()" in "".join(first["source"]), nb.name


def test_readme_has_the_binder_badge_of_the_repository_url():
    """The ONE repository address (pyproject's ``[project.urls] Repository``, :mod:`explorer.repository`) is the
    README badge's; while it is the placeholder, the docs' and embeds' Binder links are left out."""
    from explorer.repository import PLACEHOLDER, binder_badge, binder_launch_url, is_placeholder, repository_url

    repository = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]
    assert repository_url() == repository.rstrip("/")
    assert repository.startswith("https://github.com/") and repository.count("/") == 4
    assert binder_badge(repository) in (ROOT / "README.md").read_text()
    assert binder_badge("https://github.com/o/r") == ("[![Binder](https://mybinder.org/badge_logo.svg)]"
                                                      "(https://mybinder.org/v2/gh/o/r/HEAD?urlpath=panel)")
    assert binder_launch_url("https://github.com/o/r") == "https://mybinder.org/v2/gh/o/r/HEAD"
    assert binder_launch_url(PLACEHOLDER) is None and is_placeholder(PLACEHOLDER)
    if is_placeholder():
        assert "placeholder" in (ROOT / "README.md").read_text().split("\n\n")[1]


def _doc_files() -> list[Path]:
    """Every page a user reads: README, every docs page (any depth, the generated build excepted), the notebooks and
    tutorials, the binder files."""
    docs = [f for f in (ROOT / "docs").rglob("*") if f.suffix in (".md", ".rst", ".ipynb", ".txt", ".py")
            and "_build" not in f.parts and f.is_file()]
    return [ROOT / "README.md", *docs, *sorted((ROOT / "notebooks").glob("*.ipynb")),
            *sorted((ROOT / "tutorials").glob("*.ipynb")), *sorted(f for f in (ROOT / "binder").iterdir() if f.is_file())]


def test_every_install_from_the_repository_names_the_repository_url():
    """The install lines that fetch the repository name its ONE address (no second copy that could drift)."""
    import re

    from explorer.repository import install_line, repository_url

    found = []
    for f in _doc_files():
        for m in re.finditer(r"git\+(https://[^\s'\"`)]+)", f.read_text(errors="replace")):
            found.append(m.group(1))
            assert m.group(1).rstrip("/") == repository_url(), f"{f.name}: {m.group(0)}"
    assert len(found) >= 3, found   # README, getting-started, embedding
    assert install_line("docs", "https://github.com/o/r") == \
        "pip install 'tabletop-rules-explorer[docs] @ git+https://github.com/o/r'"


def test_no_page_tells_users_to_pip_install_explorer():
    """``explorer`` on the package index is another project: no doc page, notebook, tutorial or the embedding page
    installs it by that name (``pip install explorer``, ``explorer[docs]``, ``%pip install explorer``)."""
    import re

    bad = re.compile(r"pip3? install (-\S+ )*['\"]?explorer\b(?![-_.\w/])")
    for f in _doc_files():
        for line in f.read_text(errors="replace").splitlines():
            assert not bad.search(line), f"{f.relative_to(ROOT)}: {line.strip()}"
    assert bad.search("pip install 'explorer[docs]'") and bad.search("%pip install -q explorer")
    assert not bad.search("pip install 'tabletop-rules-explorer[docs]'") and not bad.search("pip install explorer-x")


PROXY_BOOLEAN_FLAGS = ("autoreload", "warm", "admin", "dev", "reuse_sessions", "liveness")
"""jupyter-panel-proxy 0.2.0 (panel_server/__init__.py): each of these becomes ``--<flag>`` when its value is truthy
after reading the file with ``yaml.BaseLoader`` (strings only) over the defaults ``{"dev": True, ...}``."""


def _proxy_flags(text: str) -> list[str]:
    """The boolean flags jupyter-panel-proxy 0.2.0 would pass to ``panel serve`` for a config file's text."""
    config = {"dev": True, "file_types": ["ipynb", "py"]}
    config.update(yaml.load(text, Loader=yaml.BaseLoader))
    return [f for f in PROXY_BOOLEAN_FLAGS if config.get(f)]


def test_panel_proxy_config_turns_autoreload_and_dev_mode_off():
    assert _proxy_flags("autoreload: false\n") == ["autoreload", "dev"]   # the trap: "false" is a true string
    assert _proxy_flags((BINDER / "jupyter-panel-proxy.yml").read_text()) == []
