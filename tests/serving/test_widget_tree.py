"""The one widget-tree walk behind ``find_redraws`` (outermost widgets with ``redraw``) and ``find_offloadable``
(every widget with ``set_offloader``)."""

from __future__ import annotations

from explorer.serving.offload import find_offloadable
from explorer.serving.pane import find_redraws
from explorer.serving.widget_tree import MAX_VISITED, walk_widgets


class Box:
    def __init__(self, name, *children, redraw=False, offload=False):
        self.name, self.children = name, list(children)
        if redraw:
            self.redraw = lambda: name
        if offload:
            self.set_offloader = lambda f: None


def test_depth_first_in_order_each_once_and_pruned_below():
    shared = Box("shared")
    inner = Box("inner", Box("leaf"), redraw=True, offload=True)
    root = Box("root", Box("a", shared), inner, shared, Box("b", offload=True))
    assert [w.name for w in walk_widgets(root)] == ["root", "a", "shared", "inner", "leaf", "b"]
    assert [w.name for w in walk_widgets(root, prune=lambda w: w.name == "a")] == ["root", "a", "inner", "leaf", "shared",
                                                                             "b"]
    # redraws: the outermost only (the leaf's would not be reached even if it had one); offloadables: all
    inner.children[0].redraw = lambda: "leaf"
    assert [r() for r in find_redraws(root)] == ["inner"]
    assert [w.name for w in find_offloadable(root)] == ["inner", "b"]


def test_a_cycle_or_a_huge_tree_ends():
    loop = Box("loop")
    loop.children.append(loop)
    assert [w.name for w in walk_widgets(loop)] == ["loop"]
    wide = Box("wide", *(Box(str(i), offload=True) for i in range(2 * MAX_VISITED)))
    assert sum(1 for _ in walk_widgets(wide)) == MAX_VISITED
    assert len(find_offloadable(wide)) == 50
