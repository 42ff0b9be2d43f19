"""The public page cache cannot be flooded (issue 24, point 2): a query string the page does not
read never gets a stored copy of its own, spellings the page reads alike share one, and query
pages stored per event are bounded."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.urls import reverse

from tournaments import page_cache
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


def stored_pages() -> int:
    """Public pages in the cache, counted in the backend itself, under this test's key prefix."""
    backend = caches["default"]
    if isinstance(backend, LocMemCache):
        mine = backend.make_key("public-page:").removesuffix("public-page:")
        return sum(key.startswith(mine + "public-page:") for key in backend._cache)
    if isinstance(backend, RedisCache):
        client = backend._cache.get_client()
        return len(client.keys(f"{backend.key_prefix}*public-page:*"))
    pytest.skip(f"cannot count the keys of {type(backend).__name__}")


@pytest.fixture
def published(event, organizer):
    return round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)


def test_three_hundred_junk_query_strings_store_no_new_page(client, event, published):
    pages = [
        reverse(name, args=[event.id])
        for name in ("tournament-public", "tournament-pairings", "tournament-standings")
    ]
    for path in pages:
        assert client.get(path).status_code == 200
    before = stored_pages()
    assert before == 3
    for number in range(300):
        response = client.get(pages[number % 3], {"x": str(number), "utm_source": "a" * (number % 7)})
        assert response.status_code == 200
    assert stored_pages() - before == 0


#: The parameters each public page reads (``public_page(query=...)``), given values it accepts but
#: no reader asks for twice: searches for no one, ranges of tables, repeated parameters.
ODD_VALUES = {
    "tournament-public": lambda n: {"q": ["x", f"nobody {n}"]},
    "tournament-pairings": lambda n: {"tables": ["1-50", f"{n}-{n + 7}"], "round": "1"},
    "tournament-standings": lambda n: {"q": f"junk {n}", "page": ["2", "1"]},
}


def test_three_hundred_odd_values_of_the_parameters_a_page_reads_store_a_handful_at_most(
    client, event, published
):
    for name in ODD_VALUES:
        client.get(reverse(name, args=[event.id]))
    before = stored_pages()
    for number in range(300):
        name = list(ODD_VALUES)[number % 3]
        response = client.get(reverse(name, args=[event.id]), ODD_VALUES[name](number))
        assert response.status_code == 200
    assert stored_pages() - before <= 5


def test_a_query_page_asked_for_again_is_stored(client, event, published):
    path = reverse("tournament-pairings", args=[event.id])
    client.get(path)
    before = stored_pages()
    client.get(path, {"tables": "1-50"})
    client.get(path, {"tables": "1-50"})
    assert stored_pages() == before + 1


def test_a_junk_parameter_is_served_the_canonical_page(client, event, published):
    path = reverse("tournament-pairings", args=[event.id])
    client.get(path, {"tables": "1-50"})
    canonical = client.get(path, {"tables": "1-50"})  # stored from its second request
    junk = client.get(path, {"tables": " 1 - 50 ", "x": "1"})
    assert junk.content == canonical.content and junk["ETag"] == canonical["ETag"]


def test_spellings_the_page_reads_alike_share_one_page(client, event, published):
    path = reverse("tournament-standings", args=[event.id])
    client.get(path, {"page": "1"})
    client.get(path, {"page": "1"})
    before = stored_pages()
    for spelling in ("01", "001", " 1", "0001"):
        assert client.get(path, {"page": spelling}).status_code == 200
    assert stored_pages() == before


def test_query_pages_per_event_and_generation_are_bounded(client, event, published, monkeypatch):
    monkeypatch.setattr(page_cache, "QUERY_PAGES_PER_EVENT", 5)
    path = reverse("tournament-public", args=[event.id])
    client.get(path)
    for number in range(20):
        for _reader in range(2):  # a query page is stored from its second request
            assert client.get(path, {"q": f"nobody {number}"}).status_code == 200
    assert stored_pages() == 1 + 5
    # The page's plain address is stored whatever the budget: it is one page; and searches never
    # crowd out the pairings by table the hall reloads.
    assert client.get(reverse("tournament-standings", args=[event.id])).status_code == 200
    for _reader in range(2):
        assert (
            client.get(reverse("tournament-pairings", args=[event.id]), {"tables": "1-50"}).status_code == 200
        )
    assert stored_pages() == 1 + 5 + 2


def test_a_page_names_only_parameters_it_can_normalise():
    with pytest.raises(ValueError, match="no normalisation"):
        page_cache.public_page(query=("x",))
