"""A nemesis stunned in the middle of its own activation (issue 20, session 12 item 1).

Rulebook: Additional Rules › Damage and Defeat (a nemesis defeated before the Final Showdown takes a stun token; a
stunned nemesis cannot attack, overrun or move on its next turn: its damage and stun are removed instead); Nemesis
Phase › 3 (a stunned nemesis only removes its stun and damage); Additional Rules › Team-up Abilities (team-up
abilities can interrupt other game effects). The point ``"3.activation.N.interrupt"`` plays a team-up entry inside the
N-th activation, after its item is determined and before it lands; ruling ``nemesis_stunned_mid_activation`` says
which activation the stun costs (``skip_next``, the default: the next one; ``this_activation``: the interrupted one).
"""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger import hero_phase as HP
from explorer.games.dagger.nemesis import (
    PhaseContext, activate_enemy, announce_activation, begin_activation, phase_parts, play_phase,
    point_order, resolve_activation,
)
from explorer.games.dagger.nemesis_scenario import parse_nemesis
from explorer.games.dagger.options import rulings
from explorer.games.dagger.round_scenario import parse_round, resolve_round
from explorer.games.dagger.state import ActivationItem, EnemyActed
from explorer.kernel import play
from explorer.scenario import read_toml

NAME = "dg-nemesis-stunned-mid-activation"


def doc(name=NAME):
    g = get_game("dagger")
    return copy.deepcopy(read_toml(name, text=g.scenario_text(name)))


def run(d, **kw):
    return resolve_round(parse_round(d, "t.toml"), **kw)


def hero_damage(t, name="Hero A"):
    return next(h.damage for h in t.result.heroes if h.name == name)


def nemesis_steps(t):
    return [(s.section.split(" · ")[0], s.facts.get("action")) for s in t.steps
            if s.facts.get("enemy") == "Nemesis" and s.facts.get("action")]


def test_worked_example_default_the_attack_stops_and_the_next_activation_is_lost():
    t = run(doc())
    titles = [s.title for s in t.steps]
    assert "Nemesis activates: it is to attack Hero A on Latveria" in titles
    stop = next(s for s in t.steps if s.facts.get("action") == "stopped")
    assert stop.title == "Nemesis was stunned during its activation: it does not attack Hero A on Latveria"
    assert stop.rule.section == "Additional Rules › Damage and Defeat"
    assert "ruling nemesis_stunned_mid_activation = skip_next" in stop.detail and stop.facts["stunned"] is True
    # round 1: stopped (the team-up landed first); round 2: the lost turn, stun and damage removed
    assert nemesis_steps(t) == [("Round 1", "stopped"), ("Round 2", "stun_cleared")]
    assert hero_damage(t) == 0                               # the attack never landed, in either round
    nem = next(e for e in t.result.enemies if e.kind == "nemesis")
    assert (nem.stunned, nem.damage) == (False, 0)
    stopped = [e for e in t.result.events if isinstance(e, EnemyActed) and e.action == "stopped"]
    item = ActivationItem("attack", "Hero A", words="attack Hero A on Latveria")
    assert stopped == [EnemyActed("Nemesis", "stopped", "Hero A", item=item, cleared=False)]
    from explorer.games.dagger.outcome import _Action, _action_text

    assert _action_text(_Action(stopped[0])) == ("Nemesis is stunned during its activation: it does not attack Hero A "
                                                 "on Latveria; stun and damage stay for its next activation")
    defeat = next(s for s in t.steps if s.title.startswith("The nemesis is defeated before the Final Showdown"))
    assert defeat.detail.startswith("A stunned nemesis skips its next activation; then its damage and stun are "
                                    "removed.")


def test_worked_example_this_activation_the_stun_is_spent_at_once_and_round_2_attacks():
    t = run(doc(), rulings={"nemesis_stunned_mid_activation": "this_activation"})
    stop = next(s for s in t.steps if s.facts.get("action") == "stopped")
    assert stop.facts["stunned"] is False and "this_activation" in stop.detail
    assert nemesis_steps(t) == [("Round 1", "stopped"), ("Round 2", "attack")]
    assert hero_damage(t) == 3                               # round 2's attack, power 3


