"""Pictures of a Galaxy Defenders round (no widgets): one :class:`RoundPosition` per cited step, drawn from the typed
state of the kernel frame that holds the step (never from the steps' facts), the map as SVG and the sheets as HTML.

What a position shows: the map as of the step (:func:`positions_from`: each map note of a frame names the step that
describes it and keeps the state just after it), the walks of that frame so far (blue paths) and its attacks (red
lines, wounds dealt), what the step names ringed; each agent's sheet (hex, wounds, Poison, Mark, pose, the cards it holds, face down or discarded, the
Power Suit it wears), each NPC (controller, wounds, Paralyzed / Immobilized), each alien (wounds, Energy Shield
stacks, Paralyzed; a multi-hex alien's two-hex base, 11.8), each drone (9.7.4) and the signals on the map (11.10), the
Close Encounter card last drawn. Sections: whatever each step cites.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from explorer.hexgrid import Hex
from explorer.kernel import Frame
from explorer.render.svg import Circle, HexMark, Label, Overlay, Segment, render_board
from explorer.text import plural
from explorer.trace import Step

from .combat import wound_tally
from .missions import STATUS_WORDS
from .map_draw import PATH, SIDE_FILL, area_board, area_board_layout, area_overlays, initials
from .round_map import SECOND, Attacked, CardDrawn, Moved

STANDINS = ("Card data (Powers, Items, Devices), an agent's Health and movement when the file gives none (8 and 4), "
            "a Power Suit weapon without a weapon table, the drone tiles (Vigil, GD-5, Hologram) without [drone_tiles] and the "
            "Fighting Pose tokens' numbers without [fighting_pose_tokens] (card_data/fighting-poses.toml) are "
            "documented, editable STAND-INs: the rulebook prints no tiles, tokens or sheets. The map is the file's.")
FRAME_NOTE = ("The map and the sheets show the round as of the focused step: a walk from the step that walks it, an "
              "attack's wounds from its last step, a figure from the step it enters play (the round is played one "
              "phase, one agent turn, one Close Encounter card, one alien activation at a time; the other changes of "
              "an agent turn, such as cards used, show from its last step).")
ATTACK = "#c92a2a"
SIGNAL = "#ffd43b"
FOCUS = "#f59f00"


@dataclass(frozen=True)
class RoundPosition:
    """One cited step and its frame: ``step``, ``frame`` (its kernel :class:`~explorer.kernel.Frame`), ``fresh``
    (the map notes of the frame up to this step: walks, attacks, the card drawn), ``card`` (the last Close Encounter
    card drawn so far, or ``None``) and ``state`` (the round's state this step shows; ``None``: the frame's)."""

    step: Step
    frame: Frame
    fresh: tuple = ()
    card: CardDrawn | None = None
    state: object = None

    @property
    def shown(self):
        """The :class:`.round.RoundState` the map and the sheets draw at this step."""
        return self.state if self.state is not None else self.frame.state


def anchors(steps: Sequence[Step], notes: Sequence) -> list[int]:
    """For each map note of a frame, the index of the step that describes it (the first step after the previous
    note's with the note's ``step`` title; the same step again for a note naming the same title as the previous
    one). A note whose step is not found counts from the frame's last step."""
    out: list[int] = []
    at, last = 0, None
    for n in notes:
        start = at if n.step == last else (at + 1 if out else 0)
        k = next((i for i in range(start, len(steps)) if steps[i].title == n.step), None) if n.step else None
        at = k if k is not None else len(steps) - 1
        out.append(at)
        last = n.step
    return out


def positions_from(frames: Sequence[Frame]) -> list[RoundPosition]:
    """One :class:`RoundPosition` per cited step of the round played as ``frames`` (:func:`.round.round_frames`),
    each showing the round as of its step: a frame's steps before its first map note show the state the previous
    frame left; from the step a note names (a walk, the end of an alien's movement, an attack's last step, a figure
    entering play, the card drawn) the state just after that note (its ``shows``); the frame's last step the
    frame's own state (its changes without a map note: cards used, tokens). A frame without map notes (the Refresh
    phase, whose effects are simultaneous) shows its own state at every step."""
    out: list[RoundPosition] = []
    seen = 0
    card = None
    before = frames[0].state if frames else None
    for fr in frames:
        notes = fr.state.notes
        fresh = notes[seen:]
        seen = len(notes)
        where = anchors(fr.steps, fresh)
        for j, s in enumerate(fr.steps):
            done = [n for n, k in zip(fresh, where) if k <= j]
            for n in done:
                if isinstance(n, CardDrawn):
                    card = n
            if not fresh or j == len(fr.steps) - 1:
                shown = fr.state
            elif done:
                shown = done[-1].shows or fr.state
            else:
                shown = before
            out.append(RoundPosition(s, fr, tuple(done), card, shown))
        before = fr.state
    return out


