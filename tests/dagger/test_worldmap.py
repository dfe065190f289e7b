"""The world map: the stand-in default, distances, nearby, nearest operational base, malformed maps."""

import copy

import pytest

from explorer.errors import ScenarioError
from explorer.games.dagger.worldmap import (
    FIXED_BASES, load_map, load_map_file, map_from_dict, nearest_operational_bases,
)
from explorer.scenario import read_toml
from importlib import resources


def default_dict():
    f = resources.files("explorer.games.dagger") / "maps" / "default.toml"
    return read_toml("default.toml", text=f.read_text(encoding="utf-8"))["map"]


def test_default_map_follows_the_rulebook():
    m = load_map()
    assert m.bases == FIXED_BASES
    assert m.asgard == "Asgard" and m.asgard not in m.bases and m.bifrost == "Asgard"
    assert "stand-in" in m.title.lower() or "stand-in" in m.note.lower()
    numbered = [s for s in m.spaces if s.number is not None]
    assert numbered and all(s.name not in m.bases for s in numbered)
    assert len({s.region for s in m.spaces}) == len(m.regions)


def test_distances_and_steps_use_the_lines():
    m = load_map()
    assert m.distance("New York", "New York") == 0
    assert m.distance("New York", "Atlantis") == 2                      # via Bermuda
    assert m.distance("Asgard", "London") == 2                          # via Oslo
    assert m.steps_toward("Oslo", "Wakanda") == ("Siberia",)            # Oslo-Siberia-Mumbai-Wakanda
    assert set(m.steps_toward("Atlantis", "New York")) == {"Bermuda"}
    for a in m.names:
        for b in m.names:
            for n in m.steps_toward(a, b):
                assert m.distance(n, b) == m.distance(a, b) - 1


def test_nearby_excludes_a_space_itself_unless_asked():
    m = load_map()
    assert "Cairo" not in m.nearby_spaces("Cairo", include_self=False)
    assert m.nearby_spaces("Cairo", include_self=True)[0] == "Cairo"
    assert set(m.nearby_spaces("Cairo", include_self=False)) == {"Latveria", "Wakanda", "Mumbai"}


def test_nearest_operational_base_prefers_the_region_and_lists_ties():
    m = load_map()
    all_ops = {"New York": "New York", "Atlantis": "Atlantis", "Madripoor": "Madripoor", "Wakanda": "Wakanda",
               "Iliad": "London"}
    # Siberia (asia): Madripoor is in the region, 2 lines away
    n = nearest_operational_bases(m, "Siberia", all_ops)
    assert (n.distance, n.bases, n.scope) == (2, ("Madripoor",), "region")
    # Atlantis overrun: from Atlantis no base in the atlantic region -> New York and the Iliad (London) tie at 2
    ops = {k: v for k, v in all_ops.items() if k != "Atlantis"}
    n = nearest_operational_bases(m, "Atlantis", ops)
    assert (n.distance, n.bases, n.scope) == (2, ("New York", "Iliad"), "anywhere")
    assert nearest_operational_bases(m, "Cairo", {}) is None


def test_region_distance_within_region_ignores_routes_leaving_the_region():
    d = default_dict()
    d["links"] = [x for x in d["links"] if x not in ("Tokyo|Siberia", "Mumbai|Siberia")]
    m = map_from_dict(d, "t")
    ops = {"Madripoor": "Madripoor", "Wakanda": "Wakanda"}
    # Siberia's only lines leave Asia: within the region Madripoor is unreachable, so the nearest anywhere counts
    assert nearest_operational_bases(m, "Siberia", ops, "within_region").scope == "anywhere"
    assert nearest_operational_bases(m, "Siberia", ops, "whole_map").scope == "region"


@pytest.mark.parametrize("edit, match", [
    (lambda d: d["links"].append("New York|Gotham"), r"map\.links\[\d+\]': line Gotham\|New York names unknown space 'Gotham'"),
    (lambda d: d["links"].append("Cairo|Cairo"), r"joins a space to itself"),
    (lambda d: d["links"].append("Washington|New York"), r"is listed twice"),
    (lambda d: d["spaces"].append(dict(d["spaces"][1])), r"map\.spaces\[\d+\]\.name': duplicate space 'Toronto'"),
    (lambda d: d["bases"].append("Gotham"), r"map\.bases\[4\]': base 'Gotham' is not a space"),
    (lambda d: d["bases"].append("Asgard"), r"Asgard \('Asgard'\) is listed as a base"),
    (lambda d: d.update(asgard="Valhalla"), r"map\.asgard': Asgard 'Valhalla' is not a space"),
    (lambda d: d["spaces"][0].update(region="mars"), r"map\.spaces\[0\]\.region': space 'New York' is in unknown region"),
    (lambda d: d["spaces"][2].update(number=1), r"number 1 is on 'Toronto' and 'Washington'"),
    (lambda d: d["regions"].append({"name": "europe"}), r"duplicate region 'europe'"),
    (lambda d: d["links"].remove("New Mexico|Asgard") or d["links"].remove("Asgard|Oslo"), r"'Asgard' cannot be reached"),
    (lambda d: d["links"].append("New York-Cairo"), r"is not two space names joined by '\|'"),
    (lambda d: d.update(colour="red"), r"map\.colour': unknown field"),
    (lambda d: d["spaces"][0].update(x=5000), r"map\.spaces\[0\]\.x'.*too large \(allowed: 0 to 2000\)"),
])
def test_malformed_maps_give_one_line_errors(edit, match):
    d = copy.deepcopy(default_dict())
    edit(d)
    with pytest.raises(ScenarioError, match=match) as e:
        map_from_dict(d, "my-map.toml")
    assert "\n" not in str(e.value) and str(e.value).startswith("my-map.toml: field")


def test_map_file_round_trip(tmp_path):
    f = resources.files("explorer.games.dagger") / "maps" / "default.toml"
    p = tmp_path / "m.toml"
    p.write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_map_file(p) == load_map("default")
    (tmp_path / "bad.toml").write_text("title = 'x'\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"field 'map': is required but missing"):
        load_map_file(tmp_path / "bad.toml")
    with pytest.raises(ScenarioError, match=r"unknown built-in map 'nope'"):
        load_map("nope")
