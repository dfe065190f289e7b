"""The static picture of a ``combat`` scenario: its dice tray (SVG), for the docs' embeds and gallery.

One row per attack (its Hit roll: every die with its face, or a token for fixed hits) and, under it, one row per
target it reached (the Blue dice of its Defend roll, a shield cancelling a hit; the hits absorbed by Energy Shields,
the wounds dealt and the Critical token), drawn from the engine's typed outcome
(:class:`~.combat.CombatOutcome`) with :func:`explorer.render.dice_svg.tray_svg`, the geometry of the app's trays.
The faces are the calibration's (a documented stand-in: the rulebook prints none), shown by their initial on the die
and in full under it.
"""

from __future__ import annotations

from explorer.render.dice_svg import DieView, Row, tray_svg
from explorer.text import plural
from explorer.trace import Trace

FACE_MARK = {"hit": "H", "bolt": "B", "shield": "S", "blank": "–", "wings": "W"}
"""The mark a face gets on its die (its full name is the caption); another face shows its first letter."""

CANCELS = {"shield"}
"""Blue faces that cancel a hit (the calibration's default Defend die)."""


def _mark(label: str) -> str:
    return FACE_MARK.get(label, label[:1].upper() or "?")


def combat_picture(title: str, trace: Trace) -> str | None:
    """The dice tray SVG of a resolved combat scenario (``trace.result`` a :class:`~.combat.CombatOutcome`); ``None``
    when no attack rolled or reached a target."""
    rows: list[Row] = []
    for k, a in enumerate(trace.result.attacks, 1):
        if a.roll is None:
            continue
        if a.roll.fixed or not a.roll.faces:
            dice = [DieView(f"a{k}.fixed", a.roll.hits, "success", True, False, "fixed hits", token=True)]
        else:
            dice = [DieView(f"a{k}.{i}", _mark(label), "success" if label in ("hit", "bolt") else "failure",
                            label == "hit", False, f"{colour} {label}")
                    for i, (colour, label) in enumerate(a.roll.faces, 1)]
        bolts = f", {plural(a.roll.bolts, 'bolt')}" if a.roll.bolts else ""
        rows.append(Row(f"{a.attacker} · {a.weapon}", dice, f"Hit roll: {plural(a.roll.hits, 'hit')}{bolts}",
                        f"attack {k}"))
        for r in a.results:
            blue = [DieView(f"a{k}.{r.name}.{i}", _mark(label), "success" if label in CANCELS else "failure",
                            label in CANCELS, False, f"blue {label}")
                    for i, label in enumerate(r.faces, 1)]
            crit = f"; Critical {r.critical}" if r.critical else ""
            rows.append(Row(f"Defend · {r.name}", blue,
                            f"{r.absorbed} absorbed, {r.cancelled_by_dice} cancelled",
                            f"{plural(r.wounds, 'wound')}{crit}"))
    if not rows:
        return None
    return tray_svg(rows, (), title)
