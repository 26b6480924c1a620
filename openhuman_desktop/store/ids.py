"""Row ids: UUID strings that sort by creation time (the UUIDv7 layout of RFC 9562).

A random UUID lands anywhere in a primary-key index, so inserting a tick's thousand log rows dirties about
a thousand index pages; ids that start with the time all go to the index's right edge instead.
"""

from __future__ import annotations

import os

_MILLIS_MASK = (1 << 48) - 1
_RAND_A_MASK = (1 << 12) - 1
_RAND_B_MASK = (1 << 62) - 1
_VERSION_7 = 0x7 << 76
_VARIANT = 0b10 << 62
_RANDOM_BYTES = 10  # 74 random bits are used of these 80


def time_ordered_id(now: float) -> str:
    """A new UUIDv7 string for a row created at ``now`` (Unix seconds): 48 bits of milliseconds, then 74
    random bits."""
    return time_ordered_ids(now, 1)[0]


def time_ordered_ids(now: float, count: int) -> list[str]:
    """``count`` new UUIDv7 strings for rows created at ``now`` (one read of the system's randomness)."""
    head = ((int(now * 1000) & _MILLIS_MASK) << 80) | _VERSION_7 | _VARIANT
    pool = os.urandom(_RANDOM_BYTES * count)
    ids = []
    for start in range(0, len(pool), _RANDOM_BYTES):
        random = int.from_bytes(pool[start:start + _RANDOM_BYTES], "big")
        text = f"{head | ((random >> 62 & _RAND_A_MASK) << 64) | (random & _RAND_B_MASK):032x}"
        ids.append(f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}")
    return ids
