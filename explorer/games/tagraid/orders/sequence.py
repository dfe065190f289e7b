"""The Order Expenditure Sequence as a tuple of small step functions, played by the sequence kernel.

Sections: Activating a Miner › Order Expenditure Sequence (1 Activation: 1.1 Order expenditure, 1.2 first Skill,
Move; 2 AROs: 2.1 check, 2.2 declaration in Timeline order; 3 second Skill; 4 AROs again: 4.1 check of those without
a right yet, 4.2 declaration; 5 Resolution; 5.1 Effects; 5.2 Conclusion; 5.3 End of the Order); Activating a Miner ›
Orders and AROs; Common Skills (Move, Evade movement, Idle); States; Death; Respawn; Special Terrain.

Every step is ``step(state, ctx) -> (state, steps)`` (:mod:`explorer.kernel`): a plain function of the frozen
:class:`.state.OrderState` and the Order's :class:`OrderContext` (the declarations, :class:`.declarations.
OrderDeclarations`, and the dice, :class:`.declarations.OrderDice`), returning the next state and the cited
:class:`~explorer.trace.Step` values. :data:`STEPS` lists them in order; :func:`play` runs the first ``upto`` of them
with :func:`explorer.kernel.play`, so going back one step is replaying one step fewer from the initial state (the
declarations are the log). A declaration the rules refuse raises :class:`~explorer.errors.RuleViolation`
(:func:`.declarations.refused`); a Skill that fails its Requirements at Resolution becomes Idle there, with a step
saying why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from explorer import kernel
from explorer.errors import Rejection, RuleViolation
from explorer.scenario import toml_key
from explorer.kernel import Context, Frame
from explorer.trace import Step, Trace

from .. import sections as S
from .aros import check_rights
from .death import apply_deaths
from .declarations import ARO_SKILLS, SECOND_SKILLS, MoveDecl, OrderDeclarations, OrderDice, Point, refused
from .loot import interact, stop_at_contact
from .megabeast import behavior_move, conclusion_redirect
from .move import check_move, in_difficult_terrain
from .resolution import ATTACKS, SKILL_WORDS, resolve_roll, roll_numbers
from .state import OrderState

OES = S.ORDER_EXPENDITURE_SEQUENCE


@dataclass(frozen=True)
class OrderContext(Context):
    """What the steps of one Order read and never change (:class:`explorer.kernel.Context`).

    Attributes:
        declarations: the Order's declarations (:class:`.declarations.OrderDeclarations`): the log a replay plays.
        dice: the Order's dice (:class:`.declarations.OrderDice`): the faces the file or the player gives, and the
            seed every other die is rolled from (step 5 hands both to the roll resolver; step 5.3 rolls Respawn
            from them through :class:`explorer.dice.Dice`).

    The ruling readings are part of the table (:attr:`.state.OrderState.rulings`), so ``rulings`` stays ``None``.
    """

    declarations: OrderDeclarations | None = None
    dice: OrderDice = OrderDice()


def _add_state(pending: tuple, miner: str, st: str) -> tuple:
    return pending if (miner, st) in pending else pending + ((miner, st),)


# ----------------------------------------------------------------------------------------------------------- step 1


def activation(state: OrderState, ctx: OrderContext):
    """1 Activation, 1.1 Order expenditure: the Active Player names the Miner and spends one of its Orders.
    Rejected: an unknown Miner, a Miner off the table (dead), a Miner without Orders left."""
    sec = "1 Activation"
    decl = ctx.declarations
    ids = [m.id for m in state.miners]
    if decl.active not in ids:
        raise refused(sec, "order.active", f"there is no Miner {decl.active!r} (Miners: {', '.join(ids)})",
                      S.ORDERS_AND_AROS)
    m = state.miner(decl.active)
    if not m.on_table:
        raise refused(sec, "order.active", f"{m.id} is not on the table", S.RESPAWN)
    if m.orders < 1:
        raise refused(sec, "order.active", f"{m.id} has no Order left this Round (each Order belongs to one Miner)",
                      S.ORDERS_AND_AROS)
    table = state.table()
    contact = tuple(e.id for e in state.enemies_of(m) if table.in_contact(m.id, e.id))
    state = replace(state, active=m.id, step="activation", start=(m.x, m.y), contact_at_activation=contact)
    state = state.with_miner(replace(m, orders=m.orders - 1))
    return state, (Step(f"{m.id} is activated: one Order spent ({m.orders - 1} left)", OES,
                        "The Active Player declares which Miner they activate and turns over one of its Order "
                        "Tokens." + (f" At this moment it is in Silhouette Contact with {', '.join(contact)}."
                                     if contact else ""),
                        {"active": m.id, "orders_left": m.orders - 1, "contact_at_activation": list(contact)},
                        (m.id,), sec),)


def first_skill_move(state: OrderState, ctx: OrderContext):
    """1.2 the first Skill, Move: the route is checked when declared (Common Skills › Move, Requirements) and the
    Miner is placed at its end, facing as declared. A Move without moving cancels the Slowed State."""
    sec = "1.2 First Skill: Move"
    decl = ctx.declarations
    a = state.active_miner
    move, cut = decl.move, ()
    if move.interact is not None:
        move, cut = stop_at_contact(state, a.id, move, move.interact, sec, "order.move")
    mv = check_move(state, a.id, move, 0, sec, "order.move")
    steps = [s.in_section(sec) for s in cut + mv.steps]
    states = a.states
    if not decl.move.route and "Slowed" in states:
        states = tuple(s for s in states if s != "Slowed")
        steps.append(Step(f"{a.id} declares Move without moving: its Slowed State is cancelled", S.SLOWED_STATE,
                          "A Miner may cancel Slowed by declaring the Move Skill without moving.",
                          {"miner": a.id}, (a.id,), sec))
    end = mv.route[-1]
    facing = a.facing if move.facing is None else move.facing % 360.0
    state = state.with_miner(replace(a, x=end[0], y=end[1], facing=facing, states=states,
                                     on=mv.surfaces[-1] if mv.surfaces else a.on))
    if decl.move.interact is not None:
        state, more = interact(state, a.id, decl.move.interact, sec)
        steps += more
    pending = _add_state(state.pending_states, a.id, "Slowed") if mv.difficult else state.pending_states
    surf = {"route_surfaces": (mv.surfaces,)} if mv.surfaces else {}
    if mv.climbs:
        state = state.consulting({"climb_segment": state.ruling_set().reading("climb_segment")})
    return replace(state, step="move", routes=(mv.route,), pending_states=pending, **surf), tuple(steps)


# ----------------------------------------------------------------------------------------------------------- steps 2, 4


def aro_check(state: OrderState, ctx: OrderContext):
    """2.1 ARO check: each enemy Miner (and the MegaBeast) with LoF to the Active Miner at some point of its route,
    a Skill without LoF, or (Evade only) the Active Miner in its Hexagon gains the right to an ARO now."""
    rights, steps = check_rights(state, state.routes[0], 2)
    return replace(state, step="aro_check", rights=state.rights + rights), steps


def _timeline_place(state: OrderState, miner_id: str) -> int:
    """The place in the Timeline of ``miner_id``'s player (0 first); a Miner not on the table sorts last, where
    :func:`_declare_aros` refuses it by name."""
    m = next((x for x in state.miners if x.id == miner_id), None)
    return state.timeline_key(m) if m is not None else len(state.timeline)


def _declare_aros(state: OrderState, decl: OrderDeclarations, step: int, sec: str):
    """``(aros, steps, ARO firing points)`` of the AROs declared at ``step``."""
    steps = []
    new = []
    points: list[tuple[str, tuple[float, float]]] = []
    # 2.2 ARO declaration: the Reactive Players declare "following the Timeline"; one player's AROs keep the file's
    # order, and the refusals still name the file's index aros[k].
    mine = sorted(decl.indexed_aros_at(step, state.rights), key=lambda kd: _timeline_place(state, kd[1].miner))
    a = state.active_miner
    for i, (k, d) in enumerate(mine):
        f = f"order.aros[{k}]"
        right = state.right_of(d.miner)
        enemy_ids = [e.id for e in state.enemies_of(a)]
        if d.miner not in enemy_ids:
            raise refused(sec, f"{f}.miner", f"{d.miner!r} is not an enemy Miner of {a.id} on the table: only the "
                          "Reactive Players' Miners declare AROs", S.ORDERS_AND_AROS)
        if state.aro_of(d.miner) is not None or any(x.miner == d.miner for x in new):
            raise refused(sec, f"{f}.miner", f"{d.miner} has already declared its ARO this Order: an Order grants a "
                          "single ARO to each enemy Miner", S.ORDERS_AND_AROS)
        if d.skill not in ARO_SKILLS:
            raise refused(sec, f"{f}.skill", f"{d.skill!r} is not a Skill that can be declared as ARO "
                          f"({', '.join(ARO_SKILLS)})", S.ORDERS_AND_AROS)
        if right is None:
            raise refused(sec, f"{f}.miner", f"{d.miner} has no right to an ARO at step {step}: no LoF to {a.id} at "
                          "any point of its route, no Skill without LoF, not the target of an Attack and not in its "
                          "Hexagon" + (" (it may still gain one at step 4, once the second Skill is declared)" if step == 2
                                       else ""), S.ORDERS_AND_AROS)
        if right.step > step:
            raise refused(sec, f"{f}.step", f"{d.miner} has no right to an ARO at step {step}; it gains it at step "
                          f"{right.step} ({right.reason.replace('_', ' ')})", S.ORDERS_AND_AROS)
        if d.skill in ATTACKS:
            r = state.miner(d.miner)
            if d.weapon is not None and d.weapon not in [w.name for w in r.all_weapons]:
                raise refused(sec, f"{f}.weapon", f"{d.miner} carries no Weapon {d.weapon!r} "
                              f"({', '.join(w.name for w in r.all_weapons) or 'no Weapons'})", S.TOOLS)
            if d.weapon is None and not r.all_weapons:
                raise refused(sec, f"{f}.weapon", f"{d.miner} carries no Weapon to attack with", S.TOOLS)
            kind = "ranged" if d.skill == "ranged_attack" else "close_combat"
            if d.weapon is None and not any(w.kind == kind for w in r.all_weapons):
                raise refused(sec, f"{f}.weapon", f"{d.miner} carries no {kind.replace('_', ' ')} Weapon for "
                              f"{SKILL_WORDS[d.skill]} ({', '.join(w.name for w in r.all_weapons)})", S.TOOLS)
        if d.fire_at is not None:
            if d.skill != "ranged_attack":
                raise refused(sec, f"{f}.fire_at", f"only a Ranged Attack ARO names the point of {a.id}'s route it is "
                              f"fired at, not {SKILL_WORDS[d.skill]}", S.RANGED_ATTACK)
            route = state.routes[0] if state.routes else ((a.x, a.y),)
            point, frac = firing_point(route, d.fire_at, f"{f}.fire_at", sec)
            points.append((d.miner, point))
        new.append(d)
        steps.append(Step(f"{d.miner} declares {SKILL_WORDS[d.skill]}" + (" as ARO" if d.skill != "none" else "")
                          + (f" with {d.weapon}" if d.weapon else "") + f" against {a.id}",
                          S.ORDERS_AND_AROS, "AROs are declared in Timeline order and always target the Active "
                          "Miner." + (" Only Evade is allowed here (same Hexagon, no LoF); anything else counts as "
                                      "Idle at Resolution." if right.evade_only and d.skill not in ("evade", "none")
                                      else ""),
                          {"miner": d.miner, "skill": d.skill, "step": step}, (d.miner, a.id), sec))
        if d.fire_at is not None:
            steps.append(Step(f"{d.miner} fires its ARO at {a.id} at ({point[0]:.3f}, {point[1]:.3f}), {frac:.0%} of "
                              "the way along its Move", S.ORDERS_AND_AROS,
                              "Orders and AROs are simultaneous, yet the MinerBot example of Orders and AROs has the "
                              "target fire at the end of the Active Miner's Movement, where the Range suits its "
                              "Weapon: its Range and the Active Miner's Partial Cover are measured from there at "
                              "Resolution.", {"miner": d.miner, "fire_at": list(point), "route_fraction": frac},
                              (d.miner, a.id), sec))
    declared = {d.miner for d in new}
    aros = state.aros + tuple((d.miner, d) for d in new)
    for r in state.rights:
        if r.step == step and r.miner not in declared and (state.megabeast is None or r.miner != state.megabeast.id):
            steps.append(Step(f"{r.miner} declares no ARO: its right is lost for this Order", OES,
                              "A Miner that may declare an ARO and does not loses it.",
                              {"miner": r.miner, "skill": "none", "step": step}, (r.miner,), sec))
        if state.megabeast is not None and r.miner == state.megabeast.id and r.step == step:
            b = state.megabeast.behavior
            what = dict(b.attack).get("name", "its Behavior Attack") if b.attack else "its Behavior"
            steps.append(Step(f"{r.miner} declares the ARO of its Behavior ({what})", S.MEGABEAST_AROS,
                              "The MegaBeast declares the ARO its Behavior specifies"
                              + ("; its Behavior shows the Movement symbol, so it moves now." if b.moves else "."),
                              {"miner": r.miner, "behavior_moves": b.moves, "step": step}, (r.miner,), sec))
    # a later-step ARO the file puts at this step is refused by its own step; a right at step 2 declared at step 4:
    if step == 4:
        for k, d in enumerate(decl.aros):
            if d.step == 4 and (r := state.right_of(d.miner)) is not None and r.step == 2:
                raise refused(sec, f"order.aros[{k}].step", f"{d.miner} had the right to an ARO at "
                              "step 2; AROs must be declared right after the Move, otherwise the right is lost",
                              S.ORDERS_AND_AROS)
    return aros, tuple(steps), tuple(points)


def _megabeast_moves(state: OrderState, step: int, sec: str):
    """The MegaBeast that declares its Behavior's ARO at ``step`` moves now when its Behavior shows the Movement
    symbol (:func:`.megabeast.behavior_move`)."""
    mb = state.megabeast
    if mb is None or not mb.behavior.moves:
        return state, ()
    r = state.right_of(mb.id)
    if r is None or r.step != step:
        return state, ()
    return behavior_move(state, sec)


def aro_declaration(state: OrderState, ctx: OrderContext):
    """2.2 ARO declaration, in Timeline order; a Miner with the right that declares nothing loses it; the MegaBeast
    declares its Behavior's ARO."""
    aros, steps, points = _declare_aros(state, ctx.declarations, 2, "2.2 ARO declaration")
    state, more = _megabeast_moves(state, 2, "2.2 ARO declaration")
    return replace(state, step="aro_declaration", aros=aros, aro_points=state.aro_points + points), steps + more


