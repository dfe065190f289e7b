"""The Mass Effect pages of the Panel app in headless Chromium: on the Mission Map, clicking a character draws its six
Line of Fire lines (canvas pixels read back at the line midpoints) and lists its verdicts; the enemy-activation stepper
steps through a Hazard card and the board follows; on the Strategy Pool a die is set by hand. Uses the shared
fixtures of ``conftest.py`` (``browser``, ``app_url``). ``EXPLORER_SCREENSHOTS=<dir>`` saves
``masseffect-mission-map.png``, ``masseffect-activation.png`` and ``masseffect-strategy.png`` there.
"""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_PIXELS = """(c, pts) => { const g = c.getContext('2d');
    return pts.map(([x, y]) => Array.from(g.getImageData(Math.round(x), Math.round(y), 1, 1).data)); }"""


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def _green(px) -> bool:
    r, g, b, a = px
    return a > 0 and g > 110 and r < 90 and b < 110


def _near_green(canvas, x, y) -> bool:
    pts = [(x + dx, y + dy) for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)]
    return any(_green(p) for p in canvas.evaluate(_PIXELS, pts))


def _canvas(page, bv):
    return page.locator(f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']")


def test_mission_map_click_a_character_draws_its_lof_lines_and_verdicts(browser, app_url):
    from explorer.games.masseffect import geometry as G
    from explorer.games.masseffect.map_svg import layout
    from explorer.games.masseffect.map_views import map_page

    holder, _ = map_page()                       # same default map and scale as the app: pixel positions
    view = holder.children[1]
    bv, lay = view.board, layout(view.map)
    name = next(n for n, (_, side) in view.characters.items() if side == "squadmate")
    h = view.characters[name][0]
    fan = G.lof_all(view.map, h)
    mids = []                                    # midpoint of each drawn green line (attacker -> last hex in LoF)
    for line in fan.lines:
        ok = [x for x in line if x.in_lof]
        if ok:
            (x0, y0), (x1, y1) = (bv.to_pixel(lay.hex_to_pixel(p)) for p in (h, ok[-1].target))
            mids.append(((x0 + x1) / 2, (y0 + y1) / 2))
    assert mids

    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(_base(app_url) + "/masseffect-mission-map")
    overlay = _canvas(page, bv).last            # the top layer: overlays (LoF lines) and mouse events
    wait_until(lambda: overlay.count() and canvas_stats(_canvas(page, bv).first)["opaque"] > 5000, timeout=90,
               what="the mission map to be drawn")
    before = wait_until(lambda: (s := canvas_stats(overlay))["opaque"] > 50 and s, what="the icons")
    box = overlay.bounding_box()
    x, y = bv.to_pixel(lay.hex_to_pixel(h))
    page.mouse.click(box["x"] + x * box["width"] / bv.canvas.width, box["y"] + y * box["height"] / bv.canvas.height)
    answer = page.locator(".me-lof-answer").first
    wait_until(lambda: answer.count() and f"{name}" in answer.inner_text(), timeout=30, what="the LoF answer")
    text = answer.inner_text()
    assert f"{len(fan.targets)} hexes in Line of Fire" in text
    assert "The six straight lines" in text and "Line of Fire to each character" in text
    for other in view.characters:
        if other != name:
            assert other in text
    wait_until(lambda: canvas_stats(overlay)["hash"] != before["hash"], what="the overlays to change")
    wait_until(lambda: all(_near_green(overlay, mx, my) for mx, my in mids), what="green LoF lines at their midpoints")
    # rotate buttons are hidden: nothing rotates unless a Turret is selected
    rotate = page.get_by_role("button", name="⟲ rotate")
    assert rotate.count() == 0 or not rotate.first.is_visible()
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "masseffect-mission-map.png"), full_page=True)
    page.close()


def test_enemy_activation_steps_through_a_hazard_card(browser, app_url):
    from explorer.games.masseffect.activation_views import ActivationStepper

    ref = ActivationStepper()                    # the app's default scenario: the expected steps
    bv = ref.board
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(_base(app_url) + "/masseffect-enemy-activation")
    canvas = _canvas(page, bv)
    wait_until(lambda: canvas.count() and canvas_stats(canvas.first)["opaque"] > 5000, timeout=90, what="the map")
    root = page.locator(".me-activation-stepper").first
    nxt = root.get_by_role("button", name="Next ▶")
    adv = next(i for i, s in enumerate(ref.trace.steps) if "movement_points" in s.facts)
    last = None
    for i in range(adv + 1):
        nxt.click()
        wait_until(lambda i=i: f"step {i + 1} of {len(ref.trace.steps)}" in root.inner_text(), what=f"step {i + 1}")
        step = ref.trace.steps[i]
        focus = root.locator(".xt-step.cur").first
        wait_until(lambda: step.title in focus.inner_text(), what=f"step {i + 1} focused")
        assert step.rule.section in root.inner_text()          # every step shows its rulebook section
        last = canvas_stats(canvas.last)
    # the Advance step: its candidates table lists every reachable end hex, kept or dropped, with its rule
    table = page.locator(".me-act-table").first
    text = wait_until(lambda: table.count() and table.inner_text(), what="the end-hex table")
    cands = ref.trace.steps[adv].facts["candidates"]
    assert text.count("kept") >= sum(c["kept"] for c in cands) and "dropped" in text
    for c in cands:
        assert c["hex"] in text
    if SCREENSHOTS:                              # the Advance step: kept and dropped end hexes
        page.screenshot(path=os.path.join(SCREENSHOTS, "masseffect-activation.png"), full_page=False)
    nxt.click()                                   # the move: the path is drawn, the overlay layer changes
    wait_until(lambda: canvas_stats(canvas.last)["hash"] != last["hash"], what="the path to be drawn")
    page.close()


