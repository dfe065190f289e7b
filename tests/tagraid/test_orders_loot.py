"""Tool Containers and Loot Tokens during a Move, and the Loot a TAG leaves at its death
(explorer.games.tagraid.orders.loot): the Move ends on reaching Silhouette Contact, the conditions (a TAG, no enemy
in contact), one card per Tool Container per Game Round (ruling tool_container_draws), Tool Slots, the Loot Zone,
the Loot Token at Death (ruling loot_token_megabeast) and handed case TR-13 played on the table."""

import math
from dataclasses import replace

import pytest

from explorer.games import get_game
from explorer.games.tagraid.orders.declarations import (IllegalDeclaration, Interaction, MoveDecl, OrderDeclarations,
                                                        OrderDice, SkillDecl)
from explorer.games.tagraid.orders.loot import leave_loot, take_card
from explorer.games.tagraid.orders.round import between_orders, play_round
from explorer.games.tagraid.orders.sequence import play
from explorer.games.tagraid.orders.state import LootToken, LootZone, ToolCard, WeaponCard
from explorer.games.tagraid.resolve import Loot
from explorer.hexgrid import Hex

G = get_game("tagraid")
CONTAINER = "tr-order-tool-container"
ROUND = "tr-round-loot"


def _sc():
    return G.load_builtin(CONTAINER)


def _reach(st, miner="Blue TAG"):
    m = st.miner(miner)
    return st.geometry.calibration.radius(m.silhouette) + st.geometry.token_radius


def test_the_move_ends_on_reaching_contact_and_the_drawn_tool_is_used():
    sc = _sc()
    frames = play(sc.initial, sc.declarations, sc.dice)
    last = frames[-1].state
    a, c1 = last.miner("Blue TAG"), last.containers[0]
    # the base touches the Container (it stopped short of the declared hexagon 0,0)
    assert math.isclose(math.dist((a.x, a.y), (c1.x, c1.y)), _reach(last), abs_tol=1e-9)
    assert [t.name for t in a.tools] == ["Heavy Rifle"] and last.tool_deck[0].name == "Teseum cache"
    assert last.container_draws == (("Blue TAG", "C1"),)
    # the Attack of step 3 uses the Tool equipped at step 1.2: Damage 15 - Armor 4
    assert any("Attack Damage 11 = Damage 15" in s.title for f in frames for s in f.steps)
    move_steps = frames[1].steps
    assert move_steps[0].rule.section == "Common Skills › Move" and "short of the declared end" in move_steps[0].title
    assert all(s.rule.section for f in frames for s in f.steps)


def _second_visit(initial_after, who="Blue TAG", rulings=None):
    """From the table the first Order left, ``who`` Moves back into contact with C1 and interacts again."""
    st = between_orders(initial_after)
    if rulings:
        st = replace(st, rulings=tuple(sorted(rulings.items())))
    m = st.miner(who)
    c1 = st.containers[0]
    # step away one hexagon's width, then come back towards the Container
    away = (c1.x - 1.5, c1.y) if who == "Blue TAG" else (m.x, m.y)
    st = st.with_miner(replace(m, x=away[0], y=away[1], orders=2))
    decl = OrderDeclarations(who, MoveDecl(((c1.x, c1.y),), None, Interaction("C1")), SkillDecl("idle"))
    return play(st, decl, OrderDice(seed=1))


@pytest.mark.parametrize("reading,who,draws", [
    ("per_miner", "Blue TAG", False),      # the same Miner, the same Container, the same Round
    ("per_container", "Blue TAG", False),
    ("per_miner", "Red TAG", True),        # another Miner may draw from C1 under per_miner ...
    ("per_container", "Red TAG", False),   # ... but not under per_container
])
def test_one_tool_card_per_tool_container_per_game_round(reading, who, draws):
    sc = _sc()
    after = play(sc.initial, sc.declarations, sc.dice)[-1].state
    if who == "Red TAG":  # put the red TAG one hexagon away from C1, clear of the blue TAG
        c1 = after.containers[0]
        after = after.with_miner(replace(after.miner("Red TAG"), x=c1.x + 1.2, y=c1.y - 1.2))
    frames = _second_visit(after, who, {"tool_container_draws": reading})
    last = frames[-1].state
    titles = [s.title for s in frames[1].steps]
    assert any(("draws a Tool Card from C1" in t) == draws for t in titles if "C1" in t and "draw" in t)
    assert (len(last.tool_deck) == 0) == draws
    assert any(s.facts.get("rulings", {}).get("tool_container_draws") == reading for s in frames[1].steps)


