from explorer.games.tagraid.resolve import resolve
from explorer.games.tagraid.scenarios import DEFAULT_SCENARIO, load_scenario


def test_default_scenario_resolves_book_1v1():
    t = resolve(load_scenario(DEFAULT_SCENARIO))
    pair = t.outcome["pairs"][0]
    assert pair["winner"] == "Tāfāng" and pair["kind"] == "face_to_face"
    assert t.outcome["saving_rolls"] == {"StoneBreaker": 1}
