"""The Nemesis Phase stepper of Marvel D.A.G.G.E.R.: the world map drawn as a graph on an ipycanvas, stepped through
the kernel frames of :func:`~explorer.games.dagger.nemesis_scenario.playthrough` (one per step function; the page
steps one cited step at a time, each shown with the typed state its step function leaves: :func:`positions`).

Rulebook sections shown (each step cites its own): Nemesis Phase › 1. Advance Threat, 2. Check Nemesis Mission,
3. Resolve Event Cards (event text, ongoing effects, side mission spawn, nemesis ability, enemy activation, spawns,
discard); End of Round; Final Showdown; Winning and Losing (the loss gauges); Additional Rules › Nearby and Overrun
(overrun tokens, what is nearby a clicked space), Missions, Damage and Defeat.

The page (:class:`NemesisStepper`) shows:

* the map: dotted lines, spaces tinted by region, the five bases as squares (green outline operational, red cross
  overrun), Asgard as a gold diamond (not a base), heroes (blue) and enemies (red; elites orange, the nemesis purple)
  beside their spaces, and the threat track (0..20, the loss at 20, the top nemesis mission's threat value marked);
* a step bar (◀ Prev, Next ▶, a slider over positions ``0..n``: 0 is the position before the first step, ``i`` the
  position after step ``i``), the focused step with its section, rule and detail, and **what changed** (threat,
  moves, spawns, damage, overrun tokens, missions), which the map highlights (orange rings, move arrows);
* the loss gauges (:func:`~explorer.games.dagger.nemesis.loss_gauges`: how close each loss condition is) and the
  loss probability of the phase if the event deck were shuffled (:func:`forecast_html`, exact over the top cards);
* the player's choices the engine exposes (:class:`~explorer.games.dagger.nemesis.Choices`: activation order within a
  rank, attacked hero, tied base, route, respawn base) as dropdowns, and every ruling option as a dropdown; both
  re-run the playthrough;
* a **Final Showdown** checkbox (the scenario's ``showdown`` field, set from the scenario when it loads): ticking
  or clearing it replays the phase as if the Final Showdown had (not) begun;
* clicking a space: its region, the spaces nearby it, its distance to the nearest operational base.

Every change of position, scenario, ruling or choice redraws the canvas **once** (one batched message through the
canvas's own manager, :func:`explorer.widgets.canvas.hold`). ``nemesis_page(scenario_id) -> (widget, redraw)`` is
the Panel page; rules modules never import this module.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NamedTuple

import ipywidgets as W
import numpy as np

from explorer.errors import ExplorerError, ScenarioError, short_repr
from explorer.games import Game, get_game
from explorer.kernel import Frame, trace_of
from explorer.text import percent
from explorer.trace import Step
from explorer.widgets.canvas import hold, own_canvas, reset_manager
from explorer.widgets.label_floor import HOST_CLASS, Declutter, LabelFloor, floored
from explorer.widgets.icons import accordion
from explorer.widgets.layout import browser_fix
from explorer.widgets.picker_url import LINK_SOURCE, keep_in_url
from explorer.widgets.round_stepper import SliderSteps, ruling_dropdowns, rulings_panel
from explorer.widgets.scenario_note import ScenarioNote
from explorer.widgets.trace_stepper import render_trace_html

from . import options as opts
from .nemesis import Choices, PhaseContext
from .nemesis import loss_gauges as gauges_of
from .nemesis_scenario import NemesisScenario, playthrough
from .state import THREAT_LOSS, ChoiceMade, EnemyActed, GameState
from .worldmap import WorldMap, nearest_operational_bases



def _game(game: Game | None = None) -> Game:
    """The game of this page: the one the app passes in (:attr:`explorer.games.Page.build`), else the registry's (a
    widget module never imports its game module: docs/design.md, "Layers")."""
    return game if game is not None else get_game("dagger")


DEFAULT_SCENARIO = _game().page_default("nemesis-phase")
"""The scenario the page opens on: the game's default (the registry's rule, :attr:`explorer.games.Page.default`)."""
CHOICE_KINDS = ("activation_order", "attack_target", "base_tie", "move_via", "respawn")
"""The kinds of players' choice a link may carry (:class:`~explorer.games.dagger.nemesis.Choices`)."""
MAX_LINK_CHOICES = 40
"""The most entries one kind of choice may have in a link."""
MAX_NAME_CHARS = 60
"""The longest enemy, hero, base or space name a link's choice may hold."""

DEFAULT = "(scenario / rule default)"
"""Choice dropdown entry: no choice of yours (the scenario's [choices] table, else the engine's stated default)."""

REGION_FILL = ("#cfe3f7", "#d4f0e0", "#f7e3cf", "#efd4f0", "#f3f0c8", "#e6e6e6", "#f7cfd4", "#d8d8f7")
HERO_FILL, ENEMY_FILL, ELITE_FILL, NEMESIS_FILL = "#1c7ed6", "#c92a2a", "#e8590c", "#862e9c"
MARK, CHANGE, SELECT = "#f59f00", "#f59f00", "#1c7ed6"
WIDTH, HEIGHT = 760, 470
TRACK_TOP = 392
"""Canvas size in CSS pixels; the threat track is drawn below ``TRACK_TOP``."""


def nemesis_scenarios(game: Game | None = None) -> list[str]:
    """Ids of the built-in D.A.G.G.E.R. scenarios of kind ``nemesis`` (every ``dg-*`` one), in display order."""
    return [s.name for s in _game(game).scenarios() if s.kind == "nemesis"]


def load_scenario(scenario_id: str, game: Game | None = None) -> NemesisScenario:
    """A built-in nemesis scenario, parsed. Raises ScenarioError for an unknown id."""
    return _game(game).load_builtin(scenario_id)[1]


def _rgb(css: str) -> tuple[int, int, int]:
    s = css.lstrip("#")
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


def _cols(cs) -> np.ndarray:
    return np.array([_rgb(c) for c in cs], dtype=np.uint8).reshape(-1, 3)


# --- the page's positions: one per cited step, from the kernel frames ---------------------------------------------


class Position(NamedTuple):
    """One position of the stepper: a cited ``step``, the ``state`` its step function leaves, and ``frame``, the
    index of that kernel frame (the step function that cited it)."""

    step: Step
    state: GameState
    frame: int


def positions(frames: tuple[Frame[GameState], ...] | list[Frame[GameState]]) -> list[Position]:
    """One :class:`Position` per cited step of ``frames``, in order (a frame with no step gives none)."""
    return [Position(s, f.state, i) for i, f in enumerate(frames) for s in f.steps]


REJECTED: dict[str, tuple[str, ...]] = {"attack": ("overrun", "move"), "overrun": ("attack",),
                                        "overrun_again": ("attack",), "move": ("attack", "overrun")}
"""The activation items an enemy did not resolve, in the rule's order, by the one it resolved (Activate enemies:
attack, else overrun, else move)."""


