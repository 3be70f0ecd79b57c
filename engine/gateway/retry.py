"""When to try a model request again, how long to wait, and how fast requests may start.

Only *establishing* a request is retried: a network error or one of the
statuses in ``RETRY_STATUSES`` before any of the answer was read. Waits grow
0.5 s → 1 s → 2 s … up to 8 s, or stay at a fixed interval when one is set;
a ``Retry-After`` header wins over the computed wait. ``TokenBucket`` limits
how many logical requests start per second and per minute; a caller takes one
token per logical request, never per retry. Clock and sleep are injectable so
tests can check the waits without spending them.
"""
from __future__ import annotations

import email.utils
import threading
import time
from dataclasses import dataclass
from typing import Callable, Optional

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 3                  # attempts after the first
    base_s: float = 0.5
    cap_s: float = 8.0
    fixed_s: Optional[float] = None   # a fixed interval instead of doubling
    max_retry_after_s: float = 60.0   # a longer Retry-After is not waited for

    def wait(self, retry_no: int, retry_after: Optional[float] = None) -> float:
        """Seconds to wait before retry number ``retry_no`` (1-based)."""
        if retry_after is not None:
            return retry_after
        if self.fixed_s is not None:
            return self.fixed_s
        return min(self.cap_s, self.base_s * (2 ** (retry_no - 1)))


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds from a Retry-After header (delay in seconds or an HTTP date); None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class TokenBucket:
    """Per-second and per-minute limits on starting logical requests (0 = no limit), shared by threads."""

    def __init__(self, per_second: float = 0, per_minute: float = 0, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self._buckets = [_Bucket(rate, period) for rate, period in ((per_second, 1.0), (per_minute, 60.0))
                         if rate > 0]
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()

    def acquire(self) -> float:
        """Take one token from every bucket, sleeping until they have one; the seconds waited."""
        waited = 0.0
        with self._lock:
            while True:
                now = self._clock()
                delay = max((b.delay(now) for b in self._buckets), default=0.0)
                if delay <= 0:
                    for b in self._buckets:
                        b.take()
                    return waited
                self._sleep(delay)
                waited += delay


class _Bucket:
    """``rate`` tokens per ``period`` seconds, refilled continuously, holding at most ``rate`` (at least one)."""

    def __init__(self, rate: float, period: float):
        self.capacity = max(1.0, float(rate))
        self.refill = rate / period          # tokens per second
        self.tokens = self.capacity
        self.stamp: Optional[float] = None

    def delay(self, now: float) -> float:
        if self.stamp is not None:
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.refill)
        self.stamp = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.refill

    def take(self) -> None:
        self.tokens -= 1
