"""The Orders page's link round-trips exactly (issue 22): a state written to the URL, read back by a fresh page,
writes the same state and shows the same controls. The ARO row's "at its right" stays "at its right" (it became
"step 2" through the link: the page wrote the step it played, not the one declared)."""

from __future__ import annotations

import copy
import tomllib

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from explorer.games.tagraid.orders_views import OrderStepper, builtin_document, order_scenarios
from explorer.games.tagraid.orders.sequence import STEPS
from explorer.urlstate import decode_state, encode_state

ORDERS = [n for n in ("tr-16-order", "tr-18-order", "book-oes-order", "tr-order-range", "tr-20-order")
          if n in order_scenarios()]
_PAGES: dict[tuple[str, int], OrderStepper] = {}


def _page(name: str, which: int = 0) -> OrderStepper:
    """One page per scenario and role (0: the page written, 1: the page reading the link), reset by loading its
    built-in (pages are slow to build)."""
    if (name, which) not in _PAGES:
        _PAGES[name, which] = OrderStepper(name)
    w = _PAGES[name, which]
    w.load_url_state({"scenario": name, "step": 0})
    return w


def _controls(w: OrderStepper) -> dict:
    """What the ARO rows and the second Skill show: values and which controls are disabled, and the order of the
    declared rows (the undeclared ones follow in Timeline order, wherever the user left them)."""
    return {"rows": {m: (r.skill.value, r.weapon.value, r.step.value, r.weapon.disabled, r.step.disabled)
                     for m, r in w.aro_rows.items()},
            "declared order": [m for m, r in w.aro_rows.items() if r.skill.value],
            "second": (w.second_skill.value, w.second_weapon.value, w.targets.value, w.second_weapon.disabled,
                       w.targets.disabled)}


def _through_the_url(w: OrderStepper, other: str) -> OrderStepper:
    v = _page(other, 1)
    v.load_url_state(decode_state(encode_state(copy.deepcopy(w.url_state()))))
    return v


def test_at_its_right_stays_at_its_right():
    w = _page("tr-16-order")
    row = next(iter(w.aro_rows.values()))
    row.skill.value = "idle"
    row.step.value = 0
    assert w.url_state()["order"]["aros"] and all("step" not in a for a in w.url_state()["order"]["aros"]
                                                  if a["miner"] == row.miner)
    v = _through_the_url(w, "tr-18-order")
    assert v.aro_rows[row.miner].step.value == 0 and v.aro_rows[row.miner].step.label == "at its right"
    assert v.url_state() == w.url_state()