FIRE_POINT_TOLERANCE = 1e-6
"""How far (board units) a declared firing point ``(x, y)`` may lie from the Move's route."""


def firing_point(route, fire_from, field: str, sec: str) -> tuple[tuple[float, float], float]:
    """The point of ``route`` (points, start included) named by ``fire_from`` and its fraction of the route's length:
    ``fire_from`` a fraction 0..1 of the length, or a point ``(x, y)`` within :data:`FIRE_POINT_TOLERANCE` of the
    route (then the nearest route point to it). Sections: Line of Fire and Distances › Line of Fire (360° LoF all
    along the route of a Miner that declared Move); Common Skills › Ranged Attack (Effects: every Attack from the same
    point); Activating a Miner › Orders and AROs (the MinerBot example fires at the beginning of the Movement).

    Raises:
        RuleViolation: a point off the route (naming ``field``).
    """
    legs = list(zip(route, route[1:]))
    lengths = [math.dist(p, q) for p, q in legs]
    total = sum(lengths)
    if not isinstance(fire_from, tuple):
        want, done = fire_from * total, 0.0
        for (p, q), d in zip(legs, lengths):
            if done + d >= want and d > 0:
                t = (want - done) / d
                return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t), float(fire_from)
            done += d
        return tuple(route[-1]), float(fire_from)
    best = (math.dist(fire_from, route[0]), tuple(route[0]), 0.0)
    done = 0.0
    for (p, q), d in zip(legs, lengths):
        t = 0.0 if d == 0 else max(0.0, min(1.0, ((fire_from[0] - p[0]) * (q[0] - p[0])
                                                 + (fire_from[1] - p[1]) * (q[1] - p[1])) / (d * d)))
        c = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        if math.dist(fire_from, c) < best[0]:
            best = (math.dist(fire_from, c), c, (done + t * d) / total if total else 0.0)
        done += d
    if best[0] > FIRE_POINT_TOLERANCE:
        raise refused(sec, field, f"({fire_from[0]:g}, {fire_from[1]:g}) is not on the Move's route (the nearest "
                      f"route point is {best[0]:.3g} board units away): a Miner that declared Move executes its "
                      "Skills from a point of its route", S.LINE_OF_FIRE)
    return best[1], best[2]


