"""The per-process caches, in one place: one decorator, one eviction policy, one ``clear``.

Policy: least recently used, with a bound per cache, sized where the cache is declared:
``memo(maxsize=...)`` in entries, and, for a cache whose values differ widely in size
(rendered HTML), also ``maxbytes=...``, with each value's size estimated cheaply
(``text_size``: the size of its text). A cache here holds what never changes for a
given key: a published version (it is immutable), a parsed scenario (kept per version
*and* content hash, so an edited document never meets a stale parse), the HTML of a
variant under an era in a language, the process's fixed data (schema, card catalog, rule
catalogue). So nothing is ever stale and nothing expires by time; the bounds bound the
memory.

Memory ceiling: **150 MB resident per gunicorn worker**, with every cache full. Measured
by ``python -m tests.bench.memory_bench`` (production settings, the library, one process
serving 4,000 fresh questions and their answers in the six languages and the rule
history's pages): 61 MB after the first page, 112 MB with the caches below full or holding
the whole library, at most ~144 MB once a library large enough fills the caches keyed by
versions too (counted at the measured size per entry). With a bound of 4,096 entries everywhere and
none in bytes, the same traffic reached 176 MB and was still growing.

The caches, their bounds, and their size per entry measured on the library:

- rendered HTML, bounded in bytes, in ``quiz.presenters``, kept compressed
  (``compress=True``, counted at the compressed size) and bounded at 8,192 entries each:
  ``board_page`` 16 MB (~14 KB of HTML an entry, ~3.3 KB compressed: ~5,000 entries),
  ``explained_html`` 8 MB (~4.4 KB, ~1.4 KB compressed), ``feedback_detail_html`` 4 MB
  (~1.8 KB, ~0.6 KB compressed); ``_blank_answer_form_html`` 2 MB uncompressed (~1 KB).
  Uncompressed, the board's 16 MB held 580 boards, a third of what 3,000 questions drawn
  at random from the library show; the library has about 5,000 (variant, era) pairs per
  language;
- engine results: ``scenarios.presentation.present.outcome_of`` and
  ``quiz.grading._expected_answer``, 512 entries each (~30 KB a run with its trace, which
  the two share; a run costs well under a millisecond), ``eras_answers`` 4,096 (~0.6 KB);
- per version: ``quiz.grading.scenario_for`` 256 parsed scenarios (~64 KB per entry; the
  library has 158 versions), ``quiz.services.version_meta`` 512 (~30 KB, its stored
  facts included: titles in six languages, question ids);
- small or per language: rule pills 4,096 (~0.2 KB), board words 4,096 each (~0.1 KB),
  the rule history's timeline, index and search text (16 each: one per language, six
  today, ~65 KB), rule numbers 512 (~1 KB), the navigation bar 128 (~9 KB; 90 in use with
  six languages), other per-language data 16.

Outside ``memo``, and bounded by what they hold: the engine's fixed data
(``functools.cache`` on the card and rule catalogues, a rule's text per era), Django's
cached template loader (one compiled template per file), and, without ``REDIS_URL``, the
default cache (Django's ``LocMemCache``, 300 entries: only the health check writes to it,
the throttles count in the database).

``clear()`` empties every cache at once: tests call it (their rolled-back databases hand
out the same ids again, which a real database never does). ``registry()`` lists them, with
their bounds and current sizes (the memory bench).
"""

from __future__ import annotations

import functools
import sys
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, cast

_CACHES: list[Memo] = []  # every memoized function


def text_size(value: Any) -> int:
    """A cheap estimate of a cached value's size in bytes: a string's own size
    (``sys.getsizeof``, exact and immediate for a string: a character takes one byte, or
    two or four once the text holds one beyond Latin-1, such as "◆" or "→"), summed over
    a tuple or list of them; for anything else ``sys.getsizeof`` of the object alone."""
    if isinstance(value, (tuple, list)):
        return sys.getsizeof(value) + sum(text_size(v) for v in value)
    return sys.getsizeof(value)


