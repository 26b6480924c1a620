"""Row ids are UUIDv7 strings: valid UUIDs whose order follows the creation time."""

from __future__ import annotations

import uuid

from openhuman_desktop.store.ids import time_ordered_id, time_ordered_ids


def test_an_id_is_a_version_7_uuid_with_its_millisecond_in_front() -> None:
    text = time_ordered_id(1_764_480_000.123)
    parsed = uuid.UUID(text)
    assert str(parsed) == text
    assert parsed.version == 7 and parsed.variant == uuid.RFC_4122
    assert parsed.int >> 80 == 1_764_480_000_123


def test_ids_sort_by_time_and_never_repeat() -> None:
    times = [1_700_000_000.0 + n * 0.001 for n in range(2000)]
    ids = [time_ordered_id(t) for t in times]
    assert sorted(ids) == ids
    same_instant = {time_ordered_id(1_700_000_000.0) for _ in range(10_000)}
    assert len(same_instant) == 10_000


def test_a_batch_of_ids_shares_the_instant_and_never_repeats() -> None:
    batch = time_ordered_ids(1_700_000_000.5, 5000)
    assert len(set(batch)) == 5000
    assert {uuid.UUID(text).int >> 80 for text in batch} == {1_700_000_000_500}
    assert all(uuid.UUID(text).version == 7 for text in batch)