def test_this_activation_every_step_says_what_happened():
    """Under this_activation the steps say what this reading does, not the skip_next text: the defeat step (Damage
    and Defeat) says the stun costs this very activation, the stop step says the stun and damage are removed (in its
    title, as the state changes there), and the record keeps the interrupted item and the removal."""
    t = run(doc(), rulings={"nemesis_stunned_mid_activation": "this_activation"})
    defeat = next(s for s in t.steps if s.title.startswith("The nemesis is defeated before the Final Showdown"))
    assert defeat.rule.section == "Additional Rules › Damage and Defeat"
    assert "skips its next activation" not in defeat.detail
    assert ("it does not attack Hero A on Latveria, and this activation is the turn the stun costs it"
            in defeat.detail and "= this_activation" in defeat.detail)
    stop = next(s for s in t.steps if s.facts.get("action") == "stopped")
    assert stop.title == ("Nemesis was stunned during its activation: it does not attack Hero A on Latveria; stun "
                          "and damage removed")
    assert stop.rule.section == "Additional Rules › Damage and Defeat"
    assert "stun and damage stay" not in stop.detail and "its next activation is a normal one" in stop.detail
    stopped = [e for e in t.result.events if isinstance(e, EnemyActed) and e.action == "stopped"]
    assert [(e.item.words, e.cleared) for e in stopped] == [("attack Hero A on Latveria", True)]
    from explorer.games.dagger.outcome import _Action, _action_text

    assert _action_text(_Action(stopped[0])).endswith("it does not attack Hero A on Latveria; stun and damage removed")


def test_the_same_card_after_the_activation_lets_the_attack_land_and_costs_round_2():
    """The table that lets the interrupted item complete names the point after the activation instead: the attack
    lands (3 damage), the stun then costs round 2's activation."""
    d = doc()
    d["rounds"][0]["nemesis"][0]["before"] = "3.spawns"
    t = run(d)
    assert nemesis_steps(t) == [("Round 1", "attack"), ("Round 2", "stun_cleared")]
    assert hero_damage(t) == 3


def test_the_card_before_the_activation_gives_this_activations_board():
    """Used just before the activation (3.activation.1), the nemesis is stunned as its activation begins: it loses
    that turn, and round 2 attacks. The same board as this_activation, reached by another point."""
    d = doc()
    d["rounds"][0]["nemesis"][0]["before"] = "3.activation.1"
    t = run(d)
    assert nemesis_steps(t) == [("Round 1", "stun_cleared"), ("Round 2", "attack")]
    assert hero_damage(t) == 3 == hero_damage(run(doc(), rulings={"nemesis_stunned_mid_activation":
                                                                   "this_activation"}))


def test_an_interrupt_point_the_event_does_not_reach_is_a_file_error():
    d = doc()
    d["rounds"][0]["nemesis"][0]["before"] = "3.activation.2.interrupt"
    with pytest.raises(ScenarioError) as e:
        run(d)
    msg = str(e.value)
    assert "rounds[0].nemesis[0].before" in msg and "3.activation.1..3.activation.1 (each also .interrupt)" in msg
    d["rounds"][0]["nemesis"][0]["before"] = "3.activation.1.interupt"
    with pytest.raises(ScenarioError) as e:
        run(d)
    assert "rounds[0].nemesis[0].before" in str(e.value)


def test_point_order_puts_the_interrupt_inside_its_activation():
    pts = ["3.activation.2", "3.activation.1.interrupt", "3.spawns", "3.activation.1", "3.activation.2.interrupt",
           "3.activation"]
    assert sorted(pts, key=point_order) == ["3.activation", "3.activation.1", "3.activation.1.interrupt",
                                            "3.activation.2", "3.activation.2.interrupt", "3.spawns"]


# --------------------------------------------------------------------- the kernel's step functions on their own

def board_doc():
    g = get_game("dagger")
    return read_toml("dg-activation", text=g.scenario_text("dg-activation"))


