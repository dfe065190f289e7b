"""``explorer tagraid odds`` (also ``explorer odds``): exact odds of a TAG Raid Face to Face Roll, Normal Roll or roll against the MegaBeast.

Every number option is read as text and checked here, so bad input gives one line naming the option and what is
allowed (a :class:`~explorer.errors.ScenarioError`, exit code 2), never a traceback. Bounds are the TOML scenario
format's (:func:`explorer.games.tagraid.model.field_bounds`).

Side ``a`` is the Active Miner, ``b`` a Reactive Miner whose ARO targets ``a``; who rolls (Face to Face Roll, Normal
Roll, nobody) is :func:`explorer.games.tagraid.odds.roll_plan`, printed first with its section.

Numbers are always computed exactly; without ``--exact`` they are shown as the nearest floats (JSON numbers), with
``--exact`` as fractions (JSON ``"n/d"`` strings). Wounds and Saving Rolls a side does not cause (Evade, Idle, no
``--damage-*``) are ``null`` in JSON and "none computed" in the text.

Sections: Rolls › Successful Roll, Modifiers (MOD), Criticals, Normal Roll, Face to Face Rolls; Damage › Partial
Cover, Saving Roll; Skills and Tools › Ammunition; Death; MegaBeast › Wounds, Threat Level.

Examples::

    explorer odds --burst-a 3 --sv-a 14 --damage-a 15 --armor-b 5 --ammo-a AP --cover-b \
                  --burst-b 1 --sv-b 12 --damage-b 13 --armor-a 4 --wounds-b 3 --exact
    explorer odds --burst-a 1 --attribute-a 12 --mod-a "Range=+3" --ammo-a EXP --damage-a 15 \
                  --megabeast-threat 5 --wounds-b 2
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import click

from explorer.errors import ScenarioError, short_repr
from explorer.text import plural

if TYPE_CHECKING:  # the odds engine is imported when the command runs, so that `--help` and usage errors skip it
    from . import odds as O

SKILLS = ("ranged", "cc", "evade", "idle")
"""Skills a side may declare (:data:`.odds.ODDS_SKILLS`, copied so that the command line starts without the odds
engine; tests/tagraid/test_cli_start.py checks they are equal)."""


def _int(value: str | None, option: str, allowed: str, lo: int | None = None, hi: int | None = None, *,
         plus: bool = False) -> int | None:
    """``value`` as a plain ASCII whole number (``explorer.cli_numbers``; ``plus``: a leading '+' too, as MODs are
    written), ``None`` when not given; ScenarioError naming ``option`` otherwise."""
    if value is None:
        return None
    from explorer.cli_numbers import is_plain_int

    if not is_plain_int(value, plus=plus):
        raise ScenarioError(option, f"{short_repr(value)} is not a whole number", allowed)
    n = int(value)
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        raise ScenarioError(option, f"{short_repr(n)} is out of range", allowed)
    return n


# One set of bounds: every number option is checked against the pydantic field of the TOML scenario format
# (explorer/games/tagraid/model.py) that holds the same quantity, so the CLI, TOML files and widgets agree. The numbers
# are copied here so that `explorer odds` starts without importing pydantic; tests/tagraid/test_cli_start.py checks
# that they equal model.field_bounds(model, field) for every entry.
_BOUNDS = {
    "burst": ("Weapon", "burst", "d20s rolled", (0, 20)),
    "sv": ("ReactiveMiner", "attribute", "the final Success Value", (0, 30)),
    "attribute": ("ReactiveMiner", "attribute", "the Attribute before MODs", (0, 30)),
    "damage": ("Weapon", "damage", "the Weapon's Damage", (0, 30)),
    "armor": ("ReactiveMiner", "armor", "Armor", (0, 30)),
    "wounds": ("ReactiveMiner", "wounds", "Wounds left", (1, 30)),
    "megabeast_wounds": ("MegaBeast", "wounds", "the MegaBeast's Wounds left", (1, 50)),
    "threat": ("MegaBeast", "threat_level", "the MegaBeast's Threat Level", (0, 20)),
}


def _check_bounded(value: int, option: str, quantity: str) -> int:
    """``value`` if it is within the bounds of ``quantity`` (as :func:`.model.check_bounded`, same message)."""
    _, _, what, (lo, hi) = _BOUNDS[quantity]
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        rng = f"{lo}..{hi}" if lo is not None and hi is not None else (f">= {lo}" if lo is not None else f"<= {hi}")
        raise ScenarioError(option, f"{value} is out of range", f"a whole number {rng} ({what})")
    return value


def _bounded(value: str | None, option: str, quantity: str) -> int | None:
    """``value`` parsed as a whole number within the TOML format's bounds for ``quantity`` (a key of ``_BOUNDS``);
    ``None`` when not given. Raises ScenarioError naming ``option`` and the allowed range."""
    what = _BOUNDS[quantity][2]
    n = _int(value, option, f"a whole number ({what})")
    return None if n is None else _check_bounded(n, option, quantity)


def _skill_burst(name: str, skill: str | None, burst: str | None) -> tuple[str, int]:
    """The skill declared by side ``name`` and the dice it would roll: Evade is one die whatever the Burst (Common
    Skills › Evade), Idle none (Common Skills › Idle); an attack rolls ``--burst`` (default 1)."""
    from . import sections as S

    skill = (skill or "ranged").strip().lower()
    if skill not in SKILLS:
        raise ScenarioError(f"--skill-{name}", f"unknown skill {short_repr(skill)}", SKILLS)
    n = _bounded(burst, f"--burst-{name}", "burst")
    if skill == "evade":
        if n is not None and n != 1:
            raise ScenarioError(f"--burst-{name}", f"Evade is a single roll whatever the Burst, so side {name} "
                                f"cannot roll {plural(n, 'Evade die', 'Evade dice')} [{S.EVADE}]",
                                f"omit --burst-{name}, or 1")
        return skill, 1
    if skill == "idle":
        if n:
            raise ScenarioError(f"--burst-{name}", f"Idle performs no action, so side {name} rolls no dice "
                                f"[{S.IDLE}]", f"omit --burst-{name}, or 0")
        return skill, 0
    return skill, 1 if n is None else n


def _mods(values: list[str] | None, option: str, cover_flag: str) -> dict[str, int]:
    """``["Range=+3", "Sight=-3"]`` -> ``{"Range": 3, "Sight": -3}``, under the same rules as the MODs of a scenario
    file: each MOD within ``field_bounds(ModBounds, "value")``, at most ``MAX_MODS`` names, their total within
    ``field_bounds(ModBounds, "total")``, and no Partial Cover MOD (``cover_flag`` declares Partial Cover, so that it
    is never counted twice). A name given twice adds up."""
    if not values:
        return {}
    # imported here: `explorer tagraid odds` without MODs starts without the pydantic scenario models
    from .model import MAX_MODS, MAX_NAME, ModBounds, check_bounded, check_mod_total, field_bounds, is_reserved_mod

    lo, hi = field_bounds(ModBounds, "value")
    allowed = f'a named MOD such as "Range=+3", each a whole number {lo}..{hi}'
    out: dict[str, int] = {}
    for v in values or []:
        name, sep, num = v.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ScenarioError(option, f"{short_repr(v)} is not NAME=VALUE", allowed)
        if len(name) > MAX_NAME:
            raise ScenarioError(option, f"the MOD name {short_repr(name)} is too long", f"at most {MAX_NAME} "
                                "characters")
        if is_reserved_mod(name):
            raise ScenarioError(option, f"{short_repr(name)} is a Partial Cover MOD, which is derived, not declared "
                                "(Damage › Partial Cover)", f"{cover_flag} for Partial Cover")
        n = _int(num.strip(), option, allowed, plus=True)
        out[name] = out.get(name, 0) + check_bounded(n, ModBounds, "value", option, "one MOD")
    if len(out) > MAX_MODS:
        raise ScenarioError(option, f"{len(out)} MODs given", f"at most {MAX_MODS} named MODs")
    check_mod_total(sum(out.values()), option, "given")
    return out


def _rulings(values: list[str] | None):
    from .options import ALL_OPTIONS
    from .options import rulings as make_rulings

    chosen: dict[str, str] = {}
    keys = {o.key: o for o in ALL_OPTIONS}
    for v in values or []:
        key, sep, reading = v.partition("=")
        key, reading = key.strip(), reading.strip()
        if not sep:
            raise ScenarioError("--ruling", f"{short_repr(v)} is not KEY=READING",
                                [f"{k}={r}" for k, o in keys.items() for r in o.readings])
        if key not in keys:
            raise ScenarioError("--ruling", f"unknown ruling option {short_repr(key)}", sorted(keys))
        if reading not in keys[key].readings:
            raise ScenarioError("--ruling", f"unknown reading {short_repr(reading)} of {key}", list(keys[key].readings))
        if key in chosen:  # as explorer.games.parse_rulings: the last one silently won
            raise ScenarioError("--ruling", f"{key} is given twice ({chosen[key]} and {reading})",
                                f"each ruling option once: one of {', '.join(repr(r) for r in keys[key].readings)}")
        chosen[key] = reading
    return make_rulings(chosen)


@dataclass
class _Side:
    """A side as typed on the command line, and how its numbers were derived (for the printout)."""

    name: str
    sv: int = 0
    sv_how: str = ""
    burst: int = 0
    skill: str = "ranged"
    ammo: str = "N"
    damage: int | None = None
    ad: int | None = None
    ad_how: str = ""
    wounds: int | None = None
    notes: list[str] = field(default_factory=list)


def _side(name: str, other: str, *, skill: str, burst: int, rolls: bool, sv, attribute, mods, damage, ammo, wounds,
          cover_other, other_armor, rulings, megabeast: bool = False) -> _Side:
    """Side ``name`` as typed: ``skill`` and ``burst`` from :func:`_skill_burst`, ``rolls`` from the
    :class:`~explorer.games.tagraid.odds.RollPlan` (a side that does not roll keeps its SV for display only)."""
    from .rolls import Ammunition, attack_damage, success_value

    s = _Side(name, skill=skill, burst=burst if rolls else 0)
    ammo = (ammo or "N").strip().upper()
    if ammo not in {a.value for a in Ammunition}:
        raise ScenarioError(f"--ammo-{name}", f"unknown ammunition {short_repr(ammo)}", [a.value for a in Ammunition])
    s.ammo = ammo
    s.wounds = _bounded(wounds, f"--wounds-{name}", "megabeast_wounds" if megabeast and name == "b" else "wounds")
    mods_d = _mods(mods, f"--mod-{name}", f"--cover-{other}")
    sv_n = _bounded(sv, f"--sv-{name}", "sv")
    attr_n = _bounded(attribute, f"--attribute-{name}", "attribute")
    if sv_n is not None and attr_n is not None:
        raise ScenarioError(f"--sv-{name}", f"give either --sv-{name} or --attribute-{name}, not both",
                            f"--sv-{name} N, or --attribute-{name} N with --mod-{name} NAME=VALUE")
    if sv_n is not None and mods_d:
        raise ScenarioError(f"--mod-{name}", f"MODs need --attribute-{name} (--sv-{name} is already final)",
                            f"--attribute-{name} N with --mod-{name} NAME=VALUE")
    if cover_other:
        if skill != "ranged":
            raise ScenarioError(f"--cover-{other}", f"Partial Cover only counts against a Ranged Attack, "
                                f"and {name} declares {skill} (Damage › Partial Cover)", f"--skill-{name} ranged")
        mods_d.setdefault("Partial Cover", -3)
    if sv_n is None and attr_n is None:
        if s.burst:
            raise ScenarioError(f"--sv-{name}",
                                f"side {name} rolls {plural(s.burst, 'die', 'dice')} but has no Success Value",
                                f"--sv-{name} N, or --attribute-{name} N with --mod-{name} NAME=VALUE")
        s.sv, s.sv_how = 0, "does not roll"
    else:
        base = sv_n if sv_n is not None else attr_n
        res = success_value(base, mods_d, rulings)
        s.sv = res.value
        parts = [f"{'SV' if sv_n is not None else 'Attribute'} {base}"] + [f"{k} {v:+d}" for k, v in mods_d.items()]
        s.sv_how = " ".join(parts) + (f" (MODs capped to {res.mod_total:+d})" if res.capped else "")
        if not s.burst:
            s.sv_how += "; does not roll"
    dmg = _bounded(damage, f"--damage-{name}", "damage")
    s.damage = dmg
    if skill in ("evade", "idle"):
        if dmg is not None:
            raise ScenarioError(f"--damage-{name}", f"{name} declares {skill}, which causes no Saving Rolls",
                                f"omit --damage-{name}, or --skill-{name} ranged|cc")
        s.ad, s.ad_how = None, f"{skill}: no Saving Rolls"
    elif megabeast:
        # the value is not used (no Armor roll): any int tells versus_megabeast that the success wounds
        s.ad = dmg if dmg is not None else 0
        s.ad_how = "MegaBeast: no Armor roll, each Saving Roll produced is a Wound"
    elif dmg is None:
        s.ad, s.ad_how = None, f"no --damage-{name}: Wounds not computed"
    else:
        armor = _bounded(other_armor, f"--armor-{other}", "armor") or 0
        ad = attack_damage(dmg, armor, ammo, partial_cover=bool(cover_other))
        s.ad = ad.value
        how = f"Damage {dmg} - Armor {ad.effective_armor}"
        if ammo == "AP" and armor:
            how += f" (AP: {armor} halved, rounded up)"
        if cover_other:
            how += " - 3 Partial Cover"
        s.ad_how = how
    return s


def _fmt_p(p, exact: bool) -> str:
    from fractions import Fraction

    from explorer.text import percent

    pct = f"{percent(p, 3, ' '):>9}"
    return f"{str(Fraction(p)):>14}  {pct}" if exact else pct


def _outcome_label(w, h, c, a_name="a", b_name="b", evades: bool = False) -> str:
    if w is None:
        return "nobody (both fail, or a tie)"
    parts = []
    if h:
        parts.append(f"{h} hit{'s' if h != 1 else ''}")
    if c:
        parts.append(f"{c} Critical{'s' if c != 1 else ''}")
    who = a_name if w == "a" else b_name
    if evades:
        return f"{who} evades (its Evade die " + ("is a Critical)" if c else "succeeds)")
    return f"{who} wins: " + " + ".join(parts) + " uncancelled"


def _print_text(res, a: _Side, b: _Side, threat, exact: bool, cover_a: bool, cover_b: bool,
                plan: O.RollPlan | None = None) -> None:
    from fractions import Fraction

    from . import sections as S

    echo = click.echo
    if plan is None:
        echo("Roll against the MegaBeast [TAG Raid: MegaBeast › Threat Level, Wounds]")
    else:
        name = {"face_to_face": "Face to Face Roll", "normal": f"Normal Roll by {'a' if plan.a_rolls else 'b'}",
                "none": "No roll"}[plan.kind]
        echo(f"{name} [{S.GAME}: {plan.section}]  (a: the Active Miner; b: a Reactive Miner whose ARO targets a)")
        for note in plan.notes:
            echo(f"  note: {note}")
    ad_a = "-" if a.ad is None or (threat is not None and a.damage is None) else a.ad
    echo(f"  a: Burst {a.burst}, SV {a.sv} ({a.sv_how}), {a.skill}, {a.ammo}; Attack Damage "
         f"{ad_a} ({a.ad_how})" + (f"; Wounds left {a.wounds}" if a.wounds is not None else ""))
    if threat is not None:
        echo(f"  b: the MegaBeast, Threat Level {threat} (its fixed roll)"
             + (f"; Wounds left {b.wounds}" if b.wounds is not None else ""))
    else:
        echo(f"  b: Burst {b.burst}, SV {b.sv} ({b.sv_how}), {b.skill}, {b.ammo}; Attack Damage "
             f"{'-' if b.ad is None else b.ad} ({b.ad_how})" + (f"; Wounds left {b.wounds}" if b.wounds is not None else ""))
    for side, other, cov in (("b", "a", cover_b), ("a", "b", cover_a)):
        if cov:
            echo(f"  Partial Cover of {side}: -3 MOD to {other}'s Ranged Attack SV and -3 to {other}'s Attack Damage "
                 "[Damage › Partial Cover; Ranged Combat MODs]")
    echo("")
    echo(f"  {'outcome':<52} {'probability':>{25 if exact else 9}}")
    for w, h, c, p in res.outcome_rows():
        label = _outcome_label(w, h, c, "a", "MegaBeast" if threat is not None else "b",
                               evades=(a if w == "a" else b).skill == "evade")
        if threat is not None and w == "b":
            label = "MegaBeast prevails (its Behavior's Attack applies)"
        echo(f"  {label:<52} {_fmt_p(p, exact)}")
    echo(f"  {'total: a wins':<52} {_fmt_p(res.p_a_wins, exact)}")
    echo(f"  {'total: ' + ('MegaBeast prevails' if threat is not None else 'b wins'):<52} {_fmt_p(res.p_b_wins, exact)}")
    echo(f"  {'total: nobody':<52} {_fmt_p(res.p_nobody, exact)}")
    for target, wl, src, left in (("b" if threat is None else "the MegaBeast", res.wounds_to_b, a, b.wounds),
                                  ("a", res.wounds_to_a, b, a.wounds)):
        if threat is not None and target == "a":
            continue
        echo("")
        if src.ad is None:
            echo(f"  Wounds to {target}: none computed ({src.ad_how})")
            continue
        cap = f", capped at {plural(left, 'Wound')} left" if left is not None else ""
        if threat is not None:
            echo(f"  Wounds to {target} ({src.ammo}: each Saving Roll produced is a Wound, the Critical's extra one "
                 f"ignored{cap}) [MegaBeast › Wounds; Death]:")
        else:
            echo(f"  Wounds to {target} (Attack Damage {src.ad}, {src.ammo}{cap}) [Damage › Saving Roll; Death]:")
        for k, p in enumerate(wl):
            echo(f"    {k:>3} {'Wound ' if k == 1 else 'Wounds'}  {_fmt_p(p, exact)}")
        mean = sum(k * p for k, p in enumerate(wl))
        echo(f"    expected  {str(Fraction(mean))} = {float(mean):.4f} Wounds" if exact
             else f"    expected  {float(mean):.4f} Wounds")
    if res.rulings:
        echo("")
        echo("  Rulings used: " + ", ".join(f"{k} = {v}" for k, v in res.rulings.items()))


@click.command("odds")
@click.option("--burst-a", default=None, help="d20s side a (the Active Miner) rolls with an attack (0..20, default 1; "
                                              "0 = a does not roll); Evade is 1, Idle 0")
@click.option("--sv-a", default=None, help="a's Success Value (before --cover-b)")
@click.option("--attribute-a", default=None, help="a's Attribute; MODs via --mod-a")
@click.option("--mod-a", multiple=True, help='named MOD to a\'s Attribute, e.g. "Range=+3"')
@click.option("--damage-a", default=None, help="Damage of a's weapon")
@click.option("--armor-a", default=None, help="a's Armor (against b's attack); default 0")
@click.option("--ammo-a", default="N", help="a's Ammunition: N, DA, EXP, AP")
@click.option("--skill-a", default=None, help="a's Skill: ranged (default), cc, evade, idle")
@click.option("--cover-a", is_flag=True, help="a is in Partial Cover (-3 to b's SV and Attack Damage)")
@click.option("--wounds-a", default=None, help="a's Wounds left (caps Wounds caused)")
@click.option("--burst-b", default=None, help="d20s side b (a Reactive Miner whose ARO targets a) rolls with an "
                                              "attack (0..20, default 1; 0 = b does not roll)")
@click.option("--sv-b", default=None, help="b's Success Value (before --cover-a)")
@click.option("--attribute-b", default=None, help="b's Attribute; MODs via --mod-b")
@click.option("--mod-b", multiple=True, help='named MOD to b\'s Attribute, e.g. "Range=+3"')
@click.option("--damage-b", default=None, help="Damage of b's weapon")
@click.option("--armor-b", default=None, help="b's Armor (against a's attack); default 0")
@click.option("--ammo-b", default="N", help="b's Ammunition: N, DA, EXP, AP")
@click.option("--skill-b", default=None, help="b's Skill: ranged (default), cc, evade, idle")
@click.option("--cover-b", is_flag=True, help="b is in Partial Cover (-3 to a's SV and Attack Damage)")
@click.option("--wounds-b", default=None, help="b's Wounds left (caps Wounds caused)")
@click.option("--contact", is_flag=True, help="a and b are in Silhouette Contact (needed by a Close Combat Attack; "
                                              "forbids a Ranged Attack)")
@click.option("--megabeast-threat", default=None, help="b is the MegaBeast with this Threat Level")
@click.option("--exact", is_flag=True, help="exact fractions instead of floats")
@click.option("--ruling", multiple=True, help="ruling option KEY=READING (repeatable)")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds(burst_a: str | None, sv_a: str | None, attribute_a: str | None, mod_a: tuple[str, ...],
         damage_a: str | None, armor_a: str | None, ammo_a: str, skill_a: str | None, cover_a: bool,
         wounds_a: str | None, burst_b: str | None, sv_b: str | None, attribute_b: str | None,
         mod_b: tuple[str, ...], damage_b: str | None, armor_b: str | None, ammo_b: str, skill_b: str | None,
         cover_b: bool, wounds_b: str | None, contact: bool, megabeast_threat: str | None, exact: bool,
         ruling: tuple[str, ...], as_json: bool) -> None:
    """Exact odds of a TAG Raid roll: who wins with how many uncancelled hits and Criticals, and the Wounds."""
    from . import odds as O

    mod_a, mod_b = list(mod_a), list(mod_b)
    rulings = _rulings(list(ruling))
    threat = _bounded(megabeast_threat, "--megabeast-threat", "threat")
    _bounded(armor_a, "--armor-a", "armor")
    _bounded(armor_b, "--armor-b", "armor")
    skill_a, n_a = _skill_burst("a", skill_a, burst_a)
    if threat is not None:
        for opt, val in (("--sv-b", sv_b), ("--attribute-b", attribute_b), ("--damage-b", damage_b),
                         ("--armor-b", armor_b), ("--mod-b", mod_b), ("--burst-b", burst_b), ("--skill-b", skill_b),
                         ("--ammo-b", None if (ammo_b or "N").strip().upper() == "N" else ammo_b)):
            if val:
                raise ScenarioError(opt, "the MegaBeast does not roll: its Threat Level is its result",
                                    "with --megabeast-threat only --wounds-b (its Wounds left) applies to b")
        if cover_b or cover_a:
            raise ScenarioError("--cover-b" if cover_b else "--cover-a",
                                "Partial Cover plays no part against the MegaBeast (no Saving Rolls, fixed roll)",
                                "omit it with --megabeast-threat")
        if skill_a == "cc" and not contact:
            raise ScenarioError("--contact", "a Close Combat Attack needs Silhouette Contact with its target "
                                "(Common Skills › Close Combat Attack, Requirements)", "add --contact")
        plan = None
        a = _side("a", "b", skill=skill_a, burst=n_a, rolls=n_a > 0, sv=sv_a, attribute=attribute_a, mods=mod_a,
                  damage=damage_a, ammo=ammo_a, wounds=wounds_a, cover_other=cover_b, other_armor=armor_b,
                  rulings=rulings, megabeast=True)
        b = _Side("b", wounds=_bounded(wounds_b, "--wounds-b", "megabeast_wounds"))
        spec_a = O.SideSpec(a.sv, a.burst, a.ad, a.ammo, b.wounds)
        res = O.versus_megabeast(spec_a, threat, rulings=rulings, exact=True)
    else:
        skill_b, n_b = _skill_burst("b", skill_b, burst_b)
        plan = O.roll_plan(skill_a, n_a, skill_b, n_b, silhouette_contact=contact)
        a = _side("a", "b", skill=skill_a, burst=n_a, rolls=plan.a_rolls, sv=sv_a, attribute=attribute_a,
                  mods=mod_a, damage=damage_a, ammo=ammo_a, wounds=wounds_a, cover_other=cover_b,
                  other_armor=armor_b, rulings=rulings)
        b = _side("b", "a", skill=skill_b, burst=n_b, rolls=plan.b_rolls, sv=sv_b, attribute=attribute_b,
                  mods=mod_b, damage=damage_b, ammo=ammo_b, wounds=wounds_b, cover_other=cover_a,
                  other_armor=armor_a, rulings=rulings)
        spec_a = O.SideSpec(a.sv, a.burst, a.ad, a.ammo, b.wounds)
        spec_b = O.SideSpec(b.sv, b.burst, b.ad, b.ammo, a.wounds)
        res = O.face_to_face(spec_a, spec_b, rulings=rulings, exact=True)
        res = replace(res, kind=plan.kind)   # the same derivation (a side that does not roll has Burst 0)
    # readings consulted while deriving the SVs (mod_cap) plus those the odds engine consulted
    used = {**rulings.consulted, **res.rulings}
    res = replace(res, rulings=used)
    if not exact:
        res = res.to_floats()   # computed exactly (cheap), shown as the nearest floats: no 1 - 0.405 - 0.405 noise
    if as_json:
        d = res.to_dict()
        if plan is not None:
            d["roll"] = plan.to_dict()
        else:
            d["a"]["attack_damage"] = a.damage   # not used against the MegaBeast (no Armor roll); None if not given
        d["derivation"] = {"a": {"sv": a.sv_how, "attack_damage": a.ad_how, "skill": a.skill},
                           "b": ({"threat_level": threat} if threat is not None else
                                 {"sv": b.sv_how, "attack_damage": b.ad_how, "skill": b.skill}),
                           "partial_cover": {"a": cover_a, "b": cover_b}}
        import json   # only for --json: a text answer needs no JSON encoder

        click.echo(json.dumps(d, indent=2))
    else:
        _print_text(res, a, b, threat, exact, cover_a, cover_b, plan)


def cli_app() -> click.Group:
    """The TAG Raid verbs (``explorer tagraid odds``, ``explorer tagraid lof``, ``explorer tagraid order-odds``);
    ``explorer odds`` is kept as a hidden
    alias (:data:`explorer.cli.ALIASES`)."""
    from .cli_lof import lof
    from .cli_order_odds import order_odds_cmd

    return click.Group("tagraid", commands=[odds, lof, order_odds_cmd],
                       help="Infinity Deathmatch: TAG Raid: exact odds of a roll exchange or of a whole Order; Line of "
                       "Fire on a table.")
