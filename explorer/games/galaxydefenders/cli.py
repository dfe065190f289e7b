"""``explorer galaxydefenders ...``: the Galaxy Defenders verbs beside the registry's ``scenarios | resolve | rulings``.

Sections: 9.2 Combat, 11.12 Combat, 11.7 Multiple Energy Shielded Armor, 8.1 Lethal, 8.2 Critical, 8.2.3 Effects,
9.5.2.2 Combat (the Power Suit's weapon), Storybook 5.5.1 High Impact (see :mod:`.odds`).

Examples::

    explorer galaxydefenders odds --dice red=3,yellow=1 --shields 2,1 --health 4
    explorer galaxydefenders odds --fixed-hits 8 --def-dice-minus 2 --lethal --json
    explorer galaxydefenders odds --dice red=12 --shields 2,2 --calibration my-dice.toml
    explorer galaxydefenders odds --dice red=3,blue=2 --power-suit-weapon --bonus-dice red=1 \
        --effect-symbols bolt,wings --on-effect --critical 1 --shields 2,1 --health 5
    explorer galaxydefenders odds --dice red=2 --bonus-hits 1 --device vigil --shields 2 --health 5
    explorer galaxydefenders odds --dice red=2 --device gd-5 --drone-dice red=3 --device-first --json
"""

from __future__ import annotations

import click

from explorer.text import percent, plural


def _int(value: str, option: str, lo: int, hi: int) -> int:
    from explorer.errors import ScenarioError

    from explorer.cli_numbers import is_plain_int

    n = int(value) if is_plain_int(value) else None
    if n is None:
        raise ScenarioError(option, f"{value[:20]!r} is not a whole number", f"a whole number from {lo} to {hi}")
    if not lo <= n <= hi:
        raise ScenarioError(option, f"{n} is out of range", f"a whole number from {lo} to {hi}")
    return n


def _stacks(text: str | None) -> list[int]:
    """``--shields 2,2`` -> ``[2, 2]`` (Left first); ``None`` (not given) -> ``[]``. Every comma-separated part must
    be a plain whole number 0..10 (spaces around the commas allowed): ``','`` or ``''`` is refused, not taken as no
    shields."""
    from explorer.errors import ScenarioError

    if text is None:
        return []
    if len(text) > 40:
        raise ScenarioError("--shields", "too long", "up to 3 stacks such as 2,2")
    parts = [s.strip() for s in text.split(",")]
    if not all(parts):
        raise ScenarioError("--shields", f"{text!r} has an empty stack", "up to 3 stacks, each a whole number 0..10, "
                            "such as 2,2 (omit the option for no shields)")
    return [_int(s, "--shields", 0, 10) for s in parts]


def _pool(text: str, option: str = "--dice") -> dict[str, int]:
    from explorer.errors import ScenarioError

    out: dict[str, int] = {}
    if len(text) > 80:
        raise ScenarioError(option, "too long", "colour=count pairs such as red=3,blue=2")
    parts = [p.strip() for p in text.split(",")]
    if not all(parts):  # ',' or '' was taken as no dice (as --shields ',' was taken as no shields; issue #25)
        raise ScenarioError(option, f"{text[:20]!r} has an empty colour=count pair",
                            "colour=count pairs such as red=3,blue=2" + ("" if option == "--dice" else
                                                                         " (omit the option for none)"))
    for part in parts:
        colour, sep, n = part.partition("=")
        if not sep or not colour.strip().isalpha():
            raise ScenarioError(option, f"{part[:20]!r} is not colour=count",
                                "colour=count pairs such as red=3,blue=2")
        c = colour.strip().lower()
        if c in out:  # red=12,red=12 summed past the bound of one colour (0..12) and hid a typo
            raise ScenarioError(option, f"colour {c!r} is given twice", "each colour once, e.g. red=3,blue=2")
        out[c] = _int(n.strip(), option, 0, 12)
    if len(out) > 4:
        raise ScenarioError(option, f"{len(out)} colours", "at most 4 colours")
    if option != "--dice":
        return out
    from .combat import MAX_POOL

    if sum(out.values()) > MAX_POOL:
        raise ScenarioError("--dice", f"{sum(out.values())} dice", f"at most {MAX_POOL} dice in one Hit roll")
    return out


@click.command("odds")
@click.option("--dice", default=None, help="Hit dice as colour=count pairs (red=3,blue=2).")
@click.option("--fixed-hits", default=None, help="A weapon giving N hits, no dice (0..20).")
@click.option("--bonus-hits", default="0", help="Hits added by powers/items (0..10).")
@click.option("--bonus-dice", default=None, help="Hit dice added by powers/items, colour=count of the weapon's colours "
              "(9.2).")
