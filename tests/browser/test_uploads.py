"""Opening a file with a page's file control, in headless Chromium, on every page that has one (Face to Face, Line of
Fire, Order Expenditure Sequence).

The browser sends the chosen file as a binary widget message; before
:func:`explorer.serving.binary_messages.accept_binary_widget_messages` the served app dropped it
(``UnicodeDecodeError('utf-32-be', ...)`` in Bokeh's protocol handler) and the page did nothing. A valid file shows
its verdict (the same text as the page's widget shows for that file in Python) and its state in the link; a bad
file (broken TOML, not UTF-8) shows the one-line message the loading gate gives for it beside the control, and the
page keeps what it showed (issue #7: bad input loses nothing). The same control in JupyterLab (where the Jupyter
server reads the binary frame itself) is checked on the Face to Face notebook. Uses the shared fixtures of
``conftest.py``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from browser_helpers import open_notebook_and_run_all, wait_until
from explorer.urlstate import decode_state

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PACKAGE = Path(__file__).resolve().parents[2] / "explorer" / "games" / "tagraid"

PAGES = {
    # slug: (file opened (not the page's default), its folder, page element with the verdict, the widget's attribute
    #        holding it, the message's class)
    "face-to-face": ("tr-05.toml", "scenarios", ".tagraid-f2f .xf-sum", "summary", ".f2f-file-message"),
    "line-of-fire": ("lof-demo.toml", "tables", ".lof-verdict-list", "verdict_html", ".lof-file-message"),
    "orders": ("tr-round-loot.toml", "scenarios", ".oes-header", "header", ".oes-file-message"),
}

BAD_FILES = {
    "broken.toml": b'title = "half a file"\n[[[\n',
    "latin1.toml": 'title = "caf\u00e9"\n'.encode("latin-1"),
}


def _text(markup: str) -> str:
    """An HTML value's visible text without any whitespace (the browser lays out cells and lines its own way)."""
    markup = re.sub(r"<style.*?</style>", "", markup, flags=re.S)
    return re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", "", markup)))


def _in_python(slug: str):
    from explorer.games import get_game

    widget, _ = get_game("tagraid").open_page(slug)
    return widget


def _choose(page, name: str, data: bytes) -> None:
    """Pick a file with the page's file control, as a user does (the button opens the browser's file chooser)."""
    with page.expect_file_chooser() as chooser:
        page.locator(".xr-upload").first.click()
    chooser.value.set_files({"name": name, "mimeType": "application/toml", "buffer": data})


def _state(page) -> dict:
    raw = page.evaluate("new URLSearchParams(location.search).get('s')")
    return decode_state(raw) if raw else {}


@pytest.mark.parametrize("slug", list(PAGES))
def test_a_valid_file_shows_its_verdict_and_a_bad_one_a_message_keeping_the_page(browser, app_url, slug):
    from explorer.errors import ScenarioError
    from explorer.scenario import decode_file_bytes

    name, folder, verdict_css, attr, message_css = PAGES[slug]
    data = (PACKAGE / folder / name).read_bytes()
    ref = _in_python(slug)
    default_verdict = _text(getattr(ref, attr).value)
    ref.load_toml(data.decode("utf-8"), name)
    want_verdict, want_state = _text(getattr(ref, attr).value), ref.url_state()
    assert want_verdict != default_verdict, "the test file must change the page's verdict"

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(app_url.rsplit("/", 1)[0] + f"/tagraid-{slug}")
    verdict, message = page.locator(verdict_css).first, page.locator(message_css).first
    wait_until(lambda: verdict.count() and _text(verdict.inner_html()) == default_verdict, timeout=90,
               what="the page's default verdict")
    page.locator(".xr-upload").first.wait_for(state="visible", timeout=60_000)

    _choose(page, name, data)
    wait_until(lambda: message.inner_text().strip() == f"opened {name}", timeout=60, what=f"'opened {name}'")
    wait_until(lambda: _text(verdict.inner_html()) == want_verdict, timeout=60, what="the file's verdict")
    wait_until(lambda: _state(page) == want_state, timeout=30, what="the file's state in the link")

    for bad, raw in BAD_FILES.items():
        with pytest.raises(ScenarioError) as e:          # the message the loading gate gives for this file
            ref.load_toml(decode_file_bytes(raw, bad), bad)
        want = str(e.value)
        assert bad in want and "\n" not in want
        _choose(page, bad, raw)
        wait_until(lambda: message.inner_text().strip() == want, timeout=60, what=f"the message for {bad}")
        assert message.evaluate("e => e.getClientRects().length") >= 1
        assert _text(verdict.inner_html()) == want_verdict, f"{bad} changed the verdict"
        assert _state(page) == want_state, f"{bad} changed the page's state"
    # the control was emptied after each file: the same valid file opens again
    _choose(page, name, data)
    wait_until(lambda: message.inner_text().strip() == f"opened {name}", timeout=60, what=f"'opened {name}' again")
    page.close()


def test_the_same_control_opens_files_in_jupyterlab(browser, lab_url):
    """notebooks/face_to_face.ipynb: the explorer's file control opens a scenario (its verdict shown) and refuses a
    broken file with the loading gate's message, keeping the verdict."""
    from explorer.errors import ScenarioError

    name = "tr-05.toml"
    data = (PACKAGE / "scenarios" / name).read_bytes()
    ref = _in_python("face-to-face")
    ref.load_toml(data.decode("utf-8"), name)
    want_verdict = _text(ref.summary.value)
    bad, raw = next(iter(BAD_FILES.items()))
    with pytest.raises(ScenarioError) as e:
        ref.load_toml(raw.decode("utf-8"), bad)

    page, errors = open_notebook_and_run_all(browser, lab_url, "notebooks/face_to_face.ipynb",
                                             {"width": 1600, "height": 1500})
    root = page.locator(".tagraid-f2f").first
    root.wait_for(timeout=60_000)
    verdict, message = root.locator(".xf-sum").first, root.locator(".f2f-file-message").first
    with page.expect_file_chooser() as chooser:
        root.locator(".xr-upload").first.click()
    chooser.value.set_files({"name": name, "mimeType": "application/toml", "buffer": data})
    wait_until(lambda: message.inner_text().strip() == f"opened {name}", timeout=60, what=f"'opened {name}'")
    wait_until(lambda: _text(verdict.inner_html()) == want_verdict, timeout=60, what="the file's verdict")
    with page.expect_file_chooser() as chooser:
        root.locator(".xr-upload").first.click()
    chooser.value.set_files({"name": bad, "mimeType": "application/toml", "buffer": raw})
    wait_until(lambda: message.inner_text().strip() == str(e.value), timeout=60, what=f"the message for {bad}")
    assert _text(verdict.inner_html()) == want_verdict
    page.close()
