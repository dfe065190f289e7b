"""The Face to Face explorer: the handed cases through the engine's Resolution, bad input in place, and the tray
drawing exactly what the engine resolved."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.games.tagraid.exchange import (MegaBeastInputs, SideInputs, dice_counts, resolve_inputs,
                                             save_pool_sizes)
from explorer.games.tagraid.views import (FaceToFaceExplorer, die_states, explorer_for_scenario, inputs_from_scenario,
                                          parse_faces, parse_whole, scenario_data, tray_model)

# ------------------------------------------------------------------ handed cases, die by die (the engine's Resolution)


def test_tr01_b_wins_with_its_10():
    a = SideInputs("A", attribute=14, burst=3)
    b = SideInputs("B", attribute=12, burst=2, burst_mod=1)
    res = resolve_inputs(a, b, [5, 7, 15], [3, 10], saves_a=[20], saves_b=[])
    pair = res.pairs[0]
    assert pair.kind == "face_to_face" and pair.winner == "B" and (pair.hits["B"], pair.crits["B"]) == (1, 0)
    assert pair.a.dice[2].kind == "failure" and pair.a.ids == ("A.1", "A.2", "A.3")
    assert pair.comparison.a_cancelled_by == ((1,), (1,), ())  # B's 10 cancels A's 5 and 7
    assert pair.comparison.b_cancelled_by == ((0, 1), ())  # A's 5 and 7 cancel B's 3
    assert res.miners["A"].saving_rolls == 1 and res.miners["B"].saving_rolls == 0


def test_tr02_critical_keeps_only_itself_and_forces_two_saves():
    a = SideInputs("A", attribute=12, burst=3)
    b = SideInputs("B", attribute=15, burst=1)
    res = resolve_inputs(a, b, [4, 12, 13], [14], saves_b=[1, 1, 1, 1, 1, 1])
    pair = res.pairs[0]
    assert pair.winner == "A" and (pair.hits["A"], pair.crits["A"]) == (0, 1)
    assert pair.comparison.a_cancelled_by[0] == (0,)  # B's 14 still cancels A's 4
    assert res.miners["B"].saving_rolls == 2 and res.miners["B"].wounds_lost == 2
    (saves,) = res.saving_rolls
    assert saves.count == 2 and [d.id for d in saves.dice] == ["B.s1", "B.s2"] and all(d.failed for d in saves.dice)


def test_tr03_criticals_on_both_sides_nobody_wins():
    res = resolve_inputs(SideInputs("A", attribute=13, burst=3), SideInputs("B", attribute=10, burst=1),
                         [13, 13, 2], [10])
    assert res.pairs[0].winner is None and res.pairs[0].result == "tie" and res.saving_rolls == ()
    assert any("tie" in s.title.lower() for s in res.trace.steps)


@pytest.mark.parametrize("reading,saves", [("literal", 2), ("excess_to_die", 4)])
def test_tr05_sv_above_20_both_readings(reading, saves):
    a = SideInputs("A", attribute=15, mods={"Range": 3, "Skills/Tools": 5}, burst=2)
    b = SideInputs("T", skill="none", burst=1)
    res = resolve_inputs(a, b, [20, 17], [], saves_b=[20] * 6, rulings={"sv_above_20": reading})
    assert res.miners["A"].sv.value == 23 and res.pairs[0].kind == "normal_roll"
    assert res.miners["T"].saving_rolls == saves
    assert res.rulings["sv_above_20"] == reading


def test_tr07_ap_halves_armor_up_not_cover():
    a = SideInputs("A", attribute=20, burst=2, damage=15, ammunition="AP")
    b = SideInputs("B", skill="none", armor=5, partial_cover=True, wounds=3)
    res = resolve_inputs(a, b, [1, 2], [], saves_b=[9, 10])
    (saves,) = res.saving_rolls
    assert saves.attack_damage.value == 9 and saves.attack_damage.effective_armor == 3
    assert saves.attack_damage.partial_cover and res.pairs[0].attack_damage["A"] == saves.attack_damage
    assert [d.failed for d in saves.dice] == [True, False] and res.miners["B"].wounds_lost == 1


def test_tr09_megabeast_exp_critical_no_extra_and_capped_wounds():
    a = SideInputs("Cavecrawler", skill="close_combat_attack", attribute=12, burst=1, ammunition="EXP")
    res = resolve_inputs(a, None, [12], megabeast=MegaBeastInputs(threat_level=5, wounds=2, silhouette_contact=True))
    pair = res.pairs[0]
    assert pair.megabeast and pair.winner == "Cavecrawler"
    (saves,) = res.saving_rolls
    assert saves.against_megabeast and saves.count == 3 and saves.ignored_critical_rolls == 1
    assert res.megabeast.wounds_lost == 2 and res.megabeast.killed


@pytest.mark.parametrize("reading,winner,wounds", [("must_exceed", "MegaBeast", 0), ("critical_wins", "Cavecrawler", 3)])
def test_tr10_megabeast_critical_below_threat(reading, winner, wounds):
    a = SideInputs("Cavecrawler", skill="close_combat_attack", attribute=7, burst=1, ammunition="EXP", armor=4)
    res = resolve_inputs(a, None, [7], saves_a=[20, 20], megabeast=MegaBeastInputs(threat_level=8, wounds=6, silhouette_contact=True),
                         rulings={"megabeast_critical": reading})
    assert res.pairs[0].winner == winner and res.megabeast.wounds_lost == wounds
    assert res.megabeast.prevailed == (reading == "must_exceed")
    assert res.rulings["megabeast_critical"] == reading
    # the die is drawn as rolled (a Critical); it is compared as a plain success under must_exceed
    assert res.pairs[0].a.dice[0].critical
    assert res.pairs[0].comparison.a[0].critical == (reading == "critical_wins")


def test_megabeast_equal_reading_decides_the_threat_levels_fate():
    a = SideInputs("A", skill="close_combat_attack", attribute=12, burst=1)
    mb = MegaBeastInputs(threat_level=9, wounds=6, silhouette_contact=True)
    tie = resolve_inputs(a, None, [9], saves_a=[20], megabeast=mb, rulings={"megabeast_equal": "tie"})
    prevails = resolve_inputs(a, None, [9], saves_a=[20], megabeast=mb,
                              rulings={"megabeast_equal": "megabeast_prevails"})
    assert tie.pairs[0].result == "tie" and tie.pairs[0].comparison.b_cancelled_by == ((0,),)
    assert prevails.pairs[0].winner == "MegaBeast" and prevails.pairs[0].comparison.b_survives == (True,)
    _, links = tray_model(tie, a, None, mb)
    assert [(l.mutual, {l.src, l.dst}) for l in links] == [(True, {"A.1", "MB"})]
    _, links = tray_model(prevails, a, None, mb)
    assert [(l.src, l.dst, l.mutual) for l in links] == [("MB", "A.1", False)]


def test_widget_fields_name_the_dice_in_engine_errors():
    a, b = SideInputs("A", attribute=14, burst=3), SideInputs("B", attribute=12, burst=2, burst_mod=1)
    with pytest.raises(ValueError, match=r"dice A\[3\].*25 is not a d20 face"):
        resolve_inputs(a, b, [5, 7, 25], [3, 10])
    with pytest.raises(ValueError, match=r"'dice B'.*rolls 2"):
        resolve_inputs(a, b, [5, 7, 9], [3])
    assert dice_counts(a, b) == (3, 2) and dice_counts(SideInputs(skill="evade", burst=4), b) == (1, 2)
    assert dice_counts(a, SideInputs("B", skill="none")) == (3, 0)
    assert dice_counts(a, None, MegaBeastInputs()) == (3, 0)
    # the Saving Roll pool covers every die of the opponent being a Critical: (1 + 1) x 2 for B's N Burst 2
    assert save_pool_sizes(a, b) == (4, 6)


def test_tray_model_links_follow_cancellation():
    a, b = SideInputs("A", attribute=14, burst=3), SideInputs("B", attribute=12, burst=2, burst_mod=1)
    res = resolve_inputs(a, b, [5, 7, 15], [3, 10], saves_a=[20])
    rows, links = tray_model(res, a, b)
    pairs = {(l.src, l.dst) for l in links}
    assert pairs == {("A.1", "B.1"), ("A.2", "B.1"), ("B.2", "A.1"), ("B.2", "A.2")}
    a_row = {d.id: d for d in rows[0].dice}
    assert a_row["A.3"].kind == "failure" and not a_row["A.3"].cancelled
    assert [d.id for d in rows[1].dice if d.survives] == ["B.2"]
    assert rows[2].dice[0].id == "A.s1"  # ids are the engine's marks


def test_equal_results_are_drawn_as_one_mutual_link():
    a, b = SideInputs("A", attribute=12, burst=1), SideInputs("B", attribute=12, burst=1)
    _, links = tray_model(resolve_inputs(a, b, [9], [9]), a, b)
    assert [(l.src, l.dst, l.mutual) for l in links] == [("A.1", "B.1", True)]


def test_an_evade_that_counts_as_idle_rolls_nothing_on_the_tray():
    """Both Miners Evade: B is not attacked, so its Evade ARO counts as Idle (the engine's ruling) and the tray shows
    no die for it; A's Evade is a Normal Roll."""
    a, b = SideInputs("A", skill="evade"), SideInputs("B", skill="evade")
    res = resolve_inputs(a, b, [5], [6])
    assert res.miners["B"].skill == "idle" and res.pairs[0].kind == "normal_evade"
    rows, links = tray_model(res, a, b)
    assert rows[1].dice == [] and "no roll" in rows[1].sublabel and links == []


# ------------------------------------------------------------------ parsing

def test_parse_whole_and_faces_messages_name_the_field():
    assert parse_whole(" +3 ", "A.Range MOD", -12, 12) == 3
    with pytest.raises(ValueError, match=r"A.Burst.*'twelve' is not a whole number.*0 to 20"):
        parse_whole("twelve", "A.Burst", 0, 20)
    assert parse_faces("5, 7 15", "dice A") == [5, 7, 15]
    with pytest.raises(ValueError, match=r"dice A\[2\].*25 is not a d20 face"):
        parse_faces("5, 25", "dice A")


# ------------------------------------------------------------------ the widget

@pytest.fixture
def w():
    return explorer_for_scenario()


def test_default_scenario_opens_with_the_book_example(w):
    assert w.message.value == ""
    assert w.resolution.pairs[0].winner == "Tāfāng" and w.trace.outcome["wounds"] == {"StoneBreaker": 1, "Tāfāng": 0}
    assert w.trace is w.resolution.trace
    assert "B wins" in w.summary.value
    assert w.stepper.trace is w.trace and len(w.trace.steps) > 5


def test_bad_text_shows_message_keeps_input_and_last_drawing(w):
    before = w.resolution
    w.form_a.burst.value = "twelve"
    assert "A.Burst" in w.message.value and "not a whole number" in w.message.value
    assert w.form_a.burst.value == "twelve" and w.resolution is before
    w.form_a.burst.value = "4"
    assert w.message.value == "" and len(w.resolution.active.dice) == 4


def test_bad_face_shows_message_and_keeps_text(w):
    w.form_b.dice.value = "25"
    assert "dice B[1]" in w.message.value and "25 is not a d20 face" in w.message.value
    assert w.form_b.dice.value == "25"
    w.form_b.dice.value = "12"
    assert w.message.value == "" and w.resolution.miner("B").dice[0].critical


def test_wrong_number_of_dice_is_explained(w):
    w.form_a.dice.value = "3, 7"
    assert "dice A" in w.message.value and "rolls 3" in w.message.value


def test_set_die_rejects_out_of_range(w):
    w.set_die("A.1", 25)
    assert "A.1" in w.message.value and "1 to 20" in w.message.value
    w.set_die("Z.9", 3)
    assert "no die" in w.message.value


def test_click_picks_a_die_and_the_picker_sets_any_face_in_one_go(w):
    """Issue #12: a die is set by typing or picking its face, not by 19 clicks of +1."""
    w.set_die("B.1", 3)
    x, y, s = w.tray.placed["B.1"]
    w.tray._handle_click(x + s / 2, y + s / 2)
    assert w.tray.picked == "B.1" and w.tray.picker.layout.visibility == "visible"
    assert w.tray.face_buttons.value == "3" and w.tray.face_text.value == "3"
    assert w.resolution.miner("B").dice[0].face == 3  # a click alone changes nothing
    w.tray.face_buttons.value = "2"
    assert w.resolution.miner("B").dice[0].face == 2 and w.form_b.dice.value == "2"
    assert w.tray.picked == "B.1" and w.tray.face_text.value == "2"  # the picker stays on the die
    w.tray.face_text.value = "17"
    assert w.resolution.miner("B").dice[0].face == 17 and w.tray.face_buttons.value == "17"
    w.tray.face_text.value = "25"  # not a face: the die keeps 17, the picker says why
    assert w.resolution.miner("B").dice[0].face == 17 and "not a face" in w.tray.picker_label.value
    ax, ay, a_s = w.tray.placed["A.1"]
    w.tray.canvas._touch_start_callbacks([(ax + a_s / 2, ay + a_s / 2)])  # a tap picks too
    assert w.tray.picked == "A.1"


def test_burst_change_keeps_existing_dice_and_changes_the_odds(w):
    before = float(w.odds.p_a_wins)
    w.form_a.burst.value = "5"
    assert [d.face for d in w.resolution.active.dice[:3]] == [3, 7, 10]
    assert float(w.odds.p_a_wins) > before
    w.form_a.burst.value = "1"
    assert [d.face for d in w.resolution.active.dice] == [3]


def test_rulings_flip_changes_reading_in_the_trace(w):
    w.form_a.attribute.value = "25"
    w.form_a.dice.value = "3, 7, 18"
    assert w.trace.rulings.get("sv_above_20") == "literal"
    assert not any(d.critical for d in w.resolution.active.dice)
    w.ruling_inputs["sv_above_20"].value = "excess_to_die"
    assert w.trace.rulings.get("sv_above_20") == "excess_to_die"
    assert [d.critical for d in w.resolution.active.dice] == [False, False, True]


def test_megabeast_mode_and_back(w):
    w.megabeast_mode.value = True
    assert w.resolution.pairs[0].megabeast and w.form_b.layout.display == "none"
    assert "MegaBeast" in w.odds_summary.value
    w.form_mb.threat.value = "20"
    assert w.resolution.megabeast.prevailed and "prevails" in w.summary.value
    w.megabeast_mode.value = False
    assert w.resolution.pairs[0].kind == "face_to_face" and w.resolution.megabeast is None


def test_roll_button_rerolls_reproducibly():
    w1, w2 = FaceToFaceExplorer(seed=5), FaceToFaceExplorer(seed=5)
    w1._on_roll()
    w2._on_roll()
    assert w1.seed.value == "6" and w1.form_a.dice.value == w2.form_a.dice.value


def test_scenario_round_trip(w):
    from explorer.games.tagraid.model import parse_scenario

    a, b, _ = w.inputs
    doc = scenario_data(a, b, [3, 7, 10], [11], [5], [], rulings={})
    back = inputs_from_scenario(parse_scenario(doc))
    assert back["a"] == a and back["b"] == b
    assert back["dice_a"] == [3, 7, 10] and back["dice_b"] == [11]


sides = st.fixed_dictionaries({
    "attribute": st.integers(0, 24), "burst": st.integers(0, 5), "damage": st.integers(0, 20),
    "ammunition": st.sampled_from(["N", "DA", "EXP", "AP"]), "armor": st.integers(0, 10), "wounds": st.integers(1, 4),
    "partial_cover": st.booleans(), "armor_zero": st.booleans(), "ranged_attack_minus_3": st.booleans(),
    "range": st.integers(-3, 3)})


def _side_text(form, d, skill):
    form.skill.value = skill
    for attr in ("attribute", "burst", "damage", "armor", "wounds"):
        getattr(form, attr).value = str(d[attr])
    form.range_mod.value = f"{d['range']:+d}"
    form.ammunition.value = d["ammunition"]
    form.partial_cover.value = d["partial_cover"]
    form.armor_zero.value = d["armor_zero"]
    form.ra_minus_3.value = d["ranged_attack_minus_3"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sa=sides, sb=sides, skill_a=st.sampled_from(["ranged_attack", "close_combat_attack", "evade"]),
       skill_b=st.sampled_from(["ranged_attack", "close_combat_attack", "evade", "none"]),
       seed=st.integers(0, 10**6), sv20=st.sampled_from(["literal", "excess_to_die"]),
       megabeast=st.booleans(), threat=st.integers(0, 20), contact=st.booleans(),
       mb_rulings=st.tuples(st.sampled_from(["must_exceed", "critical_wins"]),
                            st.sampled_from(["megabeast_prevails", "tie"])))
def test_the_tray_draws_exactly_the_engines_resolution(sa, sb, skill_a, skill_b, seed, sv20, megabeast, threat,
                                                       mb_rulings, contact):
    """Drive the widget like a user (random inputs, seeded dice), then resolve the same inputs and dice with the
    engine directly: the widget's Resolution, and what the DiceTray received (every die's face, kind, survives /
    cancelled, every link, every Saving Roll die), are exactly the engine's."""
    from explorer.games.tagraid.model import parse_scenario
    from explorer.games.tagraid.resolve import resolve_detailed

    w = FaceToFaceExplorer(seed=seed)
    w.ruling_inputs["sv_above_20"].value = sv20
    w.ruling_inputs["megabeast_critical"].value, w.ruling_inputs["megabeast_equal"].value = mb_rulings
    _side_text(w.form_a, sa, skill_a)
    _side_text(w.form_b, sb, skill_b)
    w.megabeast_mode.value = megabeast
    w.form_mb.threat.value = str(threat)
    w.contact.value = contact
    assert w.message.value == "", w.message.value
    a, b, mb = w.inputs
    assert (a.skill, a.attribute, a.burst) == (skill_a, sa["attribute"], sa["burst"])
    doc = scenario_data(a, None if mb else b, w._dice["A"], w._dice["B"], w._dice["SA"], w._dice["SB"],
                        megabeast=mb, rulings=w.rulings(), title=w.trace.title)
    res = resolve_detailed(parse_scenario(doc), rulings=w.rulings())
    assert res.trace.to_dict() == w.trace.to_dict()
    assert res.pairs == w.resolution.pairs and res.saving_rolls == w.resolution.saving_rolls
    assert res.miners == w.resolution.miners and res.megabeast == w.resolution.megabeast
    # what the DiceTray received
    rows, links = w.tray.state.rows, w.tray.state.links
    engine_dice = {i: d for m in res.miners.values() for p in m.pools for i, d in zip(p.ids, p.dice)}
    states = die_states(res)
    drawn = {d.id: d for r in rows for d in r.dice}
    for die_id, d in engine_dice.items():
        v = drawn.pop(die_id)
        survives, by = states.get(die_id, (False, ()))
        assert (v.face, v.kind, v.survives, v.cancelled) == (d.face, d.kind, survives, bool(by))
    if mb is not None:
        v = drawn.pop("MB")
        assert v.face == res.megabeast.threat_level and v.survives == res.megabeast.prevailed
    saves = {x.id: x for s in res.saving_rolls for x in s.dice}
    for die_id, x in saves.items():
        v = drawn.pop(die_id)
        assert (v.face, v.bad) == (x.face, x.failed)
    assert drawn == {}  # nothing drawn that the engine did not resolve
    cancels = {(src, dst) for dst, (_, by) in states.items() for src in by}
    assert {(l.src, l.dst) for l in links} | {(l.dst, l.src) for l in links if l.mutual} == cancels
    # the engine's verdict on every compared die agrees with its own comparison
    for pair in res.pairs:
        if pair.comparison is not None and pair.a is not None and pair.b is not None:
            assert len(pair.comparison.a) == len(pair.a.dice) and len(pair.comparison.b) == len(pair.b.dice)
    # the odds feed used the engine's Success Values and Attack Damage
    specs = w.odds_specs
    assert specs[0].sv == (res.active.sv.value if res.active.sv else 0) and specs[0].burst == len(res.active.dice)
    if mb is None:
        pair = res.pairs[0] if res.pairs else None
        rea = res.miner("B")
        for spec, m in zip(specs, (res.active, rea)):
            ad = pair.attack_damage.get(m.name) if pair else None
            assert spec.attack_damage == (ad.value if ad else None)
            assert spec.sv == (m.sv.value if m.sv else 0) and spec.burst == len(m.dice)


def test_widget_odds_are_the_exact_engine_for_the_same_sides(w):
    from explorer.games.tagraid.odds import SideSpec, face_to_face

    # book example: SV 12 each (12 +3 Long Range -3 Partial Cover), Burst 3 vs ARO 1, AD 13 - 4 - 3 = 6, 3 Wounds
    ref = face_to_face(SideSpec(12, 3, 6, "N", 3), SideSpec(12, 1, 6, "N", 3), rulings=w.rulings())
    assert w.odds.p_a_wins == ref.p_a_wins and w.odds.wounds_to_b == ref.wounds_to_b
    assert f"{100 * ref.p_a_wins:.1f}%" in w.odds_summary.value


_FIELDS = ["attribute", "burst", "range_mod", "tools_mod", "damage", "armor", "wounds", "dice", "saves"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.sampled_from(["A", "B"]), st.sampled_from(_FIELDS),
                                st.one_of(st.text(max_size=6), st.integers(-40, 40).map(str),
                                          st.lists(st.integers(-2, 25), max_size=6).map(
                                              lambda xs: ", ".join(map(str, xs))))),
                      min_size=1, max_size=6),
       megabeast=st.booleans())
