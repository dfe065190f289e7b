"""Headings that name a roll kind name what was actually rolled (issue 22, item 5): a Normal Roll when nothing
opposes it, a Face to Face Roll only when both sides roll against each other (Rolls › Face to Face Rolls, Normal
Roll; MegaBeast › Threat Level)."""

import pytest

from explorer.games.tagraid.views import FaceToFaceExplorer


@pytest.mark.parametrize("skill_a, skill_b, heading", [
    ("ranged_attack", "ranged_attack", "Face to Face"), ("ranged_attack", "evade", "Face to Face"),
    ("ranged_attack", "none", "Normal Roll"), ("ranged_attack", "close_combat_attack", "Normal Roll"),
    ("evade", "none", "Normal Roll"), ("evade", "ranged_attack", "Face to Face"),
    ("close_combat_attack", "none", "No roll")])
def test_the_face_to_face_pages_heading_names_the_roll_made(skill_a, skill_b, heading):
    """The Face to Face page's heading (the trace title, the tray picture's caption, the downloaded trace)."""
    w = FaceToFaceExplorer(seed=3)
    w.form_a.skill.value = skill_a
    w.form_b.skill.value = skill_b
    assert w.message.value == ""
    kinds = {p.kind for p in w.resolution.pairs}
    assert (kinds == {"face_to_face"}) == (heading == "Face to Face"), kinds
    assert (not kinds) == (heading == "No roll"), kinds
    assert w.trace.title.startswith(heading + ":"), w.trace.title


def test_the_line_of_fire_pages_link_names_no_roll_kind_it_has_not_worked_out():
    """The Line of Fire page's link opens the exchange the board decides; whether that is a Face to Face Roll depends
    on who reacts (a target without LoF back, or Out of Range, makes a Normal Roll), which the link does not work
    out: it must not call every exchange a Face to Face Roll."""
    import html as _html
    import re

    from explorer.games.tagraid.lof_views import LofExplorer

    w = LofExplorer()
    w.set_targets(["Spotter"])
    w._flush_state()
    label = _html.unescape(re.search(r"class='lof-f2f-link[^>]*>([^<]+)</a>", w.f2f_html.value).group(1))
    assert "Face to Face Roll" not in label and "Normal Roll" not in label, label


def test_the_line_of_fire_pages_prompt_names_no_roll_kind():
    from explorer.games.tagraid.lof_views import LofExplorer

    w = LofExplorer()
    w.set_targets([])
    w._flush_state()
    assert "pick a target" in w.f2f_html.value and "Face to Face Roll" not in w.f2f_html.value, w.f2f_html.value