def second_skill(state: OrderState, ctx: OrderContext):
    """3 the second Skill: Close Combat Attack, Ranged Attack (Weapon and Burst split declared with it), Evade, Idle
    or Move (a second Move uses the second Movement value)."""
    sec = "3 Second Skill"
    a = state.active_miner
    sk = ctx.declarations.second
    if sk.skill not in SECOND_SKILLS:
        raise refused(sec, "order.second.skill", f"{sk.skill!r} cannot be the second Skill of an Order "
                      f"({', '.join(SECOND_SKILLS)})", S.ORDERS_AND_AROS)
    steps: list[Step] = []
    if sk.fire_from is not None and sk.skill != "ranged_attack":
        raise refused(sec, "order.second.fire_from", f"only a Ranged Attack names a firing point on the route, not "
                      f"{SKILL_WORDS[sk.skill]}", S.RANGED_ATTACK)
    if sk.skill == "move":
        if sk.move is None:
            raise refused(sec, "order.second.move", "a second Move needs its route", S.MOVE)
        move, cut = sk.move, ()
        if move.interact is not None:
            move, cut = stop_at_contact(state, a.id, move, move.interact, sec, "order.second.move")
        mv = check_move(state, a.id, move, 1, sec, "order.second.move")
        steps += [s.in_section(sec) for s in cut + mv.steps]
        end = mv.route[-1]
        facing = a.facing if sk.move.facing is None else sk.move.facing % 360.0
        state = state.with_miner(replace(a, x=end[0], y=end[1], facing=facing,
                                         on=mv.surfaces[-1] if mv.surfaces else a.on))
        if sk.move.interact is not None:
            state, more = interact(state, a.id, sk.move.interact, sec, "order.second.move.interact")
            steps += more
        pending = _add_state(state.pending_states, a.id, "Slowed") if mv.difficult else state.pending_states
        surf = {}
        if mv.climbs:
            state = state.consulting({"climb_segment": state.ruling_set().reading("climb_segment")})
        if mv.surfaces or state.route_surfaces:
            first = state.route_surfaces[0] if state.route_surfaces else ((a.on,) * len(state.routes[0])
                                                                          if state.routes else ())
            surf = {"route_surfaces": (first, mv.surfaces or (a.on,) * len(mv.route))}
        return replace(state, step="second_skill", second=sk, routes=state.routes + (mv.route,),
                       pending_states=pending, **surf), tuple(steps)
    if sk.skill in ATTACKS:
        kind = "ranged" if sk.skill == "ranged_attack" else "close_combat"
        if sk.weapon is not None and sk.weapon not in [w.name for w in a.all_weapons]:
            raise refused(sec, "order.second.weapon", f"{a.id} carries no Weapon {sk.weapon!r}", S.TOOLS)
        if sk.weapon is None and not any(w.kind == kind for w in a.all_weapons):
            raise refused(sec, "order.second.weapon", f"{a.id} carries no {kind.replace('_', ' ')} Weapon for "
                          f"{SKILL_WORDS[sk.skill]} ({', '.join(w.name for w in a.all_weapons) or 'no Weapons'})",
                          S.TOOLS)
        w = a.weapon(sk.weapon, kind)
        if not sk.targets:
            raise refused(sec, "order.second.targets", "an Attack needs at least one target", S.RANGED_ATTACK)
        known = [e.id for e in state.enemies_of(a)] + ([state.megabeast.id] if state.megabeast else [])
        for i, t in enumerate(sk.targets):
            if t.target not in known:
                raise refused(sec, f"order.second.targets[{i}].target", f"{t.target!r} is not an enemy Miner or the "
                              f"MegaBeast ({', '.join(known)})", S.RANGED_ATTACK)
        if len(sk.targets) > 1 and any(t.burst is None for t in sk.targets):
            raise refused(sec, "order.second.targets", "with several targets the split of the Burst is declared with "
                          "the Attack", S.RANGED_ATTACK if kind == "ranged" else S.CLOSE_COMBAT_ATTACK)
        split = sum(w.burst if t.burst is None else t.burst for t in sk.targets)
        if split != w.burst:
            raise refused(sec, "order.second.targets", f"the Burst split adds up to {split}, {w.name} has Burst "
                          f"{w.burst}", S.RANGED_ATTACK if kind == "ranged" else S.CLOSE_COMBAT_ATTACK)
        steps.append(Step(f"{a.id} declares {SKILL_WORDS[sk.skill]} with {w.name} at "
                          + ", ".join(f"{t.target} ({w.burst if t.burst is None else t.burst})" for t in sk.targets),
                          S.RANGED_ATTACK if kind == "ranged" else S.CLOSE_COMBAT_ATTACK,
                          "The Weapon and the split of its Burst are declared with the Attack; its Requirements are "
                          "checked at Resolution.", {"skill": sk.skill, "weapon": w.name,
                                                     "targets": [t.target for t in sk.targets]}, (a.id,), sec))
        if sk.fire_from is not None:
            route = state.routes[0] if state.routes else ((a.x, a.y),)
            point, frac = firing_point(route, sk.fire_from, "order.second.fire_from", sec)
            steps.append(Step(f"{a.id} executes its Ranged Attack from ({point[0]:.3f}, {point[1]:.3f}), "
                              f"{frac:.0%} of the way along its Move", S.LINE_OF_FIRE,
                              "A Miner that declared Move draws 360° LoF all along its route; every Attack is "
                              "declared from the same point (Common Skills › Ranged Attack, Effects), and the "
                              "MinerBot example of Orders and AROs fires at the beginning of the Movement. Its LoF "
                              "and its targets' Partial Cover are measured from this point at Resolution.",
                              {"miner": a.id, "fire_point": list(point), "route_fraction": frac}, (a.id,), sec))
            return replace(state, step="second_skill", second=sk, fire_point=point), tuple(steps)
        route = state.routes[0] if state.routes else ()
        moved = kind == "ranged" and len(route) > 1 and math.dist(route[0], route[-1]) > FIRE_POINT_TOLERANCE
        if moved and state.ruling_set().reading("route_fire_point") == "move_end":
            # no point declared, reading move_end: the Miner fires where step 1.2 put it; the reading decided it
            state = state.consulting({"route_fire_point": "move_end"})
        elif moved:
            # no point declared: ruling route_fire_point (default move_start, the MinerBot example)
            point = (float(route[0][0]), float(route[0][1]))
            steps.append(Step(f"{a.id} executes its Ranged Attack from ({point[0]:.3f}, {point[1]:.3f}), where its "
                              "Move began (no firing point declared)", S.ORDERS_AND_AROS,
                              "The MinerBot example of Orders and AROs makes the Active Miner's shots at the "
                              "beginning of its Movement; ruling 'route_fire_point = move_start' takes that point "
                              "when the Order names none. Its LoF, Range and its targets' Partial Cover are measured "
                              "from this point at Resolution.",
                              {"miner": a.id, "fire_point": list(point), "route_fraction": 0.0,
                               "ruling": "route_fire_point"}, (a.id,), sec))
            state = state.consulting({"route_fire_point": "move_start"})
            return replace(state, step="second_skill", second=sk, fire_point=point), tuple(steps)
    else:
        steps.append(Step(f"{a.id} declares {SKILL_WORDS[sk.skill]}", S.EVADE if sk.skill == "evade" else S.IDLE,
                          "Evade is always allowed to the Active Miner." if sk.skill == "evade" else
                          "Idle performs no action; it only activates the Miner.", {"skill": sk.skill}, (a.id,), sec))
    return replace(state, step="second_skill", second=sk), tuple(steps)


