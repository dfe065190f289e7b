"""The Round page of Galaxy Defenders in Python (no browser): it builds on the map round, steps, draws each step
from its frame's typed state, keeps the step in the link, opens a round file and refuses a bad one."""

from __future__ import annotations

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.galaxydefenders.round_picture import map_svg, positions_from
from explorer.games.galaxydefenders.round_map import map_of
from explorer.games.galaxydefenders.options import rulings
from explorer.games.galaxydefenders.round import round_frames

G = get_game("galaxydefenders")


def page():
    return G.open_page("round")[0]


def test_the_round_page_opens_on_the_map_round_and_steps():
    w = page()
    assert w.picker.value == "gd-round-map" and w.picker.options[0] == "gd-round-map"
    n = len(w.positions)
    assert n == len(w.trace.steps) == len(G.resolve(G.load_builtin("gd-round-map")).steps)
    assert "Step 1 of" in w.focus.value and "<svg" in w.map.value and w.prev_button.disabled
    w.go(+1000)
    assert w.position == n and w.next_button.disabled
    assert "Close Encounter card 12" in w.card.value and "face down: improved-tactic" in w.sheets.value
    assert "gd-round-download" in w.download.value and "STAND-IN" in w.about.value


def hexes(p) -> dict[str, str]:
    return {f.name: str(f.at) for f in p.shown.figures}


def test_the_map_at_a_step_is_the_state_that_step_shows():
    _, sc = G.load_builtin("gd-round-map")
    frames = round_frames(sc, rulings())
    pos = positions_from(frames)
    walk = next(p for p in pos if "walks" in p.step.title)
    before = next(p for p in pos if p.step.title.startswith("Marine: Move"))
    assert before.frame is walk.frame         # one frame per agent turn, but each step its own state
    start = next(a.at for a in sc.agents if a.name == "Marine")
    assert hexes(before)["Marine"] == start and "Marine started here" not in map_svg(map_of(sc), before)
    assert hexes(walk)["Marine"] == "4,1"
    svg = map_svg(map_of(sc), walk)
    assert "Marine on 4,1" in svg and "Marine started here" in svg
    assert pos[-1].shown is frames[-1].state  # the last step: the round as it ends


def test_an_alien_activation_shows_the_move_from_its_end_of_movement_and_wounds_from_the_attack():
    _, sc = G.load_builtin("gd-round-prime-swarm")
    pos = positions_from(round_frames(sc, rulings()))
    act = [p for p in pos if p.step.section.startswith("Aliens turn 1: Sentinels")]
    target = next(p for p in act if p.step.title.startswith("Target:"))
    ends = next(p for p in act if p.step.title.startswith("Ends in 3,1"))
    hit = next(p for p in act if p.step.title.startswith("Marine rolls"))
    last = act[-1]
    assert hexes(target)["Sentinels"] == "7,0" and hexes(target)["Sentinels (2nd figure)"] == "7,2"
    assert hexes(ends)["Sentinels"] == "3,1" and hexes(hit)["Sentinels (2nd figure)"] == "3,2"
    marine = lambda p: next(a for a in p.shown.agents if a.name == "Marine").wounds   # noqa: E731
    assert marine(hit) == 0 and marine(last) == 1    # the wound shows from the attack's last step
    # the Biotech's grenade: the first figure is on the map until the attack that kills it is over
    bio = [p for p in pos if p.step.section.startswith("Agent turn 2: Biotech")]
    assert "Sentinels" in hexes(bio[0]) and "Sentinels" not in hexes(bio[-1])


def test_a_revealed_alien_appears_from_the_step_it_enters_play():
    _, sc = G.load_builtin("gd-round-alien-signal")
    pos = positions_from(round_frames(sc, rulings()))
    turn = [p for p in pos if p.step.section == "Agent turn 1: Marine"]
    revealed = next(i for i, p in enumerate(turn) if p.step.title.startswith("Signal S3"))
    enters = next(i for i, p in enumerate(turn) if p.step.title.startswith("Warrior enters play"))
    assert "Warrior" not in hexes(turn[revealed]) and "S3" in {g.name for g in turn[revealed].shown.signals}
    assert hexes(turn[enters])["Warrior"] == "7,1" and "S3" not in {g.name for g in turn[enters].shown.signals}


def test_the_step_is_in_the_link_and_a_bad_step_is_refused():
    w = page()
    w.go(4)
    assert w.url_state()["step"] == 5
    fired = []
    w.on_state_change(lambda: fired.append(1))
    w.go(1)
    assert fired
    w.load_url_state({"scenario": "gd-round-map", "step": 12})
    assert w.position == 12
    with pytest.raises(ScenarioError) as e:
        w.load_url_state({"scenario": "gd-round-map", "step": "x"})
    assert e.value.field == "step"
    w.load_url_state({"scenario": "gd-round-agents"})
    assert "no [map]" in w.map.value


def test_opening_a_file():
    w = page()
    w.load_toml(G.scenario_text("gd-round-map-suit"), "mine.toml")
    assert w.scenario.title.startswith("A round on a map: the Power Suit") and "mine.toml" in w.download.value
    with pytest.raises(ScenarioError):
        w.load_toml(G.scenario_text("gd-ai-move-adjacent"), "ai.toml")
    assert w.scenario.title.startswith("A round on a map: the Power Suit")


def _step_to_the_end(w):
    """Step the page one position at a time from the first to the last; ``(position, its RoundPosition, the
    map, sheets and card HTML shown)`` for each."""
    from explorer.games.galaxydefenders.round_picture import card_html, sheets_html

    w.go(-10_000)
    seen = []
    while True:
        pos = w.positions[w.position - 1]
        assert w.sheets.value == sheets_html(pos) and w.card.value == card_html(pos)
        seen.append((w.position, pos, w.map.value, w.sheets.value))
        if w.next_button.disabled:
            return seen
        w.next_button.click()


