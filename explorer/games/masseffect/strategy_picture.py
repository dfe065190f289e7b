"""The static picture of a ``strategy`` scenario: its Strategy Pool as a dice tray (SVG), for the docs' embeds and
gallery (*Playing a Mission › Step A: Strategy Roll*, *Core Abilities*).

One row per roll round (the first roll, then each re-roll a Core Ability trigger allows: the dice rolled and their
faces), then the Pool as the roll leaves it: the Locked die marked, the dice allocated to an Action framed (with the
space they fill) when the scenario allocates them. Drawn from the engine's typed outcome
(:class:`~.results.StrategyOutcome`) with :func:`explorer.render.dice_svg.tray_svg`, the geometry of the app's trays;
each face is abbreviated on its die (:data:`FACE_MARK`: C core, S standard, E enhanced, M2 / M3 move, M/S move 2 or
standard), the die's id under it.
"""

from __future__ import annotations

from explorer.render.dice_svg import DieView, Row, tray_svg
from explorer.text import plural
from explorer.trace import Trace

FACE_MARK = {"core": "C", "standard": "S", "enhanced": "E", "move_2": "M2", "move_3": "M3",
             "move_2_or_standard": "M/S"}
"""The mark a face gets on its die."""
SPACE_MARK = {"move": "M", "standard": "S", "enhanced": "E"}
"""The mark of the Action space a die is allocated to (under the die: ``S3→S``)."""


def _mark(face: str) -> str:
    return FACE_MARK.get(face, face[:3])


def strategy_picture(title: str, trace: Trace) -> str | None:
    """The Strategy Pool tray of a resolved ``strategy`` scenario (``trace.result`` a
    :class:`~.results.StrategyOutcome`); ``None`` when nothing was rolled."""
    o = trace.result
    if not o.rolled and not o.final:
        return None
    rows = []
    for rnd, dice in o.rolled:
        views = [DieView(f"r{rnd}.{d}", _mark(face), "critical" if face == "core" else "success", False, False,
                         d) for d, face in dice]
        rows.append(Row("Roll" if rnd == 1 else f"Re-roll {rnd - 1}", views,
                        plural(len(dice), "die", "dice"),
                        "Core triggers re-roll" if rnd > 1 else ""))
    taken = dict(o.taken or ())
    pool = []
    for d, face in o.final:
        where = " locked" if d == o.locked else ("→" + SPACE_MARK.get(taken[d], taken[d][:1].upper())
                                                 if d in taken else "")
        pool.append(DieView(f"pool.{d}", _mark(face), "success", d in taken, False, d + where, token=d == o.locked))
    locked = f", {o.locked} locked" if o.locked else ""
    rows.append(Row(f"Pool · {o.squadmate}", pool, plural(o.pool_size, "die", "dice") + locked,
                    "framed: allocated" if taken else ""))
    return tray_svg(rows, (), title)