@click.option("--effect-symbols", default="bolt", show_default=True,
              help="Symbols that trigger the weapon's effects, comma-separated (9.2: bolt, wings, shield, jam, ammo).")
@click.option("--on-effect", is_flag=True, help="The weapon's effects (--lethal, --def-dice-minus, --critical) need an "
              "effect result (a Bolt or --effect-symbols) in the Hit roll.")
@click.option("--power-suit-weapon", is_flag=True, help="A Power Suit's weapon (9.5.2.2: Red and Blue dice, jam and "
              "ammo results ignored).")
@click.option("--atk-dice-minus", default="0", help="The attacker's -X ATK Dice Critical (0..5; 8.2.3).")
@click.option("--drop", default=None, help="With --atk-dice-minus on a multi-colour pool: the colours left out "
              "(red,blue).")
@click.option("--no-bolt", is_flag=True, help="The attacker's 'cannot use Bolt effects' Critical (8.2.3).")
@click.option("--shields", default=None, show_default=False, help="Energy Shield stacks, Left first (e.g. 2,2).")
@click.option("--standard-shields", default="0", help="Shield results from powers such as 'No Pain' (0..5).")
@click.option("--lethal", is_flag=True, help="The attack is Lethal (no Defend roll).")
@click.option("--def-dice-minus", default="0", help="-X Def Dice of the weapon (0..5).")
@click.option("--critical", default="0", help="Critical pile of the weapon (0 = none, 1, 2).")
@click.option("--health", default="6", help="Target's Health points (1..40).")
@click.option("--wounds", default="0", help="Wounds already on the target (0..40).")
@click.option("--kind", default="alien", help="Target: agent, alien, master_alien, npc, drone.")
@click.option("--high-impact/--no-high-impact", default=True, help="Storybook 5.5.1 (default On).")
@click.option("--calibration", default=None, help="A calibration TOML file (dice faces, Critical piles).")
@click.option("--device", default=None, help="The agent's deployed drone attacks the target too, activated with his "
              "Action (9.7.4.2 Vigil, 9.7.4.3 GD-5: vigil, gd-5): the odds of the whole turn.")
@click.option("--device-first", is_flag=True, help="With --device: the drone attacks before the agent.")
@click.option("--drone-dice", default=None, help="With --device: the Device tile's Hit dice, colour=count (the tile "
              "is not printed: a STAND-IN weapon otherwise).")
