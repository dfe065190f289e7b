"""Every number and list of every Galaxy Defenders file format is bounded, and a value outside the bounds gives one
line naming the file, the field and what is allowed (issue #9, newcomer finding (d); docs/limits.md).

Formats: ``combat``, ``conditions`` and ``activation`` scenarios (the A.I. section and the map of Areas live in the
activation file) and the calibration file (face tables, Critical piles). Each case edits one field of a built-in
scenario or of the packaged calibration and checks the message.
"""

from __future__ import annotations

import copy
import tomllib
from importlib import resources

import pytest
from test_hostile_files import to_toml

from explorer.errors import ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import activation as A
from explorer.games.galaxydefenders import combat as C
from explorer.games.galaxydefenders.calibration import MAX_SIDES, load_calibration

GAME = get_game("galaxydefenders")


def _doc(name: str) -> dict:
    return tomllib.loads(GAME.scenario_text(name))


def _set(doc: dict, path: tuple, value) -> dict:
    d = copy.deepcopy(doc)
    cur = d
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return d


def _error(doc: dict, resolve: bool = True) -> ScenarioError:
    """Load ``doc`` as the file ``bad.toml`` (and resolve it): the ScenarioError it raises, checked to be one line
    naming the file."""
    with pytest.raises(ScenarioError) as e:
        game, sc = load_any("bad.toml", text=to_toml(doc))
        if resolve:
            game.resolve(sc)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("bad.toml: field '"), msg
    assert "(allowed: " in msg, msg
    return e.value


