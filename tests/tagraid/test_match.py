"""Initial Deployment (Game Sequence › Initial Deployment), Secured Slots (Miner Card › Additional Information) and
match files (``kind = "match"``: Initial Deployment then Rounds until victory, one replayable record)."""

import math
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game
from explorer.games.tagraid import sections as S
from explorer.games.tagraid.orders.deployment import contact_hexes, in_contact, touches
from explorer.games.tagraid.orders.match import play_match
from explorer.games.tagraid.orders.matchfile import parse_match, resolve_match

G = get_game("tagraid")
GOLDEN = Path(__file__).parent / "golden"


def _doc(name: str) -> dict:
    text = (resources.files("explorer.games.tagraid") / "scenarios" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _refusal(doc) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        resolve_match(parse_match(doc, "m.toml"))
    return e.value


@pytest.mark.parametrize("name", [s.name for s in G.scenarios() if s.kind == "match"])
def test_golden_match_traces(name):
    from explorer.games.tagraid.game import outcome_text

    t = G.resolve(G.load_builtin(name))
    check_golden(GOLDEN, name, trace_text(t) + "\n" + outcome_text(t) + "\n")
    assert all(s.rule.game == "TAG Raid" and s.rule.section for s in t.steps)


def test_builtins_of_the_brief_exist():
    names = set(G.builtin_names())
    assert {"tr-deploy-reroll", "tr-deploy-default", "tr-match-two-rounds", "tr-match-megabeast",
            "tr-secured-death"} <= names


# ------------------------------------------------------------------------------------------- Initial Deployment


def test_reroll_when_an_enemy_is_in_contact_and_timeline_order():
    t = G.resolve(G.load_builtin("tr-deploy-reroll"))
    o = t.result
    assert o.access_points == (("blue", 1), ("red", 3))
    red_roll = next(s for s in t.steps if s.title.startswith("red rolls"))
    assert red_roll.rule == S.INITIAL_DEPLOYMENT and red_roll.facts["rolls"] == [1, 3]
    assert "Blue TAG in contact" in red_roll.detail
    # blue deploys before red (Timeline order)
    sections = [s.section for s in t.steps]
    assert sections.index("06 Initial Deployment › blue") < sections.index("06 Initial Deployment › red")
    assert all(m.on_table for m in o.miners)


def test_face_naming_no_access_point_is_rolled_again_and_default_tag_placement():
    sc = G.load_builtin("tr-deploy-default")
    t = G.resolve(sc)
    assert t.result.access_points == (("red", 2), ("blue", 1))
    red = next(m for m in t.result.miners if m.id == "Red TAG")
    ap2 = dict(sc.table.geometry.access_points)[2]
    # in contact with the Access Point (its base touching the token, not over it: Game Sequence › Initial
    # Deployment; Silhouette Contact), on the side facing the middle of the board
    rm = next(m for m in sc.table.miners if m.id == "Red TAG")
    assert touches(sc.table, rm, *red.position, ap2)
    assert math.dist(red.position, (0.0, 0.0)) < math.dist(ap2, (0.0, 0.0))


def test_tag_placed_over_its_access_point_is_refused():
    """A TAG's declared placement with its base over the Access Point token (the former default, centre on it) is
    not in contact with it: refused naming its field and saying it is over the token."""
    doc = _doc("tr-deploy-default")
    sc = parse_match(doc, "m.toml")
    ap2 = dict(sc.table.geometry.access_points)[2]
    doc["miners"][1]["x"], doc["miners"][1]["y"] = ap2
    e = _refusal(doc)
    assert e.rejection.rule == S.INITIAL_DEPLOYMENT and "over the Access Point token" in e.rejection.reason


def test_tag_out_of_contact_is_refused_naming_its_field():
    doc = _doc("tr-deploy-reroll")
    doc["miners"][2]["y"] = 6.3
    e = _refusal(doc)
    assert e.rejection.field == "miners[2].x" and e.rejection.rule == S.INITIAL_DEPLOYMENT
    assert "Access Point 3" in str(e) and "\n" not in str(e) and "m.toml" in str(e)


def test_crew_outside_the_contact_hexagons_is_refused():
    doc = _doc("tr-deploy-reroll")
    doc["miners"][1]["hex"] = "3,-1"
    e = _refusal(doc)
    assert e.rejection.field == "miners[1].hex"
    assert "4,-2, 4,-1" in e.rejection.reason


def test_crew_partly_inside_is_enough():
    """Interaction with Areas: a base at least partly inside a Hexagon in contact counts."""
    doc = _doc("tr-deploy-reroll")
    del doc["miners"][1]["hex"]
    # hex 3,-1 centre is (4.33, -1.0); the edge it shares with 4,-1 runs from (5.196, -1.0) to (5.196, -2.0): a
    # base of radius 0.143 centred 0.1 outside that edge is partly inside 4,-1
    doc["miners"][1]["x"], doc["miners"][1]["y"] = 5.096, -1.5
    t = resolve_match(parse_match(doc, "m.toml"))
    assert ("blue", 1) in t.result.access_points
    doc["miners"][1]["x"] = 5.0  # now 0.196 outside: wholly in 3,-1
    assert _refusal(doc).rejection.field == "miners[1].x"


def test_crew_without_a_placement_is_refused():
    doc = _doc("tr-deploy-reroll")
    del doc["miners"][1]["hex"]
    e = _refusal(doc)
    assert e.rejection.field == "miners[1]" and "Prospecting Crew" in e.rejection.reason


def test_overlapping_bases_are_refused():
    doc = _doc("tr-deploy-reroll")
    doc["miners"][1].pop("hex")
    doc["miners"][1]["x"], doc["miners"][1]["y"] = 5.75, -2.2   # on the blue TAG's base
    e = _refusal(doc)
    assert e.rejection.field == "miners[1].x" and "cannot stand there" in e.rejection.reason


def test_file_errors_name_the_field():
    doc = _doc("tr-deploy-reroll")
    doc["initial_deployment"]["rolls"]["green"] = [1]
    with pytest.raises(ScenarioError) as e:
        parse_match(doc, "m.toml")
    assert e.value.field == "initial_deployment.rolls.green"
    doc = _doc("tr-deploy-reroll")
    doc["access_points"] = []
    with pytest.raises(ScenarioError) as e:
        parse_match(doc, "m.toml")
    assert e.value.field == "access_points"
    doc = _doc("tr-deploy-reroll")
    doc["initial_deployment"]["rolls"]["blue"] = [21]
    with pytest.raises(ScenarioError) as e:
        parse_match(doc, "m.toml")
    assert "initial_deployment.rolls.blue" in str(e.value)


def test_every_access_point_taken_is_refused():
    doc = _doc("tr-deploy-default")
    doc["access_points"] = doc["access_points"][:1]
    doc["initial_deployment"]["rolls"] = {}
    e = _refusal(doc)
    assert e.rejection.field == "initial_deployment.rolls.blue" and "taken" in e.rejection.reason


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_seeded_deployments_put_each_player_on_a_free_access_point(seed):
    """Whatever the dice: players take different Access Points, every TAG is in contact with its own, and no enemy
    Miner is in contact with it."""
    doc = _doc("tr-deploy-default")
    doc["initial_deployment"]["rolls"] = {}
    doc["seed"] = seed
    sc = parse_match(doc, "m.toml")
    frames = play_match(sc.table, sc.context)
    last = frames[-1].state
    aps = dict(sc.table.geometry.access_points)
    got = dict(last.deployment.access)
    assert len(set(got.values())) == 2
    for m in last.table.miners:
        ap = aps[got[m.side]]
        assert m.on_table and touches(last.table, m, m.x, m.y, ap)
        assert not any(in_contact(last.table, e, e.x, e.y, ap) for e in last.table.miners if e.side != m.side)


def test_contact_hexes_of_a_corner_access_point():
    sc = G.load_builtin("tr-deploy-reroll")
    hexes = contact_hexes(sc.table, dict(sc.table.geometry.access_points)[1])
    assert [f"{h.q},{h.r}" for h in hexes] == ["4,-2", "4,-1"]


# ------------------------------------------------------------------------------------------------------ matches


def test_match_plays_to_victory_and_time_travel_is_replay():
    sc = G.load_builtin("tr-match-two-rounds")
    t = G.resolve(sc)
    o = t.result
    assert o.over and o.winner == "blue" and o.rounds_played == 2 and o.orders_played == 4
    assert dict(o.units) == {"blue": 2, "red": 0}
    frames = play_match(sc.table, sc.context)
    assert [f.name for f in frames] == ["06 Initial Deployment › blue", "06 Initial Deployment › red", "Round 1",
                                        "Round 2"]
    early = play_match(sc.table, sc.context, upto=1)
    assert early == frames[:2]
    assert play_match(sc.table, sc.context) == frames  # replay gives equal states
    # Round 2 starts from the table Round 1 left, its Orders flipped
    start2 = frames[-1].state.round_starts[1]
    assert start2.round == 2 and start2.table.miner("Blue TAG").orders == 2


def test_a_round_after_the_end_of_the_match_is_refused():
    doc = _doc("tr-match-two-rounds")
    doc["rounds"].append({"orders": []})
    e = _refusal(doc)
    assert e.rejection.field == "rounds[2]" and e.rejection.rule == S.VICTORY_CONDITIONS
    assert "End of Round 2" in e.rejection.reason


def test_a_refusal_inside_a_round_names_the_round():
    doc = _doc("tr-match-two-rounds")
    doc["rounds"][1]["orders"].append({"active": "Red TAG"})
    doc["rounds"][1]["orders"].append({"active": "Blue TAG"})  # blue's Player Turn has passed
    e = _refusal(doc)
    assert e.rejection.field == "rounds[1].orders[2].active" and e.rejection.step.startswith("Round 2 › ")
    assert e.rejection.rule == S.PLAYERS_PHASE


def test_match_megabeast_on_the_table_is_a_file_error():
    doc = _doc("tr-match-two-rounds")
    doc["megabeast"] = {"id": "Stoorworm", "hex": "0,0", "wounds": 10,
                        "behavior": {"front": 8, "adjacent": 5, "opposite": 2}}
    with pytest.raises(ScenarioError) as e:
        parse_match(doc, "m.toml")
    assert e.value.field == "megabeast.hex"


def test_a_match_with_the_megabeast_plays_its_event_deployment_and_aros():
    """tr-match-megabeast (issue 22, item 6: every part of a Round inside a match): the Stoorworm waits off the table;
    Round 1's Event card is the first with its symbol, so red, last in the Timeline, deploys it in the hexagon
    without tile the file names, and the MegaBeast Event sets its Behavior; it then answers TAGs (never the
    Prospector) with its Behavior ARO, unopposed at its Threat Level, in both Rounds; the match ends on the last
    Event card. A deployment hexagon with a tile is refused naming the Round's field."""
    t = G.resolve(G.load_builtin("tr-match-megabeast"))
    titles = [(s.section, s.title) for s in t.steps]
    deploy = [i for i, (sec, ti) in enumerate(titles) if "deploys Stoorworm in hexagon -1,-1" in ti]
    event = [i for i, (sec, ti) in enumerate(titles) if sec.endswith("1.2 MegaBeast Event") and "emerges" in ti]
    assert len(deploy) == 1 and titles[deploy[0]][0].startswith("Round 1 › 1.1 Event") and event == [deploy[0] + 1]
    assert any("Behavior is now: Threat Levels 8/5/2" in ti for _, ti in titles)
    aros = [ti for sec, ti in titles if "declares its Behavior ARO (Spit)" in ti]
    assert [a.split(" against ")[1].split(";")[0] for a in aros] == ["Blue TAG", "Red TAG", "Blue TAG"]
    assert any("gains no ARO from Blue Prospector" in ti for _, ti in titles)
    assert any(sec.startswith("Round 2 › 1.2 MegaBeast Event") for sec, _ in titles)
    assert t.outcome["winner"] == "blue" and t.outcome["rounds_played"] == 2
    doc = _doc("tr-match-megabeast")
    doc["rounds"][0]["deployment"]["hex"] = "0,0"
    assert _refusal(doc).field == "rounds[0].deployment.hex"


def test_match_cli_prints_the_match(capsys):
    from explorer.cli import main

    assert main(["resolve", "tr-match-two-rounds"]) == 0
    out = capsys.readouterr().out
    assert "Outcome of the match:" in out and "## Round 2 › 3 End of the Round" in out


# ----------------------------------------------------------------------------------------------- Secured Slots


def test_secured_slot_card_is_kept_on_death():
    t = G.resolve(G.load_builtin("tr-secured-death"))
    o = t.result
    assert dict(o.tools)["Red TAG"] == ("Shield Projector",)
    zone = next(z for z in o.loot_zones if z.owner == "Red TAG")
    assert zone.cards == ("Mining Drill", "Scanner")
    kept = next(s for s in t.steps if s.rule == S.SECURED)
    assert kept.facts["slots"] == [2]


def test_without_secured_slots_every_card_goes_to_the_loot_zone():
    from explorer.games.tagraid.orders.orderfile import parse_order, resolve_order

    doc = _doc("tr-secured-death")
    doc["miners"][1]["secured_slots"] = []
    t = resolve_order(parse_order(doc, "o.toml"))
    assert not t.result.tools
    assert not any(s.rule == S.SECURED for s in t.steps)


@pytest.mark.parametrize("edit,field", [
    (lambda m: m.update(secured_slots=[4]), "miners[1].secured_slots[0]"),
    (lambda m: m.update(secured_slots=[2, 2]), "miners[1].secured_slots"),
    (lambda m: m["tools"][0].update(slot=2), "miners[1].tools[0].slot"),
    (lambda m: m["tools"][0].update(slot=4), "miners[1].tools[0].slot"),
])
def test_slot_errors_name_the_field(edit, field):
    from explorer.games.tagraid.orders.orderfile import parse_order

    doc = _doc("tr-secured-death")
    edit(doc["miners"][1])
    with pytest.raises(ScenarioError) as e:
        parse_order(doc, "o.toml")
    assert e.value.field == field and "\n" not in str(e.value)


def test_equip_takes_the_lowest_free_slot_and_cards_without_slot_fill_the_rest():
    from explorer.games.tagraid.orders.orderfile import parse_order

    doc = _doc("tr-secured-death")
    m = doc["miners"][1]
    m["tools"] = [{"name": "A", "slot": 3}, {"name": "B"}]
    red = parse_order(doc, "o.toml").initial.miner("Red TAG")
    assert red.slots_used == (3, 1) and red.free_slots() == (2,)
    assert red.secured_tools() == ()
    m["tools"] = [{"name": "A"}, {"name": "B"}]
    red = parse_order(doc, "o.toml").initial.miner("Red TAG")
    assert dict((n, t.name) for n, t in red.secured_tools()) == {2: "B"}


# ------------------------------------------------------------------------------------------------- Orders page


def test_the_orders_page_pages_through_a_match_with_time_travel():
    from explorer.games.tagraid.orders.sequence import STEPS
    from explorer.games.tagraid.orders_views import OrderStepper

    n = len(STEPS)
    w = OrderStepper("tr-match-two-rounds")
    assert "Round <b>1</b> of 2" in w.order_where.value and "06 Initial Deployment" in w.round_info.value
    assert w.round_back.disabled and not w.round_forward.disabled
    w.show_round(1)
    assert w.round_index == 1 and w.round.initial.round == 2
    # Round 2 starts from the table Round 1 left: red lost a Wound, blue holds 1 Teseum Unit
    assert w.initial.miner("Red TAG").wounds == 2 and w.initial.miner("Blue TAG").scoring_zone == 1
    w.go(-1)  # from Round 2's start back to the end of Round 1's last Order
    assert (w.round_index, w.order_index, w.position) == (0, 2, n)
    w.go(+1)  # and on again
    assert (w.round_index, w.order_index, w.position) == (1, 0, 0)
    # the link carries every Round's Orders, the Round, the Order and the step
    st = w.url_state()
    other = OrderStepper("tr-order-corner")
    other.load_url_state(st)
    assert (other.round_index, other.order_index, other.position) == (1, 0, 0)


def test_the_orders_page_pages_through_the_megabeast_match():
    """tr-match-megabeast on the Orders page: Round 1's summary shows the Event that deploys the Stoorworm, its
    Orders start with the Stoorworm on the table (deployed in -1,-1), the exact odds beside the dice include its
    Behavior ARO, and the link carries the match into another page."""
    from explorer.games.tagraid.orders_views import OrderStepper

    w = OrderStepper("tr-match-megabeast")
    assert "Round <b>1</b> of 2" in w.order_where.value
    assert "Tremor" in w.round_info.value and "Stoorworm" in w.round_info.value
    mb = w.initial.megabeast
    assert mb is not None and (round(mb.x, 3), round(mb.y, 3)) == (-2.598, -1.5)
    w.show(11)
    assert "Stoorworm" in w.odds.value
    w.show_round(1)
    assert w.round_index == 1 and w.initial.megabeast is not None
    other = OrderStepper("tr-order-corner")
    other.load_url_state(w.url_state())
    assert other.match is not None and other.round_index == 1


def test_an_edit_in_round_1_is_carried_into_round_2_and_the_download_plays_it():
    import tomllib

    from explorer.games.tagraid.orders.declarations import OrderDice
    from explorer.games.tagraid.orders_views import OrderStepper

    w = OrderStepper("tr-match-two-rounds")
    # Round 1, Order 1: the red TAG now passes all its Saving Rolls
    w.dice = OrderDice(rolls=w.dice.rolls, saves=(("Red TAG", (20, 20)),), seed=w.dice.seed)
    w.replay()
    w.show_round(1)
    assert w.initial.miner("Red TAG").wounds == 3
    doc = tomllib.loads(w.to_toml())
    assert doc["kind"] == "match" and doc["rounds"][0]["orders"][0]["dice"]["saves"] == {"Red TAG": [20, 20]}
    t = resolve_match(parse_match({k: v for k, v in doc.items() if k != "game"}, "page.toml"))
    assert dict(t.result.units) == {"blue": 1, "red": 0}


def test_the_odds_beside_the_dice_include_the_megabeast():
    from explorer.games.tagraid.orders_views import OrderStepper

    w = OrderStepper("book-oes-order")
    w.show(11)
    assert "Exact odds of this Order" in w.odds.value
    assert "Stoorworm&#x27;s Threat Level 5" in w.odds.value and "killed" in w.odds.value


def _container_doc(**interact):
    """tr-secured-death's table with a Tool Container next to the blue TAG (Slot 2 of its 3 Secured) and one Tool
    on the deck: the blue TAG Moves to it and draws."""
    doc = _doc("tr-secured-death")
    blue = doc["miners"][0]
    blue.update(tool_slots=3, secured_slots=[2], tools=[{"name": "Old Drill", "slot": 2}])
    doc["tool_containers"] = [{"id": "C1", "hex": "-2,1"}]
    doc["tool_deck"] = [{"name": "Shield Projector"}]
    doc["order"] = {"active": "Blue TAG", "move": {"route": ["-2,1"], "interact": {"target": "C1", **interact}},
                    "second": {"skill": "idle"}}
    doc.pop("dice")
    return doc


def test_a_drawn_tool_goes_to_the_slot_declared_or_the_lowest_free_one():
    from explorer.games.tagraid.orders.orderfile import parse_order
    from explorer.games.tagraid.orders.sequence import play

    sc = parse_order(_container_doc(), "o.toml")
    last = play(sc.initial, sc.declarations, sc.dice)[-1].state.miner("Blue TAG")  # the lowest free Slot: 1
    assert dict(zip(last.slots_used, (x.name for x in last.tools))) == {2: "Old Drill", 1: "Shield Projector"}
    assert last.secured_tools()[0][1].name == "Old Drill"
    sc = parse_order(_container_doc(slot=2, discard=["Old Drill"]), "o.toml")
    last = play(sc.initial, sc.declarations, sc.dice)[-1].state.miner("Blue TAG")
    assert last.secured_tools()[0][1].name == "Shield Projector"


@pytest.mark.parametrize("interact,why", [({"slot": 2}, "Slot 2 holds Old Drill"), ({"slot": 3}, None),
                                          ({"slot": 4}, "no Slot 4")])
def test_a_declared_slot_is_checked(interact, why):
    from explorer.games.tagraid.orders.orderfile import parse_order
    from explorer.games.tagraid.orders.sequence import play

    sc = parse_order(_container_doc(**interact), "o.toml")
    if why is None:
        last = play(sc.initial, sc.declarations, sc.dice)[-1].state.miner("Blue TAG")
        assert 3 in last.slots_used
        return
    with pytest.raises(RuleViolation) as e:
        play(sc.initial, sc.declarations, sc.dice)
    assert e.value.rejection.field == "order.move.interact.slot" and why in e.value.rejection.reason


def test_seeded_deployment_dice_say_which_were_seeded():
    """Initial Deployment's d20s rolled from the seed (no list, or a list that an earlier player's seeded roll left
    short) say so in the step's title and facts, face by face; a player whose faces are all given says nothing
    more (the dice-list rule of tests/test_dice_lists_exact.py)."""
    doc = _doc("tr-deploy-default")
    doc["initial_deployment"]["rolls"] = {"blue": [2]}
    doc["seed"] = 8
    t = resolve_match(parse_match(doc, "m.toml"))
    red = next(s for s in t.steps if s.title.startswith("red rolls"))
    assert red.facts["seeded"] == red.facts["rolls"] and f"(rolled, seed {8 + 0}: " in red.title
    blue = next(s for s in t.steps if s.title.startswith("blue rolls"))
    # 2 is taken by red: blue's listed 2 is rolled again from the seed (seed 9: the second player's)
    assert blue.facts["rolls"][0] == 2 and blue.facts["seeded"] == blue.facts["rolls"][1:]
    assert "(2 given; " in blue.title and "rolled, seed 9)" in blue.title
    given = resolve_match(parse_match(_doc("tr-deploy-default"), "m.toml"))
    assert not any("seeded" in s.facts or "seed" in s.title for s in given.steps if " rolls " in s.title)
