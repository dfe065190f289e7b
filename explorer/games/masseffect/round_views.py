"""The Round page of Mass Effect: Priority Hagalaz: a ``round`` scenario stepped one cited step at a time (Prev /
Next / the slider), drawn from the kernel frames through :mod:`.round_view`: the step and its rule, the Mission Map
with the Squadmates, Enemies and face-down Loot tokens (what the step names ringed), each Squadmate's sheet (Shield
Points, Hit Points, Downed, XP, the Action Spaces holding a die, the Hazard card dealt, Abilities unlocked), the
Enemies, the Strategy Pool's dice, the Hazard deck and discard pile, the Inventory and the Objectives, and every
step; Download / Open of the round file. Ruling options replay the scenario; the scenario (or the opened file), the
step and the readings are in the page's link. The page body is the shared
:class:`explorer.widgets.round_stepper.RoundStepperView`. Widgets only: the rules are in :mod:`.round`.

The board at a step is the state after it where the engine keeps that state (a frame's last step), else the board as
the step's frame found it, said on the page (:func:`explorer.kernel.steps_shown`).
The Squadmate Sheets are the documented stand-in of :mod:`.sheets` (the rulebook prints none); the page says so.

Rulebook sections: Playing a Mission (Preparation Phase, Squadmate Phase, End Phase) and whatever each step cites.
"""

from __future__ import annotations

import html


from explorer.games import Game
from explorer.hexgrid import Hex
from explorer.render.svg import Circle, HexMark, Label, Overlay, Segment
from explorer.widgets.round_stepper import RoundStepperView, box, fit_map, step_head

from . import options as opts
from .map import MissionMap, load_map, map_from_dict
from .map_svg import layout, render_map
from .round import play_round, round_start
from .round_view import RoundPosition, SquadmatePanel, positions_from
from .sheets import STANDIN

STANDINS = ("The Squadmate Sheets (Core Abilities, Ability Boxes, Action Spaces) are a documented, editable STAND-IN: "
            "the rulebook describes the abilities in its Squadmate Commentary but prints no full sheet.")
FRAME_NOTE = ("The board, sheets and Pool show the game after the step where the engine keeps that state (the last "
              "step of a piece of a phase or turn: a Hazard card drawn, Step A, a die allocated, a Damage, a Move, "
              "an Opportunity Attack, Loot, a Hazard card task, the End Phase's tokens); a step that tells of a "
              "change is always such a step. At a step before it, the board is as that piece found it, and the step "
              "says so.")
LOOT_FILL = "#2874a6"
MOVED_STROKE = "#868e96"
CHATIKA_FILL = "#0c8599"


def round_scenarios(game: Game) -> list[str]:
    """The game's built-in scenarios of kind ``round``."""
    return [s.name for s in game.scenarios() if s.kind == "round"]


def _pips(n: int, of: int, on: str, off: str = "#e9ecef") -> str:
    return "".join(f"<span style='display:inline-block;width:9px;height:9px;margin-right:1px;border-radius:2px;"
                   f"background:{on if i < n else off};border:1px solid #adb5bd'></span>" for i in range(of))


def _sheet_html(q: SquadmatePanel) -> str:
    tags = [t for t in ("On Point" if q.on_point else "", "DOWNED" if q.downed else "") if t]
    rows = [f"<b>{'▶ ' if q.to_play else ''}{html.escape(q.name)}</b> on {html.escape(q.hex or 'no hex')}"
            + (f" · <b style='color:{'#c92a2a' if q.downed else '#1864ab'}'>{' · '.join(tags)}</b>" if tags else ""),
            f"Shield Points {_pips(q.shield_points, q.shield_max, '#4dabf7')} {q.shield_points}/{q.shield_max} · "
            f"Hit Points {_pips(q.hit_points, q.hit_max, '#fa5252')} {q.hit_points}/{q.hit_max} · XP {q.xp}/3"]
    extra = [x for x in ("" if q.renegade_tokens is None else
                         f"{q.renegade_tokens} Renegade token{'' if q.renegade_tokens == 1 else 's'}",
                         q.analysis and f"Analysis token {q.analysis}", q.core,
                         q.used and "dice on " + ", ".join(q.used),
                         q.hazard_card and f"Hazard card {q.hazard_card} (face-down)",
                         q.unlocked and "unlocked: " + ", ".join(q.unlocked)) if x]
    if extra:
        rows.append(f"<span style='font-size:11px;color:#495057'>{html.escape('; '.join(extra))}</span>")
    return (f"<div class='me-sheet' data-squadmate='{html.escape(q.name)}' style='margin:3px 0;padding:3px 6px;"
            f"border-left:4px solid {'#1c7ed6' if q.to_play else '#dee2e6'};"
            f"{'background:#fff5f5;' if q.downed else ''}'>" + "<br>".join(rows) + "</div>")