@click.option("--drone-fixed-hits", default=None, help="With --device: the Device tile's weapon gives N hits (0..20).")
@click.option("--ruling", multiple=True, help="key=reading (repeatable).")
@click.option("--exact", is_flag=True, help="Exact fractions in --json output.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def odds(dice: str | None, fixed_hits: str | None, bonus_hits: str, bonus_dice: str | None, effect_symbols: str,
         on_effect: bool, power_suit_weapon: bool, atk_dice_minus: str, drop: str | None, no_bolt: bool,
         shields: str, standard_shields: str, lethal: bool,
         def_dice_minus: str, critical: str, health: str, wounds: str, kind: str, high_impact: bool,
         calibration: str | None, device: str | None, device_first: bool, drone_dice: str | None,
         drone_fixed_hits: str | None, ruling: tuple[str, ...], exact: bool, as_json: bool) -> None:
    # (shields: None when not given; an explicit value must name at least one stack)
    """Exact odds of one attack: wounds dealt, a Critical token drawn, the target killed (or bleeding). An agent's
    full attack adds powers' and items' dice and hits, its weapon's effect symbols, the Power Suit's weapon and the
    attack of a drone his Device deployed (--device)."""
    from explorer.errors import ScenarioError
    from explorer.games import get_game, parse_rulings

    from .calibration import default_calibration, load_calibration
    from .combat import TargetState
    from .odds import attack_odds, summary
    from .options import rulings as make_rulings

    if (dice is None) == (fixed_hits is None):
        raise ScenarioError("--dice", "give either --dice or --fixed-hits", "--dice red=3 or --fixed-hits 4")
    kinds = ("agent", "alien", "master_alien", "npc", "drone")
    if kind not in kinds:
        raise ScenarioError("--kind", f"unknown target kind {kind[:20]!r}", kinds)
    if calibration is not None and not calibration.strip():
        raise ScenarioError("--calibration", "an empty path", "the path of a calibration TOML file (omit the option "
                            "for the default calibration)")
    cal = load_calibration(calibration) if calibration is not None else default_calibration()
    pool = _pool(dice) if dice is not None else {}
    for c in pool:
        cal.die(c, "--dice")
    if dice is not None and not any(pool.values()):
        raise ScenarioError("--dice", "no dice", "at least one die")
    stacks = _stacks(shields)
    if len(stacks) > 3:
        raise ScenarioError("--shields", f"{len(stacks)} stacks", "at most 3 stacks")
    effects = []
    trig = "bolt" if on_effect else "always"
    if lethal:
        effects.append({"kind": "lethal", "trigger": trig})
    if (m := _int(def_dice_minus, "--def-dice-minus", 0, 5)):
        effects.append({"kind": "def_dice_minus", "x": m, "trigger": trig})
    if (c := _int(critical, "--critical", 0, 2)):
        effects.append({"kind": "critical", "x": c, "trigger": trig})
    if on_effect and not effects:
        raise ScenarioError("--on-effect", "the weapon has no effect to trigger",
                            "--lethal, --def-dice-minus or --critical with it")
    if on_effect and fixed_hits is not None:
        raise ScenarioError("--on-effect", "a fixed-hits weapon rolls no dice, so no effect result can show (9.2)",
                            "--dice, or omit --on-effect")
    extra = _pool(bonus_dice, "--bonus-dice") if bonus_dice is not None else {}
    symbols = [x.strip() for x in effect_symbols.split(",")] if len(effect_symbols) <= 40 else ["?"]
    allowed = ("bolt", "wings", "shield", "jam", "ammo")
    bad = [x for x in symbols if x not in allowed]
    if bad or not symbols:
        raise ScenarioError("--effect-symbols", f"{(bad or [''])[0][:20]!r} is not an effect symbol", allowed)
    drops = [x.strip().lower() for x in drop.split(",")] if drop is not None else []
    if not all(drops):  # ',' or '' was taken as no colour left out
        raise ScenarioError("--drop", f"{drop[:20]!r} has an empty colour",
                            "colours of the Hit dice such as red,blue (omit the option when none is left out)")
    if len(drops) > 5:
        raise ScenarioError("--drop", f"{len(drops)} colours", "at most 5")
    hits = None if fixed_hits is None else _int(fixed_hits, "--fixed-hits", 0, 20)
    attack = odds_attack({"dice": pool, "fixed_hits": hits, "bonus_hits": _int(bonus_hits, "--bonus-hits", 0, 10),
                          "bonus_dice": extra, "effect_symbols": symbols, "power_suit_weapon": power_suit_weapon,
                          "atk_dice_minus": _int(atk_dice_minus, "--atk-dice-minus", 0, 5), "drop": drops,
                          "no_bolt": no_bolt}, effects)
    _check_cli_attack(attack)
    target = TargetState("target", kind, _int(health, "--health", 1, 40), _int(wounds, "--wounds", 0, 40),
                         tuple(stacks), None, _int(standard_shields, "--standard-shields", 0, 5))
    r = make_rulings(parse_rulings(list(ruling), [get_game("galaxydefenders")]))
    drone = _drone_attack(device, device_first, drone_dice, drone_fixed_hits, r, cal)
    device = device_kind(device) if device is not None else None
    if drone is None:
        d = attack_odds(target, attack, cal, high_impact, r, exact=exact)
    else:
        from .odds import turn_odds

        d = turn_odds(target, [drone, attack] if device_first else [attack, drone], cal, high_impact, r, exact=exact)
    s = summary(d)
    if drone is not None:
        s["attacks"] = [drone.attacker, "agent"] if device_first else ["agent", drone.attacker]
        from . import sections as S
        from .odds import DRONE_RULE

        s["drone"] = {"device": device, "weapon": drone.weapon, "dice": dict(drone.dice),
                      "fixed_hits": drone.fixed_hits, "damage": drone.damage,
                      "sections": [x.section for x in (S.DEVICES, DRONE_RULE[device], S.CRITICAL,
                                                       S.MULTIPLE_ENERGY_SHIELDS)]}
    s["rulings"] = dict(r.consulted)
    s["calibration"] = cal.source
    if as_json:
        import json   # only for --json: a text answer needs no JSON encoder

        click.echo(json.dumps(s, indent=2))
        return
    from .combat import dice_pool

    rolled = dice_pool(attack)
    what = f"{'+'.join(f'{n} {c}' for c, n in rolled.items())} dice" if pool else plural(fixed_hits, "fixed hit")
    if power_suit_weapon:
        what = "Power Suit weapon: " + what
    article = "an" if kind[0] in "aeiou" else "a"
    click.echo(f"{what} against {article} {kind} ({max(0, target.health - target.wounds)} Health left, "
               f"shields {stacks or 'none'}), "
               f"High Impact {'on' if high_impact else 'off'}  [Galaxy Defenders: 9.2 Combat; 11.7; 8.1; "
               f"Storybook 5.5.1]")
    if on_effect or power_suit_weapon or extra or attack.atk_dice_minus:
        bits = [f"effects on a {' or '.join(symbols)} result" if on_effect else "",
                "+" + " +".join(plural(n, f"{c} die", f"{c} dice") for c, n in extra.items())
                + " from powers and items (9.2)" if extra else "",
                f"-{attack.atk_dice_minus} ATK Dice (8.2.3)" if attack.atk_dice_minus else "",
                "jam and ammo results ignored (9.5.2.2)" if power_suit_weapon else ""]
        click.echo("Agent's attack: " + "; ".join(b for b in bits if b))
    if drone is not None:
        from . import sections as S
        from .odds import DRONE_RULE

        tile = "; its Device tile is a STAND-IN (--drone-dice to give yours)" if "stand-in" in drone.weapon else ""
        shape = "+".join(f"{n} {c}" for c, n in drone.dice.items() if n) + " dice" if drone.dice else \
            plural(drone.fixed_hits or 0, "fixed hit")
        order = "first, then the agent's attack" if device_first else "after the agent's attack"
        cite = f"{S.DEVICES.section}; {DRONE_RULE[device].section}"
        click.echo(f"Device: {drone.attacker} ({drone.weapon}: {shape}) attacks the same target {order}, "
                   f"activated with the Action  [Galaxy Defenders: {cite}]; its weapon never jams"
                   + ("; its attack deals Area Damage (the target is reached once)" if drone.damage == "area" else "")
                   + "; the target keeps what the first attack left (used shields 11.7, wounds, tokens; one Critical "
                   "per wounding attack 8.2)" + tile)
    click.echo(f"Calibration: {cal.source}" + ("  (ASSUMED faces: see data/calibration.toml)"
                                               if cal.source.endswith("(packaged default)") else ""))
    click.echo("")
    click.echo("  wounds   probability")
    for k, p in s["wounds"].items():
        click.echo(f"  {k:>6}   {percent(eval_frac(p), 2):>10}")
    click.echo("")
    click.echo(f"  expected wounds: {eval_frac(s['expected_wounds']):.3f}")
    click.echo(f"  P({'at least one ' if drone is not None else ''}Critical token drawn): "
               f"{percent(eval_frac(s['p_critical']))}")
    click.echo(f"  P(target {'bleeding' if kind == 'agent' else 'dead'}): {percent(eval_frac(s['p_down']))}")
    if r.consulted:
        click.echo("\nRuling options used: " + ", ".join(f"{k}={v}" for k, v in sorted(r.consulted.items())))


