"""Property test of Opportunity Attacks (Additional Enemy Rules › Opportunity Attacks; Stunning Enemies; Biotic
Effects; Basic Actions › The Pin Tag), against a model written from the text, on random maps (walls on random hex
sides), random Enemies (Attack Values, Stunned, Biotic Effect tokens, Pin Tags) and random Move paths:

* on each step of the path, every Active Enemy that was adjacent before the step and is not after it attacks, and no
  other Enemy does;
* the Attacks of one step go from the highest Attack Value in use (a Biotic Effect token counts 2 lower) to the
  lowest, ties in the Enemies' listing order (the player's choice, ``choices.opportunity_order``, not given);
* each such Enemy attacks exactly once for that step, for its Attack Value in use, and the Squadmate loses exactly
  the sum (Shield Points, then Hit Points);
* after a step on which an Enemy with the Pin Tag attacked, the Move ends there.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games.masseffect.activation import Board, opportunity_attacks
from explorer.games.masseffect.units import Enemy, Squadmate
from explorer.hexgrid import Hex, hex_range, neighbors

from .me_fake_terrain import FakeTerrain

RADIUS = 3
HEXES = sorted(hex_range(Hex(0, 0), RADIUS), key=lambda h: (h.q, h.r))
START = Hex(0, 0)


@st.composite
def situations(draw):
    sides = sorted({frozenset({a, b}) for a in HEXES for b in neighbors(a) if b in set(HEXES)},
                   key=lambda s: sorted((h.q, h.r) for h in s))
    walls = draw(st.lists(st.sampled_from(sides), max_size=8, unique=True))
    terrain = FakeTerrain(radius=RADIUS, walls=set(walls))
    path = [START]
    for _ in range(draw(st.integers(1, 3))):
        nxt = terrain.step_hexes(path[-1])
        if not nxt:
            break
        path.append(draw(st.sampled_from(sorted(nxt, key=lambda h: (h.q, h.r)))))
    if len(path) < 2 or path[-1] == START and len(path) == 2:
        path = path[:1]
    near = set(path) | {n for h in path for n in neighbors(h)}    # most Enemies by the path, where Attacks happen
    free = [h for h in HEXES if h not in path and h in near]
    spots = draw(st.lists(st.sampled_from(free), max_size=6, unique=True)) if free else []
    enemies = tuple(
        Enemy(f"E{i}", attack_value=draw(st.integers(0, 6)), shield_value=3, position=h,
              stunned=draw(st.integers(0, 3)) == 0, biotic_effect=draw(st.booleans()),
              tags=frozenset({"Pin"}) if draw(st.integers(0, 4)) == 0 else frozenset())
        for i, h in enumerate(spots))
    return terrain, path, enemies


def model(terrain, path, enemies):
    """The Attacks the text calls for: ``[(step index, Enemy name, Damage)]`` in order, and the hex the Move ends."""
    out = []
    for i, (a, b) in enumerate(zip(path, path[1:])):
        provoked = [(k, e) for k, e in enumerate(enemies) if not e.stunned and terrain.adjacent(a, e.position)
                    and not terrain.adjacent(b, e.position)]
        provoked.sort(key=lambda ke: (-ke[1].effective_attack_value, ke[0]))
        out += [(i, e.name, e.effective_attack_value) for _, e in provoked]
        if any("Pin" in e.tags for _, e in provoked):
            return out, b
    return out, path[-1]


@settings(max_examples=200, deadline=None)
@given(situations())
def test_opportunity_attacks_follow_the_text(sit):
    terrain, path, enemies = sit
    if len(path) < 2:
        return
    me = Squadmate("Garrus", 40, 40, shield_points=40, hit_points=40, position=START)
    board = Board((me,), enemies, current="Garrus")
    after, steps = opportunity_attacks(terrain, board, "Garrus", path)
    expected, end = model(terrain, path, enemies)
    got, cursor = [], 0                         # a path may come back: the step is the next one with those hexes
    for s in steps:
        if "Opportunity Attack for" in s.title:
            a, b = s.title.split("(")[1].split(")")[0].split(" -> ")
            start = cursor
            while True:       # the same hexes again later (a path that comes back): each Enemy Attacks once a step
                cursor = next(k for k in range(start, len(path) - 1) if (str(path[k]), str(path[k + 1])) == (a, b))
                if (cursor, s.facts["enemy"]) not in {(k, n) for k, n, _ in got}:
                    break
                start = cursor + 1
            got.append((cursor, s.facts["enemy"], s.facts["damage"]))
    assert got == expected
    for i in {g[0] for g in got}:                                 # highest Attack Value first, within a step
        avs = [d for k, _, d in got if k == i]
        assert avs == sorted(avs, reverse=True)
        names = [n for k, n, _ in got if k == i]
        assert len(names) == len(set(names))                      # each Enemy once per step
    sq = after.squadmate("Garrus")
    assert 80 - sq.shield_points - sq.hit_points == sum(d for *_, d in expected)
    assert sq.position == end