def test_any_typing_never_raises_and_either_resolves_or_explains(edits, megabeast):
    w = FaceToFaceExplorer(seed=3)
    w.megabeast_mode.value = megabeast
    for side, field, text in edits:
        form = w.form_a if side == "A" else w.form_b
        getattr(form, field).value = text  # must not raise
        kept = getattr(form, field).value
        if field == "saves" and kept != text:
            # valid Saving Roll faces are kept, and the pool is topped up with rolled dice when more are needed
            assert parse_faces(kept, "x")[:len(parse_faces(text, "x"))] == parse_faces(text, "x")
        else:
            assert kept == text  # the user's text is kept
    if w.message.value:
        assert "Input not accepted" in w.message.value or "disagree" not in w.message.value
        assert "internal error" not in w.message.value
    else:
        assert w.resolution is not None and w.trace is w.resolution.trace


@pytest.mark.parametrize("reading", ["tie", "megabeast_prevails"])
def test_equal_die_beside_a_winning_die_follows_the_reading(reading):
    """A's 9 beats Threat Level 8 either way; its 8 ties with it (dashed, both cancelled) or is beaten by it (an
    arrow from the Threat Level), as the engine's comparison says, and the trace names the reading used."""
    a = SideInputs("A", skill="close_combat_attack", attribute=15, burst=3, ammunition="EXP")
    mb = MegaBeastInputs(threat_level=8, wounds=6, silhouette_contact=True)
    res = resolve_inputs(a, None, [3, 9, 8], saves_a=[20], megabeast=mb, rulings={"megabeast_equal": reading})
    assert res.pairs[0].winner == "A" and res.megabeast.wounds_lost == 3
    assert res.rulings["megabeast_equal"] == reading
    assert res.pairs[0].comparison.b_cancelled_by == (((1, 2),) if reading == "tie" else ((1,),))
    _, links = tray_model(res, a, None, mb)
    drawn = {(l.src, l.dst, l.mutual) for l in links}
    assert ("A.2", "MB", False) in drawn and ("MB", "A.1", False) in drawn
    assert (("A.3", "MB", True) in drawn or ("MB", "A.3", True) in drawn) == (reading == "tie")
    assert (("MB", "A.3", False) in drawn) == (reading != "tie")


