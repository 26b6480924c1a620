"""Structural isolation (CONTRACT §10): reflection's modules may not import the ledger, the agent's service
or nodes, any store, channel or RPC module (an import-linter contract, run by ``.ci/run``), and the port the
app hands it offers only the history log, the timeline, its records and the steering directive."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp

from openhuman_desktop.bootstrap import LedgerReflectionPort

ROOT = Path(__file__).resolve().parents[2]
REFLECTION_MODULES = {"openhuman_desktop.subconscious.reflection", "openhuman_desktop.subconscious.reflection_prompt"}
MUST_NOT_REACH = {"openhuman_desktop.orchestration.ledger", "openhuman_desktop.orchestration.service",
                  "openhuman_desktop.orchestration.nodes", "openhuman_desktop.channels", "openhuman_desktop.rpc",
                  "openhuman_desktop.memory.store", "openhuman_desktop.store"}


def test_an_import_linter_contract_keeps_reflection_away_from_messages_and_payloads() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = [c for c in config["tool"]["importlinter"]["contracts"]
                 if set(c.get("source_modules", ())) >= REFLECTION_MODULES]
    assert len(contracts) == 1 and contracts[0]["type"] == "forbidden"
    assert set(contracts[0]["forbidden_modules"]) >= MUST_NOT_REACH


def test_nothing_reflection_imports_reaches_the_ledger_stores_channels_or_rpc() -> None:
    graph = grimp.build_graph("openhuman_desktop")
    for module in REFLECTION_MODULES:
        reached = graph.find_upstream_modules(module)
        assert "openhuman_desktop.orchestration.steering" in reached  # the dataclasses of the two stores
        assert not {m for m in reached for bad in MUST_NOT_REACH if m == bad or m.startswith(bad + ".")}, reached


def test_the_port_offers_only_the_two_stores_its_records_and_the_directive() -> None:
    offered = {name for name in dir(LedgerReflectionPort) if not name.startswith("_")}
    assert offered == {"news", "history", "timeline", "current_directive", "write_directive", "record",
                       "reflections"}
