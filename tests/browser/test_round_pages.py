"""Both Round pages (/masseffect-round, /dagger-round: the shared explorer/widgets/round_stepper.py) served and
driven in headless Chromium at 1280 px and as a phone: Next moves one cited step and the step reaches the link, the
link reopens the same step, a step before its frame's last says which state it shows, a round file opens with the
file control (a broken one gives the one-line message beside it and the page keeps its step and link), and the page
does not scroll sideways on a phone. Uses the shared fixtures of ``conftest.py``."""

from __future__ import annotations

import os
import re

import pytest

from browser_helpers import SCREENSHOTS, phone_context, wait_until
from explorer.urlstate import decode_state

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = {"masseffect-round": ("masseffect", "me-round-2", "me"), "dagger-round": ("dagger", "dg-team-up", "dg")}


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def _state(page) -> dict:
    raw = page.evaluate("new URLSearchParams(location.search).get('s')")
    return decode_state(raw) if raw else {}


def _choose(page, name: str, data: bytes) -> None:
    with page.expect_file_chooser() as chooser:
        page.locator(".xr-upload").first.click()
    chooser.value.set_files({"name": name, "mimeType": "application/toml", "buffer": data})


@pytest.mark.parametrize("slug", list(PAGES))
def test_a_round_page_steps_keeps_the_step_in_its_link_and_opens_a_round_file(browser, app_url, slug):
    from explorer.games import get_game

    game_id, name, css = PAGES[slug]
    g = get_game(game_id)
    ref, _ = g.open_page("round", name)
    n = len(ref.positions)
    unsettled = next(i for i, p in enumerate(ref.positions) if not p.settled and i > 0)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(_base(app_url) + f"/{slug}?scenario={name}")
    focus = page.locator(f".{css}-focus").first
    wait_until(lambda: focus.count() and f"STEP 1 OF {n}" in focus.inner_text().upper(), timeout=90, what="step 1")
    nxt = page.get_by_role("button", name="Next ▶")
    for i in range(1, unsettled + 1):
        nxt.click()
        wait_until(lambda: f"STEP {i + 1} OF {n}" in focus.inner_text().upper(), timeout=30, what=f"step {i + 1}")
    pos = ref.positions[unsettled]
    assert pos.step.title in focus.inner_text() and f"Shown: {pos.note}." in focus.inner_text()
    wait_until(lambda: _state(page).get("step") == unsettled + 1, timeout=30, what="the step in the link")
    assert _state(page)["scenario"] == name
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{slug}.png"), full_page=False)
    url = page.url
    other = browser.new_page(viewport={"width": 1280, "height": 1000})   # the copied link: the same step
    other.goto(url)
    focus2 = other.locator(f".{css}-focus").first
    wait_until(lambda: focus2.count() and f"STEP {unsettled + 1} OF {n}" in focus2.inner_text().upper(), timeout=90,
               what="the linked step")
    other.close()

    text = g.scenario_text(name)                        # Open: the built-in's own file, then a broken one
    message = page.locator(f".{css}-round-file-message").first
    page.locator(".xr-upload").first.wait_for(state="visible", timeout=60_000)
    _choose(page, "mine.toml", text.encode())
    wait_until(lambda: message.inner_text().strip() == "opened mine.toml", timeout=60, what="'opened mine.toml'")
    wait_until(lambda: _state(page).get("name") == "mine.toml" and _state(page).get("step") == 1, timeout=30,
               what="the opened file in the link")
    nxt.click()
    wait_until(lambda: _state(page).get("step") == 2, timeout=30, what="step 2 of the opened file")
    kept = _state(page)
    _choose(page, "broken.toml", b'kind = "round"\ntitle = [\n')
    wait_until(lambda: "broken.toml" in message.inner_text(), timeout=60, what="the message for broken.toml")
    assert "\n" not in message.inner_text().strip() and _state(page) == kept
    assert f"STEP 2 OF {n}" in focus.inner_text().upper()
    page.close()


