"""The per-process caches' decorator (scenarios.caches.memo): least recently used, bounded
in entries and, for values of very different sizes, in bytes."""

from typing import Any

from scenarios import caches
from scenarios.caches import Memo, memo, text_size


def counted(**bounds: Any) -> tuple[Memo, list[str]]:
    """A memoized function returning ``length`` characters: its sizes are counted as
    ``len`` here, so the arithmetic below is exact."""
    calls: list[str] = []

    @memo(size=len, **bounds)
    def page(name: str, length: int) -> str:
        calls.append(name)
        return name[0] * length

    assert isinstance(page, Memo)
    return page, calls


def test_a_byte_bound_evicts_the_least_recently_used_until_the_rest_fits() -> None:
    page, calls = counted(maxsize=100, maxbytes=1000)
    page("a", 400)
    page("b", 400)
    page("a", 400)  # a is now the most recently used
    assert (len(page), page.bytes) == (2, 800)
    page("c", 300)  # 1,100 bytes: b goes, a stays
    assert (len(page), page.bytes) == (2, 700)
    calls.clear()
    page("a", 400)
    page("c", 300)
    assert calls == []  # both kept
    page("b", 400)
    assert calls == ["b"]  # computed again
    assert page.bytes <= 1000


def test_a_value_larger_than_the_byte_bound_is_returned_but_not_kept() -> None:
    page, calls = counted(maxsize=100, maxbytes=1000)
    page("a", 100)
    assert page("h", 5000) == "h" * 5000
    assert (len(page), page.bytes) == (1, 100)  # and nothing else was pushed out
    page("h", 5000)
    assert calls == ["a", "h", "h"]


def test_the_entry_bound_still_holds_under_a_byte_bound() -> None:
    page, _calls = counted(maxsize=3, maxbytes=10_000)
    for name in "abcde":
        page(name, 1)
    assert len(page) == 3
    assert page.bytes == 3


def test_without_a_byte_bound_the_entries_are_the_bound_and_keyword_arguments_count() -> None:
    page, calls = counted(maxsize=2)
    page("a", 1)
    page("a", length=1)  # another key, as with functools.lru_cache
    page("b", 1)
    page("a", 1)
    assert calls == ["a", "a", "b", "a"]
    assert len(page) == 2


def test_clear_empties_every_cache_and_its_byte_count() -> None:
    page, calls = counted(maxsize=10, maxbytes=1000)
    page("a", 10)
    assert page in caches.registry()
    caches.clear()
    assert (len(page), page.bytes) == (0, 0)
    page("a", 10)
    assert calls == ["a", "a"]


def test_text_size_is_the_size_of_the_text_in_memory() -> None:
    ascii, wide = "a" * 1000, "→" * 1000  # one byte a character, then two
    assert 1000 < text_size(ascii) < 1100
    assert 2000 < text_size(wide) < 2100
    assert text_size((ascii, wide)) > text_size(ascii) + text_size(wide)


def test_a_compressed_cache_gives_back_the_same_texts_of_the_same_classes() -> None:
    """HTML marked safe stays marked safe (else the template would escape it again), a
    tuple stays a tuple, and text beyond Latin-1 survives."""
    from django.utils.safestring import SafeString

    calls: list[str] = []

    @memo(maxsize=10, maxbytes=100_000, compress=True)
    def board(name: str) -> tuple[str, SafeString]:
        calls.append(name)
        return f"{name} → ◆", SafeString(f"<svg>{name * 2000}</svg>")

    first = board("ab")
    again = board("ab")
    assert calls == ["ab"]
    assert again == first and again is not first
    assert type(again) is tuple and type(again[0]) is str and type(again[1]) is SafeString
    assert again[0] == "ab → ◆"


def test_a_compressed_cache_counts_the_compressed_size_against_its_byte_bound() -> None:
    @memo(maxsize=1000, maxbytes=20_000, compress=True)
    def page(n: int) -> str:
        return f"<p>{n}</p>" * 1000  # 9 KB of repetitive HTML, under 200 bytes packed

    for n in range(20):
        page(n)
    assert len(page) == 20  # 180 KB of text held in a 20 KB bound
    assert 0 < page.bytes <= 20_000
    assert page.values()[0] == "<p>0</p>" * 1000
