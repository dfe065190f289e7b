"""Geometry facts of one Order, read from the table: what the roll exchange (``resolve``) takes as given.

:func:`geometry_facts` answers, for an Active Miner and the Reactive Models, the questions the resolution engine's
scenario fields ask (``lof_to_active``, ``same_hexagon``, ``partial_cover``, ``enemy_tags_in_contact``,
``out_of_range``, the MegaBeast's ``aro`` and ``threat_level``), each decided by the exact geometry and explained in a
:class:`~explorer.trace.Trace`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from explorer.options import Rulings
from explorer.text import plural
from explorer.trace import Trace

from . import sections as S
from .lof import TableTop, line_of_fire, partial_cover
from .megabeast import ThreatLevels, threat_level
from .options import rulings as default_rulings
from .ranges import OUT_OF_RANGE, DEFAULT_RANGE_CALIBRATION, RangeCalibration, WeaponRanges, measure_range, same_hexagon


def enemy_tags_in_contact(table: TableTop, model_id: str) -> list[str]:
    """Enemy Miners (TAGs) in Silhouette Contact with ``model_id`` (Interaction with Areas and Silhouettes)."""
    m = table.model(model_id)
    return [o.id for o in table.models.values() if o.id != m.id and m.is_enemy_miner_of(o) and table.in_contact(m, o)]


def geometry_facts(table: TableTop, active: str, reactive: Sequence[str] = (), *,
                   active_weapon: WeaponRanges | None = None,
                   reactive_weapons: Mapping[str, WeaponRanges] | None = None,
                   threat_levels: ThreatLevels | None = None, rulings: Rulings | None = None,
                   calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION) -> tuple[dict[str, Any], Trace]:
    """Facts for one Order from the Models' positions.

    Args:
        table: the table.
        active: the Active Miner's id.
        reactive: ids of the Reactive Miners and/or the MegaBeast (kind ``"megabeast"``).
        active_weapon: the Active Miner's Ranged Weapon (Range MOD against each reactive Model).
        reactive_weapons: ``{id: WeaponRanges}`` for Reactive Miners' ARO weapons (``out_of_range`` against the
            Active Miner).
        threat_levels: the MegaBeast's current Behavior Threat Levels (needed for ``threat_level``).
        rulings: TAG Raid rulings.

    Returns:
        ``(facts, trace)``. ``facts = {"active": {...}, "reactive": {id: {...}}, "megabeast": {...} | None}``:

        * ``active``: ``enemy_tags_in_contact`` (int), ``lof_to`` ({id: bool}), ``lof_to_attackers`` (it has LoF to
          every Reactive Miner), ``partial_cover_against`` ({id: bool}: the Active Miner as the target of that
          Model's ARO), ``range`` ({id: (band, MOD)} with ``active_weapon``).
        * ``reactive[id]`` (Miners): ``lof_to_active``, ``same_hexagon``, ``enemy_tags_in_contact``,
          ``silhouette_contact`` (with the Active Miner), ``partial_cover`` (as the target of the Active Miner), ``out_of_range`` (with its weapon), ``band``.
        * ``megabeast``: ``id``, ``aro`` (it has LoF to the Active Miner), ``threat_level`` and ``side_pair`` (with
          ``threat_levels``), ``partial_cover`` of the Active Miner against it, ``silhouette_contact`` (the Active
          Miner touches it).

    Raises:
        ScenarioError: unknown ids, a MegaBeast facing that does not point at a corner.
    """
    rulings = rulings or default_rulings()
    reactive_weapons = dict(reactive_weapons or {})
    trace = Trace(f"Geometry of the Order: {active} (Active) vs {', '.join(reactive) or 'nobody'}")
    a = table.model(active)
    act: dict[str, Any] = {"enemy_tags_in_contact": len(enemy_tags_in_contact(table, active)), "lof_to": {},
                           "partial_cover_against": {}, "range": {}}
    trace.add(f"{active} is in Silhouette Contact with {plural(act['enemy_tags_in_contact'], 'enemy TAG')}",
              S.AREAS_AND_SILHOUETTES, section="Contact", marks=(active,), count=act["enemy_tags_in_contact"])
    reac: dict[str, dict[str, Any]] = {}
    mb_facts = None
    for rid in reactive:
        r = table.model(rid)
        back = line_of_fire(table, r, a, rulings)
        trace.steps.append(back.to_step())
        fwd = line_of_fire(table, a, r, rulings)
        trace.steps.append(fwd.to_step())
        act["lof_to"][rid] = fwd.has_lof
        cov_a = partial_cover(table, r, a, rulings)
        act["partial_cover_against"][rid] = cov_a.in_cover
        if back.has_lof:
            trace.steps.append(cov_a.to_step())
        if active_weapon is not None and fwd.has_lof:
            rng = measure_range(table, a, r, rulings, calibration)
            trace.steps.append(rng.to_step())
            act["range"][rid] = rng.weapon(active_weapon)
        if r.kind == "megabeast":
            mb_facts = {"id": rid, "aro": back.has_lof, "partial_cover": cov_a.in_cover,
                        "threat_level": None, "side_pair": None, "silhouette_contact": table.in_contact(a, r)}
            if threat_levels is not None:
                th = threat_level(table, r, a, threat_levels, rulings)
                trace.steps.append(th.to_step())
                mb_facts["threat_level"], mb_facts["side_pair"] = th.level, th.pair
            continue
        cov_r = partial_cover(table, a, r, rulings)
        if fwd.has_lof:
            trace.steps.append(cov_r.to_step())
        f: dict[str, Any] = {"lof_to_active": back.has_lof,
                             "same_hexagon": same_hexagon(table.hex_of(r), table.hex_of(a)),
                             "enemy_tags_in_contact": len(enemy_tags_in_contact(table, rid)),
                             "silhouette_contact": table.in_contact(r, a),
                             "partial_cover": cov_r.in_cover, "out_of_range": None, "band": None}
        trace.add(f"{rid} is {'in' if f['same_hexagon'] else 'not in'} {active}'s Hexagon", S.RANGE_IN_HEXAGONS,
                  section="Range in Hexagons", marks=(rid, active), same_hexagon=f["same_hexagon"])
        if back.has_lof:
            rng = measure_range(table, r, a, rulings, calibration)
            f["band"] = rng.band
            if rid in reactive_weapons:
                band, mod = rng.weapon(reactive_weapons[rid])
                f["out_of_range"] = band == OUT_OF_RANGE and mod is None
        reac[rid] = f
    miners = [rid for rid in reactive if table.model(rid).kind == "miner" and table.model(rid).side != a.side]
    act["lof_to_attackers"] = all(act["lof_to"][rid] for rid in miners)
    trace.rulings = dict(rulings.consulted)
    trace.outcome = {"active": act, "reactive": reac, "megabeast": mb_facts}
    return trace.outcome, trace