def aro_check_again(state: OrderState, ctx: OrderContext):
    """4.1 ARO check for the MegaBeast and the Miners without a right from step 2: LoF along a second Move, being the
    target of the Attack, the Active Miner in their Hexagon."""
    a = state.active_miner
    route = state.routes[1] if len(state.routes) > 1 else ((a.x, a.y),)
    rights, steps = check_rights(state, route, 4, state.second.target_names())
    return replace(state, step="aro_check_again", rights=state.rights + rights), steps


def aro_declaration_again(state: OrderState, ctx: OrderContext):
    """4.2 those who gained the right at step 4 declare their ARO as at 2.2."""
    aros, steps, points = _declare_aros(state, ctx.declarations, 4, "4.2 ARO declaration")
    state, more = _megabeast_moves(state, 4, "4.2 ARO declaration")
    return (replace(state, step="aro_declaration_again", aros=aros, aro_points=state.aro_points + points),
            steps + more)


# ----------------------------------------------------------------------------------------------------------- step 5


def resolution(state: OrderState, ctx: OrderContext):
    """5 Resolution: the board decides the facts (LoF, contact now and at activation, same Hexagon, Partial Cover,
    Threat Level), Skills that fail their Requirements count as Idle, and the roll resolver makes the Rolls, Saving
    Rolls, Wounds, Neomaterials and Loot."""
    sec = "5 Resolution"
    res, facts, consulted = resolve_roll(state, ctx.dice, {d.miner: f"order.aros[{k}]"
                                                           for k, d in reversed(tuple(enumerate(ctx.declarations.aros)))})
    # the roll resolver's own "Conclusion" note (it reorients) is left to step 5.2, which computes the facing, and
    # its "X Respawns" to this Order's Death step, which places the Miner on a free Access Point of the board (or
    # says it cannot: a table without Access Points, every one taken)
    steps = list(facts) + [s.in_section(f"5 Resolution › {s.section}" if s.section else sec)
                           for s in res.trace.steps if s.section != "Conclusion" and s.rule != S.RESPAWN]
    miners = []
    gains_t, gains_b = dict(state.teseum), dict(state.t_bezoar)
    for m in state.miners:
        r = res.miners.get(m.id)
        if r is None:
            miners.append(m)
            continue
        zone = m.scoring_zone + r.teseum + r.t_bezoar
        gains_t[m.side] = gains_t.get(m.side, 0) + r.teseum
        gains_b[m.side] = gains_b.get(m.side, 0) + r.t_bezoar
        miners.append(replace(m, wounds=r.wounds_left, scoring_zone=zone))
    mb = state.megabeast
    if mb is not None and res.megabeast is not None:
        mb = replace(mb, wounds=res.megabeast.wounds_left,
                     fury_tokens=tuple(p for p in mb.fury_tokens if p not in res.megabeast.fury_tokens_removed))
    pending = state.pending_states
    for target, sts in (roll_numbers(res)[3] or {}).items():
        for st in sts:
            pending = _add_state(pending, target, st)
    dead = tuple(n for n in res.dead if mb is None or n != mb.id)
    known = dict(state.consulted)
    return replace(state, step="resolution", miners=tuple(miners), megabeast=mb, resolution=res,
                   consulted=state.consulted + tuple((k, v) for k, v in consulted.items() if k not in known),
                   pending_states=pending, dead=dead, teseum=tuple(gains_t.items()),
                   t_bezoar=tuple(gains_b.items())), tuple(steps)


