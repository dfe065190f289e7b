"""TAG Raid's scenario kinds on the kernel: every kind's built-ins give a typed outcome whose JSON is the trace's
outcome, and any declaration of an order or round file (hypothesis) goes through the outcome text, ``to_json()``,
the picture and the Order page's builders without an exception.

Sections: Activating a Miner › Order Expenditure Sequence, Orders and AROs (every second Skill, every ARO Skill, the
step an ARO is declared at, Evade movements); Game Sequence › Game Round; Line of Fire (a table's verdicts).
"""

import dataclasses
import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game
from explorer.games.tagraid.orders.declarations import (ARO_SKILLS, SECOND_SKILLS, AroDecl, AttackShare, MoveDecl,
                                                        OrderDeclarations, SkillDecl)
from explorer.games.tagraid.orders.round import ROUND_STEPS, RoundContext
from explorer.games.tagraid.orders.sequence import STEPS, OrderContext, play_until_refused
from explorer.games.tagraid.outcomes import OrderOutcome, RoundOutcome, TableOutcome
from explorer.hexgrid import neighbors
from explorer.kernel import Outcome, is_frozen_state

G = get_game("tagraid")
PROPS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BY_KIND = {k: [s.name for s in G.scenarios() if s.kind == k] for k in ("order", "round", "table")}
TYPES = {"order": OrderOutcome, "round": RoundOutcome, "table": TableOutcome}


def _check_trace(sc, trace):
    """Outcome text, JSON and picture of a resolved scenario, and its typed outcome."""
    r = trace.result
    assert isinstance(r, Outcome)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(r, dataclasses.fields(r)[0].name, None)
    assert json.loads(trace.to_json())["outcome"] == json.loads(json.dumps(r.to_json()))
    assert r.to_json() == trace.outcome
    text = G.outcome_text(trace)
    assert text.startswith("Outcome") and "{" not in text
    svg = G.picture(sc, trace)
    assert svg is None or svg.lstrip().startswith("<svg")


@pytest.mark.parametrize("name", [n for k in ("order", "round", "table") for n in BY_KIND[k]])
def test_every_builtin_of_a_kind_gives_its_typed_outcome(name):
    sc = G.load_builtin(name)
    trace = G.resolve(sc)
    assert isinstance(trace.result, TYPES[sc.kind])
    _check_trace(sc, trace)


def test_a_document_without_kind_is_a_roll_or_a_table_and_an_unknown_kind_is_refused():
    assert G.parse_data({"title": "t", "active": {"name": "A", "skill": "idle"}}, "t").kind == "roll"
    assert G.parse_data({"kind": "roll", "active": {"name": "A", "skill": "idle"}}, "t").kind == "roll"
    assert G.parse_data({"kind": "table", "table": "tr-22"}, "t").kind == "table"
    with pytest.raises(ScenarioError, match="unknown TAG Raid scenario kind 'poker'"):
        G.parse_data({"kind": "poker"}, "t")


def test_the_order_and_round_sequences_are_played_over_frozen_states_with_frozen_contexts():
    sc = G.load_builtin("tr-order-corner")
    frames, refusal = play_until_refused(sc.initial, sc.declarations, sc.dice)
    assert refusal is None and [f.name for f in frames] == [n for n, _ in STEPS]
    assert all(is_frozen_state(f.state) for f in frames)
    with pytest.raises(dataclasses.FrozenInstanceError):
        OrderContext(declarations=sc.declarations, dice=sc.dice).dice = None  # type: ignore[misc]
    assert is_frozen_state(RoundContext()) and [n for n, _ in ROUND_STEPS][0] == "1.1 Event"


# ------------------------------------------------------------------ any declaration of an order file


