"""The start-up check of the serving patches (:mod:`explorer.serving.versions`): the pins in code are
``pyproject.toml``'s, every patch module documents its private API and pins, and a mismatch is one warning line per
package that names the patches it disables; a disabled patch changes nothing, a guarded one still applies."""

from __future__ import annotations

import importlib
import logging
import pkgutil
import tomllib
import warnings
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import explorer.serving
from explorer.serving import versions
from explorer.serving.versions import DISABLE, GUARDED, PATCHES, PINS, ServingVersionWarning

ROOT = Path(__file__).resolve().parents[2]
NOT_PATCHES = {"versions", "pane", "url_state", "session_receive", "static_dir", "workers", "origins", "notebook",
               "phone", "offload", "widget_tree"}


def test_pins_are_pyprojects():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = {}
    for d in deps:
        req = Requirement(d)
        specs = list(req.specifier)
        if len(specs) == 1 and specs[0].operator == "==":
            pinned[req.name] = specs[0].version
    for dist, version in PINS.items():
        assert pinned.get(dist) == version, f"{dist}: explorer.serving.versions.PINS has {version}, pyproject.toml " \
                                            f"{pinned.get(dist)}"
    assert set(PINS) == {"panel", "bokeh", "ipywidgets", "ipycanvas", "ipywidgets_bokeh"}


def test_the_test_environment_runs_the_pinned_stack():
    assert versions.mismatches() == {}
    assert versions.version_warnings() == []


def test_every_patch_module_is_listed_and_documents_its_private_api_and_pins():
    modules = {m.name for m in pkgutil.iter_modules(explorer.serving.__path__)}
    listed = {p.module for p in PATCHES.values()}
    assert modules - NOT_PATCHES == listed, "a module of explorer.serving is neither a patch nor listed as not one"
    for p in PATCHES.values():
        mod = importlib.import_module(f"explorer.serving.{p.module}")
        doc = " ".join((mod.__doc__ or "").split())
        assert callable(getattr(mod, p.name, None)), f"{p.module} has no {p.name}"
        assert p.on_mismatch in (DISABLE, GUARDED) and p.requires and set(p.requires) <= set(PINS)
        assert "Private API" in doc and "On a version mismatch:" in doc, p.module
        for dist in p.requires:
            assert f"{dist}=={PINS[dist]}" in doc, f"{p.module}'s docstring does not name the pin {dist}=={PINS[dist]}"
        said = "disabled" if p.on_mismatch == DISABLE else "guarded"
        assert f"On a version mismatch: {said}" in doc, p.module


def test_lean_build_comms_is_never_on_while_drop_build_messages_is_off():
    """lean_build_comms opens comms without state that drop_build_messages must drop: any mismatch that disables
    the second disables the first."""
    assert set(PATCHES["drop_build_messages"].requires) <= set(PATCHES["lean_build_comms"].requires)
    assert PATCHES["lean_build_comms"].on_mismatch == PATCHES["drop_build_messages"].on_mismatch == DISABLE


def test_a_mismatch_is_one_line_per_package_naming_versions_and_patches():
    lines = versions.version_warnings({"panel": "1.10.0", "ipycanvas": None})
    assert len(lines) == 2
    panel, canvas = lines
    assert panel.startswith("explorer serving: panel 1.10.0 is installed, 1.9.4 is pinned: disables patches ")
    for name, p in PATCHES.items():
        if "panel" in p.requires:
            assert name in panel
    assert "skip_browser_comm_opens" in panel.split("still tries")[0]
    assert "accept_binary_widget_messages" in panel.split("still tries")[1]
    assert canvas.startswith("explorer serving: ipycanvas not installed, 0.14.3 is pinned: disables patches "
                             "composite_layers_once; still tries (guarded) ")
    assert all("\n" not in line for line in lines)


def test_allowed_disables_with_a_warning_and_guarded_patches_still_apply(installed):
    installed(ipywidgets_bokeh="1.9.0")
    with pytest.warns(ServingVersionWarning, match=r"ipywidgets_bokeh 1\.9\.0 is installed, 1\.8\.0 is pinned"):
        assert versions.allowed("skip_browser_comm_opens") is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")               # issued once per process, not on every page build
        assert versions.allowed("drop_build_messages") is False
        assert versions.allowed("accept_binary_widget_messages") is True   # guarded
        assert versions.allowed("browser_fixes") is True                   # needs no ipywidgets_bokeh
    with pytest.raises(KeyError):
        versions.allowed("no_such_patch")


def test_as_pinned_nothing_is_disabled_and_nothing_is_said(installed):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert all(versions.allowed(name) for name in PATCHES)


def test_a_guarded_patch_that_cannot_apply_says_so(installed, monkeypatch, caplog):
    """Was silent: with another Panel (no PanelSessionWebsocket) the receive patches returned False quietly."""
    import sys

    from explorer.serving.binary_messages import accept_binary_widget_messages

    monkeypatch.setitem(sys.modules, "panel.io.ipywidget", None)   # import fails as with a Panel without it
    with caplog.at_level(logging.WARNING, logger="explorer.serving"):
        assert accept_binary_widget_messages() is False
        assert accept_binary_widget_messages() is False
    lines = [r.getMessage() for r in caplog.records if r.name == "explorer.serving"]
    assert len(lines) == 1 and "patch accept_binary_widget_messages could not be applied" in lines[0]
    assert "uploaded files never reach a served page" in lines[0]


def test_explorer_serve_prints_the_mismatch_before_it_starts(installed, monkeypatch):
    from click.testing import CliRunner

    import explorer.app
    from explorer.cli_serve import serve_command

    started = []
    monkeypatch.setattr("explorer.cli_serve.check_listen", lambda address, port: None)
    monkeypatch.setattr(explorer.app, "serve", lambda **kw: started.append(kw))
    installed(panel="1.10.0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # printed, so not issued again as a warning when the patches ask
        result = CliRunner().invoke(serve_command, ["--port", "5999"])
        assert versions.allowed("lean_build_comms") is False
    assert result.exit_code == 0, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("explorer serving: panel 1.10.0 is installed, 1.9.4 is pinned")
    assert "lean_build_comms" in lines[0] and "Serving the rules explorer" in result.stdout and started


def test_explorer_serve_says_nothing_more_when_all_is_pinned(installed, monkeypatch):
    from click.testing import CliRunner

    import explorer.app
    from explorer.cli_serve import serve_command

    monkeypatch.setattr("explorer.cli_serve.check_listen", lambda address, port: None)
    monkeypatch.setattr(explorer.app, "serve", lambda **kw: None)
    result = CliRunner().invoke(serve_command, ["--port", "5999"])
    assert result.exit_code == 0 and result.stderr == ""


def test_the_deprecated_module_still_gives_every_old_name():
    with pytest.warns(DeprecationWarning, match="explorer.serving"):
        import explorer.widgets.panel_support as old
        importlib.reload(old)
    for name in old.__all__:
        assert getattr(old, name) is getattr(explorer.serving, name, None) or name == "BROWSER_FIXES_JS"
