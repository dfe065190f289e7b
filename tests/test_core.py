"""Core modules: dice rollers, traces, ruling options, scenario validation."""

import pytest
from pydantic import BaseModel, ConfigDict, Field

from explorer.dice import ScriptedRoller, SeededRoller
from explorer.errors import DiceScriptExhausted, ScenarioError
from explorer.options import RulingOption, Rulings
from explorer.scenario import read_toml, validate
from explorer.trace import RuleRef, Trace


def test_seeded_roller_repeats():
    a, b = SeededRoller(7), SeededRoller(7)
    rolls = [a.roll(20) for _ in range(50)]
    assert rolls == [b.roll(20) for _ in range(50)]
    assert all(1 <= r <= 20 for r in rolls) and len(set(rolls)) > 5


def test_scripted_roller_runs_out_with_named_die():
    r = ScriptedRoller([3, 4])
    assert r.roll(20, "x") == 3 and r.roll(20, "y") == 4
    with pytest.raises(DiceScriptExhausted, match="2 value.*3rd die.*'B die 1'"):
        r.roll(20, "B die 1")


@pytest.mark.parametrize("bad", [0, 21, 2.5, "7", True])
def test_scripted_roller_rejects_non_faces(bad):
    with pytest.raises(ScenarioError, match=r"dice\[1\]"):
        ScriptedRoller([1, bad])


def test_trace_renders_sections_rules_and_rulings():
    t = Trace("demo", rulings={"sv_above_20": "literal"})
    t.add("first", RuleRef("G", "Rolls"), "why", section="S1", sv=3)
    t.add("second", RuleRef("G", "Damage"), section="S2")
    text = t.to_text()
    assert "## S1" in text and "[G: Damage]" in text and "sv_above_20 = literal" in text
    d = t.to_dict()
    assert d["steps"][0]["facts"] == {"sv": 3} and d["steps"][0]["rule"]["section"] == "Rolls"
    assert t.sections() == ["S1", "S2"]


def test_rulings_record_consultation_and_reject_unknown():
    opt = RulingOption("k", "K?", "Sec", {"a": "A", "b": "B"}, "a")
    r = Rulings([opt])
    assert r.consulted == {}
    assert r.reading("k") == "a" and r.consulted == {"k": "a"}
    with pytest.raises(ScenarioError, match="rulings.k.*allowed: one of 'a', 'b'"):
        r.set("k", "c")
    with pytest.raises(ScenarioError, match="unknown ruling option"):
        Rulings([opt], {"zz": "a"})


class _Side(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sv: int
    burst: int = Field(ge=0, le=20)


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid")
    active: _Side


def test_validate_names_field_path_and_allowed():
    with pytest.raises(ScenarioError, match=r"field 'active.burst'.*too small \(allowed: 0 to 20\)"):
        validate(_Doc, {"active": {"sv": 3, "burst": -1}})
    with pytest.raises(ScenarioError, match=r"field 'active.sv'.*whole number"):
        validate(_Doc, {"active": {"sv": "twelve", "burst": 1}})
    with pytest.raises(ScenarioError, match=r"field 'active.brust': unknown field.*'sv', 'burst'"):
        validate(_Doc, {"active": {"sv": 3, "burst": 1, "brust": 2}})


def test_read_toml_errors_name_the_file(tmp_path):
    with pytest.raises(ScenarioError, match="file not found"):
        read_toml(tmp_path / "nope.toml")
    p = tmp_path / "bad.toml"
    p.write_text("a = [")
    with pytest.raises(ScenarioError, match="bad.toml.*not valid TOML"):
        read_toml(p)


def test_read_toml_not_utf8_is_a_scenario_error(tmp_path):
    p = tmp_path / "b.toml"
    p.write_bytes(b"\xff\xfe garbage")
    with pytest.raises(ScenarioError, match=r"b.toml.*not UTF-8 text"):
        read_toml(p)


def test_resolve_of_a_non_utf8_file_is_one_line_exit_2(tmp_path, capsys):
    from explorer.cli import main

    p = tmp_path / "b.toml"
    p.write_bytes(b"\xff\xfe garbage")
    assert main(["resolve", str(p)]) == 2
    err = capsys.readouterr().err
    assert "not UTF-8 text" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
