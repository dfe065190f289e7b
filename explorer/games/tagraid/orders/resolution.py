"""Step 5 of the Order Expenditure Sequence: Resolution, from the board to the one roll resolver.

Sections: Activating a Miner › Order Expenditure Sequence, step 5 (Requirements checked, measurements made, a Skill
that fails its Requirements counts as Idle); Common Skills › Ranged Attack, Close Combat Attack, Evade (Requirements
and MODs); Damage › Partial Cover; MegaBeast › Threat Level; Line of Fire and Distances.

:func:`roll_scenario` states the roll exchange the board decides: who has LoF to whom (along the Move routes), who is
in Silhouette Contact now and was at activation, same Hexagon, Partial Cover, the MegaBeast's Threat Level on the
side facing the Active Miner, and the Skills that already fail a Requirement the roll scenario cannot express
(a Ranged Attack without LoF to its target, the wrong kind of Weapon). It then hands the exchange to
:func:`explorer.games.tagraid.resolve.resolve_detailed` — one resolver, not two.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from explorer.errors import RuleViolation, ScenarioError
from explorer.scenario import toml_key
from explorer.text import plural
from explorer.trace import Step

from .. import sections as S
from ..lof import line_of_fire, partial_cover
from ..lof_report import band_words
from ..ranges import OUT_OF_RANGE, measure_range
from ..megabeast import threat_level
from ..model import parse_scenario
from .state import OrderState

ATTACKS = ("ranged_attack", "close_combat_attack")
WEAPON_KIND = {"ranged_attack": "ranged", "close_combat_attack": "close_combat"}
SKILL_WORDS = {"ranged_attack": "Ranged Attack", "close_combat_attack": "Close Combat Attack", "evade": "Evade",
               "idle": "Idle", "none": "no ARO"}


def _weapon_table(w) -> dict[str, Any]:
    t = {"name": w.name, "damage": w.damage, "burst": w.burst, "ammunition": w.ammunition,
         "traits": [t for t in w.traits if t == "Armor = 0"], "states": list(w.states)}
    if not w.needs_lof:  # the card lacks the LoF symbol: no LoF Requirement, no Partial Cover (partial_cover_glyph)
        t["needs_lof"] = False
    return t


def _fact_step(title: str, rule, detail: str, marks, **facts) -> Step:
    return Step(title, rule, detail, facts, tuple(marks), "5 Resolution")


def _range_mod(table, shooter: str, target: str, ranges, rul, calibration, where: str):
    """Range Ruler from ``shooter`` to ``target`` on ``table`` with a Weapon's Range MODs: ``(MOD or None for Out of
    Range, band, step, readings consulted)``; MOD 0 and band ``None`` when there is no LoF to lay the ruler along (no
    Range MOD). Sections: Distances and
    Measurements › Range Ruler; Common Skills › Ranged Attack (Ranged Combat MODs: only Weapons that say so fire Out
    of Range)."""
    rng = measure_range(table, shooter, target, rul, calibration)
    if rng.band is None:
        return 0, None, _fact_step(f"{shooter} has no LoF to {target} {where}: no Range to measure, no Range MOD",
                                   S.RANGE_RULER, "The Range Ruler follows the LoF; without one it cannot be laid.",
                                   (shooter, target), miner=shooter, target=target, band=None,
                                   range_mod=None), rng.rulings
    band, mod = rng.weapon(ranges)
    d = rng.shown(3)
    if mod is None:
        past = "beyond the Long Range Segment" if rng.band == OUT_OF_RANGE else f"at {band_words(rng.band)}"
        return None, band, _fact_step(f"{target} is Out of Range of {shooter}'s Weapon {where} ({past}, {d:.3f} hex "
                                "units): the Ranged Attack automatically fails (no dice)", S.RANGE_RULER,
                                "The Range Ruler, laid from the shooter's base edge along the LoF, ends in a Segment "
                                "where the Weapon has no MOD; only Weapons that say so may fire Out of Range (Common "
                                "Skills › Ranged Attack).", (shooter, target), miner=shooter, target=target,
                                band=band, distance=d, range_mod=None), rng.rulings
    return mod, band, _fact_step(f"{target} is at {band_words(band)} of {shooter}'s Weapon {where} ({d:.3f} hex units): "
                           f"Range MOD "
                           f"{mod:+d}", S.RANGE_RULER, "The shortest Range Ruler Segment that overlaps the target's "
                           "Silhouette, the ruler laid from the shooter's base edge along the LoF; the MOD is the "
                           "Weapon's for that Segment.", (shooter, target), miner=shooter, target=target, band=band,
                           distance=d, range_mod=mod), rng.rulings


def _surface_at(state: OrderState | None, point, default):
    """The surface (scenery piece id or ``None``) at ``point`` of the Active Miner's first Move route: the surface of
    the leg nearest to it (a climbing leg counts as its start until its end). ``default`` when no route climbs."""
    if state is None or not state.route_surfaces or not state.routes or not state.route_surfaces[0]:
        return default
    route, surf = state.routes[0], state.route_surfaces[0]
    best = (math.inf, default)
    for i, (p, q) in enumerate(zip(route, route[1:])):
        d2 = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2
        t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((point[0] - p[0]) * (q[0] - p[0])
                                                   + (point[1] - p[1]) * (q[1] - p[1])) / d2))
        c = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        dist = math.dist(point, c)
        if dist < best[0] - 1e-12:
            best = (dist, surf[i + 1] if t >= 1.0 - 1e-9 else surf[i])
    return best[1]


def _moved(table, miner_id: str, point, state: OrderState | None = None):
    """``table`` with ``miner_id``'s base centre at ``point`` (``None``: unchanged), on the surface of the route
    there (:func:`_surface_at`)."""
    if point is None:
        return table
    here = table.model(miner_id)
    return table.with_model(replace(here, x=point[0], y=point[1], hex=None, on=_surface_at(state, point, here.on)))


def roll_scenario(state: OrderState, dice, aro_fields: Mapping[str, str] | None = None
                  ) -> tuple[dict[str, Any], tuple[Step, ...], dict[str, str]]:
    """The roll exchange of this Order as a roll-scenario document (see :mod:`explorer.games.tagraid.model`), the
    steps that say which facts came from the board, and the ruling readings the Range Ruler consulted (``{}`` when no
    Weapon card gives Range MODs).

    ``aro_fields``: ``{Miner: where its ARO declaration sits in the file}`` (``order.aros[1]``), named by a refusal
    of that ARO (default ``order.aros``: the list).

    Raises:
        RuleViolation: a Ranged Attack ARO fired at a point of the route without LoF (field ``<aro>.fire_at``).
    Raises:
        ScenarioError: fixed dice that do not match the rolls (field of the roll scenario).
    """
    a = state.active_miner
    second = state.second
    rul = state.ruling_set()
    table = state.table(moving=a.id)  # the Active Miner declared Move: 360° LoF this Order
    steps: list[Step] = []
    shot = table  # where the Active Miner's Ranged Attack is executed from: its LoF and its targets' Partial Cover
    if state.fire_point is not None:
        here = table.model(a.id)
        shot = table.with_model(replace(here, x=state.fire_point[0], y=state.fire_point[1], hex=None,
                                        on=_surface_at(state, state.fire_point, here.on)))
    skill = second.skill if second.skill in (*ATTACKS, "evade") else "idle"
    weapon = None
    attacks: list[dict[str, Any]] = []
    if skill in ATTACKS:
        weapon = a.weapon(second.weapon, WEAPON_KIND[skill])
        if weapon.kind != WEAPON_KIND[skill]:
            steps.append(_fact_step(f"{a.id}'s {SKILL_WORDS[skill]} with {weapon.name} fails its Requirements: it "
                                    "counts as Idle", S.RANGED_ATTACK_REQUIREMENTS if skill == "ranged_attack"
                                    else S.CLOSE_COMBAT_REQUIREMENTS,
                                    f"{weapon.name} is a {weapon.kind.replace('_', ' ')} Weapon; the Skill requires "
                                    f"a {WEAPON_KIND[skill].replace('_', ' ')} one (Skills and Tools › Tools). A "
                                    "Skill that fails its Requirements counts as Idle.", ("A",), miner=a.id,
                                    declared=skill, skill="idle"))
            skill = "idle"
    lost: list[str] = []
    if skill == "ranged_attack" and weapon.needs_lof:
        blind = [t.target for t in second.targets
                 if not line_of_fire(shot, a.id, t.target, rul, explain=False).has_lof]
        if blind and len(blind) < len(second.targets):
            # a split Burst with LoF to some targets only: the roll exchange decides by split_burst_without_lof
            lost, blind = blind, []
        if blind:
            where = "at Resolution" if state.fire_point is None else "from its firing point"
            steps.append(_fact_step(f"{a.id} has no LoF to {', '.join(blind)} {where}: its Ranged Attack counts "
                                    "as Idle", S.RANGED_ATTACK_REQUIREMENTS,
                                    "A Ranged Attack requires LoF to its target; the Skill fails its Requirements and "
                                    "counts as Idle (Order Expenditure Sequence, step 5).", ("A", *blind),
                                    miner=a.id, declared=skill, skill="idle", no_lof=blind))
            skill = "idle"
    if state.fire_point is not None and skill == "ranged_attack":
        fx, fy = state.fire_point
        seen = [t.target for t in second.targets if t.target not in lost]
        steps.append(_fact_step(f"{a.id} has LoF to {', '.join(seen)} from its firing point ({fx:.3f}, {fy:.3f})",
                                S.RANGED_ATTACK_REQUIREMENTS, "The Ranged Attack's Requirements and its targets' "
                                "Partial Cover are judged from the point of the route it is executed from (declared "
                                "at step 3), not from where the Move ends.", ("A", *seen), miner=a.id,
                                fire_point=[fx, fy], lof_to=seen))
    calibration = state.geometry.range_calibration
    consulted: dict[str, str] = {}  # readings the Range Ruler consulted (its LoF and range_measurement)
    range_mods: dict[str, int | None] = {}
    if skill == "ranged_attack" and weapon.ranges is not None:
        where = "from its firing point" if state.fire_point is not None else "at Resolution"
        for t in second.targets:
            if t.target not in lost:
                range_mods[t.target], _, st, used = _range_mod(shot, a.id, t.target, weapon.ranges, rul,
                                                               calibration, where)
                steps.append(st)
                consulted.update(used)
    mb = state.megabeast
    a_dice = dice.of(a.id)
    if skill in ATTACKS:
        used = 0
        for t in second.targets:
            share = weapon.burst if t.burst is None else t.burst
            at: dict[str, Any] = {"target": t.target, "burst": share}
            if t.target in lost:
                at["lof"] = False
            if t.target in range_mods:
                if range_mods[t.target] is None:
                    at["out_of_range"] = True
                elif range_mods[t.target]:
                    at["mods"] = {"Range": range_mods[t.target]}
            if a_dice is not None:
                at["dice"] = a_dice[used:used + share]
            used += share
            attacks.append(at)
        if a_dice is not None and len(a_dice) > used:
            # issue #25 item 4: a fixed list gives exactly the dice the roll uses; extra faces are refused, not dropped
            raise ScenarioError(f"dice.rolls.{toml_key(a.id)}", f"{plural(len(a_dice), 'die')} given but {a.id}'s "
                                f"{SKILL_WORDS[skill]} rolls {used} (Burst over its targets)",
                                f"exactly {plural(used, 'die')}")
    active: dict[str, Any] = {
        "name": a.id, "skill": skill, "armor": a.armor, "wounds": a.wounds,
        "attribute": {"ranged_attack": a.ranged_attack, "close_combat_attack": a.close_combat,
                      "evade": a.evade}.get(skill, 0),
        "states": list(a.states)[:1],
        "neomaterials": {"scoring_zone": a.scoring_zone, "warehouse": a.warehouse},
        "at_activation": {"silhouette_contact": bool(state.contact_at_activation)},
    }
    if state.contact_at_activation:
        steps.append(_fact_step(f"At activation {a.id} was in Silhouette Contact with "
                                f"{', '.join(state.contact_at_activation)}", S.RANGED_ATTACK_REQUIREMENTS,
                                "Where the Active Miner stood when the Order was activated (before its Move) is kept "
                                "for the Ranged Attack Requirement.", ("A",),
                                contact_at_activation=list(state.contact_at_activation)))
    if weapon is not None and skill in ATTACKS:
        active["weapon"] = _weapon_table(weapon)
        active["attacks"] = attacks
    elif skill == "evade" and a_dice is not None:
        if len(a_dice) > 1:
            raise ScenarioError(f"dice.rolls.{toml_key(a.id)}", f"{plural(len(a_dice), 'die')} given but {a.id}'s Evade rolls 1",
                                "exactly 1 die")
        active["dice"] = a_dice[:1]
    if dice.saves_of(a.id) is not None:
        active["save_dice"] = dice.saves_of(a.id)
    targets = set(second.target_names()) if skill in ATTACKS else set()
    # targets of an Attack that counts as Idle (above): they gained their ARO right at step 4, but are not attacked
    idle_targets = set(second.target_names()) if skill == "idle" and second.skill in ATTACKS else set()
    reactive: list[dict[str, Any]] = []
    enemies = sorted(state.enemies_of(a), key=state.timeline_key)
    in_contact_now = [r.id for r in enemies if table.in_contact(a.id, r.id)]
    attackers: list[str] = []
    for r in enemies:
        right = state.right_of(r.id)
        decl = state.aro_of(r.id)
        if right is None and r.id not in targets:
            continue
        aro = decl.skill if decl is not None else "none"
        lof_now = line_of_fire(table, r.id, a.id, rul, explain=False).has_lof
        lof = (right is not None and right.reason == "lof") or lof_now
        same = state.geometry.hex_of(r.x, r.y) == state.geometry.hex_of(a.x, a.y)
        contact = table.in_contact(a.id, r.id)
        entry: dict[str, Any] = {
            "name": r.id, "skill": aro, "armor": r.armor, "wounds": r.wounds, "lof_to_active": lof,
            "same_hexagon": same, "silhouette_contact": contact, "states": list(r.states)[:1],
            "neomaterials": {"scoring_zone": r.scoring_zone, "warehouse": r.warehouse},
            "enemy_tags_in_contact": min(6, sum(1 for x in state.enemies_of(r) if x.miner_type == "TAG"
                                                and table.in_contact(r.id, x.id))),
        }
        if r.id in idle_targets:
            entry["target_not_attacked"] = True
        if aro in ATTACKS:
            w = r.weapon(decl.weapon, WEAPON_KIND[aro])
            if w.kind != WEAPON_KIND[aro]:
                steps.append(_fact_step(f"{r.id}'s {SKILL_WORDS[aro]} ARO with {w.name} fails its Requirements: it "
                                        "counts as Idle", S.RANGED_ATTACK_REQUIREMENTS if aro == "ranged_attack"
                                        else S.CLOSE_COMBAT_REQUIREMENTS, f"{w.name} is not a "
                                        f"{WEAPON_KIND[aro].replace('_', ' ')} Weapon.", (r.id,), miner=r.id,
                                        declared=aro, skill="idle"))
                entry["skill"] = aro = "idle"
            else:
                if aro == "ranged_attack" and not w.needs_lof:
                    entry["lof_to_active"] = True
                if aro == "ranged_attack" and w.ranges is not None:
                    declared_at = dict(state.aro_points).get(r.id)
                    at_point = declared_at or state.fire_point
                    where = (f"at the point of {a.id}'s route it fires at" if declared_at else
                             f"at {a.id}'s firing point" if state.fire_point is not None else
                             f"at the end of {a.id}'s Move")
                    mod, band, st, used = _range_mod(_moved(table, a.id, at_point, state), r.id, a.id, w.ranges, rul,
                                                     calibration, where)
                    consulted.update(used)
                    if band is None and lof:
                        raise RuleViolation(f"{r.id} has no LoF to {a.id} {where}, only elsewhere on its route: "
                                            f"its Ranged Attack ARO is fired at a point of the route where it has "
                                            "LoF (name it with fire_at), and its Range is measured there",
                                            S.RANGE_RULER, field=f"{(aro_fields or {}).get(r.id, 'order.aros')}.fire_at", step="5 Resolution")
                    steps.append(st)
                    if mod is None:
                        entry["out_of_range"] = True
                    elif mod:
                        entry["mods"] = {"Range": mod}
                entry["weapon"] = _weapon_table(w)
                entry["attribute"] = r.ranged_attack if aro == "ranged_attack" else r.close_combat
                attackers.append(r.id)
        elif aro == "evade":
            entry["attribute"] = r.evade
        if r.id in targets and skill == "ranged_attack":
            cov = partial_cover(shot, a.id, r.id, rul)
            entry["partial_cover"] = cov.in_cover
            steps.append(_fact_step(cov.to_step().title + f" against {a.id}", S.PARTIAL_COVER, cov.detail,
                                    (r.id, "A"), miner=r.id, partial_cover=cov.in_cover, pieces=list(cov.pieces),
                                    **({"resolution": round(cov.resolution, 6)} if cov.resolution is not None
                                       else {})))
        d = dice.of(r.id)
        if d is not None and aro in (*ATTACKS, "evade"):
            entry["dice"] = d
        if dice.saves_of(r.id) is not None:
            entry["save_dice"] = dice.saves_of(r.id)
        steps.append(_fact_step(f"Board facts for {r.id}: LoF to {a.id} {'yes' if lof else 'no'}, same Hexagon "
                                f"{'yes' if same else 'no'}, Silhouette Contact {'yes' if contact else 'no'}",
                                S.LINE_OF_FIRE, (f"LoF from the ARO check (leg {right.leg + 1} of the route)"
                                                 if right is not None and right.reason == "lof" else
                                                 "LoF measured where the Miners stand at Resolution")
                                + "; the other facts where the Miners stand at Resolution.", (r.id, "A"), miner=r.id,
                                lof_to_active=lof, same_hexagon=same, silhouette_contact=contact))
        reactive.append(entry)
    active["enemy_tags_in_contact"] = min(6, sum(1 for x in in_contact_now if state.miner(x).miner_type == "TAG"))
    if skill == "evade":
        ok = all(line_of_fire(table, a.id, x, rul, explain=False).has_lof for x in attackers)
        active["lof_to_attackers"] = ok
    if attackers and skill != "evade":
        # where the first Ranged ARO hits the Active Miner: its declared point, else the Active Miner's firing point
        hit_at = dict(state.aro_points).get(attackers[0]) or state.fire_point
        cov = partial_cover(_moved(table, a.id, hit_at, state), attackers[0], a.id, rul)
        active["partial_cover"] = cov.in_cover
    doc: dict[str, Any] = {"title": f"{a.id}'s Order: Resolution", "seed": dice.seed, "active": active,
                           "reactive": reactive, "rulings": dict(state.rulings)}
    if mb is not None and (state.right_of(mb.id) is not None or mb.id in targets):
        tl = threat_level(shot, mb.id, a.id, mb.behavior.threat, rul)  # the side facing where A attacks from
        steps.append(tl.to_step())
        m: dict[str, Any] = {"name": mb.id, "threat_level": tl.level, "wounds": mb.wounds,
                             "fury_tokens": [p for p in mb.fury_tokens if p <= mb.wounds],
                             "hunting_trophy": mb.hunting_trophy, "aro": state.right_of(mb.id) is not None,
                             "silhouette_contact": table.in_contact(a.id, mb.id)}
        if mb.behavior.attack is not None and state.right_of(mb.id) is not None:
            m["behavior_attack"] = dict(mb.behavior.attack)
        doc["megabeast"] = m
    return doc, tuple(steps), consulted


def resolve_roll(state: OrderState, dice, aro_fields: Mapping[str, str] | None = None):
    """Build and resolve the roll exchange: ``(Resolution, board steps, readings the Range Ruler consulted)``. See
    :func:`roll_scenario`."""
    from ..resolve import resolve_detailed

    doc, steps, consulted = roll_scenario(state, dice, aro_fields)
    try:
        sc = parse_scenario(doc, None)
    except ScenarioError as e:
        raise _as_dice_field(e, doc) from None
    try:  # fixed dice that run out while rolling (a Saving Roll of a hit the file did not foresee)
        return resolve_detailed(sc, None, dict(state.rulings), exact_dice=True), steps, consulted
    except RuleViolation:
        raise
    except ScenarioError as e:
        raise _as_dice_field(e, doc) from None


def roll_numbers(res) -> tuple[Mapping[str, int], Mapping[str, int], Mapping[str, int],
                                Mapping[str, Any] | None]:
    """``(saving_rolls, failed_saves, wounds lost, states entered)`` of a resolved roll exchange (a
    :class:`~explorer.games.tagraid.resolve.Resolution`), each ``{name: value}`` in the order the trace reports them
    (``states``: ``None`` when no attack of the exchange can cause a State).

    Read from the exchange's typed outcome (``res.trace.result``, the roll resolver's ``RollOutcome``)."""
    r = res.trace.result
    return r.saving_rolls, r.failed_saves, r.wounds, r.states


def _as_dice_field(e: ScenarioError, doc: dict[str, Any]) -> ScenarioError:
    """A roll-scenario error about fixed dice, named as the order file writes them: ``active.attacks[0].dice`` ->
    ``dice.rolls.A``, ``reactive[1].save_dice`` -> ``dice.saves.R`` (no source: the file playing names itself)."""
    m = re.match(r"(active|reactive\[(\d+)\])(?:\.attacks\[\d+\])?\.(dice|save_dice)$", e.field)
    if m is None:
        return ScenarioError(e.field, e.problem, e.allowed)
    who = doc["active"]["name"] if m.group(1) == "active" else doc["reactive"][int(m.group(2))]["name"]
    kind = "saves" if m.group(3) == "save_dice" else "rolls"
    allowed = e.allowed.replace(f"'{m.group(3)}'", f"'dice.{kind}.{toml_key(who)}'") if isinstance(e.allowed, str) else e.allowed
    return ScenarioError(f"dice.{kind}.{toml_key(who)}", e.problem, allowed)