@st.composite
def orders(draw):
    """An order built-in with its declarations changed: any second Skill (a Move of one hexagon, an Attack at one
    enemy or split between two), any AROs (every ARO Skill, steps 2 / 4 / at the right), Evade movements asked or
    not, the file's dice or every die rolled from a seed."""
    name = draw(st.sampled_from(BY_KIND["order"]))
    sc = G.load_builtin(name)
    init, d = sc.initial, sc.declarations
    a = init.miner(d.active)
    enemies = [m.id for m in init.enemies_of(a)] + ([init.megabeast.id] if init.megabeast else [])
    layout, geo = init.geometry.layout, init.geometry
    skill = draw(st.sampled_from(SECOND_SKILLS))
    weapons = [w.name for w in a.all_weapons]
    second = SkillDecl(skill)
    if skill == "move":
        here = geo.hex_of(a.x, a.y)
        second = SkillDecl("move", move=MoveDecl((layout.hex_to_pixel(draw(st.sampled_from(neighbors(here)))),)))
    elif skill in ("ranged_attack", "close_combat_attack") and enemies:
        targets = draw(st.lists(st.sampled_from(enemies), min_size=1, max_size=2, unique=True))
        w = draw(st.sampled_from(weapons)) if weapons else None
        burst = next((x.burst for x in a.all_weapons if x.name == w), 1)
        shares = ((AttackShare(targets[0]),) if len(targets) == 1 else
                  (AttackShare(targets[0], burst // 2), AttackShare(targets[1], burst - burst // 2)))
        second = SkillDecl(skill, w, shares)
    miners = [m for m in enemies if init.megabeast is None or m != init.megabeast.id]
    aros = draw(st.lists(st.builds(AroDecl, st.sampled_from(miners or ["nobody"]), st.sampled_from(ARO_SKILLS),
                                   st.none(), st.sampled_from([None, 2, 4])), max_size=3))
    evade = draw(st.sampled_from([(), ((d.active, (a.x + 0.5, a.y)),)]))
    decl = OrderDeclarations(d.active, draw(st.sampled_from([d.move, MoveDecl()])), second, tuple(aros), evade)
    if draw(st.booleans()):
        decl = d  # the file's own declarations, with other dice
    return replace(sc, declarations=decl), draw(st.sampled_from([None, 1, 7])), draw(st.booleans())


@PROPS
@given(orders())
def test_any_order_goes_through_text_json_picture_and_the_page_builders(case):
    from explorer.games.tagraid.orders_svg import order_svg
    from explorer.games.tagraid.orders_views import outcome_html, steps_html

    sc, seed, reroll = case
    try:
        trace = G.resolve(sc, seed=seed, reroll=reroll)
    except RuleViolation as e:  # a refused declaration names its rule, field and reason
        assert e.rejection.reason and e.rejection.step
    except ScenarioError as e:  # fixed dice that do not fit the rolls of other declarations
        assert e.field.startswith("dice.")
    else:
        _check_trace(sc, trace)
    try:
        frames, refusal = play_until_refused(sc.initial, sc.declarations, sc.dice) if not reroll else ((), None)
    except ScenarioError as e:  # the step-through refuses the same misfit dice the resolver refused (not a crash)
        assert e.field.startswith("dice.")
        return
    for k in range(len(frames) + 1):
        steps_html(frames, k, None if refusal is None else refusal.rejection)
    if frames:
        outcome_html(sc.initial, frames[-1].state)
        assert order_svg(frames[-1].state, len(frames)).lstrip().startswith("<svg")


@st.composite
def rounds(draw):
    """A round built-in with one Order's second Skill changed (or none), re-rolled or not, with another seed."""
    sc = G.load_builtin(draw(st.sampled_from(BY_KIND["round"])))
    d = sc.declarations
    if d.orders and draw(st.booleans()):
        i = draw(st.integers(0, len(d.orders) - 1))
        od, dice = d.orders[i]
        od = replace(od, second=SkillDecl(draw(st.sampled_from(["idle", "evade"]))), aros=())
        d = replace(d, orders=d.orders[:i] + ((od, dice),) + d.orders[i + 1:])
    return replace(sc, declarations=d), draw(st.sampled_from([None, 3])), draw(st.booleans())


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_any_round_goes_through_text_json_and_picture(case):
    sc, seed, reroll = case
    try:
        trace = G.resolve(sc, seed=seed, reroll=reroll)
    except RuleViolation as e:
        assert e.rejection.field.startswith(("orders[", "deployment"))
    except ScenarioError as e:
        assert "dice" in e.field
    else:
        _check_trace(sc, trace)


@pytest.mark.parametrize("shooter", ["A", "B"])
def test_a_table_from_any_shooter_goes_through_text_json_and_picture(shooter):
    sc = G.load_builtin("tr-22")
    if shooter not in sc.loaded.table.models:
        pytest.skip("no such Model")
    sc = sc.with_question(shooter)
    trace = G.resolve(sc)
    assert isinstance(trace.result, TableOutcome) and trace.result.shooter == shooter
    _check_trace(sc, trace)