def test_strategy_pool_set_a_die_by_hand(browser, app_url):
    from explorer.games.masseffect.strategy_views import strategy_page

    ref, _ = strategy_page()                     # the page's default scenario (me-diagram-5)
    dv = ref.dice
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(_base(app_url) + "/masseffect-strategy-pool")
    canvas = page.locator(f"canvas[width='{dv.canvas.width}'][height='{dv.canvas.height}']").first
    wait_until(lambda: canvas.count() and canvas_stats(canvas)["opaque"] > 500, timeout=90, what="the dice")
    row = 0                                      # a die that did not trigger a re-roll: the re-rolls stay valid
    pos = next(i for i, (_d, f, _fl) in enumerate(ref.dice.rows[row][1]) if f not in ("core", "enhanced"))
    die, face, _ = ref.dice.rows[row][1][pos]
    assert face != "enhanced"
    x, y, s = dv.die_box(row, pos)
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + (x + s / 2) * box["width"] / dv.canvas.width,
                     box["y"] + (y + s / 2) * box["height"] / dv.canvas.height)
    wait_until(lambda: page.get_by_text(f"Set {die}").count(), what="the die to be picked")
    canvas = canvas.element_handle()             # the same element when its height changes (a row fewer)
    before = canvas_stats(canvas)
    page.get_by_role("button", name="Enh", exact=True).first.click()
    first = page.locator("input[placeholder^='e.g. enh']").first
    ref._on_die_click(row, pos, die)             # the same pick in-process: the expected first-roll text
    ref.picker.value = next(v for label, v in ref.picker.options if label == "Enh")
    want = ref.first.value
    assert "enh" in want and not ref.rerolls_msg.value and ref.trace.outcome["final"][die] == "enhanced"
    wait_until(lambda: first.input_value() == want, what="the first roll field to hold the hand-set die")
    wait_until(lambda: canvas_stats(canvas)["hash"] != before["hash"], what="the dice to be redrawn")
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "masseffect-strategy.png"), full_page=False)
    page.close()


def test_strategy_pool_opens_a_scenario_from_its_address(browser, app_url):
    """``?scenario=me-strategy-paragon`` opens the Strategy Pool on that roll: Wrex, the fixed dice, and the verdict
    of ``explorer resolve me-strategy-paragon``."""
    from explorer.games import get_game
    from explorer.games.masseffect.outcome import outcome_text

    g = get_game("masseffect")
    want = outcome_text(g.resolve(g.load_builtin("me-strategy-paragon")))
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(_base(app_url) + "/masseffect-strategy-pool?scenario=me-strategy-paragon")
    out = page.locator(".scenario-note-verdict").first
    got = wait_until(lambda: out.count() and out.inner_text(), timeout=90, what="the scenario's outcome")
    assert got.split() == want.split()
    first = page.locator("input[placeholder^='e.g. enh']").first
    assert first.input_value().startswith("m2, std, core")
    page.close()


def test_round_page_steps_through_a_round_and_the_map_follows(browser, app_url):
    """``/masseffect-round?scenario=me-round-2``: Next moves one cited step (the step title is the trace's), and
    stepping to the last step of Shepard's Move Action (a turn's finer frame) moves his disc on the map (the SVG changes) and shows the Strategy
    Pool's dice; a step before it says it shows the board as the Action found it."""
    from explorer.games import get_game
    from explorer.games.masseffect.round_view import round_positions

    pos = round_positions(get_game("masseffect").load_builtin("me-round-2")[1])
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(_base(app_url) + "/masseffect-round?scenario=me-round-2")
    focus = page.locator(".me-focus").first
    wait_until(lambda: focus.count() and pos[0].step.title in focus.inner_text(), timeout=90, what="step 1")
    svg = page.locator(".me-round-map svg").first.inner_html()
    nxt = page.get_by_role("button", name="Next ▶")
    moved = next(i for i, p in enumerate(pos) if p.frame_name.endswith("· Turn 1") and p.settled   # his Move's last
                 and any(who == "Shepard" for who, *_ in p.moved))                               # step
    for i in range(1, moved + 1):
        nxt.click()
        wait_until(lambda: f"STEP {i + 1} OF {len(pos)}" in focus.inner_text().upper(), timeout=30,
                   what=f"step {i + 1}")
    assert pos[moved].step.title in focus.inner_text() and pos[moved].moved
    assert page.locator(".me-round-map svg").first.inner_html() != svg
    assert page.locator(".me-die").count() == len(pos[moved].dice)
    page.get_by_role("button", name="◀ Prev").click()
    wait_until(lambda: f"STEP {moved} OF {len(pos)}" in focus.inner_text().upper(), timeout=30,
               what=f"step {moved}")
    assert f"Shown: the state as {pos[moved].frame_name} found it" in focus.inner_text()
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "masseffect-round.png"), full_page=False)
    page.close()