def frame_notes(before: GameState, after: GameState, step: Step) -> tuple[tuple[ChoiceMade, ...], tuple[str, ...]]:
    """The choices made and the activation items rejected that belong to ``step``, read from what its frame added
    to the typed state (``before`` → ``after``): a choice (attacked hero, tied base, route, respawn base) goes with
    the step whose marks name its enemy or hero, a rejection with the activation step that names the acting enemy
    first. (An activation order is shown among the page's choices, not on a step.)"""
    made = after.choices[len(before.choices):]
    acted = [e for e in after.events[len(before.events):] if isinstance(e, EnemyActed)]
    mine = tuple(c for c in made if "." in c.input and c.input.partition(".")[2] in step.marks)
    rejected: tuple[str, ...] = ()
    for e in acted:
        if step.marks[:1] == (e.enemy,) and e.action in REJECTED and step.rule.section.endswith("Activate enemies"):
            rejected = REJECTED[e.action]
    return mine, rejected


# --- what changed between two states -------------------------------------------------------------------------------


def changes(before: GameState, after: GameState) -> list[dict[str, Any]]:
    """What differs from ``before`` to ``after``, as ``[{"kind", "text", "marks", ...}]``; kinds: ``threat``,
    ``team_up``, ``move`` (``start``/``to``), ``spawn``, ``removed``, ``enemy`` (damage/stun), ``hero`` (space,
    damage, shattered, eliminated), ``overrun``, ``mission``, ``event``, ``round``, ``lost``, ``won``,
    ``showdown``. ``marks`` are space names and piece ids to highlight on the map."""
    out: list[dict[str, Any]] = []
    if after.threat != before.threat:
        out.append({"kind": "threat", "text": f"threat {before.threat} → {after.threat}", "marks": ()})
    if after.team_up != before.team_up:
        out.append({"kind": "team_up", "text": f"team-up {before.team_up} → {after.team_up}", "marks": ()})
    old = {e.id: e for e in before.enemies}
    new = {e.id: e for e in after.enemies}
    for eid, e in new.items():
        o = old.get(eid)
        if o is None:
            out.append({"kind": "spawn", "text": f"{eid} appears on {e.space}", "marks": (eid, e.space)})
            continue
        if o.space != e.space:
            out.append({"kind": "move", "text": f"{eid} moves {o.space} → {e.space}", "marks": (eid, e.space),
                        "start": o.space, "to": e.space})
        if (o.damage, o.stunned, o.health) != (e.damage, e.stunned, e.health):
            out.append({"kind": "enemy", "text": f"{eid}: damage {o.damage} → {e.damage}/{e.health}"
                        + (", stun cleared" if o.stunned and not e.stunned else ""), "marks": (eid,)})
    for eid in old.keys() - new.keys():
        out.append({"kind": "removed", "text": f"{eid} leaves the board", "marks": (old[eid].space,)})
    hb = {h.name: h for h in before.heroes}
    for h in after.heroes:
        o = hb.get(h.name)
        if o is None or o == h:
            continue
        bits = []
        if o.space != h.space:
            bits.append(f"{o.space or 'off the board'} → {h.space or 'off the board'}")
        if o.damage != h.damage:
            bits.append(f"damage {o.damage} → {h.damage}/{h.health}")
        if h.shattered and not o.shattered:
            bits.append("flipped to the shattered side")
        if h.eliminated and not o.eliminated:
            bits.append("player eliminated")
        out.append({"kind": "hero", "text": f"{h.name}: " + ", ".join(bits or ["changed"]),
                    "marks": tuple(x for x in (h.name, h.space, o.space) if x)})
    for b in sorted(after.overrun - before.overrun):
        out.append({"kind": "overrun", "text": f"overrun token on {b}", "marks": (after.base_space(b),)})
    ms_b = {m.name: m for m in before.active_missions()}
    ms_a = {m.name: m for m in after.active_missions()}
    for n, m in ms_a.items():
        if n not in ms_b:
            out.append({"kind": "mission", "text": f"mission {n} comes into play", "marks": (m.space,) if m.space
                        else ()})
        elif ms_b[n].progress != m.progress:
            out.append({"kind": "mission", "text": f"{n}: progress {ms_b[n].progress} → {m.progress}", "marks": ()})
    for n in ms_b.keys() - ms_a.keys():
        res = dict(after.completed_nemesis).get(n)
        out.append({"kind": "mission", "text": f"mission {n} leaves play" + (f" ({res})" if res else ""),
                    "marks": ()})
    if after.current_event is not None and after.current_event != before.current_event:
        out.append({"kind": "event", "text": f"event {after.current_event.name} drawn "
                    f"({len(after.event_deck)} left)", "marks": ()})
    if after.round != before.round:
        out.append({"kind": "round", "text": f"round {before.round} → {after.round}", "marks": ()})
    if after.showdown and not before.showdown:
        out.append({"kind": "showdown", "text": "the Final Showdown begins", "marks": ()})
    for r in after.lost:
        if r not in before.lost:
            out.append({"kind": "lost", "text": f"LOST: {r}", "marks": ()})
    if after.won and not before.won:
        out.append({"kind": "won", "text": "WON: the nemesis is at 0 health", "marks": ()})
    return out


# --- the map drawing -----------------------------------------------------------------------------------------------


class MapGeometry:
    """Map units -> canvas pixels for ``world`` in a ``width`` x ``height`` box (``px``); ``space_at`` hit-tests."""

    R = 12.0
    """Radius of a space's disc (pixels); bases are squares of side 2R."""

    def __init__(self, world: WorldMap, width: int = WIDTH, height: int = TRACK_TOP, margin: float = 46.0):
        xs = [s.x for s in world.spaces]
        ys = [s.y for s in world.spaces]
        self.minx, self.miny = min(xs), min(ys)
        sx = (width - 2 * margin) / max(1, max(xs) - self.minx)
        sy = (height - 2 * margin - 14) / max(1, max(ys) - self.miny)
        self.scale = min(sx, sy)
        self.ox = (width - (max(xs) - self.minx) * self.scale) / 2
        self.oy = margin
        self.world = world
        self.pos = {s.name: self.px(s.x, s.y) for s in world.spaces}

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.minx) * self.scale + self.ox, (y - self.miny) * self.scale + self.oy

    def space_at(self, x: float, y: float) -> str | None:
        """The space whose disc (or square) contains canvas pixel ``(x, y)`` (a little slack), or ``None``."""
        best, bd = None, self.R + 6
        for n, (sx, sy) in self.pos.items():
            d = math.hypot(x - sx, y - sy)
            if d <= bd:
                best, bd = n, d
        return best


