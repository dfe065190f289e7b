"""Ruling ``movement_activity`` (issue 21): may an agent's turn list several ``move`` entries? Under ``once`` (the
default) a second Movement activity is refused, except where the book says the movement goes on (a Seize, 7.3;
equipping the Power Suit, 9.5.1); under ``split`` every ``move`` of the turn is paid from one allowance, each card's
and the Power Suit's bonus joining it once."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import RuleViolation
from explorer.games import get_game
from explorer.games.galaxydefenders.options import ALL_OPTIONS

from .test_round_map import doc, run

ATTACK = {"kind": "action", "what": "attack"}


def two_moves(a, b, *, between=ATTACK, first_use=None, second_use=None, cards=()):
    """The Marine (movement 4) walks to ``a``, does ``between``, then walks to ``b``."""
    m1 = {"kind": "move", "to": a} | ({"use": first_use} if first_use else {})
    m2 = {"kind": "move", "to": b} | ({"use": second_use} if second_use else {})
    return doc(agents=[{"name": "Marine", "at": "0,0", "cards": list(cards)}],
               turns=[{"agent": "Marine", "activities": [m1, between, m2]}])


def walks(t):
    return [s for s in t.steps if " walks " in s.title]


def test_the_option_is_declared_with_both_readings_and_once_by_default():
    o = next(o for o in ALL_OPTIONS if o.key == "movement_activity")
    assert set(o.readings) == {"once", "split"} and o.default == "once"
    assert "6.2.1" in o.section and "9.2.2" in o.section


def test_once_refuses_a_second_movement_activity_in_one_line_naming_the_entry():
    with pytest.raises(RuleViolation) as e:
        run(two_moves("2,0", "3,0"))
    msg = str(e.value)
    assert "\n" not in msg
    assert "turns[0].activities[2]" in msg and "6.2.1 Agent Turn" in msg
    assert "already used its Movement activity this turn (activities[0])" in msg and "movement_activity" in msg


def test_split_pays_two_walks_from_one_allowance():
    t = run(two_moves("2,0", "3,0"), movement_activity="split")
    w1, w2 = walks(t)
    assert w1.title == "Marine walks 0,0 → 2,0: 2 Hexes, 2 of 4 movement points"      # the first walk as before
    assert w2.title == "Marine walks 2,0 → 3,0: 1 Hex, 1 movement point; 1 of 4 movement points left"
    assert w2.facts["left"] == 1
    assert str(dict(t.result.positions)["Marine"]) == "3,0"
    assert t.rulings.get("movement_activity") == "split"


def test_split_refuses_a_second_walk_past_what_is_left():
    with pytest.raises(RuleViolation) as e:
        run(two_moves("2,0", "5,0"), movement_activity="split")          # 2 + 3 > 4
    msg = str(e.value)
    assert "turns[0].activities[2].to" in msg and "6.2 Battle Phase" in msg
    assert "needs 3 movement points" in msg and "it has 2 of 4 movement points left this turn" in msg


def test_split_adds_a_movement_cards_bonus_once_per_turn():
    d = two_moves("3,0", "6,0", first_use="sprint", cards=["sprint"])    # 4 + 2 (Sprint) = 6: 3 + 3
    w2 = walks(run(d, movement_activity="split"))[1]
    assert w2.title.endswith("0 of 6 movement points left") and "+2 Sprint (stand-in)" in w2.detail
    with pytest.raises(RuleViolation):                                    # no second +2 on the next walk
        run(two_moves("3,0", "7,0", first_use="sprint", cards=["sprint"]), movement_activity="split")


def test_a_seize_or_equipping_the_suit_continues_the_one_movement_under_once():
    d = two_moves("2,0", "4,0", between={"kind": "action", "suit": "equip"})
    d["power_suit"] = {"batteries": 2, "suit_model": "mark_i", "at": "2,0", "recall": False}
    t = run(d)                                                          # default: once; 9.5.1 does not interrupt
    w2 = walks(t)[1]
    assert w2.title == "Marine walks 2,0 → 4,0: 2 Hexes, 2 movement points; 2 of 6 movement points left"
    assert "movement_activity" not in t.rulings                          # the book decides it, not the ruling


def test_free_actions_that_move_are_not_movement_activities():
    d = doc(agents=[{"name": "Marine", "at": "0,0", "cards": ["sprint"]}],
            turns=[{"agent": "Marine", "activities": [{"kind": "move", "to": "4,0"},
                                                        {"kind": "free_action", "what": "Tactic"}]}])
    assert walks(run(d))[0].title.endswith("4 of 4 movement points")


def test_the_built_ins_with_two_moves_play_under_the_default():
    g = get_game("galaxydefenders")
    for name in ("gd-round-seize", "gd-round-power-suit"):
        t = g.resolve(g.load_builtin(name))
        assert "movement_activity" not in t.rulings


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 8), min_size=1, max_size=4))
def test_split_walks_in_a_turn_never_exceed_the_allowance(goals):
    """Whatever hexes of the corridor the moves aim for, the walks that are played cost at most 4 in all."""
    acts = []
    for g in goals:
        acts += [{"kind": "move", "to": f"{g},0"}, {"kind": "free_action", "what": "look"}]
    d = doc(agents=[{"name": "Marine", "at": "0,0"}], aliens=[], turns=[{"agent": "Marine", "activities": acts}])
    try:
        t = run(d, movement_activity="split")
    except RuleViolation as e:
        assert "movement points" in str(e) or "occupied" in str(e) or "no legal" in str(e)
        return
    spent = sum(s.facts["points"] for s in walks(t))
    assert spent <= 4
    assert spent == sum(abs(b - a) for a, b in zip([0, *goals], goals))


def test_explorer_rulings_lists_the_option(capsys):
    from explorer.cli import main

    assert main(["rulings", "--game", "galaxydefenders"]) == 0
    out = capsys.readouterr().out
    assert "movement_activity:" in out and "* once" in out.split("movement_activity:")[1].split("\n\n")[0]
    assert main(["rulings", "--game", "galaxydefenders", "--json"]) == 0
    import json

    o = next(d for d in json.loads(capsys.readouterr().out) if d["key"] == "movement_activity")
    assert o["default"] == "once" and set(o["readings"]) == {"once", "split"}
