"""Feeds, calendars, web pages and Slack against a local aiohttp server; the [skills.*] tables of config.toml."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from openhuman_desktop import config
from openhuman_desktop.config_skills import CalendarSettings, FeedsSettings, SlackSettings, WebSettings
from openhuman_desktop.errors import ConfigError
from openhuman_desktop.skills.base import CONNECTED, DISABLED, ERROR, ToolContext
from openhuman_desktop.skills.world.base import WorldSkill
from openhuman_desktop.skills.world.calendar import CalendarSkill
from openhuman_desktop.skills.world.feeds import FeedsSkill
from openhuman_desktop.skills.world.slack import SlackSkill
from openhuman_desktop.skills.world.web import WebSkill, is_public
from tests.world.servers import WebServer, atom, rss

RFC822 = "%a, %d %b %Y %H:%M:%S +0000"


async def call(skill: WorldSkill, name: str, **arguments: object) -> tuple[str, bool]:
    tool = next(tool for tool in skill.listed_tools() if tool.name == name)
    result = await tool.run(arguments, ToolContext(writes_allowed=True))
    return result.text, result.is_error


# --- config.toml -------------------------------------------------------------------------------------------


def parse(text: str) -> config.Settings:
    import tomllib

    return config.parse(tomllib.loads(text), Path("config.toml"), {}).settings


def test_every_built_in_skill_is_off_until_its_table_says_enabled() -> None:
    skills = parse("").skills
    assert not any((skills.email.enabled, skills.feeds.enabled, skills.calendar.enabled, skills.web.enabled,
                    skills.slack.enabled))
    skills = parse('[skills.email]\nenabled = true\nimap_host = "imap.example.org"\nusername = "me"\n'
                   'password_env = "MAIL_PW"\n[skills.feeds]\nenabled = true\nurls = ["https://a.example/rss"]\n'
                   '[skills.calendar]\nenabled = true\nsources = ["/home/me/cal.ics"]\nhorizon_hours = 48\n'
                   '[skills.web]\nenabled = true\n[skills.slack]\nenabled = true\nwebhook_env = "SLACK_HOOK"\n'
                   ).skills
    assert skills.email.imap_port_in_use == 993 and skills.email.smtp_port_in_use == 465
    assert skills.email.smtp_host_in_use == "imap.example.org" and skills.email.folders == ("INBOX",)
    assert skills.calendar.horizon_hours == 48 and skills.feeds.urls == ("https://a.example/rss",)
    assert skills.web.enabled and not skills.web.allow_private and skills.slack.webhook_env == "SLACK_HOOK"


@pytest.mark.parametrize(("table", "key", "words"), [
    ('imap_host = "imap.example.org"\nsecurity = "none"', "skills.email.imap_host", "loopback host"),
    ('imap_host = "127.0.0.1"\nsmtp_host = "smtp.example.org"\nsecurity = "none"', "skills.email.smtp_host",
     "loopback host"),
    ('imap_host = "127.0.0.1"\nsecurity = "ssl"', "skills.email.security", '"tls", "starttls" or "none"'),
    ('imap_host = "127.0.0.1"\npassword_env = "sk-abcdefghijklmnopqrstuvwxyz0123"', "skills.email.password_env",
     "looks like an API key"),
    ('imap_host = "127.0.0.1"\nimap_port = 70000', "skills.email.imap_port", "0 to 65535"),
])
def test_a_bad_email_table_is_the_loaders_sentence(table: str, key: str, words: str) -> None:
    text = f'[skills.email]\nenabled = true\nusername = "me"\npassword_env = "PW"\n{table}\n'
    text = text.replace('password_env = "PW"\n', "") if "password_env" in table else text
    with pytest.raises(ConfigError) as caught:
        parse(text)
    assert key in str(caught.value) and words in str(caught.value)
    assert "sk-abcdefghijklmnopqrstuvwxyz0123" not in str(caught.value)


def test_loopback_names_are_accepted_with_security_none() -> None:
    for host in ("127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost"):
        settings = parse(f'[skills.email]\nenabled = true\nimap_host = "{host}"\nusername = "me"\n'
                         'password_env = "PW"\nsecurity = "none"\n').skills.email
        assert settings.imap_port_in_use == 143 and settings.smtp_port_in_use == 25


def test_a_webhook_pasted_where_its_variable_name_goes_is_refused_without_repeating_it() -> None:
    with pytest.raises(ConfigError) as caught:
        parse('[skills.slack]\nenabled = true\nwebhook_env = "https://hooks.slack.com/services/T0/B0/XYZsecret"\n')
    assert "XYZsecret" not in str(caught.value) and "NAME of an environment variable" in str(caught.value)


def test_unknown_keys_of_a_skill_table_are_warnings() -> None:
    import tomllib

    loaded = config.parse(tomllib.loads('[skills.feeds]\nenabled = true\nurl = "x"\n'), Path("c.toml"), {})
    assert any("skills.feeds.url" in warning for warning in loaded.warnings)


# --- feeds -------------------------------------------------------------------------------------------------


async def test_feeds_new_items_after_the_baseline_and_a_304_when_nothing_changed(
        web_server: WebServer, tmp_path: Path) -> None:
    now = datetime(2025, 3, 1, 12, 0)
    items = [("a1", "First story", (now - timedelta(hours=2)).strftime(RFC822))]
    web_server.state.put("/rss.xml", rss(items), "application/rss+xml")
    web_server.state.put("/atom.xml", atom([("urn:x:1", "Atom one", "2025-03-01T10:00:00Z")]),
                         "application/atom+xml")
    skill = FeedsSkill(tmp_path / "feeds")
    skill.configure(FeedsSettings(True, (web_server.url + "/rss.xml", web_server.url + "/atom.xml")))
    try:
        await skill.poll(1000.0)
        assert skill.state == CONNECTED and skill.new_items(None) == []
        sent = web_server.state.bytes_sent
        await skill.poll(2000.0)
        assert web_server.state.bytes_sent == sent  # both answered 304: no body
        assert all("If-None-Match" in headers for _, headers in web_server.state.requests[-2:])
        items.insert(0, ("a2", "Second story", (now - timedelta(hours=1)).strftime(RFC822)))
        web_server.state.put("/rss.xml", rss(items), "application/rss+xml")
        await skill.poll(3000.0)
        [item] = skill.new_items(2500.0)
        assert item.line.startswith("feed: Second story, https://news.example/a2, 2025-03-01 ")
        signature = skill.log.signature()
        await skill.poll(4000.0)
        assert skill.log.signature() == signature and skill.new_items(3500.0) == []
        text, is_error = await call(skill, "feeds_recent", limit=2)
        assert not is_error and text.index("Second story") < text.index("First story")
    finally:
        await skill.aclose()


@pytest.mark.logs_expected(r"answered HTTP", r"is not an RSS or Atom feed")
async def test_a_feed_that_fails_puts_the_skill_in_error_and_it_recovers(web_server: WebServer,
                                                                         tmp_path: Path) -> None:
    skill = FeedsSkill(tmp_path / "feeds")
    skill.configure(FeedsSettings(True, (web_server.url + "/missing.xml",)))
    try:
        await skill.poll(1000.0)
        assert skill.state == ERROR and "HTTP 404" in skill.reason
        web_server.state.put("/missing.xml", "this is not a feed at all", "text/plain")
        await skill.poll(2000.0)
        assert skill.state == ERROR and "not an RSS or Atom feed" in skill.reason
        web_server.state.put("/missing.xml", rss([("x", "Now a feed", "Sat, 01 Mar 2025 10:00:00 +0000")]))
        await skill.poll(3000.0)
        assert skill.state == CONNECTED
    finally:
        await skill.aclose()


# --- calendars ---------------------------------------------------------------------------------------------

ICS = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
X-WR-CALNAME:Work
BEGIN:VTIMEZONE
TZID:Europe/Berlin
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE
BEGIN:VEVENT
UID:standup@test
SUMMARY:Stand-up
DTSTART;TZID=Europe/Berlin:20250324T090000
DTEND;TZID=Europe/Berlin:20250324T091500
RRULE:FREQ=DAILY
END:VEVENT
BEGIN:VEVENT
UID:dentist@test
SUMMARY:Dentist
LOCATION:Main Street 1
DTSTART:20250331T130000Z
END:VEVENT
END:VCALENDAR
"""


