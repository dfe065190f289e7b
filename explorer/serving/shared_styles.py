"""Shared layout / style models: a served page's widgets share one front-end model per distinct ``Layout`` /
``Style`` state, copy-on-write.

What it patches: ipywidgets' model identity. A page is mostly small widgets with a default or a common ``Layout``
and ``Style`` (the Face to Face page: 232 of its 365 widget models, in 36 distinct states), and the browser builds one
model for each. :func:`share_style_models` makes every model of a group with one state an alias of one new model of
that state (same comm, so the same model id in the page's state); its own comm is dropped unsent. The Python
objects stay distinct and writable: the first change of one (``w.layout.display = "none"``) gives it its own model
again and points its owner(s) at it (:func:`_unshare`), so no other widget sees the change. Models already shared
by the code (one ``Layout`` passed to two widgets) stay shared with each other. Front-end models: Face to Face
365 -> 169, Line of Fire 197 -> 102 (``docs/design.md`` item 24).

Private APIs (pinned ipywidgets==8.1.9, panel==1.9.4): ``Widget._trait_values``, ``_model_id``,
``_should_send_property``, ``ipywidgets.widgets.widget._instances``, ``Widget._call_widget_constructed`` (under
Panel: the session's own comm for an unshared model) and comms' ``_closed``.

On a version mismatch: disabled (:data:`explorer.serving.versions.DISABLE`): it only saves time, and a wrong alias
would show one widget's change on another. Without it every widget keeps its own front-end models.
"""

from __future__ import annotations

from .versions import allowed


def _is_style_model(w) -> bool:
    name = getattr(w, "_model_name", "")
    return isinstance(name, str) and (name == "LayoutModel" or name.endswith("StyleModel"))


def _forget_comm(c) -> None:
    """Drop the comm ``c`` from every comm manager without sending anything (its ``comm_open`` is still queued and is
    dropped with the build's messages: :func:`explorer.serving.build_messages.drop_build_messages`)."""
    import comm as comm_package

    managers = [comm_package.get_comm_manager()]
    kernel = getattr(c, "kernel", None)
    if getattr(kernel, "comm_manager", None) is not None:
        managers.append(kernel.comm_manager)
    c._closed = True
    for m in managers:
        m.comms.pop(getattr(c, "comm_id", None), None)


def _unshare(model, owners: list, key: str, value) -> bool:
    """Copy-on-write for a shared style model (:func:`share_style_models`): the first change of ``model`` gives it its
    own front-end model (a new comm opened with its whole state, as for a widget built now) and points its owners
    at it; the other widgets keep the shared one. Stands in for ``Widget._should_send_property`` once."""
    from ipywidgets import Widget

    del model.__dict__["_should_send_property"]
    model._trait_values["comm"] = None
    model._model_id = None
    model.open()                            # a new comm, carrying the state with this change
    Widget._call_widget_constructed(model)  # under Panel: the session's own comm (panel.io.ipywidget)
    for owner, trait in owners:
        owner.send_state(key=trait)
    return False


def _style_owners(root) -> dict:
    """``{id(model): (model, [(owner widget, "layout" | "style"), ...])}`` for every layout / style model reached
    from ``root``."""
    from ipywidgets import Widget

    owners: dict[int, tuple[Widget, list]] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        w = stack.pop()
        if id(w) in seen or not isinstance(w, Widget):
            continue
        seen.add(id(w))
        for k in w.keys:
            v = getattr(w, k, None)
            for x in (v if isinstance(v, (list, tuple)) else (v,)):
                if not isinstance(x, Widget):
                    continue
                if k in ("layout", "style") and _is_style_model(x):
                    owners.setdefault(id(x), (x, []))[1].append((w, k))
                else:
                    stack.append(x)
    return owners


def share_style_models(root) -> tuple[int, int]:
    """Let the widgets reached from ``root`` (an ipywidget) whose ``layout`` / ``style`` models have the same state
    share one front-end model (see the module docstring); returns ``(models before, models after)`` among those
    reached from ``root`` (equal when the patch is disabled by a version mismatch, with a warning).

    Call it once the tree is built and before its state is sent (under ``panel serve``: in the session's page
    factory, before :func:`~explorer.serving.build_messages.drop_build_messages`).
    """
    import json
    from functools import partial

    from ipywidgets.widgets.widget import _instances

    owners = _style_owners(root)
    if not allowed("share_style_models"):
        return len(owners), len(owners)
    groups: dict[tuple, list] = {}
    for x, who in owners.values():
        if x.comm is None or "_should_send_property" in x.__dict__:
            continue   # closed, or already an alias
        state = json.dumps(x.get_state(), sort_keys=True, default=str)
        groups.setdefault((type(x), state), []).append((x, who))
    after = len(owners)
    for (cls, state), members in groups.items():
        if len(members) < 2:
            continue
        first = members[0][0]
        shared = cls(**{k: getattr(first, k) for k in first.keys if not k.startswith("_")})
        if json.dumps(shared.get_state(), sort_keys=True, default=str) != state:
            shared.close()
            continue
        for x, who in members:
            _instances.pop(x.model_id, None)
            _forget_comm(x.comm)
            x._trait_values["comm"] = shared.comm
            x._model_id = shared.model_id
            x._should_send_property = partial(_unshare, x, who)
        after -= len(members) - 1
    return len(owners), after
