"""Death and Respawn of Miners at the end of an Order.

Sections: Death (a Miner at 0 Wounds dies; Teseum to each player who removed Wounds in that Order — already counted
by the roll resolver —; Loot Token; removed from the table; Wounds and State Tokens removed; Respawn; several deaths
in one Order follow the Timeline); Tool Containers and Loot › Loot (half the Neomaterial Units kept, rounding up — the
resolver's :class:`~explorer.games.tagraid.resolve.Loot`); Respawn (a d20 picks the Access Point; a number on an
Access Point with an enemy Miner in contact is re-rolled; the TAG is placed in contact with it); the Loot Token and
Loot Zone of a dead TAG (:func:`.loot.leave_loot`).

Placement default (documented, editable): a respawning TAG's base centre is placed on its Access Point's position
(``access_points`` of the order file); an Access Point is taken when an enemy base is within the respawning base's
diameter of it. A d20 face that names no Access Point of the table is re-rolled as well.
"""

from __future__ import annotations

import math
from dataclasses import replace

from explorer.dice import Dice
from explorer.text import plural
from explorer.trace import Step

from .. import sections as S
from .loot import leave_loot
from .state import OrderState

MAX_RESPAWN_ROLLS = 200
"""Re-rolls before Respawn gives up (every Access Point taken): the Miner then stays off the table."""


def apply_deaths(state: OrderState, dead: tuple[str, ...], respawn_dice: tuple[int, ...], seed: int,
                 loot: dict) -> tuple[OrderState, tuple[Step, ...]]:
    """Remove the dead Miners, clear their Wounds and State Tokens and Respawn them, in Timeline order.

    ``loot``: ``{miner: resolve.Loot}`` from the roll exchange (Neomaterial Units kept in the Scoring Zone).
    ``respawn_dice``: the d20 faces given for Respawn, used first; every other Respawn die is rolled by a
    :class:`explorer.dice.Dice` seeded with ``seed + 7919`` (a seed of its own, so that a re-rolled Access Point
    never shifts the dice of the roll exchange).
    Returns the new state and the explaining steps.
    """
    steps: list[Step] = []
    faces = list(respawn_dice)
    dice = Dice(seed=seed + 7919)
    sec = "5.3 End of the Order"
    for mid in sorted(dead, key=lambda x: state.timeline_key(state.miner(x))):
        if mid in loot and loot[mid] is not None and state.miner(mid).miner_type == "TAG":
            state, lsteps = leave_loot(state, mid, loot[mid], sec)
            steps += lsteps
        m = state.miner(mid)
        kept = loot[mid].kept if mid in loot and loot[mid] is not None else m.scoring_zone
        steps.append(Step(f"{mid} dies: removed from the table, its Wounds and State Tokens removed", S.DEATH,
                          "A Miner whose Wounds reach 0 dies; each player who removed its Wounds this Order has "
                          "already gained Teseum; its Loot goes to the Loot Zone"
                          + (f" and it keeps {plural(kept, 'Neomaterial Unit')} in the Scoring Zone." if mid in loot else "."),
                          {"miner": mid, "scoring_zone": kept}, (mid,), sec))
        m = replace(m, on_table=False, wounds=m.max_wounds, states=(), scoring_zone=kept)
        state = state.with_miner(m)
        aps = dict(state.geometry.access_points)
        if not aps:
            steps.append(Step(f"{mid} cannot Respawn: this table has no Access Points", S.RESPAWN,
                              "Respawn needs the table's numbered Access Points (order file: access_points).",
                              {"miner": mid}, (mid,), sec))
            continue
        r = state.geometry.calibration.radius(m.silhouette)
        tried = []
        placed = None
        for _ in range(MAX_RESPAWN_ROLLS):
            face = faces.pop(0) if faces else dice.roll(20, f"Respawn {mid}")
            ap = aps.get(face)
            if ap is None:
                tried.append((face, "no such Access Point"))
                continue
            taken = [e.id for e in state.enemies_of(m) if e.id != mid
                     and math.dist((e.x, e.y), ap) <= r + state.geometry.calibration.radius(e.silhouette) + 2 * r]
            if taken:
                tried.append((face, f"enemy Miner {', '.join(taken)} in contact"))
                continue
            placed = (face, ap)
            break
        if placed is None:
            steps.append(Step(f"{mid} cannot Respawn: every Access Point is taken", S.RESPAWN, "",
                              {"miner": mid, "rolls": [f for f, _ in tried]}, (mid,), sec))
            continue
        face, ap = placed
        state = state.with_miner(replace(m, x=ap[0], y=ap[1], on_table=True))
        rerolls = "; ".join(f"{f}: {why}, re-rolled" for f, why in tried)
        steps.append(Step(f"{mid} Respawns at Access Point {face}", S.RESPAWN,
                          (rerolls + "; " if rerolls else "") + f"the d20 shows {face}, a free Access Point: the TAG is "
                          "deployed in contact with it, with its full Wounds.",
                          {"miner": mid, "access_point": face, "rolls": [f for f, _ in tried] + [face],
                           "position": list(ap)}, (mid,), sec))
    return state, tuple(steps)
