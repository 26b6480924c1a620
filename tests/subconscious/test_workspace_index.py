"""The workspace index answers exactly what the full scan does, re-reads only changed folders, and falls back."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.subconscious import report, workspace_index
from openhuman_desktop.subconscious.report import files_section, scan_workspace
from openhuman_desktop.subconscious.workspace_index import (
    FULL_SCAN_EVERY_SECONDS,
    WATCH_RETRY_SECONDS,
    Inotify,
    WorkspaceIndex,
)

pytestmark = pytest.mark.skipif(not workspace_index.PLATFORM.startswith("linux"), reason="inotify is Linux only")


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


@pytest.fixture
def index(root: Path, clock: Clock) -> Iterator[WorkspaceIndex]:
    kept = WorkspaceIndex(root, clock)
    yield kept
    kept.close()


def assert_same(index: WorkspaceIndex, root: Path, *moments: float | None) -> None:
    for since in moments or (None, 1_000_002.0, 9e9):
        assert index.scan(since) == scan_workspace(root, since), f"since={since}"


def write(path: Path, text: str = "x", moment: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if moment is not None:
        os.utime(path, (moment, moment))
    return path


FOLDERS = ["", "docs", "docs/sub", "docs/sub/deep", "run", "logs", "memory", "subconscious", "projects/logs",
           ".git", "node_modules/pkg", "x/node_modules", "x/__pycache__", ".cache", "docs/.private", "Zeta", "é"]
NAMES = ["a.md", "B.txt", "z.bin", "config.toml", ".hidden.md", "notes", "é.md"]


def random_tree(root: Path, rng: random.Random, files: int = 60) -> None:
    for number in range(files):
        write(root / rng.choice(FOLDERS) / f"{number}-{rng.choice(NAMES)}", "x" * rng.randrange(0, 50),
              1_000_000 + rng.randrange(0, 5))


def random_change(root: Path, rng: random.Random, step: int) -> None:
    """One create, edit, delete, rename, new folder, removed folder or moved folder, somewhere in the tree."""
    files = [p for p in root.rglob("*") if p.is_file() and not p.is_symlink()]
    folders = [p for p in root.rglob("*") if p.is_dir() and not p.is_symlink()]
    kind = rng.choice(["create", "edit", "delete", "rename", "mkdir", "rmtree", "move-folder", "touch"])
    if kind == "create" or not files or not folders:
        write(root / rng.choice(FOLDERS) / f"new-{step}-{rng.choice(NAMES)}", "new", 1_000_000 + rng.randrange(9))
    elif kind == "edit":
        write(rng.choice(files), "edited" * rng.randrange(1, 5))
    elif kind == "touch":
        target = rng.choice(files)
        os.utime(target, (1_000_003, 1_000_003))
    elif kind == "delete":
        rng.choice(files).unlink()
    elif kind == "rename":
        source = rng.choice(files)
        source.rename(rng.choice(folders) / f"renamed-{step}.md")
    elif kind == "mkdir":
        base = rng.choice(folders) / rng.choice([f"made-{step}", "node_modules", f".hidden-{step}", "sub"])
        write(base / "inner" / f"f-{step}.txt", "inside", 1_000_001)
        write(base / f"g-{step}.md", "beside", 1_000_004)
    elif kind == "rmtree":
        shutil.rmtree(rng.choice(folders))
    else:
        source, target = rng.choice(folders), rng.choice(folders)
        if target != source and source not in target.parents:
            source.rename(target / f"moved-{step}")


@pytest.mark.parametrize("seed", range(8))
def test_the_index_equals_the_full_scan_on_random_trees_after_each_change(root: Path, clock: Clock, seed: int) -> None:
    rng = random.Random(seed)
    random_tree(root, rng)
    index = WorkspaceIndex(root, clock)
    try:
        assert_same(index, root)
        for step in range(40):
            for _ in range(rng.randrange(1, 4)):  # several changes between two scans, sometimes one
                random_change(root, rng, step)
            assert_same(index, root, None, 1_000_002.0)
        assert index.full_walks == 1, "every change was followed without walking everything again"
        assert index.disabled is None
    finally:
        index.close()


def test_the_root_config_and_internal_folders_stay_out_for_new_folders_too(root: Path, index: WorkspaceIndex) -> None:
    write(root / "seen.md")
    assert [c.path for c in index.scan(None).changed] == ["seen.md"]
    for folder in ("memory", "run", "logs", "subconscious", ".secret", "a/.git", "a/node_modules", "b/__pycache__"):
        write(root / folder / "inner" / "file.md")
    write(root / "config.toml")
    write(root / ".env")
    write(root / "a" / "run" / "kept.md")  # only the root's app folders are skipped
    write(root / "a" / "config.toml")  # config.toml is skipped at the root only
    listed = sorted(c.path for c in index.scan(None).changed)
    assert listed == ["a/config.toml", "a/run/kept.md", "seen.md"]
    assert_same(index, root)


def test_symlinked_folders_and_files_are_never_followed_or_listed(tmp_path: Path, root: Path,
                                                                  index: WorkspaceIndex) -> None:
    outside = tmp_path / "outside"
    write(outside / "deep" / "secret.txt", "secret")
    write(root / "own.md")
    index.scan(None)
    (root / "link.txt").symlink_to(outside / "deep" / "secret.txt")
    (root / "linked-dir").symlink_to(outside / "deep")
    write(root / "later" / "x.md")
    (root / "later" / "inner-link").symlink_to(outside)
    before = index.folders_relisted
    scan = index.scan(None)
    assert sorted(c.path for c in scan.changed) == ["later/x.md", "own.md"]
    assert_same(index, root)
    write(outside / "deep" / "another.txt", "secret")  # a change behind the link: nothing to re-read
    after = index.folders_relisted
    assert index.scan(None) == scan and index.folders_relisted == after
    assert after - before == 1, "only the root was listed again (the new folder was walked, not relisted)"
    # A folder replaced by a link to the outside is dropped with everything under it.
    shutil.rmtree(root / "later")
    (root / "later").symlink_to(outside / "deep")
    assert [c.path for c in index.scan(None).changed] == ["own.md"]
    assert_same(index, root)


def test_many_edits_in_one_folder_list_it_again_once(root: Path, index: WorkspaceIndex) -> None:
    for number in range(5):
        write(root / f"folder{number}" / "file.md", moment=1_000_000)
    index.scan(None)
    before = index.folders_relisted
    target = root / "folder3" / "file.md"
    for number in range(200):
        write(target, f"edit {number}")
        os.utime(target, (2_000_000 + number, 2_000_000 + number))
    scan = index.scan(1_000_000.0)
    assert index.folders_relisted - before == 1
    assert [(c.path, c.mtime) for c in scan.changed] == [("folder3/file.md", 2_000_199.0)]
    assert_same(index, root)
    again = index.folders_relisted
    index.scan(None)
    assert index.folders_relisted == again, "nothing changed: no folder is read"


def test_a_quiet_workspace_is_answered_without_listing_anything(root: Path, index: WorkspaceIndex) -> None:
    random_tree(root, random.Random(1))
    first = index.scan(None)
    for _ in range(3):
        assert index.scan(None) == first
    assert (index.full_walks, index.folders_relisted) == (1, 0)


def test_the_periodic_full_walk_repairs_what_inotify_did_not_see(root: Path, clock: Clock,
                                                                 index: WorkspaceIndex) -> None:
    write(root / "a" / "seen.md", "one", 1_000_000)
    index.scan(None)
    inotify = index._inotify
    assert inotify is not None
    # A change made while the events are lost (as on a network file system): the index does not see it.
    write(root / "a" / "seen.md", "changed remotely", 1_000_000)
    inotify.read_events()
    stale = index.scan(None)
    assert stale != scan_workspace(root, None)
    clock.now += FULL_SCAN_EVERY_SECONDS - 1
    assert index.scan(None) == stale
    clock.now += 1
    assert_same(index, root)
    assert index.full_walks == 2


def test_a_queue_overflow_walks_again(root: Path, index: WorkspaceIndex, monkeypatch: pytest.MonkeyPatch,
                                      caplog: pytest.LogCaptureFixture) -> None:
    write(root / "a" / "one.md")
    index.scan(None)
    write(root / "a" / "two.md")
    monkeypatch.setattr(Inotify, "read_events", lambda self: [(-1, workspace_index.IN_Q_OVERFLOW)])
    with caplog.at_level(logging.INFO, logger=workspace_index.__name__):
        assert_same(index, root, None)
    assert index.full_walks == 2 and index.disabled is None
    assert "overflowed" in caplog.text


def fail_add_watch(code: int) -> Any:
    def add_watch(self: Inotify, path: str, *, follow: bool = False) -> int | None:
        raise workspace_index.WatchUnavailable(f"inotify_add_watch failed: {os.strerror(code)}")
    return add_watch


@pytest.mark.parametrize("when", ["first", "later"])
def test_a_watch_that_cannot_be_added_falls_back_to_full_scans(root: Path, index: WorkspaceIndex, when: str,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    write(root / "a" / "one.md")
    if when == "later":
        index.scan(None)
    monkeypatch.setattr(Inotify, "add_watch", fail_add_watch(errno.ENOSPC))
    write(root / "b" / "new.md")
    with caplog.at_level(logging.INFO, logger=workspace_index.__name__):
        assert_same(index, root)
        write(root / "c" / "later.md")
        assert_same(index, root)
    assert index.disabled is not None and "No space" in index.disabled
    assert len([r for r in caplog.records if "index off" in r.getMessage()]) == 1, "said once"


def test_the_index_tries_again_after_the_watch_limit(root: Path, index: WorkspaceIndex, clock: Clock,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    write(root / "a" / "one.md")
    with monkeypatch.context() as limited:
        limited.setattr(Inotify, "add_watch", fail_add_watch(errno.ENOSPC))
        assert_same(index, root)
        clock.now += WATCH_RETRY_SECONDS - 1
        assert_same(index, root)
        assert index.disabled is not None and index.full_walks == 1, "no new attempt within the hour"
    clock.now += 1
    with caplog.at_level(logging.INFO, logger=workspace_index.__name__):
        assert_same(index, root)
    assert index.disabled is None and index.full_walks == 2
    assert "index on again" in caplog.text
    write(root / "a" / "two.md")
    relisted = index.folders_relisted
    assert_same(index, root)
    assert index.folders_relisted == relisted + 1, "inotify named the folder: the index answers again"


def test_the_watch_limit_is_recognised(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inotify = Inotify()
    try:
        def add(fd: int, path: bytes, mask: int) -> int:
            workspace_index.ctypes.set_errno(errno.ENOSPC)
            return -1

        monkeypatch.setattr(inotify, "_add", add)
        with pytest.raises(workspace_index.WatchUnavailable, match="watch limit"):
            inotify.add_watch(os.fspath(root))
    finally:
        inotify.close()
        inotify.close()


def test_without_linux_or_inotify_in_libc_every_scan_is_a_full_walk(root: Path, clock: Clock,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    write(root / "a" / "one.md")
    monkeypatch.setattr(workspace_index, "PLATFORM", "darwin")
    index = WorkspaceIndex(root, clock)
    assert_same(index, root)
    assert index.disabled is not None and "Linux only" in index.disabled
    index.close()
    monkeypatch.setattr(workspace_index, "PLATFORM", "linux")
    monkeypatch.setattr(workspace_index, "load_libc", lambda: object())
    index = WorkspaceIndex(root, clock)
    write(root / "b" / "two.md")
    assert_same(index, root)
    assert index.disabled is not None and "no inotify" in index.disabled
    index.close()


def test_a_read_error_falls_back(root: Path, index: WorkspaceIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    write(root / "one.md")
    index.scan(None)

    def broken(fd: int, size: int) -> bytes:
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(workspace_index.os, "read", broken)
    write(root / "two.md")
    assert index.scan(None) == scan_workspace(root, None)
    assert index.disabled is not None and "I/O error" in index.disabled


def test_a_bug_while_updating_leaves_no_half_index(root: Path, index: WorkspaceIndex,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    write(root / "a" / "one.md")
    index.scan(None)
    write(root / "a" / "two.md")

    def broken(directory: str, prefix: str) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(workspace_index, "list_folder", broken)
    with pytest.raises(RuntimeError):
        index.scan(None)
    monkeypatch.undo()
    assert_same(index, root)
    assert index.full_walks == 2


def test_a_missing_root_scans_empty_until_it_is_created(tmp_path: Path, clock: Clock) -> None:
    root = tmp_path / "not-yet"
    index = WorkspaceIndex(root, clock)
    try:
        assert index.scan(None) == scan_workspace(root, None)
        assert index.scan(None).changed == []
        write(root / "docs" / "first.md", "hello")
        assert [c.path for c in index.scan(None).changed] == ["docs/first.md"]
        assert_same(index, root)
        write(root / "docs" / "second.md", "hello")  # the root is watched now: only docs is read again
        relisted = index.folders_relisted
        assert_same(index, root)
        assert index.folders_relisted == relisted + 1
        shutil.rmtree(root)  # the root itself goes: walked again from the top (empty), then recreated
        assert_same(index, root)
        write(root / "back.md")
        assert_same(index, root)
        assert index.disabled is None
    finally:
        index.close()


def test_a_folder_removed_and_made_again_between_scans_is_watched_again(root: Path, index: WorkspaceIndex) -> None:
    write(root / "a" / "one.md")
    index.scan(None)
    shutil.rmtree(root / "a")
    write(root / "a" / "two.md")
    assert_same(index, root)
    write(root / "a" / "three.md")  # seen only if the new "a" is watched
    assert_same(index, root)


def test_an_unreadable_folder_is_read_again_when_it_opens(root: Path, index: WorkspaceIndex) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every folder")
    locked = root / "locked"
    write(locked / "inside.md")
    locked.chmod(0)
    try:
        assert_same(index, root)
    finally:
        locked.chmod(0o700)
    assert_same(index, root)
    assert "locked/inside.md" in [c.path for c in index.scan(None).changed]


def test_more_files_than_the_cap_gives_the_capped_full_scan(root: Path, index: WorkspaceIndex,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workspace_index, "MAX_FILES_SCANNED", 5)
    monkeypatch.setattr(report, "MAX_FILES_SCANNED", 5)
    for number in range(4):
        write(root / f"f{number}" / "a.md")
    assert_same(index, root)
    assert index.full_walks == 1
    for number in range(4, 8):
        write(root / f"f{number}" / "a.md")
    assert_same(index, root)
    assert index._folders == {}, "over the cap: the index is let go, plain scans until the retry"


def test_close_twice_is_fine_and_scans_still_answer(root: Path, index: WorkspaceIndex) -> None:
    write(root / "a.md")
    index.scan(None)
    index.close()
    index.close()
    write(root / "b.md")
    assert_same(index, root)


async def test_the_files_section_answers_from_the_index(root: Path, index: WorkspaceIndex) -> None:
    write(root / "notes.md", "hello", 2_000_000)
    await asyncio.to_thread(index.warm)
    section = await files_section(root, index)([], 1_000_000.0, 2_000_001.0)
    plain = await files_section(root)([], 1_000_000.0, 2_000_001.0)
    assert section == plain
    assert section is not None and section.text == "- notes.md (5 bytes): hello"
    assert index.full_walks == 1
    await index.aclose()
    await index.aclose()


def test_a_file_name_that_is_not_utf8_is_signed_not_fatal(root: Path, index: WorkspaceIndex) -> None:
    index.scan(None)
    try:
        (root / os.fsdecode(b"caf\xe9.md")).write_text("x", encoding="utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    assert_same(index, root)
    assert len(index.scan(None).changed) == 1
