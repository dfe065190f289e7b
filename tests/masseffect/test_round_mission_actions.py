"""Issue 19: Mission Actions (Basic Actions › Mission: a die goes there only when a rule of the Mission Rules page
allows it; The Mission Book › Mission Rules Page: Progress Boxes). Built-in me-round-mission-actions."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import ROUND_SEQUENCE, parse_round, resolve_round, round_start
from explorer.kernel import play
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data():
    return read_toml(SCENARIOS / "me-round-mission-actions.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def test_golden_trace():
    check_golden(GOLDEN, "me-round-mission-actions", trace_text(resolve(data())))


def test_progress_boxes_then_the_objectives_then_the_paragon_victory():
    t = resolve(data())
    o = t.result
    marks = [(s.facts["mission_action"], s.facts["progress"], s.section) for s in t.steps
             if s.rule == S.MISSION_RULES_PAGE]
    assert marks == [("Hack the terminal", 1, "Turn 1: Shepard"), ("Hack the terminal", 2, "Turn 2: Liara"),
                     ("Evacuate", 1, "Turn 3: Garrus")]
    assert o.completed == ("Open the lab", "Evacuate the scientists") and o.ending == "Paragon Victory"
    st, ctx = round_start(parse_round(data(), "x.toml"))
    by = {f.name: f.state for f in play(st, ROUND_SEQUENCE, ctx)}
    assert by["Turn 1"].progress == (("Hack the terminal", 1),) and by["Turn 1"].completed == ()
    assert by["Turn 2"].completed == ("Open the lab",)


def test_one_box_does_not_complete_a_two_box_rule():
    d = data()
    d["turns"] = d["turns"][:1]
    t = resolve(d)
    assert t.result.completed == () and t.result.ending is None


@pytest.mark.parametrize("patch,field,why", [
    # no rule named: the book allows a die on Mission only under a Mission Rules page rule
    (lambda d: d["turns"][0]["actions"][0].pop("mission"), "turns[0].actions[0].mission", "only when a rule"),
    # Shepard 2 hexes from the Terminal
    (lambda d: d["squadmates"][0].update(position="-1,0"), "turns[0].actions[0].mission", "needs Shepard in or adj"),
    # Garrus evacuates before the lab is open: the Preliminary Objective first
    (lambda d: d["turns"].pop(1), "turns[1].actions[1].mission", "mission_actions[1].completes names it"),
])
def test_refusals_name_the_field_and_cite_the_rule(patch, field, why):
    d = data()
    patch(d)
    t = resolve(d)
    last = t.steps[-1]
    assert last.title.startswith("Not allowed") and last.facts["field"] == field and why in last.title


def test_every_box_marked_allows_no_further_die():
    d = data()
    d["mission_actions"][0]["progress"] = 1
    d["objectives"][1].pop("after")
    d["turns"] = d["turns"][:2]
    t = resolve(d)
    assert "every Progress Box of 'Hack the terminal' is marked already (1/1)" in t.result.rejected


@pytest.mark.parametrize("patch,field", [
    (lambda d: d["turns"][0]["actions"][0].update(mission="Fly"), "turns[0].actions[0].mission"),
    (lambda d: d["turns"][0]["actions"][0].update(completes="Open the lab"), "turns[0].actions[0].completes"),
    (lambda d: d["turns"][0]["actions"][0].update(box="Move"), "turns[0].actions[0].mission"),
    (lambda d: d["mission_actions"][0].update(icon="refugee"), "mission_actions[0].icon"),
    (lambda d: d["mission_actions"][1].update(hexes=["9,9"]), "mission_actions[1].hexes[0]"),
    (lambda d: d["mission_actions"][1].update(completes="Nope"), "mission_actions[1].completes"),
    (lambda d: d["mission_actions"][1].update(progress=7), "mission_actions[1].progress"),
])
def test_file_errors_name_the_field(patch, field):
    d = data()
    patch(d)
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert field in str(e.value)
