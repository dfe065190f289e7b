"""``./run`` waits for another apt or dpkg process's lock instead of failing (issue #25 item 8): its ``apt_get``
passes apt's own ``DPkg::Lock::Timeout`` and retries a lock failure apt does not wait for, up to ``APT_LOCK_WAIT``
seconds; any other failure is returned at once. A fake ``apt-get`` on PATH stands in for the real one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FAKE = """#!/usr/bin/env bash
echo "$*" >> "{log}"
n=$(($(cat "{count}" 2>/dev/null || echo 0) + 1)); echo $n > "{count}"
if [ $n -le {locked} ]; then
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2; exit 100
fi
if [ "{other}" = 1 ]; then echo "E: Unable to locate package nope" >&2; exit 100; fi
exit 0
"""


def _run(tmp_path: Path, locked: int, other: int = 0, wait: int = 300) -> tuple[subprocess.CompletedProcess, list]:
    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    log, count = tmp_path / "log", tmp_path / "count"
    fake = bin_ / "apt-get"
    fake.write_text(FAKE.format(log=log, count=count, locked=locked, other=other))
    fake.chmod(0o755)
    script = (f'source "{ROOT / "run"}"; as_root() {{ "$@"; }}; sleep() {{ :; }}; APT_LOCK_WAIT={wait}; '
              'apt_get install -y -qq chromium')
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                         env={"PATH": f"{bin_}:/usr/bin:/bin"})
    return out, log.read_text().splitlines() if log.exists() else []


def test_a_held_lock_is_waited_for_then_the_install_runs(tmp_path):
    out, calls = _run(tmp_path, locked=3)
    assert out.returncode == 0, out.stderr
    assert len(calls) == 4 and all(c.startswith("-o DPkg::Lock::Timeout=300 install -y -qq chromium") for c in calls)
    assert out.stderr.count("another apt or dpkg process holds its lock; waiting") == 3


def test_the_wait_is_bounded(tmp_path):
    out, calls = _run(tmp_path, locked=1000, wait=20)
    assert out.returncode == 100 and len(calls) == 5  # 0, 5, 10, 15 s waited, then given up at 20 s
    assert "Could not get lock" in out.stderr


def test_another_failure_is_not_retried(tmp_path):
    out, calls = _run(tmp_path, locked=0, other=1)
    assert out.returncode == 100 and len(calls) == 1 and "Unable to locate package nope" in out.stderr


@pytest.mark.parametrize("verb", ["", "bogus"])
def test_run_without_a_known_verb_still_prints_its_usage(verb):
    out = subprocess.run([str(ROOT / "run"), *([verb] if verb else [])], capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and out.stderr.startswith("usage: ./run app")
