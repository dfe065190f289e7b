"""Line of Fire verdicts as plain data and text (no widgets): what ``explorer tagraid lof`` prints and what the
explorer lists under each verdict.

A verdict (:class:`~explorer.games.tagraid.lof_analysis.TargetVerdict`) bundles the answers of :mod:`.lof` (Line of
Fire and Distances › Line of Fire; MegaBeast › MegaBeast Line of Fire), :mod:`.ranges` (Distances and Measurements ›
Range Ruler; Line of Fire and Distances › Range in Hexagons), Partial Cover (Damage › Partial Cover) and
:mod:`.megabeast` (MegaBeast › Threat Level). Each of those records the ruling options it consulted; a verdict's
readings are their union (:func:`verdict_readings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from explorer.text import plural

LIMIT_3D_SEARCH = "lof_3d_search"
"""The named limit of Line of Fire between Models at different heights (docs/limits.md, "Line of Fire in three
dimensions"): a "no LoF" verdict is a search, not a proof, when a piece whose top lies between the two Silhouettes'
tops crosses the plan between them and neither exact flat bracket decides (:func:`.elevation.find_clear_segment_3d`).
Every "LoF" verdict is a checked clear line; every other "no LoF" verdict is exact. The search is bounded: every line
joining two points of a net of each base is tested, so a "no LoF" under it means no clear line keeps more than the
net's spacing (``resolution``, board units) from the pieces it passes below the top of. Answers reached under it carry
``exact = False`` and ``resolution`` (:class:`.lof.LoFResult`) and say so in words, in JSON (``"limit"``,
``"resolution"``) and on the page."""


def obstacle_words(label: str) -> str:
    """An engine blocker label in words: ``"scenery:rock 4"`` -> ``"scenery rock 4"``, ``"model:Stoorworm"`` ->
    ``"Stoorworm's base"``, ``"hex:5,8"`` -> ``"hexagon (5, 8) without tile"``, ``"off_board"`` -> ``"the edge of
    the board"``."""
    kind, _, ident = label.partition(":")
    if kind == "scenery":
        return f"scenery {ident}"
    if kind == "model":
        return f"{ident}'s base"
    if kind == "hex":
        return f"hexagon ({ident.replace(',', ', ')}) without tile"
    if kind == "off_board":
        return "the edge of the board"
    return label


def blocked_words(labels: Sequence[str]) -> str:
    """Blocker labels grouped in words: scenery pieces, Models' bases, then hexagons without tile (listed as
    ``(q, r)``), e.g. ``"scenery rock 1, rock 4; hexagons (5, 8), (6, 8) without tile"``."""
    scen = [lab.partition(":")[2] for lab in labels if lab.startswith("scenery:")]
    mods = [lab.partition(":")[2] for lab in labels if lab.startswith("model:")]
    hexes = [lab.partition(":")[2].replace(",", ", ") for lab in labels if lab.startswith("hex:")]
    parts = []
    if scen:
        parts.append("scenery " + ", ".join(scen))
    if mods:
        parts.append(" and ".join(f"{m}'s base" for m in mods))
    if hexes:
        parts.append(("hexagon " if len(hexes) == 1 else "hexagons ") + ", ".join(f"({h})" for h in hexes)
                     + " without tile")
    if any(lab.startswith("off_board") for lab in labels):
        parts.append("the edge of the board")
    return "; ".join(parts)


def band_words(band: str | None) -> str:
    """``"short"`` → ``"Short Range"``, ``"out_of_range"`` → ``"Out of Range"``."""
    if not band:
        return "no Range band"
    return "Out of Range" if band == "out_of_range" else f"{band.replace('_', ' ').title()} Range"


def verdict_readings(v: Any) -> dict[str, str]:
    """``{option key: reading}`` consulted by every part of verdict ``v`` (LoF, Range Ruler, Partial Cover, Threat
    Level), sorted by key."""
    used: dict[str, str] = {}
    for part in (v.lof, v.range, getattr(v.cover, "lof", None), v.threat):
        if part is not None:
            used.update(getattr(part, "rulings", {}) or {})
    return dict(sorted(used.items()))


def verdict_to_dict(v: Any) -> dict[str, Any]:
    """A JSON-serialisable verdict: ``target``, ``lof`` (``has_lof``, ``reason``, ``blocked_by``, ``arc_degrees``),
    ``range`` (``distance`` in hex units, ``band``, ``mod``; ``None`` without LoF), ``partial_cover`` (``None``: not
    asked; else ``in_cover`` and the scenery ``pieces``), ``hexes`` (Range in Hexagons), ``threat`` (``level``,
    ``pair``; or ``None``), ``readings`` (:func:`verdict_readings`) and ``sections`` cited."""
    rng = None
    if v.range is not None:
        rng = {"distance": None if v.range.distance is None else v.range.shown(4), "band": v.band,
               "mod": v.mod}
    return {
        "target": v.target,
        "lof": {"has_lof": v.lof.has_lof, "reason": v.lof.reason, "blocked_by": list(v.lof.blocked_by),
                "arc_degrees": v.lof.arc_degrees,
                **({} if getattr(v.lof, "exact", True) else {"exact": False, "limit": LIMIT_3D_SEARCH,
                                                               **_resolution(v.lof)})},
        "range": rng,
        "partial_cover": None if v.cover is None else {"in_cover": v.cover.in_cover, "pieces": list(v.cover.pieces),
                                                       **_resolution(v.cover)},
        "hexes": v.hex_distance,
        "threat": None if v.threat is None else {"level": v.threat.level, "pair": v.threat.pair,
                                                 "megabeast": v.threat.megabeast, "miner": v.threat.miner},
        "readings": verdict_readings(v),
        "sections": list(v.rules),
    }


def _resolution(lof: Any) -> dict:
    """``{"resolution": delta}`` of a verdict under :data:`LIMIT_3D_SEARCH` (board units, the search's bound:
    :attr:`.lof.LoFResult.resolution`), or of a Partial Cover verdict at heights reached by sampling
    (:attr:`.lof.CoverResult.resolution`); ``{}`` without one."""
    res = getattr(lof, "resolution", None)
    return {} if res is None else {"resolution": round(res, 6)}


def readings_text(readings: dict[str, str]) -> str:
    """``"lof_grazing = touching_blocks, range_measurement = ..."`` (``"none"`` when empty)."""
    return ", ".join(f"{k} = {r}" for k, r in readings.items()) or "none"


def verdict_line(v: Any, shooter: str) -> str:
    """One verdict in words: ``"Peeker: LoF (clear); Range mid 5.12 hex units, MOD +0; Partial Cover (pylon);
    2 hexagons"``."""
    if v.lof.has_lof:
        out = f"{v.target}: LoF ({v.lof.reason.replace('_', ' ')})"
    elif v.lof.reason == "outside_arc":
        out = f"{v.target}: no LoF (outside {shooter}'s {v.lof.arc_degrees:g}° arc)"
    elif v.lof.reason == "blocked":
        out = f"{v.target}: no LoF (blocked by {blocked_words(v.lof.blocked_by) or 'an obstacle'})"
    else:
        out = f"{v.target}: no LoF ({v.lof.reason.replace('_', ' ')})"
    if not getattr(v.lof, "exact", True):
        res = getattr(v.lof, "resolution", None)
        out += (f" [not proved: limit {LIMIT_3D_SEARCH}, a search over {v.lof.candidates_tested} candidate lines"
                + ("" if res is None else f": no clear line with a margin over {res:.3f} hex units")
                + "]")
    if v.range is not None and v.range.distance is not None:
        mod = "cannot fire" if v.mod is None else f"MOD {v.mod:+d}"
        out += f"; Range {(v.band or '').replace('_', ' ')} {v.range.shown(2):.2f} hex units, {mod}"
    if v.cover is not None:
        out += f"; Partial Cover ({', '.join(v.cover.pieces)})" if v.cover.in_cover else "; no Partial Cover"
        if getattr(v.cover, "resolution", None) is not None:
            out += f" [not proved: points tried within {v.cover.resolution:.3f} hex units of every point]"
    out += f"; {plural(v.hex_distance, 'hexagon')}"
    if v.threat is not None:
        out += f"; Threat Level {v.threat.level} ({v.threat.pair} side)"
    return out
