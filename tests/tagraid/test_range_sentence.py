"""The Range step says how the ruler was measured (issue 22, item 5): along the shortest clear Line of Fire segment
on a flat pair, in three dimensions when a Model stands on scenery (plan length combined with the height between the
two Silhouettes: :mod:`explorer.games.tagraid.elevation`), base edge to base edge under ``range_measurement =
edge_to_edge``."""

import pytest

from explorer.games import get_game

G = get_game("tagraid")


def _range_steps(name, rulings=None):
    tr = G.resolve(G.load_builtin(name), rulings=rulings) if rulings else G.resolve(G.load_builtin(name))
    return [s for s in tr.steps if s.section == "Range"]


@pytest.mark.parametrize("name", ["tr-elev-37", "tr-elev-tower", "tr-elev-tower-own-edge"])
def test_an_elevated_pair_says_the_ruler_runs_in_three_dimensions(name):
    steps = _range_steps(name)
    assert steps
    for s in steps:
        assert "three dimensions" in s.detail and "height" in s.detail, s.detail


@pytest.mark.parametrize("name", ["tr-22", "tr-35", "tr-37"])
def test_a_flat_pair_keeps_the_flat_sentence(name):
    for s in _range_steps(name):
        assert s.detail == "The Ruler is laid along the shortest clear Line of Fire segment between the two bases."


def test_edge_to_edge_says_base_edge_to_base_edge():
    steps = _range_steps("tr-22", {"range_measurement": "edge_to_edge"})
    assert steps
    for s in steps:
        assert "base edge to base edge" in s.detail and "shortest clear" not in s.detail, s.detail