SIDE_WORDS = {"power_suit": "empty Power Suit (9.5)"}
"""The legend's words for a figure side whose key is not a word."""

MAP_LEGEND = ("<div class='gd-round-legend' style='font-family:sans-serif;font-size:11px;color:#495057;"
              "max-width:660px;line-height:1.5'>"
              + " &nbsp;".join(f"<span style='color:{c}'>●</span> {SIDE_WORDS.get(s, s)}" for s, c in SIDE_FILL.items())
              + " &nbsp;(a bar: a two-hex base, 11.8; a trailing 2, as Se2: a Prime Swarm's 2nd figure, 11.6)<br>tints: Areas (dashed ring: centre hex) &nbsp;"
              "<span style='color:#b03a2e'>╍</span> Barrier Hex Side &nbsp;<span style='color:#1d1d1d'>━</span> wall "
              "&nbsp;<span class='gd-legend-blocking' style='display:inline-block;box-sizing:border-box;width:14px;height:14px;"
              "border:2px solid #b3261e;border-radius:50%;background:#fff;text-align:center;font-size:9px;"
              "line-height:10px;font-weight:bold;color:#b3261e;vertical-align:middle'>I</span> Blocking Hex (hatched, impassable, blocks line of sight)<br>"
              f"<span style='color:{PATH}'>━</span> walk (white dot: start) &nbsp;<span style='color:{ATTACK}'>╍</span>"
              " attack, drawn along its line of sight to the hex the rules used &nbsp;"
              f"<b style='color:{ATTACK}'>-N</b> wounds &nbsp;<span style='color:{SIGNAL}'>●</span>? signal &nbsp;"
              f"<span style='color:{FOCUS}'>◯</span> named by the step</div>")
"""The key to :func:`map_svg`'s marks (the Round page shows it under the map): figures by side, Areas, Hex Sides,
the Blocking Hex's "I" token, walks, attacks, wounds, signals and the step's focus ring."""


def map_svg(amap, pos: RoundPosition, title: str = "", size: float = 40.0) -> str:
    """The map at ``pos`` (SVG): Areas, Hex Sides, every figure on its hex as of the step (:attr:`RoundPosition
    .shown`), the frame's walks and attacks up to the step, what the step names ringed in amber."""
    lay = area_board_layout()
    px = lay.hex_to_pixel
    st = pos.shown
    at = {p.name: p for p in st.figures}
    ov: list[Overlay] = list(area_overlays(amap))
    for n in pos.fresh:
        if isinstance(n, Moved) and len(n.path) > 1:
            pts = [px(h) for h in n.path]
            ov += [Segment(a, b, stroke=PATH, width=4.0) for a, b in zip(pts, pts[1:])]
            ov.append(Circle(pts[0], 0.2, fill="#ffffff", stroke=PATH, width=2.0, title=f"{n.who} started here"))
        if isinstance(n, Attacked) and n.attacker in at and (n.target in at or any(r[0] == n.target for r in
                                                                                  n.results)):
            tgt = at.get(n.target)
            if n.line is not None:  # to the hex the rules traced the attack to (a multi-hex alien's base hex in sight)
                ov.append(Segment(px(n.line[0]), px(n.line[1]), stroke=ATTACK, width=3.0, dash="7 4",
                                  title=f"{n.attacker} attacks {n.target} (line of sight {n.line[0]} → {n.line[1]})"))
            elif tgt is not None:
                ov.append(Segment(px(at[n.attacker].at), px(tgt.at), stroke=ATTACK, width=3.0, dash="7 4",
                                  title=f"{n.attacker} attacks {n.target}"))
    for sig in st.signals:      # a signal token (11.10): its front is like any signal's until revealed
        ov.append(Circle(px(sig.at), 0.3, fill=SIGNAL, stroke="#495057", width=1.5, label="?",
                         title=f"Signal {sig.name} on {sig.at} ({sig.kind.upper()} signal; its front looks like any "
                               "signal's until revealed)"))
    for p in st.figures:
        side = {"master_alien": "alien", "hologram": "drone"}.get(p.side, p.side)
        if p.base is not None:      # a multi-hex alien (11.8): its two-hex base, the face hex labelled
            ov.append(Segment(px(p.at), px(p.base), stroke=SIDE_FILL[side], width=14.0,
                              title=f"{p.name}: two-hex base {p.at} + {p.base}"))
            ov.append(Circle(px(p.base), 0.36, fill=SIDE_FILL[side], stroke="#ffffff", width=1.5,
                             title=f"{p.name}: rest of its base on {p.base}"))
        ov.append(Circle(px(p.at), 0.42, fill=SIDE_FILL[side], stroke="#ffffff", width=1.5, title=f"{p.name} on {p.at}",
                         label=initials(p.name.split(" (")[0] or p.name) + ("2" if p.name.endswith(SECOND) else "")))
        # "Vigil (Marine)" -> Vi; a Prime Swarm's 2nd figure "Sentinels (2nd figure)" -> Se2 (not "S2", which
        # reads as a signal's name)
    for n in pos.fresh:
        if isinstance(n, Attacked):
            for name, wounds, status in n.results:
                if name in at and wounds:
                    x, y = px(at[name].at)
                    ov.append(Label((x + 0.5, y - 0.55), f"-{wounds}", size=12, fill=ATTACK, weight="bold"))
    for mk in pos.step.marks:
        if mk in at:
            ov.append(Circle(px(at[mk].at), 0.62, stroke=FOCUS, width=3.0))
            continue
        try:
            h = Hex.parse(mk)
        except (ValueError, TypeError):
            continue
        if h in amap.area_of:
            ov.append(HexMark(h, stroke=FOCUS, width=3.0))
    return render_board(area_board(amap, title), overlays=ov, size=size, show_areas=False)


