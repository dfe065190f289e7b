"""A small Terrain for activation tests that do not need the mission-map geometry: a hexagon of radius R, walls on
hex sides, one-way elevation steps, Inferno / Coolant Leak / Spawn hexes. Line of Fire: the six straight lines, blocked
by a wall on a crossed side (enough for the rules under test; the real geometry is tested in the map part)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from explorer.hexgrid import DIRECTIONS, Hex, hex_range, neighbors


@dataclass
class FakeTerrain:
    radius: int = 4
    walls: set = field(default_factory=set)          # {frozenset({a, b})}
    up_blocked: set = field(default_factory=set)     # {(low, high)}: no step low -> high
    inferno: set = field(default_factory=set)
    coolant: set = field(default_factory=set)
    spawns: tuple = ()
    shrouded: set = field(default_factory=set)
    fast_travel: dict = field(default_factory=dict)
    doors: dict = field(default_factory=dict)        # {hex: Shrouded areas it borders through an unlocked door}

    def __post_init__(self):
        self.hexes = set(hex_range(Hex(0, 0), self.radius))

    def wall(self, a, b):
        self.walls.add(frozenset({Hex(*a), Hex(*b)}))
        return self

    def adjacent(self, a, b):
        return b in neighbors(a) and a in self.hexes and b in self.hexes and frozenset({a, b}) not in self.walls

    def step_hexes(self, h):
        return [n for n in neighbors(h) if self.adjacent(h, n) and (h, n) not in self.up_blocked]

    def distance(self, a, b):
        key = (a, b, len(self.walls))
        memo = self.__dict__.setdefault("_memo", {})
        if key not in memo:
            memo[key] = self._distance(a, b)
        return memo[key]

    def _distance(self, a, b):
        seen = {a: 0}
        q = deque([a])
        while q:
            h = q.popleft()
            if h == b:
                return seen[h]
            for n in neighbors(h):
                if self.adjacent(h, n) and n not in seen:
                    seen[n] = seen[h] + 1
                    q.append(n)
        return None

    def line_of_fire(self, a, b):
        for d in DIRECTIONS:
            h = a
            for _ in range(2 * self.radius + 1):
                n = h + d
                if n not in self.hexes or frozenset({h, n}) in self.walls:
                    break
                if n == b:
                    return True
                h = n
        return False

    def is_inferno(self, h):
        return h in self.inferno

    def is_coolant_leak(self, h):
        return h in self.coolant

    def is_shrouded(self, h):
        return h in self.shrouded

    def spawn_hexes(self):
        return tuple(self.spawns)

    def fast_travel_partner(self, h):
        return self.fast_travel.get(h)

    def area_name(self, h):
        return "shrouded" if h in self.shrouded else None

    def doors_into(self, h):
        return tuple(self.doors.get(h, ()))
