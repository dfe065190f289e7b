"""Regression tests for defects a tester found in the resolution engine's rules and trace texts."""

import pytest

from explorer.games.tagraid import sections as S
from explorer.games.tagraid.options import ALL_OPTIONS
from explorer.games.tagraid.resolve import resolve_detailed
from explorer.games.tagraid.scenarios import list_scenarios, load_scenario

from engine_helpers import build, miner

SCENARIOS = [s["name"] for s in list_scenarios()]
READINGS = [{}] + [{o.key: r} for o in ALL_OPTIONS for r in o.readings]


# ---------------------------------------------------------------- Wounds steps name who loses them (Death; Neomaterials)


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_wounds_step_names_the_miner_that_lost_them(name):
    sc = load_scenario(name)
    for rulings in READINGS:
        res = resolve_detailed(sc, rulings=rulings)
        lost = {m.name: m.wounds_lost for m in res.miners.values()}
        if res.megabeast:
            lost[res.megabeast.name] = res.megabeast.wounds_lost
        for st in res.trace.steps:
            if st.section != "Wounds and Neomaterials" or "wounds" not in st.facts:
                continue
            loser = st.facts.get("target", res.megabeast.name if res.megabeast else None)
            assert st.facts["wounds"] == 0 or lost[loser] > 0, (name, st.title)
            assert st.title.startswith(f"{loser} loses "), (name, rulings, st.title)
            cause = st.facts.get("attacker")
            if cause:
                assert f" to {cause}" in st.title or f"{cause}'s player" in st.title, st.title


# ---------------------------------------------------------------- against the Threat Level, say which rule won (MegaBeast › Threat Level; Rolls › Criticals)


@pytest.mark.parametrize("reading", ["must_exceed", "critical_wins"])
@pytest.mark.parametrize("faces,sv,tl", [([7], 7, 8), ([12, 12], 12, 12), ([12, 13], 12, 12), ([9, 12, 3], 12, 10),
                                          ([5, 10], 10, 10), ([11, 4], 11, 4)])
def test_threat_level_steps_never_say_a_die_exceeds_when_it_does_not(reading, faces, sv, tl):
    w = {"name": "Drill", "damage": 14, "burst": len(faces), "ammunition": "N"}
    sc = build(miner("A", attribute=sv, weapon=w, attacks=[{"target": "MB", "dice": faces}], save_dice=[20]),
               megabeast={"name": "MB", "threat_level": tl, "wounds": 10})
    res = resolve_detailed(sc, rulings={"megabeast_critical": reading})
    pool = res.active.pools[0]
    eff = dict(zip(pool.ids, (d.effective for d in pool.dice)))
    won = [i for i, s in zip(pool.ids, res.pairs[0].comparison.a_survives) if s]
    said = set()
    for st in res.trace.steps:
        if st.section != "Face to Face Rolls":
            continue
        ids = [m for m in st.marks if m in eff]
        claims_exceed = (" exceed" in st.title and not any(w in st.title for w in ("not exceed", "no success",
                                                                                   "not by exceeding")))
        if claims_exceed:
            assert all(eff[i] > tl for i in ids), st.title
        if "as a Critical" in st.title:
            assert reading == "critical_wins" and all(eff[i] <= tl for i in ids), st.title
        if claims_exceed or "as a Critical" in st.title:
            said |= set(ids)
    # every winning die is said to win, by exceeding or (critical_wins) as a Critical
    assert set(won) <= said


# ---------------------------------------------------------------- each cancel step gives the reason that fits its dice (Rolls › Face to Face Rolls)


def _f2f_reasons(res):
    dice = {i: d for p in (q for m in res.miners.values() for q in m.pools) for i, d in zip(p.ids, p.dice)}
    for st in res.trace.steps:
        if st.section != "Face to Face Rolls":
            continue
        if "canceller" in st.facts:
            c, vs = dice[st.facts["canceller"]], [dice[i] for i in st.facts["cancelled"]]
            yield st, c, vs
        elif "discarded" in st.facts:
            yield st, None, [dice[i] for i in st.facts["discarded"]]