# (built-in, path, value, field named, a fragment of the allowed values)
CASES = [
    # finding (d) itself
    ("gd-04", ("targets", 0, "energy_shields"), [2, 99_999_999], "targets[0].energy_shields[1]", f"<= {C.MAX_SHIELDS}"),
    ("gd-04", ("targets", 0, "energy_shields"), [-2, 2], "targets[0].energy_shields[0]", ">= 0"),
    ("gd-04", ("targets", 0, "energy_shields"), [1, 1, 1, 1], "targets[0].energy_shields", "at most 3"),
    ("gd-04", ("targets", 0, "health"), 0, "targets[0].health", ">= 1"),
    ("gd-04", ("targets", 0, "wounds"), 41, "targets[0].wounds", "<= 40"),
    ("gd-04", ("targets", 0, "mark"), 3, "targets[0].mark", "<= 2"),
    ("gd-04", ("targets", 0, "poison"), -1, "targets[0].poison", ">= 0"),
    ("gd-04", ("targets", 0, "standard_shields"), 6, "targets[0].standard_shields", "<= 5"),
    ("gd-04", ("targets", 0, "cancel_hits"), 11, "targets[0].cancel_hits", "<= 10"),
    ("gd-04", ("targets", 0, "criticals"), [{"effect": "paralyzed", "x": 6}], "targets[0].criticals[0].x", "<= 5"),
    ("gd-04", ("targets", 0, "kind"), "robot", "targets[0].kind", "'agent'"),
    ("gd-04", ("targets", 0, "name"), "x" * 41, "targets[0].name", "at most 40"),
    ("gd-04", ("attacks", 0, "fixed_hits"), 21, "attacks[0].fixed_hits", "<= 20"),
    ("gd-04", ("attacks", 0, "bonus_hits"), -1, "attacks[0].bonus_hits", ">= 0"),
    ("gd-04", ("attacks", 1, "dice"), {"red": 13}, "attacks[1].dice.red", f"<= {C.MAX_DICE}"),
    ("gd-04", ("attacks", 1, "dice"), {"red": 12, "yellow": 12, "blue": 1}, "attacks[1].dice",
     f"at most {C.MAX_POOL}"),
    ("gd-04", ("attacks", 1, "dice"), {"green": 1}, "attacks[1].dice.green", "'red'"),
    ("gd-04", ("attacks", 1, "atk_dice_minus"), 6, "attacks[1].atk_dice_minus", "<= 5"),
    ("gd-04", ("attacks", 0, "effects"), [{"kind": "critical", "x": 3}], "attacks[0].effects[0].x",
     "critical x from 1 to 2"),
    ("gd-04", ("attacks", 0, "effects"), [{"kind": "mark", "x": 0}], "attacks[0].effects[0].x", "mark x from 1 to 2"),
    ("gd-04", ("attacks", 0, "effects"), [{"kind": "poison", "x": 9}], "attacks[0].effects[0].x", "<= 5"),
    ("gd-04", ("attacks", 0, "effects"), [{"kind": "mark"}] * 9, "attacks[0].effects", "at most 8"),
    ("gd-04", ("attacks", 0, "damage"), "splash", "attacks[0].damage", "'area'"),
    ("gd-04", ("attacks", 1, "rolled", "hit", "red"), ["hit"] * 13, "attacks[1].rolled.hit.red", "at most 12"),
    ("gd-04", ("attacks", 1, "rolled", "hit", "red"), ["hit", "hit", "hit", "laser"],
     "attacks[1].rolled.hit.red[3]", "'hit'"),
    ("gd-04", ("attacks", 1, "rolled", "defend", "Xeno-Delta"), ["blank"] * 65,
     "attacks[1].rolled.defend.Xeno-Delta", f"at most {C.MAX_DEFEND_FACES}"),
    ("gd-04", ("attacks", 1, "rolled", "defend", "Xeno-Delta"), ["blank", "sword"],
     "attacks[1].rolled.defend.Xeno-Delta[1]", "'shield'"),
    ("gd-04", ("attacks", 1, "rolled", "critical"), {"Xeno-Delta": ["c9-nothing"]},
     "attacks[1].rolled.critical.Xeno-Delta[0]", "'c1-damage'"),
    ("gd-04", ("seed",), -1, "seed", ">= 0"),
    ("gd-04", ("seed",), 2 ** 63, "seed", "<= 9223372036854775807"),
    ("gd-04", ("rulings",), {"line_of_sight": "x-ray"}, "rulings.line_of_sight", "'centre_to_centre'"),
    ("gd-04", ("rulings",), {"no_such_option": "a"}, "rulings.no_such_option", "'def_dice_minus_base'"),
    ("gd-04", ("close_encounter",), {"card": 41}, "close_encounter.card", "<= 40"),
    ("gd-04", ("calibration",), {"dice": {"red": {"sides": 6, "faces": ["hit"] * 5}}}, "calibration.dice.red.faces",
     "exactly 6 faces"),
    ("gd-04", ("calibration",), {"dice": {"red": {"sides": 21, "faces": ["hit"] * 6}}}, "calibration.dice.red.sides",
     f"<= {MAX_SIDES}"),
    ("gd-menace-combat", ("menace", "level"), 3, "menace.level", "<= 2"),
    ("gd-menace-combat", ("attacks", 0, "controller"), "Biotech", "attacks[0].controller", "attacker_kind"),
    # conditions
    ("gd-05", ("target", "poison"), 3, "target.poison", "<= 2"),
    ("gd-05", ("events",), [{"kind": "refresh"}] * 21, "events", "at most 20"),
    ("gd-05", ("events",), [{"kind": "poison", "x": 3}], "events[0].x", "<= 2"),
    ("gd-05", ("events",), [{"kind": "heal"}], "events[0].kind", "'refresh'"),
    ("gd-05", ("seed",), 2 ** 64, "seed", "<= 9223372036854775807"),
    ("gd-05", ("rulings",), {"poison_without_wound": "never"}, "rulings.poison_without_wound", "'applies'"),
    # the phases kinds (menace, close_encounter, event, gd_wings, healing) and the Power Suit of a conditions file
    ("gd-menace-book", ("agents",), [f"A{i}" for i in range(7)], "agents", "at most 6"),
    ("gd-menace-book", ("events",), [{"kind": "enters"}] + [{"kind": "action", "agent": "Hulk"}] * 40, "events",
     "at most 40"),
    ("gd-menace-book", ("events", 1, "wounds"), 41, "events[1].wounds", "<= 40"),
    ("gd-menace-book", ("events", 6, "to"), 3, "events[6].to", "<= 2"),
    ("gd-menace-book", ("events", 1, "agent"), "Zed", "events[1].agent", "'Hulk'"),
    ("gd-menace-book", ("events", 0, "kind"), "wound", "events[0].kind", "'enters' first"),
    ("gd-menace-book", ("alpha_agent",), "Zed", "alpha_agent", "'Hulk'"),
    ("gd-close-encounter-paralyzed", ("card",), 26, "card", "<= 25"),
    ("gd-close-encounter-paralyzed", ("card",), 20, "card", ">= 21"),
    ("gd-close-encounter-paralyzed", ("x",), 2, "x", "x only with card = 21"),
    ("gd-close-encounter-paralyzed", ("agents_in_play",), 6, "agents_in_play", "<= 5"),
    ("gd-close-encounter-paralyzed", ("aliens", 0, "rank"), "gold", "aliens[0].rank", "'purple'"),
    ("gd-close-encounter-paralyzed", ("aliens", 0, "controller"), "Zed", "aliens[0].controller", "'Ann'"),
    ("gd-close-encounter-paralyzed", ("players",), [f"P{i}" for i in range(7)], "players", "at most 6"),
    ("gd-event-signals", ("signals",), 41, "signals", "<= 40"),
    ("gd-event-signals", ("balancer",), "none", "balancer", "'aliens'"),
    ("gd-event-signals", ("figures", 4, "bleeding"), True, "figures[4].bleeding", "omit it"),
    ("gd-event-signals", ("figures",), [{"name": f"F{i}", "side": "alien"} for i in range(41)], "figures",
     "at most 40"),
    ("gd-gd-wings", ("agents", 0, "rank"), "universe", "agents[0].rank", "'galaxy'"),
    ("gd-gd-wings", ("agents", 0, "rolled"), ["wings"] * 4, "agents[0].rolled", "at most 3"),
    ("gd-gd-wings", ("agents", 0, "rolled"), ["wings", "hit", "laser"], "agents[0].rolled[2]", "'hit'"),
    ("gd-area-healing", ("heal",), 21, "heal", "<= 20"),
    ("gd-area-healing", ("heal",), 0, "heal", ">= 1"),
    ("gd-area-healing", ("target",), "Nobody", "target", "'Hulk'"),
    ("gd-area-healing", ("figures", 0, "wounds"), 41, "figures[0].wounds", "<= 40"),
    ("gd-refresh-power-suit", ("power_suit", "batteries"), 21, "power_suit.batteries", "<= 20"),
    ("gd-refresh-power-suit", ("events", 1, "x"), 3, "events[1].x", "<= 2"),
    # activation: the A.I. section
    ("gd-ai-move-adjacent", ("rules", 1, "areas"), 11, "rules[1].areas", "<= 10"),
    ("gd-ai-move-adjacent", ("rules", 1, "areas"), 0, "rules[1].areas", "1 to 10"),
    ("gd-ai-move-adjacent", ("rules", 1, "move"), 7, "rules[1].move", "<= 6"),
    ("gd-ai-move-adjacent", ("rules", 1, "condition"), "nearby", "rules[1].condition", "'within'"),
    ("gd-ai-move-adjacent", ("rules", 1, "action"), "teleport", "rules[1].action", "'move_adjacent'"),
    ("gd-ai-move-adjacent", ("rules",), [], "rules", "at least 1"),
    ("gd-ai-move-adjacent", ("rules",), [{"condition": "plus", "action": "stay"}] * 13, "rules", "at most 12"),
    ("gd-ai-move-adjacent", ("figures", 0, "menace"), 3, "figures[0].menace", "<= 2"),
    ("gd-ai-move-adjacent", ("figures",), [{"name": f"F{i}", "side": "agent", "at": "0,0"} for i in range(31)],
     "figures", "at most 30"),
    ("gd-ai-move-adjacent", ("figures", 0, "side"), "boss", "figures[0].side", "'agent'"),
    ("gd-ai-move-adjacent", ("activating", "at"), "40,40", "activating.at", "a hex of an Area"),
    ("gd-ai-move-adjacent", ("activating", "at"), "1;1", "activating.at", "'q,r'"),
    ("gd-ai-move-adjacent", ("activating", "kind"), "drone", "activating.kind", "'npc'"),
    # activation: the map
    ("gd-ai-move-adjacent", ("areas", "A"), [], "areas.A", "at least 1"),
    ("gd-ai-move-adjacent", ("areas", "A"), [f"{q},9" for q in range(601)], "areas.A", f"at most {A.MAX_HEXES}"),
    ("gd-ai-move-adjacent", ("areas", "A"), ["0,0", "2,2"], "areas.A", "joined by adjacency"),
    ("gd-ai-move-adjacent", ("areas", "A"), ["0,0", "0,0"], "areas.A[1]", "each hex in one Area"),
    ("gd-ai-move-adjacent", ("areas", "A"), ["0,0", "1001,0"], "areas.A[1]", "-1000..1000"),
    ("gd-ai-move-adjacent", ("areas",), {f"Z{i}": [f"{i},20"] for i in range(41)}, "areas", f"at most {A.MAX_AREAS}"),
    ("gd-ai-move-adjacent", ("areas",), {"x" * 41: ["0,0"]}, "areas.xxxxxxxx", "at most 40"),
    ("gd-ai-move-adjacent", ("centres",), {"A": "5,5"}, "centres.A", "'0,0'"),
    ("gd-ai-move-adjacent", ("centres",), {"Q": "0,0"}, "centres.Q", "'A'"),
    ("gd-ai-move-adjacent", ("blocking",), ["50,50"], "blocking[0]", "a hex listed in an Area"),
    ("gd-ai-move-adjacent", ("blocking",), ["0,0"] * 601, "blocking", f"at most {A.MAX_HEXES}"),
    ("gd-ai-move-adjacent", ("edges", 0, "edge"), "5,0|7,0", "edges[0].edge", "adjacent"),
    ("gd-ai-move-adjacent", ("edges", 0, "kind"), "fence", "edges[0].kind", "'barrier'"),
    ("gd-ai-move-adjacent", ("edges", 0, "open"), True, "edges[0].open", "open only for a door"),
    ("gd-ai-move-adjacent", ("edges",), [{"edge": "0,0|1,0"}] * 401, "edges", "at most 400"),
    # issue 21: Teleport Points and an NPC's listed "+" targets; the new phases fields and kind
    ("gd-13", ("teleport_points",), ["50,50"], "teleport_points[0]", "a hex of an Area"),
    ("gd-13", ("teleport_points",), ["0,0"] * 11, "teleport_points", "at most 10"),
    ("gd-13", ("rules", 2, "targets"), ["alien", "alien"], "rules[2].targets", "at most once"),
    ("gd-13", ("rules", 1, "targets"), ["alien"], "rules[1].targets", "condition = 'plus'"),
    ("gd-13", ("rules", 2, "targets"), ["drone"], "rules[2].targets", "'alien'"),
    ("gd-33", ("players", 0, "npc_cards"), 6, "players[0].npc_cards", "<= 5"),
    ("gd-33", ("players",), [{"name": f"P{i}"} for i in range(7)], "players", "at most 6"),
    ("gd-33", ("npcs_in_play",), 6, "npcs_in_play", "<= 5"),
    ("gd-33", ("npcs_in_play",), 1, "npcs_in_play", "2 to 5"),
    ("gd-33", ("specialist",), "Zed", "specialist", "'P1'"),
    ("gd-32", ("players",), ["Ann"], "alpha_eliminated", "two players or more"),
    ("gd-08", ("events", 4, "agent"), "Hulk", "events[4].agent", "omit 'agent'"),
]