def _pips(n: int, of: int, on: str) -> str:
    return "".join(f"<span style='display:inline-block;width:8px;height:8px;margin-right:1px;border-radius:2px;"
                   f"background:{on if i < n else '#e9ecef'};border:1px solid #adb5bd'></span>" for i in range(of))


def _row(name: str, hex_: Hex | None, t, more: Sequence[str], colour: str, cls: str) -> str:
    tags = [x for x in (f"Poison {t.poison}" if t.poison else "", f"Mark {t.mark}" if t.mark else "",
                        *more) if x]
    status = t.status()
    head = (f"<b>{html.escape(name)}</b> on {html.escape(str(hex_) if hex_ else 'no hex (off the map)')}"
            + (f" · <b style='color:#c92a2a'>{status.upper()}</b>" if status != "alive" else ""))
    body = (f"Wounds {_pips(t.wounds, t.max_health, '#fa5252')} {wound_tally(t.wounds, t.max_health)}"
            + (" · " + html.escape(" · ".join(tags)) if tags else ""))
    return (f"<div class='{cls}' data-figure='{html.escape(name, quote=True)}' style='margin:3px 0;padding:3px 6px;"
            f"border-left:4px solid {colour}'>{head}<br><span style='font-size:12px'>{body}</span></div>")


def sheets_html(pos: RoundPosition) -> str:
    """The agents' sheets, the NPCs and the aliens at ``pos`` (HTML, escaped), drawn from the state the step shows
    (:attr:`RoundPosition.shown`)."""
    st = pos.shown
    where = {p.name: (p.at if p.base is None else f"{p.at} + {p.base}") for p in st.figures}
    rows = ["<div style='font-weight:bold;margin-top:4px'>Agents</div>"]
    for a in st.agents:
        c = st.cards_of(a.name)
        more = []
        if st.poses:
            more.append(st.pose_of(a.name).title())
        if st.suit is not None and st.suit.equipped_by == a.name:
            more.append(f"wears {st.suit.name}" + (f" (shields {st.suit_shields})" if st.suit_shields is not None
                                                   else ""))
        if c is not None:
            up = [x for x in c.held if x not in c.face_down and x not in c.discarded]
            more += [x for x in (up and "cards: " + ", ".join(up), c.face_down and "face down: " +
                                 ", ".join(c.face_down), c.discarded and "discarded: " + ", ".join(c.discarded)) if x]
        rows.append(_row(a.name, where.get(a.name), a, more, SIDE_FILL["agent"], "gd-sheet"))
    if st.npcs:
        rows.append("<div style='font-weight:bold;margin-top:4px'>NPCs</div>")
        for n in st.npcs:
            more = [f"controller {n.controller}"] + [w for w, on in (("Paralyzed", n.paralyzed),
                                                                     ("Immobilized", n.immobilized)) if on]
            rows.append(_row(n.figure.name, where.get(n.figure.name), n.figure, more, SIDE_FILL["npc"], "gd-npc"))
    if st.aliens:
        rows.append("<div style='font-weight:bold;margin-top:4px'>Aliens</div>")
        for x in st.aliens:
            more = ([f"Energy Shields {'/'.join(map(str, x.stacks))}"] if x.stacks else []) + \
                   (["two-hex base (11.8)"] if any(p.name == x.name and p.base for p in st.figures) else []) + \
                   (["Prime Swarm, 2nd figure (11.6)"] if x.name.endswith(SECOND) else
                    ["Prime Swarm, 1st figure (11.6)"] if any(y.name == x.name + SECOND for y in st.aliens) else []) + \
                   (["Paralyzed"] if x.name in st.paralyzed_aliens or x.critical_x("paralyzed") is not None else []) + \
                   (["Master Alien"] if x.kind == "master_alien" else [])
            rows.append(_row(x.name, where.get(x.name), x, more, SIDE_FILL["alien"], "gd-alien"))
    if st.drones:
        rows.append("<div style='font-weight:bold;margin-top:4px'>Drones</div>")
        for d in st.drones:
            rows.append(_row(d.name, where.get(d.name), d, ["9.7.4: no Agent turn; aliens treat it as an agent"],
                             SIDE_FILL["drone"], "gd-drone"))
    if st.signals:
        rows.append("<div style='margin-top:4px'>Signals on the map: " + html.escape(", ".join(
            f"{x.name} on {x.at}" for x in st.signals)) + "</div>")
    if st.suit is not None and st.suit.equipped_by is None:
        rows.append(f"<div class='gd-suit' style='margin-top:4px'>{html.escape(st.suit.name)}: unequipped"
                    + (f", empty on {where[st.suit.name]}" if st.suit.name in where else "")
                    + f", {plural(st.suit.batteries, 'Battery', 'Batteries')} (9.5)</div>")
    if st.menace is not None:
        rows.append(f"<div style='margin-top:4px'>Menace token: <b>{html.escape(st.menace.holder)}</b>, Level "
                    f"{st.menace.level}</div>")
    if st.alpha is not None or st.alpha_kept:
        who = st.alpha or f"{st.agents[0].name}, eliminated, keeps the role"
        rows.append(f"<div class='gd-alpha' style='margin-top:4px'>Alpha Agent: <b>{html.escape(who)}</b> (ruling "
                    "alpha_agent_succession)</div>")
    if st.mission is not None:
        m = st.mission
        counts = ", ".join(f"{k} {v}" for k, v in m.counters)
        status = STATUS_WORDS.get(m.status, m.status) if m.status else "goes on"
        rows.append(f"<div class='gd-mission' style='margin-top:4px'>Mission: <b>{html.escape(status)}</b>"
                    + (f" (row {m.row}, next mission {html.escape(m.next)})" if m.row else "")
                    + (f"; counters: {html.escape(counts)}" if counts else "") + "</div>")
    return "<div class='gd-sheets' style='font-family:sans-serif;font-size:13px'>" + "".join(rows) + "</div>"