def test_tr03_non_critical_is_discarded_not_cancelled_by_criticals():
    res = resolve_detailed(load_scenario("tr-03"))
    disc = [s for s in res.trace.steps if "discarded" in s.facts]
    assert len(disc) == 1 and disc[0].facts["discarded"] == ["A.3"] and disc[0].rule == S.FACE_TO_FACE
    assert "discarded" in disc[0].title and "Critical" in disc[0].title
    for st, c, vs in _f2f_reasons(res):
        if c is not None:
            assert "A.3" not in st.facts["cancelled"], st.title


@pytest.mark.parametrize("fa,fb", [([13, 13, 2], [10]), ([13, 5], [10, 3]), ([9, 9, 4], [9, 2]), ([13, 12], [12]),
                                   ([8, 8, 3], [8, 8]), ([1, 2, 3], [13])])
def test_cancel_step_reasons_match_the_dice(fa, fb):
    w = dict(name="Rifle", damage=13, burst=len(fa), ammunition="N")
    sc = build(miner("A", attribute=13, weapon=w, attacks=[{"target": "B", "dice": fa}], save_dice=[20] * 9),
               [miner("B", attribute=10, burst_mod=len(fb) - 1, dice=fb, save_dice=[20] * 9)])
    res = resolve_detailed(sc)
    both_crit = any(d.critical for d in res.miner("A").dice) and any(d.critical for d in res.miner("B").dice)
    for st, c, vs in _f2f_reasons(res):
        why = st.detail
        if c is None:
            assert both_crit and all(not v.critical for v in vs)
        elif why.startswith("Criticals cancel"):
            assert c.critical and all(v.critical for v in vs)
        elif why.startswith("A Critical cancels"):
            assert c.critical and not both_crit and all(not v.critical for v in vs)
        elif why.startswith("Equal"):
            assert not c.critical and all(v.key == c.key for v in vs)
        else:
            assert not c.critical and all(v.key < c.key for v in vs), st.title


# ---------------------------------------------------------------- the text trace says where each roll's dice came from (docs/scenario-format.md)


def _roll_steps(t):
    return [s for s in t.steps if "dice" in s.facts and s.section in ("Rolls", "Saving Rolls")]


@pytest.mark.parametrize("name", SCENARIOS)
def test_text_trace_says_given_or_rolled_with_seed(name):
    sc = load_scenario(name)
    for s in _roll_steps(resolve_detailed(sc).trace):
        want = "(dice given)" if s.facts["source"] == "given" else f"(rolled, seed {sc.seed})"
        assert s.title.endswith(want), s.title
    from explorer.dice import SeededRoller
    for s in _roll_steps(resolve_detailed(sc, roller=SeededRoller(4)).trace):
        assert s.title.endswith("(rolled, seed 4)") and s.facts["source"] == "rolled", s.title


def test_no_seed_draws_one_and_names_it_so_the_roll_replays():
    import re
    sc = build(miner("A", "evade", dice=None), seed=None)
    t = resolve_detailed(sc).trace
    (step,) = _roll_steps(t)
    seed = int(re.search(r"\(rolled, seed (\d+)\)$", step.title).group(1))
    again = resolve_detailed(sc.model_copy(update={"seed": seed})).trace
    assert [d["face"] for d in _roll_steps(again)[0].facts["dice"]] == [d["face"] for d in step.facts["dice"]]


# ---------------------------------------------------------------- a Burst below 0 is floored at 0 in a cited step (Skills and Tools › Tools)


def test_negative_aro_burst_is_a_cited_step_and_rolls_nothing():
    sc = build(miner("A", attacks=[{"target": "B", "dice": [3, 7, 10]}], save_dice=[20]),
               [miner("B", burst_mod=-5, save_dice=[20] * 3)])
    res = resolve_detailed(sc)
    (st,) = [s for s in res.trace.steps if "burst_before_floor" in s.facts]
    assert st.facts == {**st.facts, "burst_before_floor": -4, "burst": 0, "field": "reactive[0].burst_mod"}
    assert st.rule == S.TOOLS and "no dice" in st.title and st.section == "Declarations"
    assert res.miner("B").dice == () and res.pairs[0].kind == "normal_roll"