def piece_positions(geo: MapGeometry, state: GameState) -> dict[str, tuple[float, float, str, str]]:
    """``{piece id: (x, y, fill, kind)}``: heroes then enemies, in a row under their space (pixels)."""
    by_space: dict[str, list[tuple[str, str, str]]] = {}
    for h in state.heroes:
        if h.space and not h.eliminated:
            by_space.setdefault(h.space, []).append((h.name, HERO_FILL, "hero"))
    for e in state.enemies:
        fill = NEMESIS_FILL if e.kind == "nemesis" else ELITE_FILL if e.kind == "elite" else ENEMY_FILL
        by_space.setdefault(e.space, []).append((e.id, fill, e.kind))
    out = {}
    for sp, items in by_space.items():
        x0, y0 = geo.pos[sp]
        n = len(items)
        for i, (pid, fill, kind) in enumerate(items):
            dx = (i - (n - 1) / 2) * 15
            out[pid] = (x0 + dx, y0 + geo.R + 10, fill, kind)
    return out


def _initials(name: str) -> str:
    parts = name.split()
    head = "".join(p[0] for p in parts if not p.isdigit())[:2]
    return head + (parts[-1] if parts[-1].isdigit() else "")


def draw_map(canvas, geo: MapGeometry, state: GameState, *, marks: tuple[str, ...] = (),
             moves: tuple[tuple[str, str], ...] = (), threat_before: int | None = None,
             selected: str | None = None, nearby: tuple[str, ...] = (), min_font: float = 0.0) -> None:
    """Draw the whole map and ``state`` on ``canvas`` in one batched message (see the module docstring).

    Args:
        marks: space names and piece ids to ring (what the step talks about and what it changed).
        moves: ``(from space, to space)`` arrows (enemy moves of the step).
        threat_before: the threat before the step (its cell outlined when it differs).
        selected, nearby: a clicked space and the spaces nearby it (ringed / tinted blue).
        min_font: smallest text (canvas px; 0 = none): the label floor of a map shown shrunk on a phone
            (:mod:`explorer.widgets.label_floor`). With a floor, a space label that would overlap one drawn before it
            is left out (a tap on the space names it), labels are names only, pieces lose their initials, the track shows
            every fifth value and the current one, and the top mission's marker loses its caption.
    """
    world = geo.world
    regions = {r: i for i, (r, _) in enumerate(world.regions)}
    names = list(world.names)
    xy = np.array([geo.pos[n] for n in names], dtype=float)
    region_cols = _cols([REGION_FILL[regions[world.region_of(n)] % len(REGION_FILL)] for n in names])
    bases = dict(state.bases)
    base_at = {s: b for b, s in bases.items()}
    R = geo.R
    pieces = piece_positions(geo, state)
    with hold(canvas):
        canvas.clear()
        canvas.fill_style = "#ffffff"
        canvas.fill_rect(0, 0, WIDTH, HEIGHT)
        # regions as soft blobs under their spaces
        canvas.fill_styled_circles(xy[:, 0], xy[:, 1], np.full(len(names), 36.0), region_cols, alpha=0.55)
        # the dotted lines
        segs = np.array([[geo.pos[a], geo.pos[b]] for a, b in world.links], dtype=float)
        canvas.stroke_style = "#6c757d"
        canvas.line_width = 1.5
        canvas.set_line_dash([3, 4])
        canvas.stroke_line_segments(segs)
        canvas.set_line_dash([])
        # nearby tint of a clicked space
        if nearby:
            nb = np.array([geo.pos[n] for n in nearby], dtype=float)
            canvas.fill_styled_circles(nb[:, 0], nb[:, 1], np.full(len(nb), R + 7.0), _cols([SELECT] * len(nb)),
                                       alpha=0.25)
        # plain spaces (discs), bases (squares), Asgard (a diamond)
        plain = [i for i, n in enumerate(names) if n not in base_at and n != world.asgard]
        if plain:
            canvas.fill_styled_circles(xy[plain, 0], xy[plain, 1], np.full(len(plain), R), region_cols[plain])
            canvas.stroke_style = "#343a40"
            canvas.line_width = 1
            canvas.stroke_circles(xy[plain, 0], xy[plain, 1], np.full(len(plain), R))
        bi = [i for i, n in enumerate(names) if n in base_at]
        if bi:
            canvas.fill_styled_rects(xy[bi, 0] - R, xy[bi, 1] - R, np.full(len(bi), 2 * R), np.full(len(bi), 2 * R),
                                     region_cols[bi])
            op = [i for i in bi if base_at[names[i]] not in state.overrun]
            ov = [i for i in bi if base_at[names[i]] in state.overrun]
            canvas.line_width = 3
            if op:
                canvas.stroke_style = "#2b8a3e"
                canvas.stroke_rects(xy[op, 0] - R, xy[op, 1] - R, np.full(len(op), 2 * R), np.full(len(op), 2 * R))
            if ov:
                canvas.stroke_style = "#c92a2a"
                canvas.stroke_rects(xy[ov, 0] - R, xy[ov, 1] - R, np.full(len(ov), 2 * R), np.full(len(ov), 2 * R))
                cross = []
                for i in ov:
                    x, y = xy[i]
                    cross += [[[x - R, y - R], [x + R, y + R]], [[x + R, y - R], [x - R, y + R]]]
                canvas.stroke_line_segments(np.array(cross, dtype=float))
        if world.asgard in geo.pos:
            x, y = geo.pos[world.asgard]
            canvas.fill_style = "#fcc419"
            canvas.fill_polygon([(x, y - R - 3), (x + R + 3, y), (x, y + R + 3), (x - R - 3, y)])
            canvas.stroke_style = "#343a40"
            canvas.line_width = 1
            canvas.stroke_polygon([(x, y - R - 3), (x + R + 3, y), (x, y + R + 3), (x - R - 3, y)])
        # labels
        fs = floored(11, min_font)
        canvas.font = f"{fs:g}px sans-serif"
        canvas.text_align = "center"
        canvas.text_baseline = "alphabetic"
        canvas.fill_style = "#212529"
        tidy = Declutter(min_font > 0)
        for n in names:
            s = world.space(n)
            x, y = geo.pos[n]
            label = n + (f" ({s.number})" if s.number is not None else "")
            b = base_at.get(n)
            if b is not None and b != n:
                label += f" · {b}"
            if n == world.asgard:
                label += " · Bifrost" if world.bifrost == n else " (not a base)"
            if min_font > 0:   # a phone: the name only (the number, base and Bifrost are told on a tap)
                label = n
            if tidy.fits(label, x, y - R - 5 - fs / 2, fs):
                canvas.fill_text(label, x, y - R - 5)
        # move arrows of the step
        if moves:
            canvas.stroke_style = CHANGE
            canvas.fill_style = CHANGE
            canvas.line_width = 3
            for a, b in moves:
                (x1, y1), (x2, y2) = geo.pos[a], geo.pos[b]
                d = math.hypot(x2 - x1, y2 - y1) or 1
                ux, uy = (x2 - x1) / d, (y2 - y1) / d
                ex, ey = x2 - ux * (R + 4), y2 - uy * (R + 4)
                canvas.stroke_line(x1 + ux * (R + 2), y1 + uy * (R + 2), ex, ey)
                canvas.fill_polygon([(ex, ey), (ex - 9 * ux + 5 * uy, ey - 9 * uy - 5 * ux),
                                     (ex - 9 * ux - 5 * uy, ey - 9 * uy + 5 * ux)])
        # pieces
        if pieces:
            pv = list(pieces.values())
            px_ = np.array([[p[0], p[1]] for p in pv], dtype=float)
            rad = np.array([9.0 if p[3] == "nemesis" else 7.0 for p in pv])
            canvas.fill_styled_circles(px_[:, 0], px_[:, 1], rad, _cols([p[2] for p in pv]))
            canvas.stroke_style = "#ffffff"
            canvas.line_width = 1.5
            canvas.stroke_circles(px_[:, 0], px_[:, 1], rad)
            canvas.font = "bold 8px sans-serif"
            canvas.text_baseline = "middle"
            canvas.fill_style = "#ffffff"
            # a phone: no initials (a 14 px one is wider than the disc; the legend and a tap on the space tell them)
            for pid, (x, y, _, _) in (pieces.items() if min_font <= 0 else ()):
                canvas.fill_text(_initials(pid)[:3], x, y + 0.5)
            canvas.text_baseline = "alphabetic"
        # rings: what the step talks about and what it changed
        ring_sp = [geo.pos[m] for m in marks if m in geo.pos]
        ring_pc = [pieces[m][:2] for m in marks if m in pieces]
        canvas.stroke_style = MARK
        canvas.line_width = 3
        if ring_sp:
            a = np.array(ring_sp, dtype=float)
            canvas.stroke_circles(a[:, 0], a[:, 1], np.full(len(a), R + 6.0))
        if ring_pc:
            a = np.array(ring_pc, dtype=float)
            canvas.stroke_circles(a[:, 0], a[:, 1], np.full(len(a), 10.5))
        if selected in geo.pos:
            x, y = geo.pos[selected]
            canvas.stroke_style = SELECT
            canvas.set_line_dash([4, 3])
            canvas.stroke_circle(x, y, R + 10)
            canvas.set_line_dash([])
        _draw_track(canvas, state, threat_before, min_font)


