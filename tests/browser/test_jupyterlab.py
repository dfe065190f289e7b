"""The tool notebook in JupyterLab 4 (headless Chromium): run every cell, the explorer renders and draws."""

from __future__ import annotations

import os

import pytest
from browser_helpers import SCREENSHOTS, canvas_stats, open_notebook_and_run_all, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_notebook_widget_renders_in_jupyterlab(browser, lab_url):
    page, errors = open_notebook_and_run_all(browser, lab_url, "notebooks/face_to_face.ipynb",
                                             {"width": 1600, "height": 1500})
    root = page.locator(".tagraid-f2f")
    root.first.wait_for(timeout=60_000)
    canvases = root.first.locator("canvas")
    stats = wait_until(lambda: canvases.count() >= 2 and [canvas_stats(canvases.nth(i)) for i in range(2)],
                       timeout=60, what="two canvases")
    wait_until(lambda: all(s["colours"] > 10 for s in [canvas_stats(canvases.nth(i)) for i in range(2)]),
               timeout=60, what="the canvases to be drawn")
    odds = root.first.locator(".f2f-odds").all_inner_texts()
    assert any(t.startswith("A wins") for t in odds), odds
    assert root.first.locator("text=Rolls › Face to Face Rolls").count() > 0
    # the printed trace of the last cell ran too
    assert page.locator("text=Ruling options used").count() > 0
    # an input change round-trips through the kernel
    box = root.first.locator(".f2f-A-burst input")
    box.fill("5")
    box.press("Enter")
    wait_until(lambda: len(root.first.locator(".f2f-A-dice input").input_value().split(",")) == 5,
               what="the kernel to update the dice")
    if SCREENSHOTS:
        root.first.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SCREENSHOTS, "face-to-face-jupyterlab.png"), full_page=False)
    assert not errors, errors
    page.close()