def effects(state: OrderState, ctx: OrderContext):
    """5.1 Effects: Evade movements (one Segment; the Active Miner first, then Timeline order; they generate no
    ARO); Difficult Terrain for Miners that performed an ARO in it."""
    sec = "5.1 Effects"
    steps: list[Step] = []
    allowed = set(state.resolution.evade_moves)
    asked = dict(ctx.declarations.evade_moves)
    dropped = []
    for mid in list(asked):
        if mid in allowed:
            continue
        declared_evade = ((mid == state.active and state.second is not None and state.second.skill == "evade")
                          or (state.aro_of(mid) is not None and state.aro_of(mid).skill == "evade"))
        if not declared_evade:
            raise refused(sec, f"order.evade_moves.{toml_key(mid)}", f"{mid} declared no Evade in this Order, so it has no "
                          "Evade movement", S.EVADE)
        reading = dict(state.resolution.rulings).get("evade_movement")
        why = (f"its Evade Roll did not allow the move (ruling 'evade_movement = {reading}': the single Evade Roll "
               "must win every Face to Face Roll it made)" if reading == "wins_all" else
               "its Evade Roll was not a successful Evade Roll")
        dropped.append((mid, why))
        del asked[mid]
        steps.append(Step(f"{mid}'s declared Evade movement is dropped: {why}", S.EVADE,
                          "Only a successful Evade Roll from an Order or ARO lets the Miner move one Segment; the "
                          "Miner stays where it is.", {"miner": mid, "dropped": True,
                                                       "ruling": reading}, (mid,), sec))
    moved = []
    order = sorted(asked, key=lambda x: (x != state.active, state.timeline_key(state.miner(x))))
    surfaces = dict(ctx.declarations.evade_on)
    for mid in order:
        m = state.miner(mid)
        surface = surfaces.get(mid, m.on)
        if surface != m.on and state.ruling_set().reading("evade_climb") == "no_climb":
            state = state.consulting({"evade_climb": "no_climb"})
            where = f"onto {surface}" if surface else f"down from {m.on}"
            why = (f"it would climb {where}, and under ruling 'evade_climb = no_climb' an Evade movement stays on the "
                   "surface it starts on")
            dropped.append((mid, why))
            steps.append(Step(f"{mid}'s declared Evade movement is dropped: {why}", S.EVADE,
                              "Climbing is read as an Effect of Move only; the Miner stays where it is.",
                              {"miner": mid, "dropped": True, "ruling": "no_climb"}, (mid,), sec))
            continue
        state, step = _evade_movement(state, m, asked[mid], surface, sec)
        moved.append((mid, (state.miner(mid).x, state.miner(mid).y)))
        steps.append(step)
    for mid in sorted(allowed - set(asked)):
        steps.append(Step(f"{mid} may move one Segment (Evade) and stays where it is", S.EVADE, "",
                          {"miner": mid}, (mid,), sec))
    pending = state.pending_states
    for mid, d in state.aros:
        if d.skill != "none" and mid in [m.id for m in state.miners] and in_difficult_terrain(state, mid):
            pending = _add_state(pending, mid, "Slowed")
            steps.append(Step(f"{mid} performed an ARO in Difficult Terrain: Slowed at the end of the Order",
                              S.SPECIAL_TERRAIN, "", {"miner": mid}, (mid,), sec))
    return replace(state, step="effects", pending_states=pending, evade_moved=tuple(moved),
                   evade_dropped=tuple(dropped)), tuple(steps)


