"""Row ids: UUID strings that sort by creation time (the UUIDv7 layout of RFC 9562).

A random UUID lands anywhere in a primary-key index, so inserting a tick's thousand log rows dirties about
a thousand index pages; ids that start with the time all go to the index's right edge instead.
"""

from __future__ import annotations

import os

# Random hex digits per id: 3 after the version digit, 1 whose low 2 bits follow the variant bits (0b10),
# then 15: 74 random bits.
_RANDOM_HEX = 19
_VARIANT_DIGIT = "89ab" * 4  # indexed by the random digit's value: its low 2 bits under the variant


def time_ordered_id(now: float) -> str:
    """A new UUIDv7 string for a row created at ``now`` (Unix seconds): 48 bits of milliseconds, then 74
    random bits."""
    return time_ordered_ids(now, 1)[0]


def time_ordered_ids(now: float, count: int) -> list[str]:
    """``count`` new UUIDv7 strings for rows created at ``now`` (one read of the system's randomness)."""
    millis = f"{int(now * 1000) & 0xFFFF_FFFF_FFFF:012x}"
    head = f"{millis[:8]}-{millis[8:]}-7"
    pool = os.urandom((_RANDOM_HEX * count + 1) // 2).hex()
    ids = []
    for start in range(0, _RANDOM_HEX * count, _RANDOM_HEX):
        r = pool[start:start + _RANDOM_HEX]
        ids.append(f"{head}{r[:3]}-{_VARIANT_DIGIT[int(r[3], 16)]}{r[4:7]}-{r[7:]}")
    return ids
