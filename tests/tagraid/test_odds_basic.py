"""Exact odds engine: anchors, worked examples and handed rulings (TAG Raid)."""

from fractions import Fraction as Fr

import pytest

from explorer.errors import ScenarioError
from explorer.games.tagraid.odds import SideSpec, face_to_face, normal_roll, sv_table, versus_megabeast


def test_anchor_burst1_sv12_vs_burst1_sv12():
    r = face_to_face(SideSpec(12, 1), SideSpec(12, 1), exact=True)
    assert (r.p_a_wins, r.p_b_wins, r.p_nobody) == (Fr(162, 400), Fr(162, 400), Fr(76, 400))
    assert sum(r.outcomes.values()) == 1


def test_rulebook_normal_roll_example():
    """Rolls › Normal Roll example: Ranged Attack 12 with a -3 MOD -> SV 9: an 8 succeeds, a 12 fails."""
    r = normal_roll(SideSpec(9, 1), exact=True)
    assert r.p_a_wins == Fr(9, 20) and r.outcomes[("a", 0, 1)] == Fr(1, 20) and r.outcomes[("a", 1, 0)] == Fr(8, 20)


def test_TR05_sv_above_20_both_readings():
    """TR-05 (ambiguous): SV 23, Burst 2, N, Normal Roll."""
    lit = normal_roll(SideSpec(23, 2, 10, "N"), rulings={"sv_above_20": "literal"}, exact=True)
    assert lit.outcomes == {("a", 2, 0): 1}                  # never a Critical, always 2 Saving Rolls
    assert lit.saving_rolls_to_b == [0, 0, 1]
    assert lit.rulings == {"sv_above_20": "literal"}
    exc = normal_roll(SideSpec(23, 2, 10, "N"), rulings={"sv_above_20": "excess_to_die"}, exact=True)
    # faces 17..20 reach 20 with the +3 excess: Criticals; the roll 20 and 17 -> 2 Criticals -> 4 Saving Rolls
    assert exc.outcomes[("a", 0, 2)] == Fr(4, 20) ** 2 and exc.saving_rolls_to_b[4] == Fr(4, 20) ** 2
    assert exc.rulings == {"sv_above_20": "excess_to_die"}


def test_TR07_attack_damage_ap_and_cover_into_wounds():
    """TR-07: Damage 15, AP vs Armor 5 in Partial Cover -> AD 9; 2 hits -> Wounds ~ Binomial(2, 9/20)."""
    from explorer.games.tagraid.rolls import attack_damage
    ad = attack_damage(15, 5, "AP", partial_cover=True).value
    assert ad == 9
    r = normal_roll(SideSpec(21, 2, ad, "AP"), exact=True)       # SV 21 literal: exactly 2 hits, no Criticals
    p = Fr(9, 20)
    assert r.wounds_to_b == [(1 - p) ** 2, 2 * p * (1 - p), p ** 2]


def test_TR09_megabeast_wounds_capped_and_critical_extra_ignored():
    """TR-09: SV 12 vs Threat 5, EXP, 2 Wounds left: any success above 5 gives 3 Wounds, capped to 2."""
    m = versus_megabeast(SideSpec(12, 1, 15, "EXP", 2), 5, exact=True)
    assert m.outcomes[("a", 0, 1)] == Fr(1, 20)               # the 12 is a Critical and wounds
    assert m.wounds_to_b == [Fr(13, 20), 0, Fr(7, 20)]
    uncapped = versus_megabeast(SideSpec(12, 1, 15, "EXP"), 5, exact=True)
    assert len(uncapped.wounds_to_b) == 4                     # 3 Wounds, never 4: Critical extra roll ignored


@pytest.mark.parametrize("reading,p_win", [("must_exceed", 0), ("critical_wins", Fr(1, 20))])
def test_TR10_megabeast_critical_reading(reading, p_win):
    """TR-10 (ambiguous): SV 7 against Threat 8: only the Critical 7 could wound, per the reading."""
    m = versus_megabeast(SideSpec(7, 1, 15, "EXP"), 8, rulings={"megabeast_critical": reading}, exact=True)
    assert m.p_a_wins == p_win and m.p_b_wins == 1 - p_win
    if p_win:
        assert m.wounds_to_b == [Fr(19, 20), 0, 0, Fr(1, 20)]
    assert m.rulings["megabeast_critical"] == reading


def test_megabeast_equal_reading():
    """A success equal to the Threat Level: MegaBeast prevails (default) or a tie."""
    prevail = versus_megabeast(SideSpec(12, 1, 15), 8, exact=True)
    tie = versus_megabeast(SideSpec(12, 1, 15), 8, rulings={"megabeast_equal": "tie"}, exact=True)
    assert prevail.p_nobody == 0 and prevail.p_b_wins == Fr(16, 20)
    assert tie.p_nobody == Fr(1, 20) and tie.p_b_wins == Fr(15, 20) and tie.p_a_wins == prevail.p_a_wins


def test_TR13_wounds_capped_at_wounds_left():
    """TR-13: 1 Wound left, an EXP hit whose 3 Saving Rolls all fail -> only 1 Wound lost."""
    r = normal_roll(SideSpec(21, 1, 20, "EXP", 1), exact=True)   # always 1 hit, every Saving Roll fails
    assert r.saving_rolls_to_b == [0, 0, 0, 1] and r.wounds_to_b == [0, 1]


def test_TR17_evade_critical_beats_every_non_critical():
    """TR-17: Evade 12 - 3 = 9; a 9 is a Critical and wins unless the attacker rolls a Critical (SV 13)."""
    from explorer.games.tagraid.odds import evade
    m = evade(9, [SideSpec(13, 3, 10)], exact=True)
    f = face_to_face(SideSpec(9, 1), SideSpec(13, 3, 10), exact=True)
    assert f.outcomes[("a", 0, 1)] == Fr(1, 20) * Fr(19, 20) ** 3
    assert m.p_focus_wins_all == f.p_a_wins


def test_sv_table_shape_and_anchor():
    t = sv_table(1, 1, exact=True)
    assert t.cell(12, 12) == (Fr(162, 400), Fr(162, 400), Fr(76, 400))
    assert len(t.win_a) == 20 and all(len(row) == 20 for row in t.win_a)
    with pytest.raises(ScenarioError, match="burst_a"):
        sv_table(-1, 1)


def test_to_dict_is_json_friendly():
    import json
    d = face_to_face(SideSpec(12, 2, 9, "DA", 2), SideSpec(14, 1, 8), exact=True).to_dict()
    text = json.dumps(d)
    assert '"p_a_wins": "' in text and all("/" in x or x in ("0", "1") for x in d["wounds_to_b"])
    f = face_to_face(SideSpec(12, 2, 9, "DA", 2), SideSpec(14, 1, 8)).to_dict()
    assert isinstance(f["p_a_wins"], float) and json.loads(json.dumps(f))["outcomes"][0]["winner"] == "a"
