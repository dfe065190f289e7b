"""The rulebook's worked examples as built-in scenarios reproduce the book."""

from .helpers import resolve


def _t(trace, i=0):
    return trace.outcome["attacks"][0]["targets"][i]


def test_lethal_example():
    t = _t(resolve("gd-book-lethal"))
    assert (t["absorbed"], t["blue_dice"], t["wounds"]) == (1, 0, 3)


def test_multiple_energy_shields_example_1():
    tr = resolve("gd-book-shields-1")
    t = _t(tr)
    assert next(s.facts["stack"] for s in tr.steps if "stack" in s.facts) == 0      # Left selected
    assert (t["absorbed"], t["wounds"], t["status"]) == (2, 1, "dead")


def test_multiple_energy_shields_example_2():
    tr = resolve("gd-book-shields-2")
    t = _t(tr)
    assert next(s.facts["stack"] for s in tr.steps if "stack" in s.facts) == 1      # Right: Left is empty
    assert (t["absorbed"], t["cancelled_by_dice"], t["wounds"], t["status"]) == (1, 1, 0, "alive")


def test_mark_example():
    tr = resolve("gd-book-mark")
    t = _t(tr)
    assert tr.outcome["targets"]["Biotech"]["mark"] == 2
    assert (t["cancelled_by_dice"], t["wounds"]) == (1, 2)
    assert t["critical"] == "c1-movement"             # Critical 1 from the lock-on power; alien-only token redrawn
    assert any(s.rule.section == "8.2.1 Compatibility" for s in tr.steps)


def test_high_impact_example():
    t = _t(resolve("gd-book-high-impact"))
    assert t["blue_dice"] == 5


def test_burrowing_example_1():
    tr = resolve("gd-book-burrowing-1")
    assert [t["name"] for t in tr.outcome["attacks"][0]["targets"]] == ["Wormoon"]
    assert tr.outcome["targets"]["Diggers (figure 1)"]["wounds"] == 0
    checks = [s for s in tr.steps if s.rule.section.startswith("7.2.1")]
    assert [s.facts["vulnerable"] for s in checks] == [True, False, False]
    # every check comes before the Hit roll
    order = [s.section for s in tr.steps]
    assert max(order.index(s.section) for s in checks) < order.index("Hit roll")