def _names_bound(allowed: str, want: str) -> bool:
    """Whether the message's allowed values name the bound ``want`` (``"<= 10"``: the upper end, said as ``0 to 10``
    or ``at most 10``; ``">= 1"``: the lower end, ``1 to 40`` or ``at least 1``); other texts must appear as given."""
    op, _, n = want.partition(" ")
    if op == "<=":
        return f" to {n}" in allowed or f"at most {n}" in allowed
    if op == ">=":
        return allowed.startswith(f"{n} to ") or f" {n} to " in allowed or f"at least {n}" in allowed
    return want in allowed


@pytest.mark.parametrize("name,path,value,field,allowed", CASES,
                         ids=[f"{c[0]}:{'.'.join(map(str, c[1]))}={str(c[2])[:20]}" for c in CASES])
def test_a_value_out_of_bounds_names_the_file_the_field_and_the_allowed_values(name, path, value, field, allowed):
    e = _error(_set(_doc(name), path, value))
    assert e.source == "bad.toml"
    assert e.field.startswith(field), (e.field, str(e))
    assert _names_bound(e.allowed or "", allowed), str(e)


def test_fixed_defend_dice_too_few_name_the_file_and_the_attack():
    """Finding (d)'s second half: the Defend roll needs more fixed Blue dice than the file lists (here because
    the Right stack is empty, so 3 hits reach the Defend roll) - a one-line error naming the file and the field."""
    e = _error(_set(_doc("gd-04"), ("targets", 0, "energy_shields"), [2, 0]))
    assert e.field == "attacks[1].rolled.defend.Xeno-Delta", str(e)
    assert "2 faces given but Xeno-Delta's Defend roll rolls 3 Blue dice" in e.problem
    assert e.allowed == "exactly 3 faces"