def _draw_track(canvas, state: GameState, threat_before: int | None, min_font: float = 0.0) -> None:
    """The threat track 0..THREAT_LOSS along the bottom, the top nemesis mission's threat value, the other counters."""
    n = THREAT_LOSS + 1
    x0, y0, cw, ch = 40.0, TRACK_TOP + 22.0, (WIDTH - 80.0) / n, 22.0
    xs = x0 + cw * np.arange(n)
    cols = []
    for v in range(n):
        if v == THREAT_LOSS:
            cols.append("#c92a2a" if state.threat >= v else "#ffc9c9")
        elif v <= state.threat:
            cols.append("#f76707" if v >= 15 else "#fab005" if v >= 10 else "#ffd43b")
        else:
            cols.append("#f1f3f5")
    canvas.fill_styled_rects(xs + 1, np.full(n, y0), np.full(n, cw - 2), np.full(n, ch), _cols(cols))
    canvas.stroke_style = "#adb5bd"
    canvas.line_width = 1
    canvas.stroke_rects(xs + 1, np.full(n, y0), np.full(n, cw - 2), np.full(n, ch))
    canvas.font = f"{floored(10, min_font):g}px sans-serif"
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    canvas.fill_style = "#212529"
    for v in range(n):
        if min_font > 0 and v % 5 and v != state.threat:   # a phone: every fifth value and the current one
            continue
        canvas.fill_text("LOSS" if v == THREAT_LOSS else str(v), xs[v] + cw / 2, y0 + ch / 2)
    cur = min(state.threat, THREAT_LOSS)
    canvas.stroke_style = "#212529"
    canvas.line_width = 3
    canvas.stroke_rect(xs[cur] + 1, y0, cw - 2, ch)
    if threat_before is not None and threat_before != state.threat:
        canvas.stroke_style = MARK
        canvas.set_line_dash([3, 2])
        canvas.stroke_rect(xs[min(threat_before, THREAT_LOSS)] - 1, y0 - 2, cw + 2, ch + 4)
        canvas.set_line_dash([])
    top = state.nemesis_deck[0] if state.nemesis_deck else None
    canvas.text_baseline = "alphabetic"
    canvas.text_align = "left"
    canvas.font = f"{floored(12, min_font):g}px sans-serif"
    canvas.fill_style = "#212529"
    head = f"Threat {state.threat}/{THREAT_LOSS} · round {state.round}" if min_font > 0 else (f"Threat {state.threat}/{THREAT_LOSS} · round {state.round} · team-up {state.team_up} · events left "
            f"{len(state.event_deck)} · overrun {len(state.overrun)}/{len(state.bases)}"
            + (" · FINAL SHOWDOWN" if state.showdown else ""))
    canvas.fill_text(head, x0, y0 - 7)
    if top is not None and top.threat_value is not None and top.threat_value <= THREAT_LOSS and min_font <= 0:
        tx = xs[top.threat_value] + cw / 2
        canvas.fill_style = "#862e9c"
        canvas.fill_polygon([(tx, y0 + ch + 1), (tx - 5, y0 + ch + 9), (tx + 5, y0 + ch + 9)])
        canvas.font = "10px sans-serif"
        canvas.text_align = "center"
        canvas.fill_text(f"{top.name} fails", tx, y0 + ch + 19)


# --- the widget ----------------------------------------------------------------------------------------------------


def _box(text: str, cls: str = "", style: str = "") -> str:
    return f"<div class='{cls}' style='font-family:sans-serif;font-size:13px;line-height:1.35;{style}'>{text}</div>"