@pytest.mark.parametrize("slug", list(PAGES))
def test_a_round_page_fits_a_phone(browser, app_url, slug):
    _game_id, name, css = PAGES[slug]
    ctx = phone_context(browser)
    page = ctx.new_page()
    page.goto(_base(app_url) + f"/{slug}?scenario={name}")
    focus = page.locator(f".{css}-focus").first
    wait_until(lambda: focus.count() and "STEP 1 OF" in focus.inner_text().upper(), timeout=90, what="step 1")
    page.get_by_role("button", name="Next ▶").tap()
    wait_until(lambda: "STEP 2 OF" in focus.inner_text().upper(), timeout=30, what="step 2 after a tap")
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
    for sel in (f".{css}-round-download-link", ".xr-upload"):
        box = page.locator(sel).first.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, sel
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{slug}-phone.png"), full_page=True)
    ctx.close()


FIT = {"masseffect-round": ("me-round-mission-1", ".me-round-map"), "dagger-round": ("dg-team-up", ".dg-map"),
       "galaxydefenders-round": ("gd-round-map", ".gd-round-map")}
"""Each Round page with its largest built-in map (Mass Effect's demo Mission 1 map is 793 px wide at its drawing size)."""


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("slug", list(FIT))
def test_the_whole_map_shows_and_the_step_bar_keeps_one_row(browser, app_url, slug, size):
    """The map is never cut off by its column (it scales to the column: the whole map in view), and Prev, Next, the
    slider and the "1 / 57" counter stay on one row (the counter wrapped onto its own line on a phone)."""
    name, map_css = FIT[slug]
    width = 1280 if size == "desktop" else 390
    ctx = (browser.new_context(viewport={"width": 1280, "height": 1000}) if size == "desktop"
           else phone_context(browser))
    page = ctx.new_page()
    page.goto(_base(app_url) + f"/{slug}?scenario={name}")
    wait_until(lambda: page.locator(f"{map_css} svg").count() and page.get_by_text(" / ").count(), timeout=90,
               what="the map and the counter")
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    svg = page.locator(f"{map_css} svg").first.bounding_box()
    column = page.locator(".widget-html", has=page.locator(f"{map_css} svg")).last.bounding_box()
    assert svg["x"] >= column["x"] - 1 and svg["x"] + svg["width"] <= column["x"] + column["width"] + 1, (svg, column)
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= width + 1, svg
    nxt = page.get_by_role("button", name="Next ▶").bounding_box()
    counter = page.locator(".widget-html", has_text=re.compile(r"^\s*1 / \d+\s*$")).first.bounding_box()
    slider = page.locator(".widget-hslider").first.bounding_box()
    for box in (counter, slider):
        middle = box["y"] + box["height"] / 2
        assert nxt["y"] <= middle <= nxt["y"] + nxt["height"], (box, nxt)
        assert box["x"] + box["width"] <= width + 1, box
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{slug}-fit-{size}.png"), full_page=True)
    ctx.close()