def test_negative_active_burst_is_a_cited_step():
    sc = build(miner("A", burst_mod=-5, attacks=[{"target": "B", "burst": 0}]), [miner("B", "evade", dice=[4])])
    res = resolve_detailed(sc)
    (st,) = [s for s in res.trace.steps if "burst_before_floor" in s.facts]
    assert st.facts["field"] == "active.burst_mod" and st.facts["burst_before_floor"] == -2
    assert res.active.dice == ()


def test_burst_at_exactly_zero_needs_no_floor_step():
    sc = build(miner("A", attacks=[{"target": "B", "dice": [3, 7, 10]}], save_dice=[20]),
               [miner("B", burst_mod=-1, save_dice=[20] * 3)])
    assert not [s for s in resolve_detailed(sc).trace.steps if "burst_before_floor" in s.facts]


# ---------------------------------------------------------------- Range MODs only modify Ranged Attacks (Rolls › Modifiers (MOD); Range Ruler; Tools)


@pytest.mark.parametrize("skill", ["evade", "close_combat_attack"])
def test_range_mod_is_ignored_with_a_cited_step_on_other_skills(skill):
    kw = dict(dice=[5]) if skill == "evade" else dict(dice=[5], silhouette_contact=True)
    sc = build(miner("A", attacks=[{"target": "B", "dice": [3, 7, 10]}], save_dice=[20] * 3),
               [miner("B", skill, mods={"Range": 3, "Tool": 1}, save_dice=[20] * 3, **kw)])
    res = resolve_detailed(sc)
    b = res.miner("B")
    assert b.sv.value == 13 and dict(b.sv.mods) == {"Tool": 1}
    (st,) = [s for s in res.trace.steps if "ignored_mods" in s.facts]
    assert st.rule == S.RANGE_RULER and st.facts["ignored_mods"] == {"reactive[0].mods.Range": 3}
    assert "Range MODs apply only to Ranged Attacks" in st.title


def test_range_mods_on_active_close_combat_and_evade_are_ignored():
    cc = build(miner("A", "close_combat_attack", mods={"Long Range": 3},
                     attacks=[{"target": "B", "dice": [3, 7, 10], "mods": {"Out of Range": -3, "Aim": 2}}]),
               [miner("B", "none", silhouette_contact=True, save_dice=[20] * 3)])
    res = resolve_detailed(cc)
    assert dict(res.active.sv.mods) == {"Aim": 2}
    (st,) = [s for s in res.trace.steps if "ignored_mods" in s.facts]
    assert st.facts["ignored_mods"] == {"active.mods.Long Range": 3, "active.attacks[0].mods.Out of Range": -3}
    ev = build(miner("A", "evade", mods={"Range": 3}, dice=[4]))
    assert resolve_detailed(ev).active.sv.value == 12


def test_range_mod_still_applies_to_ranged_attack_and_ranged_names_are_not_range_mods():
    from explorer.games.tagraid.model import is_range_mod
    assert is_range_mod("Range") and is_range_mod("long range") and is_range_mod("Out of Range")
    assert not is_range_mod("Ranged Attack -3 trait") and not is_range_mod("Arrange")
    sc = build(miner("A", mods={"Range": 3}, attacks=[{"target": "B", "dice": [3, 7, 10]}]),
               [miner("B", "none", partial_cover=True)])
    res = resolve_detailed(sc)
    assert dict(res.active.sv.mods) == {"Range": 3, "Partial Cover": -3}
    assert not [s for s in res.trace.steps if "ignored_mods" in s.facts]


@pytest.mark.parametrize("skill", ["evade", "close_combat_attack"])
def test_partial_cover_and_ranged_attack_trait_only_modify_ranged_attacks(skill):
    kw = dict(dice=[5]) if skill == "evade" else dict(dice=[5], silhouette_contact=True)
    sc = build(miner("A", "close_combat_attack", partial_cover=True, traits=["Ranged Attack -3"],
                     attacks=[{"target": "B", "dice": [3, 7, 10]}], save_dice=[20] * 3),
               [miner("B", skill, partial_cover=True, traits=["Ranged Attack -3"], save_dice=[20] * 3,
                      **{**kw, "silhouette_contact": True})])
    res = resolve_detailed(sc)
    assert dict(res.active.sv.mods) == {} and dict(res.miner("B").sv.mods) == {}


