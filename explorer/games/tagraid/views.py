"""The TAG Raid Face to Face explorer: a composite ipywidget (inputs, dice tray, exact odds, cited trace).

``FaceToFaceExplorer()`` works in JupyterLab and, unchanged, inside the Panel app (:mod:`explorer.app`). Every
input is validated in place: a bad value shows a message naming the field and what is allowed, keeps what the user
typed, and leaves the last good drawing on screen; nothing raises into the notebook.

Sections used: Rolls (Successful Roll, MODs, Criticals, Normal Roll, Face to Face Rolls), Damage (Partial Cover,
Saving Roll), Skills and Tools (Ammunition, Traits), Death, MegaBeast (Wounds, Threat Level).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as W

from explorer.dice import SeededRoller
from explorer.errors import ExplorerError, ScenarioError
from explorer.widgets import DiceTray, DieView, Distribution, Link, OddsChart, Outcome, Row, TraceStepper, percent

from .exchange import (AMMUNITION, ATTACKS, SKILL_NAMES, SKILLS_ACTIVE, SKILLS_REACTIVE, Exchange, MegaBeastInputs,
                       SideInputs, damage_against, resolve_exchange)
from .options import ALL_OPTIONS

EXPLORER_RULINGS = ("sv_above_20", "mod_cap", "megabeast_critical", "megabeast_equal")
"""The ruling options a one-on-one Face to Face Roll can consult (flippable in the widget)."""

COLOR_A, COLOR_B, COLOR_NOBODY, COLOR_MB = "#1971c2", "#e8590c", "#868e96", "#862e9c"

_FIELD_CSS = """<style>
.xf-title{font:bold 15px sans-serif;padding:4px 8px;border-radius:4px;color:#fff}
.xf-msg-error{background:#fff5f5;border:1px solid #c92a2a;color:#c92a2a;padding:6px 10px;border-radius:4px;
  font:13px sans-serif}
.xf-msg-ok{color:#2b8a3e;font:13px sans-serif;padding:2px 4px}
.xf-label{font:13px sans-serif;color:#212529;line-height:30px;white-space:nowrap}
.xf-sum{font:14px sans-serif;padding:4px 0}
.xf-sum b{font-size:15px}
</style>"""


def parse_whole(text: Any, field: str, lo: int, hi: int) -> int:
    """Parse a whole number typed in a widget (``"+3"``, ``"-3"``, ``" 12 "`` are fine).

    Raises:
        ScenarioError: not a whole number, or outside ``lo..hi`` (the message names ``field`` and the range).
    """
    s = str(text).strip()
    try:
        v = int(s)
    except ValueError:
        raise ScenarioError(field, f"{s!r} is not a whole number", f"whole numbers {lo} to {hi}", "widget") from None
    if not lo <= v <= hi:
        raise ScenarioError(field, f"{v} is out of range", f"whole numbers {lo} to {hi}", "widget")
    return v


def parse_faces(text: str, field: str) -> list[int]:
    """Parse ``"5, 7 15"`` into faces; each must be 1..20.

    Raises:
        ScenarioError: naming the die (``field[2]``) and the allowed faces.
    """
    parts = [p for p in str(text).replace(",", " ").replace(";", " ").split() if p]
    out = []
    for i, p in enumerate(parts):
        try:
            v = int(p)
        except ValueError:
            raise ScenarioError(f"{field}[{i + 1}]", f"{p!r} is not a die face", "whole numbers 1 to 20",
                                "widget") from None
        if not 1 <= v <= 20:
            raise ScenarioError(f"{field}[{i + 1}]", f"{v} is not a d20 face", "whole numbers 1 to 20", "widget")
        out.append(v)
    return out


def _label(text: str, tip: str = "") -> W.HTML:
    t = f" title='{html.escape(tip)}'" if tip else ""
    return W.HTML(f"<span class='xf-label'{t}>{html.escape(text)}</span>")


def _text(value, width="64px", tip="") -> W.Text:
    return W.Text(value=str(value), layout=W.Layout(width=width), tooltip=tip or None, continuous_update=False)


class SideForm(W.VBox):
    """The inputs of one Miner. :meth:`read` parses them into :class:`SideInputs` or appends errors."""

    def __init__(self, key: str, title: str, color: str, defaults: SideInputs, skills: Sequence[str]):
        self.key, self.color = key, color
        self.title = W.HTML()
        self.set_title(title)
        self.skill = W.Dropdown(options=[(SKILL_NAMES[s], s) for s in skills], value=defaults.skill,
                                layout=W.Layout(width="170px"))
        self.attribute = _text(defaults.attribute, tip="The Attribute the Skill uses (0..30)")
        self.range_mod = _text(f"{defaults.mods.get('Range', 0):+d}", tip="Range MOD from the Range Ruler")
        self.tools_mod = _text(f"{defaults.mods.get('Skills/Tools', 0):+d}", tip="MODs from Skills and Tool cards")
        self.burst = _text(defaults.burst, tip="d20s rolled (0..20); Evade always rolls 1")
        self.damage = _text(defaults.damage, tip="the Weapon's Damage (0..30)")
        self.ammunition = W.Dropdown(options=list(AMMUNITION), value=defaults.ammunition, layout=W.Layout(width="72px"))
        self.armor = _text(defaults.armor, tip="Armor Attribute (0..30)")
        self.wounds = _text(defaults.wounds, tip="Wounds left (1..30)")
        cb = dict(indent=False, layout=W.Layout(width="auto"))
        self.partial_cover = W.Checkbox(value=defaults.partial_cover, description="in Partial Cover", **cb)
        self.armor_zero = W.Checkbox(value=defaults.armor_zero, description="Weapon Trait: Armor = 0", **cb)
        self.ra_minus_3 = W.Checkbox(value=defaults.ranged_attack_minus_3,
                                     description="Tool Trait: Ranged Attack -3", **cb)
        self.sv = W.HTML()
        self.dice = _text("", width="176px", tip="faces rolled, e.g. 5, 7, 15 (click a die on the tray to cycle it)")
        self.saves = _text("", width="176px", tip="Saving Roll faces this Miner rolls, in order")
        pairs = [("Skill", self.skill), ("Attribute", self.attribute), ("Burst", self.burst),
                 ("Range MOD", self.range_mod), ("Skills/Tools MOD", self.tools_mod), ("Damage", self.damage),
                 ("Ammunition", self.ammunition), ("Armor", self.armor), ("Wounds", self.wounds)]
        cells: list[W.Widget] = []
        for name, w in pairs:
            w.add_class(f"f2f-{key}-{name.split()[0].split('/')[0].lower()}")  # stable hooks for browser tests
            cells += [_label(name), w]
        grid = W.GridBox(cells, layout=W.Layout(grid_template_columns="118px 176px", grid_gap="2px 6px"))
        self.grid = grid
        dice_grid = W.GridBox([_label("Dice"), self.dice, _label("Save dice", "Saving Roll faces, used in order"),
                               self.saves],
                              layout=W.Layout(grid_template_columns="118px 176px", grid_gap="2px 6px"))
        self.dice.add_class(f"f2f-{key}-dice")
        self.saves.add_class(f"f2f-{key}-saves")
        super().__init__([self.title, grid, self.partial_cover, self.armor_zero, self.ra_minus_3, self.sv, dice_grid],
                         layout=W.Layout(border=f"1px solid {color}", padding="6px", margin="0 8px 0 0",
                                         width="330px"))

    def set_title(self, title: str) -> None:
        self.title.value = f"<div class='xf-title' style='background:{self.color}'>{html.escape(title)}</div>"

    def widgets(self) -> list[W.Widget]:
        return [self.skill, self.attribute, self.range_mod, self.tools_mod, self.burst, self.damage,
                self.ammunition, self.armor, self.wounds, self.partial_cover, self.armor_zero, self.ra_minus_3]

    def read(self, name: str, errors: list[str]) -> SideInputs | None:
        """Parse the inputs; each problem is appended to ``errors`` as a sentence naming the field."""
        k = self.key
        vals: dict[str, int] = {}
        for attr, lo, hi, label in (("attribute", 0, 30, "Attribute"), ("range_mod", -12, 12, "Range MOD"),
                                    ("tools_mod", -20, 20, "Skills/Tools MOD"), ("burst", 0, 20, "Burst"),
                                    ("damage", 0, 30, "Damage"), ("armor", 0, 30, "Armor"),
                                    ("wounds", 1, 30, "Wounds")):
            try:
                vals[attr] = parse_whole(getattr(self, attr).value, f"{k}.{label}", lo, hi)
            except ScenarioError as e:
                errors.append(str(e))
        if len(vals) < 7:
            return None
        return SideInputs(name=name, skill=self.skill.value, attribute=vals["attribute"],
                          mods={"Range": vals["range_mod"], "Skills/Tools": vals["tools_mod"]},
                          burst=vals["burst"], damage=vals["damage"], ammunition=self.ammunition.value,
                          armor=vals["armor"], wounds=vals["wounds"], partial_cover=self.partial_cover.value,
                          armor_zero=self.armor_zero.value, ranged_attack_minus_3=self.ra_minus_3.value)


class MegaBeastForm(W.VBox):
    """Threat Level, Wounds and Behavior Attack of the MegaBeast."""

    def __init__(self, d: MegaBeastInputs):
        self.threat = _text(d.threat_level, tip="Threat Level of the side attacked from (0..20)")
        self.threat.add_class("f2f-MB-threat")
        self.wounds = _text(d.wounds, tip="Wounds left on the Wounds Bar (Fury Level Tokens count)")
        self.damage = _text(d.damage, tip="Damage of its Behavior Attack")
        self.ammunition = W.Dropdown(options=list(AMMUNITION), value=d.ammunition, layout=W.Layout(width="72px"))
        title = W.HTML(f"<div class='xf-title' style='background:{COLOR_MB}'>MegaBeast (does not roll)</div>")
        grid = W.GridBox([_label("Threat Level"), self.threat, _label("Wounds"), self.wounds,
                          _label("Behavior Damage"), self.damage, _label("Behavior Ammo"), self.ammunition],
                         layout=W.Layout(grid_template_columns="118px 176px", grid_gap="2px 6px"))
        note = W.HTML("<div class='xf-label' style='line-height:1.3;white-space:normal'>The Threat Level of the side "
                      "attacked from is the MegaBeast's result. No Armor roll: each Saving Roll is a Wound.</div>")
        super().__init__([title, grid, note], layout=W.Layout(border=f"1px solid {COLOR_MB}", padding="6px",
                                                              width="330px", display="none"))

    def widgets(self) -> list[W.Widget]:
        return [self.threat, self.wounds, self.damage, self.ammunition]

    def read(self, errors: list[str]) -> MegaBeastInputs | None:
        vals = {}
        for attr, lo, hi, label in (("threat", 0, 20, "Threat Level"), ("wounds", 1, 50, "Wounds"),
                                    ("damage", 0, 30, "Behavior Damage")):
            try:
                vals[attr] = parse_whole(getattr(self, attr).value, f"MegaBeast.{label}", lo, hi)
            except ScenarioError as e:
                errors.append(str(e))
        if len(vals) < 3:
            return None
        return MegaBeastInputs(threat_level=vals["threat"], wounds=vals["wounds"], damage=vals["damage"],
                               ammunition=self.ammunition.value)


def _default_sides() -> tuple[SideInputs, SideInputs]:
    """The built-in default: the handed case TR-01 (A: SV 14, Burst 3; B: SV 12, ARO Burst 2)."""
    return (SideInputs("A", attribute=14, burst=3, damage=13, armor=4, wounds=3),
            SideInputs("B", attribute=12, burst=2, damage=13, armor=4, wounds=3))


class FaceToFaceExplorer(W.VBox):
    """Explore one TAG Raid Face to Face Roll: two Miners (or a Miner and the MegaBeast), the dice, the exact odds.

    Args:
        a, b: initial inputs of each side (defaults: the TR-01 exchange).
        dice_a, dice_b: initial faces (default: rolled from ``seed``).
        seed: seed of the dice roller (the "Roll dice" button increments it).
        rulings: ``{option key: reading}`` initially chosen.

    Attributes (for scripts and tests): ``exchange`` (the last good :class:`Exchange`), ``odds`` (the last
    ``F2FOdds`` or ``None``), ``message`` (an ``ipywidgets.HTML`` showing errors), ``tray``, ``chart``, ``stepper``.
    """

    def __init__(self, a: SideInputs | None = None, b: SideInputs | None = None, *,
                 dice_a: Sequence[int] | None = None, dice_b: Sequence[int] | None = None,
                 saves_a: Sequence[int] | None = None, saves_b: Sequence[int] | None = None,
                 seed: int = 1, rulings: dict[str, str] | None = None, megabeast: MegaBeastInputs | None = None,
                 title: str = "Face to Face Roll explorer — Infinity Deathmatch: TAG Raid"):
        da, db = _default_sides()
        a, b = a or da, b or db
        self._busy = False
        self.exchange: Exchange | None = None
        self.trace = None
        self.odds = None
        self.form_a = SideForm("A", f"A · {a.name} (Active)" if a.name != "A" else "A · Active Miner", COLOR_A, a,
                               SKILLS_ACTIVE)
        self.form_b = SideForm("B", f"B · {b.name} (Reactive, ARO)" if b.name != "B" else "B · Reactive Miner (ARO)",
                               COLOR_B, b, SKILLS_REACTIVE)
        self.names = (a.name, b.name)
        self.form_mb = MegaBeastForm(megabeast or MegaBeastInputs())
        self.megabeast_mode = W.Checkbox(value=megabeast is not None, description="B is the MegaBeast",
                                         indent=False)
        self.seed = _text(seed, width="70px", tip="seed of the dice roller")
        self.roll_button = W.Button(description="Roll dice", button_style="primary",
                                    tooltip="roll every die again with the next seed", layout=W.Layout(width="120px"))
        self.ruling_inputs: dict[str, W.Dropdown] = {}
        rows: list[W.Widget] = []
        for opt in (o for o in ALL_OPTIONS if o.key in EXPLORER_RULINGS):
            dd = W.Dropdown(options=list(opt.readings), value=(rulings or {}).get(opt.key, opt.default),
                            layout=W.Layout(width="190px"), tooltip=opt.section)
            self.ruling_inputs[opt.key] = dd
            tip = html.escape(f"{opt.section}. Default: {opt.default}. {opt.why_default}")
            rows += [W.HTML(f"<div class='xf-label' style='line-height:1.25;white-space:normal;padding-top:4px' "
                            f"title='{tip}'>{html.escape(opt.title)}<br><span style='color:#868e96;font-size:11px'>"
                            f"{html.escape(opt.section)}</span></div>"), dd]
        self.ruling_help = W.HTML()
        controls = W.VBox([W.HBox([_label("Seed\u00a0"), self.seed, self.roll_button],
                                  layout=W.Layout(align_items="center", grid_gap="6px")),
                           self.megabeast_mode,
                           W.HTML("<b class='xf-label'>Ruling options</b> <span class='xf-label' "
                                  "style='color:#868e96'>(where the rulebook is silent or ambiguous)</span>"),
                           W.GridBox(rows, layout=W.Layout(grid_template_columns="300px 196px", grid_gap="4px 6px")),
                           self.ruling_help],
                          layout=W.Layout(padding="6px", width="520px", border="1px solid #dee2e6"))
        self.header = W.HTML(_FIELD_CSS + f"<h3 style='margin:4px 0;font-family:sans-serif'>{html.escape(title)}</h3>"
                             "<div class='xf-label' style='line-height:1.3'>Change any input: the dice, the odds and "
                             "the cited steps update. Click a die on the tray to change its face.</div>")
        self.message = W.HTML()
        self.message.add_class("f2f-message")
        self.summary = W.HTML()
        self.odds_summary = W.HTML()
        self.tray = DiceTray(width=760)
        self.chart = OddsChart(width=760, height=290)
        self.stepper = TraceStepper(layout=W.Layout(width="470px", margin="0 0 0 10px"))
        self.stepper.on_step(self._on_step)
        self.tray.on_die_click(self._on_die_click)

        # dice state: faces per row, plus a private roller per row so Burst changes keep the dice already rolled
        self._dice: dict[str, list[int]] = {}
        self._rollers: dict[str, SeededRoller] = {}
        self._reseed(seed)
        for key, given in (("A", dice_a), ("B", dice_b), ("SA", saves_a), ("SB", saves_b)):
            if given is not None:
                self._dice[key] = list(given)
        self._sync_dice_count()

        inputs = W.HBox([self.form_a, self.form_b, self.form_mb, controls],
                        layout=W.Layout(flex_flow="row wrap", align_items="flex-start"))
        left = W.VBox([self.summary, self.tray, self.odds_summary, self.chart])
        bottom = W.HBox([left, self.stepper], layout=W.Layout(flex_flow="row wrap", align_items="flex-start"))
        super().__init__([self.header, inputs, self.message, bottom])
        self.add_class("tagraid-f2f")

        for w in self.form_a.widgets() + self.form_b.widgets() + self.form_mb.widgets() + list(
                self.ruling_inputs.values()):
            w.observe(self._on_input, names="value")
        self.megabeast_mode.observe(self._on_mode, names="value")
        for key, form in (("A", self.form_a), ("B", self.form_b)):
            form.dice.observe(lambda ch, key=key: self._on_dice_text(key, ch), names="value")
            form.saves.observe(lambda ch, key=key: self._on_dice_text("S" + key, ch), names="value")
        self.seed.observe(self._on_seed, names="value")
        self.roll_button.on_click(self._on_roll)
        self._apply_mode()
        self.update()

    # ---------------------------------------------------------------- dice state
    def _reseed(self, seed: int) -> None:
        self._rollers = {k: SeededRoller(seed * 7919 + i) for i, k in enumerate(("A", "B", "SA", "SB"))}
        self._dice = {k: [] for k in self._rollers}

    def _want(self, key: str, a: SideInputs | None, b: SideInputs | None) -> int:
        if key == "A":
            return a.dice_count if a else len(self._dice["A"])
        if key == "B":
            return 0 if self.megabeast_mode.value else (b.dice_count if b else len(self._dice["B"]))
        return len(self._dice[key])

    def _sync_dice_count(self, a: SideInputs | None = None, b: SideInputs | None = None) -> None:
        """Make each dice row as long as its side rolls: keep the faces already there, roll the missing ones."""
        if a is None or b is None:
            errs: list[str] = []
            a = a or self.form_a.read("A", errs)
            b = b or self.form_b.read("B", errs)
        for key in ("A", "B"):
            n = self._want(key, a, b)
            row = self._dice[key]
            while len(row) < n:
                row.append(self._rollers[key].roll(20, f"{key} die {len(row) + 1}"))
            del row[n:]
        self._show_dice_text()

    def _ensure_saves(self, key: str, n: int) -> None:
        row = self._dice[key]
        grew = False
        while len(row) < n:
            row.append(self._rollers[key].roll(20, f"{key} save {len(row) + 1}"))
            grew = True
        if grew:
            self._show_dice_text()

    def _show_dice_text(self) -> None:
        self._busy = True
        try:
            self.form_a.dice.value = ", ".join(map(str, self._dice["A"]))
            self.form_b.dice.value = ", ".join(map(str, self._dice["B"]))
            self.form_a.saves.value = ", ".join(map(str, self._dice["SA"]))
            self.form_b.saves.value = ", ".join(map(str, self._dice["SB"]))
        finally:
            self._busy = False

    # ------------------------------------------------------------------- events
    def _on_input(self, change) -> None:
        if self._busy:
            return
        errs: list[str] = []
        a, b = self.form_a.read("A", errs), self.form_b.read("B", errs)
        if a is not None and b is not None:
            self._sync_dice_count(a, b)
        self.update()

    def _on_mode(self, change) -> None:
        self._apply_mode()
        self._on_input(change)

    def _apply_mode(self) -> None:
        mb = self.megabeast_mode.value
        self.form_b.layout.display = "none" if mb else ""
        self.form_mb.layout.display = "" if mb else "none"

    def _on_dice_text(self, key: str, change) -> None:
        if self._busy:
            return
        field = {"A": "dice A", "B": "dice B", "SA": "saves A", "SB": "saves B"}[key]
        try:
            faces = parse_faces(change["new"], field)
        except ScenarioError as e:
            self._show_errors([str(e)])
            return
        self._dice[key] = faces
        self.update(keep_dice_text=True)

    def _on_seed(self, change) -> None:
        if self._busy:
            return
        try:
            seed = parse_whole(change["new"], "seed", 0, 10**9)
        except ScenarioError as e:
            self._show_errors([str(e)])
            return
        self._reseed(seed)
        self._sync_dice_count()
        self.update()

    def _on_roll(self, _=None) -> None:
        try:
            seed = parse_whole(self.seed.value, "seed", 0, 10**9) + 1
        except ScenarioError:
            seed = 1
        self.seed.value = str(seed)  # triggers _on_seed

    def _on_die_click(self, die_id: str) -> None:
        """Cycle a clicked die's face (20 wraps to 1)."""
        key, idx = _die_slot(die_id)
        if key not in self._dice or idx >= len(self._dice[key]):
            return
        self._dice[key][idx] = self._dice[key][idx] % 20 + 1
        self._show_dice_text()
        self.update()

    def set_die(self, die_id: str, face: int) -> None:
        """Set die ``die_id`` (``"A.2"``, ``"B.1"``, ``"B.s1"``) to ``face``; a bad face shows a message."""
        try:
            face = parse_whole(face, die_id, 1, 20)
        except ScenarioError as e:
            self._show_errors([str(e)])
            return
        key, idx = _die_slot(die_id)
        if key not in self._dice or not 0 <= idx < len(self._dice[key]):
            self._show_errors([f"widget: no die {die_id!r} on the tray"])
            return
        self._dice[key][idx] = face
        self._show_dice_text()
        self.update()

    def _on_step(self, step) -> None:
        self.tray.set_highlight(step.marks if step is not None else ())

    # ------------------------------------------------------------------ update
    def rulings(self) -> dict[str, str]:
        """The readings chosen in the widget, ``{option key: reading}``."""
        return {k: dd.value for k, dd in self.ruling_inputs.items()}

    def _show_errors(self, errors: list[str]) -> None:
        items = "".join(f"<li>{html.escape(e)}</li>" for e in errors)
        self.message.value = (f"<div class='xf-msg-error'><b>Input not accepted</b> — the drawing below still shows "
                              f"the last valid inputs.<ul style='margin:4px 0'>{items}</ul></div>")

    def update(self, keep_dice_text: bool = False) -> None:
        """Re-read every input, resolve, redraw tray, trace and odds. Never raises: errors go to ``message``."""
        try:
            self._update()
        except ExplorerError as e:
            self._show_errors([str(e)])
        except Exception as e:  # a bug must not break the notebook either; say so plainly
            self._show_errors([f"internal error ({type(e).__name__}: {e}); please report it"])

    def _update(self) -> None:
        errors: list[str] = []
        a = self.form_a.read(self.names[0], errors)
        mb_mode = self.megabeast_mode.value
        b = None if mb_mode else self.form_b.read(self.names[1], errors)
        mb = self.form_mb.read(errors) if mb_mode else None
        if errors:
            self._show_errors(errors)
            return
        assert a is not None
        if not mb_mode:
            assert b is not None
        for key, side in (("A", a), ("B", b)):
            if side is not None and len(self._dice[key]) != side.dice_count:
                self._show_errors([f"widget: field 'dice {key}': {len(self._dice[key])} faces given but "
                                   f"{side.name} rolls {side.dice_count} (allowed: exactly {side.dice_count} faces)"])
                return
        rulings = self.rulings()
        # enough Saving Roll dice for the worst case of this exchange
        self._ensure_saves("SA", self._max_saves(b, a) if b else 3)
        self._ensure_saves("SB", self._max_saves(a, b) if b else 0)
        ex = resolve_exchange(a, b, self._dice["A"], self._dice["B"], self._dice["SA"], self._dice["SB"],
                              megabeast=mb, rulings=rulings)
        self.exchange = ex
        trace, warning = self._engine_trace(ex, rulings)
        self.trace = trace
        self.message.value = warning
        self._draw(ex, trace)
        self._update_odds(ex, rulings)

    @staticmethod
    def _max_saves(attacker: SideInputs, target: SideInputs | None) -> int:
        if target is None or attacker.skill not in ATTACKS:
            return 0
        per = {"N": 1, "AP": 1, "DA": 2, "EXP": 3}[attacker.ammunition]
        return attacker.dice_count * (per + 1)

    # ------------------------------------------------------------------ drawing
    def _engine_trace(self, ex: Exchange, rulings: dict[str, str]):
        """The engine's trace of the same exchange (every die fixed), and a warning if it disagrees with the tray."""
        try:
            from .model import parse_scenario
            from .resolve import resolve
        except ImportError:  # engine not installed: the explorer's own trace is complete
            return ex.trace, ""
        doc = scenario_data(ex.a, ex.b, self._dice["A"], self._dice["B"], self._dice["SA"], self._dice["SB"],
                            megabeast=ex.megabeast, rulings=rulings, title=ex.trace.title)
        trace = resolve(parse_scenario(doc, "widget"), rulings=rulings)
        wounds = trace.outcome.get("wounds", {})
        local = {ex.a.name: ex.wounds_to_a}
        if ex.b is not None:
            local[ex.b.name] = ex.wounds_to_b
        off = [f"{n}: tray {v}, steps {wounds.get(n, 0)}" for n, v in local.items() if wounds.get(n, 0) != v]
        if off:
            return trace, ("<div class='xf-msg-error'>The dice tray and the rules engine disagree about the Wounds "
                           f"lost ({html.escape('; '.join(off))}). Please report this scenario.</div>")
        return trace, ""

    def _draw(self, ex: Exchange, trace=None) -> None:
        a, b = ex.a, ex.b
        self.form_a.sv.value = self._sv_html(ex.sv_a, a)
        if b is not None and ex.sv_b is not None:
            self.form_b.sv.value = self._sv_html(ex.sv_b, b)
        rows, links = tray_model(ex)
        self.tray.show(rows, links, title="Dice tray — click a die to change its face")
        self.summary.value = f"<div class='xf-sum'>{self._headline_html(ex)}</div>"
        trace = trace or ex.trace
        self.stepper.show(trace)
        used = ", ".join(f"<code>{html.escape(k)} = {html.escape(v)}</code>" for k, v in sorted(trace.rulings.items()))
        self.ruling_help.value = (f"<div class='xf-label' style='line-height:1.3;white-space:normal'>Readings used by "
                                  f"this roll: {used or 'none'}</div>")

    @staticmethod
    def _sv_html(sv, side: SideInputs) -> str:
        mods = " ".join(f"{v:+d} {html.escape(k)}" for k, v in sv.mods.items() if v)
        return (f"<div class='xf-label' style='line-height:1.4'>Success Value: <b style='font-size:16px'>"
                f"{sv.value}</b> <span style='color:#495057'>({sv.attribute}{(' ' + mods) if mods else ''})</span>"
                f"</div>")

    @staticmethod
    def _headline(ex: Exchange) -> str:
        if ex.kind == "megabeast":
            mb = ex.megabeast
            if ex.winner == "a":
                return f"A beats Threat Level {mb.threat_level}: {ex.wounds_to_b} Wound(s) to the MegaBeast"
            if ex.winner is None:
                return "Tie with the Threat Level: nothing happens"
            return f"The MegaBeast prevails: A loses {ex.wounds_to_a} Wound(s)"
        if ex.winner is None:
            return "Nobody wins: no effect" if not any(d.success for d in ex.dice_a + ex.dice_b) else \
                "Tie: every success cancelled, nothing happens"
        w, loser = ("A", "B") if ex.winner == "a" else ("B", "A")
        n = ex.saving_rolls_b if ex.winner == "a" else ex.saving_rolls_a
        lost = ex.wounds_to_b if ex.winner == "a" else ex.wounds_to_a
        side = ex.a if ex.winner == "a" else ex.b
        if side.skill not in ATTACKS:
            return f"{w} wins ({SKILL_NAMES[side.skill]}): no Saving Rolls"
        return f"{w} wins: {loser} makes {n} Saving Roll(s), loses {lost} Wound(s)"

    def _headline_html(self, ex: Exchange) -> str:
        color = {"a": COLOR_A, "b": COLOR_MB if ex.kind == "megabeast" else COLOR_B, None: COLOR_NOBODY}[ex.winner]
        return (f"<span style='display:inline-block;width:12px;height:12px;background:{color};border-radius:2px'>"
                f"</span> <b class='f2f-result'>{html.escape(self._headline(ex))}</b>")

    # --------------------------------------------------------------------- odds
    def _update_odds(self, ex: Exchange, rulings: dict[str, str]) -> None:
        """Exact odds of the exchange's inputs (same Success Values and Attack Damage as the tray)."""
        try:
            from . import odds as O
        except ImportError:  # the odds engine is optional while it is being built
            self.odds = None
            self.odds_summary.value = "<div class='xf-label'>Exact odds are not available in this install.</div>"
            return
        a, b, mb = ex.a, ex.b, ex.megabeast
        sva = ex.sv_a.value
        if mb is not None:
            spec = O.SideSpec(sva, a.dice_count, attack_damage=(a.damage if a.skill in ATTACKS else None),
                              ammunition=a.ammunition, opponent_wounds=mb.wounds)
            res = O.versus_megabeast(spec, mb.threat_level, rulings=rulings)
            outcomes = [Outcome("A wounds", float(res.p_a_wins), COLOR_A),
                        Outcome("Tie", float(res.p_nobody), COLOR_NOBODY),
                        Outcome("MegaBeast prevails", float(res.p_b_wins), COLOR_MB)]
            dists = [Distribution("Wounds the MegaBeast loses", [float(p) for p in res.wounds_to_b], COLOR_A,
                                  "Wounds")]
            exp = (f"expected Wounds to the MegaBeast <b>{float(res.expected_wounds_to_b):.2f}</b>")
        else:
            assert b is not None and ex.sv_b is not None
            svb = ex.sv_b.value
            sa = O.SideSpec(sva, a.dice_count,
                            attack_damage=damage_against(a, b).value if a.skill in ATTACKS else None,
                            ammunition=a.ammunition, opponent_wounds=b.wounds)
            sb = O.SideSpec(svb, b.dice_count,
                            attack_damage=damage_against(b, a).value if b.skill in ATTACKS else None,
                            ammunition=b.ammunition, opponent_wounds=a.wounds)
            res = O.face_to_face(sa, sb, rulings=rulings)
            outcomes = [Outcome("A wins", float(res.p_a_wins), COLOR_A),
                        Outcome("Nobody", float(res.p_nobody), COLOR_NOBODY),
                        Outcome("B wins", float(res.p_b_wins), COLOR_B)]
            dists = [Distribution("Wounds B loses", [float(p) for p in res.wounds_to_b], COLOR_A, "Wounds"),
                     Distribution("Wounds A loses", [float(p) for p in res.wounds_to_a], COLOR_B, "Wounds")]
            exp = (f"expected Wounds: to B <b>{float(res.expected_wounds_to_b):.2f}</b>, "
                   f"to A <b>{float(res.expected_wounds_to_a):.2f}</b>")
        self.odds = res
        spans = " · ".join(f"<span class='f2f-odds' data-outcome='{html.escape(o.label)}'>{html.escape(o.label)} "
                           f"<b>{percent(o.p)}</b></span>" for o in outcomes)
        self.odds_summary.value = (f"<div class='xf-sum'>Exact odds before rolling: {spans}<br>"
                                   f"<span style='color:#495057'>{exp}</span></div>")
        self.chart.show(outcomes, dists, title="Exact odds of these inputs (every possible roll)")

    # ----------------------------------------------------------------- serving
    def redraw(self) -> None:
        """Redraw every canvas from the current state (call when a browser connects, e.g. ``pn.state.onload``)."""
        self.tray.redraw()
        self.chart.redraw()

    def canvases(self) -> list:
        return [self.tray.canvas, self.chart.canvas]


def _die_slot(die_id: str) -> tuple[str, int]:
    """``"A.2"`` -> ``("A", 1)``; ``"B.s3"`` (a Saving Roll die) -> ``("SB", 2)``; anything else -> ``("", -1)``."""
    side, _, rest = die_id.partition(".")
    if rest.startswith("s") and rest[1:].isdigit():
        return "S" + side, int(rest[1:]) - 1
    if rest.isdigit():
        return side, int(rest) - 1
    return "", -1


def tray_model(ex: Exchange) -> tuple[list[Row], list[Link]]:
    """Rows and cancellation links of the dice tray for an :class:`Exchange` (pure; used by the widget and tests)."""
    rows: list[Row] = []
    links: list[Link] = []

    def die_view(side: str, i: int, d, survives: bool, cancelled: bool) -> DieView:
        cap = "Critical" if d.critical else ("fail" if d.kind == "failure" else "")
        if d.effective != d.face:
            cap = f"= {d.effective}" + (" ★" if d.critical else "")
        return DieView(f"{side}.{i + 1}", d.face, d.kind, survives, cancelled, cap)

    a = ex.a
    if ex.kind == "megabeast":
        mb = ex.megabeast
        dice = []
        for i, (d, cl) in enumerate(zip(ex.dice_a, ex.mb_classes)):
            v = die_view("A", i, d, cl in ("hit", "crit"), cl in ("beaten", "tie"))
            dice.append(v)
            if cl in ("beaten", "tie"):
                links.append(Link("MB", v.id, mutual=cl == "tie"))
        rows.append(Row(f"A · {a.name}", dice, f"{SKILL_NAMES[a.skill]} · SV {ex.sv_a.value}",
                        f"{len(dice)} dice · Wounds {a.wounds} · Armor {a.armor}", id="A"))
        rows.append(Row(mb.name, [DieView("MB", mb.threat_level, "success", ex.winner == "b", False,
                                          "Threat Level", token=True)], f"Threat Level {mb.threat_level}",
                        f"{mb.wounds} Wounds left"))
        if ex.saves_a:
            rows.append(_save_row(a.name, ex.saves_a, ex.damage_vs_a.value, ex.wounds_to_a))
        return rows, links
    b = ex.b
    cmp = ex.comparison
    assert b is not None and cmp is not None
    da = [die_view("A", i, d, cmp.a_survives[i], bool(cmp.a_cancelled_by[i])) for i, d in enumerate(ex.dice_a)]
    db = [die_view("B", i, d, cmp.b_survives[i], bool(cmp.b_cancelled_by[i])) for i, d in enumerate(ex.dice_b)]
    rows.append(Row(f"A · {a.name}", da, f"{SKILL_NAMES[a.skill]} · SV {ex.sv_a.value}",
                    f"{len(da)} dice · Wounds {a.wounds} · Armor {a.armor}", id="A"))
    rows.append(Row(f"B · {b.name}", db, f"{SKILL_NAMES[b.skill]} · SV {ex.sv_b.value}",
                    f"{len(db)} dice · Wounds {b.wounds} · Armor {b.armor}", id="B"))
    seen = set()
    for i, by in enumerate(cmp.b_cancelled_by):
        for j in by:
            mutual = i in cmp.a_cancelled_by[j]
            links.append(Link(f"A.{j + 1}", f"B.{i + 1}", mutual=mutual))
            if mutual:
                seen.add((j, i))
    for j, by in enumerate(cmp.a_cancelled_by):
        for i in by:
            if (j, i) not in seen:
                links.append(Link(f"B.{i + 1}", f"A.{j + 1}"))
    if ex.saves_b:
        rows.append(_save_row(b.name, ex.saves_b, ex.damage_vs_b.value, ex.wounds_to_b))
    if ex.saves_a:
        rows.append(_save_row(a.name, ex.saves_a, ex.damage_vs_a.value, ex.wounds_to_a))
    return rows, links


def _save_row(name: str, saves, damage: int, lost: int) -> Row:
    dice = [DieView(s.id, s.face, "plain", False, False, "Wound" if s.failed else "saved", bad=s.failed)
            for s in saves]
    return Row("Saving Rolls", dice, f"fail on {damage} or less", f"{name}: {lost} Wound(s) lost")


def explorer_widget(**kwargs) -> FaceToFaceExplorer:
    """Build the Face to Face explorer (same arguments as :class:`FaceToFaceExplorer`)."""
    return FaceToFaceExplorer(**kwargs)


# ---------------------------------------------------------------------------------------------------------------------
# engine scenarios <-> explorer inputs


def scenario_data(a: SideInputs, b: SideInputs | None, dice_a: Sequence[int], dice_b: Sequence[int] = (),
                  saves_a: Sequence[int] = (), saves_b: Sequence[int] = (), *, megabeast: MegaBeastInputs | None = None,
                  rulings: dict[str, str] | None = None, title: str = "Face to Face explorer") -> dict:
    """The engine scenario document (see ``docs/scenario-format.md``) for the explorer's inputs: a one-on-one roll
    exchange (or a Miner against the MegaBeast) with every die fixed, so :func:`~explorer.games.tagraid.resolve.resolve`
    replays exactly the dice on the tray."""

    def weapon(s: SideInputs) -> dict:
        return {"damage": s.damage, "burst": s.burst, "ammunition": s.ammunition,
                "traits": ["Armor = 0"] if s.armor_zero else []}

    def miner(s: SideInputs) -> dict:
        return {"name": s.name, "skill": s.skill, "attribute": s.attribute,
                "mods": {k: v for k, v in s.mods.items() if v}, "armor": s.armor, "wounds": s.wounds,
                "partial_cover": s.partial_cover, "traits": ["Ranged Attack -3"] if s.ranged_attack_minus_3 else []}

    target = megabeast.name if megabeast is not None else (b.name if b is not None else "")
    act = miner(a) | {"save_dice": list(saves_a)}
    if a.skill in ATTACKS:
        act |= {"weapon": weapon(a), "attacks": [{"target": target, "dice": list(dice_a)}]}
    else:
        act |= {"dice": list(dice_a)}
    doc: dict[str, Any] = {"title": title, "active": act, "rulings": dict(rulings or {})}
    if megabeast is not None:
        doc["megabeast"] = {"name": megabeast.name, "threat_level": megabeast.threat_level,
                            "wounds": megabeast.wounds, "aro": True,
                            "behavior_attack": {"damage": megabeast.damage, "ammunition": megabeast.ammunition}}
    elif b is not None:
        rea = miner(b) | {"save_dice": list(saves_b), "dice": list(dice_b)}
        if b.skill in ATTACKS:
            rea |= {"weapon": weapon(b), "burst_mod": b.burst - 1}
        doc["reactive"] = [rea]
    return doc


def _split_mods(mods: dict[str, int]) -> dict[str, int]:
    rng = sum(v for k, v in mods.items() if "range" in k.lower())
    other = sum(v for k, v in mods.items() if "range" not in k.lower())
    return {"Range": rng, "Skills/Tools": other}


def inputs_from_scenario(sc) -> dict[str, Any]:
    """Explorer inputs for a one-on-one engine :class:`~explorer.games.tagraid.model.Scenario` (the Active Miner,
    its first Reactive Miner or the MegaBeast). MODs whose name mentions Range go to the Range MOD field, the others
    to Skills/Tools.

    Returns:
        ``{"a", "b", "megabeast", "dice_a", "dice_b", "saves_a", "saves_b", "seed", "rulings", "title"}``.
    """
    from .model import aro_burst, attack_burst

    act = sc.active
    at = act.attacks[0] if act.attacks else None
    a = SideInputs(act.name, act.skill if act.skill in SKILLS_ACTIVE else "evade", act.attribute,
                   _split_mods(dict(act.mods) | (dict(at.mods) if at else {})), attack_burst(act) if at else 1,
                   act.weapon.damage if act.weapon else 0, act.weapon.ammunition if act.weapon else "N", act.armor,
                   act.wounds, act.partial_cover, bool(act.weapon and "Armor = 0" in act.weapon.traits),
                   "Ranged Attack -3" in act.traits)
    out: dict[str, Any] = {"a": a, "b": None, "megabeast": None, "dice_a": (at.dice if at else act.dice),
                           "dice_b": None, "saves_a": act.save_dice, "saves_b": None, "seed": sc.seed or 1,
                           "rulings": dict(sc.rulings), "title": sc.title}
    if sc.megabeast is not None and (not sc.reactive or (at and at.target == sc.megabeast.name)):
        m = sc.megabeast
        beh = m.behavior_attack
        out["megabeast"] = MegaBeastInputs(m.name, m.threat_level, m.wounds, beh.damage if beh else 0,
                                           beh.ammunition if beh else "N")
    if sc.reactive:
        r = sc.reactive[0]
        skill = r.skill if r.skill in SKILLS_REACTIVE else "none"
        out["b"] = SideInputs(r.name, skill, r.attribute, _split_mods(dict(r.mods)), max(1, aro_burst(r)),
                              r.weapon.damage if r.weapon else 0, r.weapon.ammunition if r.weapon else "N", r.armor,
                              r.wounds, r.partial_cover, bool(r.weapon and "Armor = 0" in r.weapon.traits),
                              "Ranged Attack -3" in r.traits)
        out["dice_b"], out["saves_b"] = r.dice, r.save_dice
    return out


def explorer_for_scenario(name_or_path: str | None = None, **overrides) -> FaceToFaceExplorer:
    """A :class:`FaceToFaceExplorer` opened on an engine scenario (default: the built-in default scenario).

    Raises:
        ScenarioError: unknown scenario or invalid file (from :func:`~explorer.games.tagraid.scenarios.load_scenario`).
    """
    from .scenarios import DEFAULT_SCENARIO, load_scenario

    d = inputs_from_scenario(load_scenario(name_or_path or DEFAULT_SCENARIO))
    kw = dict(a=d["a"], b=d["b"], dice_a=d["dice_a"], dice_b=d["dice_b"], saves_a=d["saves_a"],
              saves_b=d["saves_b"], seed=d["seed"], rulings=d["rulings"], megabeast=d["megabeast"])
    kw.update(overrides)
    return FaceToFaceExplorer(**kw)