async def test_recurring_events_are_expanded_in_the_persons_zone_across_dst(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, web_server: WebServer) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    berlin = ZoneInfo("Europe/Berlin")
    (tmp_path / "work.ics").write_text(ICS)
    skill = CalendarSkill(tmp_path / "calendar")
    # Saturday 29 March 2025, 12:00 in Berlin: DST starts in the night to Sunday.
    start = datetime(2025, 3, 29, 12, 0, tzinfo=berlin).timestamp()
    skill.now = lambda: start
    skill.configure(CalendarSettings(True, (str(tmp_path / "work.ics"),), horizon_hours=72))
    text, is_error = await call(skill, "calendar_upcoming")
    assert not is_error
    lines = text.splitlines()
    # Stand-up stays at 09:00 local time on both sides of the change (CET on Sunday is CEST).
    assert lines[0].startswith("- 2025-03-30 09:00 CEST, Stand-up")
    assert lines[1].startswith("- 2025-03-31 09:00 CEST, Stand-up")
    assert "2025-03-31 15:00 CEST, Dentist (Main Street 1)" in text  # 13:00 UTC is 15:00 in Berlin summer time
    await skill.poll(start)
    assert skill.new_items(None) == []  # what is in the horizon when first read is the baseline
    later = start + 24 * 3600
    await skill.poll(later)  # a new day of the stand-up entered the horizon
    [item] = skill.new_items(start)
    assert item.line == "calendar: 2025-04-02 09:00 CEST, Stand-up"
    web_server.state.put("/cal.ics", ICS, "text/calendar")
    remote = CalendarSkill(tmp_path / "remote")
    remote.configure(CalendarSettings(True, (web_server.url + "/cal.ics",), horizon_hours=24))
    try:
        await remote.poll(start)
        sent = web_server.state.bytes_sent
        await remote.poll(start + 60)
        assert remote.state == CONNECTED and web_server.state.bytes_sent == sent  # 304
    finally:
        await remote.aclose()


