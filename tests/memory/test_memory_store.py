"""MemoryStore: validation, FTS5 search with hostile queries, paging, since, removal, schema."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop.errors import InvalidInput, NotFound
from openhuman_desktop.memory import Memory, MemoryStore, fts_query, memory_db_path, open_memory_store
from openhuman_desktop.memory.store import MAX_TEXT_CHARS, MIGRATIONS
from tests.fakes.clock import FakeClock


@pytest.fixture
async def memories(tmp_path: Path, clock: FakeClock) -> AsyncIterator[MemoryStore]:
    opened = await open_memory_store(memory_db_path(tmp_path), clock)
    yield opened
    await opened.aclose()


async def test_add_trims_and_round_trips(memories: MemoryStore, clock: FakeClock) -> None:
    memory = await memories.add("  The dentist is on Friday at 10.  ", tags=["health", " dentist ", "health"])
    assert memory.text == "The dentist is on Friday at 10."
    assert memory.source == "user"
    assert memory.created_at == clock.now()
    assert memory.tags == ("health", "dentist")
    assert await memories.get(memory.id) == memory
    assert memory.to_json() == {
        "id": memory.id, "text": "The dentist is on Friday at 10.", "source": "user",
        "created_at": clock.now(), "tags": ["health", "dentist"], "vector_model": None,
    }
    assert await memories.count() == 1


@pytest.mark.parametrize(
    ("text", "problem"),
    [("", "empty"), ("   \n\t", "empty"), (42, "string"), (None, "string"),
     ("x" * (MAX_TEXT_CHARS + 1), "10,000"), ("a\x00b", "NUL")],
)
async def test_add_refuses_bad_text(memories: MemoryStore, text: object, problem: str) -> None:
    with pytest.raises(InvalidInput, match=problem) as caught:
        await memories.add(text)
    assert caught.value.param == "text"
    assert await memories.count() == 0


async def test_add_accepts_text_of_exactly_the_limit_after_trimming(memories: MemoryStore) -> None:
    memory = await memories.add("  " + "x" * MAX_TEXT_CHARS + "  ")
    assert len(memory.text) == MAX_TEXT_CHARS


@pytest.mark.parametrize("tags", ["one,two", [1], ["a,b"], [""], ["x" * 51], [f"t{i}" for i in range(21)]])
async def test_add_refuses_bad_tags(memories: MemoryStore, tags: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        await memories.add("text", tags=tags)  # type: ignore[arg-type]
    assert caught.value.param == "tags"


async def test_add_refuses_bad_source(memories: MemoryStore) -> None:
    with pytest.raises(InvalidInput) as caught:
        await memories.add("text", source="not a name!")
    assert caught.value.param == "source"


async def test_search_ranks_by_relevance(memories: MemoryStore, clock: FakeClock) -> None:
    weak = await memories.add("The garden needs water; also buy milk and bread and eggs and flour and sugar.")
    await clock.advance(1)
    strong = await memories.add("Milk milk milk.")
    await clock.advance(1)
    await memories.add("Nothing to see here.")
    found = await memories.search("milk")
    assert [m.id for m in found] == [strong.id, weak.id]


async def test_search_needs_all_words_first_then_any(memories: MemoryStore, clock: FakeClock) -> None:
    both = await memories.add("Alice likes green tea")
    await clock.advance(1)
    only_tea = await memories.add("Bob drinks black tea")
    assert [m.id for m in await memories.search("alice tea")] == [both.id]
    # No memory has all of these words: fall back to any of them.
    assert {m.id for m in await memories.search("tea coffee juice")} == {both.id, only_tea.id}


async def test_search_matches_tags_and_ignores_case_and_accents(memories: MemoryStore) -> None:
    memory = await memories.add("Le café ouvre à huit heures", tags=["Paris"])
    assert [m.id for m in await memories.search("CAFE")] == [memory.id]
    assert [m.id for m in await memories.search("paris")] == [memory.id]


@pytest.mark.parametrize(
    "query",
    ['"foo AND (', "foo)", "NEAR(foo bar)", "foo*", "text:foo", "-foo", "foo OR", "^foo", '""foo""', "foo's",
     "{foo}", "foo + bar", "foo NOT bar", "'; DROP TABLE memories; --"],
)
async def test_search_takes_any_text_literally(memories: MemoryStore, query: str) -> None:
    memory = await memories.add("foo bar baz")
    found = await memories.search(query)
    assert all(isinstance(m, Memory) for m in found)
    if "foo" in query and "DROP" not in query:
        assert memory.id in [m.id for m in found]
    assert await memories.count() == 1


@pytest.mark.parametrize("query", ["", "   ", "((( )))", '"', "*", 7, None, "x" * 1001])
async def test_search_refuses_queries_without_words(memories: MemoryStore, query: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        await memories.search(query)
    assert caught.value.param == "query"


@pytest.mark.parametrize("limit", [0, -1, 1001, "5", 2.5, True])
async def test_search_and_list_refuse_bad_limits(memories: MemoryStore, limit: object) -> None:
    with pytest.raises(InvalidInput, match="limit"):
        await memories.search("foo", limit)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="limit"):
        await memories.list(limit)  # type: ignore[arg-type]


def test_fts_query_quotes_every_word() -> None:
    assert fts_query(['say "hi"', "AND"]) == '"say ""hi""" AND "AND"'
    assert fts_query(["a", "b"], "OR") == '"a" OR "b"'