def _dice_html(pos: RoundPosition) -> str:
    dice = "".join(f"<span class='me-die' style='display:inline-block;min-width:30px;margin:1px 2px;padding:1px 3px;"
                   f"border-radius:4px;text-align:center;font-size:11px;background:"
                   f"{'#fff3bf' if d.startswith('P') else '#f1f3f5'};border:1px solid #868e96'>"
                   f"{html.escape(d.split(' ', 1)[1] if ' ' in d else d)}</span>" for d in pos.dice)
    known = any(not d.endswith("?") for d in pos.dice)
    return (f"<b>Strategy Pool</b>: {pos.pool} {'die' if pos.pool == 1 else 'dice'}"
            + (f"<div>{dice}</div>" if known else
               " <span style='font-size:11px;color:#868e96'>(faces not rolled here: the file declares the face of "
               "each die it takes)</span>" if pos.dice else ""))


def sheets_note(sheets: str = STANDIN) -> str:
    """Where the Squadmate Sheets shown come from, in one line: the built-in stand-in (the rulebook prints no sheet;
    its numbers are ours) or the round file's own sheet file ``sheets``."""
    if sheets == STANDIN:
        return ("Squadmate Sheets: the built-in STAND-IN (sheets/standin.toml): the rulebook prints no sheet; the "
                "Ability names are the Squadmate Commentary's, the numbers ours")
    return f"Squadmate Sheets: this file's own sheet file ({sheets}), not the built-in stand-in"


def position_html(pos: RoundPosition, number: int, total: int, sheets: str = STANDIN) -> str:
    """The focused step, the sheets (with :func:`sheets_note`: where they come from, ``sheets`` being the round
    file's ``sheets`` field), the Enemies, the Pool, the Hazard deck, Loot and Objectives at ``pos`` (HTML,
    escaped)."""
    head = step_head(pos.step, number, total, "me-step-title", pos.note) + (
        "<div style='font-size:11px;color:#868e96'>Moved in "
        f"{html.escape(pos.frame_name)} (grey dashes on the map): " + html.escape(", ".join(
            f"{n} {a or 'off the map'} → {b or 'off the map'}" for n, a, b in pos.moved)) + "</div>"
        if pos.moved else "")
    enemies = "<br>".join(
        f"{html.escape(e.name)} ({e.kind}) on {html.escape(e.hex)}" + html.escape(
            "".join(f" · {x}" for x in (f"{e.damage} Damage" if e.damage else "", "Stunned" if e.stunned else "",
                                         "Biotic Effect" if e.biotic_effect else "",
                                         "Shrouded" if e.shrouded else "",
                                         f"Resilience {e.exhausted}/{len(e.resilience)} marked"
                                         if e.resilience else "") if x))
        for e in pos.enemies) or "none on the map"
    board = (_dice_html(pos)
             + f"<div><b>Hazard deck</b>: {pos.deck} card{'' if pos.deck == 1 else 's'} · discard: "
             f"{html.escape(', '.join(pos.discard) or 'empty')}"
             + (f" · reshuffled {pos.reshuffled}×" if pos.reshuffled else "") + "</div>"
             + (f"<div><b>Loot</b> on the map: {html.escape(', '.join(f'{h} ({n})' for h, n in pos.loot) or 'none')}"
                f" · <b>Inventory</b>: {html.escape(', '.join(pos.inventory) or 'empty')}</div>"
                if pos.loot or pos.inventory else "")
             + (f"<div>Back in the Enemy Bag: {html.escape(', '.join(pos.returned_to_bag))}</div>"
                if pos.returned_to_bag else "")
             + (f"<div><b>Progress Boxes</b> marked: "
                f"{html.escape(', '.join(f'{n}: {k}' for n, k in pos.progress))}</div>" if pos.progress else "")
             + (f"<div><b>Objectives completed</b>: {html.escape(', '.join(pos.completed) or 'none')}"
                + (f" · <b>Mission over: {html.escape(pos.ending)}</b>" if pos.ending else "") + "</div>"
                if pos.completed or pos.ending else ""))
    return (box(head, "me-focus", "border-left:4px solid #1c7ed6;background:#e7f5ff;padding:6px 10px;"
                                   "border-radius:4px")
            + box("".join(_sheet_html(q) for q in pos.squadmates)
                  + f"<div class='me-sheets-source' style='font-size:11px;color:#868e96'>"
                    f"{html.escape(sheets_note(sheets))}</div>", "me-sheets", "font-size:13px;margin-top:6px")
            + box(f"<b>Enemies</b><br>{enemies}", "me-enemies", "font-size:12px;margin-top:6px")
            + box(board, "me-pool", "font-size:13px;margin-top:6px"))


