"""The Face to Face view on a whole exchange: several Reactive Miners, a split Burst, the board's facts."""

from explorer.games.tagraid.board_roll import board_roll, resolve_board_roll
from explorer.games.tagraid.table_file import load_packaged_table
from explorer.games.tagraid.views import (FaceToFaceExplorer, _set_die_in, exchange_headline, exchange_tray_model,
                                          fits_form)
from explorer.games.tagraid.model import parse_scenario


def _quarry():
    lt = load_packaged_table("lof-quarry")
    return board_roll(lt.table, "Cutter", ["Spotter", "Digger"], rulings=lt.rulings, weapon=lt.weapon,
                      threat=lt.threat, calibration=lt.range_calibration)


def test_split_burst_and_several_reactive_miners_are_shown_with_the_board_facts():
    br = _quarry()
    w = FaceToFaceExplorer()
    w.load_document(dict(br.document), "board", board_facts=[f.to_dict() for f in br.facts])
    assert w.exchange is not None and w.message.value == ""
    res = resolve_board_roll(br)
    # the view resolves what the engine resolves (same seed, same dice): the same pairs and outcome
    assert w.resolution.trace.outcome == res.trace.outcome
    rows = w.tray.state.rows
    assert [r.id for r in rows if r.id] == [m.letter for m in res.miners.values()]
    assert len(res.miners) >= 4  # the Active Miner, two targets and at least one more ARO
    a_row = rows[0]
    assert len(a_row.dice) == 3 and sum("→ Spotter" in d.caption for d in a_row.dice) == 2
    assert "Digger" in a_row.dice[2].caption
    # the board facts: listed above the inputs with their sections, and first in the cited steps
    assert "From the board" in w.board_html.value and "Range Ruler" in w.board_html.value
    steps = w.stepper.trace.steps
    assert steps[0].section == "From the board" and len([s for s in steps if s.section == "From the board"]) \
        == len(br.facts)
    for line in exchange_headline(w.resolution)[:-1]:
        assert line in w.summary.value.replace("&#x27;", "'")


def test_a_click_on_any_die_of_the_exchange_sets_it():
    br = _quarry()
    w = FaceToFaceExplorer()
    w.load_document(dict(br.document), "board")
    w.set_die("A.3", 1)  # the Digger share's die
    assert w.exchange["active"]["attacks"][1]["dice"] == [1]
    assert [d.face for d in w.resolution.active.pools[1].dice] == [1]
    w.set_die("C.1", 20)
    assert w.resolution.miner("C").dice[0].face == 20
    w.set_die("Z.1", 3)
    assert "no die" in w.message.value


def test_set_die_in_counts_the_active_dice_across_attack_shares():
    doc = {"active": {"name": "A", "attacks": [{"target": "B", "dice": [1, 2]}, {"target": "C", "dice": [3]}]},
           "reactive": [{"name": "B", "dice": [4], "save_dice": [5, 6]}, {"name": "C", "dice": [7]}]}
    assert _set_die_in(doc, "A.3", 9)["active"]["attacks"][1]["dice"] == [9]
    assert _set_die_in(doc, "B.s2", 9)["reactive"][0]["save_dice"] == [5, 9]
    assert _set_die_in(doc, "C.1", 9)["reactive"][1]["dice"] == [9]
    assert _set_die_in(doc, "A.4", 9) is None and _set_die_in(doc, "D.1", 9) is None
    assert doc["active"]["attacks"][1]["dice"] == [3]  # pure


def test_one_on_one_board_exchange_opens_in_the_form_with_its_range_mod():
    lt = load_packaged_table("tr-22")
    br = board_roll(lt.table, "A", ["B"], rulings=lt.rulings, calibration=lt.range_calibration)
    assert fits_form(parse_scenario(br.document, "t"))
    w = FaceToFaceExplorer()
    w.load_document(dict(br.document), "board", board_facts=[f.to_dict() for f in br.facts])
    assert w.exchange is None and w.form_a.read("A", []).mods["Range"] == 3
    assert w.stepper.trace.steps[0].section == "From the board"
    assert w.odds is not None  # the odds of a one-on-one exchange are drawn


def test_back_to_the_form_keeps_the_first_pair():
    br = _quarry()
    w = FaceToFaceExplorer()
    w.load_document(dict(br.document), "board")
    w._leave_exchange()
    assert w.exchange is None and w.message.value == ""
    assert w.inputs[0].name == "Cutter" and w.inputs[1].name == "Spotter"


