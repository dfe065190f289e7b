"""The D.A.G.G.E.R. Nemesis Phase page of the Panel app in headless Chromium: the world map is drawn, Next ▶ steps
through Advance Threat (the step text changes, the map and its threat track are redrawn: canvas pixels read back), and
the slider jumps to an enemy's move; the loss forecast line shows the exact probability. Uses the shared fixtures of ``conftest.py`` (``browser``, ``app_url``).
``EXPLORER_SCREENSHOTS=<dir>`` saves ``dagger-nemesis.png`` there."""

from __future__ import annotations

import html
import os

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def test_nemesis_phase_steps_and_the_map_follows(browser, app_url):
    from explorer.games.dagger.views import HEIGHT, WIDTH, NemesisStepper

    ref = NemesisStepper("dg-three-rounds")         # three rounds with enemy moves: the expected steps
    n = len(ref.positions)
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(_base(app_url) + "/dagger-nemesis-phase?scenario=dg-three-rounds")
    canvas = page.locator(f"canvas[width='{WIDTH}'][height='{HEIGHT}']").first
    wait_until(lambda: canvas.count() and canvas_stats(canvas)["opaque"] > 5000, timeout=90, what="the map")
    root = page.locator(".dg-nemesis").first
    headline = page.locator(".dg-headline").first
    wait_until(lambda: f"step 0 of {n}" in root.inner_text(), what="the step bar")
    assert "Before the first step" in headline.inner_text()
    from explorer.games.dagger.forecast import loss_forecast

    f = loss_forecast(ref.scenario, 1, ref.rulings())
    forecast = page.locator(".dg-forecast-box").first
    text = forecast.inner_text()
    assert f"Loss probability in the Nemesis Phase of round {ref.scenario.state.round}" in text and f"{float(f.p_loss):.0%}" in text
    before = canvas_stats(canvas)

    root.get_by_role("button", name="Next ▶").click()
    step = ref.positions[0].step
    wait_until(lambda: f"step 1 of {n}" in root.inner_text(), what="step 1")
    wait_until(lambda: step.title in headline.inner_text(), what="the step text to change")
    focus = page.locator(".dg-focus").first
    assert step.rule.section in focus.inner_text()
    s0, s1 = ref.state_at(0), ref.state_at(1)
    assert f"threat {s0.threat} → {s1.threat}" in focus.inner_text()
    wait_until(lambda: canvas_stats(canvas)["hash"] != before["hash"], what="the map to be redrawn")
    assert f"threat {s1.threat}/20" in page.locator(".dg-gauges").first.inner_text()

    # step on to the first enemy move: the headline names it and the map changes again
    i = next(k for k, f in enumerate(ref.positions) if f.step.facts.get("action") == "move")
    after_first = canvas_stats(canvas)
    nxt = root.get_by_role("button", name="Next ▶")
    for k in range(2, i + 2):
        nxt.click()
        wait_until(lambda k=k: f"step {k} of {n}" in root.inner_text(), what=f"step {k}")
    move = ref.positions[i].step
    wait_until(lambda: html.unescape(move.title) in headline.inner_text(), what="the move step")
    wait_until(lambda: canvas_stats(canvas)["hash"] != after_first["hash"], what="the move to be drawn")
    assert f"{move.facts['enemy']} moves {move.facts['start']} → {move.facts['to']}" in focus.inner_text()
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "dagger-nemesis.png"), full_page=False)
    page.close()


@pytest.mark.parametrize("phone", [False, True])
def test_the_outcome_block_comes_after_the_map_on_a_phone(browser, app_url, phone):
    """On a phone (390 x 844) the scenario's Outcome block is under the map and the step, not between the step bar
    and the map (it pushed them a screen down); at 1280 px it stays above them."""
    from browser_helpers import phone_context

    from explorer.games.dagger.views import HEIGHT, WIDTH

    ctx = phone_context(browser) if phone else browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(_base(app_url) + "/dagger-nemesis-phase?scenario=dg-01")
    canvas = page.locator(f"canvas[width='{WIDTH}'][height='{HEIGHT}']").first
    wait_until(lambda: canvas.count() and canvas_stats(canvas)["opaque"] > 5000, timeout=90, what="the map")
    note = page.locator(".dg-nemesis .scenario-note").first
    wait_until(lambda: "Outcome:" in note.inner_text(), what="the Outcome block")
    n, c, h = (x.bounding_box() for x in (note, canvas, page.locator(".dg-headline").first))
    assert (n["y"] > c["y"] + c["height"] and n["y"] > h["y"]) if phone else (n["y"] < h["y"] < c["y"])
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"dagger-nemesis-{'phone' if phone else '1280'}.png"),
                        full_page=True)
    ctx.close()
