"""A one-on-one roll exchange for the Face to Face explorer: inputs, the die-by-die resolution and its trace.

This module turns the explorer's plain inputs (two Miners, or a Miner against the MegaBeast, plus the dice) into
an :class:`Exchange`: every die classified, which die cancels which, the Saving Rolls and Wounds, and a
:class:`~explorer.trace.Trace` whose steps cite the rulebook. It is built only on the shared roll primitives of
:mod:`explorer.games.tagraid.rolls`, so it cannot disagree with the odds engine about a rule.

Sections: Rolls › Successful Roll, Modifiers (MOD), Criticals, Normal Roll, Face to Face Rolls; Damage › Partial
Cover, Saving Roll; Skills and Tools › Ammunition, Traits; Death; MegaBeast › Wounds, Threat Level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from explorer.errors import ScenarioError
from explorer.options import Rulings
from explorer.trace import Trace

from . import sections as S
from .options import rulings as make_rulings
from .rolls import (AttackDamage, Comparison, DieResult, SuccessValue, attack_damage, classify_die, compare,
                    saving_rolls, success_value)

ATTACKS = ("ranged_attack", "close_combat_attack")
SKILLS_ACTIVE = ("ranged_attack", "close_combat_attack", "evade")
SKILLS_REACTIVE = ("ranged_attack", "close_combat_attack", "evade", "none")
SKILL_NAMES = {"ranged_attack": "Ranged Attack", "close_combat_attack": "Close Combat Attack", "evade": "Evade",
               "none": "no ARO"}
AMMUNITION = ("N", "DA", "EXP", "AP")


@dataclass
class SideInputs:
    """One Miner's side of the exchange (all whole numbers already parsed).

    Attributes:
        name: display name (``"A"`` / ``"B"`` by default).
        skill: ``"ranged_attack"``, ``"close_combat_attack"``, ``"evade"`` or ``"none"`` (no roll).
        attribute: the Attribute the Skill uses (0..30).
        mods: named MODs the user entered (e.g. ``{"Range": 3, "Skills/Tools": 0}``); Partial Cover and the
            ``Ranged Attack -3`` trait are derived from the opponent, not entered.
        burst: d20s rolled (0..20; Evade always rolls 1).
        damage: the Weapon's Damage (0..30); ammunition: N, DA, EXP or AP.
        armor, wounds: Armor and Wounds left; partial_cover: whether this Miner is in Partial Cover.
        armor_zero: this Miner's Weapon has the ``Armor = 0`` Trait.
        ranged_attack_minus_3: this Miner carries a Tool with the ``Ranged Attack -3`` Trait.
    """

    name: str = "A"
    skill: str = "ranged_attack"
    attribute: int = 12
    mods: dict[str, int] = field(default_factory=dict)
    burst: int = 1
    damage: int = 13
    ammunition: str = "N"
    armor: int = 4
    wounds: int = 3
    partial_cover: bool = False
    armor_zero: bool = False
    ranged_attack_minus_3: bool = False

    @property
    def dice_count(self) -> int:
        """Dice this side rolls: 0 with no ARO, 1 for Evade, else its Burst."""
        return 0 if self.skill == "none" else 1 if self.skill == "evade" else self.burst


@dataclass
class MegaBeastInputs:
    """The MegaBeast: ``threat_level`` of the side attacked from, ``wounds`` left, and its Behavior Attack
    (``damage``, ``ammunition``; one impact) applied to the Miner when the MegaBeast prevails."""

    name: str = "MegaBeast"
    threat_level: int = 5
    wounds: int = 6
    damage: int = 14
    ammunition: str = "N"


@dataclass
class Save:
    """One Saving Roll die: ``face``, the Attack Damage it is rolled against and whether it failed (a Wound)."""

    id: str
    face: int
    damage: int
    failed: bool


@dataclass
class Exchange:
    """The resolved exchange (see module docstring). ``kind``: ``"face_to_face"``, ``"normal"`` or ``"megabeast"``.

    Attributes:
        winner: ``"a"``, ``"b"`` (the MegaBeast in MegaBeast mode) or ``None`` (both fail / tie).
        hits_a, crits_a, hits_b, crits_b: uncancelled non-critical successes and Criticals.
        mb_classes: MegaBeast mode, per die of ``a``: ``"hit"``, ``"crit"``, ``"tie"``, ``"beaten"``, ``"miss"``.
        saves_a / saves_b: the Saving Rolls made by a / b; damage_vs_a / damage_vs_b: the Attack Damage they face.
        wounds_to_a / wounds_to_b: Wounds actually lost (never more than the Wounds left).
    """

    kind: str
    a: SideInputs
    b: SideInputs | None
    megabeast: MegaBeastInputs | None
    sv_a: SuccessValue
    sv_b: SuccessValue | None
    dice_a: tuple[DieResult, ...]
    dice_b: tuple[DieResult, ...]
    comparison: Comparison | None
    winner: str | None
    hits_a: int = 0
    crits_a: int = 0
    hits_b: int = 0
    crits_b: int = 0
    mb_classes: tuple[str, ...] = ()
    damage_vs_a: AttackDamage | None = None
    damage_vs_b: AttackDamage | None = None
    saves_a: list[Save] = field(default_factory=list)
    saves_b: list[Save] = field(default_factory=list)
    saving_rolls_a: int = 0
    saving_rolls_b: int = 0
    wounds_to_a: int = 0
    wounds_to_b: int = 0
    trace: Trace = field(default_factory=lambda: Trace(""))


def sv_mods(me: SideInputs, opponent: SideInputs | None) -> dict[str, int]:
    """The named MODs of ``me``'s roll: what the user entered plus the ones the opponent's situation imposes on a
    Ranged Attack: ``Partial Cover`` -3 (Damage › Partial Cover; Rolls › Modifiers (MOD)) and the ``Ranged Attack
    -3`` Tool Trait (Skills and Tools › Traits)."""
    mods = dict(me.mods)
    if opponent is not None and me.skill == "ranged_attack":
        if opponent.partial_cover:
            mods["Partial Cover"] = -3
        if opponent.ranged_attack_minus_3:
            mods["Ranged Attack -3 (Trait)"] = -3
    return mods


def damage_against(attacker: SideInputs, target: SideInputs) -> AttackDamage:
    """Attack Damage of ``attacker``'s Weapon against ``target`` (Damage › Saving Roll, Partial Cover; Ammunition
    AP; Traits ``Armor = 0``). Partial Cover only counts against a Ranged Attack."""
    return attack_damage(attacker.damage, target.armor, attacker.ammunition,
                         partial_cover=target.partial_cover and attacker.skill == "ranged_attack",
                         armor_zero=attacker.armor_zero)


def _fmt_mods(sv: SuccessValue) -> str:
    parts = [f"{sv.attribute}"] + [f"{v:+d} {k}" for k, v in sv.mods.items()]
    s = " ".join(parts) + f" = {sv.value}"
    if sv.capped:
        s += f" (MODs total {sum(sv.mods.values()):+d} capped to {sv.mod_total:+d})"
    return s


def _check_dice(dice: Sequence[int], need: int, field_name: str) -> list[int]:
    dice = list(dice)
    for i, v in enumerate(dice):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 20:
            raise ScenarioError(f"{field_name}[{i + 1}]", f"{v!r} is not a d20 face", "whole numbers 1 to 20")
    if len(dice) != need:
        raise ScenarioError(field_name, f"{len(dice)} dice given but this roll needs {need}",
                            f"exactly {need} faces (one per die of the Burst)")
    return dice


def _take_saves(pool: Sequence[int], n: int, damage: int, prefix: str, field_name: str) -> list[Save]:
    if n > len(pool):
        raise ScenarioError(field_name, f"{len(pool)} Saving Roll dice given but {n} are needed",
                            f"at least {n} faces 1 to 20")
    out = []
    for i, f in enumerate(pool[:n]):
        if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 20:
            raise ScenarioError(f"{field_name}[{i + 1}]", f"{f!r} is not a d20 face", "whole numbers 1 to 20")
        out.append(Save(f"{prefix}.s{i + 1}", f, damage, f <= damage))
    return out


def resolve_exchange(a: SideInputs, b: SideInputs | None, dice_a: Sequence[int], dice_b: Sequence[int] = (),
                     saves_a: Sequence[int] = (), saves_b: Sequence[int] = (), *,
                     megabeast: MegaBeastInputs | None = None,
                     rulings: Rulings | dict | None = None) -> Exchange:
    """Resolve one exchange die by die.

    Args:
        a: the Active Miner. b: the Reactive Miner (ignored when ``megabeast`` is given).
        dice_a, dice_b: faces rolled, exactly ``dice_count`` of each side.
        saves_a, saves_b: Saving Roll faces for a / b, at least as many as the exchange produces (extra are unused).
        megabeast: resolve ``a`` against the MegaBeast's Threat Level instead of against ``b``.
        rulings: a :class:`Rulings` or ``{key: reading}``; the trace lists every reading consulted.

    Returns:
        the :class:`Exchange`, with its ``trace``.

    Raises:
        ScenarioError: a face outside 1..20, the wrong number of dice, or too few Saving Roll dice (the field is
            named ``dice A`` / ``dice B`` / ``saves A`` / ``saves B``).
    """
    r = rulings.copy() if isinstance(rulings, Rulings) else make_rulings(rulings)
    r.consulted.clear()
    if megabeast is not None:
        return _resolve_megabeast(a, megabeast, dice_a, saves_a, r)
    assert b is not None
    t = Trace(f"Face to Face: {a.name} ({SKILL_NAMES[a.skill]}) vs {b.name} ({SKILL_NAMES[b.skill]})")
    sec = "Success Values"
    sva = success_value(a.attribute, sv_mods(a, b), r)
    svb = success_value(b.attribute, sv_mods(b, a), r)
    for side, sv, me in (("A", sva, a), ("B", svb, b)):
        rule = S.MODIFIERS if sv.mods else S.SUCCESSFUL_ROLL
        t.add(f"{me.name}'s Success Value is {sv.value}", rule,
              f"{SKILL_NAMES[me.skill]} Attribute with every MOD applied: {_fmt_mods(sv)}.",
              section=sec, marks=(side,), side=side, sv=sv.value, attribute=sv.attribute, mods=dict(sv.mods))
    da = tuple(classify_die(f, sva.value, r) for f in _check_dice(dice_a, a.dice_count, "dice A"))
    db = tuple(classify_die(f, svb.value, r) for f in _check_dice(dice_b, b.dice_count, "dice B"))
    sec = "Rolls"
    for side, sv, dice, me in (("A", sva, da, a), ("B", svb, db, b)):
        if not dice:
            t.add(f"{me.name} rolls no dice ({SKILL_NAMES[me.skill] if me.skill == 'none' else 'Burst 0'})",
                  S.NORMAL_ROLL, "The other side's roll is not opposed: it is a Normal Roll.",
                  section=sec, marks=(side,), side=side)
            continue
        crit = [i for i, d in enumerate(dice) if d.critical]
        succ = [i for i, d in enumerate(dice) if d.kind == "success"]
        fail = [i for i, d in enumerate(dice) if d.kind == "failure"]
        faces = ", ".join(str(d.face) for d in dice)
        bits = []
        if succ:
            bits.append("success: " + ", ".join(str(dice[i].face) for i in succ))
        if crit:
            bits.append("Critical: " + ", ".join(str(dice[i].face) for i in crit))
        if fail:
            bits.append("failure: " + ", ".join(str(dice[i].face) for i in fail))
        if sv.value > 20:
            reading = r.reading("sv_above_20")
            why = ("SV above 20, literal reading: every face succeeds and none equals the SV, so no Critical."
                   if reading == "literal" else
                   f"SV above 20, excess_to_die reading: +{sv.value - 20} to every die, 20 or more is a Critical.")
        else:
            why = (f"A face at most {sv.value} succeeds; a face equal to {sv.value} is a Critical; "
                   "higher faces fail.")
        t.add(f"{me.name} rolls {faces} against SV {sv.value}: " + "; ".join(bits),
              S.CRITICALS if crit else S.SUCCESSFUL_ROLL, why, section=sec,
              marks=tuple(f"{side}.{i + 1}" for i in range(len(dice))), side=side,
              faces=[d.face for d in dice], kinds=[d.kind for d in dice])
    cmp = compare(da, db)
    normal = not da or not db
    ex = Exchange("normal" if normal else "face_to_face", a, b, None, sva, svb, da, db, cmp, cmp.winner,
                  cmp.a_hits, cmp.a_crits, cmp.b_hits, cmp.b_crits)
    sec = "Normal Roll" if normal else "Face to Face Roll"
    if not normal:
        for side, mine, theirs, by, other in (("A", da, db, cmp.a_cancelled_by, "B"),
                                              ("B", db, da, cmp.b_cancelled_by, "A")):
            for i, (d, cancellers) in enumerate(zip(mine, by)):
                if not cancellers:
                    continue
                me = a if side == "A" else b
                them = b if side == "A" else a
                crit_canc = [j for j in cancellers if theirs[j].critical]
                if d.critical:
                    rule, why = S.CRITICALS, "Criticals on both sides cancel each other: nobody wins with them."
                elif crit_canc:
                    rule, why = S.CRITICALS, "A Critical always wins: it cancels every non-critical success."
                elif any(theirs[j].key == d.key for j in cancellers):
                    rule, why = S.FACE_TO_FACE, ("Equal results cancel each other (a tie); higher successes cancel "
                                                 "lower ones even if they are cancelled in turn.")
                else:
                    rule, why = S.FACE_TO_FACE, ("A success cancels every enemy success with a lower result, even "
                                                 "when it is itself cancelled by a higher one.")
                names = ", ".join(str(theirs[j].face) + ("★" if theirs[j].critical else "") for j in cancellers)
                t.add(f"{me.name}'s {d.face}{'★' if d.critical else ''} is cancelled by {them.name}'s {names}", rule,
                      why, section=sec,
                      marks=(f"{side}.{i + 1}",) + tuple(f"{other}.{j + 1}" for j in cancellers),
                      die=f"{side}.{i + 1}", cancelled_by=[f"{other}.{j + 1}" for j in cancellers])
    for side, mine, surv in (("A", da, cmp.a_survives), ("B", db, cmp.b_survives)):
        keep = [i for i, s in enumerate(surv) if s]
        if keep:
            me = a if side == "A" else b
            t.add(f"{me.name} keeps " + ", ".join(f"{mine[i].face}{'★' if mine[i].critical else ''}" for i in keep)
                  + " uncancelled", S.NORMAL_ROLL if normal else S.FACE_TO_FACE,
                  "Uncancelled successes are the ones that take effect.", section=sec,
                  marks=tuple(f"{side}.{i + 1}" for i in keep), side=side,
                  hits=cmp.a_hits if side == "A" else cmp.b_hits, crits=cmp.a_crits if side == "A" else cmp.b_crits)
    if cmp.winner is None:
        any_success = any(d.success for d in da + db)
        if not any_success:
            t.add("Nobody succeeds: no effect", S.NORMAL_ROLL if normal else S.FACE_TO_FACE,
                  "Failures are discarded; with no success nothing happens.", section=sec, winner=None)
        else:
            t.add("A tie: every success is cancelled, nothing happens (the Order is still spent)",
                  S.CRITICALS if any(d.critical for d in da + db) else S.FACE_TO_FACE,
                  "Breaking Ties: equal results, or Criticals on both sides, cancel each other.", section=sec,
                  winner=None)
    else:
        w = a if cmp.winner == "a" else b
        t.add(f"{w.name} wins" + ("" if not normal else " (Normal Roll succeeds)"),
              S.NORMAL_ROLL if normal else S.FACE_TO_FACE,
              "Only one side can keep uncancelled successes.", section=sec, winner=cmp.winner)
    _saves(ex, t, saves_a, saves_b)
    t.rulings = dict(r.consulted)
    t.outcome = {"winner": ex.winner, "hits_a": ex.hits_a, "crits_a": ex.crits_a, "hits_b": ex.hits_b,
                 "crits_b": ex.crits_b, "saving_rolls_a": ex.saving_rolls_a, "saving_rolls_b": ex.saving_rolls_b,
                 "wounds_to_a": ex.wounds_to_a, "wounds_to_b": ex.wounds_to_b}
    ex.trace = t
    return ex


def _saves(ex: Exchange, t: Trace, saves_a: Sequence[int], saves_b: Sequence[int]) -> None:
    a, b = ex.a, ex.b
    assert b is not None
    if ex.winner is None:
        return
    attacker, target = (a, b) if ex.winner == "a" else (b, a)
    hits, crits = (ex.hits_a, ex.crits_a) if ex.winner == "a" else (ex.hits_b, ex.crits_b)
    tgt = "B" if ex.winner == "a" else "A"
    sec = "Saving Rolls"
    if attacker.skill not in ATTACKS:
        t.add(f"{attacker.name}'s {SKILL_NAMES[attacker.skill]} succeeds: no Saving Rolls", S.EVADE,
              "A successful Evade only stops the attack against the evader; it causes no Damage.", section=sec)
        return
    n = saving_rolls(hits, crits, attacker.ammunition)
    ad = damage_against(attacker, target)
    per = {"N": 1, "AP": 1, "DA": 2, "EXP": 3}[attacker.ammunition]
    t.add(f"{target.name} makes {n} Saving Roll{'s' if n != 1 else ''}", S.AMMUNITION,
          f"{hits + crits} uncancelled hit(s) x {per} ({attacker.ammunition})"
          + (f" + {crits} for the Critical(s)" if crits else "") + f" = {n}.",
          section=sec, marks=(tgt,), saving_rolls=n, hits=hits, crits=crits, ammunition=attacker.ammunition)
    parts = [f"Damage {ad.weapon_damage}", f"- Armor {ad.effective_armor}"
             + (" (AP: half of {}, rounded up)".format(ad.armor) if attacker.ammunition == "AP" and
                not attacker.armor_zero else "") + (" (Armor = 0 Trait)" if attacker.armor_zero else "")]
    if ad.partial_cover:
        parts.append("- 3 Partial Cover")
    rule = S.PARTIAL_COVER if ad.partial_cover else S.TRAITS if attacker.armor_zero else S.SAVING_ROLL
    t.add(f"Attack Damage {ad.value}: a Saving Roll of {ad.value} or less fails", rule,
          " ".join(parts) + f" = {ad.value}.", section=sec, attack_damage=ad.value)
    field_name = f"saves {tgt}"
    saves = _take_saves(saves_b if tgt == "B" else saves_a, n, ad.value, tgt, field_name)
    fails = sum(s.failed for s in saves)
    lost = min(fails, target.wounds)
    if saves:
        t.add(f"{target.name} rolls " + ", ".join(str(s.face) for s in saves) + f": {fails} failed",
              S.SAVING_ROLL, f"Each face at most {ad.value} fails and costs one Wound.", section=sec,
              marks=tuple(s.id for s in saves), faces=[s.face for s in saves], failed=fails)
    t.add(f"{target.name} loses {lost} Wound{'s' if lost != 1 else ''}"
          + (f" ({fails - lost} more would go below 0)" if fails > lost else ""),
          S.DEATH if fails >= target.wounds else S.SAVING_ROLL,
          f"{target.wounds} Wounds left before the roll." + (" The Miner dies." if fails >= target.wounds else ""),
          section="Result", marks=(tgt,), wounds_lost=lost)
    if tgt == "B":
        ex.saves_b, ex.damage_vs_b, ex.saving_rolls_b, ex.wounds_to_b = saves, ad, n, lost
    else:
        ex.saves_a, ex.damage_vs_a, ex.saving_rolls_a, ex.wounds_to_a = saves, ad, n, lost


def megabeast_class(d: DieResult, threat_level: int, r: Rulings) -> str:
    """How one die of a Miner fares against the MegaBeast's Threat Level (MegaBeast › Threat Level, Wounds):
    ``"miss"`` (a failure), ``"hit"`` / ``"crit"`` (wounds), ``"tie"`` (equal, under ``megabeast_equal = tie``),
    ``"beaten"`` (the MegaBeast prevails over it). Consults ``megabeast_critical`` for Criticals and
    ``megabeast_equal`` for results equal to the Threat Level."""
    if not d.success:
        return "miss"
    if d.critical and r.reading("megabeast_critical") == "critical_wins":
        return "crit"
    if d.effective > threat_level:
        return "crit" if d.critical else "hit"
    if d.effective == threat_level:
        return "tie" if r.reading("megabeast_equal") == "tie" else "beaten"
    return "beaten"


def _resolve_megabeast(a: SideInputs, mb: MegaBeastInputs, dice_a: Sequence[int], saves_a: Sequence[int],
                       r: Rulings) -> Exchange:
    t = Trace(f"{a.name} ({SKILL_NAMES[a.skill]}) vs the {mb.name} (Threat Level {mb.threat_level})")
    sva = success_value(a.attribute, sv_mods(a, None), r)
    t.add(f"{a.name}'s Success Value is {sva.value}", S.MODIFIERS if sva.mods else S.SUCCESSFUL_ROLL,
          f"{SKILL_NAMES[a.skill]} Attribute with every MOD applied: {_fmt_mods(sva)}.", section="Success Values",
          marks=("A",), side="A", sv=sva.value)
    t.add(f"The {mb.name} does not roll: its Threat Level {mb.threat_level} is its result", S.MEGABEAST_THREAT,
          "The Threat Level of the Hexagon side where the ARO occurs counts as the MegaBeast's roll.",
          section="Success Values", marks=("MB",), threat_level=mb.threat_level)
    da = tuple(classify_die(f, sva.value, r) for f in _check_dice(dice_a, a.dice_count, "dice A"))
    classes = tuple(megabeast_class(d, mb.threat_level, r) for d in da)
    sec = "Against the MegaBeast"
    for i, (d, cl) in enumerate(zip(da, classes)):
        label = f"{a.name}'s {d.face}{'★' if d.critical else ''}"
        if cl == "miss":
            t.add(f"{label} fails (above SV {sva.value})", S.SUCCESSFUL_ROLL, "Failures are discarded.", section=sec,
                  marks=(f"A.{i + 1}",))
        elif cl in ("hit", "crit"):
            why = ("A Critical always wins (megabeast_critical = critical_wins)."
                   if d.critical and d.effective <= mb.threat_level else
                   f"{d.effective} exceeds the Threat Level {mb.threat_level}.")
            t.add(f"{label} beats the Threat Level", S.MEGABEAST_WOUNDS, why, section=sec,
                  marks=(f"A.{i + 1}", "MB"))
        elif cl == "tie":
            t.add(f"{label} equals the Threat Level: a tie", S.MEGABEAST_THREAT,
                  "megabeast_equal = tie: the Threat Level is the MegaBeast's roll, equal results cancel.",
                  section=sec, marks=(f"A.{i + 1}", "MB"))
        else:
            why = (f"{d.effective} does not exceed the Threat Level {mb.threat_level}"
                   + (" (a Critical must exceed it too: megabeast_critical = must_exceed)." if d.critical else "."))
            t.add(f"{label} is beaten by the Threat Level", S.MEGABEAST_THREAT, why, section=sec,
                  marks=(f"A.{i + 1}", "MB"))
    hits = classes.count("hit")
    crits = classes.count("crit")
    winner = "a" if hits + crits else (None if "tie" in classes else "b")
    ex = Exchange("megabeast", a, None, mb, sva, None, da, (), None, winner, hits, crits, mb_classes=classes)
    if winner == "a" and a.skill in ATTACKS:
        n = saving_rolls(hits, crits, a.ammunition, megabeast=True)
        lost = min(n, mb.wounds)
        t.add(f"The {mb.name} suffers {n} Wound{'s' if n != 1 else ''}" + (f", loses {lost}" if lost < n else ""),
              S.MEGABEAST_WOUNDS,
              f"No Armor roll: every Saving Roll produced is a Wound ({hits + crits} hit(s), {a.ammunition}); "
              "immune to Criticals, so no extra roll." + (" The MegaBeast dies." if n >= mb.wounds else ""),
              section="Result", marks=("MB",), wounds_lost=lost)
        ex.saving_rolls_b, ex.wounds_to_b = n, lost
    elif winner == "a":
        t.add(f"{a.name} evades the {mb.name}", S.EVADE, "The Behavior Attack does not affect the evader.",
              section="Result")
    elif winner is None:
        t.add("A tie: nothing happens", S.FACE_TO_FACE, "Breaking Ties: both rolls cancel each other.",
              section="Result")
    else:
        t.add(f"The {mb.name} prevails: its Behavior Attack hits {a.name}", S.MEGABEAST_THREAT,
              "No die of the Miner exceeded the Threat Level.", section="Result", marks=("MB",))
        n = saving_rolls(1, 0, mb.ammunition)
        ad = attack_damage(mb.damage, a.armor, mb.ammunition)
        saves = _take_saves(saves_a, n, ad.value, "A", "saves A")
        fails = sum(s.failed for s in saves)
        lost = min(fails, a.wounds)
        t.add(f"{a.name} makes {n} Saving Roll{'s' if n != 1 else ''} against Attack Damage {ad.value}: "
              + ", ".join(str(s.face) for s in saves) + f", {fails} failed", S.SAVING_ROLL,
              f"Damage {ad.weapon_damage} - Armor {ad.effective_armor} = {ad.value}; a face at most {ad.value} fails.",
              section="Saving Rolls", marks=tuple(s.id for s in saves))
        t.add(f"{a.name} loses {lost} Wound{'s' if lost != 1 else ''}", S.DEATH if fails >= a.wounds else
              S.SAVING_ROLL, f"{a.wounds} Wounds left before the roll.", section="Result", marks=("A",))
        ex.saves_a, ex.damage_vs_a, ex.saving_rolls_a, ex.wounds_to_a = saves, ad, n, lost
    t.rulings = dict(r.consulted)
    t.outcome = {"winner": winner, "hits_a": hits, "crits_a": crits, "wounds_to_b": ex.wounds_to_b,
                 "wounds_to_a": ex.wounds_to_a}
    ex.trace = t
    return ex