def test_a_critical_token_from_the_wrong_pile_names_the_file_and_the_attack():
    doc = _set(_doc("gd-04"), ("attacks", 1, "effects"), [{"kind": "critical", "x": 1}])
    doc = _set(doc, ("attacks", 1, "rolled", "defend", "Xeno-Delta"), ["blank", "blank"])
    doc = _set(doc, ("attacks", 1, "rolled", "critical"), {"Xeno-Delta": ["c2-paralyzed"]})
    e = _error(doc)
    assert e.field == "attacks[1].rolled.critical.Xeno-Delta" and "Critical 2 token" in e.problem, str(e)


def test_the_bounds_accept_their_own_limits():
    """The edges of every bound above are accepted (the bounds are not off by one)."""
    doc = _set(_doc("gd-03"), ("targets", 0, "energy_shields"), [C.MAX_SHIELDS, 0, 0])
    game, sc = load_any("ok.toml", text=to_toml(doc))
    assert game.resolve(sc).outcome["attacks"][0]["targets"][0]["absorbed"] >= 1
    doc = _set(_doc("gd-ai-move-adjacent"), ("rules", 1, "areas"), 10)
    game, sc = load_any("ok.toml", text=to_toml(_set(doc, ("rules", 1, "move"), 6)))
    assert game.resolve(sc).outcome["end"]


