"""A page's picker and ruling dropdowns kept in its link (``?s=``): the pages whose state is which scenario or map
is shown, and under which readings (Mass Effect's Mission Map and Enemy Activation, Galaxy Defenders' Alien A.I.,
D.A.G.G.E.R.'s Nemesis Phase), take part in URL state (:func:`explorer.serving.url_state.url_state_sync`) through
:func:`keep_in_url`, as TAG Raid's pages do through their own methods: a copied link reopens the same scenario or map
with the same readings.

The state: ``{"<key>": picker value, "rulings": {ruling key: reading}}`` (every ruling dropdown the page shows; some
pages keep the readings through a pick, others open each scenario on its own, so a link holds them all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import ipywidgets as W

from explorer.errors import ScenarioError, short_repr

LINK_SOURCE = "link"
"""How a refusal names a state read from a link (as :func:`explorer.urlstate.decode_state` does)."""


def keep_in_url(widget: W.Widget, picker: W.Dropdown, key: str = "scenario",
                rulings: Callable[[], Mapping[str, W.Dropdown]] | None = None,
                extra: Mapping[str, tuple[Callable[[], object], Callable[[object], None]]] | None = None,
                watch: Sequence[W.ValueWidget] = ()) -> W.Widget:
    """Give ``widget`` the URL-state methods (``url_state()``, ``load_url_state(state)``, ``on_state_change(cb)``)
    for ``picker``'s value under ``key`` and the readings of the ruling dropdowns ``rulings()`` returns (called
    each time: a page that rebuilds its view on a pick has new dropdowns). Returns ``widget``.

    Args:
        extra: ``{link key: (get, set)}`` for the rest of what the page shows that a player chose (D.A.G.G.E.R.'s
            Final Showdown, the players' choices at ties, the step shown): ``get()`` returns a JSON value, ``set``
            checks one and applies it or raises :class:`~explorer.errors.ScenarioError`; set in this mapping's order,
            after the picker and the readings.
        watch: inputs whose every change is a state change (besides the picker and the ruling dropdowns). The page
            calls ``widget.url_state_changed()`` after any other change of an ``extra`` value.

    ``load_url_state`` raises :class:`~explorer.errors.ScenarioError` (source ``"link"``) naming the field: a state
    that is not an object of these keys, a ``key`` that is not one of the picker's values, a ruling key the page
    does not show or a reading that is not one of its readings, a refused ``extra`` value. On a refusal the page
    goes back to what it showed before the link was read (the picker, the readings and every ``extra`` value).
    """
    callbacks: list[Callable[[], None]] = []
    hooked: set[int] = set()
    extra = dict(extra or {})
    keys = (key, "rulings", *extra)

    def dropdowns() -> Mapping[str, W.Dropdown]:
        return rulings() if rulings is not None else {}

    def fire(_change=None) -> None:
        hook()
        for cb in list(callbacks):
            cb()

    def hook() -> None:
        for d in dropdowns().values():
            if id(d) not in hooked:
                hooked.add(id(d))
                d.observe(fire, names="value")

    def url_state() -> dict:
        readings = {k: d.value for k, d in dropdowns().items()}
        return {key: picker.value, **({"rulings": readings} if readings else {}),
                **{k: get() for k, (get, _set) in extra.items()}}

    def apply(state: Mapping) -> None:
        value = state.get(key, picker.value)
        values = list(picker._options_values)
        if not isinstance(value, str) or value not in values:
            raise ScenarioError(key, f"{short_repr(value)} is not one this page offers",
                                ", ".join(map(str, values[:12])) + (" ..." if len(values) > 12 else ""),
                                LINK_SOURCE)
        readings = state.get("rulings", {})
        if not isinstance(readings, Mapping):
            raise ScenarioError("rulings", "is not a table of readings", "ruling key = reading", LINK_SOURCE)
        if picker.value != value:
            picker.value = value                  # loads the scenario (and its readings)
        boxes = dropdowns()
        for k, reading in readings.items():       # checked before any is set: a bad link changes nothing more
            if k not in boxes:
                raise ScenarioError(f"rulings.{k}", "is not a ruling option of this page", sorted(boxes),
                                    LINK_SOURCE)
            if reading not in boxes[k]._options_values:
                raise ScenarioError(f"rulings.{k}", f"{short_repr(reading)} is not one of its readings",
                                    [str(v) for v in boxes[k]._options_values], LINK_SOURCE)
        for k, reading in readings.items():
            boxes[k].value = reading
        for k, (_get, set_) in extra.items():
            if k in state:
                set_(state[k])

    def load_url_state(state: Mapping) -> None:
        unknown = sorted(set(state) - set(keys))
        if unknown:
            raise ScenarioError(unknown[0], "is not part of this page's link", keys, LINK_SOURCE)
        before = url_state()
        try:
            apply(state)
        except ScenarioError:
            apply(before)                         # the page as it was: never half a link
            raise

    def on_state_change(callback: Callable[[], None]) -> None:
        callbacks.append(callback)

    hook()
    picker.observe(fire, names="value")
    for w in watch:
        w.observe(fire, names="value")
    widget.url_state, widget.load_url_state, widget.on_state_change = url_state, load_url_state, on_state_change
    widget.url_state_changed = fire
    return widget


MAX_TEXT_CHARS = 1000
"""The longest text field value a link may set (the pages' text fields hold short lists of faces and numbers)."""


def keep_fields_in_url(widget: W.Widget, fields: Mapping[str, W.ValueWidget],
                       extra: Mapping[str, tuple[Callable[[], object], Callable[[object], None]]] | None = None
                       ) -> W.Widget:
    """Give a form page (every input a field, no picker: Galaxy Defenders' Combat, Mass Effect's Strategy Pool) the
    URL-state methods: its state is ``{"fields": {name: value}, <extra key>: value}``.

    Args:
        widget: the page; it has ``update()`` (re-read the inputs and redraw) and a ``_busy`` flag its observers
            respect: a link's fields are set quietly, then ``update()`` runs once. Every ``update()`` is a state
            change (the link follows hand-set dice and every other input).
        fields: ``{name in the link: input widget}`` (``Dropdown``, ``ToggleButtons``, ``Checkbox``, ``Text``).
        extra: ``{key: (get, set)}`` for state that is not a widget value (hand-set dice): ``set`` checks its value
            and raises :class:`~explorer.errors.ScenarioError`.

    ``load_url_state`` raises :class:`~explorer.errors.ScenarioError` (source ``"link"``) naming the field (an
    unknown name, a choice the field does not offer, a value of the wrong type, a text over
    :data:`MAX_TEXT_CHARS`), every field checked before any is set.
    """
    extra = dict(extra or {})
    callbacks: list[Callable[[], None]] = []
    inner_update = widget.update

    def update(*args, **kwargs):
        out = inner_update(*args, **kwargs)
        for cb in list(callbacks):
            cb()
        return out

    def url_state() -> dict:
        return {"fields": {k: w.value for k, w in fields.items()}, **{k: get() for k, (get, _set) in extra.items()}}

    def check(name: str, w: W.ValueWidget, value: object) -> None:
        if isinstance(w, W.Checkbox | W.ToggleButton):
            ok, allowed = isinstance(value, bool), "true or false"
        elif hasattr(w, "_options_values"):
            options = list(w._options_values)
            ok, allowed = value in options, ", ".join(map(str, options[:12])) + (" ..." if len(options) > 12 else "")
        else:
            ok, allowed = isinstance(value, str) and len(value) <= MAX_TEXT_CHARS, \
                f"text of at most {MAX_TEXT_CHARS} characters"
        if not ok:
            raise ScenarioError(f"fields.{name}", f"{short_repr(value)} is not a value of this field", allowed,
                                LINK_SOURCE)

    def load_url_state(state: Mapping) -> None:
        unknown = sorted(set(state) - {"fields", *extra})
        if unknown:
            raise ScenarioError(unknown[0], "is not part of this page's link", ("fields", *extra), LINK_SOURCE)
        values = state.get("fields", {})
        if not isinstance(values, Mapping):
            raise ScenarioError("fields", "is not a table of field values", "name = value", LINK_SOURCE)
        for name, value in values.items():
            if name not in fields:
                raise ScenarioError(f"fields.{name}", "is not a field of this page", sorted(fields), LINK_SOURCE)
            check(name, fields[name], value)
        busy = widget._busy
        widget._busy = True
        try:
            for name, value in values.items():
                fields[name].value = value
            for key, (_get, set_) in extra.items():
                if key in state:
                    set_(state[key])
        finally:
            widget._busy = busy
        widget.update()

    def on_state_change(callback: Callable[[], None]) -> None:
        callbacks.append(callback)

    widget.update = update
    widget.url_state, widget.load_url_state, widget.on_state_change = url_state, load_url_state, on_state_change
    return widget