def map_html(m: MissionMap, pos: RoundPosition) -> str:
    """The Mission Map at ``pos``: Squadmates, Enemies, face-down Loot tokens (blue ``L`` and their number), where
    the step's phase or turn moved a character from (a grey dashed ring and line to where it stands now, or where it
    stood when it left the map), Tali's drone token Chatika (a teal ``C`` in a teal dashed hex) and what the step names (a character or a
    hex) ringed in amber (SVG)."""
    chars: dict[str, tuple[Hex, str]] = {}
    for side, group in (("squadmate", pos.squadmates), ("enemy", pos.enemies)):
        for c in group:
            if c.hex:
                chars[c.name] = (Hex.parse(c.hex), side)
    px = layout(m).hex_to_pixel
    extra: list[Overlay] = []
    for _name, a, b in pos.moved:
        if not a:
            continue
        start = px(Hex.parse(a))
        extra.append(Circle(start, 0.42, stroke=MOVED_STROKE, width=1.5, dash="3 3"))
        if b:                                   # stops at the disc's edge: its label stays readable
            (x0, y0), (x1, y1) = start, px(Hex.parse(b))
            d = max(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, 1e-9)
            k = max(0.0, (d - 0.55) / d)
            extra.append(Segment(start, (x0 + (x1 - x0) * k, y0 + (y1 - y0) * k), stroke=MOVED_STROKE, width=2.0,
                                 dash="5 4"))
    if pos.chatika:                              # Tali's drone, a token: a small teal disc low in its hex, clear
        x, y = px(Hex.parse(pos.chatika))        # of a character's disc in the middle
        extra.append(HexMark(Hex.parse(pos.chatika), stroke=CHATIKA_FILL, width=2.0, dash="4 3"))
        extra.append(Circle((x, y + 0.62), 0.27, fill=CHATIKA_FILL, stroke="#ffffff", width=1.5,
                            title=f"Chatika (Tali's drone) on {pos.chatika}"))
        extra.append(Label((x, y + 0.62 + 0.14), "C", size=10, fill="#ffffff", weight="bold"))
    for h, n in pos.loot:
        x, y = px(Hex.parse(h))
        extra.append(Label((x + 0.45, y - 0.45), f"L{n}", size=10, fill=LOOT_FILL, weight="bold"))
    for mk in pos.step.marks:
        if mk in chars:
            extra.append(Circle(px(chars[mk][0]), 0.62, stroke="#f59f00", width=3.0))
            continue
        try:
            h = Hex.parse(mk)
        except ValueError:
            continue
        if h in m:
            extra.append(HexMark(h, stroke="#f59f00", width=3.0))
    return fit_map(render_map(m, characters=chars, extra=extra, size=24.0), "me-round-map")


class RoundStepper(RoundStepperView):
    """The Mass Effect Round page (:class:`explorer.widgets.round_stepper.RoundStepperView`): the map beside the
    focused step with the Squadmate sheets, the Enemies, the Strategy Pool and the Hazard deck.

    Attributes:
        positions: one :class:`.round_view.RoundPosition` per cited step (the file replayed with the rulings chosen).
        trace: the scenario's trace with those rulings. mission_map: the scenario's Mission Map.
    """

    css = "me"

    def __init__(self, scenario_id: str, game: Game):
        super().__init__(scenario_id, game, opts.rulings().options, label_width="220px", dropdown_width="460px",
                         map_first=True, map_basis="480px")

    def opened(self, scenario, name: str) -> None:
        """Read the scenario's Mission Map and show the file's own readings (``play_round`` reads them too)."""
        spec = scenario.map
        self.mission_map = load_map(spec) if isinstance(spec, str) else map_from_dict(spec, name)
        self._quiet = True
        try:
            for k, v in scenario.rulings.items():
                if k in self.rulings_box and v in self.rulings_box[k].options:
                    self.rulings_box[k].value = v
        finally:
            self._quiet = False

    def describe(self, scenario) -> str:
        return box(f"<b>{html.escape(scenario.title)}</b><br><span style='color:#495057'>"
                   f"{html.escape(scenario.description)}</span><br><i style='color:#868e96'>"
                   f"{html.escape(STANDINS if scenario.sheets == STANDIN else sheets_note(scenario.sheets) + '.')} "
                   f"{html.escape(FRAME_NOTE)}</i>", "me-about", "font-size:12px")

    def play(self):
        frames, trace = play_round(self.scenario, self.rulings())
        start = round_start(self.scenario, self.rulings())[0]
        return positions_from(frames, start), trace, trace.result.rejected

    def draw(self, pos: RoundPosition, number: int, total: int) -> None:
        self.focus.value = position_html(pos, number, total, self.scenario.sheets)
        self.map.value = map_html(self.mission_map, pos)


def round_page(scenario_id: str, game: Game) -> tuple[RoundStepper, None]:
    """A fresh Round page opened on ``scenario_id`` (a ``round`` built-in): ``(widget, None)``."""
    return RoundStepper(scenario_id, game), None


__all__ = ["RoundStepper", "round_page", "position_html", "map_html", "round_scenarios", "sheets_note"]