def _evade_movement(state: OrderState, m, point: Point, surface: str | None, sec: str):
    """One Evade movement of Miner ``m`` to ``point``, ending on ``surface`` (a scenery piece's id, ``None`` the
    ground): one Segment (Common Skills › Evade, Effects), checked as a Move of one Segment (Slowed: one less). A
    change of surface climbs up or down the piece, which takes that whole Segment (Move › Effects); whether an Evade
    movement may climb at all is ruling ``evade_climb`` (consulted here under ``climbs``).

    Returns:
        ``(state, step)``: the Miner moved (and standing on ``surface``) and the step saying so.
    Raises:
        RuleViolation: the movement breaks a Move Requirement or is longer than one Segment (a climb under
            ``evade_climb = no_climb`` never comes here: :func:`effects` drops it with a step).
    """
    field = f"order.evade_moves.{toml_key(m.id)}"
    climbs = surface != m.on
    st = state.with_miner(replace(m, movement=(1, 1)))
    consulted = {}
    if climbs:
        consulted["evade_climb"] = state.ruling_set().reading("evade_climb")
        consulted["climb_segment"] = state.ruling_set().reading("climb_segment")
    try:
        mv = check_move(st, m.id, MoveDecl((point,), on=(surface,) if climbs else None), 0, sec, field)
    except RuleViolation as e:
        # check_move names a Move's fields (route[0], on[0]); an Evade movement is one point in evade_moves and its
        # surface in evade_on: name the field the file writes
        raise _evade_field(e, m.id) from None
    end = mv.route[-1]
    state = state.with_miner(replace(m, x=end[0], y=end[1], on=surface)).consulting(consulted)
    where = (f", climbing onto {surface}" if surface else f", climbing down from {m.on}") if climbs else ""
    return state, Step(f"{m.id} makes its Evade movement ({mv.length:.2f} board units, one Segment{where})", S.EVADE,
                       "A successful Evade Roll from an Order or ARO lets the Miner move one Segment (the Active "
                       "Miner first, then Timeline order); this movement generates no ARO."
                       + (" Climbing up or down the piece takes that whole Segment (ruling evade_climb = climbs)."
                          if climbs else ""),
                       {"miner": m.id, "route": [list(p) for p in mv.route],
                        **({"on": surface or ""} if climbs else {})}, (m.id,), sec)


