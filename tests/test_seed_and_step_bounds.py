"""One bound for seeds everywhere (0..2**63 - 1, :data:`explorer.cli_numbers.SEED_MAX`): every ``seed`` field of
every game's file formats and every ``--seed`` option; a ``step --at`` out of range says too small or too large and
names the scenario (issue 20, tester's fault 5)."""

import contextlib
import importlib
import io
import pkgutil

import pytest
from pydantic import BaseModel

import explorer
from explorer.cli import main
from explorer.cli_numbers import SEED_MAX


def _models():
    for info in pkgutil.walk_packages(explorer.__path__, "explorer."):
        if info.name.endswith("__main__") or any(p in info.name for p in (".widgets", "views", ".serve", "app")):
            continue
        try:
            mod = importlib.import_module(info.name)
        except Exception:      # an optional extra (a browser, a widget library) is not installed
            continue
        for obj in vars(mod).values():
            if isinstance(obj, type) and issubclass(obj, BaseModel) and "seed" in getattr(obj, "model_fields", {}):
                yield obj


def test_every_seed_field_of_every_format_is_bounded_0_to_seed_max():
    seen = {}
    for m in _models():
        meta = m.model_fields["seed"].metadata
        ge = next((x.ge for x in meta if getattr(x, "ge", None) is not None), None)
        le = next((x.le for x in meta if getattr(x, "le", None) is not None), None)
        seen[f"{m.__module__}.{m.__name__}"] = (ge, le)
    assert any("dagger" in k for k in seen) and any("masseffect" in k for k in seen)
    assert {k: v for k, v in seen.items() if v != (0, SEED_MAX)} == {}


def _run(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("game, sid", [("dagger", "dg-two-rounds"), ("masseffect", "me-round-1")])
@pytest.mark.parametrize("seed", ["-1", str(SEED_MAX + 1), "99999999999999999999999"])
def test_the_step_commands_take_the_seeds_resolve_takes(game, sid, seed):
    code, _, err = _run(game, "step", sid, "--seed", seed)
    assert code == 2 and "--seed" in err and f"0..{SEED_MAX}" in err


@pytest.mark.parametrize("game, sid", [("dagger", "dg-two-rounds"), ("masseffect", "me-round-1")])
def test_a_step_out_of_range_says_too_small_or_too_large_and_names_the_scenario(game, sid):
    code, _, err = _run(game, "step", sid, "--at", "0")
    assert code == 2 and "too small" in err and sid in err
    code, _, err = _run(game, "step", sid, "--at", "100000")
    assert code == 2 and "too large" in err and sid in err
    assert _run(game, "step", sid, "--seed", str(SEED_MAX))[0] == 0