@pytest.mark.parametrize("skill", ["evade", "close_combat_attack"])
def test_range_mod_greyed_and_ignored_when_skill_is_not_ranged_attack(skill):
    """Range MODs only modify Ranged Attacks (Rolls › Modifiers (MOD); Range Ruler): the engine ignores them in a
    cited step and the widget greys the input out (its value is kept for when the Skill goes back)."""
    w = FaceToFaceExplorer(seed=3)
    w.form_b.range_mod.value = "+3"
    assert not w.form_b.range_mod.disabled and w.resolution.miner("B").sv.value == 15
    w.contact.value = skill == "close_combat_attack"  # its Requirement (A's Ranged Attack then counts as Idle)
    w.form_b.skill.value = skill
    assert w.form_b.range_mod.disabled and w.form_b.range_mod.value == "+3"
    sv = w.resolution.miner("B").sv
    assert "Range" not in dict(sv.mods) and sv.value == 12 and "Range" not in w.form_b.sv.value
    assert any("Range MODs apply only to Ranged Attacks" in s.title for s in w.trace.steps)
    w.contact.value = False
    w.form_b.skill.value = "ranged_attack"
    assert not w.form_b.range_mod.disabled and w.resolution.miner("B").sv.value == 15


@pytest.mark.parametrize("mode", ["miner", "megabeast"])
def test_silhouette_contact_checkbox_drives_the_engines_requirements(mode):
    """Close Combat Attack requires Silhouette Contact with its target; a Ranged Attack is not allowed in contact with
    an enemy Miner (Common Skills › Close Combat Attack / Ranged Attack, Requirements): the engine makes the Skill
    Idle, the widget only says whether A and B (or the MegaBeast) touch."""
    w = FaceToFaceExplorer(seed=3)
    assert w.contact.value is False
    w.megabeast_mode.value = mode == "megabeast"
    w.form_a.skill.value = "close_combat_attack"
    assert w.message.value == "" and w.resolution.active.skill == "idle" and w.resolution.active.dice == ()
    assert any("requirement" in s.facts for s in w.trace.steps)
    w.contact.value = True
    assert w.resolution.active.skill == "close_combat_attack" and len(w.resolution.active.dice) == 3
    if mode == "miner":
        w.form_a.skill.value = "ranged_attack"
        assert w.resolution.active.skill == "idle"
        w.form_b.skill.value = "close_combat_attack"
        assert w.resolution.miner("B").skill == "close_combat_attack" and w.resolution.pairs[0].kind == "normal_roll"
        w.contact.value = False
        assert w.resolution.active.skill == "ranged_attack" and w.resolution.miner("B").skill == "idle"


