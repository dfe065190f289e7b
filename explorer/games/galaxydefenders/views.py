"""The combat explorer: a widget page for Galaxy Defenders: Operation Strikeback attacks.

Sections shown (all resolved by :mod:`.combat`, odds by :mod:`.odds`): 9.2 / 11.12 Combat (Hit roll), 11.7 Multiple
Energy Shielded Armor, 8.1 Lethal, Storybook 5.5.1 High Impact ("-X Def Dice", at most 5 Blue dice), 8.2 Critical,
8.3 Mark Locking System, 9.3.2 Poisoned, 9.3.1 Health Points / 10.4 NPC Health Status.

The page is a scenario editor: every input becomes one ``kind = "combat"`` scenario dict (one attack, one target)
that goes through :func:`~.combat.parse_combat` and :func:`~.combat.resolve_combat` (the same resolver as files and
the CLI); the exact odds come from :func:`~.odds.attack_odds` over the same parsed attack and target. The dice
tray has one dropdown per die: ``roll`` leaves the die to the seed, a face sets it by hand. The dice faces are a
CALIBRATION (the rulebook prints none; see :mod:`.calibration`): the page says so in a banner and lets the user edit
the faces. Bad input is shown beside its field and the typed text is kept.

``combat_page() -> (widget, redraw)`` is what the Panel app serves; ``combat_open(name) -> (widget, redraw)`` opens
it on a built-in ``combat`` scenario (``/galaxydefenders-combat?scenario=<id>``, :meth:`CombatExplorer.open_scenario`):
the inputs show the scenario's first attack and its target, the dice the scenario fixes are set by hand in the tray,
the others are rolled from the scenario's seed by the resolver, and what the page has no field for (other attacks
and targets, Area Damage, Burrowing, the Menace token, a Close Encounter card, Critical draws) is kept as the file
sets it. The outcome shown is then ``explorer resolve <id>``'s.
"""

from __future__ import annotations

import copy
import html
from collections.abc import Callable

import ipywidgets as W

from explorer.widgets.icons import accordion

from explorer.dice import Dice
from explorer.errors import ExplorerError, ScenarioError, short_repr
from explorer.games import Game, get_game
from explorer.text import plural
from explorer.trace import Trace
from explorer.widgets.picker_url import keep_fields_in_url
from explorer.widgets.roll_again import roll_again_note
from explorer.widgets.scenario_note import ScenarioNote
from explorer.widgets import Distribution, OddsChart, Outcome, TraceStepper

from .calibration import Calibration, default_calibration
from .combat import TargetState, dice_pool, parse_combat, resolve_combat, scenario_calibration, wound_tally
from .odds import attack_odds
from .options import ALL_OPTIONS

ROLL = "?"
"""A die left to the seed (the dropdown's ``roll`` entry)."""
MAX_BLUE = 40
"""Blue faces rolled ahead from the seed (more than any Defend roll can use: 12 dice x 3 hits + 10 bonus hits)."""

KINDS = ("agent", "alien", "master_alien", "npc", "drone")
TRIGGERS = (("always", "always"), ("on a Bolt", "bolt"), ("target marked", "target_marked"))

BANNER = ("<div class='gd-banner' style='font-family:sans-serif;font-size:13px;background:#fff3bf;"
          "border:1px solid #f08c00;border-radius:6px;padding:6px 10px;margin:4px 0'>"
          "<b>Dice faces are a calibration, not the printed dice.</b> This rulebook prints no die faces and no "
          "Critical token piles (they are Core Set components), so the faces below are an editable placeholder "
          "(<code>data/calibration.toml</code>). Enter your own dice under <i>Dice faces (calibration)</i> before "
          "trusting any odds.</div>")


def parse_int(text: str, field: str, lo: int, hi: int, blank: int | None = 0) -> int | None:
    """A whole number typed in a field, ``lo..hi``; a blank field gives ``blank``.

    Raises:
        ScenarioError: not a whole number, or out of bounds (names ``field`` and the bounds).
    """
    t = str(text).strip()
    if not t:
        if blank is None:
            raise ScenarioError(field, "is required", f"a whole number {lo} to {hi}", "widget")
        return blank
    try:
        v = int(t)
    except ValueError:
        raise ScenarioError(field, f"{t!r} is not a whole number", f"{lo} to {hi}", "widget") from None
    if not lo <= v <= hi:
        raise ScenarioError(field, f"{v} is out of bounds", f"{lo} to {hi}", "widget")
    return v


def parse_stacks(text: str, field: str = "Energy Shields") -> list[int]:
    """Energy Shield stacks typed Left first (``"2, 1"``): shields remaining per stack (11.7); blank = none.

    Raises:
        ScenarioError: a word that is not a number 0..10, or more than 3 stacks.
    """
    parts = [p for p in str(text).replace(",", " ").split() if p]
    if len(parts) > 3:
        raise ScenarioError(field, f"{len(parts)} stacks", "at most 3 Energy Shield icons", "widget")
    from .combat import MAX_SHIELDS

    return [parse_int(p, f"{field}[{i + 1}]", 0, MAX_SHIELDS)  # type: ignore[misc]
            for i, p in enumerate(parts)]


