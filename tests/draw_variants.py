"""Files whose resolution draws, cut from the built-ins (issue #25 item 4: validity never depends on a draw).

Shared by ``tests/test_validity_without_draws.py`` (a small hypothesis slice per game) and
``benchmarks/fuzz_draw_validity.py`` (every variant of every built-in, or a seeded sample of them).

A *variant* is a built-in scenario of a kind whose resolution draws (:data:`DRAW_KINDS`) with one edit to one field
that fixes a draw — a dice list, a deck order, a card, a Strategy Roll's faces, a number of successes — found by
walking the TOML document (:func:`draw_fields`): the field left out (so it is drawn from the seed), a list cut to a
prefix, a list with its first item dropped, or a list one item longer. Its *verdict* (:func:`verdict`) is
``"accepted"`` or ``"refused: <the one-line message>"``, after loading and resolving it the way ``explorer resolve``
does (the loading gate, then ``naming_source``). :func:`verdicts` takes it with seed A, seed B and with no seed at
all (the file's own ``seed`` line removed, so the engine draws a fresh one): the property is that all three agree.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from explorer.tomlwrite import dumps

DRAW_KINDS: dict[str, tuple[str, ...]] = {
    "tagraid": ("", "order", "round", "match"),
    "masseffect": ("strategy", "round"),
    "galaxydefenders": ("combat", "round", "gd_wings", "close_encounter", "mission", "menace"),
    "dagger": ("hero", "round", "nemesis", "setup"),
}
"""``{game: kinds}`` whose resolution can draw a die or shuffle a deck (``""``: TAG Raid's roll scenarios). Mass
Effect's Hazard deck is drawn (and reshuffled from the seed) in its ``round`` files, and so is the Enemy Bag
(``bag``: the draws a file declares; session 15); its ``activation`` files play one given Hazard card. The other
kinds (maps, tables, damage, A.I. activations, conditions) draw nothing."""

DRAW_KEYS = frozenset({
    # TAG Raid
    "dice", "save_dice", "saves", "red", "blue", "respawn", "deployment", "rolls",
    # Mass Effect
    "faces", "reshuffles", "hazard_deck", "showing", "strategy", "paragon", "renegade", "bag",
    # Galaxy Defenders
    "yellow", "rolled", "defence", "defense", "critical", "criticals", "cards", "card", "reveal", "event", "drawn",
    "close_encounter", "energy_shields",
    # D.A.G.G.E.R.
    "successes", "nemesis_events", "standard_events", "side_deck", "event_deck", "events", "deck", "shuffle_events",
    "order", "piles", "seed",
})
"""Field names that fix a draw in some format. A list under any of these names (at any depth), or a table or
scalar so named, is a draw field; so is any list of dice faces (whole numbers 1-20) or of strings under a table whose
own name is one of these (Galaxy Defenders' per-target defence dice ``{ "Flying Critter" = [...] }``)."""


def _scenario_dir(game: str):
    return resources.files(f"explorer.games.{game}") / "scenarios"


def builtins(game: str) -> list[str]:
    """The built-in scenario ids of ``game`` whose kind draws (:data:`DRAW_KINDS`), sorted."""
    out = []
    for p in _scenario_dir(game).iterdir():
        if not p.name.endswith(".toml"):
            continue
        doc = tomllib.loads(p.read_text(encoding="utf-8"))
        if doc.get("kind", "") in DRAW_KINDS[game]:
            out.append(p.name[:-5])
    return sorted(out)


def builtin_doc(game: str, name: str) -> dict[str, Any]:
    return tomllib.loads((_scenario_dir(game) / f"{name}.toml").read_text(encoding="utf-8"))


Path_ = tuple[Any, ...]


def draw_fields(doc: Any, path: Path_ = (), under_draw: bool = False) -> Iterator[Path_]:
    """Every path (keys and list indexes) in ``doc`` to a field that fixes a draw (see :data:`DRAW_KEYS`)."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            named = k in DRAW_KEYS
            if named or (under_draw and isinstance(v, list)):
                yield path + (k,)
            if isinstance(v, dict):
                yield from draw_fields(v, path + (k,), named)
            elif isinstance(v, list):
                for i, e in enumerate(v):
                    if isinstance(e, dict):
                        yield from draw_fields(e, path + (k, i), False)
                    elif named and isinstance(e, list):   # a list of rolls: each roll round's faces
                        yield path + (k, i)


EDITS = ("drop", "cut", "behead", "extend", "unknown")
"""What a variant does to its field: ``drop`` leaves it out; ``cut`` keeps a prefix (``arg`` items); ``behead``
drops the first item; ``extend`` repeats the last item once more (lists only); ``unknown`` writes ``"?"`` for item
``arg`` of a list of face names (Mass Effect's "leave this die to the seed")."""


@dataclass(frozen=True)
class Variant:
    """One edit of one built-in: ``game``, ``name`` (the built-in id), ``path`` (to the field), ``edit`` (one of
    :data:`EDITS`) and ``arg`` (``cut``'s length)."""

    game: str
    name: str
    path: Path_
    edit: str
    arg: int = 0

    def label(self) -> str:
        where = ".".join(str(p) for p in self.path)
        return f"{self.name} {self.edit}{'(' + str(self.arg) + ')' if self.edit in ('cut', 'unknown') else ''} {where}"

    def text(self) -> str:
        """The edited file's TOML text (its ``seed`` line kept)."""
        doc = builtin_doc(self.game, self.name)
        parent = doc
        for p in self.path[:-1]:
            parent = parent[p]
        key = self.path[-1]
        value = parent[key]
        if self.edit == "drop":
            del parent[key]
        elif self.edit == "cut":
            parent[key] = value[:self.arg]
        elif self.edit == "behead":
            parent[key] = value[1:]
        elif self.edit == "extend":
            parent[key] = value + value[-1:]
        elif self.edit == "unknown":
            parent[key] = [*value[:self.arg], "?", *value[self.arg + 1:]]
        return dumps(doc)


def variants(game: str, name: str) -> list[Variant]:
    """Every variant of one built-in: each draw field dropped (when its parent is a table), and each list field cut
    to every shorter prefix, beheaded and extended."""
    doc = builtin_doc(game, name)
    out: list[Variant] = []
    for path in draw_fields(doc):
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        value = parent[path[-1]]
        if isinstance(parent, dict):
            out.append(Variant(game, name, path, "drop"))
        if isinstance(value, list) and value:
            out += [Variant(game, name, path, "cut", k) for k in range(len(value))]
            if len(value) > 1:
                out.append(Variant(game, name, path, "behead"))
            out.append(Variant(game, name, path, "extend"))
            if game == "masseffect" and all(isinstance(e, str) for e in value):
                out += [Variant(game, name, path, "unknown", i) for i in sorted({0, len(value) - 1})]
    return out


def all_variants(game: str) -> list[Variant]:
    """Every variant of every drawing built-in of ``game``."""
    return [v for name in builtins(game) for v in variants(game, name)]


SEED_LINE = re.compile(r"\Aseed = \d+\n|(?<=\n)seed = \d+\n")


def without_seed(text: str) -> str:
    """``text`` (as :func:`explorer.tomlwrite.dumps` writes it: top-level scalars first) without its top-level
    ``seed`` line; a table's own ``seed`` (a round file's ``orders[i].seed``) is part of what the file fixes."""
    head, sep, rest = text.partition("\n[")
    if not sep:
        return SEED_LINE.sub("", text)
    return SEED_LINE.sub("", head + "\n").rstrip("\n") + "\n" + sep.lstrip("\n") + rest


def verdict(text: str, seed: int | None, source: str = "v.toml") -> str:
    """Load ``text`` as the file ``source`` and resolve it with ``seed`` (``None``: the file's own ``seed``, or a
    fresh one) the way ``explorer resolve`` does: ``"accepted"``, ``"refused: <message>"`` (an
    :class:`~explorer.errors.ExplorerError`; its message must be one line naming the file) or
    ``"crashed: <type>: <first line>"`` (anything else: a bug)."""
    from explorer.errors import ExplorerError, naming_source
    from explorer.games import load_any

    try:
        with naming_source(source):
            game, sc = load_any(source, text=text)
            game.resolve(sc, seed=seed)
    except ExplorerError as e:
        return "refused: " + str(e)
    except Exception as e:   # noqa: BLE001 - a traceback is what the property looks for
        return f"crashed: {type(e).__name__}: {(str(e).splitlines() or [''])[0]}"
    return "accepted"


def verdicts(text: str, seed: int) -> dict[str, str]:
    """``{"seed A": ..., "seed B": ..., "no seed": ...}``: the verdicts with ``seed``, ``seed + 1`` and with no
    seed anywhere (the file's top-level ``seed`` line removed and none passed, so the engine draws a fresh one)."""
    return {"seed A": verdict(text, seed), "seed B": verdict(text, seed + 1),
            "no seed": verdict(without_seed(text), None)}


def disagreement(v: Variant, seed: int) -> str | None:
    """``None`` when the variant's three verdicts agree and none crashed or spans lines or leaves the file
    unnamed; else what is wrong, one line per verdict."""
    got = verdicts(v.text(), seed)
    bad = [k for k, x in got.items() if x.startswith("crashed") or "\n" in x
           or (x.startswith("refused") and "v.toml" not in x)]
    if len(set(got.values())) == 1 and not bad:
        return None
    return f"{v.label()} (seed {seed}):\n" + "\n".join(f"  {k}: {x[:400]}" for k, x in got.items())