def card_html(pos: RoundPosition) -> str:
    """The Close Encounter card last drawn at ``pos`` (HTML): its number, the agent whose turn it follows, the
    aliens it activates; a dash before the first card."""
    c = pos.card
    if c is None:
        return ("<div class='gd-ce-card' style='font-family:sans-serif;font-size:12px;color:#868e96'>Close Encounter "
                "card: none drawn yet this round.</div>")
    return (f"<div class='gd-ce-card' style='font-family:sans-serif;font-size:13px;border:2px solid #862e9c;"
            f"border-radius:6px;padding:4px 8px;max-width:320px;background:#f8f0fc'><b>Close Encounter card "
            f"{c.card}</b> (drawn after {html.escape(c.after)}'s turn)<br>activates: "
            f"{html.escape(', '.join(c.activates) or 'no alien')} <span style='font-size:11px;color:#495057'>(11.5: "
            "listed by the file, or selected by an 'Activate X aliens' card)</span></div>")


def focus_html(pos: RoundPosition, number: int, total: int) -> str:
    """The focused step: its frame, title, cited rule and detail (HTML, escaped)."""
    s = pos.step
    return (f"<div class='gd-round-focus' style='font-family:sans-serif;border-left:4px solid #1c7ed6;"
            f"background:#e7f5ff;padding:6px 10px;border-radius:4px'><div style='font-size:11px;color:#1864ab;"
            f"text-transform:uppercase'>Step {number} of {total} · {html.escape(s.section)}</div>"
            f"<div class='gd-step-title' style='font-size:15px;font-weight:bold'>{html.escape(s.title)}</div>"
            f"<div class='gd-step-rule' style='font-size:12px;color:#1864ab'>§ {html.escape(s.rule.section)}</div>"
            + (f"<div style='font-size:13px;color:#343a40'>{html.escape(s.detail)}</div>" if s.detail else "")
            + f"<div style='font-size:11px;color:#868e96'>Map at this step (in: {html.escape(pos.frame.name)})</div>"
            "</div>")


__all__ = ["RoundPosition", "positions_from", "map_svg", "sheets_html", "card_html", "focus_html", "STANDINS",
           "FRAME_NOTE"]
