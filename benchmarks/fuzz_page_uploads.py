"""Seeded fuzz run of the pages' file uploads: mutated built-in files opened on every page that has a file control,
through the very handler the upload widget calls (no browser).

Run:  PYTHONPATH=$PWD python benchmarks/fuzz_page_uploads.py                     (1,200 files, seed 13)
      PYTHONPATH=$PWD python benchmarks/fuzz_page_uploads.py --count 300 --seed 5 --page tagraid-line-of-fire
      PYTHONPATH=$PWD python benchmarks/fuzz_page_uploads.py --seed 13 --only 17 --save /tmp/x   (one file, kept)

The pages are every ``Page`` of every game whose widget tree holds an ``ipywidgets.FileUpload`` (TAG Raid Face to
Face, Line of Fire and Orders; the Mass Effect, Galaxy Defenders and D.A.G.G.E.R. Round pages). Each page is built
once (``Game.open_page``, as the app does); a file is "uploaded" by setting the ``FileUpload``'s ``value`` as the
browser does, so the page's own observer (``explorer.widgets.files.watch_upload``, or the Face to Face page's
``_on_upload``) reads it through the loading gate and opens it. Files are drawn round-robin over the pages from the
page's own seeds (the built-ins of the kinds it shows; the Line of Fire page: the packaged table files), 1 in 8 from
another page's seeds (a wrong file), and mutated by ``tests/test_hostile_files.py``'s ``mutate`` (1-3 document
mutations: values replaced, keys dropped or added, lists repeated, types swapped; or text mutations; or the loading
gate's shapes). Each is named ``fz-<index>.toml``.

What every upload must do (else it is a *fault*):
  - open the file ("opened fz-N.toml"), or say in one line why not, beside the control, and that line names the
    file; when the file is TOML and the line names a field (``field 'x.y'``), the field's first part is a key of
    the format (a top-level key of one of the page's seed files) or of the uploaded file itself;
  - no traceback: the page's "could not be opened (SomeError ...)" line (its handler caught a bug, and logged it),
    an exception out of the handler, or any ERROR logged while opening;
  - every red message the page shows afterwards (a Round page plays the file and may stop at a refusal) is one
    line naming the file.
Prints per page: files, opened, refused, faults and CPU time; then every fault with its first bytes; exit status 1
when there is one. ``tests/test_page_uploads.py`` runs a slice (a few files per page).
"""

from __future__ import annotations

import argparse
import codecs
import html
import json
import logging
import os
import random
import re
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, ".."))
sys.path.insert(0, os.path.join(_HERE, "..", "tests"))

from test_hostile_files import Format, mutate  # noqa: E402

ERROR_COLOURS = ("#922b21", "#c92a2a", "xf-msg-error")
"""How the pages mark a message as an error (``files.file_message``, the Round stepper's box, Face to Face's
class)."""


@dataclass
class UploadPage:
    """One page with a file control: ``game``, ``slug``, ``widget`` (its tree), ``upload`` (its ``FileUpload``),
    ``seeds`` (TOML texts files start from) and ``keys`` (top-level keys of those seeds: fields the format has)."""

    game: str
    slug: str
    widget: object
    upload: object
    seeds: tuple[str, ...]
    keys: frozenset[str]

    @property
    def name(self) -> str:
        return f"{self.game}-{self.slug}"


def _walk(w, seen: set[int] | None = None):
    seen = set() if seen is None else seen
    if id(w) in seen:
        return
    seen.add(id(w))
    yield w
    for c in getattr(w, "children", ()) or ():
        yield from _walk(c, seen)


def _seeds_for(game, kinds: tuple[str, ...], slug: str) -> tuple[str, ...]:
    from importlib import resources

    if slug == "line-of-fire":
        d = resources.files("explorer.games.tagraid") / "tables"
        return tuple(p.read_text(encoding="utf-8") for p in sorted(d.iterdir(), key=lambda p: p.name)
                     if p.name.endswith(".toml"))
    out = []
    for name in game.builtin_names():
        text = game.scenario_text(name)
        if tomllib.loads(text).get("kind", "") in kinds:
            out.append(text)
    return tuple(out)