def device_kind(device: str) -> str:
    """``--device`` as a drone id: lower case, trimmed; the old spelling ``gd5`` reads as ``gd-5`` (as in a round
    file)."""
    kind = device.strip().lower()[:40]
    return "gd-5" if kind == "gd5" else kind


def _drone_attack(device: str | None, first: bool, dice: str | None, fixed_hits: str | None, r, cal):
    """The ``--device`` drone's attack (:func:`.odds.drone_fields` over :func:`odds_attack`), or ``None``.

    Raises:
        ScenarioError: naming ``--device`` (the Hologram, an unknown kind; ruling ``combat_activity`` =
            ``is_the_action``: the agent's Action is his attack, so it cannot also activate the drone, 9.7.4.2 /
            9.7.4.3), ``--drone-dice`` / ``--drone-fixed-hits`` (bad values, both, or either without --device),
            ``--device-first`` without --device.
    """
    from explorer.errors import ScenarioError

    from .odds import drone_fields

    if device is None:
        for given, option in ((first, "--device-first"), (dice, "--drone-dice"), (fixed_hits, "--drone-fixed-hits")):
            if given:
                raise ScenarioError(option, "there is no drone to attack", "--device vigil or --device gd-5 with it")
        return None
    kind = device_kind(device)
    pool = _pool(dice, "--drone-dice") if dice is not None else None
    for c in pool or {}:
        cal.die(c, "--drone-dice")
    if pool is not None and not any(pool.values()):
        raise ScenarioError("--drone-dice", "no dice", "at least one die")
    hits = None if fixed_hits is None else _int(fixed_hits, "--drone-fixed-hits", 0, 20)
    try:
        fields = drone_fields(kind, "target", pool, hits)
    except ScenarioError as e:
        raise ScenarioError({"device": "--device"}.get(e.field, "--drone-dice"), e.problem, e.allowed) from None
    if sum(fields["dice"].values()) > 12:
        raise ScenarioError("--drone-dice", f"{sum(fields['dice'].values())} dice", "at most 12 dice")
    if r.reading("combat_activity") == "is_the_action":
        raise ScenarioError("--device", f"{fields['attacker']} is activated with the agent's Action (9.7.4.2, "
                            "9.7.4.3), which ruling combat_activity = is_the_action spends on his own attack",
                            "omit --device, or --ruling combat_activity=separate")
    return odds_attack(fields, [])