def _ctx(sc, reading="skip_next"):
    return PhaseContext(world=sc.world, rulings=rulings({**sc.rulings, "nemesis_stunned_mid_activation": reading}),
                        choices=sc.choices)


def test_begin_and_resolve_give_activate_enemys_state_and_steps():
    sc = parse_nemesis(board_doc(), "dg-activation")
    ctx = _ctx(sc)
    state = sc.state
    for e in state.enemies:
        a_state, a_steps = activate_enemy(state, ctx, e.id)
        mid, head = begin_activation(state, ctx, e.id)
        b_state, rest = resolve_activation(mid, ctx)
        assert a_state == b_state and a_steps == (*head, *rest) and b_state.acting == ""


@pytest.mark.parametrize("reading", ["skip_next", "this_activation"])
def test_the_interrupted_item_is_kept_in_the_state_and_is_the_one_stopped(reading):
    """announce_activation keeps the item it determined in the state (GameState.acting_item) until the activation
    resolves; the stopped record is that item, even when the board the item was read from has changed since (the
    hero it was to attack moved away: determined afresh, it would read 'move')."""
    from explorer.games.dagger.state import ActivationItem, evolve

    d = copy.deepcopy(board_doc())
    d["nemesis"]["stunned"], d["nemesis"]["damage"] = False, 0
    sc = parse_nemesis(d, "dg-activation")
    ctx = _ctx(sc, reading)
    nem = sc.state.nemesis_enemy()
    here = next(h for h in sc.state.heroes if h.space and not h.eliminated)   # the first hero listed: attacked
    start = sc.state.with_hero(evolve(here, space=nem.space))
    mid, steps = announce_activation(start, ctx, nem.id)
    want = ActivationItem("attack", here.name, words=f"attack {here.name} on {nem.space}")
    assert mid.acting == nem.id and mid.acting_item == want
    assert steps[-1].title == f"{nem.id} activates: it is to {want.words}"
    quiet_mid, _ = announce_activation(start, PhaseContext(world=ctx.world, rulings=ctx.rulings, choices=ctx.choices,
                                                           quiet=True), nem.id)
    assert quiet_mid.acting_item == want                   # kept in quiet plays (the forecast) too
    away = sc.world.adjacent(nem.space)[0]
    moved = mid.evolve(heroes=tuple(evolve(h, space=away) if h.space == nem.space else h for h in mid.heroes))
    hit, _ = HP.suffer_damage(moved, nem.id, nem.health)
    after, steps = resolve_activation(hit, ctx)
    stopped = [e for e in after.events if isinstance(e, EnemyActed) and e.action == "stopped"]
    assert [e.item for e in stopped] == [want] and stopped[0].target == here.name
    assert stopped[0].cleared == (reading == "this_activation")
    assert steps[0].title.startswith(f"{nem.id} was stunned during its activation: it does not {want.words}")
    assert after.acting == "" and after.acting_item is None


def test_a_standard_enemy_defeated_at_the_interrupt_resolves_nothing():
    sc = parse_nemesis(board_doc(), "dg-activation")
    ctx = _ctx(sc)
    mid, _ = announce_activation(sc.state, ctx, "Thug 1")      # Thug 1 is to attack a hero in Cairo
    assert mid.acting == "Thug 1"
    hit, _ = HP.suffer_damage(mid, "Thug 1", 10)
    after, steps = resolve_activation(hit, ctx)
    assert steps[0].title == "Thug 1 was defeated during its activation: its item does not resolve"
    assert [h.damage for h in after.heroes] == [h.damage for h in sc.state.heroes]


