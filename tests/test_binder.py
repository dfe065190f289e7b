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


PLACEHOLDER_REPOSITORY = "https://github.com/OWNER/REPOSITORY"
"""pyproject's ``[project.urls] Repository`` until the public repository is known: replace it there and in the
README badge (this test then checks the two agree)."""


def binder_badge(repository: str) -> str:
    """The README's Binder badge (Markdown) for a GitHub repository URL: opens the Panel apps' index."""
    owner_repo = repository.removeprefix("https://github.com/").strip("/")
    return (f"[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/{owner_repo}/HEAD"
            "?urlpath=panel)")


def test_readme_has_the_binder_badge_of_the_repository_url():
    repository = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]
    assert repository.startswith("https://github.com/") and repository.count("/") == 4
    assert binder_badge(repository) in (ROOT / "README.md").read_text()
    assert binder_badge("https://github.com/o/r") == ("[![Binder](https://mybinder.org/badge_logo.svg)]"
                                                      "(https://mybinder.org/v2/gh/o/r/HEAD?urlpath=panel)")


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
