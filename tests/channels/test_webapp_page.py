"""The web app's page in a real browser (Debian's chromium through Playwright): a chat round trip with
streaming, Markdown from the model rendered safely, an approval by click, history on reload, reconnecting
after the app restarts, the keyboard, and a narrow window."""

from __future__ import annotations

import os
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from openhuman_desktop.channels.base import CONNECTED
from tests.channels.conftest import WebApp, open_page, wait_until
from tests.fakes.agent_model import AgentModel, AgentScript, call, say

pytestmark = pytest.mark.e2e

NASTY = (
    "Here is **bold**, *italic*, `code` and a [link](https://example.org/docs).\n\n"
    "- first\n- second\n\n"
    "<script>window.pwned = 1</script>\n"
    '<img src="x" onerror="window.pwned = 2">\n'
    "[click me](javascript:window.pwned=3)\n\n"
    "```python\nprint('<b>not bold</b>')\n```"
)


async def send(page: Page, text: str) -> None:
    box = page.locator("#composer-input")
    await box.fill(text)
    await box.press("Enter")


async def test_a_chat_round_trip_streams_into_the_page(browser: Browser, web_app: WebApp,
                                                        model: AgentModel) -> None:
    model.script = AgentScript(answer="Sure. **Three** things:\n\n1. one\n2. two\n3. three")
    page = await open_page(browser, web_app)
    frames: list[dict[str, Any]] = page.frames_received  # type: ignore[attr-defined]
    await send(page, "What should I do today?")
    user = page.locator(".msg-user .bubble")
    await expect(user).to_have_text("What should I do today?")
    answer = page.locator(".msg-assistant .bubble")
    await expect(answer.locator("ol li")).to_have_count(3)
    await expect(answer.locator("strong")).to_have_text("Three")
    await expect(page.locator(".msg-assistant")).not_to_have_attribute("aria-busy", "true")
    await expect(page.locator("#announcer")).to_contain_text("OpenHuman: Sure.")
    kinds = [frame["type"] for frame in frames]
    assert "run" in kinds and "delta" in kinds and kinds.index("delta") < kinds.index("reply"), kinds
    assert await page.locator("#composer-input").input_value() == ""
    assert page.errors == []  # type: ignore[attr-defined]  # no CSP violation, no script error
    [run] = await web_app.runs(frames[0]["thread_id"])
    assert run.status == "completed" and run.input == "What should I do today?"


async def test_model_markup_is_shown_as_text_and_never_runs(browser: Browser, web_app: WebApp,
                                                             model: AgentModel) -> None:
    model.script = AgentScript(answer=NASTY)
    page = await open_page(browser, web_app)
    await send(page, "show me markdown")
    bubble = page.locator(".msg-assistant .bubble")
    await expect(bubble.locator("pre code")).to_have_text("print('<b>not bold</b>')")
    await expect(bubble).to_contain_text("<script>window.pwned = 1</script>")
    await expect(bubble).to_contain_text('<img src="x" onerror="window.pwned = 2">')
    assert await page.evaluate("window.pwned") is None
    assert await bubble.locator("img, script, b").count() == 0
    assert await bubble.locator("strong").all_inner_texts() == ["bold"]
    assert await bubble.locator("li").all_inner_texts() == ["first", "second"]
    links = bubble.locator("a")
    assert await links.count() == 1
    assert await links.get_attribute("href") == "https://example.org/docs"
    assert "noopener" in (await links.get_attribute("rel") or "")
    await expect(bubble).to_contain_text("[click me](javascript:window.pwned=3)")


async def test_history_comes_back_on_reload(browser: Browser, web_app: WebApp, model: AgentModel) -> None:
    model.script = AgentScript(answer="First answer.")
    page = await open_page(browser, web_app)
    await send(page, "first question")
    await expect(page.locator(".msg-assistant .bubble")).to_have_text("First answer.")
    assert "token" not in page.url  # the key left the address bar (kept by the page)
    await page.reload()
    await page.wait_for_selector('#status[data-state="connected"]')
    await expect(page.locator(".msg-user .bubble")).to_have_text("first question")
    await expect(page.locator(".msg-assistant .bubble")).to_have_text("First answer.")
    model.script = AgentScript(answer="Second answer.")
    await send(page, "second question")
    await expect(page.locator(".msg-assistant .bubble")).to_have_text(["First answer.", "Second answer."])
    session = await page.evaluate("localStorage.getItem('openhuman.session')")
    assert [run.input for run in await web_app.runs(f"webapp:{session}")] == ["second question", "first question"]