def test_hand_set_dice_survive_skill_and_burst_round_trips(w):
    """Switching Ranged Attack -> Evade -> Ranged Attack, or lowering then raising the Burst, gives back the faces
    the user set (only the first N are shown and used; the rest wait in memory), never re-rolled ones."""
    w.form_a.dice.value = "3, 7, 10"
    w.form_a.skill.value = "evade"
    assert w.form_a.dice.value == "3" and [d.face for d in w.resolution.active.dice] == [3]
    w.form_a.skill.value = "ranged_attack"
    assert w.form_a.dice.value == "3, 7, 10" and [d.face for d in w.resolution.active.dice] == [3, 7, 10]
    w.form_a.burst.value = "1"
    w.form_a.burst.value = "2"
    w.form_a.burst.value = "3"
    assert w.form_a.dice.value == "3, 7, 10"
    w.form_b.dice.value = "11"
    w.form_b.burst_mod.value = "+3"   # the ARO's dice follow its Burst MOD (Burst 1 otherwise), not the Weapon's
    b4 = w.form_b.dice.value
    assert b4.startswith("11, ") and b4.count(",") == 3
    w.form_b.burst_mod.value = "0"
    w.form_b.burst_mod.value = "+3"
    assert w.form_b.dice.value == b4


def test_save_pool_stays_bounded_to_what_the_inputs_may_need(w):
    from explorer.games.tagraid.exchange import save_pool_sizes

    for burst in ["5", "1", "5", "2", "5", "1", "3"] * 3:
        w.form_a.burst.value = burst
        w.form_b.burst.value = burst
        a, b, mb = w.inputs
        need_a, need_b = save_pool_sizes(a, b, mb)
        assert len(w._dice["SA"]) == need_a and len(w._dice["SB"]) == need_b
        assert len(w.form_a.saves.value.split(",")) == need_a
    # the Saving Roll dice set aside come back too
    w.form_a.burst.value = "3"
    w.form_b.saves.value = "1, 2, 3"
    first = w.form_b.saves.value
    w.form_a.burst.value = "1"
    w.form_a.burst.value = "3"
    assert w.form_b.saves.value == first