def test_gd_round_mission_steps_to_the_end_and_the_sheets_follow_the_frames():
    w = page()
    w.picker.value = "gd-round-mission"
    seen = _step_to_the_end(w)
    assert [n for n, *_ in seen] == list(range(1, len(w.trace.steps) + 1))
    assert all("This round has no [map]" in m for _, _, m, _ in seen)        # no map: said, on every step
    titles = [p.step.title for _, p, _, _ in seen]
    draw = titles.index("Special Event B is drawn")
    assert all("gd-mission" not in s for _, _, _, s in seen[:draw])           # before the Mission step: no state
    after = seen[draw][3]
    assert "Mission: <b>goes on</b>" in after and "flames 1" in after         # the frame's MissionState
    assert seen[-1][1].shown is seen[-1][1].frame.state and "Step %d of %d" % (len(seen), len(seen)) in w.focus.value
    assert "Marine" in seen[0][3] and "0/8" in seen[0][3]


def test_a_round_on_a_map_moves_its_figures_on_the_map_as_the_frames_do():
    w = page()
    w.picker.value = "gd-round-mission-3"
    seen = _step_to_the_end(w)
    walk = next(i for i, (_, p, _, _) in enumerate(seen) if p.step.title.startswith("Marine walks 1,1"))
    assert "Marine on 1,1" in seen[walk - 1][2] and "Marine on 4,1" in seen[walk][2]
    bite = next(i for i, (_, p, _, _) in enumerate(seen) if p.step.title.startswith("Ends in"))
    assert "Xeno-Delta on 7,1" in seen[bite - 1][2] and "Xeno-Delta on 3,1" in seen[bite][2]
    assert "Mission: <b>goes on</b>" in seen[-1][3] and "bombs_detonated 2" in seen[-1][3]


def test_the_sheets_name_the_alpha_agent_after_a_succession():
    w = page()
    w.picker.value = "gd-round-alpha-succession"
    seen = _step_to_the_end(w)
    i = next(k for k, (_, p, _, _) in enumerate(seen) if "is eliminated" in p.step.title)
    assert "gd-alpha" not in seen[i - 1][3] and "Alpha Agent: <b>Biotech</b>" in seen[i][3]


def test_a_file_refused_while_it_is_played_keeps_the_round_shown_its_card_and_sheets():
    """Session 16 (issue 21 second reading, the Round page in Chromium): gd-round-mission-3 at step 6 (the Marine on
    4,1, Close Encounter card 12 shown), then a file of the same round with a second Action in the Marine's turn. The
    file is refused (raised, for the Open control to say beside it) and the page keeps its round: step 6, its map, its
    sheets and card (first the sheets and card stayed under "No step to show"; then, commit 1bdc25c, they were
    emptied with the map; both lost the user's round)."""
    from explorer.errors import RuleViolation

    w = page()
    w.load("gd-round-mission-3")
    w.go(+5)
    assert w.position == 6 and "Marine" in w.sheets.value and "Close Encounter card 12" in w.card.value
    shown = (w.map.value, w.sheets.value, w.card.value, w.focus.value, w.url_state())
    bad = G.scenario_text("gd-round-mission-3").replace(
        '{ kind = "action", what = "Deploy an EMP-Nuke Bomb" }]',
        '{ kind = "action", what = "Deploy an EMP-Nuke Bomb" }, { kind = "action", what = "again" }]')
    assert bad != G.scenario_text("gd-round-mission-3")
    with pytest.raises(RuleViolation, match="^twice.toml: .*already used its Action"):
        w.open_text(bad, "twice.toml")
    assert w.position == 6 and len(w.positions) > 6 and not w.message.value
    assert (w.map.value, w.sheets.value, w.card.value, w.focus.value, w.url_state()) == shown


def test_an_areas_name_sits_below_the_figure_on_its_centre_hex_and_its_ring():
    """Session 16 (Chromium, gd-round-mission-3 at step 5): "Area B" ran over the Marine's circle and the amber ring
    round it on Area B's centre hex, "Area C" over the Xeno-Delta's. Each name's text (11 px, its top about 0.75 of
    that above its baseline) now starts below every circle drawn on its centre hex, rings with their stroke."""
    import re

    w = page()
    w.load("gd-round-mission-3")
    w.go(+4)
    svg = w.map.value
    circles = [(float(x), float(y), float(r) + float(sw) / 2) for x, y, r, sw in re.findall(
        r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="([-\d.]+)"[^>]*?stroke-width="([-\d.]+)"', svg)]
    labels = re.findall(r'<text class="label" x="([-\d.]+)" y="([-\d.]+)"[^>]*>Area (\w+)</text>', svg)
    assert {a for _, _, a in labels} >= {"A", "B", "C"}
    crowded = 0
    for x, y, a in labels:
        x, base = float(x), float(y)
        on_centre = [c for c in circles if abs(c[0] - x) < 1 and base - 40 < c[1] < base]
        assert on_centre, a                                    # the dashed ring of the centre hex at least
        crowded += len(on_centre) > 1
        top = base - 0.75 * 11
        for cx, cy, r in on_centre:
            if r < 0.7 * 40:                                   # a figure's circle or the amber ring (not the dashed one)
                assert top > cy + r, (a, top, cy + r)
    assert crowded >= 2                                        # Area B and Area C each hold a figure at this step