async def test_go_ahead_on_a_card_approves_it_once(browser: Browser, web_app: WebApp, model: AgentModel) -> None:
    model.script = AgentScript(
        subtasks=[("Look at the notes", "Read notes.md")],
        steps={"Look at the notes": [call("files_read", path="notes.md"), say("notes.md is missing.")]},
        reply="There is no notes.md.\nRECOMMENDED ACTION: create notes.md with the text hello",
    )
    page = await open_page(browser, web_app)
    await send(page, "What is in my notes?")
    card = page.locator(".card")
    await expect(card.locator(".card-text")).to_have_text("create notes.md with the text hello")
    await expect(card.get_by_role("button", name="Go ahead")).to_be_visible()
    model.script = AgentScript(steps={"The task": [
        call("files_write", path="notes.md", text="hello\n"), say("Created notes.md.")]})
    await card.get_by_role("button", name="Go ahead").click()
    await expect(card).to_have_attribute("data-status", "approved")
    await expect(card.get_by_role("button")).to_have_count(0)
    await expect(page.locator(".msg-approved .bubble")).not_to_be_empty()

    async def written() -> bool:  # its text, not only its name: the tool creates the file, then writes it
        path = web_app.paths.workspace / "notes.md"
        return path.exists() and path.read_text() != ""

    await wait_until(written, 30, "notes.md written by the approved action")
    assert (web_app.paths.workspace / "notes.md").read_text() == "hello\n"
    services = web_app.services
    assert services is not None
    [approved] = await services.approvals.escalations_list("approved")
    assert approved.thread_id is not None and approved.thread_id.startswith("webapp:")


async def test_a_card_shows_its_own_choices_fix_in_skills_answers_and_a_go_ahead_that_changed_nothing_retries(
    browser: Browser, web_app: WebApp, model: AgentModel
) -> None:
    # Issue 25: the buttons the core chose, the same as the desktop's; Fix in Skills says the skill's state here.
    model.script = AgentScript(reply="The files skill failed.\nRECOMMENDED ACTION: Reconnect the Workspace files skill")
    page = await open_page(browser, web_app)
    await send(page, "Why did my notes not sync?")
    card = page.locator(".card")
    await expect(card.get_by_role("button")).to_have_text(["Fix in Skills", "Skip"])
    await card.get_by_role("button", name="Fix in Skills").click()
    await expect(card.locator(".card-result")).to_contain_text("Workspace files")
    await expect(card.locator(".card-result")).to_contain_text("Skills tab")
    services = web_app.services
    assert services is not None
    [pending] = await services.approvals.escalations_list("pending")
    assert pending.choices == ("fix_in_skills", "skip"), "Fix in Skills approves nothing"

    model.script = AgentScript(reply="Found it.\nRECOMMENDED ACTION: Archive the advised report")
    await send(page, "Anything about the report?")
    second = page.locator(".card").nth(1)
    await expect(second.get_by_role("button")).to_have_text(["Go ahead", "Skip"])
    model.script = AgentScript(steps={"The task": [say("Everything looks fine.")]})
    await second.get_by_role("button", name="Go ahead").click()
    # It changed nothing: the card comes back, says so, and offers Retry / Skip (never shown as done).
    back = page.locator(".card").nth(1)
    await expect(back.locator(".card-note")).to_contain_text("Go ahead did not change anything", timeout=30_000)
    await expect(back.get_by_role("button")).to_have_text(["Retry", "Skip"])
    assert await back.get_attribute("data-status") is None
    assert page.errors == []  # type: ignore[attr-defined]


async def test_the_page_reconnects_after_the_app_restarts(browser: Browser, web_app: WebApp,
                                                          model: AgentModel) -> None:
    model.script = AgentScript(answer="Before the restart.")
    page = await open_page(browser, web_app)
    await send(page, "one")
    await expect(page.locator(".msg-assistant .bubble")).to_have_text("Before the restart.")
    await web_app.stop()
    await expect(page.locator("#status")).to_have_attribute("data-state", "offline")
    await web_app.start()
    assert web_app.channel.status().state == CONNECTED
    await expect(page.locator("#status")).to_have_attribute("data-state", "connected", timeout=20_000)
    await expect(page.locator(".msg-assistant .bubble")).to_have_text("Before the restart.")
    model.script = AgentScript(answer="After the restart.")
    await send(page, "two")
    await expect(page.locator(".msg-assistant .bubble")).to_have_text(["Before the restart.", "After the restart."])


async def test_a_page_with_a_wrong_key_says_what_to_do(browser: Browser, web_app: WebApp) -> None:
    context = await browser.new_context()
    page = await context.new_page()
    await page.goto(web_app.url + "#token=wrong")
    await expect(page.locator("#status")).to_have_attribute("data-state", "refused", timeout=20_000)
    await expect(page.locator("#status-text")).to_contain_text("tray menu")


