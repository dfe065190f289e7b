"""Galaxy Defenders A.I. stepper: an alien or NPC activation resolved one cited step at a time on the map of Areas.

Rulebook sections shown (each step cites its own): 10.1 Biological Ally Structure (the A.I. section, first relevant
behavior rule, the "+" rule), 10.2.1 NPC Movement and 11.11 Movement (Area to Area through centre hexes, redeploy at
the end), 11 The Aliens (an alien targets the closest agent, drones and NPCs counting as agents), 11.3.1 Menacing Agent System (an Archenemy targets the Menacing Agent),
9.2 Combat (an attack rule beyond the weapon's Range passes to the next rule), 5.1 Barrier Hex Side, 7.1 Flying, 7.2 Burrowing, 7.3 Seize.

The page plays a built-in ``activation`` scenario with :func:`~.activation.play_activation` and draws each step from
the typed state of the kernel frame that holds it (never from the steps' facts):

* the Areas shaded (one tint per Area, its name on its centre hex), Blocking Hexes, Barrier Hex Sides (red dashes),
  walls and doors (the board's own edge drawing);
* the A.I. section as a table: every behavior rule with pass / fail and why, filled in as the steps reach it;
* for the focused step: the distance of every opponent (targeting), the line to the target (green when the rule
  applies, red dashed when it does not), the path walked (blue), every candidate end hex kept (green) or dropped
  (red) with its reason, the Seize placement;
* back / forward through the steps (:class:`~explorer.widgets.TraceStepper`), the line-of-sight ruling as a dropdown.

``ai_page(scenario_id=DEFAULT_SCENARIO) -> (widget, redraw)``: the Panel app shows ``widget`` and calls ``redraw()``
on load. Rules modules never import this module.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import ipywidgets as W

from explorer.errors import ScenarioError, short_repr
from explorer.widgets.picker_url import LINK_SOURCE, keep_in_url

from explorer.hexgrid import Hex
from explorer.games import Game, get_game
from explorer.render.svg import Circle, HexMark, Label, Overlay, Segment
from explorer.text import plural
from explorer.kernel import Frame
from explorer.trace import Step, Trace
from explorer.widgets import HexBoardView, Piece
from explorer.widgets.scenario_stepper import ScenarioStepperView, detail_table

from . import options as opts
from .activation import (Activation, ActivationScenario, EndChosen, LeadChosen, RuleVerdict, SecondPlaced, Seized,
                         Targeted, Walked, parse_map, play_activation)
from .map_draw import FAIL, PASS, PATH, SIDE_FILL, area_board, area_board_layout, area_overlays


def _game(game: Game | None = None) -> Game:
    """The game of this page: the one the app passes in (:attr:`explorer.games.Page.build`), else the registry's (a
    widget module never imports its game module: docs/design.md, "Layers")."""
    return game if game is not None else get_game("galaxydefenders")


DEFAULT_SCENARIO = _game().page_default("ai")
"""The scenario the page opens on (the registry's rule, :attr:`explorer.games.Page.default`)."""
AI_RULINGS = ("line_of_sight",)
"""Ruling options an activation consults."""

FOCUS = "#f59f00"


def activation_scenarios(game: Game | None = None) -> list[str]:
    """Ids of the built-in Galaxy Defenders scenarios of kind ``activation``, in display order."""
    return [s.name for s in _game(game).scenarios() if s.kind == "activation"]


def load_scenario(scenario_id: str, game: Game | None = None) -> ActivationScenario:
    """A built-in ``activation`` scenario, validated.

    Raises:
        ScenarioError: unknown id, or not an activation scenario.
    """
    kind, sc = _game(game).load_builtin(scenario_id)
    if kind != "activation":
        from explorer.errors import ScenarioError

        raise ScenarioError("kind", f"{scenario_id} is a {kind} scenario", activation_scenarios(game))
    return sc


# --- per-step picture ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepPicture:
    """What the board shows at one step of the trace, drawn from the kernel frame that holds the step (its typed
    :class:`~.activation.Activation` state): ``positions`` ``{name: (hex, side)}`` after the step, the step's
    ``overlays``, ``detail`` (HTML: the candidates of the step) and ``verdicts`` ``{rule index: (applies, why)}``
    of the behavior rules checked so far."""

    positions: Mapping[str, tuple[Hex, str]]
    overlays: tuple[Overlay, ...] = ()
    detail: str = ""
    verdicts: Mapping[int, tuple[bool, str]] = None  # type: ignore[assignment]


def start_positions(sc: ActivationScenario) -> dict[str, tuple[Hex, str]]:
    """``{name: (hex, side)}`` before the activation (the activating figure first)."""
    out = {sc.activating.name: (Hex.parse(sc.activating.at), sc.activating.kind)}
    second = sc.activating.base or sc.activating.swarm
    if second:
        out[second_name(sc)] = (Hex.parse(second), sc.activating.kind)
    out.update({f.name: (Hex.parse(f.at), f.side) for f in sc.figures})
    return out


def second_name(sc: ActivationScenario) -> str:
    """The board name of a Prime Swarm's second figure or a multi-hex alien's second base hex."""
    return f"{sc.activating.name} ({'2nd figure' if sc.activating.swarm else 'base'})"


def _table(head: list[str], rows: list[list[str]], colours: list[str] | None = None) -> str:
    return detail_table(head, rows, colours, "gd-ai-table")


def pictures(frames: Sequence[Frame[Activation]], sc: ActivationScenario) -> list[StepPicture]:
    """One :class:`StepPicture` per step of the activation played as ``frames`` (:func:`.activation.play_activation`
    of ``sc``), each drawn from its frame's state: the figures moved by the steps so far, the step's note (the
    targeting distances, a rule's verdict, the path, the end-hex candidates, the second figure, Seize) and the
    verdicts of the frame."""
    lay = area_board_layout()
    px = lay.hex_to_pixel
    pos = start_positions(sc)
    mover = sc.activating.name
    target: str | None = None
    walked: list[Hex] = []
    on_map = sc_hexes(sc)
    out: list[StepPicture] = []
    for fr in frames:
        state = fr.state
        verdicts = {v.index: (v.applies, v.why) for v in state.verdicts}
        first = len(state.notes) - len(fr.steps)
        for j, s in enumerate(fr.steps):
            note = state.notes[first + j]
            ov: list[Overlay] = []
            detail = ""
            if isinstance(note, Targeted) and note.candidates is not None:   # every opponent's distance in Areas
                target = note.target
                rows, cols = [], []
                for c in note.candidates:
                    rows.append([c.name, "no legal path" if c.areas is None else plural(c.areas, "Area"),
                                 "TARGET" if c.name == target else ""])
                    cols.append("#d3f9d8" if c.name == target else "#fff")
                    if c.name in pos:
                        x, y = px(pos[c.name][0])
                        ov.append(Label((x, y - 0.7), "–" if c.areas is None else f"{c.areas} A", size=11,
                                        fill="#862e9c", weight="bold"))
                if target in pos:       # from the hex the rules measured from (11.6, 11.8), not the face hex
                    ov.append(Segment(px(note.at or pos[mover][0]), px(pos[target][0]), stroke=PASS, width=3.0))
                detail = _table(["opponent", "distance (legal path)", ""], rows, cols)
            elif isinstance(note, Targeted):                   # Archenemy: the Menacing Agent
                target = note.target
                if target in pos:
                    ov.append(Segment(px(note.at or pos[mover][0]), px(pos[target][0]), stroke=PASS, width=3.0))
            elif isinstance(note, RuleVerdict):                # one behavior rule checked, from the hex it was read by
                ok = note.applies
                if target in pos:
                    ov.append(Segment(px(note.at or pos[mover][0]), px(pos[target][0]), stroke=PASS if ok else FAIL,
                                      width=3.0 if ok else 2.0, dash=None if ok else "6 4"))
            elif isinstance(note, Walked):                     # Area to Area through centre hexes
                walked = list(note.path)
                pts = [px(h) for h in walked]
                ov += [Segment(a, b, stroke=PATH, width=4.0) for a, b in zip(pts, pts[1:])]
                ov += [Circle(p, 0.14, fill=PATH, stroke="#ffffff", width=1.0) for p in pts[1:]]
                detail = (f"<div style='font-family:sans-serif;font-size:12px'>Path "
                          f"{html.escape(' → '.join(str(h) for h in walked))}</div>")
            elif isinstance(note, EndChosen):                  # redeploy: every candidate end hex kept or dropped
                rows, cols = [], []
                for c in sorted(note.candidates, key=lambda c: (not c.kept, str(c.hex))):
                    ov.append(HexMark(c.hex, stroke="none", width=0, fill=PASS if c.kept else FAIL,
                                      opacity=0.35 if c.kept else 0.18))
                    rows.append([str(c.hex), c.area, "yes" if c.adjacent_to_target else "", c.engages,
                                 "kept" if c.kept else "dropped", c.why])
                    cols.append("#ebfbee" if c.kept else "#fff5f5")
                if walked:
                    tail = walked + ([note.end] if walked[-1] != note.end else [])
                    pts = [px(h) for h in tail]
                    ov += [Segment(a, b, stroke=PATH, width=4.0) for a, b in zip(pts, pts[1:])]
                ov.append(HexMark(note.end, stroke=PASS, width=4.0))
                pos[mover] = (note.end, pos[mover][1])
                detail = _table(["hex", "Area", "adjacent to target", "engages", "", "why"], rows, cols)
            elif isinstance(note, LeadChosen):                 # Prime Swarm: the closer figure leads
                if pos[mover][0] != note.lead:
                    two = second_name(sc)
                    pos[mover], pos[two] = (note.lead, pos[mover][1]), (pos[mover][0], pos[two][1])
            elif isinstance(note, SecondPlaced):               # the second figure / base hex placed
                pos[second_name(sc)] = (note.at, pos[second_name(sc)][1])
                ov.append(HexMark(note.at, stroke=PASS, width=4.0))
            elif isinstance(note, Seized):                     # Seize: the agent placed next to the dragging figure
                pos[note.who] = (note.at, pos[note.who][1])
                ov.append(HexMark(note.at, stroke=FOCUS, width=4.0))
            for mk in s.marks:                                 # hexes the step talks about, ringed
                try:
                    h = Hex.parse(mk)
                except (ValueError, TypeError):
                    continue
                if h in on_map and not isinstance(note, EndChosen):
                    ov.append(Circle(px(h), 0.66, stroke=FOCUS, width=3.0))
            out.append(StepPicture(dict(pos), tuple(ov), detail, verdicts))
    return out


def sc_hexes(sc: ActivationScenario) -> set[Hex]:
    return {Hex.parse(k) for keys in sc.areas.values() for k in keys}


def rules_html(sc: ActivationScenario, verdicts: Mapping[int, tuple[bool, str]] | None, chosen: int | None,
               final: bool) -> str:
    """The A.I. section as a table: each behavior rule in card order with pass / fail and why (as far as the steps
    have checked; ``final``: the whole activation is shown, so rules never reached say so)."""
    rows, cols = [], []
    for i, r in enumerate(sc.rules):
        cond = {"adjacent": "adjacent", "within": f"within {plural(r.areas, 'Area')}", "plus": "+ (ignores line of sight)"}[
            r.condition]
        act = r.action.replace("_", " ") + (f" {plural(r.move, 'Area')}" if r.action.startswith("move") else "")
        v = (verdicts or {}).get(i)
        if v is None:
            status, why, col = ("not reached" if final else "…"), ("an earlier rule applied" if final and chosen is not
                                                                   None and i > chosen else ""), "#f8f9fa"
        elif v[0] and i == chosen:
            status, why, col = "APPLIES", v[1], "#d3f9d8"
        elif v[0]:
            status, why, col = "applies, but cannot be carried out", v[1] + " The move cannot be applied: the next " \
                               "rule is tried.", "#fff3bf"
        else:
            status, why, col = "does not apply", v[1], "#fff5f5"
        rows.append([str(i + 1), r.label or f"{cond}: {act}", cond, status, why])
        cols.append(col)
    return ("<div style='font-family:sans-serif;font-size:12px;font-weight:bold;margin-top:4px'>A.I. section "
            "(behavior rules in card order)</div>" + _table(["#", "rule", "condition", "", "why"], rows, cols)
            .replace("gd-ai-table", "gd-ai-rules"))


# --- the widget ---------------------------------------------------------------------------------------------------


class AIStepper(ScenarioStepperView):
    """Scenario picker, ruling dropdown, the map of Areas, the A.I. section table and the trace stepper.

    Attributes:
        scenario: the :class:`ActivationScenario` shown; ``trace``: its last resolution; ``kernel_frames``: the
            activation as the kernel played it; ``frames``: one :class:`StepPicture` per step, drawn from them.
    """

    FIT = (640, 520)
    """The box (pixels) a map is scaled to fit at load (at most :attr:`scale` pixels per board unit)."""

    def __init__(self, scenario_id: str = DEFAULT_SCENARIO, scale: float = 48.0, game: Game | None = None):
        self.game = _game(game)
        self.scale = scale
        self.rules = W.HTML(layout=W.Layout(max_width="640px"))
        self.rules.add_class("gd-ai-rules-box")
        self._build_parts(activation_scenarios(self.game), scenario_id, opts.rulings().options, AI_RULINGS, "120px", "360px",
                          "gd-ai-stepper", under_focus=[self.rules])
        main = self._board_and_side([self.about, *self.rulings_box.values(), self.message, self.outcome,
                                     self.stepper])
        super().__init__([self.picker, self.note, main])
        self.add_class("gd-ai")
        self.load(scenario_id)
        # the picked scenario, the readings and the focused step in the page's link
        keep_in_url(self, self.picker, rulings=lambda: self.rulings_box,
                    extra={"step": (lambda: self.stepper.index, self._link_step)})
        self.stepper.on_step(lambda _step: self.url_state_changed())

    def _link_step(self, value: object) -> None:
        """Focus step ``value`` of a link (``null``: none).

        Raises:
            ScenarioError: ``value`` is not null or a step index of this playthrough (0 to the number of steps - 1).
        """
        n = len(self.trace.steps) if self.trace is not None else 0
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n):
            raise ScenarioError("step", f"{short_repr(value)} is not a step of this playthrough",
                                f"null or a whole number from 0 to {n - 1}", LINK_SOURCE)
        self.stepper.select(value)

    def load(self, scenario_id: str) -> None:
        """Show built-in scenario ``scenario_id`` (rulings kept)."""
        self.scenario = load_scenario(scenario_id, self.game)
        self.map = parse_map(self.scenario, scenario_id)
        self.note.show(scenario_id, *self.game.builtin_verdict(scenario_id), state=self._note_state())
        self._show_about(self.scenario.title, self.scenario.description)
        board = area_board(self.map, self.scenario.title)
        minx, miny, maxx, maxy = board.bounds()
        scale = min(self.scale, (self.FIT[0] - 20) / max(maxx - minx, 1e-9), (self.FIT[1] - 20) / max(maxy - miny, 1e-9))
        self._new_board(board, max(scale, HexBoardView.SCALE_RANGE[0]))
        self.board_box.children = [self.board, W.HTML(_LEGEND)]
        self.run(keep_step=False)
        self.board.redraw()

    def run(self, keep_step: bool = True) -> None:
        """Resolve the scenario with the current rulings; keep the focused step if asked. Never raises."""
        played: list = []

        def resolve() -> Trace:
            kframes, trace = play_activation(self.scenario, rulings=self.rulings())
            played[:] = [kframes]
            return trace

        def shown(trace: Trace) -> None:
            self.kernel_frames = played[0]
            self.frames = pictures(self.kernel_frames, self.scenario)
            self._show_outcome()

        self._resolve_and_show(resolve, shown, keep_step)

    def _pieces(self, positions: Mapping[str, tuple[Hex, str]]) -> list[Piece]:
        lay = area_board_layout()
        mover = self.scenario.activating.name
        return [Piece(n, lay.hex_to_pixel(h), 0.42, fill=SIDE_FILL[side], stroke="#ffbf00" if n == mover else
                      "#212529", label=_short(n)) for n, (h, side) in positions.items()]

    def _base_bar(self, positions: Mapping[str, tuple[Hex, str]]) -> list[Overlay]:
        """A multi-hex alien's two-hex base drawn as one bar joining its two hexes (11.8)."""
        if not self.scenario.activating.base:
            return []
        lay = area_board_layout()
        a, b = positions[self.scenario.activating.name][0], positions[second_name(self.scenario)][0]
        return [Segment(lay.hex_to_pixel(a), lay.hex_to_pixel(b), stroke=SIDE_FILL["alien"], width=10.0,
                        opacity=0.55, title="two-hex base")]

    def _show_step(self, step: Step | None) -> None:
        if self.board is None or self.trace is None:
            return
        i = self.stepper.index
        base = area_overlays(self.map)
        if step is None or i is None:
            last = self.frames[-1] if self.frames else None
            self.board.set_pieces(self._pieces(start_positions(self.scenario)))
            self.board.overlays = base + self._base_bar(start_positions(self.scenario))
            self.detail.value = ("<i style='font-family:sans-serif;font-size:12px'>Press Next ▶ to step through the "
                                 "activation: the board shows the focused step.</i>")
            self.rules.value = rules_html(self.scenario, last.verdicts if last else {}, self.trace.result.rule, True)
            return
        fr = self.frames[i]
        self.board.set_pieces(self._pieces(fr.positions))
        self.board.overlays = base + self._base_bar(fr.positions) + list(fr.overlays)
        self.detail.value = fr.detail
        self.rules.value = rules_html(self.scenario, fr.verdicts, self.trace.result.rule, i == len(self.frames) - 1)

    def _show_outcome(self) -> None:
        o = self.trace.result
        rule = "no behavior rule applied: it stays" if o.rule is None else \
            f"rule {o.rule + 1} ({(o.action or '').replace('_', ' ')})"
        self.outcome.value = (f"<div class='gd-ai-outcome' style='font-family:sans-serif;font-size:13px;"
                              f"border:1px solid #dee2e6;border-radius:4px;padding:4px 8px;margin:4px 0'>"
                              f"<b>{html.escape(o.mover)}</b> targets <b>{html.escape(str(o.target))}</b>: "
                              f"{html.escape(rule)}; {o.start} → <b>{o.end}</b>; Areas to the target "
                              f"{o.areas_before} → {o.areas_after}</div>")

    def redraw(self) -> None:
        """Full redraw (call when a browser connects: ``pn.state.onload``)."""
        if self.board is not None:
            self.board.redraw()