def memo[F: Callable[..., Any]](maxsize: int, *,
                                key: Callable[..., Hashable] | None = None,
                                maxbytes: int | None = None,
                                size: Callable[[Any], int] = text_size,
                                compress: bool = False,
                                ) -> Callable[[F], F]:
    """Keep a function's results, the ``maxsize`` most recently used (and, with
    ``maxbytes``, at most that many bytes of them, as ``size`` estimates), until
    ``clear()``.

    Without ``key`` the arguments are the key (they must be hashable), as with
    ``functools.lru_cache``. With ``key``, ``key(*args, **kwargs)`` is the key, for a
    function with an argument that is not part of it (a loader, say). A value larger
    than ``maxbytes`` on its own is returned but not kept.

    ``compress``: the function returns a text (``str``, ``SafeString``) or a tuple of
    them, kept zlib-compressed and counted at its compressed size (see :class:`Packed`).
    Rendered HTML shrinks about five times and is unpacked in well under a tenth of what
    rendering it again costs, so the same bytes hold five times as many pages."""

    def decorate(fn: F) -> F:
        if compress:
            cached = Memo(fn, maxsize, key, maxbytes, Packed.size, pack=Packed.pack,
                          unpack=Packed.unpack)
        else:
            cached = Memo(fn, maxsize, key, maxbytes, size)
        _CACHES.append(cached)
        return cast(F, cached)  # the wrapper calls ``fn`` with its own arguments

    return decorate


def clear() -> None:
    """Empty every cache declared with ``memo``."""
    for cached in _CACHES:
        cached.cache_clear()


def registry() -> list[Memo]:
    """Every cache declared with ``memo``, in the order they were declared."""
    return list(_CACHES)


_KWARGS = object()  # separates positional from keyword arguments in a default key


class Packed:
    """A text, or a tuple of texts, kept compressed: each text as its class (``str``, or
    Django's ``SafeString`` for HTML already escaped, which must stay marked safe) and
    its UTF-8 compressed by zlib at level 1 (rendered HTML: 14 KB to 3 KB in about 90
    microseconds, back in 45)."""

    __slots__ = ("parts", "tuple")

    def __init__(self, parts: tuple[tuple[type[str], bytes], ...], is_tuple: bool) -> None:
        self.parts, self.tuple = parts, is_tuple

    @classmethod
    def pack(cls, value: str | tuple[str, ...]) -> Packed:
        texts = value if isinstance(value, tuple) else (value,)
        return cls(tuple((type(t), zlib.compress(t.encode(), 1)) for t in texts),
                   isinstance(value, tuple))

    def unpack(self) -> str | tuple[str, ...]:
        texts = tuple(kind(zlib.decompress(data).decode()) for kind, data in self.parts)
        return texts if self.tuple else texts[0]

    def size(self) -> int:
        return 120 + sum(len(data) + 40 for _kind, data in self.parts)


class Memo:
    """Least recently used, bounded in entries and optionally in bytes."""

    def __init__(self, fn: Callable[..., Any], maxsize: int,
                 key: Callable[..., Hashable] | None, maxbytes: int | None,
                 size: Callable[[Any], int], *, pack: Callable[[Any], Any] | None = None,
                 unpack: Callable[[Any], Any] | None = None) -> None:
        functools.update_wrapper(self, fn)
        self._fn, self.maxsize, self._key = fn, maxsize, key
        self.maxbytes, self._size = maxbytes, size
        self._pack, self._unpack = pack, unpack  # a compressed cache (``Packed``)
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.bytes = 0  # the estimated size of the values kept (with maxbytes only)
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"{self._fn.__module__}.{self._fn.__qualname__}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._key is not None:
            k = self._key(*args, **kwargs)
        elif kwargs:
            k = (*args, _KWARGS, *sorted(kwargs.items()))
        else:
            k = args
        with self._lock:
            entry = self._entries.get(k)
            if entry is not None:
                self._entries.move_to_end(k)
        if entry is not None:
            return entry[0] if self._unpack is None else self._unpack(entry[0])
        value = self._fn(*args, **kwargs)  # outside the lock: it may be slow
        kept = value if self._pack is None else self._pack(value)
        cost = self._size(kept) if self.maxbytes is not None else 0
        if self.maxbytes is not None and cost > self.maxbytes:
            return value  # would push out everything else: not kept
        with self._lock:
            old = self._entries.pop(k, None)
            if old is not None:  # another thread computed it meanwhile
                self.bytes -= old[1]
            self._entries[k] = (kept, cost)
            self.bytes += cost
            while len(self._entries) > self.maxsize or (
                    self.maxbytes is not None and self.bytes > self.maxbytes):
                _k, (_value, freed) = self._entries.popitem(last=False)
                self.bytes -= freed
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def values(self) -> list[Any]:
        """The values kept, as the function returned them (unpacked)."""
        kept = self.stored()
        return kept if self._unpack is None else [self._unpack(v) for v in kept]

    def stored(self) -> list[Any]:
        """The values as kept in memory (a compressed cache's ``Packed`` values): what
        the memory bench measures."""
        with self._lock:
            return [value for value, _cost in self._entries.values()]

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0
