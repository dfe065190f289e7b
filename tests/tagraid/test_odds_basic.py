"""Exact odds engine: anchors, worked examples and handed rulings (TAG Raid)."""

from fractions import Fraction as Fr

import pytest

from explorer.errors import ScenarioError
from explorer.games.tagraid.odds import SideSpec, face_to_face, normal_roll, sv_table, versus_megabeast


def test_anchor_burst1_sv12_vs_burst1_sv12():
    r = face_to_face(SideSpec(12, 1), SideSpec(12, 1), exact=True)
    assert (r.p_a_wins, r.p_b_wins, r.p_nobody) == (Fr(162, 400), Fr(162, 400), Fr(76, 400))
    assert sum(r.outcomes.values()) == 1