# ------------------------------------------------------------------------------------------------ calibration file

CAL_TEXT = (resources.files("explorer.games.galaxydefenders") / "data" / "calibration.toml").read_text("utf-8")

CAL_CASES = [
    (("dice", "red", "faces"), ["hit"] * 5, "dice.red.faces", "exactly 6 faces"),
    (("dice", "red", "sides"), 1, "dice.red.sides", ">= 2"),
    (("dice", "red", "faces"), ["hit"] * 21, "dice.red.faces", f"at most {MAX_SIDES}"),
    (("dice", "red", "faces"), ["hit", "hit", "hit", "bolt", "wings", "hit+hit+hit+hit+hit"], "dice.red.faces[5]",
     "at most 4 symbols"),
    (("dice", "red", "faces"), ["hit", "hit", "hit", "bolt", "wings", "blank+hit"], "dice.red.faces[5]", "'hit'"),
    (("dice", "Red"), {"sides": 2, "faces": ["hit", "blank"]}, "dice.Red", "red, blue"),
    (("defend_die",), "purple", "defend_die", "'blue'"),
    (("critical_tokens", 0, "level"), 3, "critical_tokens[0].level", "<= 2"),
    (("critical_tokens", 0, "x"), 6, "critical_tokens[0].x", "<= 5"),
    (("critical_tokens", 0, "count"), 21, "critical_tokens[0].count", "<= 20"),
    (("critical_tokens", 0, "count"), 0, "critical_tokens[0].count", ">= 1"),
    (("critical_tokens", 0, "effect"), "explode", "critical_tokens[0].effect", "'extra_damage'"),
    (("critical_tokens", 0, "compat"), "nobody", "critical_tokens[0].compat", "'agents'"),
    (("critical_tokens",), [{"id": f"t{i}", "level": 1, "effect": "extra_damage"} for i in range(61)],
     "critical_tokens", "at most 60"),
    (("critical_tokens",), [{"id": "t", "level": 1, "effect": "extra_damage"}] * 2, "critical_tokens",
     "unique ids"),
    (("critical_tokens",), [{"id": "t", "level": 1, "effect": "extra_damage", "compat": "agents"}],
     "critical_tokens", "at least one 'all' token"),
]


