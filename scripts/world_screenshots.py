"""Screenshots of the built-in world skills (issue 22) in the real app, light or dark: the Skills tab with mail,
feeds and calendars connected and Slack in error (its webhook variable is not set), and Settings > Skills with
the mail form after its Test button spoke, and the feeds, calendar and Slack forms.

The mailbox is a real dovecot (the tests' own, tests/world/servers.py) holding a few messages; the feed is served
by the tests' local web server; the calendar is an ICS file. Offscreen Qt: no X server needed. Saves
``world-skills-email-<scheme>.png``, ``world-skills-error-<scheme>.png``, ``world-settings-email-<scheme>.png``
and ``world-settings-more-<scheme>.png``.

    python scripts/world_screenshots.py --out screenshots --scheme dark
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.chat_screenshots import MODEL, running_app, save, until, window_script_options, write_workspace  # noqa: E402

PASSWORD_ENV = "OH_SHOTS_MAIL_PASSWORD"


def tables(dovecot: Any, feed_url: str, calendar: Path) -> str:
    from tests.world.servers import USER

    return (f'\n[skills.email]\nenabled = true\nimap_host = "127.0.0.1"\nimap_port = {dovecot.tls_port}\n'
            f'username = "{USER}"\npassword_env = "{PASSWORD_ENV}"\nfolders = ["INBOX", "Invoices"]\n'
            f'security = "tls"\nca_file = {json.dumps(str(dovecot.cert))}\n'
            f'\n[skills.feeds]\nenabled = true\nurls = [{json.dumps(feed_url)}]\n'
            f'\n[skills.calendar]\nenabled = true\nsources = [{json.dumps(str(calendar))}]\nhorizon_hours = 48\n'
            '\n[skills.web]\nenabled = true\n'
            '\n[skills.slack]\nenabled = true\nwebhook_env = "SLACK_WEBHOOK_URL_NOT_SET"\n')


def ics(now: datetime) -> str:
    def stamp(moment: datetime) -> str:
        return moment.strftime("%Y%m%dT%H%M%SZ")

    events = "".join(f"BEGIN:VEVENT\nUID:shot-{n}@example.org\nSUMMARY:{title}\nDTSTART:{stamp(now + delta)}\n"
                     f"DTEND:{stamp(now + delta + timedelta(hours=1))}\nEND:VEVENT\n"
                     for n, (title, delta) in enumerate((("Dentist", timedelta(hours=3)),
                                                          ("Team review", timedelta(hours=26)))))
    return f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//shots//EN\n{events}END:VCALENDAR\n"


async def shoot(out: Path, scheme: str, root: Path, dovecot: Any) -> list[Path]:
    from tests.fakes.model_servers import FakeOllama
    from tests.world.servers import WebServer, message, rss

    saved: list[Path] = []
    web = await WebServer().start()
    try:
        web.state.put("/news.xml", rss([("n1", "Rail strike called off", "Wed, 02 Dec 2026 08:00:00 GMT"),
                                        ("n2", "New library opens on Main Street", "Tue, 01 Dec 2026 17:30:00 GMT")],
                                       title="City news"), "application/rss+xml")
        calendar = root / "personal.ics"
        calendar.write_text(ics(datetime.now(UTC)), encoding="utf-8")
        with FakeOllama() as ollama:
            ollama.add_model(MODEL, context_length=131_072)
            paths = write_workspace(root, ollama.url, tables(dovecot, web.url + "/news.xml", calendar))
            async with running_app(paths) as desktop:
                window: Any = desktop.window
                world = desktop.services.world
                for watching in world.watching:  # the first look: the baseline; then two messages arrive
                    await world.poll(watching, datetime.now(UTC).timestamp() - 60)
                print(f"states: {[(s.name, s.state, s.reason) for s in world.skills]}", flush=True)
                await asyncio.to_thread(dovecot.append, "INBOX", message(
                    "Anna Berg <anna@example.org>", "Lunch on Friday?", "Are you free at noon? The new place."))
                await asyncio.to_thread(dovecot.append, "Invoices", message(
                    "Billing <billing@power.example>", "Your December invoice", "Amount due: 84.20 EUR."))
                await world.poll(world.email, datetime.now(UTC).timestamp())
                await window.jobs.wait_idle(raise_failures=False)
                window.resize(1000, 720)
                window.show_tab("skills")
                view = window.skills_view
                await view.refresh()
                view.select_skill("email")
                saved.append(await save(window, out / f"world-skills-email-{scheme}.png"))
                view.select_skill("slack")
                saved.append(await save(window, out / f"world-skills-error-{scheme}.png"))

                desktop.open_settings()
                settings = desktop.settings_window
                await until(lambda: settings is not None and settings.isVisible())
                settings.resize(980, 760)
                settings.show_section("skills")
                tester = settings.skill_testers["email"]
                tester.button.click()
                await until(lambda: tester.result.text() not in ("", "Testing…"), 30)
                page = settings.pages.currentWidget()
                await asyncio.sleep(0.2)
                page.ensureWidgetVisible(tester, 0, 40)
                saved.append(await save(settings, out / f"world-settings-email-{scheme}.png"))
                for name in ("feeds", "calendar", "slack"):
                    other = settings.skill_testers[name]
                    other.button.click()
                    await until(lambda other=other: other.result.text() not in ("", "Testing…"), 30)
                page.ensureWidgetVisible(settings.skill_testers["slack"], 0, 40)
                saved.append(await save(settings, out / f"world-settings-more-{scheme}.png"))
                settings.hide()
    finally:
        await web.stop()
    return saved


def main(argv: list[str] | None = None) -> int:
    args = window_script_options(__doc__, argv)
    from openhuman_desktop.qt import app as desktop_app
    from tests.world.servers import PASSWORD, Dovecot

    os.environ[PASSWORD_ENV] = PASSWORD
    os.environ.pop("SLACK_WEBHOOK_URL_NOT_SET", None)
    qapp = desktop_app.make_application()
    dovecot = Dovecot.start()
    try:
        dovecot.create("Invoices")
        for number in range(1, 4):
            from tests.world.servers import message

            dovecot.append("INBOX", message(f"Friend {number} <f{number}@example.org>", f"Hello {number}", "Hi."))
        with tempfile.TemporaryDirectory(prefix="oh-world-shots-") as tmp, \
                asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
            runner.run(shoot(args.out.resolve(), args.scheme, Path(tmp), dovecot))
    finally:
        dovecot.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
