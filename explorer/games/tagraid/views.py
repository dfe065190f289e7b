"""The TAG Raid Face to Face explorer: a composite ipywidget (inputs, dice tray, exact odds, cited trace).

``FaceToFaceExplorer()`` works in JupyterLab and, unchanged, inside the Panel app (:mod:`explorer.app`). Every
input is validated in place: a bad value shows a message naming the field and what is allowed, keeps what the user
typed, and leaves the last good drawing on screen; nothing raises into the notebook.

Every ruling the widget shows is the engine's: the inputs become an engine scenario
(:func:`~explorer.games.tagraid.exchange.resolve_inputs`), and the dice tray, the headline, the step list and the
odds feed (Success Values, dice counts, Attack Damage) all read the engine's
:class:`~explorer.games.tagraid.resolve.Resolution` (:func:`tray_model`).

Sections used: Rolls (Successful Roll, MODs, Criticals, Normal Roll, Face to Face Rolls), Damage (Partial Cover,
Saving Roll), Skills and Tools (Ammunition, Traits), Death, MegaBeast (Wounds, Threat Level).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import ipywidgets as W

from explorer.widgets.scenario_note import ScenarioNote
from explorer.widgets.cards import card_table
from explorer.widgets.files import download_link, upload_control
from explorer.dice import SeededRoller
from explorer.errors import ExplorerError, ScenarioError, short_repr
from explorer.games import Game, get_game
from explorer.scenario import parse_whole
from explorer.text import plural
from explorer.widgets import DiceTray, DieView, Distribution, Link, OddsChart, Outcome, Row, TraceStepper, percent
from explorer.widgets.layout import RESPONSIVE_CSS, split

from .exchange import (AMMUNITION, ATTACKS, SKILL_NAMES, SKILLS_ACTIVE, SKILLS_REACTIVE, MegaBeastInputs, SideInputs,
                       dice_counts, resolve_inputs, roll_heading, save_pool_sizes, scenario_data)
from .model import BehaviorAttack, MegaBeast, ReactiveMiner, Weapon, field_bounds
from .resolve import MinerResult, Resolution
from .options import ALL_OPTIONS

EXPLORER_RULINGS = ("sv_above_20", "mod_cap", "megabeast_critical", "megabeast_equal")
"""The ruling options a one-on-one Face to Face Roll can consult (flippable in the widget)."""

COLOR_A, COLOR_B, COLOR_NOBODY, COLOR_MB = "#1971c2", "#e8590c", "#868e96", "#862e9c"

_FIELD_CSS = """<style>
.xf-title{font:bold 15px sans-serif;padding:4px 8px;border-radius:4px;color:#fff}
.xf-msg-error{background:#fff5f5;border:1px solid #c92a2a;color:#c92a2a;padding:6px 10px;border-radius:4px;
  font:13px sans-serif;display:inline-block;max-width:100%;box-sizing:border-box;line-height:1.35;white-space:normal}
.xf-msg-ok{color:#2b8a3e;font:13px sans-serif;padding:2px 4px}
.xf-label{font:13px sans-serif;color:#212529;line-height:30px;white-space:nowrap}
.xf-sum{font:14px sans-serif;padding:4px 0}
.xf-sum b{font-size:15px}
.xf-button{display:inline-block;font:13px sans-serif;padding:5px 10px;border:1px solid #adb5bd;border-radius:3px;
  background:#f8f9fa;color:#212529;text-decoration:none;white-space:nowrap}
.xf-button:hover{background:#e9ecef}
.f2f-field-note{grid-column:1 / -1}
</style>"""


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
            raise ScenarioError(f"{field}[{i + 1}]", f"{short_repr(p)} is not a die face", "whole numbers 1 to 20",
                                "widget") from None
        if not 1 <= v <= 20:
            raise ScenarioError(f"{field}[{i + 1}]", f"{v} is not a d20 face", "whole numbers 1 to 20", "widget")
        out.append(v)
    return out


TRAY_TITLE = "Dice tray — click a die, then type or pick its face"


def _label(text: str, tip: str = "") -> W.HTML:
    t = f" title='{html.escape(tip)}'" if tip else ""
    return W.HTML(f"<span class='xf-label'{t}>{html.escape(text)}</span>")


def _text(value, width="64px", tip="") -> W.Text:
    return W.Text(value=str(value), layout=W.Layout(width=width), tooltip=tip or None, continuous_update=False)



# Input bounds: the scenario model's own (model.field_bounds), so the widget, TOML files and `explorer odds` agree.
# The two MOD inputs are the widget's only bounds of its own (the format leaves named MODs unbounded).
_SIDE_FIELDS = (("attribute", field_bounds(ReactiveMiner, "attribute"), "Attribute"),
                ("range_mod", (-12, 12), "Range MOD"),
                ("tools_mod", (-20, 20), "Skills/Tools MOD"),
                ("burst", field_bounds(Weapon, "burst"), "Burst"),
                ("damage", field_bounds(Weapon, "damage"), "Damage"),
                ("armor", field_bounds(ReactiveMiner, "armor"), "Armor"),
                ("wounds", field_bounds(ReactiveMiner, "wounds"), "Wounds"))
_ARO_BURST_MOD = ("burst_mod", field_bounds(ReactiveMiner, "burst_mod"), "ARO Burst MOD")
_MB_FIELDS = (("threat", field_bounds(MegaBeast, "threat_level"), "Threat Level"),
              ("wounds", field_bounds(MegaBeast, "wounds"), "Wounds"),
              ("damage", field_bounds(BehaviorAttack, "damage"), "Behavior Damage"))

ATTACK_SKILLS = ("ranged_attack", "close_combat_attack")
"""The Skills that roll the Weapon (its Burst, Damage and Ammunition count)."""
SET_ASIDE_FIELDS = ("burst", "damage", "ammunition", "burst_mod")
"""The fields of a Miner that does not attack that a link keeps beside the scenario document."""
SIDE_FIELD_NAMES = ("skill", "attribute", "range_mod", "tools_mod", "burst", "damage", "ammunition", "armor",
                    "wounds", "partial_cover", "armor_zero", "ra_minus_3")
"""Every field of a Miner's form (:class:`SideForm`; the Reactive Miner's also has ``burst_mod``)."""
MB_FIELD_NAMES = ("threat", "wounds", "damage", "ammunition")
"""Every field of the MegaBeast's form (:class:`MegaBeastForm`)."""
_SIDE_BOUNDS = {attr: lo_hi for attr, lo_hi, _label in (*_SIDE_FIELDS, _ARO_BURST_MOD)}
_MB_BOUNDS = {attr: lo_hi for attr, lo_hi, _label in _MB_FIELDS}


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
        self.reactive = key == "B"
        self.burst = _text(defaults.burst, tip=("the Weapon's Burst (0..20); an ARO rolls Burst 1 unless a MOD says "
                                                "otherwise" if self.reactive else
                                                "the Weapon's Burst: d20s rolled (0..20); Evade always rolls 1"))
        self.burst_mod = _text(f"{defaults.burst_mod:+d}", tip="a Burst MOD from a Skill or Tool card (an ARO has "
                                                               "Burst 1 otherwise: Orders and AROs)")
        self.aro_rule = W.HTML()
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
        pairs = [("Skill", self.skill), ("Attribute", self.attribute),
                 ("Weapon Burst" if self.reactive else "Burst", self.burst),
                 *((("ARO Burst MOD", self.burst_mod),) if self.reactive else ()),
                 ("Range MOD", self.range_mod), ("Skills/Tools MOD", self.tools_mod), ("Damage", self.damage),
                 ("Ammunition", self.ammunition), ("Armor", self.armor), ("Wounds", self.wounds)]
        cells: list[W.Widget] = []
        self.field_notes: dict[str, W.HTML] = {}
        """``{field attribute: HTML}``: the message of a refused field, right under it (hidden while it is fine)."""
        for name, w in pairs:
            w.add_class(f"f2f-{key}-{name.split()[0].split('/')[0].lower()}")  # stable hooks for browser tests
            note = W.HTML("", layout=W.Layout(display="none"))   # across both columns (.f2f-field-note)
            note.add_class(FIELD_NOTE_CLASS)
            self.field_notes[next(a for a in vars(self) if getattr(self, a) is w)] = note
            cells += [_label(name), w, note]
        grid = W.GridBox(cells, layout=W.Layout(grid_template_columns="118px 176px", grid_gap="2px 6px"))
        self.grid = grid
        dice_grid = W.GridBox([_label("Dice"), self.dice, _label("Save dice", "Saving Roll faces, used in order"),
                               self.saves],
                              layout=W.Layout(grid_template_columns="118px 176px", grid_gap="2px 6px"))
        self.dice.add_class(f"f2f-{key}-dice")
        self.saves.add_class(f"f2f-{key}-saves")
        self.burst_mod.add_class(f"f2f-{key}-aroburst")
        self.aro_rule.add_class(f"f2f-{key}-aro-rule")
        extra = [self.aro_rule] if self.reactive else []
        super().__init__([self.title, grid, *extra, self.partial_cover, self.armor_zero, self.ra_minus_3, self.sv,
                          dice_grid],
                         layout=W.Layout(border=f"1px solid {color}", padding="6px", margin="0 8px 0 0",
                                         width="330px"))
        self.skill.observe(lambda _: self._apply_skill(), names="value")
        self.burst_mod.observe(lambda _: self._show_aro_rule(), names="value")
        self._apply_skill()

    def _show_aro_rule(self) -> None:
        """The ARO's dice as the rulebook puts it (Orders and AROs: an ARO has Burst 1, whatever the Weapon's Burst,
        unless a MOD says otherwise)."""
        if not self.reactive:
            return
        skill = self.skill.value
        try:
            mod = int(str(self.burst_mod.value).strip())
        except ValueError:
            mod = None
        if skill in ("ranged_attack", "close_combat_attack"):
            n = "?" if mod is None else str(max(0, 1 + mod))
            how = "Burst 1" if not mod else f"Burst 1 {mod:+d} MOD"
            text = (f"An ARO rolls <b>Burst 1</b> whatever the Weapon's Burst, unless a MOD says otherwise: "
                    f"{how} = <b class='f2f-aro-dice'>{n}</b> d20.")
        elif skill == "evade":
            text = "Evade rolls <b class='f2f-aro-dice'>1</b> d20 (Burst MODs do not apply)."
        else:
            text = "No ARO: <b class='f2f-aro-dice'>0</b> dice."
        self.aro_rule.value = (f"<div class='xf-label' style='line-height:1.3;white-space:normal;color:#495057'"
                               f" title='Orders and AROs'>{text}</div>")

    def _apply_skill(self) -> None:
        """Range MODs only modify Ranged Attacks (Rolls › Modifiers (MOD); Range Ruler): the Range MOD input is
        greyed out for any other Skill. Its value is kept (and still sent: the engine ignores it in a cited step)."""
        self._show_aro_rule()
        ranged = self.skill.value == "ranged_attack"
        self.range_mod.disabled = not ranged
        self.range_mod.tooltip = ("Range MOD from the Range Ruler" if ranged else
                                  "Range MODs apply only to Ranged Attacks: ignored for "
                                  f"{SKILL_NAMES.get(self.skill.value, self.skill.value)}")

    def set_inputs(self, s: SideInputs) -> None:
        """Show ``s`` in the fields (the caller holds off updates while it sets several)."""
        self.skill.value = s.skill
        self.attribute.value = str(s.attribute)
        self.range_mod.value = f"{s.mods.get('Range', 0):+d}"
        self.tools_mod.value = f"{s.mods.get('Skills/Tools', 0):+d}"
        self.burst.value = str(s.burst)
        self.burst_mod.value = f"{s.burst_mod:+d}"
        self.damage.value = str(s.damage)
        self.ammunition.value = s.ammunition
        self.armor.value = str(s.armor)
        self.wounds.value = str(s.wounds)
        self.partial_cover.value = s.partial_cover
        self.armor_zero.value = s.armor_zero
        self.ra_minus_3.value = s.ranged_attack_minus_3

    def set_title(self, title: str) -> None:
        self.title.value = f"<div class='xf-title' style='background:{self.color}'>{html.escape(title)}</div>"

    def widgets(self) -> list[W.Widget]:
        return [self.skill, self.attribute, self.range_mod, self.tools_mod, self.burst, self.damage,
                self.ammunition, self.armor, self.wounds, self.partial_cover, self.armor_zero, self.ra_minus_3,
                *((self.burst_mod,) if self.reactive else ())]

    def read(self, name: str, errors: list[str]) -> SideInputs | None:
        """Parse the inputs; each problem is appended to ``errors`` as a sentence naming the field."""
        k = self.key
        vals: dict[str, int] = {"burst_mod": 0}
        fields = _SIDE_FIELDS + ((_ARO_BURST_MOD,) if self.reactive else ())
        for attr, (lo, hi), label in fields:
            try:
                vals[attr] = parse_whole(getattr(self, attr).value, f"{k}.{label}", lo, hi)
            except ScenarioError as e:
                errors.append(str(e))
                show_field_note(self.field_notes.get(attr), str(e))
            else:
                show_field_note(self.field_notes.get(attr), None)
        if len(vals) < len(fields) + (0 if self.reactive else 1):
            return None
        return SideInputs(name=name, skill=self.skill.value, attribute=vals["attribute"], burst_mod=vals["burst_mod"],
                          mods={"Range": vals["range_mod"], "Skills/Tools": vals["tools_mod"]},
                          burst=vals["burst"], damage=vals["damage"], ammunition=self.ammunition.value,
                          armor=vals["armor"], wounds=vals["wounds"], partial_cover=self.partial_cover.value,
                          armor_zero=self.armor_zero.value, ranged_attack_minus_3=self.ra_minus_3.value)


FIELD_NOTE_CLASS = "f2f-field-note"
"""The class of the message under a refused field of the Face to Face forms."""


def show_field_note(note: W.HTML | None, message: str | None) -> None:
    """Show ``message`` (a refusal naming the field) in ``note``, the line right under its field, or hide the line
    (``None``). The same refusal is also listed with every other one in the page's message (all bad fields at once);
    this puts each next to its own field, where a phone user is looking."""
    if note is None:
        return
    if message is None:
        if note.layout.display != "none":
            note.value, note.layout.display = "", "none"
        return
    note.value = (f"<div style='font-family:sans-serif;font-size:12px;line-height:1.3;color:#922b21;"
                  f"white-space:normal'>{html.escape(message)}</div>")
    note.layout.display = ""


class MegaBeastForm(W.VBox):
    """Threat Level, Wounds and Behavior Attack of the MegaBeast."""

    def __init__(self, d: MegaBeastInputs):
        self.threat = _text(d.threat_level, tip="Threat Level of the side attacked from (0..20)")
        self.threat.add_class("f2f-MB-threat")
        self.wounds = _text(d.wounds, tip="Wounds left on the Wounds Bar (Fury Level Tokens count)")
        self.damage = _text(d.damage, tip="Damage of its Behavior Attack")
        self.ammunition = W.Dropdown(options=list(AMMUNITION), value=d.ammunition, layout=W.Layout(width="72px"))
        title = W.HTML(f"<div class='xf-title' style='background:{COLOR_MB}'>MegaBeast (does not roll)</div>")
        self.field_notes = {a: W.HTML("", layout=W.Layout(display="none"))   # across both columns
                            for a in ("threat", "wounds", "damage")}
        """``{field attribute: HTML}``: the message of a refused field, right under it (hidden while it is fine)."""
        for n in self.field_notes.values():
            n.add_class(FIELD_NOTE_CLASS)
        grid = W.GridBox([_label("Threat Level"), self.threat, self.field_notes["threat"], _label("Wounds"),
                          self.wounds, self.field_notes["wounds"], _label("Behavior Damage"), self.damage,
                          self.field_notes["damage"], _label("Behavior Ammo"), self.ammunition],
                         layout=W.Layout(grid_template_columns="118px 176px", grid_gap="2px 6px"))
        note = W.HTML("<div class='xf-label' style='line-height:1.3;white-space:normal'>The Threat Level of the side "
                      "attacked from is the MegaBeast's result. No Armor roll: each Saving Roll is a Wound.</div>")
        super().__init__([title, grid, note], layout=W.Layout(border=f"1px solid {COLOR_MB}", padding="6px",
                                                              width="330px", display="none"))

    def widgets(self) -> list[W.Widget]:
        return [self.threat, self.wounds, self.damage, self.ammunition]

    def set_inputs(self, m: MegaBeastInputs) -> None:
        """Show ``m`` in the fields."""
        self.threat.value = str(m.threat_level)
        self.wounds.value = str(m.wounds)
        self.damage.value = str(m.damage)
        self.ammunition.value = m.ammunition

    def read(self, errors: list[str]) -> MegaBeastInputs | None:
        vals = {}
        for attr, (lo, hi), label in _MB_FIELDS:
            try:
                vals[attr] = parse_whole(getattr(self, attr).value, f"MegaBeast.{label}", lo, hi)
            except ScenarioError as e:
                errors.append(str(e))
                show_field_note(self.field_notes[attr], str(e))
            else:
                show_field_note(self.field_notes[attr], None)
        if len(vals) < len(_MB_FIELDS):
            return None
        return MegaBeastInputs(threat_level=vals["threat"], wounds=vals["wounds"], damage=vals["damage"],
                               ammunition=self.ammunition.value)


def _default_sides() -> tuple[SideInputs, SideInputs]:
    """The built-in default: the handed case TR-01 (A: SV 14, Burst 3; B: SV 12, an ARO of Burst 2, i.e. Burst 1
    with a +1 Burst MOD)."""
    return (SideInputs("A", attribute=14, burst=3, damage=13, armor=4, wounds=3),
            SideInputs("B", attribute=12, burst=2, damage=13, armor=4, wounds=3, burst_mod=1))


class FaceToFaceExplorer(W.VBox):
    """Explore one TAG Raid Face to Face Roll: two Miners (or a Miner and the MegaBeast), the dice, the exact odds.

    Args:
        a, b: initial inputs of each side (defaults: the TR-01 exchange).
        dice_a, dice_b: initial faces (default: rolled from ``seed``).
        seed: seed of the dice roller (the "Roll dice" button increments it).
        rulings: ``{option key: reading}`` initially chosen.

    Attributes (for scripts and tests): ``resolution`` (the engine's last good
    :class:`~explorer.games.tagraid.resolve.Resolution`), ``trace`` (its cited trace), ``inputs`` (the
    ``(a, b, megabeast)`` it was resolved from), ``odds`` (the last ``F2FOdds`` or ``None``), ``message`` (an
    ``ipywidgets.HTML`` showing errors), ``tray``, ``chart``, ``stepper``.
    """

    def __init__(self, a: SideInputs | None = None, b: SideInputs | None = None, *,
                 dice_a: Sequence[int] | None = None, dice_b: Sequence[int] | None = None,
                 saves_a: Sequence[int] | None = None, saves_b: Sequence[int] | None = None,
                 seed: int = 1, rulings: dict[str, str] | None = None, megabeast: MegaBeastInputs | None = None,
                 title: str = "Face to Face Roll explorer — Infinity Deathmatch: TAG Raid"):
        da, db = _default_sides()
        a, b = a or da, b or db
        self._busy = False
        self._state_callbacks: list = []
        self.resolution: Resolution | None = None
        self.inputs: tuple[SideInputs, SideInputs | None, MegaBeastInputs | None] | None = None
        # a roll exchange the two-Miner form cannot hold (several Reactive Miners, a split Burst, board facts such as
        # "no LoF to the Active Miner"): shown from its scenario document (:meth:`load_document`)
        self.exchange: dict[str, Any] | None = None
        self.board_facts: list[dict[str, Any]] = []
        # the step-through: the kernel frame of each shown step (None: a board step), the frame the tray shows
        # (None: the whole exchange) and how the tray is drawn from a Resolution (the form's or the exchange's)
        self._step_frames: list[int | None] = []
        self._tray_frame: int | None = None
        self._tray_of = None
        self.board_readings: dict[str, str] = {}
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
        self.contact = W.Checkbox(value=(megabeast.silhouette_contact if megabeast is not None
                                         else b.silhouette_contact),
                                  description="Silhouette Contact", indent=False, layout=W.Layout(width="auto"),
                                  tooltip="A touches B (or the MegaBeast). A Close Combat Attack requires it; a Ranged "
                                          "Attack is not allowed in Silhouette Contact with an enemy Miner (the Skill "
                                          "then counts as Idle)")
        self.contact.add_class("f2f-contact")
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
        # share as a file: a download link (kept current) and an upload through the loading gate
        self.download = W.HTML()
        self.download.add_class("f2f-download")
        self.upload_box, self.upload = upload_control(
            "Open a scenario file (.toml)…", "open a scenario file (the format `explorer resolve` reads)",
            "f2f-upload")
        self.file_message = W.HTML()
        self.file_message.add_class("f2f-file-message")
        self.upload.observe(self._on_upload, names="value")
        controls = W.VBox([W.HBox([self.download, self.upload_box, self.file_message],
                                  layout=W.Layout(align_items="center", grid_gap="6px", flex_flow="row wrap")),
                           W.HBox([_label("Seed\u00a0"), self.seed, self.roll_button],
                                  layout=W.Layout(align_items="center", grid_gap="6px")),
                           self.megabeast_mode, self.contact,
                           W.HTML("<b class='xf-label'>Ruling options</b> <span class='xf-label' "
                                  "style='color:#868e96'>(where the rulebook is silent or ambiguous)</span>"),
                           W.GridBox(rows, layout=W.Layout(grid_template_columns="300px 196px", grid_gap="4px 6px")),
                           self.ruling_help],
                          layout=W.Layout(padding="6px", width="520px", border="1px solid #dee2e6"))
        self.header = W.HTML(RESPONSIVE_CSS + _FIELD_CSS + f"<h3 style='margin:4px 0;font-family:sans-serif'>"
                             f"{html.escape(title)}</h3><div class='xf-label' style='line-height:1.3'>Change any input: "
                             "the dice, the odds and the cited steps update. Click (or tap) a die on the tray, then "
                             "type or pick its face.</div>")
        self.message = W.HTML()
        self.message.add_class("f2f-message")
        self.board_html = W.HTML()
        self.board_html.add_class("f2f-board-facts")
        self.exchange_html = W.HTML()
        self.exchange_html.add_class("f2f-exchange")
        self.form_button = W.Button(description="Back to the two-Miner form", layout=W.Layout(width="220px"),
                                    tooltip="leave this exchange: the form opens on its Active Miner against its "
                                            "first Reactive Miner")
        self.form_button.add_class("f2f-form-button")
        self.form_button.on_click(lambda _=None: self._leave_exchange())
        self.exchange_box = W.VBox([self.exchange_html, self.form_button],
                                   layout=W.Layout(display="none", padding="4px 6px"))
        self.note = ScenarioNote()
        self.summary = W.HTML()
        self.odds_summary = W.HTML()
        self.tray = DiceTray(width=760, picker=True)
        self.chart = OddsChart(width=760, height=290)
        self.stepper = TraceStepper()
        self.stepper.on_step(self._on_step)
        self.tray.on_die_set(self.set_die)

        # dice state: faces per row, plus a private roller per row so Burst changes keep the dice already rolled
        self._dice: dict[str, list[int]] = {}
        self._field_errors: dict[str, str] = {}
        """Typed texts refused and not yet fixed (``{"dice A": message, "seed": message}``): listed with every
        later error until the field is fixed or rewritten."""
        self._rollers: dict[str, SeededRoller] = {}
        self._reseed(seed)
        for key, given in (("A", dice_a), ("B", dice_b), ("SA", saves_a), ("SB", saves_b)):
            if given is not None:
                self._dice[key] = list(given)
        self._sync_dice_count()

        self.inputs_box = W.HBox([self.form_a, self.form_b, self.form_mb],
                                 layout=W.Layout(flex_flow="row wrap", align_items="flex-start"))
        inputs = W.HBox([self.inputs_box, self.exchange_box, controls],
                        layout=W.Layout(flex_flow="row wrap", align_items="flex-start"))
        left = W.VBox([self.summary, self.tray, self.odds_summary, self.chart])
        # the dice and odds beside the cited steps from 1,200 px of window width, the steps below them otherwise
        bottom = split(left, self.stepper)
        super().__init__([self.header, self.note, self.board_html, inputs, self.message, bottom])
        self.add_class("tagraid-f2f")

        for w in self.form_a.widgets() + self.form_b.widgets() + self.form_mb.widgets() + list(
                self.ruling_inputs.values()) + [self.contact]:
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
        # faces set aside when a row got shorter (a lower Burst, Evade instead of an attack, fewer Saving Rolls
        # needed): they come back, in order, before any new die is rolled, so hand-set dice survive the round trip
        self._spare: dict[str, list[int]] = {k: [] for k in self._rollers}
        # how many Saving Roll faces the user has just typed: the field keeps them all until another input changes
        self._typed: dict[str, int] = {}

    def _fit(self, key: str, n: int) -> bool:
        """Make row ``key`` exactly ``n`` dice long: shorten it by setting the tail aside, lengthen it from the faces
        set aside first, then roll the missing ones. Returns whether the row changed."""
        row, spare = self._dice[key], self._spare[key]
        if len(row) == n:
            return False
        if len(row) > n:
            spare[:0] = row[n:]
            del row[n:]
            return True
        back = spare[:n - len(row)]
        del spare[:len(back)]
        row.extend(back)
        while len(row) < n:
            row.append(self._rollers[key].roll(20, f"{key} die {len(row) + 1}"))
        return True

    def _counts(self, a: SideInputs | None, b: SideInputs | None) -> tuple[int, int] | None:
        """Dice A and B roll, from the engine's model; ``None`` when the inputs cannot be read."""
        if a is None or (b is None and not self.megabeast_mode.value):
            return None
        mb = (self.form_mb.read([]) or MegaBeastInputs()) if self.megabeast_mode.value else None
        try:
            return dice_counts(a, None if mb else b, mb)
        except ExplorerError:
            return None

    def _sync_dice_count(self, a: SideInputs | None = None, b: SideInputs | None = None) -> None:
        """Make each dice row as long as its side rolls: keep the faces already there, roll the missing ones."""
        if a is None or b is None:
            errs: list[str] = []
            a = a or self.form_a.read("A", errs)
            b = b or self.form_b.read("B", errs)
        counts = self._counts(a, b)
        for i, key in enumerate(("A", "B")):
            self._fit(key, counts[i] if counts is not None else len(self._dice[key]))
        self._show_dice_text()

    def _ensure_saves(self, key: str, n: int) -> None:
        """Keep exactly the ``n`` Saving Roll dice these inputs may need (the pool never grows beyond it; faces
        beyond it are set aside, not lost)."""
        if self._fit(key, max(n, self._typed.get(key, 0))):
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
        for field in ("dice A", "dice B", "saves A", "saves B"):   # the texts now hold accepted faces
            self._field_errors.pop(field, None)

    # ------------------------------------------------------------------- events
    def _on_input(self, change) -> None:
        if self._busy:
            return
        errs: list[str] = []
        self._typed.clear()
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
            self._field_errors[field] = str(e)
            self.update()   # the other fields' errors listed with it (the drawing keeps the last valid faces)
            return
        self._field_errors.pop(field, None)
        self._dice[key] = faces
        if key.startswith("S"):
            self._spare[key] = []  # typed Saving Roll dice replace the pool and stay in the field as typed
            self._typed[key] = len(faces)
        self.update(keep_dice_text=True)

    def _on_seed(self, change) -> None:
        if self._busy:
            return
        try:
            seed = parse_whole(change["new"], "seed", 0, 10**9)
        except ScenarioError as e:
            self._field_errors["seed"] = str(e)
            self.update()   # the other fields' errors listed with it (the drawing keeps the last valid faces)
            return
        self._field_errors.pop("seed", None)
        if self.exchange is not None:  # every die of the exchange is rolled again from the new seed
            self.exchange = _without_dice(self.exchange) | {"seed": seed}
            self.update()
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

    def set_die(self, die_id: str, face: int) -> None:
        """Set die ``die_id`` (``"A.2"``, ``"B.1"``, ``"B.s1"``, ``"C.1"``...) to ``face``; a bad face shows a
        message."""
        try:
            face = parse_whole(face, die_id, 1, 20)
        except ScenarioError as e:
            self._show_errors([str(e)])
            return
        if self.exchange is not None:
            self._set_exchange_die(die_id, face)
            return
        key, idx = _die_slot(die_id)
        if key not in self._dice or not 0 <= idx < len(self._dice[key]):
            self._show_errors([f"There is no die {die_id!r} on the tray"])
            return
        self._dice[key][idx] = face
        self._show_dice_text()
        self.update()

    def _on_step(self, step) -> None:
        """Draw the tray as the focused step's kernel frame has the exchange (:meth:`.resolve.Resolution.at` of the
        frame's :class:`~.resolve.RollState`: the rolls compared, Saving Rolls made and Wounds lost so far), the
        step's dice ringed; "All steps" (``None``) and the board's steps show the whole exchange."""
        marks = step.marks if step is not None else ()
        res = getattr(self, "resolution", None)
        i = self.stepper.index
        frame = (self._step_frames[i] if step is not None and i is not None and i < len(self._step_frames)
                 else None)
        if res is None or frame == self._tray_frame:
            self.tray.set_highlight(marks)
            return
        shown = res if frame is None else res.at(res.frames[frame].state)
        rows, links = self._tray_of(shown)
        self.tray.show(rows, links, highlight=marks, title=TRAY_TITLE)
        self._tray_frame = frame

    def _show_steps(self, res: Resolution, tray_of) -> None:
        """Show ``res``'s steps (after the board's) and draw the whole exchange on the tray with ``tray_of(res)``
        (rows and links); remember which kernel frame each shown step belongs to (``None``: a board step)."""
        self._tray_of, self._tray_frame = tray_of, None
        rows, links = tray_of(res)
        self.tray.show(rows, links, title=TRAY_TITLE)
        trace = self._with_board_steps(res.trace)
        frames = [None] * (len(trace.steps) - len(res.trace.steps)) if self.board_facts else []
        for n, f in enumerate(res.frames):
            frames += [n for s in f.steps if not (self.board_facts and s.section == "From the board")]
        self._step_frames = frames
        self.stepper.show(trace)

    # ------------------------------------------------------------------ update
    def rulings(self) -> dict[str, str]:
        """The readings chosen in the widget, ``{option key: reading}``."""
        return {k: dd.value for k, dd in self.ruling_inputs.items()}

    def _show_errors(self, errors: list[str]) -> None:
        """List ``errors`` and every typed field still refused (:attr:`_field_errors`: dice and seed texts), all of
        them, not only the latest."""
        errors = list(errors) + [e for e in self._field_errors.values() if e not in errors]
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
        else:
            if self._field_errors and "xf-msg-error" not in self.message.value:
                self._show_errors([])   # a dice or seed text still refused stays listed

    def _update(self) -> None:
        if self.exchange is not None:
            self._update_exchange()
            return
        errors: list[str] = []
        a = self.form_a.read(self.names[0], errors)
        mb_mode = self.megabeast_mode.value
        b = None if mb_mode else self.form_b.read(self.names[1], errors)
        mb = self.form_mb.read(errors) if mb_mode else None
        if errors:
            self._show_errors(errors)
            return
        # Silhouette Contact is a fact of the pair (Common Skills › Close Combat Attack / Ranged Attack,
        # Requirements): the engine decides what it allows
        if b is not None:
            b = replace(b, silhouette_contact=self.contact.value)
        if mb is not None:
            mb = replace(mb, silhouette_contact=self.contact.value)
        assert a is not None
        if not mb_mode:
            assert b is not None
        counts = dice_counts(a, b, mb)
        for key, side, n in (("A", a, counts[0]), ("B", b, counts[1])):
            if side is not None and len(self._dice[key]) != n:
                self._show_errors([f"field 'dice {key}': {len(self._dice[key])} faces given but "
                                   f"{side.name} rolls {n} (allowed: exactly {n} faces)"])
                return
        rulings = self.rulings()
        # a pool of Saving Roll dice large enough for anything these dice can force; the engine uses what it needs
        need_a, need_b = save_pool_sizes(a, b, mb)
        self._ensure_saves("SA", need_a)
        self._ensure_saves("SB", need_b)
        opp = f"the {mb.name} (Threat Level {mb.threat_level})" if mb else f"{b.name} ({SKILL_NAMES[b.skill]})"
        who = f"{a.name} ({SKILL_NAMES[a.skill]}) vs {opp}"
        res = resolve_inputs(a, b, self._dice["A"], self._dice["B"], self._dice["SA"], self._dice["SB"],
                             megabeast=mb, rulings=rulings, title=f"Against the MegaBeast: {who}" if mb else who)
        if not mb:  # the heading names the roll the engine made (a Normal Roll when nothing opposes it)
            res = replace(res, trace=replace(res.trace, title=f"{roll_heading(res.pairs)}: {who}"))
        self.resolution, self.inputs, self.trace = res, (a, b, mb), res.trace
        self.message.value = ""
        self._draw(res, a, b, mb)
        self._update_odds(res, a, b, mb, rulings)
        self._state_changed()

    # ------------------------------------------------------------------ drawing
    def _draw(self, res: Resolution, a: SideInputs, b: SideInputs | None, mb: MegaBeastInputs | None) -> None:
        self.form_a.sv.value = self._sv_html(res.active)
        if b is not None and mb is None:
            self.form_b.sv.value = self._sv_html(res.miner(b.name))
        self.summary.value = f"<div class='xf-sum'>{self._headline_html(res)}</div>"
        self._show_steps(res, lambda r: tray_model(r, a, b, mb))
        used = ", ".join(f"<code>{html.escape(k)} = {html.escape(v)}</code>" for k, v in sorted(res.rulings.items()))
        self.ruling_help.value = (f"<div class='xf-label' style='line-height:1.3;white-space:normal'>Readings used by "
                                  f"this roll: {used or 'none'}</div>")

    @staticmethod
    def _sv_html(m: MinerResult) -> str:
        sv = m.sv
        if sv is None:
            return (f"<div class='xf-label' style='line-height:1.4'>Success Value: <b style='font-size:16px'>—</b> "
                    f"<span style='color:#495057'>(no roll: {html.escape(SKILL_NAMES.get(m.skill, m.skill))})</span>"
                    f"</div>")
        mods = " ".join(f"{v:+d} {html.escape(k)}" for k, v in sv.mods.items() if v)
        return (f"<div class='xf-label' style='line-height:1.4'>Success Value: <b style='font-size:16px'>"
                f"{sv.value}</b> <span style='color:#495057'>({sv.attribute}{(' ' + mods) if mods else ''})</span>"
                f"</div>")

    @staticmethod
    def _headline(res: Resolution) -> str:
        """One line saying the engine's result (winner, Saving Rolls, Wounds)."""
        pair = res.pairs[0] if res.pairs else None
        act = res.active
        if res.megabeast is not None:
            mb = res.megabeast
            if pair is not None and pair.winner == act.name:
                if act.skill not in ATTACKS:
                    return f"A beats Threat Level {mb.threat_level}: the {mb.name}'s attack is evaded"
                return f"A beats Threat Level {mb.threat_level}: {plural(mb.wounds_lost, 'Wound')} to the {mb.name}"
            if pair is None or pair.winner is None:
                return "Tie with the Threat Level: nothing happens" if pair is not None and pair.result == "tie" \
                    else "Nobody wins: no effect"
            return f"The {mb.name} prevails: A loses {plural(act.wounds_lost, 'Wound')}"
        if pair is None or pair.winner is None:
            return "Tie: every success cancelled, nothing happens" if pair is not None and pair.result == "tie" \
                else "Nobody wins: no effect"
        w = res.miner(pair.winner)
        loser = next(m for m in res.miners.values() if m.name != w.name)
        if w.skill not in ATTACKS:
            return f"{w.letter} wins ({SKILL_NAMES[w.skill]}): no Saving Rolls"
        return (f"{w.letter} wins: {loser.letter} makes {plural(loser.saving_rolls, 'Saving Roll')}, loses "
                f"{plural(loser.wounds_lost, 'Wound')}")

    def _headline_html(self, res: Resolution) -> str:
        pair = res.pairs[0] if res.pairs else None
        winner = pair.winner if pair is not None else None
        if winner is None:
            color = COLOR_NOBODY
        elif res.megabeast is not None and winner == res.megabeast.name:
            color = COLOR_MB
        else:
            color = COLOR_A if res.miner(winner).letter == "A" else COLOR_B
        from .words import states_text

        states = states_text(res.outcome.states)   # the States the attacks caused, when one could (step 5.3)
        head = self._headline(res) + (f"; States gained: {states}" if states is not None else "")
        return (f"<span style='display:inline-block;width:12px;height:12px;background:{color};border-radius:2px'>"
                f"</span> <b class='f2f-result'>{html.escape(head)}</b>")

    # --------------------------------------------------------------------- odds
    def _update_odds(self, res: Resolution, a: SideInputs, b: SideInputs | None, mb: MegaBeastInputs | None,
                     rulings: dict[str, str]) -> None:
        """Exact odds of the same inputs, fed with the engine's derivation: each side's Success Value and dice
        count (its pools) and the Attack Damage of its Weapon against the other (``Pair.attack_damage``)."""
        try:
            from . import odds as O
        except ImportError:  # the odds engine is optional while it is being built
            self.odds = None
            self.odds_summary.value = "<div class='xf-label'>Exact odds are not available in this install.</div>"
            return
        act = res.active
        pair = res.pairs[0] if res.pairs else None

        def spec(m: MinerResult, ammunition: str, opponent_wounds: int, attack_damage: int | None):
            return O.SideSpec(m.sv.value if m.sv is not None else 0, len(m.dice), attack_damage, ammunition,
                              opponent_wounds)

        def damage(m: MinerResult) -> int | None:
            ad = pair.attack_damage.get(m.name) if pair is not None else None
            return ad.value if ad is not None else None

        if res.megabeast is not None:
            beast = res.megabeast
            # no Armor roll against the MegaBeast: an attack needs no Attack Damage (any int), an Evade none
            sa = spec(act, a.ammunition, beast.wounds_before, a.damage if act.skill in ATTACKS else None)
            odds = O.versus_megabeast(sa, beast.threat_level, rulings=rulings)
            outcomes = [Outcome("A wounds", float(odds.p_a_wins), COLOR_A),
                        Outcome("Tie", float(odds.p_nobody), COLOR_NOBODY),
                        Outcome("MegaBeast prevails", float(odds.p_b_wins), COLOR_MB)]
            dists = [Distribution("Wounds the MegaBeast loses", [float(p) for p in odds.wounds_to_b], COLOR_A,
                                  "Wounds")]
            exp = f"expected Wounds to the MegaBeast <b>{float(odds.expected_wounds_to_b):.2f}</b>"
        else:
            assert b is not None
            rea = res.miner(b.name)
            sa = spec(act, a.ammunition, rea.wounds_before, damage(act))
            sb = spec(rea, b.ammunition, act.wounds_before, damage(rea))
            odds = O.face_to_face(sa, sb, rulings=rulings)
            outcomes = [Outcome("A wins", float(odds.p_a_wins), COLOR_A),
                        Outcome("Nobody", float(odds.p_nobody), COLOR_NOBODY),
                        Outcome("B wins", float(odds.p_b_wins), COLOR_B)]
            dists = [Distribution("Wounds B loses", [float(p) for p in odds.wounds_to_b], COLOR_A, "Wounds"),
                     Distribution("Wounds A loses", [float(p) for p in odds.wounds_to_a], COLOR_B, "Wounds")]
            exp = (f"expected Wounds: to B <b>{float(odds.expected_wounds_to_b):.2f}</b>, "
                   f"to A <b>{float(odds.expected_wounds_to_a):.2f}</b>")
        self.odds = odds
        self._outcomes = outcomes
        self._odds_line = exp
        self.odds_specs = (sa, sb) if res.megabeast is None else (sa,)
        spans = " · ".join(f"<span class='f2f-odds' data-outcome='{html.escape(o.label)}'>{html.escape(o.label)} "
                           f"<b>{percent(o.p)}</b></span>" for o in outcomes)
        self.odds_summary.value = (f"<div class='xf-sum'>Exact odds before rolling: {spans}<br>"
                                   f"<span style='color:#495057'>{exp}</span></div>")
        self.chart.show(outcomes, dists, title="Exact odds of these inputs (every possible roll)")


    # ----------------------------------------------------------- state: link and file
    def on_state_change(self, callback) -> None:
        """Call ``callback()`` after every change that resolved (the page then writes :meth:`url_state` to its URL)."""
        self._state_callbacks.append(callback)

    def _state_changed(self) -> None:
        text = self.to_toml()
        self.download.value = download_link(text, "face-to-face.toml", "the dice, inputs, seed and readings as a "
                                            "scenario file: `explorer resolve FILE` and the notebooks open it",
                                            "f2f-download-link xf-button", styled=False)
        try:    # the note above says when the page no longer shows the scenario it opened
            self.note.track(self.url_state())
        except ScenarioError:
            pass
        for cb in list(self._state_callbacks):
            cb()

    def scenario_document(self, *, exact_saves: bool = False) -> dict[str, Any]:
        """The explorer's state as a TAG Raid scenario document (``docs/scenario-format.md``): both sides' inputs,
        every die on the tray, the Saving Roll dice, the seed and the readings. ``explorer resolve``, the notebooks
        (:func:`explorer_for_scenario`) and :meth:`load_document` reproduce the same roll from it. ``exact_saves``
        (the Download, :meth:`to_toml`): on the two-Miner form, only the Saving Roll faces rolled, not the page's
        whole pool (a whole exchange holds exactly the dice rolled either way).

        Raises:
            ScenarioError: nothing has resolved yet.
        """
        if self.exchange is not None:
            return {"game": "tagraid", **self.exchange, "rulings": self.rulings()}
        if self.inputs is None:
            raise ScenarioError("", "no valid inputs yet", source="widget")
        a, b, mb = self.inputs
        # exact_saves (the Download): exactly the Saving Roll faces rolled (a file gives the dice its roll uses, and
        # roll files are read exactly: issue #25 item 4); the link keeps the page's whole pool to flip dice from
        sa, sb = self._dice["SA"], self._dice["SB"]
        if exact_saves:
            used = saves_used(self.resolution) if self.resolution is not None else {}
            sa, sb = sa[:used.get("A", 0)], sb[:used.get("B", 0)]
        doc = scenario_data(a, b, self._dice["A"], self._dice["B"], sa, sb if mb is None else None, megabeast=mb,
                            rulings=self.rulings(),
                            title=self.resolution.trace.title if self.resolution is not None else "Face to Face")
        seed = parse_whole(self.seed.value, "seed", 0, 10**9) if self.seed.value.strip().isdigit() else 1
        return {"game": "tagraid", "seed": seed, **doc}

    def url_state(self) -> dict[str, Any]:
        """The state written to the page's link (:mod:`explorer.urlstate`): :meth:`scenario_document`, plus the
        board facts (``board``) when the exchange came from the Line of Fire board."""
        doc = self.scenario_document()
        if self.board_facts:
            doc["board"] = {"facts": list(self.board_facts), "readings": dict(self.board_readings)}
        kept = self._set_aside_fields()
        if kept:
            doc["form"] = kept
        return doc

    def _set_aside(self) -> dict[str, tuple[W.Widget, tuple[str, ...]]]:
        """The inputs the scenario document leaves out because the rules do not read them, by form (``"A"``,
        ``"B"``, ``"MB"``): the weapon fields (:data:`SET_ASIDE_FIELDS`) of a Miner that does not attack (Dodge,
        Evade, no ARO), every field of the Reactive Miner while B is the MegaBeast, and the MegaBeast's fields
        while it is not. Empty while a whole exchange is shown."""
        if self.exchange is not None:
            return {}
        out: dict[str, tuple[W.Widget, tuple[str, ...]]] = {}
        mb = self.megabeast_mode.value
        for form in (self.form_a, self.form_b):
            if form.reactive and mb:
                out[form.key] = (form, SIDE_FIELD_NAMES + ("burst_mod",))
            elif form.skill.value not in ATTACK_SKILLS:
                out[form.key] = (form, tuple(f for f in SET_ASIDE_FIELDS if f != "burst_mod" or form.reactive))
        if not mb:
            out["MB"] = (self.form_mb, MB_FIELD_NAMES)
        return out

    def _set_aside_fields(self) -> dict[str, dict[str, Any]]:
        """The values of :meth:`_set_aside` as typed: the link keeps them, so a reopened page shows them as they
        were when the player switches back (to an attack, to a Miner or to the MegaBeast)."""
        return {key: {f: getattr(form, f).value for f in names} for key, (form, names) in self._set_aside().items()}

    def _restore_set_aside(self, kept: object, apply: bool = True) -> None:
        """Check a link's ``form`` entry (:meth:`_set_aside_fields`) and (``apply``) show its values in the fields
        the scenario document left out (quietly: the resolution does not read them); a field the document set is
        never changed.

        Raises:
            ScenarioError: source ``"link"``: not a table of the forms A, B and MB, an unknown field, a number out
                of the field's bounds (as the field would refuse it), a choice the field does not offer, a
                checkbox that is not true or false.
        """
        forms = {"A": self.form_a, "B": self.form_b, "MB": self.form_mb}
        if not isinstance(kept, dict) or not set(kept) <= set(forms):
            raise ScenarioError("form", "is not a table of the forms A, B and MB", "A, B, MB", "link")
        checked: list[tuple[str, str, Any]] = []
        for key, values in kept.items():
            form = forms[key]
            bounds = _MB_BOUNDS if key == "MB" else _SIDE_BOUNDS
            names = MB_FIELD_NAMES if key == "MB" else SIDE_FIELD_NAMES + (("burst_mod",) if form.reactive else ())
            if not isinstance(values, dict):
                raise ScenarioError(f"form.{key}", "is not a table of fields", ", ".join(names), "link")
            for f, v in values.items():
                where = f"form.{key}.{f}"
                if f not in names:
                    raise ScenarioError(where, "is not a field of this form", ", ".join(names), "link")
                w = getattr(form, f)
                if isinstance(w, W.Checkbox):
                    if not isinstance(v, bool):
                        raise ScenarioError(where, f"{short_repr(v)} is not true or false", "true or false", "link")
                elif isinstance(w, W.Dropdown):
                    if v not in w._options_values:
                        raise ScenarioError(where, f"{short_repr(v)} is not one of its choices",
                                            ", ".join(map(str, w._options_values)), "link")
                else:
                    lo, hi = bounds[f]
                    if not isinstance(v, str) or len(v) > 12:
                        raise ScenarioError(where, f"{short_repr(v)} is not a whole number", f"{lo}..{hi}", "link")
                    parse_whole(v, where, lo, hi, source="link")
                checked.append((key, f, v))
        if not apply:
            return
        open_now = self._set_aside()
        self._busy = True
        try:
            for key, f, v in checked:
                if key in open_now and f in open_now[key][1]:
                    getattr(forms[key], f).value = v
        finally:
            self._busy = False
        self.form_a._apply_skill()
        self.form_b._apply_skill()

    def load_url_state(self, state: dict[str, Any]) -> None:
        """Restore a state read from a link (:meth:`load_document`; source ``"link"``). A ``board`` entry (the
        facts the Line of Fire board decided: :func:`~.board_roll.board_roll`) is shown above the inputs and as the
        first cited steps."""
        state = dict(state)
        board = state.pop("board", None)
        kept = state.pop("form", None)
        if kept is not None:
            self._restore_set_aside(kept, apply=False)   # checked before anything changes: a bad link changes nothing
        self.load_document(state, "link", board_facts=_board_facts_of(board), board_readings=_board_readings_of(board))
        if kept is not None:
            self._restore_set_aside(kept)

    def to_toml(self) -> str:
        """:meth:`scenario_document` as TOML text (the "Download TOML" file)."""
        from explorer.tomlwrite import dumps

        return dumps(self.scenario_document(exact_saves=True),
                     header="TAG Raid roll scenario saved by the Face to Face explorer.\n"
                     "Open it with `explorer resolve FILE` or explorer_for_scenario(FILE) in a notebook.")

    def load_toml(self, text: str, source: str = "uploaded file") -> None:
        """Open scenario TOML text through the loading gate (:func:`explorer.scenario.read_toml`).

        Raises:
            ScenarioError: one line naming ``source``: invalid TOML, an invalid field, or a scenario the explorer
                cannot show (several Reactive Miners or targets). The explorer keeps its state.
        """
        from explorer.scenario import read_toml

        self.load_document(read_toml(source, text=text), source)

    def load_document(self, data: dict[str, Any], source: str,
                      board_facts: Sequence[dict[str, Any]] | None = None,
                      board_readings: dict[str, str] | None = None) -> None:
        """Show a scenario document (parsed TOML, or a link's state): validated as a file is, then every input, die,
        the seed and the readings are set and resolved once.

        A one-on-one exchange opens in the two-Miner form. Any other (several Reactive Miners, a split Burst, a
        Miner and the MegaBeast together, facts the form has no field for: an ARO without LoF, same Hexagon, enemy
        TAGs in contact, Out of Range) is shown as a whole exchange: every Miner, every die on the tray (click one to
        set it), the cited steps.

        Args:
            board_facts: the facts a board decided (:meth:`.board_roll.BoardFact.to_dict`), shown above the inputs
                and as the first cited steps.
            board_readings: the readings the board's measurements used (LoF, Partial Cover, Range), listed with
                the roll's own.

        Raises:
            ScenarioError: naming ``source`` and the field; the explorer keeps its state.
        """
        data = {k: v for k, v in data.items() if k != "kind"} if data.get("kind") == "roll" else data
        sc = get_game("tagraid").parse_data(data, source)
        if sc.kind != "roll":
            raise ScenarioError("kind", "is not a roll exchange", "a roll scenario (no kind, or kind = \"roll\")",
                                source)
        unknown = [k for k in sc.rulings if k not in self.ruling_inputs]
        if unknown:
            raise ScenarioError(f"rulings.{unknown[0]}", "is not a reading this explorer can show",
                                list(self.ruling_inputs), source)
        self.board_facts = list(board_facts or [])
        self.board_readings = dict(board_readings or {}) if self.board_facts else {}
        self._show_board_facts()
        self.note.show(source, sc.title, what="Opened from")
        if fits_form(sc):
            self._set_exchange(None)
            self._apply(inputs_from_scenario(sc))
            return
        doc = {k: v for k, v in data.items() if k not in ("game", "kind")}
        self._busy = True
        try:
            for k, dd in self.ruling_inputs.items():
                dd.value = dict(sc.rulings).get(k, next(o for o in ALL_OPTIONS if o.key == k).default)
            self.seed.value = str(sc.seed or 1)
        finally:
            self._busy = False
        self._set_exchange(doc)
        self.update()

    # ----------------------------------------------------------------- a whole exchange (several Miners)
    def _set_exchange(self, doc: dict[str, Any] | None) -> None:
        self.exchange = doc
        shown = doc is not None
        self.inputs_box.layout.display = "none" if shown else ""
        self.exchange_box.layout.display = "" if shown else "none"
        for w in (self.megabeast_mode, self.contact):
            w.layout.display = "none" if shown else ""
        if not shown:
            self.exchange_html.value = ""
            self.chart.layout.display = ""

    def _leave_exchange(self) -> None:
        """Open the two-Miner form on the exchange's Active Miner and its first Reactive Miner (or the MegaBeast):
        the other Reactive Miners and the facts the form has no field for are left out."""
        if self.exchange is None:
            return
        doc = dict(self.exchange)
        act = dict(doc["active"])
        keep = doc["reactive"][:1] if doc.get("reactive") else []
        target = keep[0]["name"] if keep else (doc["megabeast"]["name"] if doc.get("megabeast") else None)
        if act.get("attacks"):
            at = next((x for x in act["attacks"] if x["target"] == target), act["attacks"][0])
            act["attacks"] = [{k: v for k, v in at.items() if k not in ("out_of_range", "burst", "lof")}]
        doc["active"] = act
        doc["reactive"] = [{k: v for k, v in r.items() if k not in ("lof_to_active", "same_hexagon",
                                                                     "enemy_tags_in_contact", "out_of_range",
                                                                     "target_not_attacked")}
                           for r in keep]
        act.pop("enemy_tags_in_contact", None)
        if keep:
            doc.pop("megabeast", None)
        self.board_facts = []
        self._show_board_facts()
        self.load_document(_without_dice(doc), "the exchange")

    def _update_exchange(self) -> None:
        from .model import parse_scenario
        from .resolve import resolve_detailed

        doc = dict(self.exchange or {})
        rulings = self.rulings()
        sc = parse_scenario({**doc, "rulings": rulings}, "the exchange")
        res = resolve_detailed(sc, None, rulings)  # fixed dice as given, the others from the seed
        # every die now on the tray is fixed in the document, so a click changes one face and nothing else
        self.exchange = doc = _with_dice(doc, res)
        self.resolution, self.inputs, self.trace = res, None, res.trace
        self.message.value = ""
        self.exchange_html.value = exchange_html(doc, res)
        self.summary.value = (f"<div class='xf-sum'>{exchange_headline_html(res)}</div>")
        self._show_steps(res, lambda r: exchange_tray_model(r, doc))
        used = ", ".join(f"<code>{html.escape(k)} = {html.escape(v)}</code>" for k, v in sorted(res.rulings.items()))
        self.ruling_help.value = (f"<div class='xf-label' style='line-height:1.3;white-space:normal'>Readings used by "
                                  f"this roll: {used or 'none'}</div>")
        self.odds = None
        self.odds_summary.value = ("<div class='xf-label' style='white-space:normal'>Exact odds are drawn for a "
                                   "one-on-one exchange (\"Back to the two-Miner form\").</div>")
        self.chart.layout.display = "none"
        self._state_changed()

    def _set_exchange_die(self, die_id: str, face: int) -> None:
        doc = _set_die_in(self.exchange or {}, die_id, face)
        if doc is None:
            self._show_errors([f"There is no die {die_id!r} on the tray"])
            return
        self.exchange = doc
        self.update()

    def _show_board_facts(self) -> None:
        self.board_html.value = board_facts_html(self.board_facts)

    def _with_board_steps(self, trace):
        """``trace`` with the board facts as its first steps (section "From the board")."""
        if not self.board_facts:
            return trace
        from explorer.trace import Trace

        steps = [_fact_step(f) for f in self.board_facts]
        return Trace(trace.title, steps + [s for s in trace.steps if s.section != "From the board"],
                     {**self.board_readings, **trace.rulings}, trace.outcome, trace.result)

    def _apply(self, d: dict[str, Any]) -> None:
        """Set every input from :func:`inputs_from_scenario` output, without intermediate updates, then resolve."""
        a, b, mb = d["a"], d["b"], d["megabeast"]
        self._busy = True
        try:
            self.form_a.set_inputs(a)
            if b is not None:
                self.form_b.set_inputs(b)
            if mb is not None:
                self.form_mb.set_inputs(mb)
            self.names = (a.name, b.name if b is not None else self.names[1])
            self.form_a.set_title(f"A · {a.name} (Active)" if a.name != "A" else "A · Active Miner")
            if b is not None:
                self.form_b.set_title(f"B · {b.name} (Reactive, ARO)" if b.name != "B" else "B · Reactive Miner (ARO)")
            self.megabeast_mode.value = mb is not None
            self.contact.value = bool(mb.silhouette_contact if mb is not None else (b.silhouette_contact if b else False))
            for k, dd in self.ruling_inputs.items():
                opt = next(o for o in ALL_OPTIONS if o.key == k)
                dd.value = d["rulings"].get(k, opt.default)
            self.seed.value = str(d["seed"])
        finally:
            self._busy = False
        self._apply_mode()
        self._reseed(int(d["seed"]))
        for key, given in (("A", d["dice_a"]), ("B", d["dice_b"]), ("SA", d["saves_a"]), ("SB", d["saves_b"])):
            if given is not None:
                self._dice[key] = list(given)
                if key.startswith("S"):
                    self._typed[key] = len(given)
        self._sync_dice_count()
        self.update()

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        f = files[0]
        name = str(f.get("name", "uploaded file"))
        self.file_message.value = ""
        try:
            from explorer.scenario import decode_file_bytes

            text = decode_file_bytes(bytes(f["content"]), name)
            self.load_toml(text, name)
        except ScenarioError as e:
            self.file_message.value = f"<span class='xf-msg-error'>{html.escape(str(e))}</span>"
        except Exception as e:   # a bug in the loader: said beside the control, its traceback logged
            import logging

            from explorer.widgets.files import unexpected_error_text

            logging.getLogger(__name__).exception("opening %s failed", name[:200])
            self.file_message.value = f"<span class='xf-msg-error'>{html.escape(unexpected_error_text(name, e))}</span>"
        else:
            self.file_message.value = f"<span class='xf-msg-ok'>opened {html.escape(name)}</span>"
        finally:
            self._busy = True
            try:
                self.upload.value = ()  # the same file can be chosen again
            finally:
                self._busy = False

    # ----------------------------------------------------------------- static picture
    def snapshot(self) -> FaceToFaceSnapshot:
        """The explorer as it shows now, as a static picture (:class:`FaceToFaceSnapshot`: dice tray, odds bar,
        cited steps) for notebooks saved without a kernel and for docs.

        Raises:
            ScenarioError: nothing has resolved yet.
        """
        if self.resolution is None:
            raise ScenarioError("", "no valid inputs yet", source="widget")
        st = self.tray.state
        return FaceToFaceSnapshot(self._headline(self.resolution), list(st.rows), list(st.links), st.title,
                                  list(getattr(self, "_outcomes", [])), getattr(self, "_odds_line", ""),
                                  self.resolution.trace, self.tray.width)

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, plus a static HTML snapshot (:meth:`snapshot`) that a notebook saved without a kernel,
        nbviewer, GitHub and the docs show instead of a text dump."""
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):  # (data, metadata)
            data = data[0]
        data = dict(data or {})
        try:
            data["text/html"] = self.snapshot().to_html()
        except ScenarioError:
            pass
        data["text/plain"] = f"FaceToFaceExplorer: {self._headline(self.resolution)}" if self.resolution else \
            "FaceToFaceExplorer"
        return data

    # ----------------------------------------------------------------- serving
    def redraw(self) -> None:
        """Redraw every canvas from the current state (call when a browser connects, e.g. ``pn.state.onload``)."""
        self.tray.redraw()
        self.chart.redraw()

    def canvases(self) -> list:
        return [self.tray.canvas, self.chart.canvas]


class FaceToFaceSnapshot:
    """A static picture of the Face to Face explorer: the headline, the dice tray (SVG, the widget's geometry), the
    exact odds bar, and the cited steps. ``to_svg()`` (tray + odds bar), ``to_html()`` (everything),
    ``_repr_html_`` / ``_repr_svg_`` for notebooks.

    Attributes:
        headline: the engine's result in one line. rows / links / title: the tray's content
        (:class:`explorer.widgets.DiceTray`). outcomes: the exact odds (label, p, colour). odds_line: expected
        Wounds (HTML). trace: the cited steps. width: px.
    """

    def __init__(self, headline: str, rows, links, title: str, outcomes, odds_line: str, trace, width: int = 760):
        self.headline, self.rows, self.links, self.title = headline, rows, links, title
        self.outcomes, self.odds_line, self.trace, self.width = outcomes, odds_line, trace, width

    def tray_svg(self) -> str:
        """The dice tray alone (SVG)."""
        from explorer.render.dice_svg import tray_svg

        return tray_svg(self.rows, self.links, self.title.split(" — ")[0], self.width)

    def odds_svg(self) -> str:
        """The exact-odds bar alone (SVG); empty when there are no odds."""
        from explorer.render.dice_svg import outcome_bar_svg

        return outcome_bar_svg(self.outcomes, self.width, "Exact odds of these inputs (every possible roll)") \
            if self.outcomes else ""

    def to_svg(self) -> str:
        """One SVG document: the headline, the tray and the odds bar stacked."""
        import re

        parts = [f"<text x='10' y='18' font-family='sans-serif' font-size='15' font-weight='bold' fill='#212529'>"
                 f"{html.escape(self.headline)}</text>"]
        y = 28
        for svg in (self.tray_svg(), self.odds_svg()):
            if not svg:
                continue
            h = int(re.search(r"height='(\d+)'", svg).group(1))
            parts.append(svg.replace("<svg ", f"<svg x='0' y='{y}' ", 1))
            y += h + 6
        return (f"<svg xmlns='http://www.w3.org/2000/svg' class='explorer-f2f-snapshot' width='{self.width}' "
                f"height='{y}' viewBox='0 0 {self.width} {y}'><rect width='{self.width}' height='{y}' fill='#fff'/>"
                + "".join(parts) + "</svg>")

    def to_html(self) -> str:
        """Headline, tray, odds (bar and text) and the cited steps as one HTML fragment (no script)."""
        odds = " · ".join(f"{html.escape(o.label)} <b>{percent(o.p)}</b>" for o in self.outcomes)
        return (f"<div class='explorer-f2f-snapshot' style='font-family:sans-serif;font-size:13px;max-width:"
                f"{self.width + 20}px'><div style='font-size:15px;margin:4px 0'><b>{html.escape(self.headline)}"
                f"</b></div>{self.tray_svg()}"
                + (f"<div style='margin:6px 0'>Exact odds before rolling: {odds}<br>"
                   f"<span style='color:#495057'>{self.odds_line}</span></div>{self.odds_svg()}" if odds else "")
                + f"{self.trace._repr_html_()}<div style='color:#868e96;font-size:12px'>A static picture of the "
                  f"Face to Face explorer (run the notebook to change the inputs).</div></div>")

    def _repr_html_(self) -> str:
        return self.to_html()

    def _repr_svg_(self) -> str:
        return self.to_svg()


# ---------------------------------------------------------------------------------------------------------------------
# a whole exchange (several Reactive Miners, a split Burst, the MegaBeast beside them): pure helpers


def fits_form(sc) -> bool:
    """Whether the two-Miner form holds every field of roll scenario ``sc`` that matters: one Active Miner against
    one Reactive Miner or the MegaBeast, one attack, and no fact the form has no field for (an ARO without LoF to
    the Active Miner, same Hexagon, enemy TAGs in contact, Out of Range, no LoF to a target, States, Neomaterials, a
    Weapon without the LoF symbol)."""
    act = sc.active
    if len(sc.reactive) > 1 or len(act.attacks) > 1 or (sc.reactive and sc.megabeast is not None):
        return False
    if act.enemy_tags_in_contact or act.states or act.at_activation is not None or act.skill == "idle":
        return False
    if act.attacks and (act.attacks[0].out_of_range or not act.attacks[0].lof or act.attacks[0].damage_mods
                        or (act.attacks[0].burst is not None and act.weapon is not None
                            and act.attacks[0].burst != act.weapon.burst)):
        return False
    for r in sc.reactive:
        if (not r.lof_to_active or r.same_hexagon or r.enemy_tags_in_contact or r.out_of_range or r.states
                or r.skill == "idle" or r.damage_mods or r.target_not_attacked):
            return False
    if sc.megabeast is not None and (not sc.megabeast.aro or sc.megabeast.fury_tokens):
        return False
    # a Weapon that causes a State (States), or a Tool card without the LoF symbol (no LoF Requirement, no Partial
    # Cover: Damage › Partial Cover, ruling partial_cover_glyph): the form has no field for it, the exchange view
    # keeps it (the form used to drop needs_lof, so tr-15 opened with Partial Cover counted)
    if any(m.weapon is not None and (m.weapon.states or not m.weapon.needs_lof) for m in [act, *sc.reactive]):
        return False
    return True


def _without_dice(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with every fixed die removed (they roll again from its seed)."""
    def strip(m: dict) -> dict:
        out = {k: v for k, v in m.items() if k not in ("dice", "save_dice")}
        if "attacks" in out:
            out["attacks"] = [{k: v for k, v in a.items() if k != "dice"} for a in out["attacks"]]
        return out

    out = dict(doc)
    out["active"] = strip(doc["active"])
    if doc.get("reactive"):
        out["reactive"] = [strip(r) for r in doc["reactive"]]
    return out


def saves_used(res: Resolution) -> dict[str, int]:
    """``{Miner letter: Saving Roll dice rolled}`` (``"A"``, ``"B"``, ...; the highest ``.sN`` die index, the dice
    being taken from the front of each list in order)."""
    out: dict[str, int] = {}
    for sr in res.saving_rolls:
        for x in sr.dice:
            letter, _, n = x.id.partition(".s")
            out[letter] = max(out.get(letter, 0), int(n))
    return out


def _with_dice(doc: dict[str, Any], res: Resolution) -> dict[str, Any]:
    """``doc`` with every die ``res`` rolled written in: attack shares by target, AROs and Evades, Saving Rolls per
    Miner in die-id order (pure)."""
    out = dict(doc)
    act = dict(doc["active"])
    pools = res.active.pools
    if act.get("attacks"):
        by_target = {p.target: [d.face for d in p.dice] for p in pools if p.purpose == "attack"}
        act["attacks"] = [a | ({"dice": by_target[a["target"]]} if a["target"] in by_target else {})
                          for a in act["attacks"]]
    elif pools:
        act["dice"] = [d.face for p in pools for d in p.dice]
    saves: dict[str, list[tuple[int, int]]] = {}
    for sr in res.saving_rolls:
        for x in sr.dice:
            letter, _, n = x.id.partition(".s")
            saves.setdefault(letter, []).append((int(n), x.face))
    act.pop("save_dice", None)  # exactly the Saving Roll faces rolled: none left over from an older state
    if "A" in saves:
        act["save_dice"] = [f for _, f in sorted(saves["A"])]
    out["active"] = act
    if doc.get("reactive"):
        reac = []
        for r in doc["reactive"]:
            m = res.miner(r["name"])
            r = dict(r)
            if m.pools:
                r["dice"] = [d.face for d in m.dice]
            r.pop("save_dice", None)
            if m.letter in saves:
                r["save_dice"] = [f for _, f in sorted(saves[m.letter])]
            reac.append(r)
        out["reactive"] = reac
    return out


def _set_die_in(doc: dict[str, Any], die_id: str, face: int) -> dict[str, Any] | None:
    """``doc`` with die ``die_id`` (``"A.3"``: the third of the Active Miner's dice across its attack shares;
    ``"C.1"``; ``"B.s2"``: a Saving Roll die) set to ``face``; ``None`` when the document has no such die."""
    letter, _, rest = die_id.partition(".")
    save = rest.startswith("s")
    try:
        k = int(rest[1:] if save else rest) - 1
    except ValueError:
        return None
    if k < 0:
        return None
    names = [doc["active"]] + list(doc.get("reactive") or [])
    letters = ["A"] + [chr(ord("B") + i) if i < 24 else f"R{i + 1}" for i in range(len(names) - 1)]
    if letter not in letters:
        return None
    i = letters.index(letter)
    m = dict(names[i])
    if save:
        faces = list(m.get("save_dice") or [])
        if k >= len(faces):
            return None
        faces[k] = face
        m["save_dice"] = faces
    elif i == 0 and m.get("attacks"):
        atts = [dict(a) for a in m["attacks"]]
        for a in atts:
            n = len(a.get("dice") or [])
            if k < n:
                a["dice"] = list(a["dice"])
                a["dice"][k] = face
                break
            k -= n
        else:
            return None
        m["attacks"] = atts
    else:
        faces = list(m.get("dice") or [])
        if k >= len(faces):
            return None
        faces[k] = face
        m["dice"] = faces
    out = dict(doc)
    if i == 0:
        out["active"] = m
    else:
        out["reactive"] = list(doc["reactive"])
        out["reactive"][i - 1] = m
    return out


def exchange_tray_model(res: Resolution, doc: dict[str, Any]) -> tuple[list[Row], list[Link]]:
    """The dice tray of a whole exchange: one row per Miner (the Active Miner's attack shares in one row, each die
    captioned with its target), the MegaBeast's Threat Level, and one row of Saving Rolls per Miner that made them
    (pure; the same die ids, cancellations and links as :func:`tray_model`)."""
    states = die_states(res)
    armor = {doc["active"]["name"]: doc["active"].get("armor", 0)}
    armor |= {r["name"]: r.get("armor", 0) for r in doc.get("reactive") or []}
    rows: list[Row] = []
    for m in res.miners.values():
        dice = []
        for p in m.pools:
            for i, d in zip(p.ids, p.dice):
                cap = "Critical" if d.critical else ("fail" if d.kind == "failure" else "")
                if d.effective != d.face:
                    cap = f"= {d.effective}" + (" ★" if d.critical else "")
                if m.role == "active" and p.target and len(doc["active"].get("attacks") or []) > 1:
                    cap = f"→ {p.target}" + (f" {cap}" if cap else "")
                survives, by = states.get(i, (False, ()))
                dice.append(DieView(i, d.face, d.kind, survives, bool(by), cap))
        svs = sorted({p.sv.value for p in m.pools if p.sv is not None})
        sv = "SV " + "/".join(map(str, svs)) if svs else "no roll"
        rows.append(Row(f"{m.letter} · {m.name}", dice, f"{SKILL_NAMES.get(m.skill, m.skill)} · {sv}",
                        f"{plural(len(dice), 'die')} · Wounds {m.wounds_before} · Armor {armor.get(m.name, 0)}", id=m.letter))
    if res.megabeast is not None:
        rows.append(megabeast_row(res.megabeast, states))
    links = cancel_links(states, sorted(states, key=lambda i: (i.startswith("A"), i)))
    for sr in res.saving_rolls:
        if sr.dice:
            target = res.miner(sr.target)
            dice = [DieView(x.id, x.face, "plain", False, False, "Wound" if x.failed else "saved", bad=x.failed)
                    for x in sr.dice]
            rows.append(Row(f"Saves · {target.name}", dice, f"vs {sr.attacker}: fail on {sr.attack_damage.value} "
                            "or less", f"{target.name}: {plural(target.wounds_lost, 'Wound')} lost"))
    return rows, links


def exchange_headline(res: Resolution) -> list[str]:
    """One line per pair of the exchange (who won, or why nobody did), then the Wounds lost."""
    lines = []
    for p in res.pairs:
        who = f"{res.active.name} vs {p.opponent}" if p.opponent else res.active.name
        kind = p.kind.replace("_", " ")
        lines.append(f"{who} ({kind}): " + (f"{p.winner} wins" if p.winner else
                                            ("tie, nothing happens" if p.result == "tie" else "no effect")))
    lost = [f"{m.name} {m.wounds_lost}" for m in res.miners.values() if m.wounds_lost]
    if res.megabeast is not None and res.megabeast.wounds_lost:
        lost.append(f"{res.megabeast.name} {res.megabeast.wounds_lost}")
    lines.append("Wounds lost: " + (", ".join(lost) or "none"))
    from .words import states_text

    states = states_text(res.outcome.states)
    if states is not None:      # the States the attacks caused (States; Order Expenditure Sequence, step 5.3)
        lines[-1] += f"; States gained: {states}"
    return lines


def exchange_headline_html(res: Resolution) -> str:
    lines = exchange_headline(res)
    return ("<b class='f2f-result'>" + html.escape(lines[-1]) + "</b><ul class='f2f-pairs' style='margin:2px 0;"
            "padding-left:18px'>" + "".join(f"<li>{html.escape(x)}</li>" for x in lines[:-1]) + "</ul>")


def exchange_html(doc: dict[str, Any], res: Resolution) -> str:
    """Every Miner of a whole exchange (a table: letter, Miner, Skill, Attribute and MODs, Burst and its split,
    Armor, Wounds, Partial Cover, LoF to the Active Miner, same Hexagon, Silhouette Contact)."""
    act = doc["active"]
    rows = []

    def tick(v) -> str:
        return "yes" if v else "—"

    atts = act.get("attacks") or []
    shares = ", ".join(f"{a.get('burst', (act.get('weapon') or {}).get('burst', 1))} → {html.escape(a['target'])}"
                       + "".join(f" ({v:+d} {html.escape(k)})" for k, v in (a.get("mods") or {}).items())
                       + (" (Out of Range)" if a.get("out_of_range") else "") for a in atts)
    rows.append(("A", act["name"], SKILL_NAMES.get(act["skill"], act["skill"]), act.get("attribute", 0),
                 shares or "—", act.get("armor", 0), act.get("wounds", 3), tick(act.get("partial_cover")), "", "", ""))
    for r in doc.get("reactive") or []:
        m = res.miner(r["name"])
        rows.append((m.letter, r["name"], SKILL_NAMES.get(r["skill"], r["skill"]), r.get("attribute", 0),
                     "ARO" if r["skill"] in ATTACKS else "—", r.get("armor", 0), r.get("wounds", 3),
                     tick(r.get("partial_cover")), tick(r.get("lof_to_active", True)), tick(r.get("same_hexagon")),
                     tick(r.get("silhouette_contact"))))
    if doc.get("megabeast"):
        mb = doc["megabeast"]
        rows.append(("MB", mb["name"], "Behavior ARO" if mb.get("aro", True) else "no ARO",
                     f"Threat Level {mb['threat_level']}", "—", "—", mb["wounds"], "", tick(mb.get("aro", True)), "",
                     tick(mb.get("silhouette_contact"))))
    head = ["", "Miner", "Skill", "Attribute", "Burst", "Armor", "Wounds", "Partial Cover", "LoF to A", "same Hexagon",
            "Silhouette Contact"]
    table = card_table(head, [[html.escape(str(c)) for c in r] for r in rows], table_style="font:12.5px sans-serif;"
                       "border-collapse:collapse", head_style="text-align:left;border-bottom:1px solid #999",
                       row_attrs=[" class='f2f-exchange-row' data-miner='" + html.escape(str(r[1])) + "'"
                                  for r in rows])
    n = len(doc.get("reactive") or [])
    return (f"<div class='xf-label' style='white-space:normal;line-height:1.35'><b>The whole exchange</b>: "
            f"{html.escape(act['name'])} against {plural(n, 'Reactive Miner')}"
            f"{' and the ' + html.escape(doc['megabeast']['name']) if doc.get('megabeast') else ''}. The two-Miner "
            "form cannot hold it: click a die to set it; Download TOML to edit the profiles.</div>"
            "<style>.f2f-exchange td,.f2f-exchange th{padding:1px 7px;border-bottom:1px solid #e9ecef;"
            "vertical-align:top}</style>" + table)


def _board_facts_of(board: Any) -> list[dict[str, Any]]:
    """The board facts of a link's ``board`` entry, checked for shape (a list of small dicts with text fields);
    anything else is dropped: a link is not trusted to carry markup."""
    facts = board.get("facts") if isinstance(board, dict) else None
    if not isinstance(facts, list):
        return []
    out = []
    for f in facts[:200]:
        if isinstance(f, dict) and all(isinstance(f.get(k), str) for k in ("title", "rule", "field")):
            out.append({k: (f.get(k) if isinstance(f.get(k), (str, int, bool, type(None))) else str(f.get(k)))
                        for k in ("miner", "field", "value", "title", "rule", "detail")})
    return out


def _board_readings_of(board: Any) -> dict[str, str]:
    """The readings of a link's ``board`` entry: known ruling options and readings only (anything else dropped)."""
    raw = board.get("readings") if isinstance(board, dict) else None
    if not isinstance(raw, dict):
        return {}
    known = {o.key: o.readings for o in ALL_OPTIONS}
    return {k: v for k, v in raw.items() if k in known and v in known[k]}


def _fact_step(f: dict[str, Any]):
    from explorer.trace import RuleRef, Step

    game, _, section = str(f.get("rule", "")).partition(": ")
    return Step(str(f.get("title", "")), RuleRef(game, section), str(f.get("detail") or ""),
                {"field": f.get("field"), "value": f.get("value"), "from_board": True}, (), "From the board")


def board_facts_html(facts: Sequence[dict[str, Any]]) -> str:
    """The facts a board decided, each with its section (empty string when there are none)."""
    if not facts:
        return ""
    items = "".join(f"<li class='f2f-board-fact' data-field='{html.escape(str(f.get('field', '')))}'>"
                    f"{html.escape(str(f.get('title', '')))} <span style='color:#868e96'>— "
                    f"{html.escape(str(f.get('rule', '')))}</span></li>" for f in facts)
    # a long list starts folded so the exchange and the dice stay in view; its summary says how many facts
    return (f"<details {'open ' if len(facts) <= 12 else ''}class='f2f-board' style='font:13px sans-serif;border:1px solid #74c0fc;background:#f1f8ff;"
            "padding:4px 10px;border-radius:4px;margin:4px 0'><summary><b>From the board</b> — these facts were "
            f"measured on the Line of Fire table ({len(facts)}; they are also the first cited steps); the rest are "
            "inputs</summary>"
            f"<ul style='margin:4px 0;padding-left:18px;columns:2 420px'>{items}</ul></details>")


def _die_slot(die_id: str) -> tuple[str, int]:
    """``"A.2"`` -> ``("A", 1)``; ``"B.s3"`` (a Saving Roll die) -> ``("SB", 2)``; anything else -> ``("", -1)``."""
    side, _, rest = die_id.partition(".")
    if rest.startswith("s") and rest[1:].isdigit():
        return "S" + side, int(rest[1:]) - 1
    if rest.isdigit():
        return side, int(rest) - 1
    return "", -1


def die_states(res: Resolution) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """``{die id: (survives, ids of the dice that cancel it)}`` for every compared die, read from the engine's
    :class:`~explorer.games.tagraid.resolve.Pair` comparisons (pure)."""
    out: dict[str, tuple[bool, tuple[str, ...]]] = {}
    for pair in res.pairs:
        cmp = pair.comparison
        if cmp is None:
            continue
        for pool, survives, by, other in ((pair.a, cmp.a_survives, cmp.a_cancelled_by, pair.b),
                                          (pair.b, cmp.b_survives, cmp.b_cancelled_by, pair.a)):
            if pool is None:
                continue
            for i, die_id in enumerate(pool.ids):
                out[die_id] = (survives[i], tuple(other.ids[j] for j in by[i]) if other is not None else ())
    return out


def megabeast_row(beast, states: dict[str, tuple[bool, tuple[str, ...]]]) -> Row:
    """The MegaBeast's tray row: its Threat Level as a token die "MB" (section MegaBeast › Threat Level), cancelled
    or not as ``states`` (from :func:`die_states`) says."""
    _, by = states.get("MB", (False, ()))
    return Row(beast.name, [DieView("MB", beast.threat_level, "success", beast.prevailed, bool(by), "Threat Level",
                                    token=True)],
               f"Threat Level {beast.threat_level}", f"{plural(beast.wounds_before, 'Wound')} left")


def cancel_links(states: dict[str, tuple[bool, tuple[str, ...]]], order: Sequence[str]) -> list[Link]:
    """One tray :class:`Link` per pair of dice where one cancels the other (Face to Face Rolls, section Face to Face
    Rolls), taken in ``order`` of the cancelled die; ``mutual`` when each cancels the other. ``states`` as from
    :func:`die_states`."""
    links: list[Link] = []
    seen: set[frozenset[str]] = set()
    for dst in order:
        for src in states[dst][1]:
            key = frozenset((src, dst))
            if key not in seen:
                seen.add(key)
                links.append(Link(src, dst, mutual=dst in states.get(src, (False, ()))[1]))
    return links


def tray_model(res: Resolution, a: SideInputs, b: SideInputs | None = None,
               megabeast: MegaBeastInputs | None = None) -> tuple[list[Row], list[Link]]:
    """Rows and cancellation links of the dice tray, drawn from the engine's
    :class:`~explorer.games.tagraid.resolve.Resolution` (pure; used by the widget and tests).

    Every die is a pool die of the Resolution (same id, face, kind); survives / cancelled and the links are its
    pair's :class:`~explorer.games.tagraid.rolls.Comparison` (``src`` cancels ``dst``; ``mutual`` when both cancel
    each other); Saving Roll rows are its :class:`~explorer.games.tagraid.resolve.SavingRolls`. ``a`` / ``b`` /
    ``megabeast`` only give labels (names, Armor).
    """
    rows: list[Row] = []
    states = die_states(res)

    def die_view(die_id: str, d) -> DieView:
        cap = "Critical" if d.critical else ("fail" if d.kind == "failure" else "")
        if d.effective != d.face:
            cap = f"= {d.effective}" + (" ★" if d.critical else "")
        survives, by = states.get(die_id, (False, ()))
        return DieView(die_id, d.face, d.kind, survives, bool(by), cap)

    def miner_row(m: MinerResult, inputs: SideInputs) -> Row:
        dice = [die_view(i, d) for p in m.pools for i, d in zip(p.ids, p.dice)]
        sv = f"SV {m.sv.value}" if m.sv is not None else "no roll"
        return Row(f"{m.letter} · {m.name}", dice, f"{SKILL_NAMES.get(m.skill, m.skill)} · {sv}",
                   f"{plural(len(dice), 'die')} · Wounds {m.wounds_before} · Armor {inputs.armor}", id=m.letter)

    rows.append(miner_row(res.active, a))
    if res.megabeast is not None:
        rows.append(megabeast_row(res.megabeast, states))
    elif b is not None:
        rows.append(miner_row(res.miner(b.name), b))
    links = cancel_links(states, sorted(states, key=lambda i: (not i.startswith("B"), i)))  # B's dice first
    for s in res.saving_rolls:
        if s.dice:
            target = res.miner(s.target)
            dice = [DieView(x.id, x.face, "plain", False, False, "Wound" if x.failed else "saved", bad=x.failed)
                    for x in s.dice]
            rows.append(Row("Saving Rolls", dice, f"fail on {s.attack_damage.value} or less",
                            f"{target.name}: {plural(target.wounds_lost, 'Wound')} lost"))
    return rows, links


def explorer_widget(**kwargs) -> FaceToFaceExplorer:
    """Build the Face to Face explorer (same arguments as :class:`FaceToFaceExplorer`)."""
    return FaceToFaceExplorer(**kwargs)


# ---------------------------------------------------------------------------------------------------------------------
# engine scenarios -> explorer inputs (explorer inputs -> engine scenario: exchange.scenario_data)


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
    from .model import attack_burst

    act = sc.active
    at = act.attacks[0] if act.attacks else None
    a = SideInputs(act.name, act.skill if act.skill in SKILLS_ACTIVE else "evade", act.attribute,
                   _split_mods(dict(act.mods) | (dict(at.mods) if at else {})),
                   attack_burst(act) if at else (act.weapon.burst if act.weapon else 1),  # A's Burst MOD folded in
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
                                           beh.ammunition if beh else "N", m.silhouette_contact)
    if sc.reactive:
        r = sc.reactive[0]
        skill = r.skill if r.skill in SKILLS_REACTIVE else "none"
        out["b"] = SideInputs(r.name, skill, r.attribute, _split_mods(dict(r.mods)), r.weapon.burst if r.weapon else 1,
                              r.weapon.damage if r.weapon else 0, r.weapon.ammunition if r.weapon else "N", r.armor,
                              r.wounds, r.partial_cover, bool(r.weapon and "Armor = 0" in r.weapon.traits),
                              "Ranged Attack -3" in r.traits, r.silhouette_contact, burst_mod=r.burst_mod)
        out["dice_b"], out["saves_b"] = r.dice, r.save_dice
    return out


def explorer_for_scenario(name_or_path: str | None = None, game: Game | None = None,
                          **overrides) -> FaceToFaceExplorer:
    """A :class:`FaceToFaceExplorer` opened on an engine scenario (default: the built-in default scenario). ``game``:
    the page's :class:`~explorer.games.Game` (passed by ``Page.open``; default: the registry's TAG Raid).

    Raises:
        ScenarioError: unknown scenario or invalid file (from :func:`~explorer.games.tagraid.scenarios.load_scenario`).
    """
    from .scenarios import DEFAULT_SCENARIO, load_scenario

    game = game if game is not None else get_game("tagraid")
    name = str(name_or_path or DEFAULT_SCENARIO)
    sc = load_scenario(name)
    d = inputs_from_scenario(sc)
    kw = dict(a=d["a"], b=d["b"], dice_a=d["dice_a"], dice_b=d["dice_b"], saves_a=d["saves_a"],
              saves_b=d["saves_b"], seed=d["seed"], rulings=d["rulings"], megabeast=d["megabeast"])
    kw.update(overrides)
    w = FaceToFaceExplorer(**kw)
    builtin = name in game.builtin_names()
    if not fits_form(sc) and not overrides:   # facts the form has no field for: the exchange view keeps them all
        from explorer.games import read_toml

        w.load_document(read_toml(name, text=game.scenario_text(name)) if builtin else read_toml(name), name)
    if builtin:      # the page says which scenario it opened, with its verdict
        try:
            state = w.url_state()
        except ScenarioError:
            state = None
        w.note.show(name, *game.builtin_verdict(name), state=state)
    else:
        w.note.show(name, d["title"], what="Opened from")
    return w