CARD = {"masseffect-round": ".me-focus", "galaxydefenders-round": ".gd-round-focus", "dagger-round": ".dg-focus"}
"""Each Round page (its default scenario) with the class of its step card."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("slug", list(CARD))
def test_on_a_phone_the_step_card_comes_right_under_the_step_bar_and_the_outcome_after_it(browser, app_url, slug,
                                                                                         size):
    """Newcomer finding (session 10): on a phone the Outcome block (up to 1174 px of verdict) and the file row sat
    between Next and the step card, so each step opened below the fold (D.A.G.G.E.R.: the card 1620 px down). On a
    phone the card now starts right under the step bar, above the fold, and the Outcome comes after it; at 1280 px
    the Outcome stays above the card, as before."""
    ctx = (browser.new_context(viewport={"width": 1280, "height": 900}) if size == "desktop"
           else phone_context(browser))
    page = ctx.new_page()
    page.goto(_base(app_url) + f"/{slug}")
    card = page.locator(CARD[slug]).first
    note = page.locator(".scenario-note-verdict").first
    wait_until(lambda: card.count() and note.count() and "STEP 1 OF" in card.inner_text().upper(), timeout=90,
               what="step 1 and the Outcome")
    bar, c, n = (page.locator(".xr-step-bar").first.bounding_box(), card.bounding_box(), note.bounding_box())
    if size == "phone":
        assert 0 <= c["y"] - (bar["y"] + bar["height"]) <= 24, (bar, c)
        assert c["y"] + 120 < 844, c
        assert n["y"] >= c["y"] + c["height"], (c, n)
    else:
        assert n["y"] + n["height"] <= c["y"], (n, c)
    ctx.close()


OWN = {"masseffect-round": ("masseffect", "me-round-2", ".me-round-file-message", "File"),
       "dagger-round": ("dagger", "dg-team-up", ".dg-round-file-message", "File"),
       "galaxydefenders-round": ("galaxydefenders", "gd-round-map", ".gd-round-file-message", "File"),
       "tagraid-orders": ("tagraid", "tr-round-loot", ".oes-file-message", "Round file")}
"""Each game's Round page (TAG Raid's Rounds open on its Order Expenditure Sequence page) with a built-in round the
test saves under another title and opens as a user's file, the class of the file control's message, and the word
its Outcome block names a file with."""


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("slug", list(OWN))
def test_opening_your_own_round_file_shows_its_outcome_block(browser, app_url, slug, size):
    """Newcomer finding #11 (session 10): opening one's own round file dropped the Outcome block (the page showed it
    for a built-in only). The file's name, its title and its verdict (as `explorer resolve FILE` prints it) are shown
    now, at 1280 px and on a phone."""
    from explorer.games import get_game
    from explorer.scenario import read_toml

    game_id, name, message_css, what = OWN[slug]
    g = get_game(game_id)
    text = re.sub(r"(?m)^title = .*$", 'title = "My own round"', g.scenario_text(name), count=1)
    verdict = g.verdict(g.parse_data(read_toml("mine.toml", text=text), "mine.toml"))
    ctx = (browser.new_context(viewport={"width": 1280, "height": 900}) if size == "desktop"
           else phone_context(browser))
    page = ctx.new_page()
    page.goto(_base(app_url) + f"/{slug}")
    head, block = page.locator(".scenario-note-head").first, page.locator(".scenario-note-verdict").first
    wait_until(lambda: head.count() and block.count(), timeout=90, what="the default's Outcome block")
    page.locator(".xr-upload").first.wait_for(state="visible", timeout=60_000)
    with page.expect_file_chooser() as chooser:
        (page.locator(".xr-upload").first.tap() if size == "phone" else page.locator(".xr-upload").first.click())
    chooser.value.set_files({"name": "mine.toml", "mimeType": "application/toml", "buffer": text.encode()})
    message = page.locator(message_css).first
    wait_until(lambda: message.inner_text().strip() == "opened mine.toml", timeout=60, what="'opened mine.toml'")
    wait_until(lambda: head.count() and "mine.toml" in head.inner_text(), timeout=60, what="the file's Outcome block")
    assert head.inner_text().strip() == f"{what} mine.toml: My own round"
    assert block.inner_text().strip() == verdict.strip()
    box = block.bounding_box()
    assert box and box["height"] > 20 and box["x"] >= 0 and box["x"] + box["width"] <= (1280 if size == "desktop"
                                                                                        else 390) + 1, box
    if size == "phone":
        assert float(block.evaluate("e => getComputedStyle(e).fontSize").rstrip("px")) >= 14
    ctx.close()


@pytest.mark.parametrize("slug", list(CARD))
def test_at_900_px_the_step_column_fits_its_ruling_options_and_every_step(browser, app_url, slug):
    """Session 14 (issue 19, the Round page looked at 900 px): the step column is then about 460 px wide, narrower
    than a ruling dropdown (label 220 + box 460 px) and than the "Every step" list's unbreakable rule tags, so the
    dropdowns' boxes and the step titles ran past the column and were cut off. With both panels open, nothing in
    the column reaches past its right edge now (:data:`explorer.widgets.round_stepper.ROUND_COLUMN_CSS`)."""
    ctx = browser.new_context(viewport={"width": 900, "height": 900})
    page = ctx.new_page()
    page.goto(_base(app_url) + f"/{slug}")
    card = page.locator(CARD[slug]).first
    wait_until(lambda: card.count() and "STEP 1 OF" in card.inner_text().upper(), timeout=90, what="step 1")
    for title in ("Ruling options", "Every step"):
        page.locator(".xr-round-side").get_by_text(title, exact=True).first.click()
    side = page.locator(".xr-round-side").first
    wait_until(lambda: side.locator(".widget-dropdown").count() and side.locator(".xt-step").count(), timeout=30,
               what="both panels open")
    past = side.evaluate("""side => { const right = side.getBoundingClientRect().right; const out = [];
        for (const e of side.querySelectorAll('.widget-dropdown, select, .xt-step, .xt-rule, .widget-html-content')) {
          const r = e.getBoundingClientRect(); if (r.width > 0 && r.right > right + 1) out.push(e.className + ' ' +
          Math.round(r.right) + ' > ' + Math.round(right)); } return out.slice(0, 5); }""")
    assert past == [], past
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 900
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{slug}-900.png"), full_page=True)
    ctx.close()


def test_at_900_px_the_mass_effect_step_card_sits_beside_the_mission_1_map(browser, app_url):
    """Session 15 (issue 19, second reader): at a 900 px window the Mission 1 map (760 px) left no room beside it, so
    the step column wrapped under the whole map and the step card sat about 830 px down, at the fold. The map column
    now shrinks (``map_basis``, its map scaled down whole): the card starts level with the map's top, in the first
    screen, and the whole map still shows."""
    ctx = browser.new_context(viewport={"width": 900, "height": 900})
    page = ctx.new_page()
    page.goto(_base(app_url) + "/masseffect-round?scenario=me-round-mission-1")
    card = page.locator(".me-focus").first
    wait_until(lambda: card.count() and "STEP 1 OF" in card.inner_text().upper()
               and page.locator(".me-round-map svg").count(), timeout=90, what="step 1 and the map")
    c, m = card.bounding_box(), page.locator(".me-round-map svg").first.bounding_box()
    assert abs(c["y"] - m["y"]) <= 12 and c["x"] >= m["x"] + m["width"], (c, m)     # beside the map, not under it
    assert c["y"] + c["height"] < 600, c
    assert m["x"] >= 0 and m["x"] + m["width"] <= c["x"] and m["width"] >= 440, m   # the whole map, scaled down
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 900
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "masseffect-round-900-mission-1.png"), full_page=True)
    ctx.close()


@pytest.mark.parametrize("size", [1280, 900, "phone"])
@pytest.mark.parametrize("slug", list(CARD))
def test_every_ruling_option_name_shows_whole(browser, app_url, slug, size):
    """Session 15 (issue 20): the D.A.G.G.E.R. Round page's ruling labels were 190 px wide and cut
    "nemesis_stunned_mid_activation" to "nemesis_stunned_mid_activ…" at 1280 and 900 px; on a phone a long key ran out
    of its right-aligned box to the left. With the Ruling options open, each label's text fits its box (no ellipsis)
    and the box lies inside the window (:func:`explorer.widgets.round_stepper.label_room`, ``ROUND_PHONE_CSS``)."""
    ctx = (phone_context(browser) if size == "phone" else
           browser.new_context(viewport={"width": size, "height": 900}))
    width = 390 if size == "phone" else size
    page = ctx.new_page()
    page.goto(_base(app_url) + f"/{slug}")
    card = page.locator(CARD[slug]).first
    wait_until(lambda: card.count() and "STEP 1 OF" in card.inner_text().upper(), timeout=90, what="step 1")
    page.locator(".xr-round-side").get_by_text("Ruling options", exact=True).first.click()
    labels = page.locator(".xr-round-side .widget-dropdown > .widget-label")   # a locator pierces shadow roots
    wait_until(lambda: labels.evaluate_all("ls => ls.filter(e => e.getBoundingClientRect().width > 0).length") >= 3,
               timeout=30, what="the ruling dropdowns")
    cut = labels.evaluate_all(f"""ls => ls.filter(e => e.getBoundingClientRect().width > 0).filter(e => {{
          const r = e.getBoundingClientRect();
          return e.scrollWidth > e.clientWidth + 1 || r.left < -1 || r.right > {width} + 1; }})
        .map(e => e.textContent + ' ' + e.scrollWidth + '/' + e.clientWidth)""")
    assert cut == [], cut
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{slug}-rulings-{size}.png"), full_page=True)
    ctx.close()


REFUSED = {   # slug: (game, round shown, page CSS prefix, the map's class, (old, new): the refused file's edit)
    "masseffect-round": ("masseffect", "me-round-2", "me", "me-round-map",
                         ('rolls = [["move_2", "standard", "enhanced"]]', 'rolls = [["move_2", "standard"]]')),
    "galaxydefenders-round": ("galaxydefenders", "gd-round-mission-3", "gd", "gd-round-map",
                              ('{ kind = "action", what = "Deploy an EMP-Nuke Bomb" }]',
                               '{ kind = "action", what = "Deploy an EMP-Nuke Bomb" }, '
                               '{ kind = "action", what = "again" }]')),
    # D.A.G.G.E.R. stops a refused play at a "Not allowed" step (it opens, as dg-slot-full): its refused file here
    # breaks the format instead
    "dagger-round": ("dagger", "dg-two-rounds", "dg", "dg-map", ('token = "standard"', 'token = "gold"')),
}

TEXT_JS = """() => { const out = []; const walk = (root) => { root.querySelectorAll('*').forEach(e => {
    if (e.shadowRoot) walk(e.shadowRoot); }); root.querySelectorAll('*').forEach(e => {
    for (const n of e.childNodes) if (n.nodeType === 3) out.push(n.textContent); }); }; walk(document);
    return out.join(' '); }"""


def _unmarked(html: str) -> str:
    """A map's HTML without what the page's label-floor script (:mod:`explorer.widgets.label_floor`) writes into an
    SVG in the browser whenever its next measurement runs: ``data-xr-floor`` on the ``<svg>``, and ``data-xr-fs``
    and an inline ``style`` (font size, display, shift) on its ``<text>`` labels. They say how the browser shows the
    labels, not what the widget drew (a CI run compared a map before and after a refused file and saw only those
    marks appear)."""
    def clean(m: re.Match) -> str:
        return re.sub(r' (?:data-xr-floor|data-xr-fs|style)="[^"]*"', "", m.group(0))
    return re.sub(r"<(?:svg|text)\b[^>]*>", clean, html)


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("slug", list(REFUSED))
def test_a_refused_round_file_keeps_the_round_step_map_and_link_and_says_so_once_beside_open(browser, app_url, slug,
                                                                                             size):
    """Session 16: a round at step 5, then a file that parses and is refused (GD: a second Action in one turn; ME: a
    Strategy Roll one face short; D.A.G.G.E.R.: a token kind the format has not). The step, the map, the step card
    and the link stay as they were; the refusal is said once, beside Open (it replaced the round by "No step to
    show", emptied the map and said the refusal three times)."""
    from explorer.games import get_game

    game_id, name, css, map_cls, (old, new) = REFUSED[slug]
    text = get_game(game_id).scenario_text(name)
    assert text.count(old) >= 1
    bad = text.replace(old, new, 1).encode()
    ctx = phone_context(browser) if size == "phone" else browser.new_context(viewport={"width": 1280, "height": 1000})
    page = ctx.new_page()
    try:
        page.goto(_base(app_url) + f"/{slug}?scenario={name}")
        focus = page.locator(f".{css}-focus, .{css}-round-focus").first
        wait_until(lambda: focus.count() and "STEP 1 OF" in focus.inner_text().upper(), timeout=90, what="step 1")
        nxt = page.get_by_role("button", name="Next ▶")
        for i in range(2, 6):
            nxt.click()
            wait_until(lambda: f"STEP {i} OF" in focus.inner_text().upper(), timeout=30, what=f"step {i}")
        wait_until(lambda: _state(page).get("step") == 5, timeout=30, what="step 5 in the link")
        url, card = page.url, focus.inner_text()
        the_map = page.locator(f".{map_cls}").first
        drawn = _unmarked(the_map.inner_html())
        assert "<svg" in drawn
        message = page.locator(f".{css}-round-file-message").first
        page.locator(".xr-upload").first.wait_for(state="visible", timeout=60_000)
        _choose(page, "refused.toml", bad)
        wait_until(lambda: "refused.toml" in message.inner_text(), timeout=60, what="the message beside Open")
        said = message.inner_text().strip()
        assert said.startswith("refused.toml: ") and "\n" not in said, said
        page.wait_for_timeout(1000)   # anything else the refusal would change has reached the page by now
        if SCREENSHOTS:
            page.mouse.wheel(0, message.bounding_box()["y"] - 250)    # the message and the Open control in view
            page.wait_for_timeout(500)
            page.screenshot(path=os.path.join(SCREENSHOTS, f"{slug}-refused-{size}.png"), full_page=False)
        assert page.url == url and focus.inner_text() == card and _unmarked(the_map.inner_html()) == drawn
        assert page.evaluate(TEXT_JS).count("refused.toml") == 1      # said once
        box_m, box_u = message.bounding_box(), page.locator(".xr-upload").first.bounding_box()
        assert abs(box_m["y"] - box_u["y"]) < 60 or abs((box_m["y"]) - (box_u["y"] + box_u["height"])) < 60
        nxt.click()                                                  # the round shown still steps
        wait_until(lambda: _state(page).get("step") == 6, timeout=30, what="step 6")
    finally:
        ctx.close()