@pytest.mark.parametrize("path,value,field,allowed", CAL_CASES, ids=[".".join(map(str, c[0])) for c in CAL_CASES])
def test_a_calibration_file_out_of_bounds_names_the_file_the_field_and_the_allowed_values(tmp_path, path, value,
                                                                                          field, allowed):
    p = tmp_path / "my-dice.toml"
    p.write_text(to_toml(_set(tomllib.loads(CAL_TEXT), path, value)), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        load_calibration(p)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"{p}: field '{field}"), msg
    assert _names_bound(e.value.allowed or "", allowed), msg


def test_an_empty_calibration_file_is_refused(tmp_path):
    """Newcomer finding: an empty calibration file silently gave the packaged defaults."""
    from explorer.errors import ScenarioError
    from explorer.games.galaxydefenders.calibration import load_calibration

    p = tmp_path / "cal.toml"
    p.write_text("")
    with pytest.raises(ScenarioError, match="cal.toml: .*the calibration file is empty"):
        load_calibration(p)


# --- session 14: a combat target's hex on a map of Areas is checked as a hex before it is used --------------------

def _combat_builtins_with_a_map() -> list[str]:
    return [n for n in GAME.builtin_names() if _doc(n).get("kind") == "combat" and "map" in _doc(n)]


@pytest.mark.parametrize("word", ["Marine", "", "3,1|3,2", "1,2,3"])
def test_a_combat_target_hex_that_is_no_hex_is_one_line_naming_the_field(word):
    """``targets[i].at`` / ``.base`` of a combat scenario with a ``[map]``: a value that is not "q,r" raised a bare
    ValueError from Hex.parse (a traceback) before the map checks named the field."""
    names = _combat_builtins_with_a_map()
    assert names, "no combat built-in with a [map] of Areas"
    for name in names:
        doc = _doc(name)
        for i, t in enumerate(doc["targets"]):
            for key in ("at", "base"):
                if key in t:
                    e = _error(_set(doc, ("targets", i, key), word))
                    assert e.field == f"targets[{i}].{key}" and "'q,r'" in str(e), (name, str(e))


def test_a_drop_without_atk_dice_minus_is_refused_not_ignored():
    """``attacks[i].drop`` names the colours a -X ATK Dice Critical leaves out; without ``atk_dice_minus`` (or on a
    fixed-hits weapon) it was silently ignored (session 14)."""
    doc = _doc("gd-04")
    e = _error(_set(doc, ("attacks", 1, "drop"), ["red"]))
    assert e.field == "attacks[1].drop" and "atk_dice_minus" in str(e)
