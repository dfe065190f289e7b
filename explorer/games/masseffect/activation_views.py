"""Mass Effect enemy-activation stepper: a Hazard card resolved one cited step at a time on the mission map.

Rulebook sections shown (each step cites its own): Playing a Mission › Step C: Hazard Card (activation order, Invalid
Activations), Attacking (potential targets, fewest Hit Points, Squadmate Damage), Advancing (the Rush Tag), Spawning
Minions; Basic Actions › Move; Additional Enemy Rules › Opportunity Attacks, Stunning Enemies; Map Features ›
Inferno Icons, Coolant Leaks.

The page plays a built-in ``activation`` scenario (:func:`activation_scenarios`) on the kernel with
:func:`~explorer.games.masseffect.activation.play_activation` and draws each step from the typed
:class:`~explorer.games.masseffect.activation.Scene` the step functions left in the last frame's board (never from
the steps' facts); for the focused step of the trace it shows:

* activation order: each Enemy's distance to the current Squadmate and its place in the order;
* an Enemy Activating: every Squadmate as a candidate target (adjacent / in Line of Fire with the Ranged Tag / not),
  drawn as lines on the board, then the target with the fewest Hit Points and how a tie was broken;
* an Advance: every reachable end hex tinted kept (green) or dropped (red) with its Movement Point cost, and a table of
  the rule that keeps or drops each hex; then the chosen hex and the path drawn;
* a Spawn: the distance of each Spawn hex and the one chosen.

Ruling options re-run the resolution; the player's choices the rules leave open (:class:`~.activation.Choices`: ties in
activation order, tied targets, several kept end hexes, tied Spawn hexes) are dropdowns, and clicking a kept end hex
on the board while an Advance step is focused chooses it.

``activation_page(scenario_id=DEFAULT_SCENARIO) -> (widget, redraw)``: the Panel app shows ``widget`` and calls
``redraw()`` on load. Rules modules never import this module.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as W

from explorer.errors import ScenarioError, short_repr
from explorer.widgets.picker_url import LINK_SOURCE, keep_in_url

from explorer.widgets.icons import accordion

from explorer.hexgrid import Hex
from explorer.games import Game, get_game
from explorer.render.svg import Circle, HexMark, Label, Overlay, Segment
from explorer.scenario import read_toml
from explorer.trace import Step, Trace
from explorer.widgets import Piece
from explorer.widgets.scenario_stepper import ScenarioStepperView, detail_table

from . import options as opts
from explorer.kernel import Frame

from .activation import (AdvanceFocus, OrderFocus, PathFocus, Scene, SpawnFocus, TargetFocus, TargetsFocus,
                         parse_activation, play_activation)
from .map import MissionMap, load_map, map_from_dict
from .map_svg import ENEMY_FILL, SQUADMATE_FILL, icon_overlays, layout, to_board


def _game(game: Game | None = None) -> Game:
    """The game of this page: the one the app passes in (:attr:`explorer.games.Page.build`), else the registry's (a
    widget module never imports its game module: docs/design.md, "Layers")."""
    return game if game is not None else get_game("masseffect")


DEFAULT_SCENARIO = _game().page_default("enemy-activation")
"""The scenario the page opens on (the registry's rule, :attr:`explorer.games.Page.default`)."""
ACTIVATION_RULINGS = ("fewest_hit_points", "downed_squadmates", "invalid_activation_timing", "distance_elevation",
                      "lof_own_hex_locked_door", "lof_out_of_bounds", "lof_intervening_elevation")
"""Ruling options an activation consults (its own and the map readings of distances and Line of Fire)."""

KEPT_FILL, DROPPED_FILL, PATH_STROKE = "#2b8a3e", "#e03131", "#1c7ed6"
LINK_CHOICE_KINDS = ("activation_order", "attack_target", "spawn_hex", "advance_to")
"""The kinds of players' choice the page offers and a link may carry (:class:`~.activation.Choices`)."""
MAX_LINK_CHOICES = 40
"""The most entries one kind of choice may have in a link."""
MAX_NAME_CHARS = 60
"""The longest Enemy, Squadmate or hex name a link's choice may hold."""

DEFAULT = "(scenario / rule default)"
"""Choice dropdown entry: no choice of yours (the scenario's [choices] table, else the documented default)."""


def activation_scenarios(game: Game | None = None) -> list[str]:
    """Ids of the built-in scenarios of kind ``activation`` (``me-03``, ``me-06``, ``me-07``, ...), sorted."""
    return [s.name for s in _game(game).scenarios() if s.kind == "activation"]


def scenario_data(scenario_id: str, game: Game | None = None) -> dict[str, Any]:
    """The TOML document of a built-in scenario (a plain dict).

    Raises:
        ScenarioError: unknown id (lists the built-in ids).
    """
    return read_toml(f"{scenario_id} (built-in)", text=_game(game).scenario_text(scenario_id))


def scenario_map(data: Mapping[str, Any], source: str = "scenario") -> MissionMap:
    """The mission map of an activation scenario document (built-in name or inline ``[map]`` table)."""
    spec = data["map"]
    return load_map(spec) if isinstance(spec, str) else map_from_dict(spec, source)


def _hex(text: str) -> Hex:
    q, r = (int(v) for v in str(text).split(","))
    return Hex(q, r)


# --- per-step pictures, drawn from the kernel frame's typed state ------------------------------------------------


@dataclass(frozen=True)
class StepPicture:
    """What the board shows at one step, drawn from that step's :class:`~.activation.Scene` (the typed state the
    kernel frame carries, never the step's facts): ``positions`` ``{name: (hex, side)}`` after the step, the
    ``overlays`` of the step, ``detail`` (HTML: the candidates table of the step), the ``kept`` end hexes of an
    Advance and its ``enemy`` (a click on a kept hex chooses it)."""

    positions: Mapping[str, tuple[Hex, str]]
    overlays: tuple[Overlay, ...] = ()
    detail: str = ""
    kept: tuple[Hex, ...] = field(default=())
    enemy: str | None = None


def start_positions(data: Mapping[str, Any]) -> dict[str, tuple[Hex, str]]:
    """``{name: (hex, side)}`` of the scenario's Squadmates and Enemies before anything is resolved."""
    out = {s["name"]: (_hex(s["position"]), "squadmate") for s in data.get("squadmates", []) if s.get("position")}
    out.update({e["name"]: (_hex(e["position"]), "enemy") for e in data.get("enemies", []) if e.get("position")})
    return out


def _table(head: list[str], rows: list[list[str]], colours: list[str] | None = None) -> str:
    return detail_table(head, rows, colours, "me-act-table")


def _dist(d: int | None) -> str:
    return "no route" if d is None else str(d)


def picture(scene: Scene, step: Step, px: Callable[[Hex], tuple[float, float]], m: MissionMap) -> StepPicture:
    """The board at one step: the characters where ``scene`` has them, and the overlays and table of what the step
    looks at (``scene.focus``); whatever the step names (``step.marks``) is ringed."""
    pos = {name: (h, side) for name, h, side in scene.positions}
    f = scene.focus
    ov: list[Overlay] = []
    detail, kept, enemy = "", (), None
    if isinstance(f, OrderFocus):                              # activation order
        rows = []
        for i, (n, d) in enumerate(zip(f.order, f.distances), 1):
            rows.append([str(i), n, _dist(d)])
            if n in pos:
                x, y = px(pos[n][0])
                ov.append(Label((x, y - 0.62), f"#{i} ({'-' if d is None else d})", size=11, fill="#862e9c",
                                weight="bold"))
        detail = _table(["#", "Enemy", "hexes to the current Squadmate"], rows)
    elif isinstance(f, TargetsFocus):                          # an Enemy Activates: every Squadmate as a target
        enemy, e = f.enemy, pos.get(f.enemy)
        rows, cols = [], []
        for v in f.verdicts:
            rows.append([v.name, "yes" if v.potential else "no", v.reason])
            cols.append("#ebfbee" if v.potential else "#fff5f5")
            if e and v.name in pos:
                ov.append(Segment(px(e[0]), px(pos[v.name][0]), stroke=KEPT_FILL if v.potential else "#adb5bd",
                                  width=3.0 if v.potential else 1.5, dash=None if v.potential else "5 4"))
        detail = _table(["Squadmate", "potential target", "why"], rows, cols)
    elif isinstance(f, TargetFocus):                           # target chosen: fewest Hit Points
        enemy = f.enemy
        rows, cols = [], []
        for v in f.verdicts:
            if not v.potential:
                continue
            chosen = v.name == f.target
            rows.append([v.name, v.value, "tied (lowest)" if v.kept and len(f.tied) > 1 else
                         ("lowest" if v.kept else "higher"), "TARGET" if chosen else ""])
            cols.append("#d3f9d8" if chosen else ("#fff9db" if v.kept else "#fff5f5"))
        detail = _table(["potential target", f.measure, "", ""], rows, cols)
    elif isinstance(f, AdvanceFocus):                          # every reachable end hex kept or dropped
        enemy = f.enemy
        rows, cols = [], []
        for v in sorted(f.verdicts, key=lambda v: (not v.kept, v.cost, str(v.hex))):
            ov.append(HexMark(v.hex, stroke="none", width=0, fill=KEPT_FILL if v.kept else DROPPED_FILL,
                              opacity=0.5 if v.kept else 0.22))
            x, y = px(v.hex)
            ov.append(Label((x, y + 0.55), f"{v.cost} MP", size=9, fill="#212529"))
            rows.append([str(v.hex), v.cost, v.infernos, "kept" if v.kept else "dropped", v.rule, v.why])
            cols.append("#ebfbee" if v.kept else "#fff5f5")
        kept = tuple(v.hex for v in sorted(f.verdicts, key=lambda v: (not v.kept, v.cost, str(v.hex))) if v.kept)
        ov += [HexMark(h, stroke=KEPT_FILL, width=3.0) for h in kept]
        detail = (f"<div style='font-family:sans-serif;font-size:12px'>Instruction {f.instruction} of 3; "
                  f"nearest {'Squadmate' if len(f.nearest) == 1 else 'Squadmates'}: "
                  f"{html.escape(', '.join(f.nearest) or 'none')} ({f.nearest_distance} hexes). "
                  + ("<b>Several hexes are kept: click one on the board (or use the choice below) to choose.</b>"
                     if len(kept) > 1 else "") + "</div>"
                  + _table(["end hex", "MP", "Inferno", "", "rule", "why"], rows, cols))
    elif isinstance(f, PathFocus):                             # a move: an Enemy's Advance or a Squadmate's Move
        pts = [px(h) for h in f.path]
        ov += [Segment(a, b, stroke=PATH_STROKE, width=4.0) for a, b in zip(pts, pts[1:])]
        ov += [Circle(p, 0.12, fill=PATH_STROKE, stroke="#ffffff", width=1.0) for p in pts[1:]]
        if f.how:
            detail = (f"<div style='font-family:sans-serif;font-size:12px'>Path "
                      f"{html.escape(' → '.join(map(str, f.path)))}; chosen by: {html.escape(f.how)}</div>")
    elif isinstance(f, SpawnFocus):                            # a Minion is Spawned
        rows = []
        for h, d in f.distances:
            x, y = px(h)
            ov.append(Label((x, y + 0.55), f"{d} hexes", size=9, fill="#212529", weight="bold"))
            rows.append([str(h), _dist(d), "chosen" if h == f.hex else ("tied" if h in f.tied else "")])
        for h, who in f.occupied:
            rows.append([str(h), "-", f"occupied by {who}"])
        ov.append(HexMark(f.hex, stroke=KEPT_FILL, width=4.0))
        detail = _table(["Spawn hex", "distance", ""], rows)
    for mk in step.marks:                                      # everything the step talks about, ringed
        if mk in pos:
            ov.append(Circle(px(pos[mk][0]), 0.62, stroke="#f59f00", width=3.0))
        elif not isinstance(f, (AdvanceFocus, PathFocus)):
            try:
                h = _hex(mk)
            except ValueError:
                continue
            if h in m:
                ov.append(HexMark(h, stroke="#f59f00", width=3.0))
    return StepPicture(pos, tuple(ov), detail, kept if isinstance(f, AdvanceFocus) else (), enemy)


def frames(played: Sequence[Frame], trace: Trace, m: MissionMap) -> list[StepPicture]:
    """One :class:`StepPicture` per step of ``trace``, drawn from the kernel frames ``played``
    (:func:`~.activation.play_activation`): the last frame's board holds one :class:`~.activation.Scene` per step."""
    px = layout(m).hex_to_pixel
    scenes = played[-1].state.scenes if played else ()
    return [picture(sc, st, px, m) for sc, st in zip(scenes, trace.steps)]


# --- the widget ---------------------------------------------------------------------------------------------------


class ActivationStepper(ScenarioStepperView):
    """Scenario picker, ruling dropdowns, the player's choices, the mission map and the trace stepper.

    Attributes:
        data: the scenario document being shown (dict); ``trace``: its last resolution; ``frames``: one per step;
        choices: the player's choices applied on top of the scenario's own ``[choices]`` table (same shape).
    """

    def __init__(self, scenario_id: str = DEFAULT_SCENARIO, scale: float = 30.0, game: Game | None = None):
        self.game = _game(game)
        self.scale = scale
        self.choices: dict[str, Any] = {}
        self.played: tuple[Frame, ...] = ()
        self.choices_box = W.VBox()
        self._build_parts(activation_scenarios(self.game), scenario_id, opts.rulings().options, ACTIVATION_RULINGS, "200px",
                          "400px", "me-activation-stepper")
        rulings = accordion([W.VBox(list(self.rulings_box.values()))], titles=("Ruling options",),
                              layout=W.Layout(max_width="640px"))
        main = self._board_and_side([self.about, rulings, W.HTML("<b style='font-family:sans-serif'>Your choices</b>"),
                                     self.choices_box, self.message, self.stepper, self.outcome])
        super().__init__([self.picker, self.note, main])
        self.add_class("me-activation")
        self.load(scenario_id)
        # the picked scenario, the readings, your choices and the focused step in the page's link
        keep_in_url(self, self.picker, rulings=lambda: self.rulings_box,
                    extra={"choices": (self._link_choices_value, self._link_choices),
                           "step": (lambda: self.stepper.index, self._link_step)})
        self.stepper.on_step(lambda _step: self.url_state_changed())

    # -- loading and resolving -------------------------------------------------------------------------------------
    def load(self, scenario_id: str) -> None:
        """Show built-in scenario ``scenario_id`` (its choices reset, rulings kept)."""
        self.data = scenario_data(scenario_id, self.game)
        self.map = scenario_map(self.data, scenario_id)
        self.choices = {}
        self.note.show(scenario_id, *self.game.builtin_verdict(scenario_id), state=self._note_state())
        self._show_about(self.data["title"], self.data.get("description", ""))
        self._new_board(to_board(self.map), self.scale)
        self.board.on_select(self._clicked)
        self.board_box.children = [self.board, W.HTML(_LEGEND)]
        self.run(keep_step=False)
        self.board.redraw()

    def document(self) -> dict[str, Any]:
        """The scenario document with the current choices merged over its own ``[choices]`` table."""
        d = dict(self.data)
        ch = dict(d.get("choices", {}))
        for k, v in self.choices.items():
            if k == "advance_to":
                ch["advance_to"] = {**ch.get("advance_to", {}), **v}
            else:
                ch[k] = list(v) + [x for x in ch.get(k, []) if x not in v]
        d["choices"] = ch
        return d

    def run(self, keep_step: bool = True) -> None:
        """Resolve the scenario with the current rulings and choices; keep the focused step if asked. Never raises."""
        def resolve() -> Trace:
            sc = parse_activation({"game": "masseffect", **self.document()}, self.picker.value)
            self.played, trace = play_activation(sc, rulings=self.rulings())
            return trace

        def shown(trace: Trace) -> None:
            self.frames = frames(self.played, trace, self.map)
            self._build_choices()
            self._show_outcome()

        self._resolve_and_show(resolve, shown, keep_step)

    # -- choices -------------------------------------------------------------------------------------------------
    def open_choices(self) -> list[tuple[str, str, list[str]]]:
        """Where the current trace leaves the player a choice: ``[(choice key, label, options)]``; ``choice key`` is
        ``activation_order``, ``attack_target``, ``spawn_hex`` or ``advance_to:<Enemy>``."""
        out: list[tuple[str, str, list[str]]] = []
        scenes = self.played[-1].state.scenes if self.trace and self.played else ()
        for f in (sc.focus for sc in scenes):
            if isinstance(f, OrderFocus):
                for group in f.ties:
                    out.append(("activation_order", f"First of {', '.join(group)}", list(group)))
            elif isinstance(f, TargetFocus) and len(f.tied) > 1:
                out.append(("attack_target", f"Target among {', '.join(f.tied)}", list(f.tied)))
            elif isinstance(f, AdvanceFocus):
                kept = [str(v.hex) for v in f.verdicts if v.kept]
                if len(kept) > 1:
                    out.append((f"advance_to:{f.enemy}", f"{f.enemy} ends at", kept))
            elif isinstance(f, SpawnFocus) and len(f.tied) > 1:
                out.append(("spawn_hex", f"{f.spawned} spawns at", [str(h) for h in f.tied]))
        return out

    def choose(self, key: str, value: str | None) -> None:
        """Set one choice (``value`` None: back to the documented default) and re-run."""
        if key.startswith("advance_to:"):
            enemy = key.split(":", 1)[1]
            adv = dict(self.choices.get("advance_to", {}))
            if value is None:
                adv.pop(enemy, None)
            else:
                adv[enemy] = value
            self.choices["advance_to"] = adv
        elif value is None:
            self.choices.pop(key, None)
        else:
            self.choices[key] = [value]
        self.run()
        self.url_state_changed()

    # -- the page's link (explorer.widgets.picker_url.keep_in_url) ------------------------------------------------
    def _link_choices_value(self) -> dict[str, Any]:
        return {k: (dict(v) if k == "advance_to" else list(v)) for k, v in self.choices.items() if v}

    def _link_choices(self, value: object) -> None:
        """Set your choices from a link: checked for shape and bounds, played, then each checked against the ties
        of the playthrough (a choice no tie offers is refused).

        Raises:
            ScenarioError: source ``"link"``, naming the field (``choices.<kind>``, ``choices.advance_to.<Enemy>``).
        """
        if not isinstance(value, dict):
            raise ScenarioError("choices", "is not a table of choices", ", ".join(LINK_CHOICE_KINDS), LINK_SOURCE)
        mine: dict[str, Any] = {}
        for kind, v in value.items():
            where = f"choices.{kind}"
            if kind not in LINK_CHOICE_KINDS:
                raise ScenarioError(where, "is not a kind of choice", ", ".join(LINK_CHOICE_KINDS), LINK_SOURCE)
            items = list(v.items()) if kind == "advance_to" and isinstance(v, dict) else v
            if not isinstance(items, list) or not 0 < len(items) <= MAX_LINK_CHOICES or (
                    kind == "advance_to" and not isinstance(v, dict)):
                raise ScenarioError(where, "is not a list (a table for advance_to) of choices",
                                    f"1 to {MAX_LINK_CHOICES} entries", LINK_SOURCE)
            texts = [t for kv in items for t in kv] if kind == "advance_to" else items
            if not all(isinstance(t, str) and 0 < len(t) <= MAX_NAME_CHARS for t in texts):
                raise ScenarioError(where, "holds something that is not a name or hex",
                                    f"names of 1 to {MAX_NAME_CHARS} characters", LINK_SOURCE)
            mine[kind] = dict(items) if kind == "advance_to" else list(items)
        self.choices = mine
        self.run()
        offered: dict[str, list[str]] = {}
        for key, _label, options in self.open_choices():
            offered.setdefault(key, []).extend(options)
        for kind, v in mine.items():
            pairs = [(f"advance_to:{enemy}", f"choices.advance_to.{enemy}", hx) for enemy, hx in v.items()] \
                if kind == "advance_to" else [(kind, f"choices.{kind}", v[0])]
            for key, where, chosen in pairs:
                if chosen not in offered.get(key, []):
                    raise ScenarioError(where, f"{short_repr(chosen)} is not an option of a tie in this "
                                        "playthrough", offered.get(key) or "none", LINK_SOURCE)

    def _link_step(self, value: object) -> None:
        n = len(self.trace.steps) if self.trace is not None else 0
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n):
            raise ScenarioError("step", f"{short_repr(value)} is not a step of this playthrough",
                                f"null or a whole number from 0 to {n - 1}", LINK_SOURCE)
        self.stepper.select(value)

    def _current_choice(self, key: str) -> str | None:
        if key.startswith("advance_to:"):
            return self.choices.get("advance_to", {}).get(key.split(":", 1)[1])
        v = self.choices.get(key)
        return v[0] if v else None

    def _build_choices(self) -> None:
        rows = []
        for key, label, options in self.open_choices():
            cur = self._current_choice(key)
            dd = W.Dropdown(options=[DEFAULT] + options, value=cur if cur in options else DEFAULT,
                            description=label, style={"description_width": "160px"}, layout=W.Layout(width="400px"))
            dd.observe(lambda c, k=key: self.choose(k, None if c["new"] == DEFAULT else c["new"]), names="value")
            rows.append(dd)
        if not rows:
            rows = [W.HTML("<i style='font-family:sans-serif;font-size:12px;color:#868e96'>No ties here: the rules "
                           "decide every step.</i>")]
        self.choices_box.children = rows

    def _clicked(self, sel) -> None:
        """A click on the board: a kept end hex of the focused Advance step becomes the player's choice."""
        i = self.stepper.index
        if i is None or not isinstance(sel, Hex):
            return
        fr = self.frames[i]
        if fr.enemy and sel in fr.kept and len(fr.kept) > 1:
            self.choose(f"advance_to:{fr.enemy}", str(sel))

    # -- drawing -------------------------------------------------------------------------------------------------
    def _pieces(self, positions: Mapping[str, tuple[Hex, str]]) -> list[Piece]:
        lay = layout(self.map)
        return [Piece(n, lay.hex_to_pixel(h), 0.42, fill=SQUADMATE_FILL if side == "squadmate" else ENEMY_FILL,
                      label=_short(n)) for n, (h, side) in positions.items()]

    def _show_step(self, step: Step | None) -> None:
        if self.board is None:
            return
        i = self.stepper.index
        base = icon_overlays(self.map)
        if step is None or i is None:
            pos = start_positions(self.data)
            self.board.set_pieces(self._pieces(pos))
            self.board.overlays = base
            self.detail.value = ("<i style='font-family:sans-serif;font-size:12px'>Press Next ▶ to step through the "
                                 "activation: the board shows the focused step.</i>")
            return
        fr = self.frames[i]
        self.board.set_pieces(self._pieces(fr.positions))
        self.board.overlays = base + list(fr.overlays)
        self.detail.value = fr.detail

    def _show_outcome(self) -> None:
        o = self.trace.result
        sq = "; ".join(f"{v.name} on {v.hex}: {v.shield_points} Shield, {v.hit_points} Hit Points"
                       + (" (Downed)" if v.downed else "") for v in o.squadmates)
        en = "; ".join(f"{v.name} on {v.hex}" + (f", {v.damage} Damage" if v.damage else "")
                       + (" (Stunned)" if v.stunned else "") for v in o.enemies)
        self.outcome.value = (f"<div class='me-act-outcome' style='font-family:sans-serif;font-size:12px;"
                              f"border-top:1px solid #dee2e6;margin-top:4px;padding-top:4px'><b>After the card</b>: "
                              f"{html.escape(sq)}.<br>{html.escape(en)}."
                              + (" <b>Mission failed.</b>" if o.mission_failed else "")
                              + (f"<br>Rejected: {html.escape(o.rejected)}" if o.rejected else "") + "</div>")

    def redraw(self) -> None:
        """Full redraw (call when a browser connects: ``pn.state.onload``)."""
        if self.board is not None:
            self.board.redraw()