def _evade_field(e: RuleViolation, miner_id: str) -> RuleViolation:
    """A refusal of :func:`.move.check_move` for an Evade movement, its field named as the file writes it: the
    surface (``.on``, ``.on[0]``) is ``order.evade_on.<Miner>``, the point (``.route``, ``.route[0]``)
    ``order.evade_moves.<Miner>``."""
    r = e.rejection
    key = toml_key(miner_id)
    base = f"order.evade_moves.{key}"
    tail = r.field[len(base):] if r.field.startswith(base) else ""
    fld = f"order.evade_on.{key}" if tail.startswith(".on") else base if tail.startswith(".route") else r.field
    return RuleViolation(r.reason, r.rule, field=fld, step=r.step, source=e.source)


def conclusion(state: OrderState, ctx: OrderContext):
    """5.2 Conclusion: the MegaBeast redirects when it declared no ARO and was targeted, or the Active TAG was in an
    adjacent Hexagon during its activation (facing computed: Active Miner plus the most TAGs)."""
    state, steps = conclusion_redirect(state)
    return replace(state, step="conclusion"), steps


def end_of_order(state: OrderState, ctx: OrderContext):
    """5.3 End of the Order: States take effect (one Token per State; not on a Miner that died), then Death and
    Respawn of the dead in Timeline order."""
    sec = "5.3 End of the Order"
    steps: list[Step] = []
    for mid, st in state.pending_states:
        if state.megabeast is not None and mid == state.megabeast.id:
            continue
        m = state.miner(mid)
        if mid in state.dead:
            continue
        if st in m.states:
            steps.append(Step(f"{mid} already has a {st} Token: no second one", S.STATES, "",
                              {"miner": mid, "state": st, "entered": False}, (mid,), sec))
            continue
        state = state.with_miner(replace(m, states=m.states + (st,)))
        state = replace(state, states_entered=state.states_entered + ((mid, st),))
        steps.append(Step(f"{mid} is now in the {st} State", S.SLOWED_STATE if st == "Slowed" else S.STATES,
                          "Miners are affected by States at the end of the Order in which they suffered them; one "
                          "Token per State.", {"miner": mid, "state": st, "entered": True}, (mid,), sec))
    loot = {n: r.loot for n, r in state.resolution.miners.items() if r.loot is not None}
    no_room = state.ruling_set().reading("respawn_no_room") if state.dead else "reroll"
    state, dsteps = apply_deaths(state, state.dead, ctx.dice.respawn, ctx.dice.seed, loot, no_room)
    steps += dsteps
    steps.append(Step(f"End of {state.active}'s Order", OES, "", {"orders_left": state.active_miner.orders},
                      (state.active,), sec))
    return replace(state, step="end_of_order"), tuple(steps)


