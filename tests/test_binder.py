"""Binder files: pins match pyproject, postBuild is executable and its layout step works, the proxy config is sane."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement

from explorer.serving.widget_js import WIDGET_JS_ROUTE, ipycanvas_bundle, widget_js_files

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


def test_postbuild_is_executable_and_lays_out_widget_js(tmp_path):
    post = BINDER / "postBuild"
    assert os.access(post, os.X_OK)
    assert post.read_text().startswith("#!/usr/bin/env bash")
    env = dict(os.environ, SKIP_INSTALL="1", WIDGET_JS_DIR=str(tmp_path / "js"), PROXY_CONFIG_DIR=str(tmp_path),
               PYTHON=sys.executable, PYTHONPATH=str(ROOT))
    subprocess.run([str(post)], check=True, env=env, timeout=120)
    (rel, src), = widget_js_files().items()
    laid = tmp_path / "js" / rel
    assert rel.startswith("ipycanvas@") and rel.endswith("/dist/index")
    assert laid.read_bytes() == ipycanvas_bundle().read_bytes()
    assert laid.read_bytes().lstrip().startswith(b"define(") or b"define(" in laid.read_bytes()[:2000]
    assert (tmp_path / "jupyter-panel-proxy.yml").read_text() == (BINDER / "jupyter-panel-proxy.yml").read_text()


def test_panel_proxy_config_serves_existing_apps_and_the_widget_js_route():
    cfg = yaml.safe_load((BINDER / "jupyter-panel-proxy.yml").read_text())
    for app in cfg["apps"]:
        assert (ROOT / app).is_file(), app
    routes = dict(s.split("=", 1) for s in cfg["static_dirs"])
    assert routes[WIDGET_JS_ROUTE] == "./binder/widget-js"
    assert "binder/widget-js" in (BINDER / "postBuild").read_text()


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
