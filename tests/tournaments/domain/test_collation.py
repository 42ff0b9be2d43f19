"""Names sort by family name with accents folded, CJK names by reading or code point."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.text import (
    clean_reading,
    fold,
    is_family_name_first,
    last_first,
    name_sort_key,
    reading_problem,
)


def test_fold_drops_accents_and_case_as_the_search_script_does():
    assert fold("José ÁLVAREZ") == "jose alvarez"
    assert fold("Zoë Müller") == "zoe muller"
    assert fold("Ελένη") == "ελενη"
    assert fold("Иван") == "иван"


def test_latin_names_sort_by_family_name_with_accents_folded():
    names = ["Zoë Müller", "Ana Ábalos", "Émile Zola", "Bob Abbott", "carla mendez"]
    assert sorted(names, key=name_sort_key) == [
        "Ana Ábalos",
        "Bob Abbott",
        "carla mendez",
        "Zoë Müller",
        "Émile Zola",
    ]


def test_japanese_names_sort_by_reading_when_given_else_by_code_point():
    # By reading: さとう, やまだ, わたなべ. By code point: 佐 (U+4F50), 山 (U+5C71), 渡 (U+6E21).
    readings = {"山田 太郎": "やまだ たろう", "佐藤 花子": "さとう はなこ", "渡辺 健": "ワタナベ ケン"}
    by_reading = sorted(readings, key=lambda n: name_sort_key(n, readings[n]))
    assert by_reading == ["佐藤 花子", "山田 太郎", "渡辺 健"]
    by_code_point = sorted(readings, key=name_sort_key)
    assert by_code_point == sorted(readings)
    assert sorted(["山田 太郎", "Ann Lee"], key=name_sort_key) == ["Ann Lee", "山田 太郎"]


def test_cjk_names_are_never_turned_around():
    assert last_first("山田 太郎") == "山田 太郎"
    assert last_first("김 민수") == "김 민수"
    assert last_first("Ann Marie Lee") == "Lee, Ann Marie"
    assert last_first("Иван Петров") == "Петров, Иван"
    assert is_family_name_first("山田 太郎") and not is_family_name_first("Zoë Müller")


@given(st.lists(st.text(min_size=1, max_size=12), max_size=20))
def test_sorting_is_total_and_stable_for_any_names(names):
    once = sorted(names, key=name_sort_key)
    assert sorted(once, key=name_sort_key) == once
    assert sorted(once) == sorted(names)


def test_a_reading_is_kana_or_latin_letters_and_is_stored_width_normalised():
    for reading in ("やまだ たろう", "ヤマダ・タロウ", "ﾔﾏﾀﾞ", "Yamada Tarō", "O'Neil-Smith", ""):
        assert reading_problem(reading) is None, reading
    assert reading_problem("山田") == "a name's reading is written in kana or Latin letters, not 山"
    assert reading_problem("やまだ1") == "a name's reading is written in kana or Latin letters, not 1"
    assert reading_problem("あ" * 101) == "a name's reading has at most 100 characters"
    assert clean_reading(" ﾔﾏﾀﾞ  ﾀﾛｳ ") == "ヤマダ タロウ"