async def test_shift_enter_is_a_new_line_and_enter_sends(browser: Browser, web_app: WebApp) -> None:
    page = await open_page(browser, web_app)
    box = page.locator("#composer-input")
    await box.focus()
    await page.keyboard.type("line one")
    await page.keyboard.press("Shift+Enter")
    await page.keyboard.type("line two")
    assert await box.input_value() == "line one\nline two"
    await expect(page.locator(".msg-user")).to_have_count(0)
    await page.keyboard.press("Enter")
    await expect(page.locator(".msg-user .bubble")).to_have_text("line one\nline two")
    await expect(page.locator(".msg-assistant .bubble")).not_to_be_empty()
    assert await page.get_by_label("Message to OpenHuman").count() == 1
    assert await page.get_by_role("log", name="Conversation").count() == 1
    assert await page.get_by_role("button", name="Send message").count() == 1
    assert await page.get_by_role("button", name="New chat").count() == 1
    snapshot = await page.locator("body").aria_snapshot()
    assert "- button\n" not in snapshot + "\n" and "- button:" not in snapshot  # every button has a name


async def test_a_narrow_window_has_no_sideways_scrolling(browser: Browser, web_app: WebApp,
                                                          model: AgentModel) -> None:
    model.script = AgentScript(answer="A long line: " + "word " * 80 + "\n\n```\n" + "x" * 300 + "\n```")
    page = await open_page(browser, web_app, width=360, height=700)
    await send(page, "a long answer, please " + "longword" * 20)
    await expect(page.locator(".msg-assistant pre")).to_be_visible()
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    assert await page.locator("#send").is_visible()


async def test_a_card_resolved_elsewhere_updates_and_a_late_click_says_so(browser: Browser, web_app: WebApp,
                                                                           model: AgentModel) -> None:
    model.script = AgentScript(reply="Nothing to read.\nRECOMMENDED ACTION: write a summary to notes.md")
    page = await open_page(browser, web_app)
    other = await open_page(browser, web_app)  # a second tab on its own session: it never sees this card
    await send(page, "What is new?")
    card = page.locator(".card")
    await expect(card.get_by_role("button", name="Skip")).to_be_visible()
    services = web_app.services
    assert services is not None
    [pending] = await services.approvals.escalations_list("pending")
    await services.channels.dismiss(pending.id)  # the desktop window's Skip, say
    await expect(card).to_have_attribute("data-status", "dismissed")
    await expect(card.locator(".card-result")).to_have_text("Skipped.")
    await expect(card.get_by_role("button")).to_have_count(0)
    assert await other.locator(".card").count() == 0

    # A tab that missed the update and sends Go ahead anyway: one sentence back, nothing done.
    frames = page.frames_received  # type: ignore[attr-defined]
    await page.evaluate("""id => new Promise(resolve => {
        const socket = new WebSocket(`ws://${location.host}/ws?token=${localStorage.getItem('openhuman.token')}`
                                     + `&session=${localStorage.getItem('openhuman.session')}`);
        socket.onmessage = event => {
            const frame = JSON.parse(event.data);
            if (frame.type === 'history') socket.send(JSON.stringify({type: 'approve', escalation_id: id}));
            if (frame.type === 'error') { window.lateError = frame; socket.close(); resolve(); }
        };
    })""", pending.id)
    late = await page.evaluate("window.lateError")
    assert late["escalation_id"] == pending.id and "already" in late["message"].lower(), late
    assert [card.status for card in await services.approvals.escalations_list(None)] == ["dismissed"]
    assert frames  # the page's own socket stayed up throughout


async def test_another_site_in_the_browser_cannot_use_the_socket_or_rebind_the_name(
    web_app: WebApp
) -> None:
    from aiohttp import web
    from playwright.async_api import async_playwright

    from tests.channels.conftest import CHROMIUM

    async def elsewhere(request: web.Request) -> web.Response:
        return web.Response(text="<!doctype html><title>elsewhere</title>", content_type="text/html")

    other = web.Application()
    other.router.add_get("/", elsewhere)
    runner = web.AppRunner(other)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    other_port = runner.addresses[0][1]
    args = ["--host-resolver-rules=MAP evil.test 127.0.0.1"]
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                       args=args + (["--no-sandbox"] if os.geteuid() == 0 else []))
            page = await browser.new_page()
            # A page of another origin that knows the key still cannot open the socket (Origin is checked).
            await page.goto(f"http://127.0.0.1:{other_port}/")
            outcome = await page.evaluate("""url => new Promise(resolve => {
                const socket = new WebSocket(url);
                socket.onopen = () => resolve('open');
                socket.onclose = () => resolve('refused');
            })""", web_app.socket_url())
            assert outcome == "refused"
            # A name of another site pointed at 127.0.0.1 (DNS rebinding): even the page is refused.
            response = await page.goto(f"http://evil.test:{web_app.port}/")
            assert response is not None and response.status == 403
            await browser.close()
    finally:
        await runner.cleanup()
    assert web_app.channel.tab_count == 0
    assert web_app.model.seen == []