class NemesisStepper(SliderSteps, W.VBox):
    """Scenario picker, the world map on a canvas, the step bar, the focused step and what changed, the loss
    gauges, the player's choices and the ruling options (see the module docstring).

    Attributes:
        scenario: the parsed scenario shown. frames: its playthrough (the kernel frames, one per step function).
            positions: one :class:`Position` per cited step (:func:`positions`). ctx: the context of that
            playthrough (rulings consulted). start: the state before the first step. end: the state after the last
            (its ``choices``: every choice point met).
        position: 0..len(positions) (0 = before the first step). choices: the player's choices applied over the
            scenario's own ``[choices]`` table: ``{"activation_order": [ids], "attack_target": {enemy: hero},
            "base_tie": {...}, "move_via": {...}, "respawn": {...}}``. selected: the clicked space or ``None``.
        redraws: how many times the canvas was redrawn (each redraw is one message).
    """

    first_position = 0

    def __init__(self, scenario_id: str = DEFAULT_SCENARIO, game: Game | None = None):
        self.game = _game(game)
        self.frames: tuple[Frame[GameState], ...] = ()
        self.positions: list[Position] = []
        self.ctx: PhaseContext | None = None
        self.end: GameState | None = None
        self.choices: dict[str, Any] = {}
        self.selected: str | None = None
        self.redraws = 0
        self._quiet = False
        self.picker = W.Dropdown(options=nemesis_scenarios(self.game), value=scenario_id, description="Scenario",
                                 layout=W.Layout(width="360px"))
        self.about = W.HTML(layout=W.Layout(max_width="640px"))
        self.note = ScenarioNote(layout=W.Layout(max_width="900px"))
        self.canvas = own_canvas(WIDTH, HEIGHT)
        self.canvas.layout.width, self.canvas.layout.height = f"{WIDTH}px", f"{HEIGHT}px"
        self.canvas.on_mouse_down(self._clicked)
        self.space_info = W.HTML(_box("<i style='color:#868e96'>Click a space: what is nearby it and how far the "
                                      "nearest operational base is.</i>", "dg-space-info"),
                                 layout=W.Layout(max_width="760px"))
        self.prev_button = W.Button(description="◀ Prev", layout=W.Layout(width="80px"))
        self.next_button = W.Button(description="Next ▶", layout=W.Layout(width="80px"))
        self.slider = W.IntSlider(value=0, min=0, max=0, readout=False, continuous_update=False,
                                  layout=W.Layout(width="220px"))
        self.position_label = W.HTML()
        self.prev_button.on_click(lambda _: self.go(-1))
        self.next_button.on_click(lambda _: self.go(+1))
        self.slider.observe(lambda c: self._quiet or self.show(c["new"]), names="value")
        self.focus = W.HTML(layout=W.Layout(max_width="640px"))
        self.gauges = W.HTML(layout=W.Layout(max_width="640px"))
        self.forecast = W.HTML(layout=W.Layout(max_width="640px"))
        self.message = W.HTML()
        self.choices_box = W.VBox()
        self.rulings_box = ruling_dropdowns(opts.rulings().options, lambda: self._quiet or self.run())
        self.showdown = W.Checkbox(value=False, description="Final Showdown", indent=False,
                                   tooltip="replay the phase as if the Final Showdown had begun (the scenario's "
                                           "showdown field): the Nemesis sheet's showdown side is in play",
                                   layout=W.Layout(width="150px"))
        self.showdown.add_class("dg-showdown")
        self.showdown.observe(lambda _c: self._quiet or self.run(), names="value")
        self.trace_list = W.HTML(layout=W.Layout(max_width="640px"))
        self.picker.observe(lambda c: self.load(c["new"]), names="value")
        bar = W.HBox([self.prev_button, self.next_button, self.slider, self.position_label],
                     layout=W.Layout(align_items="center", flex_flow="row wrap"))
        rulings = rulings_panel(self.rulings_box, "640px")
        steps = accordion([self.trace_list], titles=("Every step",), layout=W.Layout(max_width="640px"))
        self.steps_panel = steps.accordion
        steps.accordion.observe(lambda _c: self._fill_trace_list(), names="selected_index")
        self.headline = W.HTML(layout=W.Layout(max_width="900px"))
        side = W.VBox([self.about, self.focus, self.gauges, self.forecast, self.message,
                       W.HTML("<b style='font-family:sans-serif;font-size:13px'>Your choices</b>"), self.choices_box,
                       rulings, steps],
                      layout=W.Layout(min_width="340px", max_width="660px", flex="1 1 380px"))
        self.label_floor = LabelFloor()
        """The map's label floor (:mod:`explorer.widgets.label_floor`): on a phone its labels are drawn at least 14
        CSS px tall, fewer of them."""
        self.label_floor.on_change(lambda: self.show(self.slider.value))
        left = W.VBox([self.canvas, self.space_info, W.HTML(_LEGEND), browser_fix(), self.label_floor],
                      layout=W.Layout(flex="0 0 auto"))
        left.add_class(HOST_CLASS)
        main = W.HBox([left, side], layout=W.Layout(flex_flow="row wrap", align_items="flex-start",
                                                     grid_gap="12px"))
        top = W.HBox([self.picker, self.showdown, bar], layout=W.Layout(align_items="center", flex_flow="row wrap",
                                                         grid_gap="16px"))
        super().__init__([top, self.note, self.headline, main, W.HTML(PHONE_CSS)])
        self.add_class("dg-nemesis")
        self.load(scenario_id)
        # the picked scenario, the readings, the Final Showdown, your choices, the step and the space in the link
        keep_in_url(self, self.picker, rulings=lambda: self.rulings_box,
                    extra={"showdown": (lambda: self.showdown.value, self._link_showdown),
                           "choices": (self._link_choices_value, self._link_choices),
                           "step": (lambda: self.slider.value, self._link_step),
                           "space": (lambda: self.selected, self._link_space)},
                    watch=(self.showdown, self.slider))

    # -- loading and running ---------------------------------------------------------------------------------------
    def load(self, scenario_id: str) -> None:
        """Show built-in scenario ``scenario_id`` from its first position (your choices reset; rulings kept)."""
        try:
            self.scenario = load_scenario(scenario_id, self.game)
        except ExplorerError as e:
            self.message.value = _box(html.escape(str(e)), style="color:#c92a2a")
            return
        self.geo = MapGeometry(self.scenario.world)
        self.choices = {}
        self.selected = None
        self._quiet = True
        try:
            self.showdown.value = bool(self.scenario.state.showdown)
        finally:
            self._quiet = False
        self.note.show(scenario_id, *self.game.builtin_verdict(scenario_id), state=self._note_state())
        self.run(keep_position=False)

    def _note_state(self) -> str:
        """The readings, Final Showdown and choices shown, compared by the scenario note with those as opened."""
        return repr((sorted(self.rulings().items()), self.showdown.value, self.choices))

    def rulings(self) -> dict[str, str]:
        """The ruling readings chosen in the dropdowns."""
        return {k: w.value for k, w in self.rulings_box.items()}

    def merged_choices(self) -> Choices:
        """The scenario's own choices with yours on top."""
        c = self.scenario.choices
        mine = self.choices
        order = list(mine.get("activation_order", [])) + [x for x in c.activation_order
                                                         if x not in mine.get("activation_order", [])]
        return Choices(tuple(order), {**c.attack_target, **mine.get("attack_target", {})},
                       {**c.base_tie, **mine.get("base_tie", {})}, {**c.move_via, **mine.get("move_via", {})},
                       {**c.respawn, **mine.get("respawn", {})})

    def run(self, keep_position: bool = True) -> None:
        """Play the scenario out again with the current rulings and choices; keep the position if asked (clamped).
        Never raises: an error is shown under the step bar. Redraws once."""
        pos = self.slider.value if keep_position else 0
        self.message.value = ""
        try:
            sc = replace(self.scenario, choices=self.merged_choices(),
                         state=self.scenario.state.evolve(showdown=self.showdown.value))
            frames, ctx, start = playthrough(sc, rulings=self.rulings())
        except ExplorerError as e:
            self.message.value = _box(html.escape(str(e)), style="color:#c92a2a")
            return
        self.frames, self.ctx, self.start = tuple(frames), ctx, start
        self.positions = positions(frames)
        self.end = frames[-1].state if frames else start
        self.note.track(self._note_state())     # the note says when the page no longer plays the scenario as opened
        note = ""
        if self.showdown.value != self.scenario.state.showdown:
            note = (f"<br><span class='dg-showdown-note' style='color:#e8590c'>Replayed with the Final Showdown "
                    f"{'begun' if self.showdown.value else 'not begun'}: the scenario file sets showdown = "
                    f"{'true' if self.scenario.state.showdown else 'false'}, so its description may not hold.</span>")
        self.about.value = _box(f"<b>{html.escape(self.scenario.title)}</b><br><span style='color:#495057'>"
                                f"{html.escape(self.scenario.description)}</span>{note}")
        self.forecast.value = forecast_html(sc, start, self.rulings())
        self.trace = trace_of(self.scenario.title, frames, ctx.rulings.consulted)
        self._build_choices()
        self._set_steps(pos)

    # -- stepping ----------------------------------------------------------------------------------------------------
    def state_at(self, position: int) -> GameState:
        """The state at ``position`` (0: before the first step)."""
        return self.start if position == 0 else self.positions[position - 1].state

    def show(self, position: int) -> None:
        """Show ``position``: the focused step, what changed, the gauges, the step list and the map (one redraw)."""
        n = len(self.positions)
        position = max(0, min(n, position))
        if self.slider.value != position:
            self._quiet = True
            self.slider.value = position
            self._quiet = False
        self.prev_button.disabled = position == 0
        self.next_button.disabled = position == n
        self.position_label.value = (f"<span class='dg-position' style='font-family:sans-serif;font-size:13px'>"
                                     f"&nbsp;step {position} of {n}</span>")
        state = self.state_at(position)
        if position == 0:
            self._changes: list[dict] = []
            self.focus.value = _box(
                "<div style='font-size:11px;color:#1864ab;text-transform:uppercase'>Before the first step</div>"
                f"<div style='font-size:15px;font-weight:bold'>The position at {html.escape(self.scenario.start)} "
                f"of round {self.start.round}</div><div style='color:#495057'>Press Next ▶ (or drag the slider) to "
                "play the Nemesis Phase one cited step at a time; the map shows the state after the step.</div>",
                "dg-focus", "border-left:4px solid #1c7ed6;background:#e7f5ff;padding:6px 10px;border-radius:4px")
            marks: tuple[str, ...] = ()
            moves: tuple[tuple[str, str], ...] = ()
            before_threat = None
        else:
            fr = self.positions[position - 1]
            before = self.state_at(position - 1)
            self._changes = changes(before, state)
            step = fr.step
            frame_before = self.start if fr.frame == 0 else self.frames[fr.frame - 1].state
            made, rejected = frame_notes(frame_before, fr.state, step)
            ch = "".join(f"<li>{html.escape(c['text'])}</li>" for c in self._changes) or \
                "<li style='color:#868e96'>nothing on the board or tracks changes</li>"
            choice = _choice_html(made)
            rej = (f"<div style='font-size:12px;color:#495057'>Rejected, in the rule's order: "
                   f"{html.escape(', '.join(rejected))}</div>" if rejected else "")
            self.focus.value = _box(
                f"<div style='font-size:11px;color:#1864ab;text-transform:uppercase'>Step {position} · "
                f"{html.escape(step.section)}</div><div class='dg-step-title' style='font-size:15px;font-weight:bold'>"
                f"{html.escape(step.title)}</div><div style='font-size:12px;color:#1864ab'>§ "
                f"{html.escape(step.rule.section)}</div>"
                + (f"<div style='color:#343a40'>{html.escape(step.detail)}</div>" if step.detail else "")
                + rej + choice
                + f"<div style='margin-top:4px'><b>What changed</b><ul class='dg-changes' style='margin:2px 0 0 0;"
                f"padding-left:18px'>{ch}</ul></div>",
                "dg-focus", "border-left:4px solid #1c7ed6;background:#e7f5ff;padding:6px 10px;border-radius:4px")
            marks = tuple(step.marks) + tuple(m for c in self._changes for m in c["marks"])
            moves = tuple((c["start"], c["to"]) for c in self._changes if c["kind"] == "move")
            before_threat = before.threat
        if position == 0:
            head = f"Before the first step · threat {state.threat}"
        else:
            st = self.positions[position - 1].step
            head = f"{html.escape(st.section)} · <b>{html.escape(st.title)}</b>"
        self.headline.value = _box(head + (" · <b style='color:#c92a2a'>LOST</b>" if state.lost else ""),
                                   "dg-headline", "font-size:14px;padding:2px 0")
        self.gauges.value = gauges_html(state)
        self._fill_trace_list()
        nearby = self._nearby(self.selected) if self.selected else ()
        self.redraw(marks=marks, moves=moves, threat_before=before_threat, nearby=nearby)
        if self.selected:
            self.space_info.value = self._space_html(self.selected, state)

    def _fill_trace_list(self) -> None:
        """The step list (only while its panel is open: it is long, and sending it on every step costs time)."""
        if self.steps_panel.selected_index == 0:
            p = self.slider.value
            self.trace_list.value = render_trace_html(self.trace, p - 1 if p else None)

    def redraw(self, **kw) -> None:
        """Draw the map for the current position (``kw`` as :func:`draw_map`); one message. With no arguments (the
        Panel page's ``onload``), the manager's cached canvas is reset first and the current position re-shown."""
        if not kw:
            reset_manager(self.canvas)
            self.show(self.slider.value)
            return
        draw_map(self.canvas, self.geo, self.state_at(self.slider.value), selected=self.selected,
                 min_font=self.label_floor.min_px, **kw)
        self.redraws += 1

    # -- choices -----------------------------------------------------------------------------------------------------
    def open_choices(self) -> list[tuple[str, str, list[str], str]]:
        """Every choice point of the playthrough with more than one option: ``[(key, label, options, taken)]``;
        ``key`` is ``"<kind>.<id>"`` (``attack_target.Thug 1``...) or ``"activation_order.<group>"``."""
        out, seen = [], set()
        for rec in self.end.choices if self.end is not None else ():
            if len(rec.options) < 2:
                continue
            if rec.input == "activation_order":
                key, label = f"activation_order.{rec.group}", f"First of {rec.group}"
                taken = rec.chosen[0]
            else:
                key, label, taken = rec.input, _choice_label(rec.input), rec.chosen
            if key in seen:
                continue
            seen.add(key)
            out.append((key, label, list(rec.options), taken))
        return out

    def choose(self, key: str, value: str | None) -> None:
        """Set one choice (``value`` ``None``: back to the default) and re-run."""
        kind, _, ident = key.partition(".")
        if kind == "activation_order":
            order = [x for x in self.choices.get("activation_order", []) if x != value]
            group = next((o for k, _, o, _ in self.open_choices() if k == key), [])
            order = [x for x in order if x not in group]
            self.choices["activation_order"] = ([value] if value else []) + order
        else:
            d = dict(self.choices.get(kind, {}))
            if value is None:
                d.pop(ident, None)
            else:
                d[ident] = value
            self.choices[kind] = d
        self.run()
        self.url_state_changed()

    def _build_choices(self) -> None:
        rows = []
        for key, label, options, taken in self.open_choices():
            kind, _, ident = key.partition(".")
            if kind == "activation_order":
                mine = next((x for x in self.choices.get("activation_order", []) if x in options), None)
            else:
                mine = self.choices.get(kind, {}).get(ident)
            dd = W.Dropdown(options=[DEFAULT] + options, value=mine if mine in options else DEFAULT,
                            description=label, tooltip=f"taken now: {taken}", style={"description_width": "170px"},
                            layout=W.Layout(width="420px"))
            dd.observe(lambda c, k=key: self.choose(k, None if c["new"] == DEFAULT else c["new"]), names="value")
            rows.append(W.HBox([dd, W.HTML(_box(f"taken: <b>{html.escape(taken)}</b>", style="font-size:12px"))],
                               layout=W.Layout(align_items="center")))
        if not rows:
            rows = [W.HTML(_box("<i>No ties in this playthrough: the rules decide every step.</i>",
                                style="font-size:12px;color:#868e96"))]
        self.choices_box.children = rows

    # -- the page's link (explorer.widgets.picker_url.keep_in_url) ---------------------------------------------------
    def _link_showdown(self, value: object) -> None:
        if not isinstance(value, bool):
            raise ScenarioError("showdown", f"{short_repr(value)} is not true or false", "true or false", LINK_SOURCE)
        self.showdown.value = value

    def _link_choices_value(self) -> dict[str, Any]:
        return {k: (list(v) if k == "activation_order" else dict(v)) for k, v in self.choices.items() if v}

    def _link_choices(self, value: object) -> None:
        """Set your choices from a link: checked for shape and bounds, played, then each choice checked against the
        options of its choice point in the playthrough (a choice no tie offers is refused)."""
        if not isinstance(value, dict):
            raise ScenarioError("choices", "is not a table of choices", ", ".join(CHOICE_KINDS), LINK_SOURCE)
        mine: dict[str, Any] = {}
        for kind, v in value.items():
            where = f"choices.{kind}"
            if kind not in CHOICE_KINDS:
                raise ScenarioError(where, "is not a kind of choice", ", ".join(CHOICE_KINDS), LINK_SOURCE)
            items = v if kind == "activation_order" else list(v.items()) if isinstance(v, dict) else None
            if not isinstance(items, list) or len(items) > MAX_LINK_CHOICES:
                raise ScenarioError(where, "is not a list (activation_order) or table of choices",
                                    f"at most {MAX_LINK_CHOICES} entries", LINK_SOURCE)
            texts = items if kind == "activation_order" else [t for kv in items for t in kv]
            if not all(isinstance(t, str) and 0 < len(t) <= MAX_NAME_CHARS for t in texts):
                raise ScenarioError(where, "holds something that is not a name", f"names of 1 to {MAX_NAME_CHARS} "
                                    "characters", LINK_SOURCE)
            mine[kind] = list(items) if kind == "activation_order" else dict(items)
        self.choices = mine
        self.run()
        offered = {k: o for k, _label, o, _t in self.open_choices()}
        groups = [o for k, o in offered.items() if k.startswith("activation_order.")]
        for kind, v in mine.items():
            if kind == "activation_order":
                bad = next((x for x in v if not any(x in g for g in groups)), None)
                if bad is not None:
                    raise ScenarioError("choices.activation_order", f"{short_repr(bad)} is not an enemy tied on "
                                        "activation in this playthrough",
                                        [x for g in groups for x in g] or "none", LINK_SOURCE)
                continue
            for ident, chosen in v.items():
                options = offered.get(f"{kind}.{ident}")
                if options is None or chosen not in options:
                    raise ScenarioError(f"choices.{kind}.{ident}", f"{short_repr(chosen)} is not an option of a "
                                        "choice in this playthrough", options or "none", LINK_SOURCE)

    def _link_step(self, value: object) -> None:
        n = len(self.positions)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= n:
            raise ScenarioError("step", f"{short_repr(value)} is not a step of this playthrough",
                                f"a whole number from 0 to {n}", LINK_SOURCE)
        self.slider.value = value

    def _link_space(self, value: object) -> None:
        if value is not None and (not isinstance(value, str) or value not in self.scenario.world):
            raise ScenarioError("space", f"{short_repr(value)} is not a space of the map",
                                "a space name, or null", LINK_SOURCE)
        self.click_space(value)

    # -- clicking a space --------------------------------------------------------------------------------------------
    def _nearby(self, space: str) -> tuple[str, ...]:
        own = self.rulings()["nearby_space_itself"] == "same_and_adjacent"
        return self.scenario.world.nearby_spaces(space, include_self=own)

    def click_space(self, space: str | None) -> None:
        """Select ``space`` (or nothing): its info under the map and a ring on it (one redraw)."""
        self.selected = space
        if hasattr(self, "url_state_changed"):
            self.url_state_changed()
        if space is None:
            self.space_info.value = _box("<i style='color:#868e96'>Click a space: what is nearby it and how far "
                                         "the nearest operational base is.</i>", "dg-space-info")
        self.show(self.slider.value)

    def _clicked(self, x: float, y: float) -> None:
        self.click_space(self.geo.space_at(x, y))

    def _space_html(self, space: str, state: GameState) -> str:
        w = self.scenario.world
        near = nearest_operational_bases(w, space, state.operational_bases(), self.rulings()["region_distance"])
        if near is None:
            base = "no operational base is left"
        else:
            scope = "in its region" if near.scope == "region" else "anywhere (none in its region)"
            base = (f"nearest operational base {scope}: {', '.join(near.bases)} at {near.distance} line"
                    f"{'s' if near.distance != 1 else ''}")
        pieces = [h.name for h in state.heroes_in(space)] + [e.id for e in state.enemies if e.space == space]
        b = state.base_at(space)
        kind = ("Asgard (not a base, never overrun)" if space == w.asgard else
                f"base {b} ({'overrun' if b in state.overrun else 'operational'})" if b else "a space")
        return _box(f"<b>{html.escape(space)}</b> · {html.escape(kind)} · region "
                    f"{html.escape(dict(w.regions).get(w.region_of(space), w.region_of(space)))}<br>Nearby "
                    f"(ruling nearby_space_itself): {html.escape(', '.join(self._nearby(space)))}<br>"
                    f"{html.escape(base)}<br>Here: {html.escape(', '.join(pieces) or 'nobody')}",
                    "dg-space-info", "font-size:12px")