def test_typed_saving_roll_faces_stay_in_the_field_even_when_fewer_are_needed(w):
    """Found by the typing property: in MegaBeast mode B makes no Saving Rolls, yet what the user typed stays."""
    w.megabeast_mode.value = True
    w.form_b.saves.value = "1"
    assert w.form_b.saves.value == "1"
    w.megabeast_mode.value = False
    w.form_a.saves.value = "5, 17, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3"   # more than this exchange can need
    assert w.form_a.saves.value == "5, 17, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3"
    assert [s.face for s in w.resolution.saves_of(w.resolution.active.name)[0].dice] == [5]  # the first needed


# ------------------------------------------------------------------ the step-through draws from the kernel frames


def test_stepping_draws_the_tray_from_each_steps_kernel_frame(w):
    res = w.resolution
    assert res.frames and w.stepper.trace.steps == [s for f in res.frames for s in f.steps]
    whole = (w.tray.state.rows, w.tray.state.links)
    assert whole[1], "the book example cancels dice"
    w.stepper.select(0)              # the Active Miner's Requirements: nothing compared yet
    first = w.tray.state
    assert first.links == [] and not any(d.survives or d.cancelled for r in first.rows for d in r.dice)
    assert [d.id for r in first.rows for d in r.dice][:3] == [d.id for d in whole[0][0].dice][:3]
    last = len(w.stepper.trace.steps) - 1
    w.stepper.select(last)           # the last step: the whole exchange again, the step's dice ringed
    assert (w.tray.state.rows, w.tray.state.links) == whole
    assert w.tray.state.highlight == frozenset(w.stepper.trace.steps[last].marks)
    # the step that compares the dice: its frame's pairs, so the links appear there and not before
    at = next(i for i, s in enumerate(w.stepper.trace.steps) if s.section and "Face to Face" in s.title + s.section)
    w.stepper.select(at)
    assert w.tray.state.links == whole[1]
    w.stepper.select(None)
    assert (w.tray.state.rows, w.tray.state.links) == whole and w.tray.state.highlight == frozenset()