def _short(name: str) -> str:
    parts = name.split()
    return parts[0][:2] + (parts[-1][:1] if len(parts) > 1 and parts[-1].isdigit() else "")


_LEGEND = ("<div class='me-act-legend' style='font-family:sans-serif;font-size:11px;color:#495057;max-width:420px'>"
           f"<span style='color:{SQUADMATE_FILL}'>●</span> Squadmate &nbsp;"
           f"<span style='color:{ENEMY_FILL}'>●</span> "
           f"Enemy &nbsp;<span style='background:{KEPT_FILL};opacity:.6'>&nbsp;&nbsp;&nbsp;</span> kept end hex "
           f"&nbsp;<span style='background:{DROPPED_FILL};opacity:.35'>&nbsp;&nbsp;&nbsp;</span> dropped end hex "
           f"&nbsp;<span style='color:{PATH_STROKE}'>━</span> path &nbsp;<span style='color:#f59f00'>○</span> what "
           "the step talks about</div>")


def activation_page(scenario_id: str = DEFAULT_SCENARIO, game: Game | None = None) -> tuple[ActivationStepper,
                                                                                             Callable[[], None]]:
    """The enemy-activation stepper for the Panel app: ``(widget, redraw)``; call ``redraw`` on ``pn.state.onload``.
    ``game``: the page's :class:`~explorer.games.Game` (passed by ``Page.open``)."""
    w = ActivationStepper(scenario_id, game=game)
    return w, w.redraw
