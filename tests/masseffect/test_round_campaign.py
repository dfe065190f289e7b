"""Issue 19 (session 9), items 1 and 2: Paragon and Renegade inside a Round, and Downed Squadmates' turns.

The rulebook keeps no Paragon or Renegade points: the players' choice is which Mission Objective to complete
(Mission Objectives › Paragon and Renegade Paths: mutually exclusive), and the reward is campaign-long (Additional
Rules › Paragon Dice and Renegade Tokens: a Paragon Victory adds a Paragon die to each later Mission's Pool; a
Renegade Victory one more Renegade token per Squadmate at the start of each later Mission). A round file that tracks
the campaign (``paragon_dice`` or ``renegade_victories``) is told what the next Mission starts with. Downed
(Squadmate Sheets › Downed Squadmates; Preparation Phase; Attacking › Squadmate Damage): no Hazard card is drawn for a
Downed Squadmate, it takes no Strategy Roll and no Actions (a file declaring them is refused naming the field), the
dice on its sheet are set aside, and a Paragon die on it comes back next Round (tests/masseffect/test_round_paragon).
Built-in me-round-renegade-victory, golden trace tests/masseffect/golden/me-round-renegade-victory.txt."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import parse_round, play_round, resolve_round
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data(name="me-round-renegade-victory"):
    return read_toml(SCENARIOS / f"{name}.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def test_golden_trace():
    check_golden(GOLDEN, "me-round-renegade-victory", trace_text(resolve(data())))


def test_a_renegade_victory_gives_each_squadmate_one_more_token_next_mission():
    t = resolve(data())
    reward = [s for s in t.steps if s.rule == S.RENEGADE_TOKENS]
    assert [s.title for s in reward] == ["Renegade tokens held: Shepard 1, Liara 1",
                                         "Renegade Victory: at the start of each later Mission each Squadmate "
                                         "receives 2 Renegade tokens"]
    assert t.result.ending == "Renegade Victory"
    assert t.result.to_json()["next_mission"] == {"paragon_dice": 1, "renegade_victories": 2}


def test_a_paragon_victory_adds_a_paragon_die_and_ends_the_renegade_path():
    d = data("me-round-objectives")
    d["paragon_dice"] = 0                               # given, so the file tracks the campaign
    t = resolve(d)
    reward = [s for s in t.steps if s.rule == S.PARAGON_DICE and "Victory" in s.title]
    assert [s.title for s in reward] == ["Paragon Victory: the squad gains a Paragon die: each later Mission's "
                                         "Strategy Pool holds 1 Paragon die"]
    assert "mutually exclusive" in reward[0].detail
    assert t.result.to_json()["next_mission"] == {"paragon_dice": 1, "renegade_victories": 0}


def test_without_campaign_fields_the_round_says_nothing_of_the_next_mission():
    t = resolve(data("me-round-objectives"))
    assert t.result.ending == "Paragon Victory"
    assert not [s for s in t.steps if "later Mission" in s.title]
    assert "next_mission" not in t.result.to_json()


def test_the_box_bounds_the_campaign_counts():
    d = data("me-round-objectives")
    d["paragon_dice"] = 2
    t = resolve(d)
    assert t.result.to_json()["next_mission"]["paragon_dice"] == 2
    assert any("no further die" in s.title for s in t.steps)
    d = data()
    d["renegade_victories"] = 4                         # two Squadmates: 4 each is the eight tokens of the box
    t = resolve(d)
    assert t.result.to_json()["next_mission"]["renegade_victories"] == 4
    assert any("no further one each" in s.title for s in t.steps)


# --- Downed Squadmates ----------------------------------------------------------------------------------------------


def test_a_downed_squadmate_declaring_actions_is_refused_naming_the_field():
    d = data("me-round-1")
    d["turns"].append({"squadmate": "Tali", "actions": [{"box": "Move", "die": "move_2", "path": ["-2,2", "-2,1"]}]})
    t = resolve(d)
    st_ = next(s for s in t.steps if s.title.startswith("Not allowed"))
    assert st_.rule == S.DOWNED_SQUADMATES and "(turns[3].actions[0])" in st_.title
    assert "Tali is Downed" in st_.title and st_.section == "Turn 4: Tali"


def test_a_downed_squadmate_without_a_declared_turn_just_sits_it_out():
    t = resolve(data("me-round-1"))
    assert t.result.rejected is None
    tali = [s for s in t.steps if s.section == "Turn 4: Tali"]
    assert [s.rule for s in tali] == [S.DOWNED_SQUADMATES]


def test_dice_on_a_sheet_are_set_aside_when_its_squadmate_is_downed():
    d = data("me-round-1")
    d["enemies"].append({"name": "Brute", "type": "Brute", "attack_value": 20, "shield_value": 9,
                         "position": "2,0"})             # next to Garrus' end hex after his Move
    d["hazard_deck"][1]["instructions"][0]["types"] = ["Brute"]
    frames, t = play_round(parse_round(d, "x.toml"))
    assert any(s.title == "Garrus is Downed" for s in t.steps), [s.title for s in t.steps][-20:]
    after = next(f.state for f in frames if f.name.startswith("Step B: Actions over") and f.name.endswith("Turn 2"))
    final_turn = [f for f in frames if f.name.endswith("· Turn 2")][-1].state
    assert [u for u in after.used if u[0] == "Garrus"]             # on his sheet before his Hazard card ...
    assert not [u for u in final_turn.used if u[0] == "Garrus"]     # ... set aside with the sheet flipped
    assert [u for u in final_turn.used if u[0] == "Shepard"]        # Shepard's stay on his sheet
    assert any(f.name.startswith("Step C: Brute Activates") for f in frames)   # the turn is still split in pieces


@settings(max_examples=15, deadline=None)
@given(downed=st.sets(st.sampled_from(["Garrus", "Liara", "Tali"])))
def test_the_preparation_phase_deals_one_card_to_each_squadmate_not_downed(downed):
    """Property (Preparation Phase): in On Point order, a Hazard card for each Squadmate not Downed, none for a
    Downed one; the deck loses exactly that many cards."""
    d = data("me-round-1")
    for s in d["squadmates"]:
        s["downed"] = s["name"] in downed
    d["turns"] = [t for t in d["turns"] if t["squadmate"] not in downed]
    d["hazard_deck"] = d["hazard_deck"] + [{"name": f"Spare {k}", "instructions": [{"do": "spawn", "at": "closest"}]}
                                           for k in range(2)]
    t = resolve(d)
    prep = [s for s in t.steps if s.section == "Preparation Phase" and s.rule == S.PREPARATION_PHASE]
    dealt = [s.facts["squadmate"] for s in prep if "card" in s.facts]
    assert dealt == [n for n in ["Shepard", "Garrus", "Liara", "Tali"] if n not in downed]
    assert sorted(s.title.split(" is Downed")[0] for s in prep if "no Hazard card" in s.title) == sorted(downed)


def test_the_renegade_tokens_held_at_the_start_are_the_first_step_and_on_the_sheets():
    """Newcomer report #11: the tokens each Squadmate holds (Setup G: one per Renegade Victory) are told in the first
    step of the Round and shown on every sheet from it on (1 each until the Victory)."""
    from explorer.games.masseffect.round import parse_round
    from explorer.games.masseffect.round_view import position_text, round_positions

    t = resolve(data())
    first = t.steps[0]
    assert first.title == "Renegade tokens held: Shepard 1, Liara 1" and first.rule == S.RENEGADE_TOKENS
    assert first.facts["renegade_tokens"] == {"Shepard": 1, "Liara": 1}
    pos = round_positions(parse_round(data(), "x.toml"))
    assert [q.renegade_tokens for q in pos[0].squadmates] == [1, 1]
    assert "1 Renegade token" in position_text(pos[0], 1, len(pos))
