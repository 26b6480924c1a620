"""``openhuman-desktop doctor``: check workspace, config, databases and models; one line each, with a fix."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from openhuman_desktop import config, recurrence
from openhuman_desktop.app_files import app_entry
from openhuman_desktop.channels.telegram import doctor_check as telegram_check
from openhuman_desktop.channels.webapp_check import check_webapp
from openhuman_desktop.clock import SystemClock
from openhuman_desktop.errors import ConfigError, LlmReplyError, LlmUnavailable, StoreUnavailable
from openhuman_desktop.llm import make_client, tokens
from openhuman_desktop.llm.embeddings import make_embedder
from openhuman_desktop.llm.pool import ModelClients
from openhuman_desktop.notifications.dbus import DesktopNotifications, NotificationsUnavailable
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.paths import Paths
from openhuman_desktop.store import open_subconscious_store
from openhuman_desktop.store.schema import MIGRATIONS


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        mark = "ok  " if self.ok else "FAIL"
        text = f"{mark} {self.name}: {self.detail}"
        return text if self.ok or not self.fix else f"{text} — fix: {self.fix}"


def _split_remedy(sentence: str, default_fix: str) -> tuple[str, str]:
    """Split "problem — what to do." (how our error sentences are written) into its two parts."""
    problem, sep, remedy = sentence.partition(" — ")
    if sep and remedy:
        return problem.rstrip("."), remedy.rstrip(".")
    if "; " in sentence:
        problem, _, remedy = sentence.partition("; ")
        return problem, remedy.rstrip(".")
    return sentence.rstrip("."), default_fix


def check_workspace(paths: Paths) -> Check:
    folder = paths.workspace
    if not folder.is_dir():
        return Check("workspace", False, f"{folder} does not exist",
                     "start OpenHuman once (it creates it) or pass --workspace DIR")
    if not os.access(folder, os.W_OK | os.X_OK):
        return Check("workspace", False, f"{folder} is not writable", f"chmod u+rwx {folder}")
    mode = stat.S_IMODE(folder.stat().st_mode)
    if mode & 0o077:
        return Check("workspace", False, f"{folder} is readable by other users (mode {mode:o})", f"chmod 700 {folder}")
    exposed = _exposed_app_entry(folder)
    if exposed is not None:
        shown, target, target_mode = exposed
        private = "700" if target.is_dir() else "600"
        return Check("workspace", False, f"{shown} leads outside the workspace to {target}, which other users can "
                     f"read (mode {target_mode:o})", f"chmod {private} {target}, or move it back into {folder}")
    return Check("workspace", True, str(folder))


def _exposed_app_entry(folder: Path) -> tuple[str, Path, int] | None:
    """One of the app's private files or folders (``app_files``) that a link leads out of the private workspace
    to a place other users may read: ``(its name, where it leads, that place's mode)``, or None."""
    try:
        root = folder.resolve(strict=True)
        with os.scandir(folder) as listing:
            names = [entry.name for entry in listing]
    except OSError:
        return None
    for name in sorted(names):
        entry = app_entry(name)
        if entry is None or entry.is_readable:
            continue
        try:
            target = (folder / name).resolve(strict=True)
            mode = stat.S_IMODE(target.stat().st_mode)
        except (OSError, RuntimeError):  # dangling, a loop, or unreadable: the app reports it when it uses it
            continue
        if not target.is_relative_to(root) and mode & 0o077:
            return f"{name}/" if entry.is_folder else name, target, mode
    return None


def check_config(paths: Paths) -> tuple[Check, config.LoadedConfig | None]:
    try:
        loaded = config.load(paths.config_file)
    except ConfigError as exc:
        return Check("config", False, str(exc), "correct the value in config.toml"), None
    where = str(paths.config_file) if paths.config_file.exists() else f"{paths.config_file} (missing: defaults)"
    if loaded.warnings:
        return Check("config", True, f"{where}; warnings: " + "; ".join(loaded.warnings)), loaded
    return Check("config", True, where), loaded


async def check_database(paths: Paths) -> Check:
    if not paths.subconscious_db.exists():
        return Check("database", False, f"{paths.subconscious_db} does not exist",
                     "start OpenHuman once to create it")
    try:
        store = await open_subconscious_store(paths.subconscious_db)
    except StoreUnavailable as exc:
        return Check("database", False, *_split_remedy(str(exc), "see the log file for details"))
    try:
        verdict = await store.db.integrity_check()
        tasks = await store.tasks.count()
    except StoreUnavailable as exc:
        return Check("database", False, *_split_remedy(str(exc), "see the log file for details"))
    finally:
        await store.aclose()
    if verdict != "ok":
        return Check("database", False, f"integrity check: {verdict}", "restore subconscious.db from a backup")
    return Check("database", True, f"{paths.subconscious_db} (schema {len(MIGRATIONS)}, {tasks} tasks, integrity ok)")


async def check_ledger(paths: Paths) -> Check:
    """The agent's run ledger: readable, intact, and how many runs wait to be resumed."""
    path = paths.ledger_db
    if not path.exists():
        return Check("run ledger", True, f"{path} (created when OpenHuman starts)")
    try:
        ledger = await RunLedger.open(path, SystemClock())
    except StoreUnavailable as exc:
        return Check("run ledger", False, *_split_remedy(str(exc), "see the log file for details"))
    try:
        verdict = await ledger.integrity_check()
        unfinished = len(await ledger.unfinished_runs())
    except StoreUnavailable as exc:
        return Check("run ledger", False, *_split_remedy(str(exc), "see the log file for details"))
    finally:
        await ledger.aclose()
    if verdict != "ok":
        return Check("run ledger", False, f"integrity check: {verdict}",
                     "move agent/ledger.db away (unfinished runs are lost) or restore it from a backup")
    waiting = f", {unfinished} unfinished run(s) resume at the next start" if unfinished else ""
    return Check("run ledger", True, f"{path} (integrity ok{waiting})")


async def check_models(loaded: config.LoadedConfig) -> list[Check]:
    models = ModelClients(lambda: loaded.settings, make_client)
    checks = []
    try:
        for tier in loaded.settings.models:
            if tier == "embedding":
                checks.append(await check_embedding(loaded.settings))
                continue
            health = await models.check(tier)
            detail, fix = _split_remedy(health.message, f"check [models.{tier}] in config.toml")
            checks.append(Check(f"model {tier}", health.ok, health.message if health.ok else detail, fix))
    finally:
        await models.aclose()
    return checks


def check_tokenizer() -> Check:
    """Token counting: the offline BPE tables (bpe-openai's data, in the bundle too) load, or counts are estimates."""
    name = tokens.DEFAULT_ENCODING
    fix = "reinstall OpenHuman, or `pip install --force-reinstall bpe-openai` in its Python"
    try:
        tokens.read_ranks(name)
    except tokens.TokenDataUnavailableError as exc:
        return Check("tokenizer", False, f"token counts are estimates: {exc}", fix)
    encoding = tokens.load_encoding(name)
    if encoding is None:
        return Check("tokenizer", False, "token counts are estimates: tiktoken cannot build the encoding", fix)
    return Check("tokenizer", True, f"{name}, exact counts offline ({encoding.n_vocab} tokens)")


async def check_notifications(settings: config.NotificationSettings, bus: str = "SESSION") -> Check:
    """Which desktop notification server shows new cards, and whether it has buttons. Never a failure: without
    one the tray's own messages are used."""
    if not settings.enabled:
        return Check("notifications", True, "off ([notifications] enabled = false)")
    quiet = f"; quiet hours {config.format_quiet_hours(settings.quiet_hours)}" if settings.quiet_hours else ""
    try:
        server = await DesktopNotifications.connect(bus, timeout=2.0)
        try:
            name, _vendor, version, _spec = await server.server_information()
            capabilities = await server.capabilities()
        finally:
            await server.aclose()
    except NotificationsUnavailable as exc:
        return Check("notifications", True, f"no desktop notification server ({exc}); new cards show as the "
                                            f"tray's messages{quiet}")
    buttons = "with Go ahead / Skip / Open buttons" if "actions" in capabilities else "without buttons"
    return Check("notifications", True, f"{name} {version} on the session bus, {buttons}{quiet}")


async def check_reflection(paths: Paths, settings: config.Settings) -> Check:
    """When the subconscious model reflects next, with which model, and how the last reflection went."""
    reflection = settings.reflection
    if not reflection.enabled:
        return Check("reflection", True, "disabled ([reflection] enabled = false)")
    due = recurrence.next_run(recurrence.parse(reflection.schedule), time.time())
    when = f"{reflection.schedule}, next {datetime.fromtimestamp(due):%Y-%m-%d %H:%M}" if due else reflection.schedule
    model = settings.model("subconscious")
    if model is None:
        return Check("reflection", True, f"{when}; not configured: add a [models.subconscious] table to config.toml "
                                         "to let OpenHuman reflect and steer itself")
    last = None
    if paths.ledger_db.exists():
        try:
            ledger = await RunLedger.open(paths.ledger_db, SystemClock())
        except StoreUnavailable as exc:
            return Check("reflection", False, *_split_remedy(str(exc), "see the log file for details"))
        try:
            found = await ledger.reflections(1)
        finally:
            await ledger.aclose()
        last = found[0] if found else None
    if last is None:
        return Check("reflection", True, f"{when} with {model.model}; no reflection yet")
    at = f"{datetime.fromtimestamp(last.finished_at):%Y-%m-%d %H:%M}"
    if last.status == "failed":
        return Check("reflection", False, f"{when} with {model.model}; the last reflection ({at}) failed: "
                     f"{last.reason.rstrip('.')}", "fix that, then run: openhuman-desktop rpc reflection_trigger")
    return Check("reflection", True, f"{when} with {model.model}; last reflection {at}: {last.status}")


async def check_embedding(settings: config.Settings) -> Check:
    """``[models.embedding]`` embeds one word (long-term memory's vectors; without it, full-text search only)."""
    embedder = make_embedder(settings)
    if embedder is None:
        return Check("model embedding", False, "[models.embedding] names no model",
                     "set model in [models.embedding] of config.toml, or remove the table for full-text search only")
    try:
        vectors = await embedder.embed(["ok"], timeout=15.0)
    except (LlmUnavailable, LlmReplyError) as exc:
        detail, fix = _split_remedy(str(exc), "check [models.embedding] in config.toml")
        return Check("model embedding", False, detail, fix)
    finally:
        await embedder.aclose()
    return Check("model embedding", True, f"{embedder.description} gives {len(vectors[0])}-dimensional vectors")


DOCTOR_MCP_TIMEOUT = 20.0
"""Seconds doctor gives an MCP server to start, initialise and list its tools."""


async def check_skills(settings: config.Settings) -> list[Check]:
    """One line per enabled skill: the built-in ones, then each MCP server, started (all at once) and stopped
    again to see that it speaks MCP."""
    from openhuman_desktop.skills import MemorySkill, NotificationSkill, SubconsciousTasksSkill, WorkspaceFilesSkill
    from openhuman_desktop.skills.mcp.server import RETRIED, McpSkill

    checks = [Check(f"skill {skill.name}", True, f"{skill.title}, built in")
              for skill in (WorkspaceFilesSkill, MemorySkill, SubconsciousTasksSkill, NotificationSkill)]
    servers = [McpSkill(server, SystemClock(), tokens.TokenCounter(), start_timeout=DOCTOR_MCP_TIMEOUT)
               for server in settings.skills.mcp.values() if server.enabled]

    async def one(skill: McpSkill) -> Check:
        skill.start()
        try:
            async with asyncio.timeout(DOCTOR_MCP_TIMEOUT + 10):
                while skill.state not in ("connected", "error", "disconnected"):
                    await asyncio.sleep(0.05)
        except TimeoutError:
            pass
        finally:
            await skill.stop(disabled=False)
        where = skill.config.url or skill.config.command or ""
        if skill.state == "connected":
            read = sum(1 for tool in skill.listed_tools() if tool.access == "read")
            count = len(skill.listed_tools())
            info = f" — {skill.server_info}" if skill.server_info else ""
            return Check(f"skill {skill.name}", True,
                         f"MCP server {where}: {count} tools ({read} read, {count - read} write){info}")
        reason = (skill.reason or "It did not connect.").replace(RETRIED, "")   # doctor tries once
        problem, fix = _split_remedy(reason, "check [skills.mcp." + skill.name
                                     + "] in config.toml and run its command by hand to see what it says")
        return Check(f"skill {skill.name}", False, f"MCP server {where}: {problem}", fix)

    checks.extend(await check_world_skills(settings))
    checks.extend(await asyncio.gather(*(one(skill) for skill in servers)))
    return checks


async def check_world_skills(settings: config.Settings) -> list[Check]:
    """One line per enabled built-in skill of the person's world: what its Test button says (the mailbox
    connected and counted, the feeds and calendars read, Slack's variable set), all at once."""
    from openhuman_desktop.errors import UserFacingError
    from openhuman_desktop.skills.base import SkillRegistry
    from openhuman_desktop.skills.world import WorldSkills

    world = WorldSkills(SkillRegistry(), lambda: settings.skills, SystemClock(), None)
    enabled = [skill for skill in world.skills if skill.enabled]

    async def one(skill: Any) -> Check:
        try:
            async with asyncio.timeout(DOCTOR_MCP_TIMEOUT + 10):
                said = await world.test(skill.name, skill.config)
        except UserFacingError as exc:
            problem, fix = _split_remedy(str(exc), f"check [skills.{skill.name}] in config.toml (Settings > Skills)")
            return Check(f"skill {skill.name}", False, f"{skill.title}: {problem}", fix)
        except TimeoutError:
            return Check(f"skill {skill.name}", False, f"{skill.title}: no answer within {DOCTOR_MCP_TIMEOUT:.0f} s",
                         f"check [skills.{skill.name}] in config.toml (Settings > Skills)")
        return Check(f"skill {skill.name}", True, f"{skill.title}: {said.rstrip('.')}")

    try:
        return list(await asyncio.gather(*(one(skill) for skill in enabled)))
    finally:
        await world.aclose()


async def run_checks(paths: Paths) -> list[Check]:
    checks = [check_workspace(paths)]
    config_check, loaded = check_config(paths)
    checks.append(config_check)
    checks.append(await check_database(paths))
    checks.append(await check_ledger(paths))
    checks.append(check_tokenizer())
    if loaded is not None:
        checks.extend(await check_models(loaded))
        checks.append(await check_reflection(paths, loaded.settings))
        checks.append(Check(*await check_webapp(paths, loaded.settings.channels.webapp)))
        checks.append(Check("telegram", *await telegram_check(loaded.settings.channels.telegram)))
        checks.append(await check_notifications(loaded.settings.notifications))
        checks.extend(await check_skills(loaded.settings))
    return checks


def main(paths: Paths, out: TextIO = sys.stdout) -> int:
    """Print one line per check; exit 0 only when all pass."""
    checks = asyncio.run(run_checks(paths))
    for item in checks:
        print(item.line(), file=out)
    return 0 if all(item.ok for item in checks) else 1