def _choice_label(inp: str) -> str:
    kind, _, ident = inp.partition(".")
    return {"attack_target": f"{ident} attacks", "base_tie": f"{ident} heads for", "move_via": f"{ident} moves via",
            "respawn": f"{ident} respawns on"}.get(kind, inp)


def _choice_html(recs: tuple[ChoiceMade, ...]) -> str:
    out = []
    for r in recs:
        if len(r.options) < 2:
            continue
        how = "the stated default: " + r.why_default if r.default_used else "your choice"
        out.append(f"<div style='font-size:12px;color:#5f3dc4'>Choice {html.escape(_choice_label(r.input))}: "
                   f"<b>{html.escape(str(r.chosen))}</b> of {html.escape(', '.join(r.options))} "
                   f"({html.escape(how)})</div>")
    return "".join(out)


def forecast_html(scenario: NemesisScenario, start: GameState, rulings: dict[str, str]) -> str:
    """The chance of losing within the next Nemesis Phase from ``start`` if the event deck were shuffled (exact over
    the possible top cards: :func:`.forecast.loss_forecast`), as one line; ``""`` if it cannot be computed."""
    from .forecast import loss_forecast
    from .nemesis import SEC1, SEC2

    if scenario.start != SEC1:          # the scenario starts mid-phase: a whole phase from here is not the question
        return ""
    from .forecast import phases_words

    if not start.event_deck and scenario.phases == 1 and scenario.stop in (SEC1, SEC2):
        # the scenario plays only steps 1-2 and lists no event card (a scenario gives only the cards it draws; Setup
        # builds a deck of 12): a whole phase from here would lose at step 3 by the file, not by the game
        return _box(f"<b>Loss probability in {phases_words(start.round, 1)}</b>: "
                    f"<span class='dg-forecast'>not computed</span>: this scenario stops after step "
                    f"{html.escape(scenario.stop)} and lists no event card (a scenario "
                    f"gives only the cards it draws; Setup builds a deck of 12), so step 3, Resolve Event Cards, "
                    f"cannot be played from it.", "dg-forecast-box", "font-size:12px")
    try:
        f = loss_forecast(scenario, 1, rulings, state=start)
    except ExplorerError:
        return ""
    cards = f"{f.draws} possible top card{'s' if f.draws != 1 else ''}"
    how = (f"exact over the {cards}" if f.exact and start.event_deck else
           "this scenario lists no event card left, so by the rule step 3 finds none" if f.exact
           else f"{f.draws} seeded shuffles")
    why = "; ".join(f"{r} {percent(p, 0)}" for r, p in f.reasons.items())
    return _box(f"<b>Loss probability in {phases_words(start.round, 1)}</b> (from its start, the event deck "
                f"shuffled): "
                f"<span class='dg-forecast'>{percent(f.p_loss, 0)}</span> ({how})" + (f": {html.escape(why)}" if why
                                                                                      else ""),
                "dg-forecast-box", "font-size:12px")


