"""Starting and stopping the servers the browser tests drive (imported by name: tests/ is not a package, and a module
named ``conftest`` is ambiguous once several test folders have one)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            log = getattr(proc, "log_path", None)
            raise RuntimeError(f"server exited with {proc.returncode}: "
                               + (Path(log).read_text(errors="replace")[-4000:] if log else ""))
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def start(cmd: list[str], **kw) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(kw.pop("env", {}))
    # the server's output goes to a file, never to a pipe nobody reads: a long-running server (30 sessions) would
    # fill the pipe's buffer with log lines and block on its next write
    log = tempfile.NamedTemporaryFile(prefix="explorer-server-", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, cwd=kw.pop("cwd", ROOT), env=env, stdout=log, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True, **kw)
    proc.log_path = log.name
    log.close()
    return proc