def _roll_builtins():
    from explorer.games import get_game

    g = get_game("tagraid")
    return [n for n in g.builtin_names() if g.load_builtin(n).kind == "roll"]


@pytest.mark.parametrize("name", _roll_builtins())
def test_the_last_frame_is_the_whole_resolution(name):
    from explorer.games.tagraid.resolve import resolve_detailed
    from explorer.games.tagraid.scenarios import load_scenario

    res = resolve_detailed(load_scenario(name))
    end = res.at(res.frames[-1].state)
    assert end.pairs == res.pairs and end.saving_rolls == res.saving_rolls and dict(end.miners) == dict(res.miners)
    assert end.megabeast == res.megabeast
    start = res.at(res.frames[0].state)
    assert start.pairs == () and start.saving_rolls == () and all(m.wounds_lost == 0 for m in start.miners.values())


def test_every_refused_field_is_named_right_under_it_and_all_are_listed():
    """Issue 23 item 4 (every bad field's message next to the field, all bad fields listed): a bad Range MOD and a
    bad Burst each get their refusal on the line under their own field (a phone shows it where the finger typed),
    and the page's message lists both; a corrected field's line goes away, the other stays."""
    from explorer.games.tagraid.views import _FIELD_CSS, FIELD_NOTE_CLASS, explorer_for_scenario

    assert f".{FIELD_NOTE_CLASS}{{grid-column:1 / -1}}" in _FIELD_CSS   # the note runs across both columns

    w = explorer_for_scenario()
    shown = lambda form: {k: n.value for k, n in form.field_notes.items() if n.layout.display != "none"}
    assert shown(w.form_a) == {} and shown(w.form_b) == {}
    w.form_a.range_mod.value = "zz"
    w.form_a.burst.value = "99"
    notes = shown(w.form_a)
    assert set(notes) == {"range_mod", "burst"}
    assert "&#x27;zz&#x27; is not a whole number" in notes["range_mod"] and "99 is out of range" in notes["burst"]
    assert "zz" in w.message.value and "99 is out of range" in w.message.value
    grid = w.form_a.grid.children
    for attr in ("range_mod", "burst"):   # the note is the grid cell right after its field, across both columns
        note = w.form_a.field_notes[attr]
        assert grid[grid.index(getattr(w.form_a, attr)) + 1] is note
        assert FIELD_NOTE_CLASS in note._dom_classes
    w.form_a.range_mod.value = "+1"
    assert set(shown(w.form_a)) == {"burst"} and "99 is out of range" in w.message.value
    w.form_mb.threat.value = "x"
    w.form_mb.read([])
    assert set(shown(w.form_mb)) == {"threat"}
