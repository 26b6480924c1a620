"""Screenshots of the Skills tab with an MCP server in error and its fix (light and dark).

Runs the real app (``DesktopApp`` with the real window, offscreen: no X server needed) with two MCP servers of
the test suite's fixture (tests/skills/mcp_fixture_server.py): ``notes`` connects, ``tracker`` is started with an
argument it does not know and fails (its stderr says why). Saves ``skills-error-<scheme>.png`` (the Skills tab on
the server in error, its stderr and Restart / Disable / Edit), ``skills-settings-<scheme>.png`` (Edit… opened
Settings > Skills on it; the bad argument removed), ``skills-settings-tools-<scheme>.png`` (a connected server's
tools in Settings, each read only / writes / disabled) and ``skills-fixed-<scheme>.png`` (saved: it connected, its
tools with their read / writes badges).

    python scripts/skills_screenshots.py --out screenshots --scheme dark
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.chat_screenshots import MODEL, running_app, save, until, window_script_options, write_workspace  # noqa: E402

FIXTURE = REPO / "tests" / "skills" / "mcp_fixture_server.py"


def servers(fixture_dir: Path) -> str:
    common = f'command = {json.dumps(sys.executable)}\nenv = {{ FIXTURE_DIR = {json.dumps(str(fixture_dir))} }}\n'
    return (f'\n[skills.mcp.notes]\n{common}args = [{json.dumps(str(FIXTURE))}]\nwrite_tools = ["lying_read"]\n'
            f'disabled_tools = ["crash"]\n'
            f'\n[skills.mcp.tracker]\n{common}args = [{json.dumps(str(FIXTURE))}, "--project", "home"]\n')


async def shoot(out: Path, scheme: str, paths: Any) -> list[Path]:
    saved: list[Path] = []
    async with running_app(paths) as desktop:
        window: Any = desktop.window
        services: Any = desktop.services
        mcp = services.mcp.servers
        await until(lambda: mcp["notes"].state == "connected" and mcp["tracker"].state == "error", 90)
        await window.jobs.wait_idle(raise_failures=False)
        window.resize(1000, 720)
        window.show_tab("skills")
        view = window.skills_view
        await view.refresh()
        view.select_skill("tracker")
        saved.append(await save(window, out / f"skills-error-{scheme}.png"))

        view.detail.edit_button.click()       # Edit…: Settings on the server's table
        settings = desktop.settings_window
        await until(lambda: settings is not None and settings.isVisible())
        settings.resize(980, 760)
        form = settings.skills_editor.server_form
        form.args_edit.setText(str(FIXTURE))  # without the argument the server does not know
        form.args_edit.textEdited.emit(form.args_edit.text())
        saved.append(await save(settings, out / f"skills-settings-{scheme}.png"))
        assert await settings.save(), "the settings were not saved"
        settings.skills_editor.select("notes")  # a connected server: its tools, each with how it is treated
        page = settings.pages.currentWidget()
        await asyncio.sleep(0.2)              # laid out with the server's tools first
        page.ensureWidgetVisible(form.tools_form, 0, 0)
        saved.append(await save(settings, out / f"skills-settings-tools-{scheme}.png"))
        await until(lambda: mcp.get("tracker") is not None and mcp["tracker"].state == "connected", 90)
        settings.hide()
        await view.refresh()
        view.select_skill("tracker")
        saved.append(await save(window, out / f"skills-fixed-{scheme}.png"))
    return saved


def main(argv: list[str] | None = None) -> int:
    args = window_script_options(__doc__, argv)
    from openhuman_desktop.qt import app as desktop_app
    from tests.fakes.model_servers import FakeOllama

    qapp = desktop_app.make_application()
    with tempfile.TemporaryDirectory(prefix="oh-skills-shots-") as tmp, FakeOllama() as ollama:
        ollama.add_model(MODEL, context_length=131_072)
        fixture_dir = Path(tmp) / "fixture"
        fixture_dir.mkdir()
        paths = write_workspace(Path(tmp), ollama.url, servers(fixture_dir))
        with asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
            runner.run(shoot(args.out.resolve(), args.scheme, paths))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