def parse_faces(text: str) -> list[str]:
    """A die's faces typed as a comma-separated list (``"hit, hit+bolt, blank"``), passed on to the calibration."""
    return [p.strip() for p in str(text).split(",") if p.strip()]


def _err(e: Exception) -> str:
    return f"<span class='gd-err' style='color:#c92a2a;font-family:sans-serif;font-size:12px'>{html.escape(str(e))}" \
           f"</span>"


class CombatExplorer(W.VBox):
    """The combat page (see the module docstring). ``update()`` re-reads every input, resolves and redraws; it never
    raises (errors go beside their field). ``trace`` is the last resolution, ``odds`` the last exact distribution
    (a :class:`~explorer.distributions.Dist` over :data:`.odds.Outcome`), both ``None`` before a valid input."""

    def __init__(self, seed: int = 1):
        self.trace: Trace | None = None
        self.odds = None
        self.hand: dict[tuple[str, int], str] = {}
        """Faces set by hand: ``{(colour or "defend", index): face label}``."""
        self._busy = False
        self._pool: dict[str, int] = {}
        self._blue = 0
        self._cal: Calibration = default_calibration()
        self.msgs: dict[str, W.HTML] = {}
        self.opened: str | None = None
        """The built-in scenario the page was opened on (:meth:`open_scenario`), or ``None``."""
        self._base: dict | None = None
        self._base_seed_text = ""
        self._shown: dict[str, list[str]] = {}
        self._shown_blue: list[str] = []
        self.outcome = ScenarioNote()

        def text(key, desc, value, width="190px", dw="110px", **kw):
            w = W.Text(value=str(value), description=desc, continuous_update=False,
                       layout=W.Layout(width=width), style={"description_width": dw}, **kw)
            self.msgs[key] = W.HTML()
            return w

        # attacker
        self.attacker_kind = W.Dropdown(options=KINDS, value="alien", description="Attacker",
                                        layout=W.Layout(width="220px"), style={"description_width": "110px"})
        cal = self._cal
        self.dice = {c: text(f"dice.{c}", f"{c.capitalize()} dice", 5 if c == "red" else 0)
                     for c in cal.dice if c != cal.defend_die}
        """Hit dice per colour: every calibrated colour but the Defend die's (Blue)."""
        self.fixed_hits = text("fixed_hits", "Fixed hits", "", placeholder="dice")
        self.bonus_hits = text("bonus_hits", "Bonus hits", 0)
        self.lethal = W.Checkbox(value=False, description="Lethal (8.1)", indent=False, layout=W.Layout(width="130px"))
        self.def_minus = text("def_minus", "-X Def Dice", 0)
        self.critical = W.Dropdown(options=[("none", 0), ("Critical 1", 1), ("Critical 2", 2)], value=1,
                                   description="Critical pile", layout=W.Layout(width="220px"),
                                   style={"description_width": "110px"})
        self.critical_trigger = W.Dropdown(options=TRIGGERS, value="always", layout=W.Layout(width="140px"))
        self.mark = W.Dropdown(options=[("none", 0), ("Mark 1", 1), ("Mark 2", 2)], value=0, description="Mark effect",
                               layout=W.Layout(width="220px"), style={"description_width": "110px"})
        self.mark_trigger = W.Dropdown(options=TRIGGERS, value="bolt", layout=W.Layout(width="140px"))
        self.poison = W.Dropdown(options=[("none", 0), ("Poison 1", 1), ("Poison 2", 2)], value=0,
                                 description="Poison effect", layout=W.Layout(width="220px"),
                                 style={"description_width": "110px"})
        self.poison_trigger = W.Dropdown(options=TRIGGERS, value="always", layout=W.Layout(width="140px"))
        # target
        self.target_kind = W.Dropdown(options=KINDS, value="agent", description="Target",
                                      layout=W.Layout(width="220px"), style={"description_width": "110px"})
        self.health = text("health", "Health", 5)
        self.wounds = text("wounds", "Wounds taken", 0)
        self.stacks = text("stacks", "Energy Shields", "", width="260px", placeholder="stacks, Left first: 2, 1")
        self.standard = text("standard", "Shield results", 0, tooltip="shield results from powers such as No Pain")
        self.cancel = text("cancel", "Hits cancelled", 0, tooltip="hits cancelled by items and powers")
        self.held_def = text("held_def", "Def Dice Critical", 0, dw="120px",
                             tooltip="a -X Def Dice Critical token already on the target")
        self.target_mark = W.Dropdown(options=[0, 1, 2], value=0, description="Mark token",
                                      layout=W.Layout(width="170px"), style={"description_width": "110px"})
        self.high_impact = W.Checkbox(value=True, description="High Impact (Storybook 5.5.1)", indent=False,
                                      layout=W.Layout(width="230px"))
        # dice and seed
        self.seed = text("seed", "Seed", seed, width="170px", dw="50px")
        self.roll_button = W.Button(description="Roll again", tooltip="next seed; hand-set faces kept")
        self.clear_button = W.Button(description="Clear hand-set faces")
        self.hit_tray = W.HBox(layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.blue_tray = W.HBox(layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.tray_msg = W.HTML()
        # calibration
        self.faces = {c: W.Text(value=", ".join(f.label for f in d.faces), description=c,
                                continuous_update=False, layout=W.Layout(width="560px"))
                      for c, d in cal.dice.items()}
        for c in cal.dice:
            self.msgs[f"calibration.{c}"] = W.HTML()
        self.rulings_box = {o.key: W.Dropdown(options=list(o.readings), value=o.default, description=o.key,
                                              style={"description_width": "190px"}, layout=W.Layout(width="430px"),
                                              tooltip=o.title)
                            for o in ALL_OPTIONS}
        self.message = W.HTML()
        self.headline = W.HTML()
        self.chart = OddsChart(width=760, height=300)
        self.stepper = TraceStepper()

        for w in (self.attacker_kind, *self.dice.values(), self.fixed_hits, self.bonus_hits, self.lethal,
                  self.def_minus, self.critical, self.critical_trigger, self.mark, self.mark_trigger, self.poison,
                  self.poison_trigger, self.target_kind, self.health, self.wounds, self.stacks, self.standard,
                  self.cancel, self.held_def, self.target_mark, self.high_impact, self.seed, *self.faces.values(),
                  *self.rulings_box.values()):
            w.observe(self._changed, names="value")
        self.roll_button.on_click(self._roll_again)
        self.clear_button.on_click(self._clear_hand)

        def row(*ws):
            return W.HBox(list(ws), layout=W.Layout(align_items="center", flex_flow="row wrap"))

        def field(w, key):
            return W.HBox([w, self.msgs[key]], layout=W.Layout(align_items="center"))

        m = self.msgs
        attacker = W.VBox([
            W.HTML("<b style='font-family:sans-serif'>Attack</b>"),
            row(self.attacker_kind),
            *[field(w, f"dice.{c}") for c, w in self.dice.items()],
            field(self.fixed_hits, "fixed_hits"), field(self.bonus_hits, "bonus_hits"),
            row(self.lethal), field(self.def_minus, "def_minus"),
            row(self.critical, self.critical_trigger), row(self.mark, self.mark_trigger),
            row(self.poison, self.poison_trigger),
        ], layout=W.Layout(min_width="380px", margin="0 24px 0 0"))
        target = W.VBox([
            W.HTML("<b style='font-family:sans-serif'>Target</b>"),
            row(self.target_kind), field(self.health, "health"), field(self.wounds, "wounds"),
            field(self.stacks, "stacks"), field(self.standard, "standard"), field(self.cancel, "cancel"),
            field(self.held_def, "held_def"), row(self.target_mark), row(self.high_impact),
        ], layout=W.Layout(min_width="380px"))
        tray = W.VBox([
            W.HTML("<b style='font-family:sans-serif'>Dice tray</b> <span style='font-family:sans-serif;"
                   "font-size:12px;color:#495057'>each die: <i>roll</i> (from the seed) or a face set by hand</span>"),
            row(self.seed, m["seed"], self.roll_button, self.clear_button),
            row(W.HTML("<span style='font-family:sans-serif;font-size:13px;width:90px'>Hit roll</span>"),
                self.hit_tray),
            row(W.HTML("<span style='font-family:sans-serif;font-size:13px;width:90px'>Defend roll</span>"),
                self.blue_tray),
            self.tray_msg,
        ])
        calib = W.VBox([W.HTML("<span style='font-family:sans-serif;font-size:12px'>One entry per side, symbols "
                               "joined with + (hit, shield, bolt, jam, ammo, wings, blank). The Defend roll uses "
                               f"the {html.escape(cal.defend_die)} die's shield symbols.</span>")]
                       + [W.HBox([w, m[f"calibration.{c}"]]) for c, w in self.faces.items()])
        extras = accordion([calib, W.VBox(list(self.rulings_box.values()))],
                             titles=("Dice faces (calibration)", "Ruling options"))
        # the opened scenario's note at the top, as on every other scenario page (it was below the fold, y~830)
        super().__init__([W.HTML(BANNER), self.outcome,
                          W.HBox([attacker, target], layout=W.Layout(flex_flow="row wrap")),
                          tray, extras, self.message, self.headline, self.chart, self.stepper])
        self.add_class("gd-combat")
        self.update()
        # every input, the hand-set dice too, in the page's link (explorer.widgets.picker_url)
        keep_fields_in_url(self, {
            "attacker": self.attacker_kind, **{f"dice.{c}": w for c, w in self.dice.items()},
            "fixed_hits": self.fixed_hits, "bonus_hits": self.bonus_hits, "lethal": self.lethal,
            "def_minus": self.def_minus, "critical": self.critical, "critical_trigger": self.critical_trigger,
            "mark": self.mark, "mark_trigger": self.mark_trigger, "poison": self.poison,
            "poison_trigger": self.poison_trigger, "target": self.target_kind, "health": self.health,
            "wounds": self.wounds, "stacks": self.stacks, "standard": self.standard, "cancel": self.cancel,
            "held_def": self.held_def, "target_mark": self.target_mark, "high_impact": self.high_impact,
            "seed": self.seed, **{f"calibration.{c}": w for c, w in self.faces.items()},
            **{f"rulings.{k}": w for k, w in self.rulings_box.items()}},
            extra={"hand": (self._hand_list, self._set_hand_list)})

    def _hand_list(self) -> list[list]:
        """The hand-set faces as ``[[colour or "defend", index, face label], ...]`` (the link's ``hand``)."""
        return [[c, i, f] for (c, i), f in sorted(self.hand.items())]

    def _set_hand_list(self, value: object) -> None:
        """Set the hand-set faces from a link's ``hand`` (see :meth:`_hand_list`).

        Raises:
            ScenarioError: not a list of at most 64 ``[colour, index 0..39, face label]`` entries.
        """
        colours = [*self.dice, "defend"]
        ok = isinstance(value, list) and len(value) <= 64 and all(
            isinstance(e, list) and len(e) == 3 and e[0] in colours and isinstance(e[1], int)
            and not isinstance(e[1], bool) and 0 <= e[1] < 40 and isinstance(e[2], str) and len(e[2]) <= 40
            for e in value)
        if not ok:
            raise ScenarioError("hand", f"{short_repr(value)} is not a list of hand-set dice",
                                f"[colour, index, face] entries, colour one of {', '.join(colours)}", "link")
        self.hand = {(c, i): f for c, i, f in value}

    # -- opening a scenario ---------------------------------------------------------------------------------
    def open_scenario(self, data: dict, name: str) -> None:
        """Set the inputs from a ``kind = "combat"`` scenario document (``data``, TOML parsed; ``name`` its id)
        and resolve it: the first attack and its target fill the fields, the dice the file fixes for that attack are
        set by hand in the tray, and everything the page has no field for is kept as the file sets it.

        Raises:
            ScenarioError: the document is not a valid combat scenario (:func:`~.combat.parse_combat`).
        """
        sc = parse_combat(data, name)
        base = copy.deepcopy(dict(data))
        a0 = sc.attacks[0]
        t0 = next(t for t in sc.targets if t.name == a0.target) if any(t.name == a0.target for t in sc.targets) \
            else sc.targets[0]
        handled, _extra = _split_effects([e.model_dump() for e in a0.effects])
        by_kind = {e["kind"]: e for e in handled}
        held = next((c.x for c in t0.criticals if c.effect == "def_dice_minus"), 0)
        hand: dict[tuple[str, int], str] = {}
        if a0.rolled is not None:
            for colour, faces in a0.rolled.hit.items():
                hand.update({(colour, i): f for i, f in enumerate(faces)})
            hand.update({("defend", i): f for i, f in enumerate(a0.rolled.defend.get(t0.name, []))})
        self._busy = True
        try:
            self.attacker_kind.value = a0.attacker_kind
            for c, w in self.dice.items():
                w.value = str(a0.dice.get(c, 0))
            self.fixed_hits.value = "" if a0.fixed_hits is None else str(a0.fixed_hits)
            self.bonus_hits.value = str(a0.bonus_hits)
            self.lethal.value = "lethal" in by_kind
            self.def_minus.value = str(by_kind["def_dice_minus"]["x"] if "def_dice_minus" in by_kind else 0)
            for kind, lvl, trig in (("critical", self.critical, self.critical_trigger),
                                    ("mark", self.mark, self.mark_trigger),
                                    ("poison", self.poison, self.poison_trigger)):
                e = by_kind.get(kind)
                lvl.value = e["x"] if e else 0
                if e:
                    trig.value = e["trigger"]
            self.target_kind.value = t0.kind
            self.health.value = str(t0.health)
            self.wounds.value = str(t0.wounds)
            self.stacks.value = ", ".join(str(n) for n in t0.energy_shields)
            self.standard.value = str(t0.standard_shields)
            self.cancel.value = str(t0.cancel_hits)
            self.held_def.value = str(held)
            self.target_mark.value = t0.mark
            self.high_impact.value = sc.high_impact
            self._base_seed_text = self.seed.value = str(sc.seed if sc.seed is not None else 0)
            for k, w in self.rulings_box.items():
                w.value = sc.rulings.get(k, w.value)
        finally:
            self._busy = False
        self.opened, self._base, self.hand = name, base, hand
        self._shown, self._shown_blue = {}, []
        self.outcome.show(None)     # its next show records the inputs as opened
        self.update()

    def _target_name(self) -> str:
        return str(self._base["attacks"][0]["target"]) if self._base is not None else "Target"

    def _merge_base(self, data: dict) -> dict:
        """The opened scenario with its first attack and that attack's target replaced by the page's inputs."""
        base = copy.deepcopy(self._base)
        assert base is not None
        a0 = base["attacks"][0]
        name = str(a0["target"])
        mine_a, mine_t = data["attacks"][0], data["targets"][0]
        order = [e.get("kind") for e in a0.get("effects", [])]
        _handled, extra = _split_effects([dict(e) for e in a0.get("effects", [])])
        effects = mine_a["effects"] + extra
        effects.sort(key=lambda e: order.index(e["kind"]) if e["kind"] in order else len(order))
        for k in ("dice", "fixed_hits", "rolled"):
            a0.pop(k, None)
        a0.update({k: v for k, v in mine_a.items() if k not in ("attacker", "weapon", "target")})
        a0["effects"] = effects
        for t in base["targets"]:
            if t["name"] == name:
                held = [c for c in t.get("criticals", []) if c.get("effect") != "def_dice_minus"]
                t.update({k: v for k, v in mine_t.items() if k not in ("name", "criticals")})
                t["criticals"] = held + mine_t.get("criticals", [])
                break
        seed = data["seed"]
        if self.seed.value.strip() == self._base_seed_text and self._base.get("seed") is not None:
            seed = self._base["seed"]      # a file without a seed: dice it does not fix roll from the seed shown
        base.update({"seed": seed, "high_impact": data["high_impact"], "calibration": data["calibration"],
                     "rulings": {**base.get("rulings", {}), **data["rulings"]}})
        return base

    # -- input ----------------------------------------------------------------------------------------------
    def _changed(self, _change=None) -> None:
        if not self._busy:
            self.tray_msg.value = ""
            self.update()

    def _roll_again(self, _=None) -> None:
        """Next seed; the dice set by hand keep their faces, and :attr:`tray_msg` says so (with every die set by hand
        a new seed rolls nothing: the message says why the tray did not change)."""
        try:
            s = int(self.seed.value)
        except ValueError:
            s = 0
        self.seed.value = str(s + 1)
        self.tray_msg.value = roll_again_note(s + 1, len(self._tray_keys()), len(self._hand_in_tray()),
                                              "set a die to 'roll' or press Clear hand-set faces")

    def _tray_keys(self) -> list[tuple[str, int]]:
        """Every die on the tray: ``(colour, index)`` of the hit dice, ``("defend", index)`` of the Blue dice."""
        return [(c, i) for c, n in self._pool.items() for i in range(n)] + [("defend", i) for i in range(self._blue)]

    def _hand_in_tray(self) -> list[tuple[str, int]]:
        """The tray's dice whose face is set by hand."""
        return [k for k in self._tray_keys() if k in self.hand]

    def _clear_hand(self, _=None) -> None:
        self.hand = {}
        self.update()

    def _set_die(self, key: tuple[str, int], change) -> None:
        if self._busy:
            return
        if change["new"] == ROLL:
            self.hand.pop(key, None)
        else:
            self.hand[key] = change["new"]
        self.update()

    def _calibration(self) -> dict | None:
        data: dict = {"dice": {}}
        for c, w in self.faces.items():
            faces = parse_faces(w.value)
            data["dice"][c] = {"sides": max(2, min(len(faces), 20)), "faces": faces}
        return data

    def _data(self) -> dict | None:
        """The scenario dict from the inputs, or ``None`` (messages placed) when a field is bad."""
        for m in self.msgs.values():
            m.value = ""
        ok = True

        def get(key, w, lo, hi, blank=0):
            nonlocal ok
            try:
                return parse_int(w.value, w.description or key, lo, hi, blank)
            except ScenarioError as e:
                self.msgs[key].value = _err(e)
                ok = False
                return blank

        dice = {c: get(f"dice.{c}", w, 0, 12) for c, w in self.dice.items()}
        fixed = get("fixed_hits", self.fixed_hits, 0, 20, None) if self.fixed_hits.value.strip() else None
        bonus = get("bonus_hits", self.bonus_hits, 0, 10)
        minus = get("def_minus", self.def_minus, 0, 5)
        health = get("health", self.health, 1, 40, None)
        wounds = get("wounds", self.wounds, 0, 40)
        standard = get("standard", self.standard, 0, 5)
        cancel = get("cancel", self.cancel, 0, 10)
        held = get("held_def", self.held_def, 0, 5)
        seed = get("seed", self.seed, 0, 2 ** 63 - 1)
        try:
            stacks = parse_stacks(self.stacks.value)
        except ScenarioError as e:
            self.msgs["stacks"].value = _err(e)
            ok, stacks = False, []
        if not ok:
            return None
        effects = []
        if self.lethal.value:
            effects.append({"kind": "lethal", "trigger": "always"})
        if minus:
            effects.append({"kind": "def_dice_minus", "x": minus, "trigger": "always"})
        for kind, lvl, trig in (("critical", self.critical, self.critical_trigger), ("mark", self.mark,
                                self.mark_trigger), ("poison", self.poison, self.poison_trigger)):
            if lvl.value:
                effects.append({"kind": kind, "x": lvl.value, "trigger": trig.value})
        target = {"name": "Target", "kind": self.target_kind.value, "health": health, "wounds": wounds,
                  "energy_shields": stacks, "standard_shields": standard, "cancel_hits": cancel,
                  "mark": self.target_mark.value}
        if held:
            target["criticals"] = [{"effect": "def_dice_minus", "x": held}]
        attack = {"attacker": "Attacker", "attacker_kind": self.attacker_kind.value, "weapon": "Weapon",
                  "target": "Target", "effects": effects, "bonus_hits": bonus}
        if fixed is not None:
            attack["fixed_hits"] = fixed
        else:
            attack["dice"] = {c: n for c, n in dice.items() if n}
        data = {"game": "galaxydefenders", "kind": "combat", "title": "Combat", "seed": seed,
                "high_impact": self.high_impact.value, "calibration": self._calibration(),
                "rulings": {k: w.value for k, w in self.rulings_box.items()},
                "targets": [target], "attacks": [attack]}
        return self._merge_base(data) if self._base is not None else data

    def _rolled(self, sc, seed: int) -> dict:
        """Complete ``rolled`` faces: the seed's faces with the hand-set ones put in their place."""
        cal = scenario_calibration(sc)
        roller = Dice(seed=seed)
        hit: dict[str, list[str]] = {}
        for colour, n in dice_pool(sc.attacks[0]).items():
            die = cal.die(colour)
            rolled = [die.faces[roller.roll(die.sides) - 1].label for _ in range(n)]
            hit[colour] = [self.hand.get((colour, i), f) for i, f in enumerate(rolled)]
        die = cal.defend
        blue = [die.faces[roller.roll(die.sides) - 1].label for _ in range(MAX_BLUE)]
        blue = [self.hand.get(("defend", i), f) for i, f in enumerate(blue)]
        return {"hit": hit, "defend": {"Target": blue}}

    def _rolled_scenario(self, sc, seed: int | None) -> dict:
        """The first attack's ``rolled`` table on an opened scenario: the file's Critical draws and other targets'
        Defend faces, and complete lists for each colour (and the target's Blue dice) with a face set by hand (the
        other dice of that list keep the faces shown, or are rolled from the seed); dice with no face set by hand
        are left to the resolver's seed, as ``explorer resolve`` leaves them."""
        cal = scenario_calibration(sc)
        roller = Dice(seed=seed)
        given = copy.deepcopy((self._base or {})["attacks"][0].get("rolled") or {})
        name = self._target_name()
        out: dict = {"hit": {}, "defend": {k: v for k, v in given.get("defend", {}).items() if k != name},
                     "critical": given.get("critical", {})}
        for colour, n in dice_pool(sc.attacks[0]).items():
            if any((colour, i) in self.hand for i in range(n)):
                die, shown = cal.die(colour), self._shown.get(colour, [])
                out["hit"][colour] = [self.hand.get((colour, i)) or (shown[i] if i < len(shown) else
                                      die.faces[roller.roll(die.sides) - 1].label) for i in range(n)]
        if any(k[0] == "defend" for k in self.hand):
            die = cal.defend
            out["defend"][name] = [self.hand.get(("defend", i)) or (
                self._shown_blue[i] if i < len(self._shown_blue) else die.faces[roller.roll(die.sides) - 1].label)
                for i in range(MAX_BLUE)]
        return out

    # -- output ---------------------------------------------------------------------------------------------
    def _place_error(self, e: ExplorerError) -> None:
        """Show ``e`` beside the field it is about, else above the results."""
        f = getattr(e, "field", "") or ""
        where = None
        if f.startswith("calibration.dice."):
            where = f"calibration.{f.split('.')[2]}"
        elif f.startswith("attacks[0].dice.") or f.startswith("attacks[0].rolled"):
            where = None if "rolled" in f else f"dice.{f.split('.')[2]}"
        elif f.startswith("targets[0].energy_shields"):
            where = "stacks"
        if where in self.msgs:
            self.msgs[where].value = _err(e)
        else:
            self.message.value = _err(e)

    def update(self) -> None:
        """Re-read every input, resolve, redraw the dice tray, the steps and the odds. Never raises."""
        self.message.value = ""
        data = self._data()
        if data is None:
            return
        try:
            sc = parse_combat(data, "widget")
            self._cal = scenario_calibration(sc)
            pool = dice_pool(sc.attacks[0])
            self.hand = {k: v for k, v in self.hand.items()
                         if k[0] == "defend" or (k[0] in pool and k[1] < pool[k[0]])}
            if self._base is None:
                sc = sc.model_copy(update={"attacks": [sc.attacks[0].model_copy(
                    update={"rolled": parse_combat({**data, "attacks": [{**data["attacks"][0],
                                                                          "rolled": self._rolled(sc, data["seed"])}]},
                                                   "widget").attacks[0].rolled})]})
            else:
                rolled = self._rolled_scenario(sc, data["seed"])
                sc = parse_combat({**data, "attacks": [{**data["attacks"][0], "rolled": rolled},
                                                       *data["attacks"][1:]]}, self.opened or "widget")
            sc._blue_tray = True    # the tray's Blue faces: the Defend roll takes the first it rolls
            trace = resolve_combat(sc)
            name = self._target_name()
            target = next((t for t in sc.targets if t.name == name), sc.targets[0])
            odds = attack_odds(TargetState.from_model(target), sc.attacks[0], self._cal, sc.high_impact,
                               sc.rulings)
        except ExplorerError as e:
            self._place_error(e)
            return
        self.trace, self.odds = trace, odds
        res = trace.result.attacks[0].results
        self._pool = pool
        self._blue = res[0].blue_dice if res else 0
        self._draw_tray(trace)
        self.stepper.show(trace)
        self._draw_headline(trace, sc)
        self._draw_odds(sc)
        if self.opened is None:
            self.outcome.show(None)
        else:
            # the page's inputs and picked faces: the note says when they are no longer the scenario's as opened
            state = repr((sorted(data.items(), key=str), sorted(self.hand.items(), key=str)))
            self.outcome.show(self.opened, str(data.get("title", "")), _game().outcome_text(trace), state=state, live=True)

    def _die_dropdown(self, key: tuple[str, int], colour: str, shown: str) -> W.Dropdown:
        die = self._cal.die(colour)
        labels = list(dict.fromkeys(f.label for f in die.faces))
        hand = self.hand.get(key)
        dd = W.Dropdown(options=[(f"roll: {shown}", ROLL)] + [(f"= {lbl}", lbl) for lbl in labels],
                        value=hand if hand in labels else ROLL, layout=W.Layout(width="132px"),
                        tooltip=f"{colour} die {key[1] + 1}")
        colour_css = {"red": "#ffe3e3", "yellow": "#fff9db", "blue": "#e7f5ff"}.get(colour, "#f1f3f5")
        dd.add_class(f"gd-die-{colour}")
        dd.layout.border = f"2px solid {'#1c7ed6' if hand else colour_css}"
        dd.observe(lambda ch, key=key: self._set_die(key, ch), names="value")
        return dd

    def _draw_tray(self, trace: Trace) -> None:
        roll = trace.result.attacks[0].roll
        faces = list(roll.faces) if roll is not None else []
        per_colour: dict[str, int] = {}
        hit = []
        for colour, label in faces:
            i = per_colour.get(colour, 0)
            per_colour[colour] = i + 1
            hit.append(W.VBox([W.HTML(f"<span style='font-family:sans-serif;font-size:11px'>{colour} {i + 1}</span>"),
                               self._die_dropdown((colour, i), colour, label)]))
        blue_faces = self._blue_faces(trace)
        shown: dict[str, list[str]] = {}
        for colour, label in faces:
            shown.setdefault(colour, []).append(label)
        self._shown, self._shown_blue = shown, list(blue_faces)
        blue = [W.VBox([W.HTML(f"<span style='font-family:sans-serif;font-size:11px'>Blue {i + 1}</span>"),
                        self._die_dropdown(("defend", i), self._cal.defend_die, lbl)])
                for i, lbl in enumerate(blue_faces)]
        self._busy = True
        try:
            self.hit_tray.children = hit or [W.HTML("<i style='font-family:sans-serif;font-size:12px'>fixed hits: no "
                                                    "dice</i>")]
            self.blue_tray.children = blue or [W.HTML("<i style='font-family:sans-serif;font-size:12px'>no Blue "
                                                      "dice rolled</i>")]
        finally:
            self._busy = False

    def _blue_faces(self, trace: Trace) -> list[str]:
        """The Blue faces of the first attack's first Defend roll (its typed result)."""
        res = trace.result.attacks[0].results
        return next((list(x.faces) for x in res if x.faces), [])

    def _draw_headline(self, trace: Trace, sc) -> None:
        a = trace.result.attacks[0]
        name = self._target_name()
        t0 = next((t for t in sc.targets if t.name == name), sc.targets[0])
        after = trace.result.target(t0.name)
        if a.roll is None:
            self.headline.value = "<div style='font-family:sans-serif'>No target could be attacked.</div>"
            return
        r = a.results[0]
        stacks_before = " ".join(f"<span class='gd-stack'>{'◆' * n or '·'}</span>" for n in t0.energy_shields)
        stacks_after = " ".join(f"<span class='gd-stack'>{'◆' * n or '·'}</span>" for n in after.stacks)
        shields = (f" Energy Shields {stacks_before} → {stacks_after}." if t0.energy_shields else "")
        crit = f", Critical token <b>{html.escape(r.critical)}</b>" if r.critical else ""
        self.headline.value = (
            "<div class='gd-headline' style='font-family:sans-serif;font-size:14px;margin:6px 0'>"
            f"This roll: <b>{plural(a.roll.hits, 'hit')}</b>, {r.absorbed} absorbed by Energy Shields, "
            f"{r.cancelled_by_items} cancelled by items, {plural(r.blue_dice, 'Blue die', 'Blue dice')} "
            f"({r.cancelled_by_dice} cancelled) → <b>{plural(r.wounds, 'wound')}</b>{crit}; target "
            f"{html.escape(r.status)} "
            f"({wound_tally(after.wounds, after.max_health, 'wounds')}).{shields}</div>")

    def _draw_odds(self, sc) -> None:
        d = self.odds
        wounds: dict[int, float] = {}
        down = crit = 0.0
        for o, p in d.items():
            wounds[o[1]] = wounds.get(o[1], 0.0) + float(p)
            if o[2] != "alive":
                down += float(p)
            if o[3]:
                crit += float(p)
        n = max(wounds) if wounds else 0
        probs = [wounds.get(k, 0.0) for k in range(n + 1)]
        name = self._target_name()
        t0 = next((t for t in sc.targets if t.name == name), sc.targets[0])
        word = "bleeding (agent down)" if t0.kind == "agent" else "killed"
        mean = sum(k * p for k, p in wounds.items())
        self.chart.show([Outcome(word, down, "#c92a2a"), Outcome("survives", 1 - down, "#ced4da")],
                        [Distribution("Wounds dealt by this attack", probs, "#e8590c", "wounds"),
                         Distribution("Critical token drawn", [1 - crit, crit], "#7048e8", "0 = none, 1 = drawn")],
                        f"Exact odds of this attack (every face of every die): expected wounds {mean:.2f}")

    def redraw(self) -> None:
        """Full redraw (call when a browser connects, e.g. ``pn.state.onload``)."""
        self.chart.redraw()


def _split_effects(effects: list[dict]) -> tuple[list[dict], list[dict]]:
    """``(handled, extra)``: the effects the page has a field for (one Lethal and one -X Def Dice triggered
    always, one Critical, Mark and Poison of level 1 or 2) and the others, kept as the scenario sets them."""
    handled: list[dict] = []
    extra: list[dict] = []
    seen: set[str] = set()
    for e in effects:
        kind, trig, x = e.get("kind"), e.get("trigger", "always"), e.get("x", 1)
        ok = (kind == "lethal" and trig == "always") or (kind == "def_dice_minus" and trig == "always" and x >= 1) \
            or (kind in ("critical", "mark", "poison") and x in (1, 2) and trig in {t for _, t in TRIGGERS})
        if ok and kind not in seen:
            seen.add(kind)
            handled.append({"kind": kind, "x": x, "trigger": trig})
        else:
            extra.append(e)
    return handled, extra


def _game(game: Game | None = None) -> Game:
    """The game of this page: the one the app passes in (:attr:`explorer.games.Page.build`), else the registry's (a
    widget module never imports its game module: docs/design.md, "Layers")."""
    return game if game is not None else get_game("galaxydefenders")


def combat_page(game: Game | None = None) -> tuple[CombatExplorer, Callable[[], None]]:
    """The combat explorer on the page's default scenario (the registry's rule, :attr:`explorer.games.Page.default`):
    ``(widget, redraw)``; call ``redraw`` on ``pn.state.onload``."""
    game = _game(game)
    return combat_open(game.page_default("combat"), game=game)


def combat_open(name: str, game: Game | None = None) -> tuple[CombatExplorer, Callable[[], None]]:
    """The combat explorer opened on built-in ``combat`` scenario ``name`` (:meth:`CombatExplorer.open_scenario`):
    ``(widget, redraw)``.

    Raises:
        ScenarioError: ``name`` is not a built-in Galaxy Defenders scenario, or not a valid combat scenario.
    """
    from explorer.scenario import read_toml

    w = CombatExplorer()
    w.open_scenario(read_toml(name, text=_game(game).scenario_text(name)), name)
    return w, w.redraw
