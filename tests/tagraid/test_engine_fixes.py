"""Regression tests for defects a tester found in the resolution engine's rules and trace texts."""

import pytest

from explorer.games.tagraid import sections as S
from explorer.games.tagraid.options import ALL_OPTIONS
from explorer.games.tagraid.resolve import resolve_detailed
from explorer.games.tagraid.scenarios import list_scenarios, load_scenario

from engine_helpers import build, miner

SCENARIOS = [s["name"] for s in list_scenarios()]
READINGS = [{}] + [{o.key: r} for o in ALL_OPTIONS for r in o.readings]


# ---------------------------------------------------------------- Wounds steps name who loses them (Death; Neomaterials)


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_wounds_step_names_the_miner_that_lost_them(name):
    sc = load_scenario(name)
    for rulings in READINGS:
        res = resolve_detailed(sc, rulings=rulings)
        lost = {m.name: m.wounds_lost for m in res.miners.values()}
        if res.megabeast:
            lost[res.megabeast.name] = res.megabeast.wounds_lost
        for st in res.trace.steps:
            if st.section != "Wounds and Neomaterials" or "wounds" not in st.facts:
                continue
            loser = st.facts.get("target", res.megabeast.name if res.megabeast else None)
            assert st.facts["wounds"] == 0 or lost[loser] > 0, (name, st.title)
            assert st.title.startswith(f"{loser} loses "), (name, rulings, st.title)
            cause = st.facts.get("attacker")
            if cause:
                assert f" to {cause}" in st.title or f"{cause}'s player" in st.title, st.title
