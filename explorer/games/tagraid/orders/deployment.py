"""Initial Deployment as step functions over immutable state: each player, in Timeline order, rolls a d20 for an
Access Point and deploys their Miners there.

Sections: Setting Up the Match (06 Initial Deployment); Game Sequence › Initial Deployment (following Timeline order,
each player rolls a d20 for the Access Point their Miners are deployed at; the TAG in contact with that Access Point,
any other member of the Prospecting Crew in any part of the Hexagon or Hexagons in contact with it; a number on an
Access Point that already has an enemy Miner in contact with it is rolled again until it names a free one);
Line of Fire and Distances › Interaction with Areas and Silhouettes (a Miner is inside an area when its Silhouette is
at least partially inside it); Game Sequence › Timeline.

Documented, editable defaults (the rulebook draws the Access Points but gives them no size, and does not say how a
d20 face maps to them): an Access Point is a token of the table's ``token_radius`` at its position (order, round and
match files: ``access_points``); a TAG is deployed *in contact* with it when its base touches the token's edge
(Silhouette Contact: Silhouettes in contact, a Token included; Move: a Miner may not stand on top of a Token), not
over it; an Access Point is *taken* when an enemy base reaches its token (touching it or over it); the Hexagons in
contact with it are those the token touches; a d20 face that numbers no Access Point of the table is rolled again,
as for Respawn (:mod:`.death`). A TAG whose placement is not declared is placed touching the token on the side
facing the middle of the board (the first position that fits, turning round the token in steps of 15° from there);
every other Miner's placement must be declared.

Every step is ``step(state, ctx, side)`` for the :class:`explorer.kernel.Each` entry of :data:`DEPLOYMENT_STEPS`
(one frame per player) over the frozen :class:`DeploymentState`; :func:`play_deployment` replays them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from explorer import kernel
from explorer.dice import Dice
from explorer.errors import ScenarioError
from explorer.scenario import toml_key
from explorer.kernel import Context, Each, Frame
from explorer.text import agree, plural
from explorer.trace import Step

from .. import sections as S
from ..printed import against
from .declarations import refused
from .state import MinerState, OrderState

MAX_DEPLOYMENT_ROLLS = 200
"""Re-rolls before Initial Deployment gives up for a player (every Access Point taken or none numbered): refused."""
CONTACT_TOLERANCE = 1e-6
"""Board units by which a base may fall short of an Access Point token and still be in contact (rounding)."""
OVERLAP_TOLERANCE = 0.01
"""Board units by which a declared base may reach over an Access Point token and still be in contact with it (a
hand-written position to 2 or 3 decimals: 1.4 mm at the calibration's 140 mm hexagon); further over is standing on
it, which is not contact."""
FIELD = "initial_deployment"
"""Where the declarations sit in a match file (fields named in refusals)."""


@dataclass(frozen=True)
class Placement:
    """Where a player deploys one Miner: its base centre (board units) and facing (degrees; ``None``: as on its
    entry)."""

    miner: str
    x: float
    y: float
    facing: float | None = None


@dataclass(frozen=True)
class DeploymentDeclarations:
    """The players' Initial Deployment: each Miner's placement (a TAG's may be left out: it then stands on its
    Access Point) and the d20 faces given per side (``((side, faces), ...)``; faces not given are rolled);
    ``fields``: ``((miner, field), ...)`` where each Miner's placement is written in its file (named by refusals;
    default ``initial_deployment.placements.<Miner>``)."""

    placements: tuple[Placement, ...] = ()
    rolls: tuple[tuple[str, tuple[int, ...]], ...] = ()
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class DeploymentContext(Context):
    """What the deployment steps read (:class:`explorer.kernel.Context`): the declarations and the seed the dice
    not given are rolled from (player ``i`` of the Timeline rolls from ``seed + i``)."""

    declarations: DeploymentDeclarations = DeploymentDeclarations()
    seed: int = 0


@dataclass(frozen=True)
class DeploymentState:
    """The table during Initial Deployment: Miners not yet deployed are off the table (``on_table`` ``False``);
    ``access``: ``((side, Access Point number), ...)`` rolled so far, in Timeline order."""

    table: OrderState
    access: tuple[tuple[str, int], ...] = ()

    @property
    def done(self) -> bool:
        """Every Miner is on the table (the match may begin)."""
        return all(m.on_table for m in self.table.miners)


def off_table(table: OrderState) -> DeploymentState:
    """The state before Initial Deployment: the table with every Miner off it."""
    return DeploymentState(replace(table, miners=tuple(replace(m, on_table=False) for m in table.miners)))


def in_contact(table: OrderState, m: MinerState, x: float, y: float, ap: tuple[float, float]) -> bool:
    """A base of ``m``'s Silhouette centred at ``(x, y)`` reaches the Access Point token at ``ap``, touching it or
    over it (whether an enemy Miner has taken the Access Point)."""
    geo = table.geometry
    return math.dist((x, y), ap) <= geo.calibration.radius(m.silhouette) + geo.token_radius + CONTACT_TOLERANCE


def touches(table: OrderState, m: MinerState, x: float, y: float, ap: tuple[float, float]) -> bool:
    """A base of ``m``'s Silhouette centred at ``(x, y)`` is in contact with the Access Point token at ``ap``: its
    edge touches the token's edge (short by at most :data:`CONTACT_TOLERANCE`, over it by at most
    :data:`OVERLAP_TOLERANCE` board units), the base not over the token
    (Game Sequence › Initial Deployment: the TAG deployed in contact with it; Silhouette Contact)."""
    geo = table.geometry
    gap = math.dist((x, y), ap) - geo.calibration.radius(m.silhouette) - geo.token_radius
    return -OVERLAP_TOLERANCE <= gap <= CONTACT_TOLERANCE


def inward_bearing(table: OrderState, ap: tuple[float, float]) -> float:
    """The bearing (degrees, board axes: 0 along +x, counter-clockwise) from the Access Point at ``ap`` towards the
    middle of the board (the mean of the tiles' centres; 0 when the token is at that middle)."""
    geo = table.geometry
    board, layout = geo.board, geo.layout
    cs = [layout.hex_to_pixel(h) for h in board if board[h].tile]
    mid = (sum(c[0] for c in cs) / len(cs), sum(c[1] for c in cs) / len(cs)) if cs else ap
    return math.degrees(math.atan2(mid[1] - ap[1], mid[0] - ap[0])) if math.dist(mid, ap) > 1e-9 else 0.0


def turned_from_inward(table: OrderState, ap: tuple[float, float], x: float, y: float) -> int:
    """How many degrees (rounded, 0..180) a base centred at ``(x, y)`` lies round the Access Point token at ``ap``
    from the side facing the middle of the board (:func:`inward_bearing`)."""
    d = math.degrees(math.atan2(y - ap[1], x - ap[0])) - inward_bearing(table, ap)
    return round(abs((d + 180.0) % 360.0 - 180.0))


def default_tag_spot(table: OrderState, m: MinerState, ap: tuple[float, float]) -> tuple[float, float] | None:
    """Where a TAG without a declared placement is deployed (Initial Deployment) or Respawns: its base touching the
    Access Point token on the side facing the middle of the board (the mean of the tiles' centres), else the first
    position that fits turning round the token by 15° each way (when both sides fit at one turn, the side farther
    from the nearest scenery piece or other base, so that the choice does not depend on how the table is turned or
    mirrored); ``None`` when none fits (Initial Deployment: the
    placement must then be declared). A Miner of another type (Respawn) is placed the same way, at a position also
    at least partly inside a Hexagon in contact with the Access Point (:func:`partly_inside`): a place the rules
    allow for it, chosen as a documented default."""
    geo = table.geometry
    hexes = contact_hexes(table, ap) if m.miner_type != "TAG" else ()
    base = math.radians(inward_bearing(table, ap))
    reach = geo.calibration.radius(m.silhouette) + geo.token_radius
    others = tuple(x for x in table.miners if x.id != m.id)

    def fits(turn: float) -> tuple[float, float] | None:
        a = base + math.radians(turn)
        x, y = ap[0] + reach * math.cos(a), ap[1] + reach * math.sin(a)
        if m.miner_type != "TAG" and not partly_inside(table, m, x, y, hexes):
            return None
        trial = replace(table, miners=others + (replace(m, x=x, y=y, on_table=True),))
        try:
            tt = trial.geometry.table(trial.models(), validate=True)
        except ScenarioError:
            return None
        return (x, y), tt

    for step in range(13):
        found = [f for f in ((fits(0.0),) if step == 0 else (fits(-15.0 * step), fits(15.0 * step))) if f]
        if not found:
            continue
        if len(found) == 2:
            # both sides fit at this turn: the side with more room (farther from the nearest scenery piece or other
            # base), so that the choice does not depend on how the table is turned or mirrored
            found.sort(key=lambda f: -_clearance(f[1], m.id, f[0]))
        return found[0][0]
    return None


def _clearance(tt, miner_id: str, xy: tuple[float, float]) -> float:
    """Board units from ``xy`` to the nearest scenery piece or other Model's base of table ``tt`` (``inf``: none);
    rounded to 1e-9 so that a mirror-image tie stays a tie."""
    from shapely.geometry import Point

    pt = Point(xy)
    ds = [p.distance(pt) for p in tt._scenery_polys.values()]
    ds += [max(0.0, math.dist(xy, (o.x, o.y)) - tt.calibration.radius(o.silhouette)) for o in tt.models.values()
           if o.id != miner_id]
    return round(min(ds), 9) if ds else math.inf


def contact_hexes(table: OrderState, ap: tuple[float, float]) -> tuple:
    """The Hexagons with a tile that the Access Point token at ``ap`` touches, sorted (``(q, r)`` order)."""
    from shapely.geometry import Point, Polygon

    geo = table.geometry
    board, layout = geo.board, geo.layout
    p = Point(ap)
    out = [h for h in board if board[h].tile
           and Polygon(layout.corners(h)).distance(p) <= geo.token_radius + CONTACT_TOLERANCE]
    return tuple(sorted(out, key=lambda h: (h.q, h.r)))


def partly_inside(table: OrderState, m: MinerState, x: float, y: float, hexes) -> bool:
    """A base of ``m``'s Silhouette centred at ``(x, y)`` is at least partially inside one of ``hexes``
    (Interaction with Areas and Silhouettes: touching the border only is not inside)."""
    from shapely.geometry import Point, Polygon

    layout = table.geometry.layout
    r = table.geometry.calibration.radius(m.silhouette)
    return any(Polygon(layout.corners(h)).distance(Point(x, y)) < r - CONTACT_TOLERANCE for h in hexes)


def _taken_by(table: OrderState, side: str, ap: tuple[float, float]) -> list[str]:
    """The enemy Miners (of a side other than ``side``) on the table whose base reaches the Access Point token at
    ``ap`` (:func:`in_contact`): the Access Point is not free for ``side`` (Initial Deployment and Respawn)."""
    return [e.id for e in table.miners if e.side != side and e.on_table and in_contact(table, e, e.x, e.y, ap)]


def roll_access_point(ds: DeploymentState, ctx: DeploymentContext, side: str):
    """A player's d20 for their Access Point: the given faces first, then dice rolled from ``ctx.seed`` plus the
    player's place in the Timeline; a face that numbers no Access Point, or one an enemy Miner is in contact with,
    is rolled again. Returns ``(number, position, steps)``.

    Raises:
        RuleViolation: the table has no Access Points, or no free one came up in :data:`MAX_DEPLOYMENT_ROLLS` rolls
            (field ``initial_deployment.rolls.<side>``).
    """
    table = ds.table
    sec = f"06 Initial Deployment › {side}"
    aps = dict(table.geometry.access_points)
    if not aps:
        raise refused(sec, "access_points", "this table has no Access Points: Initial Deployment needs the numbered "
                      "Access Points the players roll for", S.INITIAL_DEPLOYMENT)
    fixed = dict(ctx.declarations.rolls)
    given = list(fixed.get(side, ()))
    n_given = len(given)
    dice = Dice(seed=ctx.seed + table.timeline.index(side))
    # issue #25 item 4: a list gives every d20 the player rolls, re-rolls included, in order. Whether a face needs a
    # re-roll depends on where the earlier players stand: while all of them rolled given faces the file alone
    # decides it, and a list too short is refused; once an earlier player's d20 came from the seed, the faces
    # missing are rolled from the seed (and the step says so), so that validity never depends on a draw.
    drew_before = any(not fixed.get(s) for s in table.timeline[:table.timeline.index(side)])
    tried: list[tuple[int, str]] = []
    for _ in range(MAX_DEPLOYMENT_ROLLS):
        if n_given and not given and not drew_before:
            raise refused(sec, f"{FIELD}.rolls.{toml_key(side)}", f"{plural(n_given, 'd20 face')} given, but "
                          f"{', '.join(f'{f} ({why})' for f, why in tried)} "
                          f"{agree(len(tried), 'is', 'are')} rolled again: the list gives every d20 rolled, "
                          f"re-rolls included (at least {len(tried) + 1} here)", S.INITIAL_DEPLOYMENT)
        face = given.pop(0) if given else dice.roll(20, f"Initial Deployment {side}")
        ap = aps.get(face)
        if ap is None:
            tried.append((face, "no such Access Point"))
            continue
        taken = _taken_by(table, side, ap)
        if taken:
            tried.append((face, f"enemy Miner {', '.join(taken)} in contact"))
            continue
        if given and not drew_before:
            raise refused(sec, f"{FIELD}.rolls.{toml_key(side)}", f"{plural(n_given, 'd20 face')} given, but the d20 "
                          f"{'face ' if len(tried) + 1 == 1 else 'roll '}{len(tried) + 1} ({face}) already names a "
                          f"free Access Point: the rest ({', '.join(map(str, given))}) are never rolled (give exactly "
                          f"{plural(len(tried) + 1, 'face')})", S.INITIAL_DEPLOYMENT)
        rerolls = "; ".join(f"{f}: {why}, rolled again" for f, why in tried)
        src = "given" if len(tried) + 1 <= n_given else (f"rolled (seed {dice.seed})" if n_given == 0 else
                                                         f"given, the rest rolled (seed {dice.seed})")
        faces = [f for f, _ in tried] + [face]
        return face, ap, (Step(f"{side} rolls {face}: Access Point {face}{seeded_words(faces, n_given, dice.seed)}",
                               S.INITIAL_DEPLOYMENT,
                               (rerolls + "; " if rerolls else "") + f"the d20 shows {face}, an Access Point no "
                               "enemy Miner is in contact with; the player's Miners are deployed there.",
                               {"side": side, "access_point": face, "rolls": faces, "dice": src,
                                **({"seeded": faces[n_given:]} if len(faces) > n_given else {})}, (), sec),)
    raise refused(sec, f"{FIELD}.rolls.{toml_key(side)}", f"no free Access Point came up in {MAX_DEPLOYMENT_ROLLS} rolls "
                  f"(tried {', '.join(str(f) for f, _ in tried[:10])}...): every Access Point is taken or the "
                  "faces number none", S.INITIAL_DEPLOYMENT)


def seeded_words(faces: list[int], n_given: int, seed: int) -> str:
    """Which of a player's d20 faces (``faces``, re-rolls first, in order; the first ``n_given`` from the file's
    list) were rolled from the seed, for the step's title: ``""`` when every face was given, else e.g.
    ``" (rolled, seed 9: 17, 2)"`` or ``" (17 given; 2 rolled, seed 9)"``."""
    if len(faces) <= n_given:
        return ""
    rolled = f"{', '.join(map(str, faces[n_given:]))} rolled, seed {seed}"
    if n_given == 0:
        return f" (rolled, seed {seed}: {', '.join(map(str, faces))})"
    return f" ({', '.join(map(str, faces[:n_given]))} given; {rolled})"


def place_miner(ds: DeploymentState, ctx: DeploymentContext, m: MinerState, number: int,
                ap: tuple[float, float]):
    """Deploy one Miner of the rolling player at Access Point ``number`` (position ``ap``): a TAG in contact with it
    (at its declared placement, else :func:`default_tag_spot`), any other Miner at its declared
    placement, at least partially inside a Hexagon in contact with the Access Point. Returns ``(state, steps)``.

    Raises:
        RuleViolation: a placement the rules refuse, naming ``initial_deployment.placements.<Miner>`` (a TAG not in
            contact with the Access Point, short of its token or over it; another Miner outside the Hexagons in
            contact with it or without a placement; a base off the tiles or overlapping another Model or scenery).
    """
    table = ds.table
    sec = f"06 Initial Deployment › {m.side}"
    fld = dict(ctx.declarations.fields).get(m.id, f"{FIELD}.placements.{toml_key(m.id)}")
    pl = next((p for p in ctx.declarations.placements if p.miner == m.id), None)
    hexes = contact_hexes(table, ap)
    names = ", ".join(f"{h.q},{h.r}" for h in hexes) or "none with a tile"
    if m.miner_type == "TAG":
        spot = default_tag_spot(table, m, ap) if pl is None else (pl.x, pl.y)
        if spot is None:
            raise refused(sec, fld, f"{m.id} is a TAG without a declared placement, and no position touching Access "
                          f"Point {number} fits its base: declare where it is deployed", S.INITIAL_DEPLOYMENT)
        x, y = spot
        if not touches(table, m, x, y, ap):
            d = math.dist((x, y), ap) - table.geometry.calibration.radius(m.silhouette) - table.geometry.token_radius
            where = (f"{against(d, 0.0, True)[0]} board units short of" if d > 0 else
                     f"over the Access Point token by {against(-d, 0.0, True)[0]} board units: a base in contact "
                     "touches it, never stands on it; the token is")
            raise refused(sec, fld, f"{m.id} is a TAG: its base must be in contact with Access Point {number} "
                          f"(it is {where} the Access Point token at ({ap[0]:.2f}, {ap[1]:.2f}))",
                          S.INITIAL_DEPLOYMENT)
        turn = turned_from_inward(table, ap, x, y)
        how = ("in contact with it" if pl is not None else "in contact with it on the side facing the middle of "
               "the board (no placement declared: the documented default)" if turn == 0 else
               f"in contact with it, {turn}° round the token from the side facing the middle of the board, the first "
               "position that fits (no placement declared: the documented default)")
        why = "The TAG is deployed in contact with the Access Point matching the number rolled."
        rule = S.INITIAL_DEPLOYMENT
    else:
        if pl is None:
            raise refused(sec, fld, f"{m.id} is a member of the Prospecting Crew: declare where it is deployed, in "
                          f"any part of the Hexagons in contact with Access Point {number} ({names})",
                          S.INITIAL_DEPLOYMENT)
        x, y = pl.x, pl.y
        if not partly_inside(table, m, x, y, hexes):
            raise refused(sec, fld, f"{m.id}'s base is not even partly inside a Hexagon in contact with Access "
                          f"Point {number} ({names})", S.INITIAL_DEPLOYMENT)
        how = "in a Hexagon in contact with it"
        why = ("Other members of the Prospecting Crew are deployed in any part of the Hexagons in contact with the "
               "Access Point (a Miner is inside an area when its Silhouette is at least partly inside it).")
        rule = S.INITIAL_DEPLOYMENT
    facing = m.facing if pl is None or pl.facing is None else pl.facing % 360.0
    placed = replace(table, miners=tuple(replace(x_, x=x, y=y, facing=facing, on_table=True) if x_.id == m.id
                                         else x_ for x_ in table.miners))
    try:
        placed.geometry.table(placed.models(), validate=True)
    except ScenarioError as e:
        raise refused(sec, fld, f"{m.id} cannot stand there: {e.problem}", S.INITIAL_DEPLOYMENT) from None
    h = table.geometry.hex_of(x, y)
    return replace(ds, table=placed), (
        Step(f"{m.id} is deployed at Access Point {number}, {how}", rule, why,
             {"miner": m.id, "access_point": number, "position": [round(x, 6), round(y, 6)], "hex": f"{h.q},{h.r}",
              "facing": facing}, (m.id,), sec),)


def check_placements_fixed_by_the_file(ds: DeploymentState, ctx: DeploymentContext, side: str) -> None:
    """Validity never depends on a draw (issue #25 item 4): a declared placement is in contact with one Access Point
    only, so it holds for every draw only when the file alone decides ``side``'s Access Point: its d20 list given
    and no earlier player's d20 rolled from the seed (an earlier player's drawn Access Point decides which ones are
    taken, so whether ``side``'s faces are re-rolled). Otherwise a Miner of ``side`` with a declared placement is
    refused before any die is rolled, whatever the seed (06 Initial Deployment).

    Raises:
        RuleViolation: naming the Miner's placement field.
    """
    fixed = dict(ctx.declarations.rolls)
    timeline = ds.table.timeline
    earlier = [s for s in timeline[:timeline.index(side)] if not fixed.get(s)]
    if fixed.get(side) and not earlier:
        return
    placed = [m for m in ds.table.miners if m.side == side
              and any(p.miner == m.id for p in ctx.declarations.placements)]
    if not placed:
        return
    m = placed[0]
    fld = dict(ctx.declarations.fields).get(m.id, f"{FIELD}.placements.{toml_key(m.id)}")
    why = (f"{side}'s d20 is rolled from the seed (no '{FIELD}.rolls.{toml_key(side)}')" if not fixed.get(side) else
           f"whether {side}'s d20 faces are rolled again depends on where {', '.join(earlier)} rolled from the seed "
           f"(no '{FIELD}.rolls.{toml_key(earlier[0])}')")
    raise refused(f"06 Initial Deployment › {side}", fld,
                  f"{m.id}'s placement is fixed, but {why}: a placement is in contact with one Access Point only, so "
                  "the file would hold for some draws and not others; give every d20 face in "
                  f"'{FIELD}.rolls' up to {side}'s, or leave the placements of {side}'s Miners out",
                  S.INITIAL_DEPLOYMENT)


def deploy_player(ds: DeploymentState, ctx: DeploymentContext, side: str):
    """06 Initial Deployment of one player (in Timeline order): the d20 for their Access Point
    (:func:`roll_access_point`), then each of their Miners placed there (:func:`place_miner`)."""
    check_placements_fixed_by_the_file(ds, ctx, side)
    number, ap, steps = roll_access_point(ds, ctx, side)
    ds = replace(ds, access=ds.access + ((side, number),))
    out = list(steps)
    for m in ds.table.miners:
        if m.side == side:
            ds, more = place_miner(ds, ctx, m, number, ap)
            out += more
    return ds, tuple(out)


def _sides(ds: DeploymentState) -> tuple[str, ...]:
    return ds.table.timeline


DEPLOYMENT_STEPS: kernel.Sequence = (
    Each("06 Initial Deployment › {item}", _sides, deploy_player),
)
"""Initial Deployment: one frame per player, in Timeline order (a :data:`explorer.kernel.Sequence`)."""


def play_deployment(table: OrderState, decl: DeploymentDeclarations, seed: int = 0,
                    upto: int | None = None) -> tuple[Frame[DeploymentState], ...]:
    """Replay Initial Deployment from ``table`` (its Miners' positions are ignored: every Miner starts off the
    table). ``upto``: the first entries of :data:`DEPLOYMENT_STEPS` only.

    Raises:
        RuleViolation: a placement or roll the rules refuse (see :func:`place_miner`, :func:`roll_access_point`).
    """
    return kernel.play(off_table(table), DEPLOYMENT_STEPS, DeploymentContext(declarations=decl, seed=seed), upto=upto)