def test_a_survivor_of_the_interrupt_resolves_the_item_it_had():
    """Nothing done at the interrupts: cutting every activation of dg-activation's event there gives the uncut
    phase's final state and, but for the announcing steps, its steps."""
    sc = parse_nemesis(board_doc(), "dg-activation")
    ctx = _ctx(sc)
    uncut = play_phase(sc.state, ctx)
    n = len(next(f.state.activating for f in uncut if f.state.activating))
    assert n >= 5
    pctx, parts = phase_parts(sc.state, ctx, ("1", *(f"3.activation.{k}.interrupt" for k in range(1, n + 1))))
    assert len(parts) == n + 1
    cut = play(sc.state, [e for _p, es in parts for e in es], pctx)
    announced = [t for f in cut for t in f.steps if " activates: it is to " in t.title]
    assert len(announced) == sum(1 for f in uncut for t in f.steps if t.facts.get("action") not in
                                 (None, "stun_cleared", "gone") and t.facts.get("enemy"))
    assert cut[-1].state == uncut[-1].state
    assert [t for f in cut for t in f.steps if t not in announced] == [t for f in uncut for t in f.steps]


@st.composite
def nemesis_boards(draw):
    d = board_doc()
    spaces = ["Cairo", "Siberia", "Latveria", "London", "New York", "Wakanda", "Atlantis", "Tokyo", "Madripoor"]
    d["nemesis"]["space"] = draw(st.sampled_from(spaces))
    d["nemesis"]["stunned"] = False
    d["nemesis"]["damage"] = 0
    for h in d["heroes"]:
        h["space"] = draw(st.sampled_from(spaces))
    d["overrun"] = draw(st.lists(st.sampled_from(["New York", "Atlantis", "Madripoor", "Wakanda", "Iliad"]),
                                 unique=True, max_size=4))
    return parse_nemesis(d, "hypothesis"), draw(st.sampled_from(["skip_next", "this_activation"]))


@settings(max_examples=60, deadline=None)
@given(nemesis_boards())
def test_a_nemesis_stunned_in_its_activation_takes_no_other_action_in_it(board):
    """Whatever its item (attack, overrun, move), once stunned inside its activation the nemesis attacks nobody,
    overruns nothing and stays where the stun left it; exactly one 'stopped' record; with skip_next the stun stays
    for its next activation (which then only clears it), with this_activation it is gone."""
    sc, reading = board
    ctx = _ctx(sc, reading)
    nem = sc.state.nemesis_enemy()
    mid, _ = announce_activation(sc.state, ctx, nem.id)
    assert mid.acting == nem.id
    hit, _ = HP.suffer_damage(mid, nem.id, nem.health)
    assert hit.enemy(nem.id).stunned
    after, steps = resolve_activation(hit, ctx)
    assert [h.damage for h in after.heroes] == [h.damage for h in sc.state.heroes]
    assert after.overrun == sc.state.overrun
    assert after.enemy(nem.id).space == hit.enemy(nem.id).space
    acted = [e for e in after.events if isinstance(e, EnemyActed) and e.enemy == nem.id]
    assert [e.action for e in acted] == ["stopped"] and [s.facts["action"] for s in steps] == ["stopped"]
    assert after.enemy(nem.id).stunned == (reading == "skip_next") and after.acting == ""
    nxt, steps2 = activate_enemy(after, ctx, nem.id)
    if reading == "skip_next":
        assert [s.facts["action"] for s in steps2] == ["stun_cleared"]
        assert [h.damage for h in nxt.heroes] == [h.damage for h in sc.state.heroes]
    assert not nxt.enemy(nem.id).stunned and nxt.enemy(nem.id).damage == 0 or reading == "this_activation"


def test_the_round_page_shows_the_nemesis_stun_token_from_the_interrupt_to_its_lost_turn():
    from explorer.games.dagger.round_view import position_text, round_positions
    from explorer.games.dagger.round_views import position_html

    positions = round_positions(parse_round(doc(), "t.toml"))
    at = {p.step.facts.get("action"): p for p in positions if p.step.facts.get("enemy") == "Nemesis"}
    assert at["stopped"].nemesis == "Nemesis on Latveria, damage 3/3, stun token"
    assert at["stun_cleared"].nemesis == "Nemesis on Latveria, damage 0/3"
    assert positions[0].nemesis == "Nemesis on Latveria, damage 0/3"
    assert "nemesis: Nemesis on Latveria, damage 3/3, stun token" in position_text(at["stopped"], 1, 1)
    assert "dg-nemesis-state'>Nemesis on Latveria, damage 3/3, stun token<" in position_html(at["stopped"], 1, 1)


