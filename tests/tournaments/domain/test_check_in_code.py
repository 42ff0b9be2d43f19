"""A team's check-in code: the team id in the join codes' alphabet with a check character, so a
mistyped or swapped character is refused instead of checking another team in."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.check_in import ALPHABET, check_in_code, team_id_from_code

ids = st.integers(min_value=1, max_value=10**9)


@given(ids)
def test_a_code_names_its_team_however_it_is_typed(team_id):
    code = check_in_code(team_id)
    assert len(code) >= 5 and set(code) <= set(ALPHABET)
    assert team_id_from_code(code) == (team_id, None)
    assert team_id_from_code(f"  {code.lower()[:2]}-{code.lower()[2:]} ") == (team_id, None)


@given(ids, st.data())
def test_one_mistyped_character_is_refused(team_id, data):
    code = check_in_code(team_id)
    position = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    wrong = data.draw(st.sampled_from([c for c in ALPHABET if c != code[position]]))
    typo = code[:position] + wrong + code[position + 1 :]
    assert team_id_from_code(typo)[0] is None


@given(ids, st.data())
def test_two_swapped_neighbours_are_refused(team_id, data):
    code = check_in_code(team_id)
    position = data.draw(st.integers(min_value=0, max_value=len(code) - 2))
    swapped = code[:position] + code[position + 1] + code[position] + code[position + 2 :]
    if swapped != code:
        assert team_id_from_code(swapped)[0] is None


def test_a_code_of_the_wrong_shape_says_what_a_code_looks_like():
    for raw in ("", "AB", "0O1IL", "ÅÄÖ12", "x" * 40):
        team_id, problem = team_id_from_code(raw)
        assert team_id is None
        assert problem == f"a check-in code is 5 letters and digits, like {check_in_code(1)}"