@settings(max_examples=12, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(data=st.data())
def test_link_round_trips_every_state_field(data):
    """Property: for any row Skill / Weapon / step, step shown and seed, the link read back by another page gives
    the same link, the same controls and the same Order played."""
    name = data.draw(st.sampled_from(ORDERS), label="scenario")
    w = _page(name)
    w._loading = True
    try:
        # edits as a user makes them: any control that is enabled, in any order (a Skill set after its Weapon
        # and step included: the row then empties what the new Skill does not use)
        for _ in range(data.draw(st.integers(0, 3 * len(w.aro_rows)), label="edits")):
            r = data.draw(st.sampled_from(list(w.aro_rows.values())), label="row")
            c = data.draw(st.sampled_from([c for c in (r.skill, r.weapon, r.step) if not c.disabled]), label="which")
            c.value = data.draw(st.sampled_from([v for _, v in c.options]), label=f"{r.miner} value")
        w.seed.value = data.draw(st.integers(0, 10**6), label="seed")
    finally:
        w._loading = False
    for r in w.aro_rows.values():   # what the page shows is what the row declares
        assert r.weapon.disabled == (r.skill.value not in ("ranged_attack", "close_combat_attack"))
        assert r.step.disabled == (not r.skill.value)
        assert r.skill.value or (r.weapon.value, r.step.value) == ("", 0)
    w._on_dice()
    w.replay()
    w.show(data.draw(st.integers(0, len(STEPS)), label="step"))
    before = w.url_state()
    v = _through_the_url(w, data.draw(st.sampled_from(ORDERS), label="other page"))
    assert v.url_state() == before
    assert _controls(v) == _controls(w)
    assert v.position == w.position and v.decl == w.decl and v.dice.seed == w.dice.seed
    # the link's JSON sorts table keys: the fixed dice are the same per Miner (their order means nothing)
    assert (dict(v.dice.rolls), dict(v.dice.saves), v.dice.respawn) == (dict(w.dice.rolls), dict(w.dice.saves),
                                                                        w.dice.respawn)
    assert (v.rejection is None) == (w.rejection is None)
    # the table's geometry compares by identity (a replay shares its initial state's): compare what was played
    assert [s.title for f in v.frames for s in f.steps] == [s.title for f in w.frames for s in f.steps]


def _open_with_aros(w: OrderStepper, name: str, aros: list[dict]) -> None:
    w.load_url_state({"scenario": name, "order": {**builtin_document(name)["order"], "aros": aros}, "step": 0})


def test_aros_are_listed_in_the_order_declared_and_the_link_keeps_it():
    """A file declaring C's ARO before B's: the rows list C then B (they listed B then C, the Timeline order, and
    the link and Download wrote them back reordered, so the link named ``order.aros[0]`` for another Miner)."""
    w = _page("tr-16-order")
    assert list(w.aro_rows) == ["B", "C"]                      # the built-in declares B then C
    aros = [{"miner": "C", "skill": "ranged_attack", "weapon": "Rifle"},
            {"miner": "B", "skill": "ranged_attack", "weapon": "Rifle"}]
    _open_with_aros(w, "tr-16-order", aros)
    assert list(w.aro_rows) == ["C", "B"]
    assert [a.miner for a in w.decl.aros] == ["C", "B"]
    assert w.url_state()["order"]["aros"] == aros
    assert [a["miner"] for a in tomllib.loads(w.to_toml())["order"]["aros"]] == ["C", "B"]   # the Download too
    v = _through_the_url(w, "tr-18-order")
    assert list(v.aro_rows) == ["C", "B"] and v.url_state() == w.url_state()
    # an enemy declaring nothing comes after the declared ones; declaring it puts it last in the link too
    _open_with_aros(w, "tr-16-order", aros[1:])
    assert list(w.aro_rows) == ["B", "C"]
    w.aro_rows["C"].skill.value = "idle"
    assert [a["miner"] for a in w.url_state()["order"]["aros"]] == ["B", "C"]


@settings(max_examples=10, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(data=st.data())
def test_any_declared_order_round_trips(data):
    """Property: any subset of the enemies, declared in any order, is listed in that order (the rest after, in
    Timeline order), played in that order and written back in it; the link read back gives the same."""
    name = data.draw(st.sampled_from(["tr-16-order", "book-evade-order", "tr-order-range"]), label="scenario")
    w = _page(name)
    enemies = list(w.aro_rows)
    chosen = data.draw(st.permutations(enemies), label="order")[:data.draw(st.integers(0, len(enemies)), label="n")]
    aros = [{"miner": m, "skill": data.draw(st.sampled_from(["idle", "evade", "none"]), label=m)} for m in chosen]
    _open_with_aros(w, name, aros)
    assert list(w.aro_rows) == chosen + [m for m in enemies if m not in chosen]
    assert [a.miner for a in w.decl.aros] == chosen
    assert w.url_state()["order"].get("aros", []) == aros
    v = _through_the_url(w, "tr-18-order")
    assert v.url_state() == w.url_state() and list(v.aro_rows) == list(w.aro_rows)


def test_a_skill_without_a_weapon_empties_and_disables_the_weapon():
    """Skill "— not declared" kept the Weapon (and step) on screen while the link dropped the row: a fresh page
    from the link showed "(first)". Now the row empties and disables what its Skill does not use."""
    w = _page("tr-16-order")
    r = w.aro_rows["B"]
    assert not r.weapon.disabled and r.weapon.value == "Rifle" and not r.step.disabled
    r.step.value = 2
    r.skill.value = ""
    assert (r.weapon.value, r.step.value, r.weapon.disabled, r.step.disabled) == ("", 0, True, True)
    assert [a["miner"] for a in w.url_state()["order"]["aros"]] == ["C"]
    v = _through_the_url(w, "tr-18-order")
    assert _controls(v) == _controls(w) and v.url_state() == w.url_state()
    r.skill.value = "ranged_attack"                      # an Attack again: Weapon back, at "(first)"
    assert not r.weapon.disabled and r.weapon.value == "" and not r.step.disabled
    r.weapon.value, r.step.value = "Rifle", 4
    r.skill.value = "evade"                              # Evade uses no Weapon: emptied; the step stays
    assert (r.weapon.value, r.weapon.disabled, r.step.disabled) == ("", True, False)
    assert next(a for a in w.url_state()["order"]["aros"] if a["miner"] == "B") == {"miner": "B", "skill": "evade",
                                                                                    "step": 4}
    v = _through_the_url(w, "tr-18-order")
    assert _controls(v) == _controls(w) and v.url_state() == w.url_state()
    assert not any("Evade as ARO with" in s.title for f in w.frames for s in f.steps)


def test_a_second_skill_without_a_weapon_empties_and_disables_weapon_and_targets():
    """The second Skill: Idle or Evade carries no Weapon or targets (the declaration drops them), so the page
    empties and disables them instead of showing what the link does not carry."""
    w = _page("tr-order-range")
    assert (w.second_weapon.value, w.targets.value, w.second_weapon.disabled) == ("Sniper Rifle", "B", False)
    w.second_skill.value = "idle"
    assert (w.second_weapon.value, w.targets.value, w.second_weapon.disabled, w.targets.disabled) == ("", "", True,
                                                                                                        True)
    assert w.url_state()["order"]["second"] == {"skill": "idle"}
    v = _through_the_url(w, "tr-16-order")
    assert _controls(v) == _controls(w) and v.url_state() == w.url_state()
    w.second_skill.value = "ranged_attack"
    assert not w.second_weapon.disabled and not w.targets.disabled
    v = _page("tr-16-order", 1)                          # tr-16-order's second Skill is Evade: disabled when opened
    assert v.second_skill.value == "evade" and v.second_weapon.disabled and v.targets.disabled


def _tr34_answer(w: OrderStepper) -> tuple:
    """What the Order on the page plays to: the Attack Damage steps and the Wounds left (TR-34: A's Attack from the
    gap hits B for Attack Damage 9 and B loses 1 Wound; judged from the end of the Move it is Idle)."""
    ad = [(s.facts["target"], s.facts["attack_damage"]) for f in w.frames for s in f.steps if "attack_damage" in s.facts]
    return w.rejection, ad, {m.id: m.wounds for m in w.frames[-1].state.miners}


TR34_RIGHT = (None, [("B", 9)], {"A": 3, "B": 2})


def test_tr34_edits_keep_the_firing_point_and_the_answer():
    """Issue: typing ``B:3`` in the targets or toggling B's ARO rebuilt the second Skill without ``fire_from``, and
    TR-34 went back to the wrong "Idle" answer. Every such edit keeps it."""
    w = _page("tr-34")
    assert w.decl.second.fire_from == (0.0, 0.0) and w.fire_from.value == "0.0, 0.0" and not w.fire_from.disabled
    assert _tr34_answer(w) == TR34_RIGHT
    w.targets.value = "B:3"
    assert w.decl.second.fire_from == (0.0, 0.0) and _tr34_answer(w) == TR34_RIGHT
    w.second_weapon.value = "Rifle"
    r = w.aro_rows["B"]
    r.skill.value = ""
    r.skill.value = "ranged_attack"
    r.weapon.value = "Rifle"
    assert w.decl.second.fire_from == (0.0, 0.0) and _tr34_answer(w) == TR34_RIGHT
    assert w.url_state()["order"]["second"]["fire_from"] == [0.0, 0.0]
    assert tomllib.loads(w.to_toml())["order"]["second"]["fire_from"] == [0.0, 0.0]   # the Download too


def test_the_fires_from_control_sets_the_firing_point_and_round_trips():
    w = _page("tr-34")
    w.fire_from.value = "1"                              # the end of the Move, behind W2: no LoF to B
    assert w.decl.second.fire_from == 1.0 and _tr34_answer(w) != TR34_RIGHT
    assert _tr34_answer(w)[1] == [("A", 9)]              # A's Attack is Idle: only B's ARO hits (13 - 4)
    w.fire_from.value = "0.5"                            # the middle of the route is the gap (0, 0)
    assert w.decl.second.fire_from == 0.5 and _tr34_answer(w) == TR34_RIGHT
    second = w.url_state()["order"]["second"]
    assert second["fire_from"] == 0.5 and tomllib.loads(w.to_toml())["order"]["second"]["fire_from"] == 0.5
    v = _through_the_url(w, "tr-16-order")
    assert v.decl == w.decl and v.fire_from.value == "0.5" and v.url_state() == w.url_state()
    w.fire_from.value = ""                               # empty: the end of the Move (no fire_from written)
    assert w.decl.second.fire_from is None and "fire_from" not in w.url_state()["order"]["second"]
    for bad in ("1.5", "abc", "1, 2, 3", "nan"):        # refused with the field named, the declaration kept
        w.fire_from.value = bad
        assert "order.second.fire_from" in w.second_error.value and w.decl.second.fire_from is None
    w.fire_from.value = "-0.1, 0.0"                      # a point: kept exactly as typed
    assert w.decl.second.fire_from == (-0.1, 0.0)
    v = _through_the_url(w, "tr-16-order")
    assert v.decl.second.fire_from == (-0.1, 0.0) and v.url_state() == w.url_state()


def test_a_skill_that_is_not_a_ranged_attack_clears_the_firing_point_and_says_so():
    w = _page("tr-34")
    w.second_skill.value = "close_combat_attack"
    assert w.decl.second.fire_from is None and w.fire_from.value == "" and w.fire_from.disabled
    assert "cleared" in w.fire_note.value and "fire_from" not in w.url_state()["order"]["second"]
    w.second_skill.value = "ranged_attack"
    assert not w.fire_from.disabled and w.decl.second.fire_from is None


def test_an_aro_fire_at_is_kept_through_edits_and_cleared_when_not_a_ranged_attack():
    w = _page("tr-34")
    aros = [{"miner": "B", "skill": "ranged_attack", "weapon": "Rifle", "fire_at": 0.5}]
    _open_with_aros(w, "tr-34", aros)
    r = w.aro_rows["B"]
    assert w.decl.aros[0].fire_at == 0.5 and r.fire_at_text.value == "0.5" and not r.fire_at_text.disabled
    w.targets.value = "B:3"
    r.step.value = 2
    w.fire_from.value = "0.5"
    assert w.decl.aros[0].fire_at == 0.5 and w.url_state()["order"]["aros"][0]["fire_at"] == 0.5
    assert tomllib.loads(w.to_toml())["order"]["aros"][0]["fire_at"] == 0.5
    v = _through_the_url(w, "tr-16-order")
    assert v.decl == w.decl and v.url_state() == w.url_state()
    r.skill.value = "dodge" if "dodge" in [o for _, o in r.skill.options] else "idle"
    assert r.fire_at is None and "cleared" in r.note.value and "fire_at" not in w.url_state()["order"]["aros"][0]
    assert r.fire_at_text.value == "" and r.fire_at_text.disabled


def test_the_fired_at_field_edits_the_aro_point_refuses_bad_text_beside_it_and_round_trips():
    """Issue 22 audit item 2: an ARO's ``fire_at`` is edited on the page like the Active Miner's "fires from"."""
    w = _page("tr-34")
    r = w.aro_rows["B"]
    assert r.fire_at is None and r.fire_at_text.value == "" and not r.fire_at_text.disabled
    assert _tr34_answer(w) == TR34_RIGHT                  # empty: fired at A's firing point, the gap
    r.fire_at_text.value = "1"                            # the end of A's Move (the Rifle has no Range MODs)
    assert w.decl.aros[0].fire_at == 1.0 and w.url_state()["order"]["aros"][0]["fire_at"] == 1.0
    assert any(s.facts.get("fire_at") == [2.2, 0.0] for f in w.frames for s in f.steps)   # the trace's point
    r.fire_at_text.value = "0.5"                          # the gap
    assert w.decl.aros[0].fire_at == 0.5 and w.rejection is None and r.error.value == ""
    assert _tr34_answer(w) == TR34_RIGHT
    assert w.url_state()["order"]["aros"][0]["fire_at"] == 0.5
    assert tomllib.loads(w.to_toml())["order"]["aros"][0]["fire_at"] == 0.5      # the Download too
    v = _through_the_url(w, "tr-16-order")
    assert v.decl == w.decl and v.aro_rows["B"].fire_at_text.value == "0.5" and v.url_state() == w.url_state()
    for bad in ("1.5", "-0.2", "abc", "1, 2, 3", "nan", "1e9, 0"):   # refused beside the field, the text kept
        r.fire_at_text.value = bad
        assert "order.aros[0].fire_at" in r.fire_error.value and "fraction 0..1" in r.fire_error.value
        assert r.fire_at_text.value == bad and w.decl.aros[0].fire_at == 0.5
    w.targets.value = "B:3"                               # another edit keeps the declared point
    assert w.decl.aros[0].fire_at == 0.5 and _tr34_answer(w) == TR34_RIGHT
    r.fire_at_text.value = "0.0, 0.0"                     # a point of the route, kept exactly as typed
    assert w.decl.aros[0].fire_at == (0.0, 0.0) and r.fire_error.value == "" and w.rejection is None
    assert w.url_state()["order"]["aros"][0]["fire_at"] == [0.0, 0.0]
    r.fire_at_text.value = "3, 3"                         # on the board, off the route: the engine refuses it
    assert w.rejection is not None and w.rejection.field == "order.aros[0].fire_at"
    assert "is not on the Move" in r.error.value and r.fire_at_text.value == "3, 3"
    r.fire_at_text.value = ""                             # empty: no fire_at written
    assert w.decl.aros[0].fire_at is None and "fire_at" not in w.url_state()["order"]["aros"][0]
    assert w.rejection is None and _tr34_answer(w) == TR34_RIGHT
