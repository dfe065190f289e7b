"""Who may declare an ARO, and at which step, computed from the table geometry.

Sections: Activating a Miner › Orders and AROs (the right to an ARO: LoF to the Active Miner; a Skill that allows an
ARO without LoF; without LoF, being the target of an Attack, or the Active Miner in the same Hexagon, then Evade
only; the MegaBeast with LoF to the Active TAG, and only from TAGs; one ARO per enemy per Order); Order Expenditure
Sequence steps 2.1 and 4.1 (Miners that did not gain the right at step 2 may gain it at step 4); Line of Fire and
Distances › Line of Fire (360° LoF of a Miner that declared Move, all along its route); Common Skills › Move.

LoF along a route on a flat table is exact (:func:`explorer.games.tagraid.lof.lof_during_move`: every moment of every
leg). With a Model on scenery (or a route that climbs) it is asked in 3D at positions sampled along each leg at most
``delta`` = 1/8 of the larger base radius apart: a LoF found is proved; a "no right" verdict states its bound in the
step's text and facts (``route_resolution``, ``route_spacing``: see
:func:`explorer.games.tagraid.lof._lof_during_move_3d`).
"""

from __future__ import annotations

from explorer.trace import Step

from .. import sections as S
from ..lof import lof_during_move, route_bound_words
from .state import AroRight, OrderState


def _seg(w):
    return None if w is None else (tuple(w.p0), tuple(w.p1))


def _sampled_words(rl) -> str:
    """The bound of a "no LoF along the route" verdict of the 3D route check (``""`` when it is exact)."""
    if rl.resolution is None:
        return ""
    return (f" With a Model on scenery, LoF along the route is asked at positions at most {rl.spacing:.3f} hex units "
            f"apart: {route_bound_words(rl.resolution, rl.spacing)}.")


def _sampled_facts(rl) -> dict:
    if rl.resolution is None:
        return {}
    return {"route_resolution": round(rl.resolution, 6), "route_spacing": round(rl.spacing, 6)}


def check_rights(state: OrderState, route: tuple, step: int, targets: tuple[str, ...] = ()) -> tuple[
        tuple[AroRight, ...], tuple[Step, ...]]:
    """The ARO rights gained at ``step`` (2 or 4) by enemies of the Active Miner that hold none yet.

    Args:
        state: the table with the Active Miner still at ``route[0]``.
        route: the Active Miner's route for this step's Skill (start included; one point when it does not move).
        step: 2 (after the first Skill, Move) or 4 (after the second Skill).
        targets: ids the second Skill attacks (step 4 only).

    Returns:
        the new :class:`AroRight` values (Timeline order) and one explaining :class:`Step` per enemy considered.
    """
    a = state.active_miner
    table = state.table(moving=a.id)
    rul = state.ruling_set()
    end_hex = state.geometry.hex_of(*route[-1])
    out, steps = [], []
    sec = f"{step}.1 ARO check"
    enemies = sorted(state.enemies_of(a), key=state.timeline_key)
    surfaces = None
    if state.route_surfaces and route in state.routes:
        surfaces = state.route_surfaces[state.routes.index(route)] or None
    for r in enemies:
        if state.right_of(r.id) is not None:
            continue
        rl = lof_during_move(table, a.id, route, r.id, rul, surfaces=surfaces)
        same = state.geometry.hex_of(r.x, r.y) == end_hex
        right = None
        if rl.observer_sees_mover:
            right = AroRight(r.id, step, "lof", leg=rl.observer_leg, witness=_seg(rl.observer_witness),
                             detail=f"{r.id} has LoF to {a.id} at some point of its route (leg {rl.observer_leg + 1}).")
        elif r.aro_without_lof:
            right = AroRight(r.id, step, "without_lof_skill",
                             detail=f"{r.id} has a Skill that allows an ARO without LoF.")
        elif r.id in targets:
            right = AroRight(r.id, step, "targeted", detail=f"{r.id} is the target of {a.id}'s Attack.")
        elif same:
            right = AroRight(r.id, step, "same_hexagon", evade_only=True,
                             detail=f"{a.id} is in {r.id}'s Hexagon and {r.id} has no LoF to it: Evade only.")
        if right is not None:
            out.append(right)
            steps.append(Step(f"{r.id} gains the right to an ARO at step {step}: "
                              + {"lof": "LoF to the Active Miner", "without_lof_skill": "a Skill without LoF",
                                 "targeted": "target of the Attack",
                                 "same_hexagon": "same Hexagon, Evade only"}[right.reason],
                              S.ORDERS_AND_AROS, right.detail,
                              {"miner": r.id, "step": step, "reason": right.reason, "leg": right.leg,
                               "evade_only": right.evade_only,
                               "witness": [list(p) for p in right.witness] if right.witness else None},
                              (r.id, a.id), sec))
        else:
            steps.append(Step(f"{r.id} has no right to an ARO at step {step}", S.ORDERS_AND_AROS,
                              f"No LoF to {a.id} at any point of its route, no Skill without LoF, "
                              + ("not targeted, " if step == 4 else "")
                              + f"and {a.id} is not in its Hexagon." + _sampled_words(rl),
                              {"miner": r.id, "step": step, "reason": None, **_sampled_facts(rl)},
                              (r.id, a.id), sec))
    mb = state.megabeast
    if mb is not None and state.right_of(mb.id) is None:
        if a.miner_type != "TAG":
            steps.append(Step(f"{mb.id} gains no ARO from {a.id}: MegaBeasts only gain AROs from TAGs",
                              S.MEGABEAST_AROS, "", {"miner": mb.id, "step": step, "reason": None}, (mb.id,), sec))
        else:
            rl = lof_during_move(table, a.id, route, mb.id, rul, surfaces=surfaces)
            if rl.observer_sees_mover:
                right = AroRight(mb.id, step, "lof", leg=rl.observer_leg, witness=_seg(rl.observer_witness),
                                 detail=f"{mb.id} has LoF to the Active TAG {a.id} (leg {rl.observer_leg + 1}); it will "
                                 "declare the ARO of its Behavior.")
                out.append(right)
                steps.append(Step(f"{mb.id} gains the right to an ARO at step {step}: LoF to the Active TAG",
                                  S.MEGABEAST_AROS, right.detail, {"miner": mb.id, "step": step, "reason": "lof",
                                                                   "leg": right.leg}, (mb.id, a.id), sec))
            else:
                steps.append(Step(f"{mb.id} has no right to an ARO at step {step}: no LoF to {a.id}",
                                  S.MEGABEAST_AROS, "The MegaBeast only gains an ARO with LoF to the Active TAG (a "
                                  "MegaBeast that is attacked without it reorients at Conclusion)." + _sampled_words(rl),
                                  {"miner": mb.id, "step": step, "reason": None, **_sampled_facts(rl)},
                                  (mb.id, a.id), sec))
    return tuple(out), tuple(steps)