def gauges_html(state: GameState, gauges: tuple | None = None) -> str:
    """The loss gauges of ``state`` as HTML bars (:func:`~explorer.games.dagger.nemesis.loss_gauges`; ``gauges``:
    these instead, e.g. a Round position's, whose event deck during Setup is the one Setup has stacked)."""
    rows = []
    for g in gauges if gauges is not None else gauges_of(state):
        v, lim = g.value, g.limit
        text = g.text
        if g.name == "events" and v is None:                   # during Setup, before the deck is stacked
            frac = 0.0
        elif g.name == "events" and v == 0:
            # a scenario lists only the cards it draws (Setup builds 12): an empty deck is the file's, not a near
            # loss; grey, and said so (outcome.py names it last in the loss conditions for the same reason)
            frac, text = 1.0, text + " \u2014 this scenario lists no further card (it gives only the cards it draws)"
        elif g.name == "events":
            frac = min(1.0, 1 / (v + 1))       # fewer cards left: closer to the loss
        elif g.name == "deadline":
            frac = 0.0 if v is None or state.showdown else max(0.0, min(1.0, 1 - (v - state.round) / 2))
        else:
            frac = min(1.0, v / lim) if lim else 0.0
        colour = "#c92a2a" if g.lost or frac >= 0.75 else "#f59f00" if frac >= 0.5 else "#2b8a3e"
        if g.name == "events" and v == 0 and not g.lost:
            colour = "#ced4da"
        rows.append(f"<div class='dg-gauge' data-name='{g.name}' style='display:flex;align-items:center;"
                    f"gap:6px;margin:1px 0'><div style='width:120px;height:10px;background:#f1f3f5;border-radius:5px;"
                    f"overflow:hidden;flex:none'><div style='width:{frac * 100:.0f}%;height:100%;background:{colour}'>"
                    f"</div></div><span>{'<b>LOST</b> ' if g.lost else ''}{html.escape(text)}</span></div>")
    head = ("<b style='color:#c92a2a'>The heroes have lost: " + html.escape(", ".join(state.lost)) + "</b>"
            if state.lost else "<b style='color:#2b8a3e'>The heroes have won</b>" if state.won
            else "<b>How close each loss is</b> <span style='color:#868e96'>(Winning and Losing)</span>")
    return _box(head + "".join(rows), "dg-gauges", "font-size:12px;margin:6px 0")