# ---------------------------------------------------------------- Silhouette Contact Requirements (Common Skills › Close Combat Attack / Ranged Attack;
# Order Expenditure Sequence step 5: a Skill failing its Requirements counts as Idle)


def _idle_step(res, letter):
    return [s for s in res.trace.steps if s.section == "Declarations" and s.facts.get("skill") == "idle"
            and letter in s.marks and "requirement" in s.facts]


def test_ranged_attack_against_a_close_combat_aro_in_contact():
    """A shoots B while B strikes back in Close Combat: in contact, A's Ranged Attack is Idle (B hits unopposed);
    out of contact, B's Close Combat ARO is Idle (A hits unopposed). Never a Face to Face Roll."""
    def sc(contact):
        return build(miner("A", attacks=[{"target": "B", "dice": [3, 7, 10]}], save_dice=[20] * 3),
                     [miner("B", "close_combat_attack", dice=[4], silhouette_contact=contact, save_dice=[20] * 3)])
    near = resolve_detailed(sc(True))
    assert near.active.skill == "idle" and near.miner("B").skill == "close_combat_attack"
    (st,) = _idle_step(near, "A")
    assert st.rule == S.ORDER_EXPENDITURE_SEQUENCE and "Silhouette Contact with B" in st.facts["requirement"]
    assert near.pairs[0].kind == "normal_roll" and near.pairs[0].winner == "B"
    far = resolve_detailed(sc(False))
    assert far.active.skill == "ranged_attack" and far.miner("B").skill == "idle"
    (st,) = _idle_step(far, "B")
    assert "requires Silhouette Contact" in st.facts["requirement"] and "Close Combat Attack" in st.detail
    assert far.pairs[0].kind == "normal_roll" and far.pairs[0].winner == "A"
    assert all(p.kind != "face_to_face" for r in (near, far) for p in r.pairs)


def test_active_close_combat_needs_contact_with_every_target():
    cc = dict(attacks=[{"target": "B", "dice": [3, 7, 10]}])
    res = resolve_detailed(build(miner("A", "close_combat_attack", **cc), [miner("B", "evade", dice=[5])]))
    assert res.active.skill == "idle" and _idle_step(res, "A") and res.active.dice == ()
    res = resolve_detailed(build(miner("A", "close_combat_attack", **cc),
                                 [miner("B", "evade", dice=[5], silhouette_contact=True)]))
    assert res.active.skill == "close_combat_attack" and res.pairs[0].kind == "face_to_face"
    two = build(miner("A", "close_combat_attack", attacks=[{"target": "B", "burst": 2}, {"target": "C", "burst": 1}]),
                [miner("B", "none", silhouette_contact=True), miner("C", "none")])
    res = resolve_detailed(two)
    assert res.active.skill == "idle" and "with C" in _idle_step(res, "A")[0].facts["requirement"]


def test_close_combat_on_the_megabeast_needs_contact_and_contact_does_not_forbid_shooting_it():
    mb = {"name": "MB", "threat_level": 5, "wounds": 10}
    cc = miner("A", "close_combat_attack", attacks=[{"target": "MB", "dice": [9, 9, 9]}], save_dice=[20])
    assert resolve_detailed(build(cc, megabeast=mb)).active.skill == "idle"
    assert resolve_detailed(build(cc, megabeast={**mb, "silhouette_contact": True})).megabeast.wounds_lost == 3
    ra = miner("A", attacks=[{"target": "MB", "dice": [9, 9, 9]}], save_dice=[20])
    assert resolve_detailed(build(ra, megabeast={**mb, "silhouette_contact": True})).active.skill == "ranged_attack"


def test_ranged_aro_in_contact_with_the_active_miner_is_idle():
    res = resolve_detailed(build(miner("A", "evade", dice=[20]),
                                 [miner("B", dice=[4], silhouette_contact=True, save_dice=[20])]))
    assert res.miner("B").skill == "idle" and _idle_step(res, "B")