def test_draws_are_counted_afresh_each_game_round():
    sc = G.load_builtin(ROUND)
    frames = play_round(sc.initial, sc.declarations)
    assert frames[2].state.table.container_draws == (("Red TAG", "C1"),)   # after the Players Phase
    assert frames[3].state.table.container_draws == ()                      # the End of the Round clears them


def test_no_draw_in_silhouette_contact_with_an_enemy():
    from explorer.games.tagraid.orders.loot import interact

    sc = _sc()
    st = sc.initial
    c1 = st.containers[0]
    r, reach = st.geometry.calibration.radius(7), _reach(st)
    # the blue TAG touches C1 and, at the same point, the red TAG
    st = st.with_miner(replace(st.miner("Blue TAG"), x=c1.x - reach, y=c1.y))
    st = st.with_miner(replace(st.miner("Red TAG"), x=c1.x - reach, y=c1.y + 2 * r))
    assert st.table().in_contact("Blue TAG", "Red TAG")
    out, steps = interact(st, "Blue TAG", Interaction("C1"), "1.2")
    assert not out.miner("Blue TAG").tools and out.tool_deck == st.tool_deck and out.container_draws == ()
    assert "Silhouette Contact with Red TAG" in steps[0].title and steps[0].rule.section == "Tool Containers and Loot"
    # one hexagon further away, the same TAG draws
    st2 = st.with_miner(replace(st.miner("Red TAG"), y=c1.y + 2 * r + 1.0))
    out2, _ = interact(st2, "Blue TAG", Interaction("C1"), "1.2")
    assert [t.name for t in out2.miner("Blue TAG").tools] == ["Heavy Rifle"]


@pytest.mark.parametrize("change,field,words", [
    (lambda st, d: (st, replace(d, move=replace(d.move, interact=Interaction("C9")))), "order.move.interact.target",
     "no Tool Container or Loot Token"),
    (lambda st, d: (st.with_miner(replace(st.miner("Blue TAG"), miner_type="Prospector")), d), "order.move.interact",
     "only a TAG"),
    (lambda st, d: (st, replace(d, move=MoveDecl((st.geometry.layout.hex_to_pixel(Hex(-1, 1)),), None,
                                                 Interaction("C1")))), "order.move.interact", "never reaches"),
    (lambda st, d: (st, replace(d, move=MoveDecl((st.geometry.layout.hex_to_pixel(Hex(0, 0)),)))),
     "order.move.route", "on top of C1"),
])
def test_refused_interactions_name_field_reason_and_section(change, field, words):
    sc = _sc()
    st, decl = change(sc.initial, sc.declarations)
    with pytest.raises(IllegalDeclaration) as e:
        play(st, decl, sc.dice)
    assert e.value.rejection.field.startswith(field) and words in str(e.value)
    assert e.value.rejection.rule.section in ("Tool Containers and Loot", "Common Skills › Move")


def test_tool_slots_full_discard_to_make_room_or_lose_the_card():
    sc = _sc()
    st = sc.initial
    pistol = ToolCard("Old Drill")
    full = st.with_miner(replace(st.miner("Blue TAG"), tools=(pistol, ToolCard("Scanner")), tool_slots=2))
    card = ToolCard("Heavy Rifle", weapon=WeaponCard("Heavy Rifle", 15, 2))
    s1, steps = take_card(full, "Blue TAG", card, Interaction("C1", discard=("Old Drill",)), "t")
    assert [t.name for t in s1.miner("Blue TAG").tools] == ["Scanner", "Heavy Rifle"]
    assert [c.name for c in s1.tool_discard] == ["Old Drill"]
    assert s1.miner("Blue TAG").weapon("Heavy Rifle").damage == 15
    s2, steps = take_card(full, "Blue TAG", card, Interaction("C1"), "t")
    assert [t.name for t in s2.miner("Blue TAG").tools] == ["Old Drill", "Scanner"]
    assert [c.name for c in s2.tool_discard] == ["Heavy Rifle"] and "no free Tool Slot" in steps[-1].title
    s3, _ = take_card(st, "Blue TAG", card, Interaction("C1", equip=False), "t")
    assert not s3.miner("Blue TAG").tools and s3.tool_discard == (card,)


