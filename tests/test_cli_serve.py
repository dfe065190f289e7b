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


# --- port and address checked before "Serving ..." is printed; bind errors are one line, exit code 2

import socket  # noqa: E402

import pytest  # noqa: E402

from explorer.cli_serve import check_listen  # noqa: E402
from explorer.errors import ScenarioError, ServeError  # noqa: E402


@pytest.fixture
def busy_port():
    """A port this test occupies with a listening socket on 127.0.0.1."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    yield s.getsockname()[1]
    s.close()


@pytest.mark.parametrize("args,option", [
    (["--port", "99999"], "--port"), (["--port", "-1"], "--port"), (["--port", "0"], "--port"),
    (["--address", "999.1.1.1"], "--address"),
])
def test_bad_port_or_address_is_one_line_before_serving(args, option):
    r = _run("serve", *args)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and option in r.stderr and "Serving" not in r.stdout
    assert len(r.stderr.strip().splitlines()) == 1


def test_busy_port_is_a_clear_error(busy_port):
    for extra in (["--address", "127.0.0.1"], []):
        r = _run("serve", "--port", str(busy_port), *extra)
        assert r.returncode == 2, r.stderr
        assert f"port {busy_port} is already in use" in r.stderr and "--port" in r.stderr
        assert "Traceback" not in r.stderr and "Serving" not in r.stdout


def test_check_listen_in_process(busy_port):
    with pytest.raises(ServeError, match="already in use"):
        check_listen("127.0.0.1", busy_port)
    with pytest.raises(ScenarioError, match="1..65535"):
        check_listen(None, 65536)
    with pytest.raises(ScenarioError, match="--address"):
        check_listen("999.1.1.1", 5006)
    with pytest.raises(ServeError, match="not an address of this machine"):
        check_listen("192.0.2.1", 5999)   # TEST-NET-1: never assigned to this machine
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    check_listen("127.0.0.1", port)   # a free port passes


@pytest.mark.parametrize("origin", ["rules.example.org\n", "rules.example.org:443\n", "a\nb"])
def test_an_origin_with_a_newline_is_refused(origin):
    """``--allow-websocket-origin`` must match as a whole: a trailing newline passed the old ``re.match`` check."""
    from explorer.cli_serve import check_origins
    from explorer.errors import ScenarioError

    with pytest.raises(ScenarioError, match="not host or host:port"):
        check_origins([origin])


# --- explorer serve NOTEBOOK...: each at /<stem>, checked before serving

from explorer.cli_serve import MAX_NOTEBOOKS, check_notebooks  # noqa: E402


def test_notebooks_are_served_at_their_file_names():
    got = check_notebooks(["notebooks/dagger.ipynb", "tutorials/01_face_to_face_rolls.ipynb"])
    assert list(got) == ["/dagger", "/01_face_to_face_rolls"]
    assert got["/dagger"] == str((ROOT / "notebooks/dagger.ipynb").resolve())


@pytest.mark.parametrize("paths,words", [
    (["README.md"], "not an existing .ipynb file"),
    (["notebooks/nope.ipynb"], "not an existing .ipynb file"),
    (["notebooks/dagger.ipynb", "notebooks/dagger.ipynb"], "already the notebook"),
    (["x.ipynb"] * (MAX_NOTEBOOKS + 1), f"at most {MAX_NOTEBOOKS}"),
])
def test_bad_notebooks_are_refused_naming_the_field(paths, words):
    with pytest.raises(ScenarioError) as e:
        check_notebooks(paths)
    assert "NOTEBOOK" in str(e.value) and words in str(e.value)


def test_a_notebook_on_a_page_url_is_refused(tmp_path):
    nb = tmp_path / "tagraid-face-to-face.ipynb"
    nb.write_text("{}")
    with pytest.raises(ScenarioError, match="already the page /tagraid-face-to-face"):
        check_notebooks([str(nb)])


def test_a_bad_notebook_argument_is_one_line_before_serving():
    r = _run("serve", "README.md")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "NOTEBOOK" in r.stderr and "Serving" not in r.stdout
    assert len(r.stderr.strip().splitlines()) == 1