_LEGEND = _box(
    f"<span style='color:{HERO_FILL}'>●</span> hero &nbsp;<span style='color:{ENEMY_FILL}'>●</span> enemy &nbsp;"
    f"<span style='color:{ELITE_FILL}'>●</span> elite &nbsp;<span style='color:{NEMESIS_FILL}'>●</span> nemesis "
    "&nbsp;<span style='color:#2b8a3e'>□</span> operational base &nbsp;<span style='color:#c92a2a'>☒</span> overrun "
    f"&nbsp;<span style='color:#e0a800'>◆</span> Asgard &nbsp;<span style='color:{MARK}'>○ →</span> what the step "
    "talks about or changed. The map is the packaged stand-in, not the printed board.",
    "dg-legend", "font-size:11px;color:#495057;max-width:760px")


PHONE_CSS = "<style>@media (max-width:760px){.dg-nemesis>.scenario-note{order:10;margin-top:12px}}</style>"
"""On a narrow screen (a phone) the page's Outcome block (the scenario's verdict, :class:`.ScenarioNote`) goes under
the map and the step, which a reader looks at first, instead of pushing them a screen down."""


def nemesis_page(scenario_id: str = DEFAULT_SCENARIO, game: Game | None = None) -> tuple[NemesisStepper,
                                                                                         Callable[[], None]]:
    """The Nemesis Phase stepper for the Panel app: ``(widget, redraw)``; call ``redraw`` on ``pn.state.onload``.
    ``game``: the page's :class:`~explorer.games.Game` (passed by ``Page.open``)."""
    w = NemesisStepper(scenario_id, game=game)
    return w, w.redraw


__all__ = ["NemesisStepper", "nemesis_page", "nemesis_scenarios", "changes", "draw_map", "gauges_html",
           "MapGeometry", "piece_positions", "DEFAULT_SCENARIO", "Position", "positions", "frame_notes"]