async def test_search_respects_limit(memories: MemoryStore) -> None:
    for number in range(5):
        await memories.add(f"note {number} about lunch")
    assert len(await memories.search("lunch", limit=3)) == 3


async def test_list_is_newest_first_and_pages_with_before(memories: MemoryStore, clock: FakeClock) -> None:
    added = []
    for number in range(5):
        added.append(await memories.add(f"memory {number}"))
        await clock.advance(10)
    newest_first = [m.id for m in reversed(added)]
    assert [m.id for m in await memories.list()] == newest_first
    first_page = await memories.list(limit=2)
    assert [m.id for m in first_page] == newest_first[:2]
    second_page = await memories.list(limit=2, before=first_page[-1].created_at)
    assert [m.id for m in second_page] == newest_first[2:4]
    with pytest.raises(InvalidInput, match="before"):
        await memories.list(before=float("nan"))


async def test_since_returns_only_newer_memories(memories: MemoryStore, clock: FakeClock) -> None:
    await memories.add("old one")
    mark = clock.now()
    await clock.advance(5)
    newer = await memories.add("new one")
    await clock.advance(5)
    newest = await memories.add("newest one")
    assert [m.id for m in await memories.since(mark)] == [newest.id, newer.id]
    assert [m.id for m in await memories.since(mark, limit=1)] == [newest.id]
    assert await memories.since(clock.now()) == []


async def test_remove_forgets_the_memory_and_its_index_entry(memories: MemoryStore) -> None:
    keep = await memories.add("keep the umbrella")
    drop = await memories.add("drop the umbrella")
    await memories.remove(drop.id)
    assert [m.id for m in await memories.search("umbrella")] == [keep.id]
    assert await memories.search("drop") == []
    assert await memories.count() == 1
    with pytest.raises(NotFound):
        await memories.remove(drop.id)
    assert await memories.integrity_check() == "ok"


async def test_reopen_keeps_memories_and_schema_version(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "memory" / "memory.db"
    first = await open_memory_store(path, clock)
    memory = await first.add("persist me")
    await first.aclose()
    await first.aclose()  # safe twice
    second = await open_memory_store(path, clock)
    try:
        assert [m.id for m in await second.search("persist")] == [memory.id]
    finally:
        await second.aclose()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert {"memories", "memories_fts", "idx_memories_created"} <= names


async def test_index_survives_vacuum(tmp_path: Path, clock: FakeClock) -> None:
    """VACUUM renumbers implicit rowids; the index is keyed on an explicit column, so it stays right."""
    path = tmp_path / "memory.db"
    store = await open_memory_store(path, clock)
    first = await store.add("alpha")
    second = await store.add("beta")
    await store.remove(first.id)
    await store.aclose()
    conn = sqlite3.connect(path)
    conn.execute("VACUUM")
    conn.close()
    store = await open_memory_store(path, clock)
    try:
        assert [m.id for m in await store.search("beta")] == [second.id]
        assert await store.integrity_check() == "ok"
    finally:
        await store.aclose()


def test_memory_db_path_is_in_the_memory_folder(tmp_path: Path) -> None:
    assert memory_db_path(tmp_path) == tmp_path / "memory" / "memory.db"