def test_tr13_on_the_table_loot_zone_token_and_pick_up():
    """TR-13: P gains 1 Teseum; T keeps 3 of 5 Units, 2 go to its Loot Zone with its Tool cards; the 4 Warehouse
    Units are not lost. Then the Loot Token is picked up (Units to the Scoring Zone, the Tool equipped) and returned."""
    sc = G.load_builtin(ROUND)
    from explorer.games.tagraid.orders.round import PlayedOrder, play_orders

    events = play_round(sc.initial, sc.declarations, upto=2)[-1].state
    played = [e for e in play_orders(events, sc.declarations) if isinstance(e, PlayedOrder)]
    o1 = played[0].frames[-1].state
    red, blue = o1.miner("Red TAG"), o1.miner("Blue TAG")
    assert {k: v for k, v in o1.teseum if v} == {"blue": 1} and blue.scoring_zone == 1
    assert red.scoring_zone == 3 and red.warehouse == 4 and not red.tools and red.on_table
    assert o1.loot_zone("Red TAG") == LootZone("Red TAG", 2, (ToolCard("Mining Drill", text="A mining Tool."),))
    tok = o1.loot_tokens[0]
    before = played[0].before.miner("Red TAG")
    r = o1.geometry.calibration.radius(7)
    assert tok.id == "Loot Red TAG" and math.isclose(math.dist((tok.x, tok.y), (before.x, before.y)),
                                                     r + o1.geometry.token_radius)
    o2 = played[1].frames[-1].state
    assert o2.miner("Blue TAG").scoring_zone == 3 and [t.name for t in o2.miner("Blue TAG").tools] == ["Mining Drill"]
    assert o2.loot_tokens == () and o2.loot_zone("Red TAG") == LootZone("Red TAG")
    o3 = played[2].frames[-1].state
    assert o3.miner("Red TAG").scoring_zone == 5 and [c.name for c in o3.tool_discard] == ["Teseum cache"]
    t = G.resolve(sc)
    assert t.outcome["units"] == {"blue": 3, "red": 9} and t.outcome["round"] == 1 and not t.outcome["over"]
    assert t.outcome["next_round"] == 2


def _dying(st, megabeast):
    return Loot(scoring_zone_before=4, kept=2, to_loot_zone=0 if megabeast else 2, to_reserve=2 if megabeast else 0,
                warehouse=0, megabeast_involved=megabeast, gained_this_order=0)


@pytest.mark.parametrize("reading,token", [("no_token", False), ("empty_token", True)])
def test_megabeast_involved_loot_is_lost_token_by_ruling(reading, token):
    sc = _sc()
    st = replace(sc.initial, rulings=(("loot_token_megabeast", reading),))
    st = st.with_miner(replace(st.miner("Red TAG"), tools=(ToolCard("Scanner"),)))
    out, steps = leave_loot(st, "Red TAG", _dying(st, True), "5.3")
    assert out.loot_zone("Red TAG") == LootZone("Red TAG") and [c.name for c in out.tool_discard] == ["Scanner"]
    assert bool(out.loot_tokens) == token
    assert steps[0].facts["rulings"] == {"loot_token_megabeast": reading}


def test_a_second_death_empties_the_old_loot_token_first():
    sc = _sc()
    st = sc.initial
    red = st.miner("Red TAG")
    old = LootToken("Loot Red TAG", "Red TAG", red.x - 2.0, red.y)
    st = replace(st, loot_tokens=(old,), loot_zones=(LootZone("Red TAG", 3, (ToolCard("Old Drill"),)),))
    st = st.with_miner(replace(red, tools=(ToolCard("Scanner"),)))
    out, steps = leave_loot(st, "Red TAG", _dying(st, False), "5.3")
    # the old zone's 3 Units went to the reserve and its card to the discard pile; the new zone has this death's loot
    assert out.loot_zone("Red TAG") == LootZone("Red TAG", 2, (ToolCard("Scanner"),))
    assert [c.name for c in out.tool_discard] == ["Old Drill"] and len(out.loot_tokens) == 1
    assert out.loot_tokens[0] != old and "already on the table" in steps[0].title


def test_the_stepper_declares_the_interaction_and_draws_the_tokens():
    from explorer.games.tagraid.orders_views import OrderStepper

    w = OrderStepper(CONTAINER)
    assert w.interact_pick.value == "C1" and w.rejection is None
    assert w.second_weapon.value == "Heavy Rifle"   # a Weapon the Container gives, offered "(if drawn)"
    assert any(getattr(o, "title", "") == "Tool Container C1" for o in w.overlays())
    w.interact_pick.value = ""           # the same route without the interaction ends on top of C1: refused
    assert w.rejection is not None and "on top of C1" in w.move_error.value
    w.interact_pick.value = "C1"
    assert w.rejection is None and [t.name for t in w.frames[-1].state.miner("Blue TAG").tools] == ["Heavy Rifle"]
    w.show(len(w.frames))
    assert "Tools equipped: Blue TAG: Heavy Rifle" in w.outcome.value
    # the download keeps the interaction: the file plays the same Order
    from explorer.scenario import read_toml

    sc = G.parse({k: v for k, v in read_toml("x", text=w.to_toml()).items() if k != "game"}, "x")
    assert sc.declarations.move.interact == Interaction("C1")
    assert G.resolve(sc).outcome["tools"] == {"Blue TAG": ["Heavy Rifle"]}