@pytest.mark.logs_expected(r"Content line could not be parsed into parts")
async def test_a_calendar_that_cannot_be_read_says_which(tmp_path: Path) -> None:
    (tmp_path / "bad.ics").write_text("not a calendar")
    skill = CalendarSkill(tmp_path / "calendar")
    skill.configure(CalendarSettings(True, (str(tmp_path / "bad.ics"), str(tmp_path / "none.ics"))))
    await skill.poll(1000.0)
    assert skill.state == ERROR and "bad.ics" in skill.reason and "none.ics" in skill.reason


# --- web pages ---------------------------------------------------------------------------------------------

ARTICLE = ("<html><head><title>Local news</title><script>var tracking = 1;</script></head><body>"
           "<nav><a href='/'>Home</a> <a href='/more'>More menu items</a></nav>"
           "<article><h1>The bridge reopens</h1>" + "".join(
               f"<p>Paragraph {i}: the old bridge over the river reopens on Monday after two years of repairs, "
               "the council said.</p>" for i in range(8)) + "</article><footer>Copyright</footer></body></html>")


async def test_web_fetch_gives_the_article_and_refuses_private_addresses_and_redirects_to_them(
        web_server: WebServer) -> None:
    web_server.state.put("/article", ARTICLE)
    skill = WebSkill()
    skill.configure(WebSettings(True, allow_private=False))
    text, is_error = await call(skill, "web_fetch", url=web_server.url + "/article")
    assert is_error and "Refused" in text and "allow_private" in text
    assert not web_server.state.requests  # refused before any connection
    skill.configure(WebSettings(True, allow_private=True))
    text, is_error = await call(skill, "web_fetch", url=web_server.url + "/article")
    assert not is_error and "Paragraph 3: the old bridge" in text
    assert "tracking" not in text and "<p>" not in text
    text, is_error = await call(skill, "web_fetch", url="file:///etc/passwd")
    assert is_error and "Only http:// and https://" in text
    assert not is_public("169.254.169.254") and not is_public("10.1.2.3") and not is_public("::ffff:127.0.0.1")
    assert is_public("93.184.216.34")


async def test_web_fetch_caps_the_body_and_the_time(web_server: WebServer) -> None:
    web_server.state.put("/big", "<html><body><p>" + "word " * 400_000 + "</p></body></html>")
    skill = WebSkill()
    skill.configure(WebSettings(True, allow_private=True, max_bytes=64 * 1024, timeout_seconds=1))
    text, is_error = await call(skill, "web_fetch", url=web_server.url + "/big")
    assert not is_error and "cut" in text and len(text) < 70_000
    web_server.state.delay = 3.0
    text, is_error = await call(skill, "web_fetch", url=web_server.url + "/big")
    assert is_error and "did not answer within 1 s" in text


# --- Slack -------------------------------------------------------------------------------------------------


async def test_slack_post_answers_as_slack_does(web_server: WebServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    hook = web_server.url + "/services/T000/B000/secretpart"
    env = {"SLACK_HOOK": hook}
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    skill = SlackSkill(env, sleep=sleep)
    skill.configure(SlackSettings(True, "SLACK_HOOK"))
    try:
        assert skill.state == CONNECTED
        text, is_error = await call(skill, "slack_post", text="Daily summary: all quiet.")
        assert not is_error and web_server.state.posts == [{"text": "Daily summary: all quiet."}]
        web_server.state.slack_answers = [(429, "rate_limited", {"Retry-After": "2"})]
        text, is_error = await call(skill, "slack_post", text="second")
        assert not is_error and waits == [2.0] and web_server.state.posts[-1] == {"text": "second"}
        web_server.state.slack_answers = [(404, "no_service", {})]
        text, is_error = await call(skill, "slack_post", text="third")
        assert is_error and "no longer exists (no_service)" in text
        assert skill.state == ERROR and "no_service" in skill.reason
        text, is_error = await call(skill, "slack_post", text="fourth")  # the webhook works again
        assert not is_error and skill.state == CONNECTED
        # The app keeps httpx's request lines (which name the URL) out of its log (applog: WARNING and up).
        ours = [record.getMessage() for record in caplog.records
                if record.name.startswith("openhuman_desktop") or record.levelno >= logging.WARNING]
        assert not any("secretpart" in line for line in ours)
    finally:
        await skill.aclose()
    unset = SlackSkill({})
    unset.configure(SlackSettings(True, "SLACK_HOOK"))
    assert unset.state == ERROR and "$SLACK_HOOK" in unset.reason
    off = SlackSkill(env)
    off.configure(SlackSettings(False, "SLACK_HOOK"))
    assert off.state == DISABLED and off.tools() == ()