STEPS: kernel.Sequence = (
    ("1 Activation", activation),
    ("1.2 First Skill: Move", first_skill_move),
    ("2.1 ARO check", aro_check),
    ("2.2 ARO declaration", aro_declaration),
    ("3 Second Skill", second_skill),
    ("4.1 ARO check", aro_check_again),
    ("4.2 ARO declaration", aro_declaration_again),
    ("5 Resolution", resolution),
    ("5.1 Effects", effects),
    ("5.2 Conclusion", conclusion),
    ("5.3 End of the Order", end_of_order),
)
"""The Order Expenditure Sequence, in order: ``(name, step function)`` (a :data:`explorer.kernel.Sequence`)."""


def play(initial: OrderState, decl: OrderDeclarations, dice: OrderDice,
         upto: int | None = None) -> tuple[Frame[OrderState], ...]:
    """Replay the Order from ``initial``: the first ``upto`` steps of :data:`STEPS` (all when ``None``), one
    :class:`explorer.kernel.Frame` each (:func:`explorer.kernel.play` with the Order's :class:`OrderContext`).

    Raises:
        RuleViolation: a declaration the rules refuse (step, field, reason, section).
    """
    return kernel.play(initial, STEPS, OrderContext(declarations=decl, dice=dice), upto=upto)


def play_until_refused(initial: OrderState, decl: OrderDeclarations, dice: OrderDice) -> tuple[
        tuple[Frame[OrderState], ...], RuleViolation | None]:
    """Like :func:`play`, but stop at the first refused declaration and return it
    (:func:`explorer.kernel.play_until_refused`)."""
    return kernel.play_until_refused(initial, STEPS, OrderContext(declarations=decl, dice=dice))


def play_until_rejected(initial: OrderState, decl: OrderDeclarations, dice: OrderDice) -> tuple[
        tuple[Frame[OrderState], ...], Rejection | None]:
    """:func:`play_until_refused` with the refusal as data (its :class:`~explorer.errors.Rejection`): the old name,
    for the stepper and the notebooks."""
    frames, refusal = play_until_refused(initial, decl, dice)
    return frames, None if refusal is None else refusal.rejection


def readings_of(state: OrderState) -> dict[str, str]:
    """The ruling readings an Order consulted: its roll exchange's (step 5), then those its own steps consulted
    (:attr:`.state.OrderState.consulted`: ``megabeast_facing_tie``, ``tool_container_draws``,
    ``loot_token_megabeast``)."""
    out = dict(state.resolution.rulings) if state.resolution is not None else {}
    out.update(state.consulted)
    return out


def trace_of(title: str, frames: tuple[Frame[OrderState], ...]) -> Trace:
    """A :class:`~explorer.trace.Trace` of the whole Order (every step, sections by sequence step; the readings of
    :func:`readings_of`)."""
    return kernel.trace_of(title, frames, readings_of(frames[-1].state) if frames else {})
