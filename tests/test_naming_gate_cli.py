"""Every command that reads a scenario file names that file in a refusal raised while the file is resolved, played
or measured, not only while it is loaded (``explorer resolve`` and ``explorer render`` have their own tests) (issue #25 item 5: one gate, :func:`explorer.errors.naming_source`). Each
command's resolving function is replaced by one that refuses without naming a source, as a rule step deep in a
sequence does; the one line the command prints must name the file and the field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from explorer.cli import main
from explorer.errors import ScenarioError

GAMES = Path(__file__).resolve().parents[1] / "explorer" / "games"


def _refuse(*_a, **_k):
    raise ScenarioError("turns[0].at", "deep in a sequence, no file known here", "a free hexagon")


CASES = [
    # (argv before the file, file, module whose function refuses, its name)
    (["dagger", "forecast"], "dagger/scenarios/dg-two-rounds.toml", "explorer.games.dagger.forecast",
     "planned_forecast"),
    (["dagger", "forecast"], "dagger/scenarios/dg-03.toml", "explorer.games.dagger.forecast", "loss_forecast"),
    (["dagger", "step"], "dagger/scenarios/dg-two-rounds.toml", "explorer.games.dagger.round_view",
     "round_positions"),
    (["masseffect", "step"], "masseffect/scenarios/me-round-1.toml", "explorer.games.masseffect.round_view",
     "round_positions"),
    (["tagraid", "lof"], "tagraid/tables/lof-demo.toml", "explorer.games.tagraid.lof_analysis", "analyse"),
    (["tagraid", "order-odds"], "tagraid/scenarios/tr-34.toml", "explorer.games.tagraid.order_odds",
     "order_odds"),
]


@pytest.mark.parametrize("argv, rel, module, name", CASES, ids=[" ".join(c[0]) + " " + Path(c[1]).stem
                                                                for c in CASES])
def test_a_refusal_while_resolving_names_the_file(tmp_path, monkeypatch, capsys, argv, rel, module, name):
    import importlib

    f = tmp_path / ("my-" + Path(rel).name)
    shutil.copy(GAMES / rel, f)
    mod = importlib.import_module(module)
    monkeypatch.setattr(mod, name, _refuse)
    assert main([*argv, str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert f.name in err and "turns[0].at" in err and "deep in a sequence" in err, err


def test_a_bad_ruling_of_order_odds_names_the_option_not_the_file(tmp_path, capsys):
    f = tmp_path / "my-order.toml"
    shutil.copy(GAMES / "tagraid/scenarios/tr-34.toml", f)
    assert main(["tagraid", "order-odds", str(f), "--ruling", "lof_grazing=sideways"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--ruling" in err and "lof_grazing" in err and f.name not in err, err