def _short(name: str) -> str:
    if name.endswith(")") and " (" in name:             # a second figure / base hex: its unit's initials + "2"
        return _short(name[:name.rindex(" (")])[:1] + "2"
    parts = name.replace("-", " ").split()
    return (parts[0][:1] + (parts[1][:1] if len(parts) > 1 else parts[0][1:2])).title()


_LEGEND = ("<div class='gd-ai-legend' style='font-family:sans-serif;font-size:11px;color:#495057;max-width:460px'>"
           + " &nbsp;".join(f"<span style='color:{c}'>●</span> {s}" for s, c in SIDE_FILL.items())
           + " &nbsp;(gold ring: the activating figure)<br>"
           "tints: Areas (dashed ring: centre hex) &nbsp;<span style='color:#b03a2e'>╍</span> Barrier Hex Side "
           "&nbsp;<span style='color:#1d1d1d'>━</span> wall &nbsp;rock with red core: Blocking Hex<br>"
           f"<span style='color:{PASS}'>━</span> line to the target (rule applies) &nbsp;"
           f"<span style='color:{FAIL}'>╍</span> rule fails &nbsp;<span style='color:{PATH}'>━</span> path &nbsp;"
           f"<span style='background:{PASS};opacity:.6'>&nbsp;&nbsp;&nbsp;</span> kept end hex &nbsp;"
           f"<span style='background:{FAIL};opacity:.35'>&nbsp;&nbsp;&nbsp;</span> dropped</div>")


def ai_page(scenario_id: str = DEFAULT_SCENARIO, game: Game | None = None) -> tuple[AIStepper, Callable[[], None]]:
    """The A.I. stepper for the Panel app: ``(widget, redraw)``; call ``redraw`` on ``pn.state.onload``. ``game``: the
    page's :class:`~explorer.games.Game` (passed by ``Page.open``)."""
    w = AIStepper(scenario_id, game=game)
    return w, w.redraw


__all__ = ["AIStepper", "StepPicture", "ai_page", "area_board", "area_overlays", "pictures", "rules_html"]
