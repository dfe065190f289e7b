"""TAG Raid Order Expenditure Sequence stepper: a whole Order on the board, step by step, with AROs and dice.

Sections shown (the engine, :mod:`.orders`, decides them; this module only draws and lists its answers): Activating
a Miner › Order Expenditure Sequence (1 Activation, 1.2 first Skill: Move, 2.1 / 2.2 AROs, 3 second Skill, 4.1 /
4.2 AROs again, 5 Resolution, 5.1 Effects, 5.2 Conclusion, 5.3 End of the Order); Activating a Miner › Orders and
AROs (who may declare an ARO and why); Common Skills › Move; Line of Fire and Distances › Line of Fire (the witness
of LoF during a Move); States; Death; MegaBeast › Skills, Attacks, and AROs (redirection at Conclusion).

Public API:

* :func:`order_scenarios` — the built-in ``kind = "order"`` scenario ids; :data:`DEFAULT_ORDER` opens the page.
* :func:`order_entry` / :func:`dice_entry` — an Order's declarations and dice back as the ``[order]`` / ``[dice]``
  tables of an order file (``docs/scenario-format.md``), so a stepper's state is a file (and a link).
* :func:`board_overlays` — what the board shows at one step: the Move routes, each ARO right where it appears (the
  LoF witness line from the Reactive Miner to the Active Miner's base at the point of the route where LoF appears,
  "targeted", or "same hexagon: Evade only"), the MegaBeast's facing before and after Conclusion.
* :func:`tray_rows` — the dice of step 5 as :class:`~explorer.widgets.dice_tray.Row` values.
* :class:`OrderStepper` — the widget: the board (click a Miner to activate it, click hexagons to draw its Move),
  the declarations (second Skill, AROs, dice), back / forward through the steps (a replay of the declaration log),
  each step with its section, a refused declaration's reason and section beside its control.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import ipywidgets as W

from explorer.widgets.labels import button_width
from explorer.widgets.cards import CARDS_CLASS

from explorer.text import plural
from explorer.widgets.files import download_link, upload_control, watch_upload
from explorer.errors import ExplorerError, RuleViolation, ScenarioError, short_repr, shorten_middle
from explorer.games import Game, get_game
from explorer.hexgrid import Hex
from explorer.render.svg import Overlay
from explorer.widgets.dice_tray import DiceTray, DieView, Link, Row
from explorer.widgets.hexboard import HexBoardView, Piece
from explorer.widgets.layout import class_token
from explorer.widgets.scenario_note import NEXT, ScenarioNote

from . import sections as S
from .orders.declarations import (ARO_SKILLS, SECOND_SKILLS, AroDecl, AttackShare, Interaction, MoveDecl,
                                  OrderDeclarations, OrderDice, Rejection, SkillDecl)
from .orders.orderfile import MAX_DICE, MAX_ROUTE, OrderScenario, parse_order
from .orders.round import RoundDeclarations, RoundReplay, replay_round
from .orders.roundfile import MAX_ROUND_ORDERS, RoundScenario, parse_round
from .orders.match import MatchContext, MatchDeclarations, next_round_start, play_match_until_refused, start_match
from .orders.matchfile import MatchScenario, parse_match
from .orders.resolution import ATTACKS as ATTACK_SKILLS, SKILL_WORDS
from .views import die_states, parse_faces
from .orders.sequence import STEPS, Frame
from .orders.state import OrderState
from .orders_svg import (TARGETED, OrderPicture, bases_of, board_overlays, order_svg,  # noqa: F401 (re-exported)
                         right_words, witness_position)

_WHERE_KEYS = frozenset({"step", "order_index", "round_index"})
"""The keys of :meth:`OrderStepper.url_state` that say where the reader is, not what the page holds (the scenario
note ignores them)."""

DEFAULT_ORDER = get_game("tagraid").page_default("orders")
"""The scenario the page opens with (the registry's rule, :attr:`explorer.games.Page.default`; ``tr-order-corner``:
a Move that gains an ARO partway (step 2), then an Attack whose target gains its ARO at step 4)."""

STEP_TITLES = {name: name for name, _ in STEPS}
STEP_HELP = {
    "1 Activation": "The Active Player names a Miner and spends one of its Orders.",
    "1.2 First Skill: Move": "The first Skill is Move: the route is checked when it is declared.",
    "2.1 ARO check": "Each enemy with LoF to the Active Miner at any point of its route (360° while it Moves), a "
                     "Skill without LoF, or the Active Miner in its Hexagon (Evade only) gains the right now.",
    "2.2 ARO declaration": "Those with the right declare their ARO in Timeline order (or lose it).",
    "3 Second Skill": "Close Combat Attack, Ranged Attack, Evade, Idle or a second Move.",
    "4.1 ARO check": "Those without a right yet may gain it now: LoF along a second Move, or being the target.",
    "4.2 ARO declaration": "Those who gained the right at step 4 declare their ARO.",
    "5 Resolution": "Requirements re-checked (a Skill that fails them is Idle), then the Rolls and Saving Rolls.",
    "5.1 Effects": "Evade movements (the Active Miner first; no ARO from them), Difficult Terrain.",
    "5.2 Conclusion": "The MegaBeast redirects if it was targeted without an ARO or a TAG activated next to it.",
    "5.3 End of the Order": "States take effect now; Death and Respawn.",
}
"""One line per sequence step (paraphrase; the cited steps carry the sections)."""

FOCUS_OF_FIELD = (("order.active", 1), ("order.move", 3), ("order.second", 6), ("order.evade_moves", 9),
                  ("dice", 8))
"""Which step the stepper shows after a declaration changes: the step that checks it (position = steps played)."""

MAX_ROUTE_POINTS = MAX_ROUTE
"""Points one drawn Move may have (the order file's own cap, :data:`.orders.orderfile.MAX_ROUTE`)."""
MAX_DICE_TEXT = 2000
"""Characters of one dice text field (``"A: 5 9 14; W: 7"``); each Miner's faces are capped by the order file's
:data:`.orders.orderfile.MAX_DICE`."""


# ----------------------------------------------------------------------------------------------------- scenarios


FILE_ENTRY = "\0file"
"""The "Open" picker's value for the entry naming an opened file (no built-in id can be it)."""


def order_scenarios() -> list[str]:
    """The ids of the built-in ``kind = "order"``, ``"round"`` and ``"match"`` TAG Raid scenarios
    (:data:`DEFAULT_ORDER` first): the stepper opens a single Order, a Round paged Order by Order, or a match paged
    Round by Round and Order by Order."""
    from explorer.games import get_game

    ids = [s.name for s in get_game("tagraid").scenarios() if s.kind in ("order", "round", "match")]
    return sorted(ids, key=lambda n: (n != DEFAULT_ORDER, n))


def builtin_document(name: str) -> dict[str, Any]:
    """The TOML document of a built-in order scenario (parsed through the loading gate).

    Raises:
        ScenarioError: not a built-in order scenario (lists them).
    """
    from explorer.games import get_game
    from explorer.scenario import read_toml

    if name not in order_scenarios():
        raise ScenarioError("scenario", f"no built-in order scenario {short_repr(name)}", order_scenarios())
    return read_toml(name, text=get_game("tagraid").scenario_text(name))


def _parse(doc: dict[str, Any], source: str) -> OrderScenario | RoundScenario | MatchScenario:
    data = {k: v for k, v in doc.items() if k != "game"}
    if data.get("kind") == "round":
        return parse_round(data, source)
    if data.get("kind") == "match":
        return parse_match(data, source)
    if data.get("kind") != "order":
        raise ScenarioError("kind", f"{short_repr(data.get('kind'))} is not an order, round or match file",
                            ["order", "round", "match"], source)
    return parse_order(data, source)


def round_order_entry(decl: OrderDeclarations, dice: OrderDice, board) -> dict[str, Any]:
    """One ``[[orders]]`` entry of a round file: the ``[order]`` table with its ``dice`` and ``seed``."""
    return {**order_entry(decl, board), "dice": dice_entry(dice), "seed": dice.seed}


def round_summary_html(rp: RoundReplay, k: int, n: int) -> str:
    """The Round around Order ``k`` (0-based) of ``n``: the Events Phase, whose Turn it is, and the End of the Round
    (or where the replay stops)."""
    def line(label: str, text: str, colour: str = "#333") -> str:
        return (f"<div style='font:12px sans-serif;color:{colour};margin:1px 0'><b>{html.escape(label)}</b> "
                f"{html.escape(text)}</div>")

    parts = [line("1 Events Phase:", "; ".join(s.title for s in rp.events_steps) or "—")]
    if rp.rejection is not None and rp.refused_order is None and rp.events is None:
        parts.append(line("Stops:", str(rp.rejection), "#922b21"))
    if k < len(rp.sides):
        parts.append(line("2 Players Phase:", f"Order {k + 1} of {n}, {rp.sides[k]}'s Player Turn"))
    if rp.rejection is not None and rp.refused_order is not None:
        parts.append(line("Stops:", f"Order {rp.refused_order + 1}: {rp.rejection}", "#922b21"))
    if rp.end is not None:
        parts.append(line("3 End of the Round:", "; ".join(s.title for s in rp.end_steps)))
    return "<div class='oes-round-summary'>" + "".join(parts) + "</div>"


def order_odds_html(o) -> str:
    """The exact odds of the whole Order's roll exchange (:class:`~.order_odds.OrderOdds`), as shown beside the
    dice: who wins each pair, then the Wounds lost and the Death (the MegaBeast: killed) of everyone in it."""
    from explorer.text import percent

    from .order_odds_words import pair_words, roll_name, winners

    rows = []
    for i, p in enumerate(o.pairs):
        odds = ", ".join(f"{html.escape(w if w is not None else 'nobody')} <b>{percent(v, 1)}</b>"
                         for w, v in winners(o, i))
        rows.append(f"<div>{html.escape(roll_name(p))} · {html.escape(pair_words(p))}: {odds}</div>")
    for m, wb in zip(o.miners, o.wounds_before):
        dist = ", ".join(f"{k}: {percent(v, 1)}" for k, v in enumerate(o.wounds(m)) if v)
        dies = "killed" if m == o.megabeast else "dies"
        rows.append(f"<div>{html.escape(m)} ({wb} left) loses {dist}; {dies} <b>{percent(o.p_dies(m), 1)}</b></div>")
    return ("<div class='oes-odds' style='font:12px sans-serif;margin:4px 0;padding:4px 6px;background:#f7f9fc;"
            "border:1px solid #d8e0ec;border-radius:3px;overflow-wrap:anywhere'><b>Exact odds of this Order</b> "
            "<span style='color:#555'>(every face of every die; as <code>explorer tagraid order-odds</code>)</span>"
            + "".join(rows) + "</div>")


def deployment_summary_html(access: Sequence[tuple[str, int]], refusal: str | None = None) -> str:
    """The Initial Deployment of a match, as the Round summary shows it before Round 1: where each player deployed
    (Access Point rolled), or why the deployment stops."""
    text = ", ".join(f"{side} at Access Point {n}" for side, n in access) or "—"
    out = (f"<div style='font:12px sans-serif;margin:1px 0'><b>06 Initial Deployment:</b> {html.escape(text)}</div>")
    if refusal:
        out += (f"<div style='font:12px sans-serif;color:#922b21;margin:1px 0'><b>Stops:</b> "
                f"{html.escape(refusal)}</div>")
    return out


def _point_value(board, p: tuple[float, float]) -> str | list[float]:
    h = board.layout.pixel_to_hex(p)
    c = board.layout.hex_to_pixel(h)
    if math.isclose(c[0], p[0], abs_tol=1e-9) and math.isclose(c[1], p[1], abs_tol=1e-9):
        return f"{h.q},{h.r}"
    return [float(p[0]), float(p[1])]


def _move_entry(board, m: MoveDecl) -> dict[str, Any]:
    out: dict[str, Any] = {"route": [_point_value(board, p) for p in m.route]}
    if m.facing is not None:
        out["facing"] = float(m.facing)
    if m.interact is not None:
        out["interact"] = {"target": m.interact.target, "equip": m.interact.equip,
                           "discard": list(m.interact.discard)}
        if m.interact.slot is not None:
            out["interact"]["slot"] = m.interact.slot
    if m.on is not None:
        out["on"] = [x or "" for x in m.on]
    return out


def _at_value(v):
    """A route fraction, or a point ``[x, y]`` (``fire_from`` / ``fire_at`` take no hexagon key)."""
    return float(v) if isinstance(v, (int, float)) else [float(v[0]), float(v[1])]


def _at_text(v) -> str:
    """What the "fires from" field shows for a ``fire_from`` / ``fire_at`` value: ``""`` (none: the end of the
    Move), a fraction ``"0.5"`` or a point ``"0, 0"`` (``repr`` digits, so the value reads back exactly)."""
    if v is None:
        return ""
    return repr(float(v)) if isinstance(v, (int, float)) else f"{float(v[0])!r}, {float(v[1])!r}"


def parse_fire_point(text: str, field: str = "order.second.fire_from") -> float | tuple[float, float] | None:
    """The firing point a page field names (Common Skills › Ranged Attack › Effects: every Attack from one point;
    Line of Fire: a Miner that declared Move draws LoF all along its route): ``""`` → ``None`` (the end of the
    Move), ``"0.5"`` → a fraction 0..1 of the first Move's route length, ``"x, y"`` → a point (board units, each
    within ±MAX_BOARD_UNITS; the sequence refuses a point that is not on the route).

    Raises:
        ScenarioError: not a number, a fraction outside 0..1, or a point out of bounds (names ``field``).
    """
    from explorer.board import MAX_BOARD_UNITS

    t = text.strip()
    if not t:
        return None
    allowed = f"a fraction 0..1 of the Move (0 its start, 1 its end), or a point x, y (|x|, |y| <= {MAX_BOARD_UNITS:g})"
    parts = [x.strip() for x in t.replace("(", "").replace(")", "").split(",")]
    try:
        vals = [float(x) for x in parts]
    except ValueError:
        raise ScenarioError(field, f"{short_repr(t)} is not a number or a point", allowed, "widget") from None
    if len(vals) == 1:
        f = vals[0]
        if not (math.isfinite(f) and 0.0 <= f <= 1.0):
            raise ScenarioError(field, f"{f:g} is outside 0..1", allowed, "widget")
        return f
    if len(vals) != 2 or not all(math.isfinite(v) and abs(v) <= MAX_BOARD_UNITS for v in vals):
        raise ScenarioError(field, f"{short_repr(t)} is not a point on the board", allowed, "widget")
    return (vals[0], vals[1])


def order_entry(decl: OrderDeclarations, board) -> dict[str, Any]:
    """The ``[order]`` table of an order file for ``decl`` (route points on a hexagon centre written as ``"q,r"``)."""
    second: dict[str, Any] = {"skill": decl.second.skill}
    if decl.second.weapon is not None:
        second["weapon"] = decl.second.weapon
    if decl.second.targets:
        second["targets"] = [{"target": t.target, **({"burst": t.burst} if t.burst is not None else {})}
                             for t in decl.second.targets]
    if decl.second.move is not None:
        second["move"] = _move_entry(board, decl.second.move)
    if decl.second.fire_from is not None:
        second["fire_from"] = _at_value(decl.second.fire_from)
    out: dict[str, Any] = {"active": decl.active, "move": _move_entry(board, decl.move), "second": second,
                           "aros": [{"miner": a.miner, "skill": a.skill, **({"weapon": a.weapon} if a.weapon else {}),
                                     **({"step": a.step} if a.step is not None else {}),
                                     **({"fire_at": _at_value(a.fire_at)} if a.fire_at is not None else {})}
                                    for a in decl.aros]}
    if decl.evade_moves:
        out["evade_moves"] = {k: _point_value(board, p) for k, p in decl.evade_moves}
    if decl.evade_on:
        out["evade_on"] = {k: v or "" for k, v in decl.evade_on}
    return out


def dice_entry(dice: OrderDice) -> dict[str, Any]:
    """The ``[dice]`` table of an order file for ``dice`` (the seed is the file's top-level ``seed``)."""
    return {"rolls": {k: list(v) for k, v in dice.rolls}, "saves": {k: list(v) for k, v in dice.saves},
            "respawn": list(dice.respawn)}


def _faces_text(pairs: Sequence[tuple[str, Sequence[int]]]) -> str:
    return "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in pairs)


def parse_dice_text(text: str, field: str, names: Sequence[str]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """``"A: 5 9 14; W: 7"`` -> ``(("A", (5, 9, 14)), ("W", (7,)))``.

    Raises:
        ScenarioError: a part without ``name:``, an unknown name (lists ``names``), a face outside 1..20, more than
            :data:`MAX_DICE_TEXT` characters or :data:`~.orders.orderfile.MAX_DICE` faces for one Miner.
    """
    if len(str(text)) > MAX_DICE_TEXT:
        raise ScenarioError(field, f"{len(str(text)):,} characters", f"at most {MAX_DICE_TEXT:,}", "widget")
    out: list[tuple[str, tuple[int, ...]]] = []
    for part in [p.strip() for p in str(text).split(";") if p.strip()]:
        name, sep, faces = part.partition(":")
        name = name.strip()
        if not sep:
            raise ScenarioError(field, f"{short_repr(part)} has no 'name:'", "Miner: faces; Miner: faces", "widget")
        if name not in names:
            raise ScenarioError(f"{field}.{name}", "not a Miner or MegaBeast of this table", list(names), "widget")
        if any(k == name for k, _ in out):
            raise ScenarioError(f"{field}.{name}", "given twice", "one entry per Miner", "widget")
        faces_list = parse_faces(faces, f"{field}.{name}")
        if len(faces_list) > MAX_DICE:
            raise ScenarioError(f"{field}.{name}", f"{len(faces_list)} faces", f"at most {MAX_DICE}", "widget")
        out.append((name, tuple(faces_list)))
    return tuple(out)


# ----------------------------------------------------------------------------------------------------- drawing


def pieces_of(state: OrderState) -> list[Piece]:
    """The board widget's pieces: :func:`~.orders_svg.bases_of` as :class:`~explorer.widgets.hexboard.Piece`."""
    return [Piece(c.title, c.center, c.radius, c.fill, c.stroke, c.facing, c.arc, "") for c in bases_of(state)]


def tray_rows(res) -> tuple[list[Row], list[Link]]:
    """Rows and cancellation links of step 5's dice (every Miner that rolled, the MegaBeast's Threat Level, the
    Saving Rolls), from the roll resolver's :class:`~explorer.games.tagraid.resolve.Resolution`."""
    states = die_states(res)
    rows: list[Row] = []
    for m in res.miners.values():
        dice = []
        for p in m.pools:
            for i, d in zip(p.ids, p.dice):
                survives, by = states.get(i, (False, ()))
                cap = "Critical" if d.critical else ("fail" if d.kind == "failure" else "")
                dice.append(DieView(i, d.face, d.kind, survives, bool(by), cap))
        sv = f"SV {m.sv.value}" if m.sv is not None else "no roll"
        skill = SKILL_WORDS.get(m.skill, m.skill)
        if m.skill != m.declared:
            skill += f" (declared {SKILL_WORDS.get(m.declared, m.declared)})"
        rows.append(Row(f"{m.letter} · {m.name}", dice, f"{skill} · {sv}", f"Wounds {m.wounds_before}", id=m.letter))
    if res.megabeast is not None:
        b = res.megabeast
        survives, by = states.get("MB", (False, ()))
        rows.append(Row(b.name, [DieView("MB", b.threat_level, "success", b.prevailed, bool(by), "Threat Level",
                                         token=True)], f"Threat Level {b.threat_level}", plural(b.wounds_before, "Wound")))
    links: list[Link] = []
    seen: set[frozenset[str]] = set()
    for dst in sorted(states):
        for src in states[dst][1]:
            key = frozenset((src, dst))
            if key not in seen:
                seen.add(key)
                links.append(Link(src, dst, mutual=dst in states.get(src, (False, ()))[1]))
    for s in res.saving_rolls:
        if s.dice:
            rows.append(Row(f"Saves · {s.target}", [DieView(x.id, x.face, "plain", False, False,
                                                             "Wound" if x.failed else "saved", bad=x.failed)
                                                     for x in s.dice],
                            f"fail on {s.attack_damage.value} or less", f"from {s.attacker}"))
    return rows, links


# ----------------------------------------------------------------------------------------------------- html

_CSS = ("<style>.oes-side{font-family:sans-serif;font-size:12.5px} .oes-side .widget-label{min-width:0}"
        ".oes-steps{line-height:1.35} .oes-steps li{margin:2px 0} "
        ".oes-steps .oes-cur{background:#eef5ff;border-left:3px solid #1f4e99;"
        "padding-left:4px} .oes-steps .oes-future{color:#999} .oes-steps .oes-refused{color:#922b21}"
        ".oes-sub{color:#333;font-size:12px;margin-left:10px} .oes-sec{color:#777;font-size:11px}"
        ".oes-outcome td{padding:1px 6px;border-bottom:1px solid #e3e3e3}</style>")


def _err(rej: Rejection | ScenarioError | str | None) -> str:
    if rej is None:
        return ""
    if isinstance(rej, Rejection):
        text = f"Not allowed ({rej.step}): {rej.reason}"
        sec = str(rej.rule)
    else:
        text, sec = str(rej), ""
    return (f"<div class='oes-error' style='font:12px sans-serif;color:#922b21;background:#fff5f5;border:1px solid "
            f"#e0b4b4;padding:3px 6px;border-radius:3px;margin:2px 0'>{html.escape(text)}"
            + (f"<br><span class='oes-sec'>[{html.escape(sec)}]</span>" if sec else "") + "</div>")


def steps_html(frames: Sequence[Frame], position: int, rejection: Rejection | None) -> str:
    """The step list: every step of the sequence; played ones with their cited steps (the current one expanded with
    details), the refused one with its reason and section, later ones greyed."""
    out = ["<ol class='oes-steps' style='list-style:none;padding-left:2px;margin:4px 0'>"]
    for i, (name, _) in enumerate(STEPS):
        k = i + 1
        if i < len(frames) and k <= position:
            f = frames[i]
            cls = "oes-cur" if k == position else "oes-done"
            out.append(f"<li class='{cls}' data-step='{k}'><b>{html.escape(name)}</b> "
                       f"<span class='oes-sec'>— {html.escape(STEP_HELP[name])}</span>")
            if not f.steps:
                out.append("<div class='oes-sub'>nothing happens at this step</div>")
            for s in f.steps:
                out.append(f"<div class='oes-sub oes-verdict'>• {html.escape(s.title)}"
                           f" <span class='oes-sec'>[{html.escape(s.rule.section)}]</span>"
                           + (f"<div class='oes-sec' style='margin-left:10px'>{html.escape(s.detail)}</div>"
                              if k == position and s.detail else "") + "</div>")
            out.append("</li>")
        elif i == len(frames) and rejection is not None:
            out.append(f"<li class='oes-refused' data-step='{k}'><b>{html.escape(name)}</b>{_err(rejection)}</li>")
        else:
            out.append(f"<li class='oes-future' data-step='{k}'>{html.escape(name)}</li>")
    out.append("</ol>")  # the step names carry their numbers
    return "".join(out)


def outcome_html(initial: OrderState, state: OrderState) -> str:
    """Wounds, States, Orders, Neomaterials, deaths and Loot, the MegaBeast's Wounds and facing: before → now. The
    table of Miners is a :data:`~explorer.serving.phone.CARDS_CLASS` table (a card per Miner on a phone; each cell
    names what it shows)."""
    rows = []
    for m in state.miners:
        b = initial.miner(m.id)
        where = "off the table" if not m.on_table else f"hex {state.geometry.hex_of(m.x, m.y).q},"\
                                                       f"{state.geometry.hex_of(m.x, m.y).r}"
        ch = lambda x, y: f"{x}" if x == y else f"{x} → <b>{y}</b>"
        rows.append(f"<tr class='oes-miner' data-miner='{html.escape(m.id)}'><td><b>{html.escape(m.id)}</b> "
                    f"<span class='oes-sec'>{html.escape(m.side)}</span></td><td>Wounds {ch(b.wounds, m.wounds)}</td>"
                    f"<td>States {ch(', '.join(b.states) or '—', ', '.join(m.states) or '—')}</td>"
                    f"<td>Orders {ch(b.orders, m.orders)}</td><td>{where}</td></tr>")
    notes = []
    gains = [f"{s} +{v} Teseum" for s, v in state.teseum if v] + [f"{s} +{v} T-Bezoar" for s, v in state.t_bezoar if v]
    if gains:
        notes.append("Neomaterials: " + ", ".join(gains))
    if state.dead:
        notes.append("Dead: " + ", ".join(state.dead))
    if state.resolution is not None:
        for n, r in state.resolution.miners.items():
            if r.loot is not None:
                lt = r.loot
                notes.append(f"Loot of {n}: keeps {lt.kept} of {lt.scoring_zone_before} Units, "
                             + (f"{lt.to_reserve} back to the reserve (MegaBeast involved)" if lt.megabeast_involved
                                else f"{lt.to_loot_zone} to the Loot Zone"))
    for m, what in state.interactions:
        notes.append(f"Tool Containers and Loot: {html.escape(m)}, {html.escape(what)}")
    tools = [f"{html.escape(m.id)}: {html.escape(', '.join(t.name for t in m.tools))}" for m in state.miners
             if m.tools]
    if tools:
        notes.append("Tools equipped: " + "; ".join(tools))
    for t in state.loot_tokens:
        z = state.loot_zone(t.owner)
        notes.append(f"{html.escape(t.id)} on the table: {plural(z.units, 'Unit')}"
                     + (f", {html.escape(', '.join(c.name for c in z.cards))}" if z.cards else ""))
    if state.pending_states:
        notes.append("States entered this Order (effective at its end): "
                     + ", ".join(f"{m} {s}" for m, s in state.pending_states))
    mb = state.megabeast
    if mb is not None:
        mb0 = initial.megabeast
        txt = f"{mb.id}: Wounds {mb0.wounds}" + (f" → {mb.wounds}" if mb.wounds != mb0.wounds else "")
        if state.megabeast_facing_before is not None:
            txt += f"; facing {state.megabeast_facing_before:g}° → <b>{mb.facing:g}°</b> (Conclusion)"
        else:
            txt += f"; facing {mb.facing:g}°"
        notes.append(txt)
    return ("<div class='oes-outcome'><b>Table</b><table class='" + CARDS_CLASS
            + "' style='border-collapse:collapse;font-size:12px'>"
            + "".join(rows) + "</table>" + "".join(f"<div>{n}</div>" for n in notes) + "</div>")


# ----------------------------------------------------------------------------------------------------- widget


def _run(state: OrderState, decl: OrderDeclarations, dice: OrderDice, steps) -> tuple[tuple[Frame, ...],
                                                                                    Rejection | None]:
    """Play ``steps`` (a slice of :data:`~.orders.sequence.STEPS`) from ``state`` with :func:`explorer.kernel.play`,
    one step at a time; stop at the first refused declaration (as :func:`~.orders.sequence.play_until_rejected`) or
    at dice that do not fit the rolls (the roll resolver names the die field)."""
    from explorer.errors import RuleViolation
    from explorer.kernel import play

    from .orders.sequence import OrderContext

    ctx = OrderContext(declarations=decl, dice=dice)
    frames: list[Frame] = []
    for entry in steps:
        try:
            frames += play(state, (entry,), ctx)
        except RuleViolation as e:
            return tuple(frames), e.rejection
        except ScenarioError as e:
            return tuple(frames), Rejection(entry[0], f"dice ({e.field})", f"{e.problem}" + (
                f" (allowed: {e.allowed})" if e.allowed else ""), S.ORDER_EXPENDITURE_SEQUENCE)
        state = frames[-1].state
    return tuple(frames), None


def _options_values(dd: W.Dropdown) -> list:
    return [o[1] if isinstance(o, tuple) else o for o in dd.options]


def _box(title: str, children: list, cls: str = "") -> W.VBox:
    b = W.VBox([W.HTML(f"<b style='font-family:sans-serif;font-size:12.5px'>{html.escape(title)}</b>"), *children],
               layout=W.Layout(border="1px solid #ddd", padding="4px", margin="2px 0"))
    if cls:
        b.add_class(cls)
    return b


class AroRow:
    """The controls of one Reactive Miner's ARO: its right (from the current replay), Skill, Weapon, step and
    "fired at" (``fire_at``: the point of the Active Miner's first Move route a Ranged Attack ARO is fired at, a
    fraction 0..1 of the Move or a point ``x, y``; empty: the Active Miner's firing point, else the end of its Move).
    The field shows the declared value exactly (``repr`` digits) and keeps it through every other edit; text it
    cannot read (not a number, a fraction outside 0..1, a point off the board) is refused beside the field, naming
    ``order.aros[k].fire_at`` and the values allowed, with the text kept and the declaration unchanged (a point off
    the route is the engine's refusal, shown under the row). Changing the Skill away from a Ranged Attack clears it
    (only a Ranged Attack ARO has one) and the row says so.

    The Weapon is used only by an Attack and the step only by a declared ARO, so the row shows what its declaration
    holds (and what the link and the downloaded file carry): a Skill without a Weapon puts the Weapon back to
    "(first)" and disables it; "— not declared" also puts the step back to "at its right" and disables it."""

    def __init__(self, miner: str, weapons: Sequence[str], on_change, field_of=None):
        self.miner = miner
        self._on_change = on_change
        self._field_of = field_of or (lambda m: f"order.aros[{m}]")
        self._fitting = False
        self.info = W.HTML(layout=W.Layout(width="100%"))
        self.skill = W.Dropdown(options=[("— not declared", "")] + [(SKILL_WORDS[s], s) for s in ARO_SKILLS],
                                value="", layout=W.Layout(width="170px"))
        self.weapon = W.Dropdown(options=[("(first)", "")] + [(w, w) for w in weapons], value="",
                                 layout=W.Layout(width="130px"))
        self.step = W.Dropdown(options=[("at its right", 0), ("step 2", 2), ("step 4", 4)], value=0,
                               layout=W.Layout(width="110px"))
        self.error = W.HTML()
        self.fire_at = None
        self.fire_at_text = W.Text(description="fired at", placeholder="Active Miner's point",
                                   continuous_update=False, layout=W.Layout(width="200px"),
                                   tooltip="the point of the Active Miner's Move this Ranged Attack ARO is fired at: "
                                   "a fraction of the Move (0 its start, 1 its end) or a point x, y on it; empty: "
                                   "the Active Miner's firing point (else the end of its Move)")
        self.fire_at_text.style.description_width = "initial"
        self.fire_at_text.add_class("oes-fire-at-field")  # not "oes-aro-...": that prefix is the ARO rows' own hook
        self.fire_error = W.HTML()
        self.fire_error.add_class("oes-fire-at-error")
        self.note = W.HTML()
        self.note.add_class("oes-fire-at-note")
        for w in (self.skill, self.weapon, self.step):
            w.observe(self._changed, names="value")
        self.fire_at_text.observe(lambda ch: self._fitting or self._fire_at_changed(), names="value")
        self._fit()
        self.box = W.VBox([self.info, W.HBox([self.skill, self.weapon, self.step, self.fire_at_text],
                                             layout=W.Layout(flex_flow="row wrap")), self.fire_error, self.note,
                           self.error], layout=W.Layout(border_bottom="1px solid #eee"))
        self.box.add_class(f"oes-aro-{class_token(miner)}")

    def _changed(self, ch) -> None:
        if self._fitting:
            return
        if ch["owner"] is self.skill:
            self._fitting = True
            try:
                self._fit(clear=True)
            finally:
                self._fitting = False
            was = self.fire_at_text.value.strip() or _at_text(self.fire_at)
            if was and self.skill.value != "ranged_attack":
                self.fire_at = None
                self._fitting = True
                try:
                    self.fire_at_text.value = ""
                finally:
                    self._fitting = False
                self.fire_error.value = ""
                self._show_fire_at(f"fired at ({html.escape(was)}) cleared: only a Ranged Attack ARO is fired at a "
                                   "point of the route")
        self._on_change()

    def _fire_at_changed(self) -> None:
        """The "fired at" text changed: read it (:func:`parse_fire_point`); text it cannot read is refused beside
        the field (``order.aros[k].fire_at``), the text kept and the declaration unchanged."""
        text = self.fire_at_text.value.strip()
        self.note.value = ""
        if text == _at_text(self.fire_at):
            self.fire_error.value = ""
            return
        try:
            value = parse_fire_point(text, f"{self._field_of(self.miner)}.fire_at")
        except ScenarioError as e:
            self.fire_error.value = _err(e)
            return
        self.fire_error.value = ""
        self.fire_at = value
        self._on_change()

    def _show_fire_at(self, cleared: str = "") -> None:
        """The row's note: just after ``fire_at`` was cleared, why (else nothing: the field shows the value)."""
        self.note.value = (f"<span style='font:11.5px sans-serif;color:#a05a00'>{cleared}</span>" if cleared
                           else "")

    def _fit(self, clear: bool = False) -> None:
        """Disable the Weapon unless the Skill is an Attack and the step unless an ARO is declared; ``clear``
        (the user changed the Skill): also put a disabled control back to its empty value."""
        declared = bool(self.skill.value)
        attack = self.skill.value in ATTACK_SKILLS
        if clear and not attack:
            self.weapon.value = ""
        if clear and not declared:
            self.step.value = 0
        self.weapon.disabled = not attack
        self.step.disabled = not declared
        self.fire_at_text.disabled = self.skill.value != "ranged_attack"

    def set(self, d: AroDecl | None) -> None:
        """Show the declaration ``d`` (``None``: not declared) as the file holds it (a Weapon a file names with a
        Skill that uses none is shown, disabled, and kept)."""
        self.fire_at = None if d is None else d.fire_at  # the declared point of the route (kept exactly)
        self._show_fire_at()
        self.fire_error.value = ""
        self._fitting = True
        try:
            self.fire_at_text.value = _at_text(self.fire_at)
            self.skill.value = "" if d is None else d.skill
            self.weapon.value = (d.weapon or "") if d is not None and d.weapon in _options_values(self.weapon) else ""
            self.step.value = 0 if d is None or d.step is None else d.step
            self._fit()
        finally:
            self._fitting = False

    def read(self) -> AroDecl | None:
        """The declaration (``None``: not declared); step "at its right" is ``step = None``, as in a file (the
        sequence declares it at the step of the Miner's right: :meth:`.OrderDeclarations.aros_at`), so the link and
        the downloaded file keep what the row shows."""
        if not self.skill.value:
            return None
        fire_at = self.fire_at if self.skill.value == "ranged_attack" else None
        return AroDecl(self.miner, self.skill.value, self.weapon.value or None, self.step.value or None, fire_at)


class OrderStepper(W.HBox):
    """The Order Expenditure Sequence stepper: a hex board and a side panel.

    On the board: click a Miner to make it the Active Miner (its Move is then drawn), click hexagons to add them to
    the route being drawn (the draw buttons pick the first Move, a second Move, an Evade movement — of the Miner
    picked in ``who`` — or nothing). In the panel: the second Skill (Weapon, targets ``"T"`` or ``"B:2, C:1"`` for a
    split Burst), each Reactive Miner's ARO (with the right the replay gives it, and why; "at its right" declares it
    at step 2 for a Miner that gains its right at step 2, else at step 4), the dice (``"A: 5 9 14; W: 7"``; empty:
    rolled from the seed), ◀ / ▶ through the steps. Every change replays the declaration log from the initial table
    with the engine's step functions (:data:`~.orders.sequence.STEPS`; steps 1 to 2.1 are reused while the Activation
    and the Move are unchanged); a refused declaration shows the engine's reason and section
    beside its control and in the step list, and keeps what the user entered.

    Args:
        scenario: a built-in order scenario id (default :data:`DEFAULT_ORDER`).
        scale: pixels per board unit.

    Attributes:
        frames: the replayed :class:`~.orders.sequence.Frame` values; rejection: the first refused declaration or
            ``None``; position: steps shown (0 = the table before step 1, 11 = after 5.3).
    """

    def __init__(self, scenario: str = DEFAULT_ORDER, scale: float = 34.0, game: Game | None = None, **kwargs):
        self.game = game if game is not None else get_game("tagraid")
        self._state_callbacks: list = []
        self._loading = False
        self.scenario_id: str | None = scenario
        self.round: RoundScenario | None = None
        self.round_orders: list[tuple[OrderDeclarations, OrderDice]] = []
        self.order_index = 0
        self.round_replay: RoundReplay | None = None
        self.match: MatchScenario | None = None
        self.match_rounds: list[list[tuple[OrderDeclarations, OrderDice]]] = []
        self.round_index = 0
        self.match_access: tuple[tuple[str, int], ...] = ()
        self.match_refusal: str | None = None
        self.match_over_after: int | None = None
        self._enter(builtin_document(scenario), _parse(builtin_document(scenario), scenario), scenario)
        self.frames: tuple[Frame, ...] = ()
        self.rejection: Rejection | None = None
        self.position = 0
        self._prefix = None
        self._tray_res = None
        self._rows_for: str | None = None
        self.draw_target = "move"
        self.board_view = HexBoardView(self.scenario.initial.geometry.board, scale=scale)
        self.board_view.hex_marks_for_selection = False
        for b in (self.board_view.rotate_left, self.board_view.rotate_right):  # nothing turns on this page
            b.layout.display = "none"
        self.board_view.on_select(self._on_select)

        self.header = W.HTML()
        self.header.add_class("oes-header")
        self.note = ScenarioNote()
        self._show_note(scenario)
        self.message = W.HTML()
        self.message.add_class("oes-message")
        self.scenario_pick = W.Dropdown(options=order_scenarios(), value=scenario, description="Open",
                                        layout=W.Layout(width="260px"))
        self.scenario_pick.style.description_width = "44px"
        self.scenario_pick.observe(lambda ch: self._loading or ch["new"] == FILE_ENTRY or self.load_builtin(ch["new"]),
                                   names="value")
        self.upload_box, self.upload = upload_control(
            "Open an order, round or match file (.toml)…", "open an order, round or match file (the format `explorer resolve` reads)", "oes-upload")
        self.download = W.HTML()
        self.download.add_class("oes-download")
        self.file_message = W.HTML()
        self.file_message.add_class("oes-file-message")
        watch_upload(self.upload, self.load_toml, self.file_message)

        self.active_pick = W.Dropdown(description="Active Miner", layout=W.Layout(width="220px"))
        self.active_pick.style.description_width = "86px"
        self.active_pick.observe(lambda ch: self._loading or self.set_active(ch["new"]), names="value")
        self.active_error = W.HTML()
        self.draw_pick = W.ToggleButtons(options=[("Move", "move"), ("2nd Move", "second"), ("Evade", "evade"),
                                                  ("nothing", "off")], value="move",
                                         tooltip="what a click on a hexagon draws: the Move, a second Move, an "
                                         "Evade movement (5.1) or nothing", style={"button_width": button_width(("Move", "2nd Move", "Evade", "nothing"), 84)})
        self.draw_pick.observe(lambda ch: setattr(self, "draw_target", ch["new"]), names="value")
        self.undo_point = W.Button(description="undo point", layout=W.Layout(width="104px"))
        self.undo_point.on_click(lambda _: self.undo_route_point())
        self.clear_route = W.Button(description="clear route", layout=W.Layout(width="104px"))
        self.clear_route.on_click(lambda _: self.clear_route_points())
        self.facing = W.Text(description="end facing°", placeholder="unchanged", continuous_update=False,
                             layout=W.Layout(width="170px"))
        self.facing.style.description_width = "80px"
        self.facing.observe(lambda ch: self._loading or self._on_declarations("order.move"), names="value")
        self.stand_pick = W.Dropdown(description="ends on", layout=W.Layout(width="230px"),
                                     tooltip="the surface the Move ends on: the ground, or the top of a scenery piece "
                                     "with a height (climbing up or down takes one whole Segment)")
        self.stand_pick.style.description_width = "60px"
        self.stand_pick.add_class("oes-stand")
        self.stand_pick.observe(lambda ch: self._loading or self.set_end_surface(ch["new"]), names="value")
        self.route_text = W.HTML()
        self.move_error = W.HTML()
        self.interact_pick = W.Dropdown(description="interacts with", layout=W.Layout(width="260px"),
                                        tooltip="a Tool Container or Loot Token the Move reaches: the Move then ends "
                                        "on reaching Silhouette Contact with it and the TAG draws or picks it up")
        self.interact_pick.style.description_width = "96px"
        self.interact_pick.add_class("oes-interact")
        self.interact_pick.observe(lambda ch: self._loading or self._on_interact(ch["new"]), names="value")

        self.second_skill = W.Dropdown(options=[(SKILL_WORDS.get(s, "Move"), s) for s in SECOND_SKILLS],
                                       description="Skill", layout=W.Layout(width="210px"))
        self.second_skill.style.description_width = "40px"
        self.second_weapon = W.Dropdown(description="Weapon", layout=W.Layout(width="190px"))
        self.second_weapon.style.description_width = "52px"
        self.targets = W.Text(description="targets", placeholder="T   or   B:2, C:1", continuous_update=False,
                              layout=W.Layout(width="210px"))
        self.targets.style.description_width = "52px"
        self.fire_from = W.Text(description="fires from", placeholder="end of the Move",
                                continuous_update=False, layout=W.Layout(width="210px"),
                                tooltip="where on the first Move the Ranged Attack is fired from: a fraction of the "
                                "Move (0 its start, 1 its end) or a point x, y on it; empty: the end of the Move")
        self.fire_from.style.description_width = "initial"
        self.fire_from.add_class("oes-fire-from")
        self.fire_note = W.HTML()
        self.fire_hint = W.HTML()
        self.fire_hint.add_class("oes-fire-hint")
        self.second_skill.observe(lambda ch: self._on_second_skill(), names="value")
        for w in (self.second_weapon, self.targets, self.fire_from):
            w.observe(lambda ch: self._loading or self._on_declarations("order.second"), names="value")
        self.second_error = W.HTML()

        self.aro_rows: dict[str, AroRow] = {}
        self.aro_box = W.VBox()
        self.evade_text = W.HTML()
        self.evade_who = W.Dropdown(description="who", layout=W.Layout(width="170px"),
                                    tooltip="the Miner whose Evade movement the next click (a click draws: Evade) sets")
        self.evade_who.style.description_width = "30px"
        self.clear_evade = W.Button(description="drop Evade movements", layout=W.Layout(width="170px"))
        self.clear_evade.on_click(lambda _: self._set_decl(replace(self.decl, evade_moves=()), "order.evade_moves"))

        self.rolls = W.Text(description="rolls", placeholder="empty: rolled from the seed", continuous_update=False,
                            layout=W.Layout(width="300px"))
        self.saves = W.Text(description="saves", placeholder="e.g. T: 3 17", continuous_update=False,
                            layout=W.Layout(width="300px"))
        self.seed = W.IntText(description="seed", layout=W.Layout(width="130px"))
        for w in (self.rolls, self.saves):
            w.style.description_width = "40px"
            w.observe(lambda ch: self._loading or self._on_dice(), names="value")
        self.seed.style.description_width = "34px"
        self.seed.observe(lambda ch: self._loading or self._on_dice(), names="value")
        self.reroll = W.Button(description="roll new dice", tooltip="forget the hand-set dice and roll from a new seed",
                               layout=W.Layout(width="110px"))
        self.reroll.on_click(lambda _: self.roll_new_dice())
        self.dice_error = W.HTML()

        self.first = W.Button(description="« start", tooltip="the table before step 1", layout=W.Layout(width="70px"))
        self.back = W.Button(description="◀ Back", layout=W.Layout(width="80px"))
        self.forward = W.Button(description="Next ▶", layout=W.Layout(width="80px"))
        self.last = W.Button(description="end »", tooltip="the whole Order", layout=W.Layout(width="64px"))
        self.first.on_click(lambda _: self.show(0))
        self.back.on_click(lambda _: self.go(-1))
        self.forward.on_click(lambda _: self.go(+1))
        self.last.on_click(lambda _: self.show(len(STEPS)))
        for b, c in ((self.first, "first"), (self.back, "back"), (self.forward, "next"), (self.last, "last")):
            b.add_class(f"oes-{c}")
        self.where = W.HTML()
        self.where.add_class("oes-where")
        self.step_list = W.HTML()
        self.step_list.add_class("oes-step-list")
        self.tray = DiceTray(width=560, label_width=170)
        self.odds = W.HTML()
        self.odds.add_class("oes-odds-box")
        self._odds_for = None
        self.tray_box = W.VBox([W.HTML("<b style='font:12.5px sans-serif'>Dice of step 5</b>"), self.tray,
                                self.odds])
        self.outcome = W.HTML()
        self.outcome.add_class("oes-outcome-box")

        nav = W.HBox([self.first, self.back, self.forward, self.last, self.where],
                     layout=W.Layout(align_items="center", flex_flow="row wrap"))
        nav.add_class("oes-nav")
        self.order_back = W.Button(description="◀ Order", tooltip="the previous Order of the Round",
                                   layout=W.Layout(width="84px"))
        self.order_forward = W.Button(description="Order ▶", tooltip="the next Order of the Round, from the table "
                                      "this one leaves", layout=W.Layout(width="84px"))
        self.order_back.on_click(lambda _: self.show_order(self.order_index - 1))
        self.order_forward.on_click(lambda _: self.show_order(self.order_index + 1))
        self.round_back = W.Button(description="◀ Round", tooltip="the previous Round of the match",
                                   layout=W.Layout(width="84px"))
        self.round_forward = W.Button(description="Round ▶", tooltip="the next Round of the match, from the table "
                                      "this one leaves", layout=W.Layout(width="84px"))
        self.round_back.on_click(lambda _: self.show_round(self.round_index - 1))
        self.round_forward.on_click(lambda _: self.show_round(self.round_index + 1))
        self.round_back.add_class("oes-round-back")
        self.round_forward.add_class("oes-round-next")
        self.order_add = W.Button(description="+ Order", tooltip="add an Order after the last one: the next Miner "
                                  "with an Order left, in Timeline order", layout=W.Layout(width="84px"))
        self.order_add.on_click(lambda _: self.add_order())
        self.order_add.add_class("oes-order-add")
        self.order_back.add_class("oes-order-back")
        self.order_forward.add_class("oes-order-next")
        self.order_where = W.HTML()
        self.order_where.add_class("oes-order-where")
        self.round_info = W.HTML()
        self.round_box = W.VBox([W.HBox([self.round_back, self.round_forward, self.order_back, self.order_forward,
                                         self.order_add, self.order_where],
                                        layout=W.Layout(align_items="center", flex_flow="row wrap")),
                                 self.round_info])
        self.round_box.add_class("oes-round")
        files = W.HBox([self.scenario_pick, self.upload_box, self.download, self.file_message],
                       layout=W.Layout(flex_flow="row wrap", align_items="center", grid_gap="6px"))
        activation = _box("1 · Active Miner and its Move (click a Miner, then hexagons)",
                          [W.HBox([self.active_pick], layout=W.Layout(flex_flow="row wrap")), self.active_error,
                           W.HBox([W.HTML("<span style='font:12px sans-serif'>a click draws:</span>"),
                                   self.draw_pick], layout=W.Layout(flex_flow="row wrap", align_items="center")),
                           W.HBox([self.undo_point, self.clear_route, self.facing, self.stand_pick],
                                  layout=W.Layout(flex_flow="row wrap", align_items="center")),
                           self.interact_pick,
                           self.route_text, self.move_error], "oes-activation")
        second = _box("3 · Second Skill", [W.HBox([self.second_skill, self.second_weapon, self.targets,
                                                   self.fire_from], layout=W.Layout(flex_flow="row wrap")),
                                           self.fire_hint, self.fire_note, self.second_error],
                      "oes-second")
        aros = _box("2 / 4 · AROs of the Reactive Players (as declared, then the others in Timeline order)",
                    [self.aro_box], "oes-aros")
        evade = _box("5.1 · Evade movement (one Segment)",
                     [W.HTML("<span style='font:11.5px sans-serif;color:#555'>pick who, then "
                             "<i>a click draws: Evade</i> "
                             "and click a hexagon</span>"),
                      W.HBox([self.evade_who, self.clear_evade], layout=W.Layout(flex_flow="row wrap",
                                                                                align_items="center")),
                      self.evade_text], "oes-evade")
        dice = _box("5 · Dice (hand-set, or rolled from the seed)",
                    [self.rolls, self.saves, W.HBox([self.seed, self.reroll], layout=W.Layout(flex_flow="row wrap")),
                     self.dice_error], "oes-dice")
        declare = W.VBox([activation, second, aros, dice, evade], layout=W.Layout(flex="1 1 360px", min_width="330px",
                                                                            max_width="560px"))
        steps = W.VBox([nav, self.step_list, self.tray_box, self.outcome],
                       layout=W.Layout(flex="1 1 420px", min_width="330px"))
        side = W.VBox([self.header, self.note, self.message, files, self.round_box, W.HBox([steps, declare],
                                                                 layout=W.Layout(flex_flow="row wrap",
                                                                                 align_items="flex-start"))],
                      layout=W.Layout(flex="1 1 520px", min_width="330px"))
        side.add_class("oes-side")
        self.board_view.layout.flex = "0 0 auto"
        kwargs.setdefault("layout", W.Layout(flex_flow="row wrap", align_items="flex-start"))
        super().__init__([self.board_view, side], **kwargs)
        self.add_class("tagraid-oes")
        self._fill_controls()
        self.replay(focus=0)

    # ------------------------------------------------------------------------------------------------ loading

    def load_builtin(self, name: str) -> None:
        """Open a built-in order scenario (its declarations and dice), at the step before step 1.

        Raises:
            ScenarioError: not a built-in order scenario (the stepper keeps its state).
        """
        doc = builtin_document(name)
        self._open(doc, _parse(doc, name), name)

    def load_toml(self, text: str, source: str = "uploaded file") -> None:
        """Open an order file's TOML text through the loading gate. Raises ScenarioError (the state is kept)."""
        from explorer.scenario import read_toml

        doc = read_toml(source, text=text)
        self._open(doc, _parse(doc, source), None, name=source)
        self._show_file_in_picker(source)

    def _show_file_in_picker(self, source: str | None) -> None:
        """The "Open" picker names what is shown: an opened file as its first entry (no built-in stays selected
        while a file's Order is on the board), dropped again when a built-in is opened."""
        builtins = order_scenarios()
        self._loading = True
        try:
            if source is None:
                self.scenario_pick.options = builtins
            else:
                label = f"file: {shorten_middle(str(source), 40)}"
                self.scenario_pick.options = [(label, FILE_ENTRY)] + [(b, b) for b in builtins]
                self.scenario_pick.value = FILE_ENTRY
        finally:
            self._loading = False

    def _enter(self, doc: dict, sc: OrderScenario | RoundScenario | MatchScenario, scenario_id: str | None,
               order_index: int = 0, round_index: int = 0) -> None:
        """Take an order, round or match scenario as the stepper's (no widget touched): a round's Order
        ``order_index`` becomes the Order stepped through, on the table the earlier Orders leave; a match's Round
        ``round_index`` becomes the Round paged through, from the table the earlier Rounds leave."""
        self.document, self.scenario_id = doc, scenario_id
        if isinstance(sc, MatchScenario):
            self.match = sc
            self.match_rounds = [list(r.orders) for r in sc.context.declarations.rounds]
            self._enter_match_round(round_index, order_index)
            return
        self.match, self.match_rounds, self.round_index = None, [], 0
        if isinstance(sc, RoundScenario):
            self.round = sc
            self.round_orders = list(sc.declarations.orders)
            self._replay_round()
            self._select_order(order_index)
        else:
            self.round, self.round_orders, self.round_replay, self.order_index = None, [], None, 0
            self.scenario = sc
            self.decl, self.dice = sc.declarations, sc.dice

    # ------------------------------------------------------------------------------------------------ matches

    def _match_context(self) -> MatchContext:
        """The match's context with every Round's Orders as edited on the page."""
        ctx = self.match.context
        old = ctx.declarations.rounds
        rounds = tuple(RoundDeclarations(tuple(orders), old[i].deployment if i < len(old) else None)
                       for i, orders in enumerate(self.match_rounds))
        return replace(ctx, declarations=MatchDeclarations(ctx.declarations.deployment, rounds))

    def _enter_match_round(self, k: int, order_index: int = 0) -> None:
        """Replay the match (Initial Deployment, then every Round as edited) and make Round ``k`` (0-based;
        clamped to the Rounds reached, plus the next one while the match is not over) the Round paged through."""
        ctx = self._match_context()
        frames, refusal = play_match_until_refused(self.match.table, ctx)
        ms = frames[-1].state if frames else start_match(self.match.table, ctx.declarations)
        self.match_access = ms.deployment.access
        self.match_refusal = str(refusal) if refusal is not None and not ms.deployment.done else None
        self.match_over_after = len(ms.round_starts) if ms.over else None
        starts = list(ms.round_starts)
        if not ms.over and ms.deployment.done:
            starts.append(next_round_start(ms, ctx))
        if not starts:  # the deployment stops: Round 1 from the table as deployed so far
            starts.append(next_round_start(ms, ctx))
        k = max(0, min(int(k), len(starts) - 1))
        while len(self.match_rounds) <= k:
            self.match_rounds.append([])
        self.round_starts = starts
        self.round_index = k
        dep = ctx.declarations.rounds[k].deployment if k < len(ctx.declarations.rounds) else None
        m = self.match
        self.round = RoundScenario(f"{m.title} — Round {k + 1}", m.description, starts[k],
                                   RoundDeclarations(tuple(self.match_rounds[k]), dep), m.source)
        self.round_orders = list(self.match_rounds[k])
        self._replay_round()
        self._select_order(order_index)

    def show_round(self, k: int, order_index: int = 0, position: int = 0) -> None:
        """Page to Round ``k`` (0-based) of the match, at Order ``order_index`` (``-1``: its last) and step
        ``position`` (``-1``: its last), replaying the match with the Orders edited so far. No effect outside a
        match or past the Rounds reached."""
        if self.match is None:
            return
        self._store_order()
        if not 0 <= k < len(self.round_starts):
            return
        n = len(self.match_rounds[k]) if k < len(self.match_rounds) else 0
        self._enter_match_round(k, max(n - 1, 0) if order_index < 0 else order_index)
        self._fill_controls()
        self.replay(focus=len(STEPS) if position < 0 else position)

    def match_document(self) -> dict[str, Any]:
        """The stepper's match as a match file document: the file's table, Event deck and Initial Deployment with
        every Round's current Orders (declarations, dice and seed). ``explorer resolve FILE`` plays the same
        match."""
        self._store_order()
        board = self.match.table.geometry.board
        doc = {k: v for k, v in self.document.items() if k != "rounds"}
        doc.setdefault("game", "tagraid")
        old = list(self.document.get("rounds", []))
        rounds = []
        for i, orders in enumerate(self.match_rounds):
            entry = {k: v for k, v in (old[i] if i < len(old) else {}).items() if k != "orders"}
            entry["orders"] = [round_order_entry(d, dc, board) for d, dc in orders]
            rounds.append(entry)
        while rounds and not rounds[-1]["orders"] and len(rounds) > len(old) and len(rounds[-1]) == 1:
            rounds.pop()  # a Round opened on the page and left empty is not written
        doc["rounds"] = rounds
        return doc

    # ------------------------------------------------------------------------------------------------ rounds

    def _round_declarations(self) -> RoundDeclarations:
        return RoundDeclarations(tuple(self.round_orders), self.round.declarations.deployment)

    def _replay_round(self) -> None:
        self.round_replay = replay_round(self.round.initial, self._round_declarations())
        self._round_key = tuple(self.round_orders)

    def _select_order(self, k: int) -> None:
        """Make Order ``k`` of the Round the one stepped through (clamped to the Orders the replay reaches; a Round
        without Orders gets a first one, of the first Miner, to declare)."""
        rp, rd = self.round_replay, self.round
        tables = rp.tables
        k = max(0, min(int(k), len(tables) - 1)) if tables else 0
        if tables:
            table = tables[k]
        else:
            table = (rp.events or rd.initial).table
        if k >= len(self.round_orders):
            self.round_orders.append((OrderDeclarations(table.miners[0].id), OrderDice()))
        decl, dice = self.round_orders[k]
        self.order_index = k
        self.scenario = OrderScenario(f"{rd.title} — Order {k + 1}", rd.description, table, decl, dice, rd.source)
        self.decl, self.dice = decl, dice
        self._prefix = None

    def _store_order(self) -> None:
        """Write the Order being edited back into the Round and replay the Round when an Order changed."""
        if self.round is None:
            return
        self.round_orders[self.order_index] = (self.decl, self.dice)
        if tuple(self.round_orders) != self._round_key:
            self._replay_round()
        if self.match is not None:
            self.match_rounds[self.round_index] = list(self.round_orders)

    def show_order(self, k: int, position: int = 0) -> None:
        """Step through Order ``k`` (0-based) of the Round, from the table the earlier Orders leave, at
        ``position`` (``-1``: its last step). No effect outside a Round or past the Orders the replay reaches."""
        if self.round is None:
            return
        self._store_order()
        n = len(self.round_replay.tables)
        if not 0 <= k < max(n, 1):
            return
        self._select_order(k)
        self._fill_controls()
        self.replay(focus=len(STEPS) if position < 0 else position)

    def add_order(self) -> None:
        """Append an Order to the Round, played from the table the last Order leaves, and step through it: its
        Active Miner is the first Miner with an Order left whose player's Turn has not passed (Timeline order);
        none left: nothing changes (the message says so)."""
        if self.round is None:
            return
        self._store_order()
        rp = self.round_replay
        if rp.after is None or len(self.round_orders) >= MAX_ROUND_ORDERS:
            self.message.value = _err("the Round's Orders stop before their end (or it has the most Orders a round "
                                      "file holds): no Order can be added after them")
            return
        table = rp.after
        last_side = rp.sides[-1] if rp.sides else (table.timeline[0] if table.timeline else None)
        start = table.timeline.index(last_side) if last_side in table.timeline else 0
        pick = next((m for side in table.timeline[start:] for m in table.miners
                     if m.side == side and m.on_table and m.orders > 0), None)
        if pick is None:
            self.message.value = _err("no Miner has an Order left in this Round")
            return
        self.round_orders.append((OrderDeclarations(pick.id), OrderDice(seed=(self.dice.seed + 1) % 2**63)))
        self._replay_round()
        if self.match is not None:
            self.match_rounds[self.round_index] = list(self.round_orders)
        self.show_order(len(self.round_orders) - 1)

    def round_document(self) -> dict[str, Any]:
        """The stepper's Round as a round file document: the file's table, Event deck and deployment with every
        Order's current declarations, dice and seed. ``explorer resolve FILE`` plays the same Round."""
        board = self.initial.geometry.board
        doc = {k: v for k, v in self.document.items() if k != "orders"}
        doc.setdefault("game", "tagraid")
        doc["orders"] = [round_order_entry(d, dc, board) for d, dc in self.round_orders]
        return doc

    def _open(self, doc: dict, sc: OrderScenario | RoundScenario | MatchScenario, scenario_id: str | None,
              position: int = 0, order_index: int = 0, round_index: int = 0, name: str = "linked file") -> None:
        board = (sc.table.geometry.board if isinstance(sc, MatchScenario) else sc.initial.table.geometry.board
                 if isinstance(sc, RoundScenario) else sc.initial.geometry.board)
        if self.board_view.board is not board:
            self.board_view.board = board
            minx, miny, _, _ = self.board_view.board.bounds()
            self.board_view._min = (minx, miny)
            s = self.board_view.scale
            self.board_view.scale = self.board_view.shown_scale = 0.0  # force set_scale to resize for the new board
            self.board_view.set_scale(s)
        self._enter(doc, sc, scenario_id, order_index, round_index)
        self._show_note(scenario_id, doc, name, sc)
        if scenario_id is not None and FILE_ENTRY in _options_values(self.scenario_pick):
            self._show_file_in_picker(None)
        self._loading = True
        try:
            if scenario_id is not None and scenario_id in _options_values(self.scenario_pick):
                self.scenario_pick.value = scenario_id
        finally:
            self._loading = False
        self._fill_controls()
        self.replay(focus=position)

    def _show_note(self, scenario_id: str | None, doc: dict | None = None, name: str = "",
                   sc: OrderScenario | RoundScenario | MatchScenario | None = None) -> None:
        """Name the built-in Order, Round or Match shown, with its verdict as ``explorer resolve`` prints it; for an
        opened file (``scenario_id`` ``None``): the file ``name``, ``doc``'s title and the verdict of ``sc`` (the file
        as opened, or as a link carries it, resolved with its own seeds and readings as ``explorer resolve FILE``
        resolves it; or its refusal)."""
        what = ("Match" if getattr(self, "match", None) is not None else
                "Round" if getattr(self, "round", None) is not None else "Order")
        if scenario_id is not None:
            self.note.show(scenario_id, *self.game.builtin_verdict(scenario_id), what=what, state=NEXT)
            return
        self.note.show(None)   # a new file's state as opened, even under the name of the one shown before
        if doc is None or sc is None:
            return
        try:
            verdict = self.game.verdict(sc)
        except ExplorerError as e:
            verdict = f"Refused: {e}"
        self.note.show(name, str(doc.get("title", name)), verdict, what=f"{what} file", state=NEXT)

    # ------------------------------------------------------------------------------------------------ controls

    @property
    def initial(self) -> OrderState:
        return self.scenario.initial

    def _enemies(self, active: str) -> list[str]:
        st = self.initial
        try:
            a = st.miner(active)
        except ScenarioError:
            return []
        return [m.id for m in sorted(st.enemies_of(a), key=st.timeline_key)]

    def _aro_row_order(self, active: str, aros: Sequence[AroDecl]) -> list[str]:
        """The ARO rows' Miners: those the declarations name, in the order declared (the file's, the link's: the page
        reads the rows back in this order, so the link and the download keep it), then the other enemies of
        ``active`` in Timeline order."""
        enemies = self._enemies(active)
        declared = list(dict.fromkeys(x.miner for x in aros if x.miner in enemies))
        return declared + [m for m in enemies if m not in declared]

    def _aro_field(self, miner: str) -> str:
        """Where ``miner``'s ARO sits in the declarations the page writes (``order.aros[k]``: the declared rows in
        order, as :meth:`_play` reads them; a row not declared: the next index)."""
        k = 0
        for mid, row in self.aro_rows.items():
            if mid == miner:
                break
            if row.skill.value:
                k += 1
        return f"order.aros[{k}]"

    def _fit_second(self, clear: bool = False) -> None:
        """The second Skill's Weapon and targets are used only by an Attack (the declaration holds neither
        otherwise): disabled for other Skills; ``clear`` (the user changed the Skill): also emptied, so the page
        shows what the link and the downloaded file carry."""
        attack = self.second_skill.value in ATTACK_SKILLS
        ranged = self.second_skill.value == "ranged_attack"
        if clear and not attack:
            self.second_weapon.value = ""
            self.targets.value = ""
        if clear and not ranged and self.fire_from.value.strip():
            self.fire_note.value = ("<span style='font:11.5px sans-serif;color:#a05a00'>fires from "
                                    f"({html.escape(self.fire_from.value.strip())}) cleared: only a Ranged Attack is "
                                    "fired from a point of the Move</span>")
            self.fire_from.value = ""
        elif clear:
            self.fire_note.value = ""
        self.second_weapon.disabled = self.targets.disabled = not attack
        self.fire_from.disabled = not ranged

    def _show_fire_default(self, st: OrderState) -> None:
        """The "fires from" field's placeholder and hint name the point an empty field stands for: the Move's start
        under ruling ``route_fire_point = move_start`` (the default), its end under ``move_end`` (the file's
        ``[rulings]``)."""
        start = st.ruling_set().reading("route_fire_point") == "move_start"
        self.fire_from.placeholder = "start of the Move" if start else "end of the Move"
        self.fire_from.tooltip = ("where on the first Move the Ranged Attack is fired from: a fraction of the Move (0 "
                                  "its start, 1 its end) or a point x, y on it; empty: "
                                  + ("its start (ruling route_fire_point = move_start)" if start else
                                     "its end (ruling route_fire_point = move_end)"))
        self.fire_hint.value = ("<span style='font:11px sans-serif;color:#777'>fires from: the point of the Move the "
                                "Ranged Attack is fired from, a fraction 0..1 of the Move or a point x, y; empty: "
                                + ("its start (ruling <code>route_fire_point = move_start</code>)" if start else
                                   "its end (ruling <code>route_fire_point = move_end</code>)") + "</span>")

    def _on_second_skill(self) -> None:
        if self._loading:
            return
        self._loading = True
        try:
            self._fit_second(clear=True)
        finally:
            self._loading = False
        self._on_declarations("order.second")

    def _fill_controls(self) -> None:
        """Set every control from :attr:`decl` and :attr:`dice` (no replay)."""
        st, d = self.initial, self.decl
        self._loading = True
        try:
            self.header.value = (_CSS + f"<h3 style='margin:2px 0;font-family:sans-serif'>Order Expenditure Sequence"
                                 f" — {html.escape(self.scenario.title)}</h3><div style='font-family:sans-serif;"
                                 f"font-size:12px;line-height:1.3;color:#555'>{html.escape(self.scenario.description)}"
                                 "</div><div style='font-family:sans-serif;font-size:12px;line-height:1.3;color:#555;"
                                 "margin-top:3px'>Board: <b style='color:#1f4e99'>blue line</b> the Move; "
                                 "<b style='color:#1a9641'>"
                                 "green</b> the LoF that gives an ARO, drawn where it appears on the route (dashed "
                                 "ring: the Active Miner at that point); <b style='color:#d35400'>orange dashes</b>: "
                                 "the target of the Attack.</div>")
            ids = [m.id for m in st.miners]
            self.active_pick.options = ids
            self.active_pick.value = d.active if d.active in ids else ids[0]
            a = st.miner(self.active_pick.value)
            self.second_skill.value = d.second.skill if d.second.skill in SECOND_SKILLS else "idle"
            own = [w.name for w in a.all_weapons]
            # Weapons a Tool Container or Loot Token may give during the Move (usable from that point of the Order)
            cards = st.tool_deck + tuple(c for z in st.loot_zones for c in z.cards)
            found = list(dict.fromkeys(c.weapon.name for c in cards if c.weapon is not None
                                       and c.weapon.name not in own))
            self.second_weapon.options = ([("(first)", "")] + [(w, w) for w in own]
                                          + [(f"{w} (if drawn)", w) for w in found])
            self.second_weapon.value = d.second.weapon if d.second.weapon in own + found else ""
            self.targets.value = ", ".join(t.target + (f":{t.burst}" if t.burst is not None else "")
                                           for t in d.second.targets)
            self.fire_from.value = _at_text(d.second.fire_from)
            self.fire_note.value = ""
            self._show_fire_default(st)
            self._fit_second()
            self.facing.value = "" if d.move.facing is None else f"{d.move.facing:g}"
            self._fill_stand_pick(st, d.move, a)
            tokens = [t[0] for t in st.tokens()]
            self.interact_pick.options = [("— nothing —", "")] + [(t, t) for t in tokens]
            it = d.move.interact.target if d.move.interact is not None else ""
            self.interact_pick.value = it if it in tokens else ""
            self.interact_pick.layout.display = "" if tokens else "none"
            rows = []
            self.aro_rows = {}
            for mid in self._aro_row_order(a.id, d.aros):
                r = AroRow(mid, [w.name for w in st.miner(mid).all_weapons],
                           lambda: self._on_declarations("order.aros"), self._aro_field)
                r.set(next((x for x in d.aros if x.miner == mid), None))
                self.aro_rows[mid] = r
                rows.append(r.box)
            self._rows_for = a.id
            self.aro_box.children = rows or [W.HTML("<i>no enemy Miner on the table</i>")]
            keep = self.evade_who.value
            self.evade_who.options = [a.id] + self._enemies(a.id)
            self.evade_who.value = keep if keep in self.evade_who.options else a.id
            self.rolls.value = _faces_text(self.dice.rolls)
            self.saves.value = _faces_text(self.dice.saves)
            self.seed.value = self.dice.seed
        finally:
            self._loading = False

    def _read_second(self) -> SkillDecl:
        skill = self.second_skill.value
        if skill not in ("ranged_attack", "close_combat_attack"):
            mv = self.decl.second.move if skill == "move" else None
            return SkillDecl(skill, move=mv if mv is not None or skill != "move" else MoveDecl())
        shares = []
        for i, part in enumerate(p.strip() for p in self.targets.value.split(",") if p.strip()):
            name, sep, burst = part.partition(":")
            b = None
            if sep:
                try:
                    b = int(burst)
                except ValueError:
                    raise ScenarioError(f"order.second.targets[{i}].burst", f"{short_repr(burst.strip())} is not a "
                                        "whole number", "target:burst, e.g. B:2", "widget") from None
            shares.append(AttackShare(name.strip(), b))
        ff = self.decl.second.fire_from
        if skill == "ranged_attack":  # the field holds the declared value as text: keep the exact value unedited
            text = self.fire_from.value.strip()
            ff = ff if text == _at_text(ff) else parse_fire_point(text)
        else:
            ff = None
        return SkillDecl(skill, self.second_weapon.value or None, tuple(shares), fire_from=ff)

    def _on_declarations(self, field: str) -> None:
        if self._loading:
            return
        self.second_error.value = ""
        try:
            second = self._read_second()
            facing = self.facing.value.strip()
            f = None
            if facing:
                try:
                    f = float(facing)
                except ValueError:
                    raise ScenarioError("order.move.facing", f"{short_repr(facing)} is not a number",
                                        "degrees, e.g. 90 (empty: unchanged)", "widget") from None
                if not math.isfinite(f) or abs(f) > 3600:
                    raise ScenarioError("order.move.facing", f"{f:g} is out of range", "-3600..3600 degrees",
                                        "widget")
        except ScenarioError as e:
            (self.move_error if e.field.startswith("order.move") else self.second_error).value = _err(e)
            return
        self._set_decl(replace(self.decl, second=second, move=replace(self.decl.move, facing=f)), field)

    @staticmethod
    def _pieces_with_height(st: OrderState) -> list[str]:
        """Ids of the scenery pieces a Miner may stand on (a finite height: Move › Effects)."""
        return [sc.id for sc in st.table().scenery if math.isfinite(sc.height)]

    def _fill_stand_pick(self, st: OrderState, mv: MoveDecl, a) -> None:
        """The "ends on" control: the ground and every piece with a height; its value is the surface of the Move's
        last point (the Active Miner's own surface when the Move names none); hidden on a table without such
        pieces."""
        pieces = self._pieces_with_height(st)
        self.stand_pick.options = [("the ground", "")] + [(f"top of {p}", p) for p in pieces]
        end = (mv.on[-1] if mv.on and len(mv.on) == len(mv.route) else (a.on if a is not None else None)) or ""
        self.stand_pick.value = end if end in pieces else ""
        self.stand_pick.layout.display = "" if pieces else "none"

    def set_end_surface(self, surface: str) -> None:
        """The first Move ends on ``surface`` (a scenery piece's id, ``""`` the ground): the Move's ``on`` list
        (:attr:`.orders.declarations.MoveDecl.on`, one surface per route point) gets it at its last point, the
        points before keep theirs (the Active Miner's own surface when none was named); a Move whose every point is
        on the Miner's own surface names none (``on`` omitted, as in a file). Without a route nothing changes and
        the Move's message says to draw it first."""
        mv = self.decl.move
        a = self.initial.miner(self.decl.active) if self.decl.active in [m.id for m in self.initial.miners] else None
        own = a.on if a is not None else None
        if not mv.route:
            if (surface or None) != own:
                self.move_error.value = _err("draw the Move first: the surface is that of its last point")
            self._loading = True
            try:
                self.stand_pick.value = own or ""
            finally:
                self._loading = False
            return
        on = list(mv.on) if mv.on is not None and len(mv.on) == len(mv.route) else [own] * len(mv.route)
        on[-1] = surface or None
        new = None if all(x == own for x in on) else tuple(on)
        self._set_decl(replace(self.decl, move=replace(mv, on=new)), "order.move")

    def _on_interact(self, target: str) -> None:
        """The first Move interacts with ``target`` (a Tool Container or Loot Token id; ``""``: with nothing)."""
        it = Interaction(target) if target else None
        self._set_decl(replace(self.decl, move=replace(self.decl.move, interact=it)), "order.move")

    def _on_dice(self) -> None:
        if self._loading:
            return
        names = [m.id for m in self.initial.miners] + ([self.initial.megabeast.id] if self.initial.megabeast else [])
        try:
            rolls = parse_dice_text(self.rolls.value, "dice.rolls", names)
            saves = parse_dice_text(self.saves.value, "dice.saves", names)
            seed = int(self.seed.value)
            if not 0 <= seed <= 2**63 - 1:
                raise ScenarioError("seed", f"{seed} is out of range", "0 .. 2**63-1", "widget")
        except ScenarioError as e:
            self.dice_error.value = _err(e)
            return
        self.dice_error.value = ""
        self.dice = replace(self.dice, rolls=rolls, saves=saves, seed=seed)
        self.replay(focus=8)

    def roll_new_dice(self) -> None:
        """Forget the hand-set dice and roll every die from a new seed."""
        import random

        self.dice = OrderDice((), (), (), random.randrange(1, 10**9))
        self._loading = True
        try:
            self.rolls.value = self.saves.value = ""
            self.seed.value = self.dice.seed
        finally:
            self._loading = False
        self.dice_error.value = ""
        self.replay(focus=8)

    def set_active(self, miner: str) -> None:
        """Make ``miner`` the Active Miner: a fresh Order (no Move yet, second Skill Idle, no ARO); the next hexagons
        clicked draw its Move. An unknown id shows the engine's reason (nothing else changes)."""
        if miner == self.decl.active and self.active_pick.value == miner:
            return
        self.decl = OrderDeclarations(miner)
        self.draw_target = "move"
        self._loading = True
        try:
            if miner in _options_values(self.active_pick):
                self.active_pick.value = miner
            self.draw_pick.value = "move"
        finally:
            self._loading = False
        self._fill_controls()
        self.replay(focus=1)

    def add_route_point(self, h: Hex) -> None:
        """Append the centre of hexagon ``h`` to the route being drawn (the first Move, or the second Skill's Move)
        and replay. The engine checks the route (length, tiles, bases, scenery) and says why it is refused."""
        c = self.initial.geometry.layout.hex_to_pixel(h)
        if self.draw_target == "second":
            mv = self.decl.second.move if self.decl.second.skill == "move" and self.decl.second.move else MoveDecl()
            if len(mv.route) >= MAX_ROUTE_POINTS:
                self.move_error.value = _err(f"a route has at most {MAX_ROUTE_POINTS} points")
                return
            self._loading = True
            try:
                self.second_skill.value = "move"
            finally:
                self._loading = False
            self._set_decl(replace(self.decl, second=SkillDecl("move", move=replace(mv, route=mv.route + (c,)))),
                           "order.second")
        else:
            if len(self.decl.move.route) >= MAX_ROUTE_POINTS:
                self.move_error.value = _err(f"a route has at most {MAX_ROUTE_POINTS} points")
                return
            mv = self.decl.move
            on = None if mv.on is None else mv.on + (mv.on[-1] if mv.on else None,)  # the new point: same surface
            self._set_decl(replace(self.decl, move=replace(mv, route=mv.route + (c,), on=on)), "order.move")

    def undo_route_point(self) -> None:
        """Drop the last point of the route being drawn."""
        if self.draw_target == "second" and self.decl.second.move is not None:
            mv = self.decl.second.move
            self._set_decl(replace(self.decl, second=replace(self.decl.second, move=replace(mv, route=mv.route[:-1]))),
                           "order.second")
        elif self.decl.move.route:
            mv = self.decl.move
            on = None if mv.on is None or len(mv.on) <= 1 else mv.on[:-1]
            self._set_decl(replace(self.decl, move=replace(mv, route=mv.route[:-1], on=on)), "order.move")

    def clear_route_points(self) -> None:
        """Empty the route being drawn (a Move without moving)."""
        if self.draw_target == "second" and self.decl.second.move is not None:
            self._set_decl(replace(self.decl, second=replace(self.decl.second, move=MoveDecl())), "order.second")
        else:
            self._set_decl(replace(self.decl, move=replace(self.decl.move, route=(), on=None)), "order.move")

    def _on_select(self, what) -> None:
        if isinstance(what, Hex):
            if self.draw_target == "evade":
                self.set_evade_move(self.evade_who.value, what)
            elif self.draw_target != "off":
                self.add_route_point(what)
        elif isinstance(what, str):
            ids = [m.id for m in self.initial.miners]
            if what in ids and what != self.decl.active:
                self.set_active(what)
            elif self.draw_target != "off":  # a click on a base while drawing: its hexagon
                p = self.board_view.pieces.get(what)
                if p is not None:
                    self.add_route_point(self.initial.geometry.hex_of(*p.center))

    def set_evade_move(self, miner: str | None, h: Hex) -> None:
        """Declare that ``miner`` makes its Evade movement (step 5.1) to the centre of hexagon ``h`` (replacing its
        previous one). The engine refuses it without a successful Evade Roll, or beyond one Segment."""
        if not miner:
            return
        c = self.initial.geometry.layout.hex_to_pixel(h)
        moves = tuple((k, p) for k, p in self.decl.evade_moves if k != miner) + ((miner, c),)
        self._set_decl(replace(self.decl, evade_moves=moves), "order.evade_moves")

    def _set_decl(self, decl: OrderDeclarations, field: str) -> None:
        self.decl = decl
        focus = next((k for f, k in FOCUS_OF_FIELD if field.startswith(f)), None)
        self.replay(focus="aros" if field.startswith("order.aros") else focus)

    # ------------------------------------------------------------------------------------------------ replay

    def replay(self, focus: int | str | None = None) -> None:
        """Replay the declaration log from the initial table and show step ``focus`` (``None``: keep the position;
        ``"aros"``: the last ARO declaration step with an ARO; never past the last step played)."""
        self.frames, self.rejection, self.decl = self._play(self.decl)
        self._store_order()
        ids = [m.id for m in self.initial.miners]
        was, self._loading = self._loading, True
        try:  # the "ends on" control follows the Move's last point (a point added or undone)
            self._fill_stand_pick(self.initial, self.decl.move,
                                  self.initial.miner(self.decl.active) if self.decl.active in ids else None)
        finally:
            self._loading = was
        if focus == "aros":
            rights = self.frames[-1].state.rights if self.frames else ()
            focus = 7 if self.decl.aros_at(4, rights) else 4
        if focus is not None:
            self.position = focus
        self.position = max(0, min(self.position, len(self.frames)))
        self._state_changed()   # the link first: the page's own widget messages go out on the next tick
        self._show_errors()
        self._render()

    def _play(self, decl: OrderDeclarations) -> tuple[tuple[Frame, ...], Rejection | None, OrderDeclarations]:
        """Replay the Order from the initial table: steps 1 to 2.1 (kept while the Activation and the Move do not
        change: they read nothing else), then the AROs the rows declare (a row's step "at its right" stays unset, as in
        a file: declared at the step of the Miner's right, else at step 4), then the remaining steps. Same step functions, same order
        as :func:`~.orders.sequence.play`."""
        key = (self.initial, decl.active, decl.move)
        if self._prefix is None or self._prefix[0] != key:
            self._prefix = (key, _run(self.initial, decl, self.dice, STEPS[:3]))
        frames, rej = self._prefix[1]
        if rej is not None:
            return frames, rej, decl
        if self.aro_rows and decl.active == self._rows_for:
            decl = replace(decl, aros=tuple(a for r in self.aro_rows.values() if (a := r.read()) is not None))
        more, rej = _run(frames[-1].state, decl, self.dice, STEPS[3:])
        return frames + more, rej, decl

    def state_at(self, position: int) -> OrderState:
        """The table after ``position`` steps (0: the initial table)."""
        return self.initial if position <= 0 else self.frames[min(position, len(self.frames)) - 1].state

    def go(self, delta: int) -> None:
        """Step back (-1) or forward (+1): replaying fewer or more steps of the same log. In a Round, forward
        from the end of an Order opens the next Order at its start, and back from an Order's start opens the
        previous Order at its end."""
        if self.round is not None:
            if delta > 0 and self.position >= len(STEPS) and self.rejection is None and self._has_order(+1):
                self.show_order(self.order_index + 1, 0)
                return
            if delta < 0 and self.position <= 0 and self.order_index > 0:
                self.show_order(self.order_index - 1, -1)
                return
            if delta > 0 and self._at_round_end() and self._has_round(+1):
                self.show_round(self.round_index + 1, 0, 0)
                return
            if delta < 0 and self.position <= 0 and self.order_index == 0 and self._has_round(-1):
                self.show_round(self.round_index - 1, -1, -1)
                return
        self.show(self.position + delta)

    def _has_round(self, delta: int) -> bool:
        k = self.round_index + delta
        return self.match is not None and 0 <= k < len(self.round_starts)

    def _at_round_end(self) -> bool:
        """The last step of the Round's last Order reached (or a Round without Orders)."""
        return (self.position >= len(STEPS) and self.rejection is None and not self._has_order(+1)) or (
            self.round is not None and not self.round_replay.tables)

    def _has_order(self, delta: int) -> bool:
        k = self.order_index + delta
        return self.round is not None and 0 <= k < len(self.round_replay.tables)

    def show(self, position: int) -> None:
        """Show the table after ``position`` steps (clamped to the steps the declarations allow)."""
        self.position = max(0, min(int(position), len(self.frames)))
        self._state_changed()   # the link first (see replay)
        self._render()

    def _show_errors(self) -> None:
        rej = self.rejection
        fld = rej.field if rej is not None else ""
        self.active_error.value = _err(rej) if fld.startswith("order.active") else ""
        self.move_error.value = _err(rej) if fld.startswith("order.move") else ""
        self.second_error.value = _err(rej) if fld.startswith("order.second") else ""
        aro_miner = None
        if fld.startswith("order.aros["):
            try:
                i = int(fld[len("order.aros["):].split("]")[0])
                aro_miner = self.decl.aros[i].miner
            except (ValueError, IndexError):
                aro_miner = None
        for mid, row in self.aro_rows.items():
            row.error.value = _err(rej) if mid == aro_miner else ""
        other = rej is not None and not (fld.startswith("order.active") or fld.startswith("order.move")
                                         or fld.startswith("order.second") or aro_miner is not None
                                         or fld.startswith("order.evade_moves"))
        if fld.startswith("dice"):
            self.dice_error.value = _err(rej)
            other = False
        elif rej is None or not self.dice_error.value.count("oes-error") or "Not allowed" in self.dice_error.value:
            self.dice_error.value = ""
        self.message.value = _err(rej) if other else ""

    def _render(self) -> None:
        st = self.state_at(self.position)
        last = self.frames[-1].state if self.frames else self.initial
        n_legs = max(len(last.routes[0]) - 1, 0) if last.routes else 0
        for mid, row in self.aro_rows.items():
            r = last.right_of(mid) if len(self.frames) >= 6 or last.right_of(mid) else None
            shown = st.right_of(mid)
            if shown is not None:
                txt = f"<b>{html.escape(mid)}</b>: {html.escape(right_words(shown, n_legs))}"
            elif r is not None:
                txt = f"<b>{html.escape(mid)}</b>: <span style='color:#888'>(step {r.step} not shown yet)</span>"
            else:
                txt = (f"<b>{html.escape(mid)}</b>: " + ("no right to an ARO in this Order" if len(self.frames) >= 6
                                                          else "no right yet"))
            row.info.value = f"<span style='font:12px sans-serif'>{txt}</span>"
        # the route being drawn
        pts = self.decl.move.route
        board = self.initial.geometry.board
        self.route_text.value = ("<span style='font:12px sans-serif;color:#555'>Move: "
                                 + (" → ".join(str(_point_value(board, p)) for p in pts) if pts else
                                    "no hexagon yet (a Move without moving)")
                                 + ("; second Move: " + " → ".join(str(_point_value(board, p))
                                                                     for p in self.decl.second.move.route)
                                    if self.decl.second.skill == "move" and self.decl.second.move else "")
                                 + "</span>")
        self.evade_text.value = ("<span style='font:12px sans-serif'>Evade movements declared: "
                                 + ", ".join(f"{k} → {_point_value(board, p)}" for k, p in self.decl.evade_moves)
                                 + "</span>") if self.decl.evade_moves else ""
        self.clear_evade.layout.display = "" if self.decl.evade_moves else "none"
        if self.rejection is not None and self.rejection.field.startswith("order.evade_moves"):
            self.evade_text.value += _err(self.rejection)
        n = len(STEPS)
        name = STEPS[self.position - 1][0] if self.position else "before step 1"
        self.where.value = (f"<span style='font:13px sans-serif'>step <b>{self.position}</b> of {n}: "
                            f"{html.escape(name)}" + (f" · <span style='color:#922b21'>stops at "
                                                      f"{html.escape(STEPS[len(self.frames)][0])}</span>"
                                                      if self.rejection is not None else "") + "</span>")
        self.back.disabled = self.first.disabled = self.position == 0
        self.forward.disabled = self.last.disabled = self.position >= len(self.frames)
        self.round_box.layout.display = "none" if self.round is None else ""
        if self.round is not None:
            n = len(self.round_orders)
            self.back.disabled = self.position == 0 and self.order_index == 0
            self.forward.disabled = self.position >= len(self.frames) and not (
                self.position >= len(STEPS) and self.rejection is None and self._has_order(+1)) and not (
                self._at_round_end() and self._has_round(+1))
            if self.match is not None:
                self.back.disabled = self.back.disabled and not self._has_round(-1)
            self.round_back.layout.display = self.round_forward.layout.display = "" if self.match else "none"
            self.round_back.disabled = not self._has_round(-1)
            self.round_forward.disabled = not self._has_round(+1)
            self.order_back.disabled = not self._has_order(-1)
            self.order_forward.disabled = not self._has_order(+1)
            self.order_add.disabled = self.round_replay.after is None
            side = next((m.side for m in self.initial.miners if m.id == self.decl.active), "")
            of = f" of {len(self.round_starts)}" if self.match is not None else ""
            self.order_where.value = (f"<span style='font:13px sans-serif'>{'Match · ' if self.match else ''}"
                                      f"Round <b>{self.round.initial.round}</b>{of} · "
                                      f"Order <b>{self.order_index + 1}</b> of {n} · {html.escape(side)}'s Turn"
                                      "</span>")
            self.round_info.value = round_summary_html(self.round_replay, self.order_index, n)
            if self.match is not None and self.round_index == 0:
                self.round_info.value = (deployment_summary_html(self.match_access, self.match_refusal)
                                         + self.round_info.value)
        self.step_list.value = steps_html(self.frames, self.position, self.rejection)
        if st.resolution is not None:
            if st.resolution is not self._tray_res:  # the tray is redrawn only when the dice change
                rows, links = tray_rows(st.resolution)
                self.tray.show(rows, links, title="")
                self._tray_res = st.resolution
            self.tray_box.layout.display = ""
            self._show_odds()
        else:
            self.tray_box.layout.display = "none"
        self.outcome.value = outcome_html(self.initial, st)
        self._draw(st)

    def _show_odds(self) -> None:
        """The exact odds of the Order as declared, beside its dice (recomputed only when the table or the
        declarations change: the dice do not matter)."""
        from .order_odds import order_odds

        key = (id(self.initial), self.decl)
        if self._odds_for == key:
            return
        self._odds_for = key
        try:
            o = order_odds(OrderScenario("", "", self.initial, self.decl, self.dice, ""))
        except (ScenarioError, RuleViolation) as e:
            self.odds.value = (f"<div class='oes-odds' style='font:12px sans-serif;color:#555'>Exact odds: "
                               f"{html.escape(str(e))}</div>")
            return
        self.odds.value = order_odds_html(o)

    def _draft_routes(self, st: OrderState) -> list[tuple[tuple[float, float], ...]]:
        a = self.initial.miner(self.decl.active) if self.decl.active in [m.id for m in self.initial.miners] else None
        if a is None:
            return []
        out = []
        if len(st.routes) < 1 and self.decl.move.route:
            out.append(((a.x, a.y),) + self.decl.move.route)
        if len(st.routes) < 2 and self.decl.second.skill == "move" and self.decl.second.move:
            end = self.decl.move.route[-1] if self.decl.move.route else (a.x, a.y)
            out.append((end,) + self.decl.second.move.route)
        return out

    def _dropped_routes(self, st: OrderState) -> list[Overlay]:
        """The part of a declared Move's route left unplayed because the Move interacted with a Tool Container or
        Loot Token and ended on reaching Silhouette Contact with it (grey dashes from where it stopped)."""
        from explorer.render.svg import Poly

        out: list[Overlay] = []
        declared = [self.decl.move, self.decl.second.move if self.decl.second.skill == "move" else None]
        for mv, played in zip(declared, st.routes):
            if mv is None or mv.interact is None or not mv.route or len(played) < 1:
                continue
            if math.dist(played[-1], mv.route[-1]) > 1e-9:
                rest = [p for p in mv.route if p not in played[1:]]
                out.append(Poly((played[-1], *rest), closed=False, stroke="#7f8c8d", width=2.0, dash="2 4",
                                title=f"dropped: the Move ended on reaching Silhouette Contact with "
                                      f"{mv.interact.target}"))
        return out

    def overlays(self) -> list[Overlay]:
        """The board's overlays at the current step (:func:`board_overlays` plus the routes drawn but not played and
        the part of a route dropped by an interaction)."""
        st = self.state_at(self.position)
        return (self._access_points(st) + board_overlays(st, self.position, self._draft_routes(st))
                + self._dropped_routes(st))

    def _access_points(self, st: OrderState) -> list[Overlay]:
        """A match's Access Points (numbered tokens, Initial Deployment and Respawn), drawn under everything."""
        if self.match is None:
            return []
        from explorer.render.svg import Circle

        rt = st.geometry.token_radius
        return [Circle(p, rt, fill="#d6eaf8", stroke="#1b4f72", width=1.5, label=str(n),
                       title=f"Access Point {n}") for n, p in st.geometry.access_points]

    def _draw(self, st: OrderState) -> None:
        bv = self.board_view
        pieces = pieces_of(st)
        if pieces != list(bv.pieces.values()):
            bv.set_pieces(pieces)
        bv.overlays = (self._access_points(st) + board_overlays(st, self.position, self._draft_routes(st))
                       + self._dropped_routes(st))

    def redraw(self) -> None:
        """Full redraw (call when a browser connects, e.g. ``pn.state.onload``)."""
        self.board_view.redraw()
        self.tray.redraw()

    # ------------------------------------------------------------------------------------------------ state

    def snapshot(self, position: int | None = None) -> OrderPicture:
        """The board at ``position`` (default: the step shown) as a static picture (:func:`order_svg`)."""
        k = self.position if position is None else max(0, min(position, len(self.frames)))
        return OrderPicture(order_svg(self.state_at(k), k, title=self.scenario.title))

    def order_document(self) -> dict[str, Any]:
        """The stepper's state as an order file document: the scenario's table with the current declarations
        (``[order]``), dice (``[dice]``) and seed. ``explorer resolve FILE`` plays the same Order."""
        doc = {k: v for k, v in self.document.items() if k not in ("order", "dice", "seed")}
        doc.setdefault("game", "tagraid")
        doc["seed"] = self.dice.seed
        doc["order"] = order_entry(self.decl, self.initial.geometry.board)
        doc["dice"] = dice_entry(self.dice)
        return doc

    def to_toml(self) -> str:
        """:meth:`order_document` (in a Round: :meth:`round_document`) as TOML text (the "Download TOML" file)."""
        from explorer.tomlwrite import dumps

        if self.match is not None:
            return dumps(self.match_document(), header="TAG Raid match saved by the Order Expenditure Sequence "
                         "stepper.\nPlay it with `explorer resolve FILE`.")
        if self.round is not None:
            return dumps(self.round_document(), header="TAG Raid Round saved by the Order Expenditure Sequence "
                         "stepper.\nPlay it with `explorer resolve FILE`.")
        return dumps(self.order_document(), header="TAG Raid Order saved by the Order Expenditure Sequence stepper."
                     "\nPlay it with `explorer resolve FILE`.")

    def url_state(self) -> dict[str, Any]:
        """The state written to the page's link: the built-in scenario's id (or the whole table of an opened file),
        the declarations, the dice, the seed and the step shown."""
        if self.match is not None:
            mst: dict[str, Any] = {"rounds": self.match_document()["rounds"], "round_index": self.round_index,
                                   "order_index": self.order_index, "step": self.position}
            if self.scenario_id is not None:
                mst["scenario"] = self.scenario_id
            else:
                mst["file"] = {k: v for k, v in self.document.items() if k != "rounds"}
            return mst
        if self.round is not None:
            rst: dict[str, Any] = {"orders": self.round_document()["orders"], "order_index": self.order_index,
                                   "step": self.position}
            if self.scenario_id is not None:
                rst["scenario"] = self.scenario_id
            else:
                rst["file"] = {k: v for k, v in self.document.items() if k != "orders"}
            return rst
        st: dict[str, Any] = {"order": order_entry(self.decl, self.initial.geometry.board),
                              "dice": dice_entry(self.dice), "seed": self.dice.seed, "step": self.position}
        if self.scenario_id is not None:
            st["scenario"] = self.scenario_id
        else:
            st["file"] = {k: v for k, v in self.document.items() if k not in ("order", "dice", "seed")}
        return st

    def load_url_state(self, state: dict[str, Any]) -> None:
        """Restore a state read from a link: validated as an order file is (the table is the built-in scenario's
        or the link's own), so a bad link names its field.

        Raises:
            ScenarioError: naming the field; the stepper keeps its state.
        """
        if not isinstance(state, dict):
            raise ScenarioError("", "the link's state is not a table", "a state written by this page", "link")
        keys = ["scenario", "file", "order", "dice", "seed", "step", "orders", "order_index", "rounds", "round_index"]
        unknown = sorted(set(state) - set(keys))
        if unknown:
            raise ScenarioError(unknown[0], "unknown field", keys, "link")
        sid = state.get("scenario")
        if sid is not None:
            if not isinstance(sid, str) or sid not in order_scenarios():
                raise ScenarioError("scenario", f"no built-in order scenario {short_repr(sid)}", order_scenarios(),
                                    "link")
            base = builtin_document(sid)
        elif isinstance(state.get("file"), dict):
            base = dict(state["file"])
        else:
            raise ScenarioError("scenario", "missing", "a built-in order scenario id or a file", "link")
        step = state.get("step", 0)
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= len(STEPS):
            raise ScenarioError("step", f"{short_repr(step)} is not a step", f"a whole number 0..{len(STEPS)}", "link")
        if base.get("kind") == "match":
            idx = {}
            for key in ("order_index", "round_index"):
                v = state.get(key, 0)
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 10**3:
                    raise ScenarioError(key, f"{short_repr(v)} is not an index", "a whole number from 0", "link")
                idx[key] = v
            doc = {kk: v for kk, v in base.items() if kk != "rounds"}
            doc["rounds"] = state.get("rounds", base.get("rounds", []))
            self._open(base, _parse(doc, "link"), sid, position=step, order_index=idx["order_index"],
                       round_index=idx["round_index"])
            if sid is None:
                self._show_file_in_picker(str(base.get("title") or "the link's table"))
            return
        if base.get("kind") == "round":
            k = state.get("order_index", 0)
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < 10**3:
                raise ScenarioError("order_index", f"{short_repr(k)} is not an Order's index",
                                    "a whole number from 0", "link")
            doc = {kk: v for kk, v in base.items() if kk != "orders"}
            doc["orders"] = state.get("orders", base.get("orders", []))
            self._open(base, _parse(doc, "link"), sid, position=step, order_index=k)
            if sid is None:
                self._show_file_in_picker(str(base.get("title") or "the link's table"))
            return
        doc = {k: v for k, v in base.items() if k not in ("order", "dice", "seed")}
        for k in ("order", "dice", "seed"):
            if k in state:
                doc[k] = state[k]
            elif k in base:
                doc[k] = base[k]
        sc = _parse(doc, "link")
        self._open(base, sc, sid, position=step)
        if sid is None:
            self._show_file_in_picker(str(base.get("title") or "the link's table"))

    def on_state_change(self, callback) -> None:
        """Call ``callback()`` after every change (the page then writes :meth:`url_state` to its URL)."""
        self._state_callbacks.append(callback)

    def _state_changed(self) -> None:
        try:
            text = self.to_toml()
        except (ValueError, TypeError) as e:  # pragma: no cover - every state the widget reaches is writable
            self.download.value = f"<span style='color:#922b21'>{html.escape(str(e))}</span>"
        else:
            self.download.value = (download_link(text, "match.toml", "the table, the Initial Deployment and every "
                                                 "Round's Orders with their dice as a match file: `explorer resolve "
                                                 "FILE` plays the match", "oes-download-link")
                                   if self.match is not None else
                                   download_link(text, "round.toml", "the table, the Event deck and every Order's "
                                                 "declarations and dice as a round file: `explorer resolve FILE` "
                                                 "plays the Round", "oes-download-link") if self.round is not None
                                   else download_link(text, "order.toml", "the table, the declarations and the dice "
                                                      "as an order file: `explorer resolve FILE` plays it",
                                                      "oes-download-link"))
        # the note says when the page no longer shows the Order it opened: its declarations, dice, seed or table,
        # not where the reader is in it (the step, the Order, the Round: stepping through changes no input)
        self.note.track({k: v for k, v in self.url_state().items() if k not in _WHERE_KEYS})
        for cb in list(self._state_callbacks):
            cb()

    # ------------------------------------------------------------------------------------------------ reading

    def verdicts(self) -> dict[str, str]:
        """``{Reactive Miner: right in words}`` after the whole replay (``"no right"`` for the others)."""
        last = self.frames[-1].state if self.frames else self.initial
        n_legs = max(len(last.routes[0]) - 1, 0) if last.routes else 0
        out = {}
        for mid in self.aro_rows:
            r = last.right_of(mid)
            out[mid] = right_words(r, n_legs) if r is not None else "no right"
        mb = self.initial.megabeast
        if mb is not None:
            r = last.right_of(mb.id)
            out[mb.id] = right_words(r, n_legs) if r is not None else "no right"
        return out


def order_page(scenario: str = DEFAULT_ORDER, game: Game | None = None) -> tuple[OrderStepper, Any]:
    """The Panel page's widget and its redraw callable (see :class:`explorer.games.Page`); ``game``: the page's
    :class:`~explorer.games.Game` (passed by ``Page.open``)."""
    w = OrderStepper(scenario, game=game)
    return w, w.redraw


__all__ = ["DEFAULT_ORDER", "order_scenarios", "builtin_document", "order_entry", "dice_entry", "parse_dice_text",
           "pieces_of", "board_overlays", "order_svg", "OrderPicture", "witness_position", "right_words", "tray_rows",
           "steps_html",
           "outcome_html", "OrderStepper", "AroRow", "order_page"]