def _moved(state, hero, space):
    from explorer.games.dagger.state import evolve
    return state.with_hero(evolve(next(h for h in state.heroes if h.name == hero), space=space))


@pytest.mark.parametrize("reading, lands", [("as_determined", "overrun"), ("redetermined", "attack")])
def test_an_interrupted_item_lands_as_determined_by_default(reading, lands):
    """Ruling interrupted_item (Nemesis Phase › 3 › Activate enemies; Team-up Abilities: an interrupt comes inside
    an effect under way). dg-activation's Thug 2, alone on operational Wakanda, is to overrun it; an interrupt then
    (a card that moves a hero, simulated) brings Hero C onto Wakanda. As determined, the overrun lands (the state's
    kept acting_item, not a fresh look at the board); redetermined, it attacks Hero C instead."""
    sc = parse_nemesis(board_doc(), "dg-activation")
    ctx = PhaseContext(world=sc.world, rulings=rulings({**sc.rulings, "interrupted_item": reading}),
                       choices=sc.choices)
    mid, steps = announce_activation(sc.state, ctx, "Thug 2")
    assert mid.acting_item.action == "overrun" and steps[-1].title == "Thug 2 activates: it is to overrun Wakanda"
    after, steps = resolve_activation(_moved(mid, "Hero C", "Wakanda"), ctx)
    assert ctx.rulings.consulted["interrupted_item"] == reading
    acted = [e for e in after.events if isinstance(e, EnemyActed)]
    assert [e.action for e in acted] == [lands]
    assert ("Wakanda" in after.overrun) == (lands == "overrun")
    hero_c = next(h for h in after.heroes if h.name == "Hero C")
    assert hero_c.damage == (0 if lands == "overrun" else 1)
    assert steps[0].rule.section == "Nemesis Phase › 3. Resolve Event Cards › Activate enemies"


@pytest.mark.parametrize("reading", ["as_determined", "redetermined"])
def test_an_interrupted_item_that_can_no_longer_land(reading):
    """Thug 1 in Cairo is to attack Hero B (the table's choice); the interrupt moves Hero B away. As determined, the
    item cannot land and the activation resolves nothing ("item_lost"); redetermined, Thug 1 attacks the hero still
    there (Hero A: the table's choice names a hero no longer in the space, so the default, the first listed)."""
    sc = parse_nemesis(board_doc(), "dg-activation")
    ctx = PhaseContext(world=sc.world, rulings=rulings({**sc.rulings, "interrupted_item": reading}),
                       choices=sc.choices)
    mid, _ = announce_activation(sc.state, ctx, "Thug 1")
    assert (mid.acting_item.action, mid.acting_item.target) == ("attack", "Hero B")
    away = sc.world.adjacent("Cairo")[0]
    after, steps = resolve_activation(_moved(mid, "Hero B", away), ctx)
    damage = {h.name: h.damage for h in after.heroes}
    acted = [e for e in after.events if isinstance(e, EnemyActed)]
    if reading == "as_determined":
        assert [e.action for e in acted] == ["item_lost"] and acted[0].item == mid.acting_item
        assert damage == {h.name: h.damage for h in sc.state.heroes}
        assert steps[0].title == (f"Thug 1's item can no longer land: it does not attack Hero B on Cairo (Hero B is "
                                  "no longer in its space)")
        assert "interrupted_item = as_determined" in steps[0].detail
    else:
        assert [(e.action, e.target) for e in acted] == [("attack", "Hero A")]
        assert damage["Hero A"] == 1 and damage["Hero B"] == 0
    # quiet play (the forecast) gives the same state
    quiet = PhaseContext(world=sc.world, rulings=rulings({**sc.rulings, "interrupted_item": reading}),
                         choices=sc.choices, quiet=True)
    assert resolve_activation(_moved(mid, "Hero B", away), quiet)[0] == after