def odds_attack(fields: dict, effects: list[dict]):
    """The ``odds`` verb's attack on ``"target"``: an :class:`~.combat_file.AttackModel` with ``fields`` and
    ``effects`` (:class:`~.combat_file.EffectModel` fields each) over the model's defaults, as the pydantic-free
    snapshot (:mod:`explorer.plain`) of the models. The defaults are read from the models once and kept in the parse
    cache (keyed by the code version, so a changed default is read afresh), so a warm run imports no pydantic (issue
    18). The verb has bounded every value itself (``_int``, ``_pool``, the symbols, :func:`_check_cli_attack`);
    ``tests/galaxydefenders/test_cli.py`` checks that this equals the validated model for any such values.
    """
    from explorer.parsecache import cached

    def defaults():
        from explorer.plain import snapshot

        from .combat_file import AttackModel, EffectModel

        return snapshot((AttackModel(target="target"), EffectModel(kind="lethal")))

    attack, effect = cached(("defaults", "galaxydefenders", "odds attack and effect"), b"", defaults)
    return attack.model_copy(update={**fields, "effects": [effect.model_copy(update=e) for e in effects]})


def _check_cli_attack(attack) -> None:
    """The scenario file's checks of an agent's weapon (:func:`.combat._check_agent_weapon`, the ``-X ATK Dice``
    drop), with the option names the command line uses.

    Raises:
        ScenarioError: naming ``--bonus-dice``, ``--power-suit-weapon``, ``--effect-symbols`` or ``--drop``.
    """
    from explorer.errors import ScenarioError
    from explorer.text import join_words

    from .combat import MAX_POOL, _check_agent_weapon, weapon_and_bonus_dice

    option = {"bonus_dice": "--bonus-dice", "dice": "--power-suit-weapon", "power_suit_weapon": "--power-suit-weapon",
              "effect_symbols": "--effect-symbols"}
    try:
        _check_agent_weapon(attack, "attack", "command line")
    except ScenarioError as e:
        key = e.field.split(".")[1]
        raise ScenarioError(option.get(key, "--" + key.replace("_", "-")), e.problem, e.allowed) from None
    merged = weapon_and_bonus_dice(attack)
    if sum(merged.values()) > MAX_POOL:
        raise ScenarioError("--bonus-dice", f"{sum(merged.values())} dice", f"at most {MAX_POOL} dice in one Hit roll")
    colours = [c for c, n in merged.items() if n]
    if attack.drop and not (attack.atk_dice_minus and attack.fixed_hits is None):  # else silently ignored
        raise ScenarioError("--drop", "names the dice a -X ATK Dice Critical leaves out, but "
                            + ("--fixed-hits rolls no dice" if attack.fixed_hits is not None else
                               "--atk-dice-minus is 0"), "omit --drop, or give --atk-dice-minus (8.2.3)")
    if attack.atk_dice_minus and attack.fixed_hits is None and len(colours) > 1 and \
            len(attack.drop) != min(attack.atk_dice_minus, sum(merged.values())):
        raise ScenarioError("--drop", f"say which {attack.atk_dice_minus} of the {'/'.join(colours)} dice the "
                            "attacker leaves out (8.2.3 -X ATK Dice)",
                            f"{plural(attack.atk_dice_minus, 'colour')} from {join_words(colours)}")
    for c in attack.drop:
        if c not in colours:
            raise ScenarioError("--drop", f"{c[:20]!r} is not a colour of this pool", colours)


def eval_frac(x) -> float:
    """A probability from :func:`.odds.summary` (float or ``"n/d"``) as a float."""
    from fractions import Fraction

    return float(Fraction(x)) if isinstance(x, str) else float(x)


def cli_app() -> click.Group:
    """The Galaxy Defenders verbs."""
    return click.Group("galaxydefenders", commands=[odds],
                       help="Galaxy Defenders: Operation Strikeback: exact combat odds (more under `explorer "
                            "resolve`).")
