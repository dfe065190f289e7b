"""One table: the roll exchange a board decides, for a shooter and its target(s) (the Line of Fire -> Face to Face link).

Given a table (the Line of Fire explorer's state, or a table file) and an Active Miner shooting at one or more targets,
:func:`board_roll` writes the roll-exchange scenario (:mod:`.model`, resolved by :func:`.resolve.resolve_detailed`)
whose geometric fields are *measured on the board*, and lists every such fact with the section that decides it:

* Line of Fire both ways (Line of Fire and Distances › Line of Fire; MegaBeast Line of Fire): the shooter to each
  target (a Ranged Attack without LoF to its target fails its Requirements and counts as Idle: Common Skills › Ranged
  Attack › Requirements; Activating a Miner › Order Expenditure Sequence, step 5), and each Reactive Miner to the
  Active Miner (``lof_to_active``: the ARO right, Activating a Miner › Orders and AROs);
* the Range band of each target and its MOD from the shooter's weapon (Distances and Measurements › Range Ruler), or
  Out of Range when the weapon has no MOD there (the Ranged Attack automatically fails: Common Skills › Ranged
  Attack, Ranged Combat MODs); a Ranged Attack ARO whose Ruler ends beyond the Long Range Segment is Out of Range
  too (the stand-in ARO weapon may not fire Out of Range): declared, no dice, and the attack on it is a Normal Roll;
* a split Burst with LoF to some targets only: the targets out of LoF are marked (``lof = false``) and the ruling
  ``split_burst_without_lof`` decides at Resolution (the whole Skill Idle, or only those shares lost);
* Partial Cover of each target of a Ranged Attack, and of the Active Miner against a Ranged ARO (Damage › Partial
  Cover);
* same Hexagon (Line of Fire and Distances › Range in Hexagons), Silhouette Contact and the enemy TAGs in contact
  (Line of Fire and Distances › Interaction with Areas and Silhouettes);
* the MegaBeast's Threat Level on the side of its hexagon facing the Active Miner (MegaBeast › Threat Level), and
  whether it has the LoF that gives it its Behavior ARO.

Which Models react: every target, and (``all_aros``) every enemy Miner and the MegaBeast with LoF to the Active Miner
(they have the right to an ARO). What is *declared* is not a board fact: the Active Miner's Skill (default: a Ranged
Attack, a Close Combat Attack when in Silhouette Contact with every target) and each ARO (default: a Ranged Attack with
LoF and not in contact, a Close Combat Attack in contact, Evade otherwise) are defaults the caller may override. The
Miners' profiles are not on the table either: :data:`DEFAULT_PROFILE` is an editable stand-in (the Face to Face
explorer's default Miner with a Burst 3 weapon), and the Burst is split as evenly as it goes over the targets.

The function is pure: the same table, in any rotation or reflection of the board, gives the same facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from explorer.errors import ScenarioError, short_repr
from explorer.options import Rulings
from explorer.text import plural
from explorer.trace import RuleRef, Step, Trace

from . import sections as S
from .lof import TableTop
from .megabeast import DEFAULT_THREAT_LEVELS, ThreatLevels  # noqa: F401  (DEFAULT_THREAT_LEVELS re-exported)
from .options import rulings as default_rulings
from .lof_report import band_words
from .ranges import (DEFAULT_RANGE_CALIBRATION, DEFAULT_WEAPON_RANGES, OUT_OF_RANGE, RangeCalibration, WeaponRanges,
                     same_hexagon)
from .lof_analysis import LofAnalysisCache
from .situation import enemy_tags_in_contact

DEFAULT_PROFILE: dict[str, Any] = {"attribute": 12, "armor": 4, "wounds": 3,
                                   "weapon": {"name": "Weapon", "damage": 13, "burst": 3, "ammunition": "N"}}
"""A Miner's profile when the caller gives none (Attribute 12, Armor 4, 3 Wounds, a Damage 13 Burst 3 weapon with
N ammunition). Not from the board and not from the rulebook: a stand-in to edit in the Face to Face view."""

DEFAULT_MEGABEAST: dict[str, Any] = {"wounds": 6, "behavior_attack": {"damage": 14, "ammunition": "N"}}
"""The MegaBeast's Wounds and Behavior Attack when the caller gives none (the Face to Face explorer's defaults)."""

MAX_TARGETS = 8
"""Targets of one split Burst (a Burst is at most 20 dice; a table has about ten Models)."""

SECTION = "From the board"
"""The trace section of the board facts (the steps before the roll exchange's own)."""


@dataclass(frozen=True)
class BoardFact:
    """One field of the roll scenario measured on the board.

    Attributes:
        miner: the Model it is about. field: the scenario field path (``reactive[0].lof_to_active``,
        ``active.attacks[1].mods.Range``, ``megabeast.threat_level``). value: the value written there.
        title: one line saying it. rule: the section that decides it. detail: why (paraphrase).
    """

    miner: str
    field: str
    value: Any
    title: str
    rule: RuleRef
    detail: str = ""

    def to_step(self, marks: tuple[str, ...] = ()) -> Step:
        return Step(self.title, self.rule, self.detail, {"field": self.field, "value": self.value, "miner": self.miner,
                                                         "from_board": True}, marks, SECTION)

    def to_dict(self) -> dict[str, Any]:
        return {"miner": self.miner, "field": self.field, "value": self.value, "title": self.title,
                "rule": str(self.rule), "detail": self.detail}


@dataclass(frozen=True)
class BoardRoll:
    """The roll exchange a board decides.

    Attributes:
        document: a roll-scenario document (``docs/scenario-format.md``; no fixed dice: they roll from ``seed``).
        facts: every field measured on the board (:class:`BoardFact`), Active Miner first, then each Reactive Miner
            in the document's order, then the MegaBeast.
        declared: ``{miner: skill}`` of the declarations chosen by default or by the caller (not board facts).
        shooter, targets: the question asked.
        readings: ``((option key, reading), ...)`` the board measurements consulted (LoF, Partial Cover, Range);
            the roll exchange's own readings are separate (the document's ``rulings``, empty here).
    """

    document: dict[str, Any]
    facts: tuple[BoardFact, ...]
    declared: tuple[tuple[str, str], ...]
    shooter: str
    targets: tuple[str, ...]
    readings: tuple[tuple[str, str], ...] = ()

    def letters(self) -> dict[str, str]:
        """``{Model id: die-id letter}`` as the resolver names them (``A`` Active, ``B``... Reactive, ``MB``)."""
        out = {self.document["active"]["name"]: "A"}
        for i, r in enumerate(self.document.get("reactive", [])):
            out[r["name"]] = chr(ord("B") + i) if i < 24 else f"R{i + 1}"
        if "megabeast" in self.document:
            out[self.document["megabeast"]["name"]] = "MB"
        return out

    def steps(self) -> list[Step]:
        """The board facts as cited trace steps (section :data:`SECTION`), marked with the resolver's letters."""
        let = self.letters()
        return [f.to_step(tuple(let.get(m, m) for m in (f.miner, self.shooter) if m in let)) for f in self.facts]

    def facts_by_field(self) -> dict[str, Any]:
        """``{field path: value}`` of every board fact (what tests and the property check compare)."""
        return {f.field: f.value for f in self.facts}


def _split(burst: int, n: int) -> list[int]:
    return [burst // n + (1 if i < burst % n else 0) for i in range(n)]


def _profile(profiles: Mapping[str, Mapping[str, Any]] | None, mid: str) -> dict[str, Any]:
    p = {**DEFAULT_PROFILE, **dict((profiles or {}).get(mid, {}))}
    p["weapon"] = {**DEFAULT_PROFILE["weapon"], **dict(p.get("weapon") or {})}
    return p


def board_roll(table: TableTop, shooter: str, targets: Sequence[str], *, rulings: Rulings | None = None,
               weapon: WeaponRanges | None = None, threat: ThreatLevels | None = None,
               calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION, all_aros: bool = True,
               skill: str | None = None, aros: Mapping[str, str] | None = None,
               profiles: Mapping[str, Mapping[str, Any]] | None = None, seed: int = 1,
               title: str | None = None, cache: LofAnalysisCache | None = None) -> BoardRoll:
    """The roll exchange of ``shooter`` attacking ``targets`` on ``table``, its geometric facts measured there.

    Args:
        table: the table (positions, facings, Silhouettes, scenery).
        shooter: the Active Miner's id (a Miner).
        targets: 1..:data:`MAX_TARGETS` ids (Miners or the MegaBeast) sharing the Active Miner's Burst.
        rulings: the readings (LoF, Partial Cover and Range consult them); default: every default reading.
        weapon: the shooter's Range MODs (default :data:`DEFAULT_WEAPON_RANGES`).
        threat: the MegaBeast Behavior's Threat Levels (needed to bring the MegaBeast in).
        calibration: the Range Ruler's Segment lengths (hex units).
        all_aros: also bring in every enemy Miner (and the MegaBeast) with LoF to the shooter (their ARO right).
        skill: the Active Miner's Skill (``ranged_attack`` / ``close_combat_attack``; default: see module doc).
        aros: ``{id: ARO skill}`` overriding the default AROs (``ranged_attack``, ``close_combat_attack``, ``evade``,
            ``idle``, ``none``).
        profiles: ``{id: {attribute, armor, wounds, weapon: {...}}}`` over :data:`DEFAULT_PROFILE`.
        seed: the roll scenario's seed (no die is fixed).
        cache: the Line of Fire analysis cache to measure with (the explorer's, so the facts are the verdicts it
            shows; default: a fresh one). Every fact is a pair verdict of :meth:`.lof_analysis.LofAnalysisCache.verdict`.

    Returns:
        a :class:`BoardRoll` (its ``document`` parses with :func:`.model.parse_scenario`).

    Raises:
        ScenarioError: an unknown id, a shooter that is not a Miner, a target that is neither a Miner nor the
            MegaBeast, the shooter among its targets, repeated targets, more than :data:`MAX_TARGETS` targets, a
            Burst smaller than the number of targets, a MegaBeast target without Threat Levels, an unknown skill.
    """
    rul = rulings.copy() if rulings is not None else default_rulings()
    weapon = weapon if weapon is not None else DEFAULT_WEAPON_RANGES
    targets = tuple(targets)
    ids = list(table.models)
    if shooter not in table.models:
        raise ScenarioError("shooter", f"no Model {short_repr(shooter)}", ids)
    a = table.model(shooter)
    if a.kind != "miner":
        raise ScenarioError("shooter", f"{short_repr(shooter)} is a {a.kind}, not a Miner", "an Active Miner")
    if not targets:
        raise ScenarioError("targets", "no target", "one or more Models other than the shooter")
    if len(targets) > MAX_TARGETS:
        raise ScenarioError("targets", f"{len(targets)} targets", f"at most {MAX_TARGETS}")
    if len(set(targets)) != len(targets):
        raise ScenarioError("targets", "a target is named twice", "each target once")
    for t in targets:
        if t not in table.models or t == shooter:
            raise ScenarioError("targets", f"no target {short_repr(t)}", [i for i in ids if i != shooter])
        m = table.model(t)
        if not (a.is_enemy_miner_of(m) or m.kind == "megabeast"):
            raise ScenarioError("targets", f"{short_repr(t)} is not an enemy Miner or the MegaBeast (a "
                                f"{m.kind} of side {short_repr(m.side)})", "an enemy Miner or the MegaBeast")
    beasts = [m.id for m in table.models.values() if m.kind == "megabeast"]
    if any(t in beasts for t in targets) and threat is None:
        raise ScenarioError("threat", "the MegaBeast is a target but no Threat Levels are given",
                            "the Behavior's Threat Levels (front / adjacent / opposite)")
    if skill is not None and skill not in ("ranged_attack", "close_combat_attack"):
        raise ScenarioError("skill", f"unknown skill {short_repr(skill)}", ["ranged_attack", "close_combat_attack"])
    for k, v in (aros or {}).items():
        if v not in ("ranged_attack", "close_combat_attack", "evade", "idle", "none"):
            raise ScenarioError(f"aros.{k}", f"unknown ARO {short_repr(v)}",
                                ["ranged_attack", "close_combat_attack", "evade", "idle", "none"])

    cache = cache if cache is not None else LofAnalysisCache()

    def verdict(s_id: str, t_id: str):  # the Line of Fire explorer's own pair verdict (same cache, same numbers)
        return cache.verdict(table, table.model(s_id), table.model(t_id), rul, calibration, weapon, threat)

    # who reacts: the targets, then (all_aros) every enemy Miner / the MegaBeast with LoF to the Active Miner
    others = [m.id for m in table.models.values() if m.id not in targets and m.id != shooter
              and (a.is_enemy_miner_of(m) or (m.kind == "megabeast" and threat is not None))]
    fwd = {t: verdict(shooter, t) for t in targets}
    back = {r: verdict(r, shooter) for r in (*targets, *(others if all_aros else ()))}
    reacting = list(targets) + [r for r in (others if all_aros else ()) if back[r].lof.has_lof]
    miners = [r for r in reacting if table.model(r).kind == "miner"]
    beast = next((r for r in reacting if table.model(r).kind == "megabeast"), None)
    hex_a = table.hex_of(a)

    def contact(r: str) -> bool:
        return table.in_contact(a, table.model(r))

    out: list[BoardFact] = []
    declared: list[tuple[str, str]] = []
    # -- the Active Miner's Skill and its attacks
    contact_all = all(contact(t) for t in targets)
    a_skill = skill or ("close_combat_attack" if contact_all else "ranged_attack")
    declared.append((shooter, a_skill))
    prof = _profile(profiles, shooter)
    shares = _split(int(prof["weapon"]["burst"]), len(targets))
    if min(shares) < 1:
        raise ScenarioError("targets", f"{len(targets)} targets for a Burst of {prof['weapon']['burst']}",
                            "at most one target per die of the Burst")
    attacks: list[dict[str, Any]] = []
    blind = [t for t in targets if not fwd[t].lof.has_lof]
    for j, t in enumerate(targets):
        lof = fwd[t].lof.has_lof
        out.append(BoardFact(shooter, f"active.attacks[{j}].lof", lof,
                             f"{shooter} {'has' if lof else 'has no'} Line of Fire to {t}", S.LINE_OF_FIRE,
                             "Measured on the board: a clear segment between the bases inside the shooter's front arc "
                             "(360° with a declared Move)." if lof else
                             "No clear segment between the bases inside the shooter's arc; a Ranged Attack requires LoF "
                             "to its target."))
        at: dict[str, Any] = {"target": t, "burst": shares[j]}
        if a_skill == "ranged_attack" and lof and fwd[t].band is not None:
            band, mod = fwd[t].band, fwd[t].mod
            if mod is None:
                at["out_of_range"] = True
                out.append(BoardFact(t, f"active.attacks[{j}].out_of_range", True,
                                     f"{t} is Out of Range of {shooter}'s weapon ({band_words(fwd[t].range.band)})",
                                     S.RANGE_RULER, "The Range Ruler along the shortest clear Line of Fire ends in a "
                                     "band where the weapon has no MOD: the Ranged Attack automatically fails."))
            else:
                if mod:
                    at["mods"] = {"Range": mod}
                out.append(BoardFact(t, f"active.attacks[{j}].mods.Range", mod,
                                     f"{t} is at {band_words(band)}: Range MOD {mod:+d} "
                                     f"({fwd[t].range.distance:.3f} hex units)",
                                     S.RANGE_RULER, "The Range Ruler laid along the shortest clear Line of Fire "
                                     "segment between the bases; the MOD is the weapon's for that Segment."))
        attacks.append(at)
    if a_skill == "ranged_attack" and blind and len(blind) < len(targets):
        # a split Burst with LoF to some targets only: the roll exchange decides by the ruling split_burst_without_lof
        for j, t in enumerate(targets):
            if t in blind:
                attacks[j]["lof"] = False
        blind = []
    if a_skill == "ranged_attack" and blind:
        out.append(BoardFact(shooter, "active.skill", "idle",
                             f"{shooter} has no LoF to {', '.join(blind)}: its Ranged Attack counts as Idle",
                             S.RANGED_ATTACK_REQUIREMENTS, "A Ranged Attack requires LoF to its target; a Skill that "
                             "fails its Requirements at Resolution counts as Idle (Order Expenditure Sequence, step 5)."))
        a_skill = "idle"
    active: dict[str, Any] = {"name": shooter, "skill": a_skill, "attribute": prof["attribute"],
                              "armor": prof["armor"], "wounds": prof["wounds"],
                              "enemy_tags_in_contact": min(6, len(enemy_tags_in_contact(table, shooter)))}
    out.append(BoardFact(shooter, "active.enemy_tags_in_contact", active["enemy_tags_in_contact"],
                         f"{shooter} is in Silhouette Contact with {plural(active['enemy_tags_in_contact'], 'enemy TAG')}",
                         S.AREAS_AND_SILHOUETTES))
    if a_skill in ("ranged_attack", "close_combat_attack"):
        active["weapon"] = dict(prof["weapon"])
        active["attacks"] = attacks
    # -- the Reactive Miners
    reactive: list[dict[str, Any]] = []
    first_ranged_aro: str | None = None
    for i, rid in enumerate(miners):
        bv = back[rid]
        f = {"lof_to_active": bv.lof.has_lof, "same_hexagon": same_hexagon(table.hex_of(rid), hex_a),
             "silhouette_contact": contact(rid), "enemy_tags_in_contact": len(enemy_tags_in_contact(table, rid)),
             "partial_cover": bool(rid in fwd and fwd[rid].cover is not None and fwd[rid].cover.in_cover),
             "band": bv.range.band if bv.range is not None else None}
        p = _profile(profiles, rid)
        targeted = rid in targets
        aro = (aros or {}).get(rid) or ("close_combat_attack" if f["silhouette_contact"] else
                                        "ranged_attack" if f["lof_to_active"] else "evade")
        declared.append((rid, aro))
        base = f"reactive[{i}]"
        entry: dict[str, Any] = {"name": rid, "skill": aro, "attribute": p["attribute"], "armor": p["armor"],
                                 "wounds": p["wounds"], "lof_to_active": f["lof_to_active"],
                                 "same_hexagon": f["same_hexagon"], "silhouette_contact": f["silhouette_contact"],
                                 "enemy_tags_in_contact": min(6, f["enemy_tags_in_contact"])}
        if targeted and a_skill == "idle":
            # named as a target, but the Attack counts as Idle: it is not attacked (the resolver says so at its ARO)
            entry["target_not_attacked"] = True
            why = (f"reacts: it has LoF to the Active Miner; named as a target, but {shooter}'s Attack counts as Idle"
                   if f["lof_to_active"] else
                   f"named as a target, but {shooter}'s Attack counts as Idle, so it is not attacked")
        elif targeted and a_skill == "ranged_attack" and not fwd[rid].lof.has_lof:
            why = (f"reacts: {'it has LoF to the Active Miner' if f['lof_to_active'] else 'it is a target'}; "
                   f"{shooter} has no LoF to it, the ruling split_burst_without_lof decides its share at Resolution")
        else:
            why = "reacts: " + ("it is a target of the Attack" if targeted else "it has LoF to the Active Miner")
        out.append(BoardFact(rid, f"{base}.lof_to_active", f["lof_to_active"],
                             f"{rid} {'has' if f['lof_to_active'] else 'has no'} Line of Fire to {shooter} "
                             f"({why})", S.LINE_OF_FIRE,
                             "Measured from the Reactive Miner's front arc to the Active Miner's base; LoF gives the "
                             "right to an ARO (Orders and AROs), and so does being the target of an Attack."))
        out.append(BoardFact(rid, f"{base}.same_hexagon", f["same_hexagon"],
                             f"{rid} is {'in' if f['same_hexagon'] else 'not in'} {shooter}'s Hexagon",
                             S.RANGE_IN_HEXAGONS))
        out.append(BoardFact(rid, f"{base}.silhouette_contact", f["silhouette_contact"],
                             f"{rid} and {shooter} are {'in' if f['silhouette_contact'] else 'not in'} Silhouette "
                             "Contact", S.AREAS_AND_SILHOUETTES))
        out.append(BoardFact(rid, f"{base}.enemy_tags_in_contact", entry["enemy_tags_in_contact"],
                             f"{rid} is in Silhouette Contact with {plural(entry['enemy_tags_in_contact'], 'enemy TAG')}",
                             S.AREAS_AND_SILHOUETTES))
        if targeted and a_skill == "ranged_attack":
            entry["partial_cover"] = f["partial_cover"]
            out.append(BoardFact(rid, f"{base}.partial_cover", f["partial_cover"],
                                 f"{rid} is {'in' if f['partial_cover'] else 'not in'} Partial Cover against {shooter}",
                                 S.PARTIAL_COVER, "Measured on the board: whether scenery hides part of the target "
                                 "from the shooter's clear Line of Fire."))
        if aro in ("ranged_attack", "close_combat_attack"):
            entry["weapon"] = dict(p["weapon"])
            if aro == "ranged_attack" and f["band"] == OUT_OF_RANGE:
                # beyond the Long Range Segment: the stand-in ARO weapon has no Out of Range MOD, so the Ranged Attack
                # ARO is declared and automatically fails, rolling no dice (Common Skills › Ranged Attack, Ranged
                # Combat MODs); the Active Miner's attack on it then meets no opposing dice (a Normal Roll)
                entry["out_of_range"] = True
                out.append(BoardFact(rid, f"{base}.out_of_range", True,
                                     f"{rid}'s ARO: {shooter} is Out of Range of {rid}'s weapon: the Ranged Attack "
                                     "ARO automatically fails (no dice)", S.RANGED_ATTACK,
                                     "The Range Ruler from the Reactive Miner ends beyond the Long Range Segment "
                                     "(Distances and Measurements › Range Ruler), and only a weapon that says so may "
                                     "fire Out of Range; the stand-in ARO weapon does not. An attack that cannot "
                                     "affect its opponent is not opposed: the Active Miner's dice make a Normal Roll "
                                     "(Rolls › Face to Face Rolls)."))
            elif aro == "ranged_attack" and f["band"] is not None:
                out.append(BoardFact(rid, f"{base}.band", f["band"],
                                     f"{rid}'s ARO: {shooter} at {band_words(f['band'])}",
                                     S.RANGE_RULER, "The ARO weapon's Range MODs are not on the table: no Range MOD "
                                     "is applied to the ARO (set it in the Face to Face view)."))
            if aro == "ranged_attack" and first_ranged_aro is None:
                first_ranged_aro = rid
        reactive.append(entry)
    if first_ranged_aro is not None:
        def cover_against(r: str) -> bool:
            c = back[r].cover
            return bool(c is not None and c.in_cover)

        cov = cover_against(first_ranged_aro)
        active["partial_cover"] = cov
        differ = [r for r in miners if r != first_ranged_aro and back[r].lof.has_lof and cover_against(r) != cov]
        out.append(BoardFact(shooter, "active.partial_cover", cov,
                             f"{shooter} is {'in' if cov else 'not in'} Partial Cover against {first_ranged_aro}'s "
                             "Ranged ARO", S.PARTIAL_COVER,
                             "The roll scenario has one Partial Cover flag for the Active Miner: it is measured "
                             "against the first Ranged ARO in Timeline order"
                             + (f" (against {', '.join(differ)} it differs)." if differ else ".")))
    doc: dict[str, Any] = {"title": title or f"{shooter} attacks {', '.join(targets)} (from the board)",
                           "description": "Board facts measured on the table; Attributes, weapons, Armor and Wounds "
                                          "are editable stand-ins.",
                           "seed": seed, "active": active, "rulings": {}}
    if reactive:
        doc["reactive"] = reactive
    if beast is not None and threat is not None:
        th = back[beast].threat
        mb = {"name": beast, "threat_level": th.level, "wounds": DEFAULT_MEGABEAST["wounds"],
              "aro": back[beast].lof.has_lof, "silhouette_contact": contact(beast)}
        if mb["aro"]:
            mb["behavior_attack"] = dict(DEFAULT_MEGABEAST["behavior_attack"])
        doc["megabeast"] = mb
        out.append(BoardFact(beast, "megabeast.threat_level", mb["threat_level"],
                             f"{beast}'s Threat Level on the side facing {shooter}: {mb['threat_level']} "
                             f"({th.pair} pair of sides)", S.MEGABEAST_THREAT,
                             "The side of the MegaBeast's hexagon the Active Miner stands beyond, and the Behavior's "
                             "Threat Level for that pair of sides."))
        out.append(BoardFact(beast, "megabeast.aro", mb["aro"],
                             f"{beast} {'has' if mb['aro'] else 'has no'} Line of Fire to {shooter}: "
                             f"{'its Behavior ARO' if mb['aro'] else 'no Behavior ARO'}", S.MEGABEAST_LOF))
        out.append(BoardFact(beast, "megabeast.silhouette_contact", mb["silhouette_contact"],
                             f"{shooter} is {'in' if mb['silhouette_contact'] else 'not in'} Silhouette Contact with "
                             f"{beast}", S.AREAS_AND_SILHOUETTES))
    readings = tuple(sorted(rul.consulted.items()))
    return BoardRoll(doc, tuple(out), tuple(declared), shooter, targets, readings)


def resolve_board_roll(br: BoardRoll, rulings: Mapping[str, str] | None = None, seed: int | None = None):
    """Resolve the exchange (:func:`.resolve.resolve_detailed`, the one resolver) with the board facts as the first
    steps of its trace (section :data:`SECTION`).

    Returns:
        the :class:`~.resolve.Resolution`; its ``trace`` starts with :meth:`BoardRoll.steps`.

    Raises:
        ScenarioError: an unknown ruling option or reading.
    """
    from .model import parse_scenario
    from .resolve import resolve_detailed

    doc = dict(br.document)
    if seed is not None:
        doc["seed"] = seed
    sc = parse_scenario(doc, "the board's roll exchange")
    res = resolve_detailed(sc, None, {**dict(br.document.get("rulings", {})), **dict(rulings or {})})
    t = res.trace  # a new trace (the Resolution is a frozen value): the board facts first, then the roll's steps
    trace = Trace(t.title, [*br.steps(), *t.steps], {**dict(br.readings), **t.rulings}).with_result(t.result)
    return replace(res, trace=trace)