def test_tray_model_is_pure_and_names_every_miner():
    br = _quarry()
    res = resolve_board_roll(br)
    rows, links = exchange_tray_model(res, br.document)
    names = [r.label for r in rows]
    assert names[0] == "A · Cutter" and "B · Spotter" in names and "C · Digger" in names
    ids = {d.id for r in rows for d in r.dice}
    assert all(l.src in ids and l.dst in ids for l in links)


def test_line_of_fire_targets_give_the_same_facts_as_the_command_line():
    """Targets picked on the Line of Fire explorer: the link's exchange is the one `explorer resolve TABLE --shooter
    --target` resolves (the explorer's cached verdicts and a fresh computation agree)."""
    from explorer.games import load_any
    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.urlstate import decode_state

    w = LofExplorer()
    w.pick_mode.value = "target"
    w._on_select("Spotter")
    w._on_select("Digger")
    assert w.targets == ["Spotter", "Digger"] and "lof-f2f-link" in w.f2f_html.value
    href = w.f2f_html.value.split("href='", 1)[1].split("'", 1)[0]
    assert href.startswith("./tagraid-face-to-face?s=")
    state = decode_state(href.split("?s=", 1)[1])
    game, sc = load_any("explorer/games/tagraid/tables/lof-quarry.toml")
    trace = game.resolve(sc.with_question("Cutter", ["Spotter", "Digger"]))
    board = [s for s in trace.steps if s.section == "From the board"]
    assert [f["title"] for f in state["board"]["facts"]] == [s.title for s in board]
    f2f = FaceToFaceExplorer()
    f2f.load_url_state(state)
    assert f2f.resolution.trace.outcome == trace.outcome
    # a second click drops a target; a friendly Miner is refused in words
    w._on_select("Digger")
    assert w.targets == ["Spotter"]
    w._on_select("Driller")
    assert "not an enemy Miner" in w.f2f_html.value and "lof-f2f-link" not in w.f2f_html.value
    # picking another shooter keeps the targets that are still its enemies: Runner (side B) drops Spotter (side B)
    # and keeps Driller (side A)
    w.pick_mode.value = "shooter"
    w._on_select("Runner")
    assert w.shooter == "Runner" and w.targets == ["Driller"] and "lof-f2f-link" in w.f2f_html.value


def test_the_line_of_fire_link_keeps_the_targets():
    import pytest

    from explorer.errors import ScenarioError
    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.urlstate import decode_state, encode_state

    w = LofExplorer()
    w.set_targets(["Spotter", "Digger"])
    state = decode_state(encode_state(w.url_state()))
    assert state["targets"] == ["Spotter", "Digger"]
    again = LofExplorer()
    again.load_url_state(state)
    assert again.targets == ["Spotter", "Digger"] and again.f2f_html.value == w.f2f_html.value
    other = LofExplorer()
    other.set_shooter("Digger")
    before = other.url_state()
    with pytest.raises(ScenarioError, match="no target"):
        other.load_url_state({**state, "targets": ["Nobody"]})
    assert other.url_state() == before  # a bad link changes nothing
    with pytest.raises(ScenarioError, match="targets"):
        LofExplorer().load_url_state({**state, "targets": "Spotter"})


def test_an_attack_without_the_lof_symbol_keeps_it_on_the_roll_page():
    """TR-15 (issue 22, item 2) on the Face to Face page: the two-Miner form has no field for a Tool card without the
    LoF symbol, so the page shows the whole exchange and keeps ``needs_lof = false``. Before, the form dropped it: the
    target got Partial Cover (-3 to the roll, Attack Damage 7) and lost no Wound, the wrong answer of the case."""
    from explorer.games.tagraid.scenarios import load_scenario
    from explorer.games.tagraid.views import explorer_for_scenario

    sc = load_scenario("tr-15")
    assert not fits_form(sc)
    sc.active.weapon.needs_lof = True
    assert fits_form(sc)  # the same exchange with the symbol fits the form
    w = explorer_for_scenario("tr-15")
    assert w.exchange is not None and w.scenario_document()["active"]["weapon"]["needs_lof"] is False
    (pair,) = w.resolution.outcome.pairs
    ad = pair.attack_damage["A"]
    assert (ad.value, ad.partial_cover, pair.a.sv.value) == (10, False, 12)
    assert w.resolution.outcome.wounds["T"] == 1
    assert "needs_lof = false" in w.to_toml()
