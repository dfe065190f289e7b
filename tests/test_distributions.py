"""explorer.distributions: exact helpers, float/Fraction paths, docstring examples."""

import doctest
from fractions import Fraction as Fr

import pytest

import explorer.distributions as D
from explorer.games.tagraid import odds


def test_doctests():
    for mod in (D, odds):
        res = doctest.testmod(mod)
        assert res.failed == 0 and res.attempted > 0


def test_binomial_exact_and_float():
    d = D.binomial(3, Fr(1, 4), exact=True)
    assert d.to_list() == [Fr(27, 64), Fr(27, 64), Fr(9, 64), Fr(1, 64)] and d.total() == 1
    f = D.binomial(3, 0.25)
    assert f.to_list() == pytest.approx([27 / 64, 27 / 64, 9 / 64, 1 / 64])
    assert D.binomial(2, 0, exact=True).to_list() == [1] and D.binomial(2, 1, exact=True).to_list() == [0, 0, 1]
    with pytest.raises(ValueError):
        D.binomial_pmf(-1, 0.5)


def test_multinomial_convolve_cap_max():
    m = D.multinomial(2, {"h": Fr(1, 2), "c": Fr(1, 4), "n": Fr(1, 4)})
    assert m[(1, 1, 0)] == Fr(1, 4) and m.total() == 1
    die = D.Dist.uniform(range(1, 7), exact=True)
    two = D.convolve(die, die)
    assert two[7] == Fr(1, 6) and two.mean() == 7
    assert D.convolve_lists([Fr(1, 2), Fr(1, 2)], [Fr(1, 2), Fr(1, 2)]) == [Fr(1, 4), Fr(1, 2), Fr(1, 4)]
    assert D.cap_list([Fr(1, 4), Fr(1, 2), Fr(1, 4)], 1) == [Fr(1, 4), Fr(3, 4)]
    assert two.cap(3)[3] == 1 - two[2]
    mx = D.max_of_iid({1: Fr(1, 2), 2: Fr(1, 2)}, 2)
    assert mx[1] == Fr(1, 4) and mx[2] == Fr(3, 4)
    assert D.total_variation(two, two) == 0
    assert D.Dist({"a": 0.5, "b": 0.5}).to_dict() == {"a": 0.5, "b": 0.5}
