"""Alien and Human signals (11.10) and Prime Swarm units (11.6) in a round on a map.

An Alien signal revealed brings the alien the file gives it (``[[aliens]]`` with ``signal``) onto the signal's hex;
when it is first activated is ruling revealed_alien_activation. A Human signal's token is only discarded (this book
prints no effect for it). A Prime Swarm is one alien with two figures, each with its own Health points: an agent
targets one figure, Area Damage reaches every figure in the Area, the unit moves with the closer figure leading,
attacks when either figure sees the target, and dies only when both figures do; a Paralyzed figure is ruling
prime_swarm_paralyzed."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import sections as S
from explorer.hexgrid import Hex, distance

from .helpers import resolve

G = get_game("galaxydefenders")
SECOND = "Sentinels (2nd figure)"


def doc(name: str) -> dict:
    return tomllib.loads(G.scenario_text(name))


def run(d, **rulings):
    game, sc = load_any("r.toml", text=to_toml(d))
    return game.resolve(sc, rulings=rulings)


def load_error(d) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        load_any("r.toml", text=to_toml(d))
    return e.value


# ------------------------------------------------------------------------------------------------ Alien signals

def test_the_built_in_alien_signal_brings_its_alien_which_the_card_activates():
    t = resolve("gd-round-alien-signal")
    titles = [s.title for s in t.steps]
    i = titles.index("Signal S3 on 7,1 is revealed: an Alien signal")
    assert titles[i + 1] == "Warrior enters play on 7,1, where the signal was; the token is discarded"
    assert t.steps[i].rule == S.SIGNALS and t.steps[i + 1].rule == S.SIGNALS
    o = t.outcome
    # the Warrior moved 1 Area (C -> B), ended next to the Marine and bit: 2 hits, 1 shield -> 1 wound
    assert o["positions"]["Warrior"] == "3,1" and distance(Hex.parse("3,1"), Hex.parse(o["positions"]["Marine"])) == 1
    assert o["agents"]["Marine"]["wounds"] == 1
    assert o["signals"] == ["S4"]                    # S3 and H1 revealed, S4 never
    assert "Signal H1 on 2,2 is revealed: a Human signal; the token is discarded" in titles


def test_next_round_keeps_a_revealed_alien_from_this_rounds_card():
    t = resolve("gd-round-alien-signal", revealed_alien_activation="next_round")
    skip = next(s for s in t.steps if "entered play this round from signal S3" in s.title)
    assert skip.rule == S.SIGNALS
    assert t.outcome["agents"]["Marine"]["wounds"] == 0 and t.outcome["positions"]["Warrior"] == "7,1"
    assert t.rulings["revealed_alien_activation"] == "next_round"


def test_an_alien_still_under_its_signal_is_not_activated():
    d = doc("gd-round-alien-signal")
    d["turns"][0]["activities"][0].pop("reveal")
    t = run(d)
    step = next(s for s in t.steps if s.title.startswith("Warrior is not in play"))
    assert "Alien signal S3 has not been revealed" in step.title and step.rule == S.SIGNALS
    assert "Warrior" not in t.outcome["positions"] and "Warrior" not in t.outcome["aliens"]
    assert t.outcome["signals"] == ["S3", "S4"]                 # the Biotech's walk still reveals H1


def test_card_22_selects_a_revealed_alien_only_under_in_play():
    d = doc("gd-round-alien-signal")
    ce = d["turns"][0]["close_encounter"]
    ce["card"], ce["activates"] = 22, []
    d["aliens"].append({"name": "Drone", "at": "8,0", "health": 2, "rules": [{"condition": "adjacent",
                                                                            "action": "attack"}],
                        "weapon": {"name": "Zap", "fixed_hits": 1}})
    sel = lambda t: [s.title for s in t.steps if s.title.endswith("is selected")]   # noqa: E731
    assert sel(run(d)) == ["Warrior (Marine) is selected"]          # file order: Warrior first
    assert sel(run(d, revealed_alien_activation="next_round")) == ["Drone (Marine) is selected"]


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d["aliens"][0].update(at="5,0"), "aliens[0].at", "omit at with signal"),
    (lambda d: d["aliens"][0].update(signal="H1"), "aliens[0].signal", "no Alien signal named 'H1'"),
    (lambda d: d["aliens"][0].pop("signal"), "aliens[0].at", "has no hex on the map"),
    (lambda d: d["aliens"].append(dict(d["aliens"][0], name="Twin")), "aliens[1].signal", "two aliens name signal"),
    (lambda d: d["aliens"][0].update(base="0,0"), "aliens[0].base", "not adjacent"),
    (lambda d: d["aliens"][0].update(base="7,2", swarm="8,1"), "aliens[0].swarm", "base or swarm, not both"),
    (lambda d: d["turns"][0]["activities"][0].update(reveal=["S4"]), "turns[0].activities[0].reveal[0]",
     "signal = 'S4'"),
])
def test_bad_signal_fields_are_one_line_naming_the_field(change, field, words):
    d = doc("gd-round-alien-signal")
    change(d)
    e = load_error(d)
    assert e.field == field and words in str(e) and "\n" not in str(e)


def test_a_revealed_multi_hex_alien_whose_base_hex_is_taken_is_refused():
    d = doc("gd-round-alien-signal")
    d["aliens"][0]["base"] = "6,1"
    d["agents"][1]["at"] = "6,1"
    d["turns"][1]["activities"] = []
    with pytest.raises(RuleViolation) as e:
        run(d)
    assert "6,1 is occupied by Biotech" in e.value.reason and e.value.rule == S.ALIEN_MOVEMENT
    assert e.value.rejection.field == "turns[0].activities[0].reveal[0]"


def test_a_revealed_multi_hex_alien_stands_on_both_hexes():
    d = doc("gd-round-alien-signal")
    d["aliens"][0]["base"] = "8,1"
    d["turns"][0].pop("close_encounter")
    o = run(d).outcome
    assert o["positions"]["Warrior"] == "7,1" and o["bases"] == {"Warrior": "8,1"}


# ------------------------------------------------------------------------------------------------ Prime Swarm

def test_the_built_in_prime_swarm_worked_example():
    t = resolve("gd-round-prime-swarm")
    titles = [s.title for s in t.steps]
    # the Marine's single-target shot hits the first figure only: 2 wounds of 3
    marine = [s for s in t.steps if s.section.startswith("Agent turn 1: Marine: Defence")]
    assert {s.section for s in marine} == {"Agent turn 1: Marine: Defence: Sentinels"}
    # the unit moves: the figure on 7,0 leads to 3,1 (next to the Marine on 4,1), the other follows to 3,2
    assert "Prime Swarm: the figure on 7,0 is the closer to Marine; the unit's A.I. uses it" in titles
    assert "The other Prime Swarm figure goes to 3,2" in titles
    # the grenade's Area Damage: both figures in Area B defend, each on its own
    bio = {s.section for s in t.steps if s.section.startswith("Agent turn 2: Biotech: Defence")}
    assert bio == {"Agent turn 2: Biotech: Defence: Sentinels", f"Agent turn 2: Biotech: Defence: {SECOND}"}
    lives = next(s for s in t.steps if s.title.startswith("Prime Swarm Sentinels: one figure dead"))
    assert lives.rule == S.PRIME_SWARM and lives.facts == {"unit": "Sentinels", "destroyed": False}
    # card 22 (Activate 1 alien) selects the unit, one alien; the surviving figure activates alone
    assert "Sentinels (Marine) is selected" in titles
    assert f"Only {SECOND} of the Prime Swarm is alive: it activates alone" in titles
    o = t.outcome
    assert o["aliens"]["Sentinels"] == {"wounds": 4, "poison": 0, "mark": 0, "status": "dead"}
    assert o["aliens"][SECOND]["wounds"] == 1 and o["aliens"][SECOND]["status"] == "alive"
    assert "Sentinels" not in o["positions"] and o["positions"][SECOND] == "3,2"
    assert o["agents"]["Marine"]["wounds"] == 1


def test_both_figures_dead_destroy_the_unit_and_the_card_finds_it_dead():
    d = doc("gd-round-prime-swarm")
    bio = d["turns"][1]["activities"][0]
    bio["rolled"]["defend"][SECOND] = ["blank", "blank"]
    d["aliens"][0]["swarm_wounds"] = 1
    d["turns"][1]["close_encounter"] = {"card": 12, "activates": ["Sentinels"]}
    t = run(d)
    gone = next(s for s in t.steps if s.title.startswith("Prime Swarm Sentinels: both figures are dead"))
    assert gone.facts["destroyed"] is True
    last = [s for s in t.steps if s.section == "Aliens turn 2: Sentinels"]
    assert last[0].title == "Sentinels is dead: it is no longer on the map" and "Alien card" in last[0].detail


def test_the_unit_attacks_when_either_figure_sees_the_target():
    # a Blocking Hex between the lead's hex and the Marine: the other figure's line is clear, so the unit attacks
    d = doc("gd-round-prime-swarm")
    d["map"]["blocking"] = ["5,0"]
    d["aliens"][0].update(at="6,0", swarm="6,2")
    d["aliens"][0]["rules"] = [{"condition": "adjacent", "action": "attack"},
                               {"condition": "within", "areas": 1, "action": "attack"}]
    d["turns"] = [{"agent": "Marine", "activities": [{"kind": "move", "to": "4,0"}],
                   "close_encounter": {"card": 12, "activates": ["Sentinels"],
                                       "rolled": {"Sentinels": {"defend": {"Marine": ["blank"]}}}}}]
    t = run(d)
    assert t.outcome["agents"]["Marine"]["wounds"] == 1


@pytest.mark.parametrize("reading, moved, wounds", [("unit", False, 0), ("figure", True, 1)])
def test_a_paralyzed_figure_is_ruling_prime_swarm_paralyzed(reading, moved, wounds):
    d = doc("gd-round-prime-swarm")
    # the Marine's Rifle causes a Critical 1 on a Bolt: the token drawn Paralyzes the first figure only
    d["agents"][0]["weapon"]["effects"] = [{"kind": "critical", "x": 1, "trigger": "bolt"}]
    d["turns"] = d["turns"][:1]
    shot = d["turns"][0]["activities"][1]["rolled"]
    shot["hit"] = {"red": ["hit", "bolt"]}
    shot["defend"] = {"Sentinels": ["blank"]}
    shot["critical"] = {"Sentinels": ["c1-paralyzed"]}
    t = run(d, prime_swarm_paralyzed=reading)
    step = next(s for s in t.steps if "ruling prime_swarm_paralyzed" in s.title)
    assert step.rule == S.PRIME_SWARM
    o = t.outcome
    assert (o["positions"][SECOND] != "7,2") is moved
    assert o["agents"]["Marine"]["wounds"] == wounds
    assert o["positions"]["Sentinels"] == "7,0"        # the Paralyzed figure stays under both readings


def test_prime_swarm_fields_are_one_line_naming_the_field():
    d = doc("gd-round-prime-swarm")
    d["aliens"][0]["swarm"] = "4,1"
    d["agents"][0]["at"] = "4,1"
    e = load_error(d)
    assert e.field == "aliens[0].swarm" and "share hex 4,1" in str(e)
    d = doc("gd-round-prime-swarm")
    d["aliens"][0]["swarm"] = "9,9"
    assert load_error(d).field == "aliens[0].swarm"
    d = doc("gd-round-prime-swarm")
    d["aliens"][0]["swarm_wounds"] = 41
    assert load_error(d).field.startswith("aliens")
    d = doc("gd-round-prime-swarm")
    d["turns"][0]["activities"][1]["target"] = "Sentinels (3rd figure)"
    e = load_error(d)
    assert e.field == "turns[0].activities[1].target" and SECOND in str(e)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["6,0", "6,1", "7,0", "7,1", "8,0", "8,1"]),
       st.sampled_from(["6,2", "7,2", "8,2"]), st.sampled_from(["3,1", "4,1", "5,1", "4,0"]))
def test_after_its_activation_the_unit_stands_on_two_free_open_hexes(first, second, marine):
    d = doc("gd-round-prime-swarm")
    d["aliens"][0].update(at=first, swarm=second)
    d["turns"] = [{"agent": "Marine", "activities": [{"kind": "move", "to": marine}],
                   "close_encounter": {"card": 12, "activates": ["Sentinels"],
                                       "rolled": {"Sentinels": {"defend": {"Marine": ["blank"]}}}}}]
    pos = run(d).outcome["positions"]
    hexes = list(pos.values())
    assert len(set(hexes)) == len(hexes)                          # one figure a hex
    a, b = Hex.parse(pos["Sentinels"]), Hex.parse(pos[SECOND])
    moved = (pos["Sentinels"], pos[SECOND]) != (first, second)
    if moved:                                                     # the follower ends next to the leader
        assert distance(a, b) == 1


def test_the_map_labels_the_second_figure_apart_from_the_signals():
    """A Prime Swarm's 2nd figure is labelled "Se2" on the Round map ("S2" read as a signal's name) and the key
    says what a trailing 2 means (newcomer, session 11)."""
    from explorer.games import get_game
    from explorer.games.galaxydefenders.options import rulings as make
    from explorer.games.galaxydefenders.round import round_frames
    from explorer.games.galaxydefenders.round_map import map_of
    from explorer.games.galaxydefenders.round_picture import MAP_LEGEND, map_svg, positions_from

    _k, sc = get_game("galaxydefenders").load_builtin("gd-round-prime-swarm")
    pos = positions_from(round_frames(sc, make({})))
    svgs = [map_svg(map_of(sc), p) for p in pos]
    assert any(">Se2<" in s for s in svgs) and not any(">S2<" in s for s in svgs)
    assert "Se2: a Prime Swarm's 2nd figure" in MAP_LEGEND
