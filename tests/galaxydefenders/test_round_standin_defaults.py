"""An agent's defaults that the Core Set sheet prints (this book does not) are STAND-INs, and the Round page says so:
the page named the default movement (4) but not the default Health (8), which every agent of gd-round-mission-3
but the Biotech plays with (newcomer, session 16)."""

from __future__ import annotations

import re

import pytest

from explorer.games.galaxydefenders.round import RoundAgent
from explorer.games.galaxydefenders.round_picture import STANDINS


@pytest.mark.parametrize("field, word", [("health", "Health"), ("movement", "movement")])
def test_the_round_page_names_each_agent_default_as_a_stand_in(field, word):
    default = RoundAgent.model_fields[field].default
    m = re.search(r"an agent's ([^()]*) when the file gives none \(([^)]*)\)", STANDINS)
    assert m, STANDINS
    names, values = [w.strip() for w in m.group(1).split(" and ")], [v.strip() for v in m.group(2).split(" and ")]
    assert word in names and values[names.index(word)] == str(default), (names, values, default)