def test_close_combat_minus_three_counts_scenario_miners_in_contact():
    """-3 to Close Combat in contact with more than one enemy TAG (Common Skills › Close Combat Attack, MODs),
    counting the Reactive Miners marked in contact; and the same count sets the Evade MOD."""
    def sc(contacts):
        return build(miner("A", "close_combat_attack", attacks=[{"target": "B", "burst": 3, "dice": [1, 1, 1]}]),
                     [miner("B", "none", silhouette_contact=True, save_dice=[20] * 3),
                      miner("C", "none", silhouette_contact=contacts > 1)])
    assert resolve_detailed(sc(1)).active.sv.value == 12
    two = resolve_detailed(sc(2)).active.sv
    assert two.value == 9 and dict(two.mods) == {"Contact with several enemy TAGs": -3}
    ev = build(miner("A", "evade", dice=[5]), [miner("B", "none", silhouette_contact=True),
                                               miner("C", "none", silhouette_contact=True)])
    assert dict(resolve_detailed(ev).active.sv.mods) == {"Evade MOD": -3}


def test_ranged_share_without_lof_is_a_named_ruling():
    """split_burst_without_lof: a Ranged Attack split over B (in LoF) and C (``lof = false``): the whole Skill is
    Idle (default) or only the share at C is lost (Order Expenditure Sequence step 5; Common Skills › Ranged Attack,
    Requirements; Common Skills › Idle). The target whose share is lost is not attacked and its Evade ARO counts
    as Idle, with no "no right to an ARO" after being named a target."""
    two = build(miner("A", "ranged_attack", attacks=[{"target": "B", "burst": 2, "dice": [3, 7]},
                                                     {"target": "C", "burst": 1, "dice": [4], "lof": False}]),
                [miner("B", "none", save_dice=[20, 20]), miner("C", "evade", lof_to_active=False, dice=[5])])
    res = resolve_detailed(two)
    assert res.active.skill == "idle" and res.trace.rulings["split_burst_without_lof"] == "whole_skill_idle"
    assert not res.active.dice and res.miners["C"].skill == "idle"
    req = next(s for s in res.trace.steps if s.facts.get("requirement_failed") and s.facts.get("miner") == "A")
    assert "no LoF to C" in req.detail and req.rule == S.RANGED_ATTACK_REQUIREMENTS
    res = resolve_detailed(two, rulings={"split_burst_without_lof": "share_lost"})
    assert res.active.skill == "ranged_attack" and res.trace.rulings["split_burst_without_lof"] == "share_lost"
    assert [d.face for d in res.active.dice] == [3, 7]                  # only the share at B is rolled
    assert any(s.facts.get("failed_targets") == ["C"] for s in res.trace.steps)
    assert {p.opponent for p in res.pairs if p.a is not None and p.a.dice} == {"B"}
    assert res.miners["C"].skill == "idle"
    assert not any(s.title.startswith("C has no right to an ARO") for s in res.trace.steps)
    # every target out of LoF: Idle whatever the reading, and the option is not consulted (nothing is split)
    blind = build(miner("A", "ranged_attack", attacks=[{"target": "B", "lof": False}]), [miner("B", "none")])
    for rd in ("whole_skill_idle", "share_lost"):
        r = resolve_detailed(blind, rulings={"split_burst_without_lof": rd})
        assert r.active.skill == "idle" and "split_burst_without_lof" not in r.trace.rulings


def test_close_combat_share_out_of_contact_is_a_named_ruling():
    """cc_target_out_of_contact: whole Skill Idle (default) or only the out-of-contact share fails (Common Skills ›
    Close Combat Attack, Requirements; Order Expenditure Sequence step 5)."""
    two = build(miner("A", "close_combat_attack", attacks=[{"target": "B", "burst": 2, "dice": [3, 7]},
                                                           {"target": "C", "burst": 1, "dice": [4]}]),
                [miner("B", "none", silhouette_contact=True), miner("C", "none")])
    res = resolve_detailed(two)
    assert res.active.skill == "idle" and res.trace.rulings["cc_target_out_of_contact"] == "whole_skill_idle"
    res = resolve_detailed(two, rulings={"cc_target_out_of_contact": "share_fails"})
    assert res.active.skill == "close_combat_attack" and res.trace.rulings["cc_target_out_of_contact"] == "share_fails"
    assert [d.face for d in res.active.dice] == [3, 7]                  # only the share at B is rolled
    assert any(s.facts.get("failed_targets") == ["C"] for s in res.trace.steps)
    assert {p.opponent for p in res.pairs if p.a is not None and p.a.dice} == {"B"}
