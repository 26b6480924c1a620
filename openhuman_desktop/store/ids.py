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


def time_ordered_id(now: float) -> str:
    """A new UUIDv7 string for a row created at ``now`` (Unix seconds): 48 bits of milliseconds, then 74
    random bits."""
    random = int.from_bytes(os.urandom(10), "big")
    value = (((int(now * 1000) & _MILLIS_MASK) << 80) | _VERSION_7 | ((random >> 62 & _RAND_A_MASK) << 64)
             | _VARIANT | (random & _RAND_B_MASK))
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"
