"""Property tests over random positions (hypothesis, derandomized in CI by tests/conftest.py): threat never decreases
in step 1; an overrun base never becomes operational again within a phase; an enemy's move never ends farther from
the nearest operational base it heads for; replaying a scenario gives the identical states and trace."""

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games import get_game
from explorer.games.dagger.nemesis import PhaseContext, advance_threat, play_phases
from explorer.games.dagger.nemesis_scenario import parse_nemesis, resolve_nemesis
from explorer.games.dagger.options import rulings
from explorer.games.dagger.worldmap import load_map, nearest_operational_bases
from explorer.scenario import read_toml

WORLD = load_map()
SPACES = list(WORLD.names)
BASE_NAMES = ["New York", "Atlantis", "Madripoor", "Wakanda", "Iliad"]
EXAMPLES = ["Example: Rising Tension", "Example: Coordinated Assault", "Example: Quiet Night",
            "Example: Reinforcements"]
TYPES = {"rank-1": 3, "rank-2": 3, "rank-3": 2, "nemesis-specific": 4}


def base_doc():
    g = get_game("dagger")
    return read_toml("dg-three-rounds", text=g.scenario_text("dg-three-rounds"))


@st.composite
def positions(draw):
    doc = base_doc()
    doc["threat"] = draw(st.integers(0, 19))
    doc["overrun"] = draw(st.lists(st.sampled_from(BASE_NAMES[:4] + ["Iliad"]), unique=True, max_size=4))
    enemies = []
    for key, cap in TYPES.items():
        for i in range(draw(st.integers(0, cap))):
            enemies.append({"id": f"{key} {i}", "type": key, "space": draw(st.sampled_from(SPACES))})
    doc["enemies"] = enemies
    for h in doc["heroes"]:
        h["space"] = draw(st.sampled_from(SPACES))
        h["damage"] = draw(st.integers(0, 9))
    doc["nemesis"]["space"] = draw(st.sampled_from(SPACES))
    doc["events"] = [{"card": c} for c in draw(st.permutations(EXAMPLES))]
    doc["phases"] = draw(st.integers(1, 3))
    rl = {"overrun_base_no_hero": draw(st.sampled_from(["moves", "stays"])),
          "region_distance": draw(st.sampled_from(["whole_map", "within_region"]))}
    doc["rulings"] = rl
    return parse_nemesis(doc, "hypothesis")


@settings(max_examples=60, deadline=None)
@given(positions())
def test_threat_never_decreases_in_step_1(sc):
    ctx = PhaseContext(world=sc.world, rulings=rulings(sc.rulings))
    after, steps = advance_threat(sc.state, ctx)
    assert after.threat >= sc.state.threat
    assert after.threat - sc.state.threat == sum(v for _, v in steps[0].facts["parts"])


@settings(max_examples=40, deadline=None)
@given(positions())
def test_overrun_bases_stay_overrun_and_moves_close_in(sc):
    ctx = PhaseContext(world=sc.world, rulings=rulings(sc.rulings))
    frames = play_phases(sc.state, ctx, sc.phases)
    rd = sc.rulings["region_distance"]
    before_step = sc.state           # the state before the step being looked at
    for f in frames:                 # one kernel frame per step function
        same_phase = f.state.round == before_step.round and not f.name.startswith("End of Round")
        if same_phase:
            assert before_step.overrun <= f.state.overrun      # within a phase, never operational again
        for s in f.steps:
            facts = s.facts
            if facts.get("action") == "move":
                target = before_step.base_space(facts["target"])
                within = (WORLD.region_of(facts["start"]) if facts["scope"] == "region" and rd == "within_region"
                          else None)
                before = WORLD.distance(facts["start"], target, within)
                assert WORLD.distance(facts["to"], target, within) == before - 1
                near_before = nearest_operational_bases(WORLD, facts["start"], before_step.operational_bases(), rd)
                # it heads for (one of) the nearest operational base(s) and ends one line nearer it
                assert near_before.distance == before and facts["target"] in near_before.bases
        before_step = f.state
    assert frames


@settings(max_examples=15, deadline=None)
@given(positions())
def test_replay_gives_identical_states(sc):
    a = resolve_nemesis(sc)
    b = resolve_nemesis(sc)
    assert a.to_dict() == b.to_dict()
    fa = play_phases(sc.state, PhaseContext(world=sc.world, rulings=rulings(sc.rulings)), sc.phases)
    fb = play_phases(sc.state, PhaseContext(world=sc.world, rulings=rulings(sc.rulings)), sc.phases)
    assert [f.state for f in fa] == [f.state for f in fb]


@settings(max_examples=40, deadline=None)
@given(positions(), st.data())
def test_evolve_is_dataclasses_replace(sc, data):
    """The hot path's copy-with (GameState.evolve, state.evolve) gives what dataclasses.replace gives, shares the
    unchanged fields, leaves the original alone, and rejects unknown fields."""
    import dataclasses

    import pytest

    from explorer.games.dagger.state import evolve

    s = sc.state
    names = [f.name for f in dataclasses.fields(s)]
    picked = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=5))
    donor = play_phases(s, PhaseContext(world=sc.world, rulings=rulings(sc.rulings)), 1)[-1].state
    changes = {n: getattr(donor, n) for n in picked}
    before = dataclasses.astuple(s)
    new = s.evolve(**changes)
    assert new == dataclasses.replace(s, **changes) and new.log == dataclasses.replace(s, **changes).log
    assert dataclasses.astuple(s) == before
    assert all(getattr(new, n) is getattr(s, n) for n in names if n not in changes)
    with pytest.raises(TypeError):
        s.evolve(threat_level=3)
    h = s.heroes[0]
    assert evolve(h, damage=h.damage + 1) == dataclasses.replace(h, damage=h.damage + 1)
    with pytest.raises(TypeError):
        evolve(h, hp=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.threat = 0


@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from(SPACES))
def test_cached_nearest_base_equals_fresh(sc, space):
    """The per-map cache of "nearest operational base" answers what a fresh computation answers."""
    from explorer.games.dagger.worldmap import _nearest_operational_bases

    for rd in ("whole_map", "within_region"):
        oper = sc.state.operational_bases()
        assert nearest_operational_bases(WORLD, space, oper, rd) == _nearest_operational_bases(WORLD, space, oper, rd)
