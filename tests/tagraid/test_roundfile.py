"""Round files (explorer.games.tagraid.orders.roundfile, ``kind = "round"``): a Game Round as a shareable record,
replayed from its initial table and declarations; the loading gate's one-line errors naming file and field; the
CLI; the built-in round and its golden trace."""

import copy
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer import tomlwrite as tomli_w
from explorer.cli import main
from explorer.errors import ScenarioError
from explorer.scenario import toml_key
from explorer.games import get_game, load_any
from explorer.games.tagraid.orders.declarations import IllegalDeclaration
from explorer.games.tagraid.orders.round import play_round, round_trace
from explorer.games.tagraid.orders.roundfile import MAX_ROUND_ORDERS, parse_round, resolve_round

G = get_game("tagraid")
GOLDEN = Path(__file__).parent / "golden"
NAME = "tr-round-stoorworm"


def _doc() -> dict:
    text = (resources.files("explorer.games.tagraid") / "scenarios" / f"{NAME}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def test_builtin_round_golden_and_cited():
    sc = G.load_builtin(NAME)
    t = G.resolve(sc)
    assert all(s.rule.game == "TAG Raid" and s.rule.section for s in t.steps)
    o = t.outcome
    assert o["over"] and o["winner"] == "blue" and o["orders_played"] == 3
    assert o["events_drawn"] == ["Electromagnetic storm"] and o["t_bezoar"]["blue"] == 1
    # the readings every Order consulted are reported
    assert t.rulings["teseum_per_wound"] == "every_point" and "megabeast_facing_tie" in t.rulings


@pytest.mark.parametrize("name", [s.name for s in G.scenarios() if s.kind == "round"])
def test_golden_round_traces(name):
    from explorer.games.tagraid.game import outcome_text

    t = G.resolve(G.load_builtin(name))
    check_golden(GOLDEN, name, trace_text(t) + "\n" + outcome_text(t) + "\n")
    assert all(s.rule.game == "TAG Raid" and s.rule.section for s in t.steps)


def test_round_file_replays_what_the_engine_plays_from_python():
    """The round file is the same Round as test_orders_round's hand-built one: same steps, same outcome."""
    from test_orders_round import _setup

    _, rs, decl = _setup()
    by_hand = round_trace("by hand", play_round(rs, decl))
    from_file = G.resolve(G.load_builtin(NAME))
    assert [s.title for s in from_file.steps] == [s.title for s in by_hand.steps]
    assert from_file.outcome == by_hand.outcome


def test_replay_is_identical():
    sc = parse_round({k: v for k, v in _doc().items() if k != "game"}, "t.toml")
    a = play_round(sc.initial, sc.declarations)
    b = play_round(sc.initial, sc.declarations)
    assert a[-1].state == b[-1].state


def test_cli_resolve_prints_the_rounds_cited_trace(capsys, tmp_path):
    p = tmp_path / "my-round.toml"
    p.write_text(tomli_w.dumps(_doc()), encoding="utf-8")
    code = main(["resolve", str(p)])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "[TAG Raid: MegaBeast › Deployment and Movement Type]" in out
    assert "## 2 Players Phase › blue › Order 1 › 5 Resolution" in out
    assert "Outcome of Round 1:" in out and "The match ends: blue wins" in out


def _err(mutate, tmp_path):
    doc = _doc()
    mutate(doc)
    p = tmp_path / "bad-round.toml"
    p.write_text(tomli_w.dumps(doc), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        game, sc = load_any(str(p))
        game.resolve(sc)
    msg = str(e.value)
    assert "\n" not in msg and "bad-round.toml" in msg
    return e.value


def _set(path, value):
    def f(doc):
        d = doc
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return f


@pytest.mark.parametrize("mutate,field,words", [
    (_set(["events", 0, "behavior", "front"], 99), "events[0].behavior.front", "20"),
    (_set(["events", 0, "name"], ""), "events[0].name", ""),
    (_set(["orders", 0, "move", "route"], ["x,y"]), "orders[0].move.route[0]", ""),
    (_set(["orders", 1, "dice"], {"rolls": {"Active TAG": [21]}}), 'orders[1].dice.rolls."Active TAG"[0]', "20"),
    (_set(["orders", 1, "teleport"], True), "orders[1]", "unknown field"),
    (_set(["t_bezoar"], {"purple": 1}), "t_bezoar.purple", "not a side"),
    (_set(["round"], 0), "round", "1"),
    (_set(["deployment", "hex"], "0,0"), "deployment.hex", "Interior"),
    (lambda d: d.pop("deployment"), "deployment", "must deploy"),
    (lambda d: d["megabeast"].__setitem__("hex", "2,1"), "deployment", "no MegaBeast waiting"),
    (_set(["orders", 2, "active"], "Nobody"), "orders[2].active", "no Miner"),
    (lambda d: d["orders"].reverse(), "orders[1].active", "Timeline"),
    (_set(["orders", 0, "move", "route"], ["1,-2"]), "orders[0].move.route", "Segment"),
    (lambda d: d.__setitem__("orders", d["orders"] * 11), "orders", f"at most {MAX_ROUND_ORDERS}"),
])
def test_malformed_round_file_names_file_and_field(tmp_path, mutate, field, words):
    e = _err(mutate, tmp_path)
    assert e.field.startswith(field), (e.field, str(e))
    assert words in str(e)


def test_illegal_declaration_names_the_order_and_section(tmp_path):
    e = _err(_set(["orders", 2, "aros"], [{"miner": "Reactive TAG", "skill": "idle"}]), tmp_path)
    assert isinstance(e, IllegalDeclaration) and e.field.startswith("orders[2]")
    assert e.rejection.step.startswith("Order 3 › ") and e.rejection.rule.section


def test_seed_rerolls_only_dice_not_given():
    sc = G.load_builtin(NAME)
    a = resolve_round(sc, seed=99)
    b = resolve_round(sc, seed=99)
    base = resolve_round(sc)
    assert a.to_text() == b.to_text()
    # the first Order's dice are fixed by the file: its Face to Face Rolls do not change
    pick = [s.title for s in base.steps if "Order 1 › 5 Resolution" in s.section]
    assert pick == [s.title for s in a.steps if "Order 1 › 5 Resolution" in s.section]


def test_rulings_override():
    sc = G.load_builtin(NAME)
    t = resolve_round(sc, rulings={"teseum_per_wound": "on_death"})
    assert t.rulings["teseum_per_wound"] == "on_death"
    assert copy.deepcopy(t.outcome)["units"]["red"] == 0  # no Teseum for a Wound that kills nobody


@pytest.mark.parametrize("name", [s.name for s in G.scenarios() if s.kind in ("order", "round")])
def test_each_death_has_one_respawn_step_and_it_is_the_boards(name):
    """In an Order the board decides Respawn (a free Access Point, or none): the roll resolver's generic
    "X Respawns" is not repeated there, so the trace never says a Miner Respawns and then that it cannot."""
    from explorer.games.tagraid import sections as S

    t = G.resolve(G.load_builtin(name))
    respawns = [s.title for s in t.steps if s.rule == S.RESPAWN]
    deaths = [s for s in t.steps if s.rule == S.DEATH and " dies: removed from the table" in s.title]
    assert len(respawns) == len(deaths)
    assert all(" Respawns at Access Point " in r or " cannot Respawn: " in r for r in respawns), respawns


@pytest.mark.parametrize("timeline,words", [
    (["blue", "green"], "leaves out 'red', the side of Reactive TAG"),          # a red Miner outside the Timeline
    (["blue", "red", "green", "blue"], "names 'blue' twice"),
    (["blue", "red", "green", "purple"], "names 'purple', a side no Miner has"),
])
def test_a_timeline_that_does_not_line_up_every_side_is_a_one_line_error(tmp_path, timeline, words):
    """The Timeline lines up every Mining Corporation once (Game Sequence › Timeline): a round file's ``timeline``
    that leaves a Miner's side out (it was completed silently), names a side twice or names a side without Miners is
    refused, naming the file and the field (newcomer finding: ``timeline = ["blue"]`` with a red Miner)."""
    e = _err(_set(["timeline"], timeline), tmp_path)
    assert e.field == "timeline" and words in str(e) and str(tmp_path) in str(e) and "\n" not in str(e)
    assert "'blue', 'red', 'green'" in str(e)


def test_a_round_without_event_cards_is_a_game_without_an_event_deck():
    """No [[events]]: the Event step draws nothing and says so, and the End of Match check does not claim that "the
    last Event card has been drawn": without an Event Deck only the MegaBeast's death or 15 Neomaterial Units end
    the match (Victory Conditions). The match goes on to Round 2."""
    d = _doc()
    d.pop("game"), d.pop("events")
    d["megabeast"]["hex"] = d.pop("deployment")["hex"]  # deployed from the start (no card brings it)
    d["megabeast"]["facing"] = 210.0
    t = resolve_round(parse_round(d, "r.toml"))
    titles = [s.title for s in t.steps]
    assert "No Event Deck: no Event card is drawn" in titles
    assert not any("last Event card" in x for x in titles)
    end = next(s for s in t.steps if s.title.startswith("End of Match checks"))
    assert end.title == "End of Match checks: none is met" and end.facts["event_deck"] is False
    o = t.outcome
    assert not o["over"] and o["round"] == 1 and o["next_round"] == 2 and o["event_deck"] is False
    from explorer.games.tagraid.orders.roundfile import round_outcome_text
    assert "Round 2 begins (no Event Deck)" in round_outcome_text(t.result)


def test_the_round_builtins_report_the_same_outcome_fields():
    """Every round built-in has the same outcome keys, and ``round`` is the Round played in all of them (it was the
    next Round's number when the match went on, the Round played when it ended)."""
    outs = {s.name: G.resolve(G.load_builtin(s.name)).outcome for s in G.scenarios() if s.kind == "round"}
    assert len(outs) >= 2
    keys = {n: set(o) for n, o in outs.items()}
    assert len({frozenset(k) for k in keys.values()}) == 1, keys
    for n, o in outs.items():
        sc = G.load_builtin(n)
        assert o["round"] == sc.initial.round, n
        assert o["next_round"] == (None if o["over"] else o["round"] + 1), n


def test_fixed_dice_that_do_not_fit_name_the_round_file_and_its_field(tmp_path):
    """Too few fixed dice for an Order's attack: the message named "the Order's roll exchange" and the internal
    roll-scenario field ``active.attacks[0].dice``; it names the file and ``orders[i].dice.rolls.<Miner>``."""
    d = _doc()
    i, od = next((i, o) for i, o in enumerate(d["orders"]) if o.get("dice", {}).get("rolls"))
    who = next(iter(od["dice"]["rolls"]))
    e = _err(_set(["orders", i, "dice", "rolls", who], [5]), tmp_path)
    assert e.field == f"orders[{i}].dice.rolls.{toml_key(who)}", str(e)
    assert "roll exchange" not in str(e) and "exactly" in str(e)
