"""The seeded random-table generator shared by the LoF property tests and the LoF benchmark."""

import math

from explorer.games.tagraid.random_tables import random_table


def _key(t):
    return (sorted((m.id, m.x, m.y, m.silhouette, m.facing, m.side, m.kind) for m in t.models.values()),
            repr(t.scenery), sorted(t.tiles.items()))


def test_same_seed_same_table_and_other_seed_other_table():
    assert _key(random_table(3)) == _key(random_table(3))
    assert _key(random_table(3)) != _key(random_table(4))


def test_counts_holes_sides_kinds_and_heights():
    t = random_table(5, radius=3, n_models=4, n_scenery=6, n_holes=7, kinds=["miner", "deployable"] * 2, n_sides=2)
    assert len(t.tiles) == 1 + 3 * 3 * 4 and sum(not v for v in t.tiles.values()) == 7
    assert len(t.scenery) == 6 and all(0.05 <= s.height <= 1.0 for s in t.scenery)
    ms = [t.models[f"m{i}"] for i in range(4)]
    assert [m.kind for m in ms] == ["miner", "deployable"] * 2
    assert [m.side for m in ms] == ["p0", "p1", "p0", "p1"]
    assert all(m.silhouette in (3, 5, 7, 8) for m in ms)
    # scenery_height=None keeps the default (unknown / tall) height
    assert all(math.isinf(s.height) for s in random_table(5, scenery_height=None).scenery)