def upload_pages(only: list[str] | None = None) -> list[UploadPage]:
    """Every page of every game that has a file control, built once (``only``: these page names,
    ``<game>-<slug>``)."""
    import ipywidgets as W

    from explorer.games import all_games

    pages = []
    for g in all_games():
        for p in g.pages:
            name = f"{g.id}-{p.slug}"
            if only and name not in only:
                continue
            widget, _redraw = g.open_page(p.slug)
            ups = [w for w in _walk(widget) if isinstance(w, W.FileUpload)]
            if not ups:
                continue
            seeds = _seeds_for(g, p.kinds, p.slug)
            keys = frozenset(k for s in seeds for k in tomllib.loads(s))
            pages.append(UploadPage(g.id, p.slug, widget, ups[0], seeds, keys))
    return pages


class _Errors(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record):
        self.records.append(record.getMessage()[:300] + (" (with traceback)" if record.exc_info else ""))


MESSAGE = re.compile(r"\s*<(span|div)\b[^>]*>[^<]*</\1>\s*", re.S)
"""A message widget's value: one ``span`` or ``div`` holding text only (``files.file_message``, Face to Face's
file line, the Round stepper's ``box``); the pages' other HTML (styles, pictures, step lists) never looks so."""


def _messages(widget) -> dict[int, str]:
    """``{widget id: value}`` of the page's message widgets (:data:`MESSAGE`) that show something."""
    import ipywidgets as W

    return {id(w): w.value for w in _walk(widget)
            if isinstance(w, W.HTML) and w.value and MESSAGE.fullmatch(w.value)}


def _text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", value)).strip()


FIELD = re.compile(r"field '([^']*)'")

ALWAYS = frozenset({"game", "kind"})
"""Keys every scenario format has, whether or not a page's seed files write them (Face to Face's roll files have
no ``kind``, yet ``kind = "roll"`` is theirs)."""

_NOW = __import__("datetime").datetime(2026, 12, 3, tzinfo=__import__("datetime").timezone.utc)


def upload(page: UploadPage, data: bytes, name: str) -> tuple[str, str]:
    """Upload ``data`` as the file ``name`` on ``page`` and judge it: ``("opened" | "refused" | "fault", detail)``;
    ``detail``: the fault, the refusal, or for an opened file the refusal its play stopped at (``""``: none)."""
    handler = _Errors()
    root = logging.getLogger()
    root.addHandler(handler)
    before = _messages(page.widget)
    try:
        page.upload.value = ({"name": name, "type": "application/toml", "size": len(data),
                              "content": memoryview(data), "last_modified": _NOW},)
    except Exception as e:   # noqa: BLE001 - an exception out of the page's handler is what this looks for
        return "fault", f"exception out of the upload handler: {type(e).__name__}: {str(e)[:300]}"
    finally:
        root.removeHandler(handler)
    after = _messages(page.widget)
    changed = [_text(v) for k, v in after.items() if before.get(k) != v or name in v]
    # the errors this upload made (a refused file leaves the page, and what it said of the file before, as it was)
    errors = [_text(v) for k, v in after.items() if any(c in v for c in ERROR_COLOURS) and before.get(k) != v]
    if handler.records:
        return "fault", "logged: " + " | ".join(handler.records)
    opened = any(t == f"opened {name}" for t in changed)
    said = [t for t in changed if name in t]
    if not opened and not said:
        return "fault", "no message names the file: " + " | ".join(t[:200] for t in changed)
    for t in errors + said:
        if "could not be opened" in t:
            return "fault", t[:400]
        if "\n" in t.strip():
            return "fault", "a message of several lines: " + t[:400]
    for t in errors:
        if name not in t:
            return "fault", "an error that does not name the file: " + t[:400]
    named = [(t, m) for t in errors + said for m in [FIELD.search(t)] if m and m.group(1)]
    doc_keys = None
    if named:
        try:   # only a file the loading gate let through names a field: parsing it here is cheap
            doc_keys = set(tomllib.loads(data.decode("utf-8")))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError):
            doc_keys = None
    if doc_keys is not None:
        for t, m in named:
            if True:
                first = re.split(r"[.\[]", m.group(1), maxsplit=1)[0]
                if first.startswith('"'):   # a quoted key, as the message writes it: its escapes undone
                    inner = m.group(1)[1:m.group(1).index('"', 1)] if '"' in m.group(1)[1:] else first[1:]
                    try:   # JSON's escapes (\u0000) or Python's (\x00), as a message may write them
                        first = json.loads(f'"{inner}"')
                    except ValueError:
                        first = codecs.decode(inner, "unicode_escape")
                # a long key the message shortened ("kkk…"): the document's own key it begins
                cut = first.endswith("…") and any(k.startswith(first[:-1]) for k in doc_keys)
                if first not in page.keys | ALWAYS and first not in doc_keys and not cut:
                    return "fault", f"names field {m.group(1)!r}, which this format does not have: {t[:300]}"
    if opened:   # opened; a Round page then plays it and may stop at a refusal (said in ``errors``)
        return "opened", errors[0][:300] if errors else ""
    return "refused", (errors or said)[0][:300]


