"""Strategy Pool engine: the die, the Strategy Roll step functions, Renegade tokens, Paragon dice, Action Spaces,
the three-dice rule, and the scenario kind "strategy" (rulebook worked examples and built-in scenarios)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from explorer.dice import ScriptedRoller, SeededRoller
from explorer.errors import RuleViolation, ScenarioError
from explorer.scenario import read_toml
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.options import rulings
from explorer.games.masseffect.strategy import (
    ACTION_FACES, FACES, Die, Face, RenegadeUse, Space, accepts, allocate_die, begin_actions, begin_strategy_roll,
    end_actions, face_of, fill_spaces, gather_pool, icons_showing, lock_die, movement_points, parse_strategy,
    pool_for_turn, reroll_icons, resolve_strategy, roll_pool, strategy_roll, trigger_core_ability,
    use_renegade_token)

SCEN = resources.files("explorer.games.masseffect") / "scenarios"
D = {f: i + 1 for i, f in enumerate(FACES)}  # d6 value of each face


def scripted(*faces):
    return ScriptedRoller([D[Face(f)] for f in faces], max_face=6)


def load(name: str):
    return parse_strategy(read_toml(name, text=(SCEN / f"{name}.toml").read_text(encoding="utf-8")), name)


def state_with(faces, squadmate="Garrus", on_point=False, tokens=0, paragon=()):
    dice = tuple(Die(f"S{i + 1}", Face(f) if f else None) for i, f in enumerate(faces))
    dice += tuple(Die(f"P{i + 1}", Face(f) if f else None, paragon=True) for i, f in enumerate(paragon))
    return begin_strategy_roll(squadmate, on_point, dice, tokens)[0]


# -- the die -------------------------------------------------------------------------------------------------------

def test_six_faces_one_icon():
    assert len(FACES) == 6 and len(set(FACES)) == 6
    assert Face.CORE in FACES and Face.CORE not in ACTION_FACES and len(ACTION_FACES) == 5
    assert [face_of(v) for v in range(1, 7)] == list(FACES)
    with pytest.raises(ValueError):
        face_of(7)


def test_action_spaces_accept_table():
    r = rulings()
    table = {s: {f for f in FACES if accepts(s, f, r)} for s in Space}
    assert table[Space.MOVE] == {Face.MOVE_2, Face.MOVE_3, Face.MOVE_2_OR_STANDARD}
    assert table[Space.STANDARD] == {Face.STANDARD, Face.ENHANCED, Face.MOVE_2_OR_STANDARD}
    assert table[Space.ENHANCED] == {Face.ENHANCED}
    strict = rulings({"dual_face_in_move_space": "standard_only"})
    assert not accepts(Space.MOVE, Face.MOVE_2_OR_STANDARD, strict)
    assert accepts(Space.STANDARD, Face.MOVE_2_OR_STANDARD, strict)
    assert [movement_points(f) for f in FACES] == [2, 3, None, None, 2, None]


def test_fill_spaces():
    assert fill_spaces(["enhanced", "enhanced", "move_3"], ["move", "standard", "enhanced"]) == (2, 0, 1)
    assert fill_spaces(["enhanced", "standard", "standard"], ["move", "standard", "enhanced"]) is None
    # the dual face is the only Move: fills the Move space under the default, not under standard_only
    faces = ["move_2_or_standard", "standard", "enhanced"]
    assert fill_spaces(faces, ["move", "standard", "enhanced"]) is not None
    assert fill_spaces(faces, ["move", "standard", "enhanced"],
                       rulings({"dual_face_in_move_space": "standard_only"})) is None


# -- the Pool over the Round ----------------------------------------------------------------------------------------

def test_pool_gathered_and_shrinking():
    dice, steps = gather_pool()
    assert len(dice) == 12 and steps[0].rule == S.PREPARATION_PHASE
    sizes = [len(pool_for_turn(t)[0]) for t in (1, 2, 3, 4)]
    assert sizes == [12, 9, 6, 3]
    dice, steps = gather_pool(paragon_dice=2, locked_by_downed=3)
    assert [d.id for d in dice] == [f"S{i}" for i in range(1, 10)] + ["P1", "P2"]
    assert {s.rule for s in steps} >= {S.DOWNED_SQUADMATES, S.PARAGON_DICE}
    pool, _ = pool_for_turn(3, paragon_dice=2, locked_by_downed=3, paragon_taken=1)
    assert [d.id for d in pool] == ["S1", "S2", "S3", "P1"]
    with pytest.raises(ScenarioError, match="no die is left"):
        pool_for_turn(4, locked_by_downed=3)
    with pytest.raises(ScenarioError):
        gather_pool(paragon_dice=3)


# -- Step A: the Strategy Roll ------------------------------------------------------------------------------------

def test_on_point_cannot_lock():
    st = state_with(["enhanced", "move_2"], on_point=True)
    with pytest.raises(RuleViolation, match="On Point") as e:
        lock_die(st, "S1")
    assert e.value.section == str(S.STRATEGY_ROLL)


def test_lock_rules():
    st = state_with(["enhanced", "move_2", "core"])
    locked, steps = lock_die(st, "S1")
    assert locked.locked == "S1" and steps[0].rule == S.STRATEGY_ROLL
    with pytest.raises(RuleViolation, match="single die"):
        lock_die(locked, "S2")
    with pytest.raises(RuleViolation, match="no die"):
        lock_die(st, "S9")
    rolled, _ = roll_pool(st, scripted("move_2", "move_2", "move_2"))
    with pytest.raises(RuleViolation, match="before the Pool is rolled"):
        lock_die(rolled, "S1")
    with pytest.raises(RuleViolation, match="cannot show the Core Ability icon"):
        lock_die(st, "S3")
    with pytest.raises(RuleViolation, match="no result"):
        lock_die(state_with([None, "move_2"]), "S1")


def test_locked_die_keeps_its_face_and_is_not_rolled():
    st, _ = lock_die(state_with(["enhanced", "move_2", "standard"]), "S1")
    roller = scripted("move_3", "move_3")
    st, steps = roll_pool(st, roller)
    assert roller.remaining == 0 and st.faces() == (Face.ENHANCED, Face.MOVE_3, Face.MOVE_3)
    assert steps[0].marks == ("S2", "S3")


def test_locked_icon_under_triggers_reading():
    r = rulings({"locked_die_icon": "triggers_and_rerolls"})
    st, _ = lock_die(state_with(["core", "move_2"]), "S1", r)
    st, _ = roll_pool(st, scripted("standard"))
    st, steps = trigger_core_ability(st, r)
    assert st.triggers == 1 and steps[0].marks == ("S1",)
    st, _ = reroll_icons(st, scripted("enhanced"))
    assert st.locked is None and st.faces() == (Face.ENHANCED, Face.STANDARD)
    assert r.consulted["locked_die_icon"] == "triggers_and_rerolls"


def test_trigger_then_reroll_order_enforced():
    st, _ = roll_pool(state_with([None, None]), scripted("core", "move_2"))
    with pytest.raises(RuleViolation, match="after they trigger"):
        reroll_icons(st, scripted("move_2"))
    st, steps = trigger_core_ability(st)
    assert len(steps) == 1 and steps[0].rule == S.CORE_ABILITIES and steps[0].facts["trigger"] == 1
    with pytest.raises(RuleViolation):
        trigger_core_ability(st)
    with pytest.raises(RuleViolation, match="rolled once"):
        roll_pool(st, scripted("move_2"))


def test_reroll_loop_counts_every_icon():
    # round 1: 2 icons; round 2: both icons again; round 3: 1 icon; round 4: none -> 5 triggers, 4 rounds
    roller = scripted("core", "core", "move_2", "core", "core", "core", "standard", "enhanced")
    st, steps = strategy_roll(state_with([None] * 3, squadmate="Liara"), roller)
    assert roller.remaining == 0
    assert st.triggers == 5 and st.icons_per_round == (2, 2, 1, 0) and st.roll_round == 4
    assert not icons_showing(st)
    assert st.faces() == (Face.ENHANCED, Face.STANDARD, Face.MOVE_2)  # S1 was the last icon
    triggers = [s for s in steps if "trigger" in s.facts]
    assert [s.facts["trigger"] for s in triggers] == [1, 2, 3, 4, 5]
    assert all(s.rule == S.COMMENTARY_LIARA for s in triggers)  # Liara: Analysis token moves per icon
    assert steps[-1].title.startswith("No icon showing")
    assert [s.rule for s in steps if s.title.startswith("Re-roll")] == [S.CORE_ABILITIES] * 3


def test_fixed_rounds_then_seeded_and_overflow():
    st, steps = strategy_roll(state_with([None] * 4), SeededRoller(1), [["enhanced", "enhanced", "?", "?"]])
    assert st.faces()[:2] == (Face.ENHANCED, Face.ENHANCED)
    assert "Rolled from the seed ('?' given): S3, S4." in steps[0].detail
    with pytest.raises(ScenarioError, match=r"2 fixed faces for the 4 dice rolled .*exactly 4 faces") as e:
        strategy_roll(state_with([None] * 4), SeededRoller(1), [["enhanced", "enhanced"]])
    assert e.value.field == "rolls[0]"
    with pytest.raises(ScenarioError) as too_many:
        strategy_roll(state_with([None] * 4), SeededRoller(1), [["enhanced"] * 5])
    # too many and too few fixed faces are the same check: one "allowed" text for both
    assert too_many.value.allowed == e.value.allowed == "exactly 4 faces, one per die in Pool order ('?' leaves a " \
        "die to the seed)"
    with pytest.raises(ScenarioError, match=r"rolls\[1\]"):
        strategy_roll(state_with([None] * 2), scripted(), [["core", "move_2"], ["move_2", "move_3"]])
    with pytest.raises(ScenarioError, match="rounds of fixed dice"):
        strategy_roll(state_with([None] * 2), scripted(), [["move_3", "move_2"], ["move_2"]])


def test_a_fully_fixed_roll_needs_a_list_for_every_reroll():
    """Issue 19 hardening: a roll that fixes every face so far never falls back on the seed for a re-roll it did not
    give; once a list left dice to the seed ('?'), an unforeseen re-roll is seeded and its step names every die."""
    with pytest.raises(ScenarioError, match=r"roll round 2 has no list .*a list rolls\[1\] of 1 face") as e:
        strategy_roll(state_with([None] * 2), scripted(), [["core", "move_2"]])
    assert e.value.field == "rolls[1]"
    st, steps = strategy_roll(state_with([None] * 2), scripted("move_2", "standard"), [["core", "?"]])
    reroll = next(s for s in steps if s.title.startswith("Re-roll"))
    assert "Rolled from the seed ('?' given): S1." in reroll.detail
    assert st.faces() == (Face.STANDARD, Face.MOVE_2)


# -- Renegade tokens and Paragon dice -------------------------------------------------------------------------------

def test_renegade_before_trigger_prevents_it():
    st = state_with([None, None], tokens=1)
    st, steps = strategy_roll(st, scripted("core", "move_2"), renegade=[RenegadeUse("S1", Face.ENHANCED)])
    assert st.triggers == 0 and st.renegade_tokens == 0 and st.faces() == (Face.ENHANCED, Face.MOVE_2)
    assert any(s.rule == S.RENEGADE_TOKENS for s in steps)


def test_renegade_to_icon_triggers_and_rerolls():
    st = state_with([None], tokens=1)
    st, _ = strategy_roll(st, scripted("move_2", "standard"), renegade=[RenegadeUse("S1", Face.CORE)])
    assert st.triggers == 1 and st.faces() == (Face.STANDARD,)
    with pytest.raises(RuleViolation, match="action_faces_only"):
        strategy_roll(state_with([None], tokens=1), scripted("move_2"), renegade=[RenegadeUse("S1", Face.CORE)],
                      rulings=rulings({"renegade_to_icon": "action_faces_only"}))


def test_renegade_timing_and_limits():
    st, _ = roll_pool(state_with([None, None], tokens=2), scripted("core", "core"))
    with pytest.raises(RuleViolation, match="no Renegade token"):
        use_renegade_token(state_with([None]), "S1", "enhanced")
    with pytest.raises(RuleViolation, match="after the Strategy Pool is rolled"):
        use_renegade_token(state_with([None], tokens=1), "S1", "enhanced")
    st1, _ = use_renegade_token(st, "S1", "enhanced")
    st2, _ = use_renegade_token(st1, "S2", "enhanced")  # default renegade_uses = several
    assert st2.renegade_tokens == 0 and st2.renegade_used == 2
    with pytest.raises(RuleViolation, match="one_per_turn"):
        use_renegade_token(st1, "S2", "enhanced", rulings({"renegade_uses": "one_per_turn"}))
    trig, _ = trigger_core_ability(st)
    with pytest.raises(RuleViolation, match="before the Core Ability triggers"):
        use_renegade_token(trig, "S1", "enhanced")
    again, _ = reroll_icons(trig, scripted("core", "move_2"))
    with pytest.raises(RuleViolation, match="first_roll"):
        use_renegade_token(again, "S1", "enhanced")
    ok, _ = use_renegade_token(again, "S1", "enhanced", rulings({"renegade_timing": "any_roll"}))
    assert ok.faces() == (Face.ENHANCED, Face.MOVE_2)


def test_paragon_icon_readings():
    def run(reading):
        st = state_with([None], paragon=[None])
        return strategy_roll(st, scripted("core", "core", "move_2", "move_3"),
                             rulings=rulings({"paragon_core_icon": reading}))[0]
    assert run("like_strategy_die").triggers == 2
    st = run("rerolled_without_trigger")
    assert st.triggers == 1 and not icons_showing(st) and st.icons_per_round == (2, 0)


# -- Step B: Actions, the three-dice rule ----------------------------------------------------------------------------

def _rolled(faces, paragon=()):
    st = state_with([None] * len(faces), paragon=[None] * len(paragon))
    return strategy_roll(st, scripted(*faces, *paragon))[0]


def test_three_dice_rule_and_paragon_on_top():
    act = begin_actions(_rolled(["move_2", "standard", "enhanced", "move_3"], paragon=["enhanced"]))
    act, _ = allocate_die(act, "S1", "move")
    act, _ = allocate_die(act, "S2", "standard", resolve=False)
    with pytest.raises(RuleViolation, match="must take 3"):
        end_actions(act)
    with pytest.raises(RuleViolation, match="cannot take"):
        allocate_die(act, "S4", "enhanced")
    act, _ = allocate_die(act, "S3", "enhanced")
    with pytest.raises(RuleViolation, match="fourth die"):
        allocate_die(act, "S4", "move")
    act, steps = allocate_die(act, "P1", "enhanced")
    assert steps[0].rule == S.PARAGON_DICE
    act, steps = end_actions(act)
    assert [d.id for d in act.pool] == ["S4"] and steps[0].facts["pool_left"] == ["S4"]
    with pytest.raises(RuleViolation, match="not in the Strategy Pool"):
        allocate_die(act, "S1", "move")


def test_paragon_counts_toward_three_reading():
    any_die = rulings({"paragon_counts_toward_three": "any_die"})
    act = begin_actions(_rolled(["move_2", "standard", "move_3"], paragon=["enhanced"]))
    act, _ = allocate_die(act, "S1", "move", rulings=any_die)
    act, _ = allocate_die(act, "S2", "standard", rulings=any_die)
    act, _ = allocate_die(act, "P1", "enhanced", rulings=any_die)
    end_actions(act, any_die)  # three dice, one a Paragon die: enough under any_die
    with pytest.raises(RuleViolation):
        end_actions(act)  # only two Strategy dice under extra_only
    with pytest.raises(RuleViolation, match="fourth"):
        allocate_die(act, "S3", "move", rulings=any_die)


def test_short_pool_takes_all():
    act = begin_actions(_rolled(["move_2", "standard"]))
    act, _ = allocate_die(act, "S1", "move")
    with pytest.raises(RuleViolation, match="must take 2"):
        end_actions(act)
    act, _ = allocate_die(act, "S2", "standard")
    act, steps = end_actions(act)
    assert "all that were left" in steps[0].detail


def test_actions_wait_for_the_roll():
    st, _ = roll_pool(state_with([None]), scripted("core"))
    with pytest.raises(RuleViolation, match="Strategy Roll is over"):
        begin_actions(st)


# -- scenarios ------------------------------------------------------------------------------------------------------

def test_diagram_5_lock_enhanced_roll_five():
    sc = load("me-diagram-5")
    assert sc.pool.turn == 3 and not sc.on_point
    tr = resolve_strategy(sc)
    o = tr.outcome
    assert o["pool_size"] == 6 and o["locked"] == "S2" and o["final"]["S2"] == "enhanced"
    first_roll = next(s for s in tr.steps if s.title.startswith("Roll "))
    assert len(first_roll.facts["rolled"]) == 5 and "S2" not in first_roll.facts["rolled"]
    assert o["triggers"] == 1 and o["icons_per_round"] == [1, 0] and "core" not in o["final"].values()
    assert o["odds"]["rolled"] == 5 and o["odds"]["p_at_least_one_enhanced"]["exact"] == "1"
    json.dumps(tr.to_dict())


def test_builtin_reroll_loop_scenario():
    tr = resolve_strategy(load("me-strategy-reroll-loop"))
    o = tr.outcome
    assert o["on_point"] and o["triggers"] == 4 and o["analysis_moves"] == 4 and o["icons_per_round"] == [3, 1, 0]
    assert len(o["pool_left"]) == 9 and o["taken"] == {"S6": "move", "S3": "standard", "S2": "move"}
    assert any(s.rule == S.ON_POINT for s in tr.steps)


def test_builtin_paragon_scenario():
    tr = resolve_strategy(load("me-strategy-paragon"))
    o = tr.outcome
    assert o["renegade_used"] == 1 and o["triggers"] == 1 and o["final"]["S4"] == "enhanced"
    assert o["taken"]["P1"] == "enhanced" and len(o["taken"]) == 4 and len(o["pool_left"]) == 6
    assert tr.rulings["paragon_core_icon"] == "like_strategy_die"
    alt = resolve_strategy(load("me-strategy-paragon"), {"paragon_core_icon": "rerolled_without_trigger"})
    assert alt.outcome["triggers"] == 0 and alt.rulings["paragon_core_icon"] == "rerolled_without_trigger"


def test_builtin_downed_scenario_is_seeded():
    a, b = (resolve_strategy(load("me-strategy-downed")) for _ in range(2))
    assert a.outcome == b.outcome and a.outcome["pool_size"] == 3
    assert any(s.rule == S.DOWNED_SQUADMATES for s in a.steps)
    c = resolve_strategy(load("me-strategy-downed"), seed=7)
    assert "core" not in c.outcome["final"].values()


BASE = {"game": "masseffect", "kind": "strategy", "squadmate": {"name": "Tali"}}


@pytest.mark.parametrize("patch, field, allowed", [
    ({"squadmate": {"name": "Kaidan"}}, "squadmate.name", "Shepard"),
    ({"pool": {"turn": 1, "showing": ["enhanced"] * 12, "lock": "S1"}}, "pool.lock", "no lock on turn 1"),
    ({"pool": {"turn": 3, "showing": ["enhanced"] * 5, "lock": "S1"}}, "pool.showing", "exactly 6"),
    ({"pool": {"turn": 3, "lock": "S1"}}, "pool.showing", "6 faces"),
    ({"pool": {"turn": 3, "showing": ["enhanced"] * 6, "lock": "S7"}}, "pool.lock", "S6"),
    ({"pool": {"turn": 2, "showing": ["enhanced", "bogus"] + ["move_2"] * 7}}, "pool.showing[1]", "move_2"),
    ({"pool": {"turn": 5}}, "pool.turn", "1 to 4"),
    ({"pool": {"turn": 4, "locked_by_downed": 3}}, "pool.turn", "at least one die"),
    ({"rolls": [["move_2"] * 13]}, "rolls[0]", "exactly 12 faces"),
    ({"rolls": [["move_2"] * 11]}, "rolls[0]", "exactly 12 faces"),
    ({"renegade": [{"die": "S1", "face": "enhanced"}]}, "renegade", "at most 0"),
    ({"allocate": [{"die": "S13", "space": "move"}]}, "allocate[0].die", "S12"),
    ({"rulings": {"nope": "x"}}, "rulings.nope", "locked_die_icon"),
    ({"pool": {"turn": 4, "showing": ["?", "enhanced", "?"], "lock": "S1"}}, "pool.showing[0]", "enhanced"),
    ({"extra": 1}, "extra", "squadmate"),
])
def test_parse_errors_name_field_and_allowed(patch, field, allowed):
    with pytest.raises(ScenarioError) as e:
        parse_strategy(BASE | patch, "bad.toml")
    assert e.value.field == field and allowed in (e.value.allowed or ""), str(e.value)
    assert str(e.value).startswith("bad.toml: ")


def test_rulings_argument_overrides_scenario():
    data = BASE | {"rulings": {"renegade_to_icon": "action_faces_only"}, "squadmate": {"name": "Tali",
                                                                                        "renegade_tokens": 1},
                   "rolls": [["move_2"] * 12, ["move_3"]], "renegade": [{"die": "S1", "face": "core"}]}
    sc = parse_strategy(data, "x")
    with pytest.raises(RuleViolation, match="action_faces_only"):
        resolve_strategy(sc)
    tr = resolve_strategy(sc, {"renegade_to_icon": "allowed"})
    assert tr.outcome["triggers"] == 1 and tr.outcome["final"]["S1"] == "move_3"


def test_unknown_faces_are_left_to_the_seed():
    data = BASE | {"seed": 3, "pool": {"turn": 4, "showing": ["?", "enhanced", "?"], "lock": "S2"},
                   "rolls": [["?", "move_3"]]}
    tr = resolve_strategy(parse_strategy(data, "x"))
    assert tr.outcome["final"]["S2"] == "enhanced" and tr.outcome["final"]["S3"] == "move_3"
    assert tr.outcome == resolve_strategy(parse_strategy(data, "x")).outcome


GOLDEN = __import__("pathlib").Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", ["me-diagram-5", "me-strategy-reroll-loop", "me-strategy-paragon"])
def test_golden_traces(name):
    """The cited trace of each dice-fixed built-in scenario, as text (regenerate deliberately when the wording
    changes: run once with UPDATE_GOLDEN=1 and review the diff)."""
    import os

    text = resolve_strategy(load(name)).to_text() + "\n"
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


# -- session 14: a refusal of the file's Lock or allocation names its field and what it could be --------------------

STRATEGY_BUILTINS = ["me-diagram-5", "me-strategy-downed", "me-strategy-paragon", "me-strategy-reroll-loop"]


def _refused(data) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        resolve_strategy(parse_strategy(data, "bad.toml"))
    assert "\n" not in str(e.value)
    return e.value


@pytest.mark.parametrize("name", STRATEGY_BUILTINS)
def test_an_allocation_the_rules_refuse_names_allocate_i_die_and_the_dice_allowed(name):
    """A die allocated twice, or to a space that does not take its face: the refusal named only the rule ("S1 is
    not in the Strategy Pool [Step B: Actions]"), not the file's field nor the dice it could take."""
    import copy

    base = read_toml(name, text=(SCEN / f"{name}.toml").read_text(encoding="utf-8"))
    if not base.get("allocate"):
        pytest.skip("allocates no die")
    n = len(base["allocate"])
    d = copy.deepcopy(base)
    d["allocate"].append(dict(d["allocate"][0]))
    e = _refused(d)
    assert e.field == f"allocate[{n}].die" and "allowed: " in str(e) and "see Mass Effect:" in str(e), str(e)
    tr = resolve_strategy(parse_strategy(base, name))
    faces = dict(tr.outcome["final"])
    for i, a in enumerate(base["allocate"]):
        wrong = next((s for s in Space if not accepts(s, faces[a["die"]])), None)
        if wrong is None:
            continue
        d = copy.deepcopy(base)
        d["allocate"][i]["space"] = wrong.value
        e = _refused(d)
        assert e.field == f"allocate[{i}].die" and "cannot take" in str(e) and "allowed: " in str(e), str(e)
        break


def test_a_lock_the_rules_refuse_names_pool_lock():
    import copy

    d = copy.deepcopy(read_toml("p", text=(SCEN / "me-strategy-paragon.toml").read_text(encoding="utf-8")))
    d["pool"]["showing"][0] = "core"   # the Locked S1 shows the icon: cannot exist at the end of a turn (default)
    e = _refused(d)
    assert e.field == "pool.lock" and "cannot show the Core Ability icon" in str(e) and "allowed: one of" in str(e)
