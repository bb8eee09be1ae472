"""The per-process caches, in one place: one decorator, one eviction policy, one ``clear``.

Policy: least recently used, with a size per cache (``memo(maxsize=...)``, sized where the
cache is declared). A cache here holds what never changes for a given key: a published
version (it is immutable), a parsed scenario (kept per version *and* content hash, so an
edited document never meets a stale parse), the HTML of a variant under an era in a
language, the process's fixed data (schema, card catalog, rule catalogue). So nothing is
ever stale and nothing expires by time; the size bounds the memory.

``clear()`` empties every cache at once: tests call it (their rolled-back databases hand
out the same ids again, which a real database never does).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, cast

_CACHES: list[Any] = []  # every memoized function: each has ``cache_clear()``


def memo[F: Callable[..., Any]](maxsize: int, *,
                                key: Callable[..., Hashable] | None = None,
                                ) -> Callable[[F], F]:
    """Keep a function's results, the ``maxsize`` most recently used, until ``clear()``.

    Without ``key`` the arguments are the key (they must be hashable): it is
    ``functools.lru_cache``. With ``key``, ``key(*args, **kwargs)`` is the key, for a
    function with an argument that is not part of it (a loader, say)."""

    def decorate(fn: F) -> F:
        cached: Any = (functools.lru_cache(maxsize=maxsize)(fn) if key is None
                       else _KeyedLRU(fn, maxsize, key))
        _CACHES.append(cached)
        return cast(F, cached)  # both wrappers call ``fn`` with its own arguments

    return decorate


def clear() -> None:
    """Empty every cache declared with ``memo``."""
    for cached in _CACHES:
        cached.cache_clear()


class _KeyedLRU:
    """``lru_cache``'s policy with the key computed by a function of the arguments."""

    def __init__(self, fn: Callable[..., Any], maxsize: int,
                 key: Callable[..., Hashable]) -> None:
        functools.update_wrapper(self, fn)
        self._fn, self._maxsize, self._key = fn, maxsize, key
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        k = self._key(*args, **kwargs)
        with self._lock:
            if k in self._entries:
                self._entries.move_to_end(k)
                return self._entries[k]
        value = self._fn(*args, **kwargs)  # outside the lock: it may be slow
        with self._lock:
            self._entries[k] = value
            self._entries.move_to_end(k)
            while len(self._entries) > self._maxsize:
                self._entries.popitem(last=False)
        return value

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