@dataclass
class Report:
    count: int = 0
    seed: int = 0
    by_page: dict[str, Counter] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    faults: list[tuple] = field(default_factory=list)


def draw_file(rng: random.Random, page: UploadPage, pages: list[UploadPage]) -> bytes:
    """One mutated file for ``page``: from its own seeds, or (1 in 8) another page's."""
    src = page
    if len(pages) > 1 and rng.random() < 1 / 8:
        src = rng.choice([p for p in pages if p is not page])
    return mutate(rng, Format(src.name, src.seeds, lambda p: None))


def run(count: int, seed: int, only_pages: list[str] | None = None, only: set[int] | None = None,
        save: str | None = None, pages: list[UploadPage] | None = None) -> Report:
    """Upload ``count`` files round-robin over the pages; ``only``: run just these indexes (the files before are
    still drawn, so that each index is the same file as in a full run); ``save``: write the files run there."""
    pages = pages if pages is not None else upload_pages(only_pages)
    rng = random.Random(seed)
    rep = Report(count=count, seed=seed)
    for i in range(count):
        page = pages[i % len(pages)]
        data = draw_file(rng, page, pages)
        if only is not None and i not in only:
            continue
        name = f"fz-{i}.toml"
        if save:
            with open(os.path.join(save, f"{page.name}-{name}"), "wb") as f:
                f.write(data)
        t0 = time.process_time()
        kind, detail = upload(page, data, name)
        rep.cpu[page.name] = rep.cpu.get(page.name, 0.0) + time.process_time() - t0
        rep.by_page.setdefault(page.name, Counter())[kind] += 1
        if kind == "fault":
            rep.faults.append((i, page.name, detail, data[:160]))
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--page", action="append", help="only this page (<game>-<slug>), repeatable")
    ap.add_argument("--only", type=int, nargs="+", help="only these file indexes of the run")
    ap.add_argument("--save", help="write the files run to this directory")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)   # the handler above records errors; nothing printed twice
    t0 = time.perf_counter()
    rep = run(args.count, args.seed, args.page, set(args.only) if args.only else None, args.save)
    print(f"{rep.count} files, seed {rep.seed}, {time.perf_counter() - t0:.1f} s wall")
    for name, c in rep.by_page.items():
        print(f"  {name}: {sum(c.values())} files: {c['opened']} opened, {c['refused']} refused, "
              f"{c['fault']} faults; {rep.cpu.get(name, 0):.1f} s CPU")
    print(f"faults: {len(rep.faults)}")
    for i, page, detail, head in rep.faults:
        print(f"  file {i} on {page}: {detail}\n    starts {head!r}")
    return 1 if rep.faults else 0


if __name__ == "__main__":
    sys.exit(main())
