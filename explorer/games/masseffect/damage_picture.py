"""The static picture of a ``damage`` scenario without a map: record cards
(:func:`explorer.render.sheet_svg.sheet_svg`) of every Squadmate (its Shield and Hit Point trackers, Downed, XP, On
Point) and every Enemy (a Minion's Damage against its Shield Value; an Elite's Resilience Tracker level by level:
exhausted levels full, the current one with its Damage tokens), as the typed outcome
(:class:`~.results.DamageOutcome`) leaves them; Enemies removed or returned to the Enemy Bag are greyed. Sections:
Attacking › Squadmate Damage / Damaging Enemies, Additional Enemy Rules › Elites.
"""

from __future__ import annotations

from explorer.render.sheet_svg import Card, Chip, Track, sheet_svg
from explorer.text import plural
from explorer.trace import Trace


def damage_picture(scenario, trace: Trace) -> str:
    """The SVG of a resolved ``damage`` scenario (``trace.result`` a :class:`~.results.DamageOutcome`), titled
    with the scenario's title."""
    o = trace.result
    cards = []
    specs = {s.name: s for s in scenario.squadmates}
    for s in o.squadmates:
        spec = specs.get(s.name)
        tracks = ()
        if spec is not None:
            tracks = (Track("Shields", s.shield_points, spec.max_shield_points, "info"),
                      Track("Hit Points", s.hit_points, spec.max_hit_points, "good"))
        chips = [Chip("On Point", "gold")] if s.name == o.on_point else []
        if s.xp:
            chips.append(Chip(f"XP {s.xp}", "token"))
        cards.append(Card(s.name, "Squadmate", tracks, tuple(chips), out="Downed" if s.downed else ""))
    enemies = {e.name: e for e in scenario.enemies}
    for e in o.enemies:
        spec = enemies.get(e.name)
        chips = [Chip("Stunned", "token")] if e.stunned else []
        if e.biotic_effect:
            chips.append(Chip("Biotic Effect", "token"))
        if e.to_defeat is not None:
            chips.append(Chip(f"{e.to_defeat} Damage to defeat", "bad"))
        tracks: tuple[Track, ...] = ()
        if spec is not None and spec.kind == "elite" and spec.resilience:
            done = e.exhausted or 0
            tracks = tuple(Track(f"Level {i} ({v})", v if i <= done else e.damage if i == done + 1 else 0, v)
                           for i, v in enumerate(spec.resilience, 1))
        elif spec is not None:
            tracks = (Track("Damage", e.damage, spec.shield_value),)
        kind = spec.kind.title() if spec is not None else "Enemy"
        cards.append(Card(e.name, kind + (f", {plural(e.exhausted, 'level')} exhausted" if e.exhausted else ""),
                          tracks, tuple(chips)))
    for name in o.removed:
        cards.append(Card(name, "Elite", out="Defeated: removed"))
    for name in o.returned_to_bag:
        cards.append(Card(name, "Minion", out="Defeated: returned to the Enemy Bag"))
    note = "Mission failed" if o.mission_failed else ""
    return sheet_svg(cards, getattr(scenario, "title", "") or "", note)
