"""The Telegram channel in the real app core, against a fake Bot API (real HTTP) and a fake agent model:
allow-list, streaming round trips, splitting and escaping, approval buttons, failures and recovery, status."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest

from openhuman_desktop.channels.base import InboundMessage
from openhuman_desktop.channels.telegram_format import utf16_length
from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.store.events import EscalationChanged
from openhuman_desktop.store.records import Escalation
from tests.fakes.agent_model import PLAN, AgentModel, AgentScript, call, say
from tests.fakes.telegram_api import TOKEN, FakeTelegram
from tests.fakes.telegram_harness import OWNER, STRANGER, TEAM, TelegramApp, slow_stream, telegram_app

NASTY = "Look: _*[]()~`>#+-=|{}.! and <b>bold?</b> & \\ done"


async def connected(app: TelegramApp) -> None:
    await app.wait_until(lambda: app.status()["state"] == "connected", what="connected")


async def test_a_stranger_gets_no_run_no_model_call_and_one_polite_answer_with_the_chat_id(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        app.telegram.send_text(STRANGER, "hello, who are you?")
        [told] = await app.telegram.await_call("sendMessage", STRANGER)
        assert str(STRANGER) in told.params["text"] and "allowed_chat_ids" in told.params["text"]
        app.telegram.send_text(STRANGER, "hello again")
        app.telegram.send_text(OWNER, "hi")  # an allowed chat in the same stream: answered, so the stranger's was seen
        await app.telegram.await_call("sendMessage", OWNER)
        assert len(app.telegram.calls_of("sendMessage", STRANGER)) == 1  # once a day, not per message
        assert await app.runs(STRANGER) == []
        assert all("hello" not in str(seen.messages) for seen in app.model.seen)


async def test_a_private_chat_streams_drafts_then_gets_one_real_message(tmp_path: Path) -> None:
    answer = "Here is a longer answer that arrives in several pieces so the chat can watch it being written."
    with slow_stream(0.3):
        async with telegram_app(tmp_path, script=AgentScript(answer=answer)) as app:
            await connected(app)
            app.telegram.send_text(OWNER, "tell me something")
            [final] = await app.telegram.await_call("sendMessage", OWNER)
            assert final.params["text"] == answer
            drafts = app.telegram.calls_of("sendMessageDraft", OWNER)
            assert drafts and all(d.at < final.at for d in drafts)
            assert all(answer.startswith(d.params["text"]) for d in drafts)
            assert len({d.params["draft_id"] for d in drafts}) == 1
            assert app.telegram.calls_of("sendChatAction", OWNER)[0].params["action"] == "typing"
            [run] = await app.runs(OWNER)
            assert run.status == "completed" and run.input == "tell me something"
            await app.wait_idle([OWNER])


async def test_a_group_gets_one_preview_edited_at_most_once_a_second_then_the_real_message(tmp_path: Path) -> None:
    answer = " ".join(f"word{i}" for i in range(40))
    with slow_stream(0.25):
        async with telegram_app(tmp_path, script=AgentScript(answer=answer)) as app:
            await connected(app)
            app.telegram.send_text(TEAM, "status report please")
            final = (await app.telegram.await_call("sendMessage", TEAM, count=2))[-1]
            preview, *_ = app.telegram.calls_of("sendMessage", TEAM)
            assert final.params["text"] == answer and preview.at < final.at
            assert not app.telegram.calls_of("sendMessageDraft")  # drafts are for private chats only
            edits = app.telegram.calls_of("editMessageText", TEAM)
            shown = [preview, *edits]
            assert all(later.at - earlier.at >= 0.9 for earlier, later in zip(shown, shown[1:], strict=False))
            deleted = await app.telegram.await_call("deleteMessage", TEAM)
            assert len(deleted) == 1  # the preview goes; the answer stays
            assert len(app.telegram.sent_texts(TEAM)) == 2


async def test_nasty_text_arrives_exactly_and_markdown_becomes_entities(tmp_path: Path) -> None:
    answer = f"{NASTY}\n\n**Bold** and `code`"
    async with telegram_app(tmp_path, script=AgentScript(answer=answer)) as app:
        await connected(app)
        app.telegram.send_text(OWNER, "show me")
        [final] = await app.telegram.await_call("sendMessage", OWNER)
        assert "parse_mode" not in final.params  # text sent as is: nothing in it can be read as markup
        assert final.params["text"] == f"{NASTY}\n\nBold and code"
        kinds = {(e["type"], final.params["text"][e["offset"]:e["offset"] + e["length"]])
                 for e in final.params["entities"]}
        assert kinds == {("bold", "Bold"), ("code", "code")}


async def test_a_long_answer_is_split_at_the_limit_and_never_inside_a_code_block(tmp_path: Path) -> None:
    prose = "\n".join(f"Line {i}: " + "x" * 60 for i in range(60))
    code = "\n".join(f"print({i})" for i in range(200))
    answer = f"{prose}\n\n```python\n{code}\n```\n\nThat was all. 🎉" + " end" * 300
    async with telegram_app(tmp_path, script=AgentScript(answer=answer)) as app:
        await connected(app)
        app.telegram.send_text(OWNER, "long please")
        await app.wait_until(lambda: "end" in (app.telegram.sent_texts(OWNER) or [""])[-1], what="the last part")
        parts = app.telegram.calls_of("sendMessage", OWNER)
        assert len(parts) >= 2
        assert all(utf16_length(p.params["text"]) <= 4096 for p in parts)
        code_parts = [p for p in parts if any(e["type"] == "pre" for e in p.params.get("entities", []))]
        [block] = code_parts
        [pre] = [e for e in block.params["entities"] if e["type"] == "pre"]
        assert pre["language"] == "python"
        assert block.params["text"][pre["offset"]:pre["offset"] + pre["length"]] == code
        assert "".join(p.params["text"] for p in parts).replace("\n", "") == (
            f"{prose}\n\n{code}\n\nThat was all. 🎉" + " end" * 300).replace("\n", "")


async def test_a_card_is_approved_by_its_button_once_and_never_by_a_stranger(tmp_path: Path) -> None:
    script = AgentScript(reply="Nothing there.\nRECOMMENDED ACTION: create notes.md with the text hello")
    async with telegram_app(tmp_path, script=script) as app:
        await connected(app)
        app.telegram.send_text(OWNER, "What is in my notes?")
        await app.wait_until(lambda: any("reply_markup" in c.params for c in app.telegram.calls_of("sendMessage")),
                             what="the card")
        [card_call] = [c for c in app.telegram.calls_of("sendMessage", OWNER) if "reply_markup" in c.params]
        assert "create notes.md" in card_call.params["text"]
        [[go, skip]] = card_call.params["reply_markup"]["inline_keyboard"]
        assert (go["text"], skip["text"]) == ("Go ahead", "Skip")
        [message_id] = [mid for (chat, mid), m in app.telegram.messages.items()
                        if chat == OWNER and "reply_markup" in m]
        [pending] = await app.services.approvals.escalations_list("pending")
        assert go["callback_data"] == f"approve:{pending.id}"

        stranger = app.telegram.press(STRANGER, message_id, go["callback_data"])
        await app.telegram.await_call("answerCallbackQuery")
        assert [e.id for e in await app.services.approvals.escalations_list("pending")] == [pending.id]

        # The approved run makes the change (a run that changed nothing would put the card back as pending: a
        # race with the checks below on a busy machine).
        app.model.script = AgentScript(steps={"The task": [
            call("files_write", path="notes.md", text="hello\n"), say("Created notes.md.")]})
        first = app.telegram.press(OWNER, message_id, go["callback_data"])
        await app.telegram.await_call("answerCallbackQuery", count=2)
        await app.wait_until(lambda: "reply_markup" not in app.telegram.messages[(OWNER, message_id)],
                             what="the card without buttons")
        assert app.telegram.messages[(OWNER, message_id)]["text"].startswith("Approved")
        second = app.telegram.press(OWNER, message_id, go["callback_data"])
        answers = {c.params["callback_query_id"]: c.params["text"]
                   for c in await app.telegram.await_call("answerCallbackQuery", count=3)}
        assert "owner" in answers[stranger]
        assert answers[first] == "Going ahead."
        assert "already approved" in answers[second]
        assert [e.id for e in await app.services.approvals.escalations_list("approved")] == [pending.id]
        await app.wait_until(lambda: len(app.telegram.sent_texts(OWNER)) >= 3, what="the approved run's answer")


MEMBER = 4444  # another member of the allowed group TEAM


async def card_in(app: TelegramApp, chat: int) -> tuple[int, str, Escalation]:
    """Ask in ``chat`` for something that ends in a card; (its message id, Go ahead's callback data, the card)."""
    app.telegram.send_text(chat, "What is in my notes?", from_id=OWNER)
    await app.wait_until(lambda: any("reply_markup" in c.params for c in app.telegram.calls_of("sendMessage", chat)),
                         what="the card")
    [message_id] = [mid for (at, mid), m in app.telegram.messages.items() if at == chat and "reply_markup" in m]
    [pending] = await app.services.approvals.escalations_list("pending")
    return message_id, f"approve:{pending.id}", pending


async def test_in_an_allowed_group_only_the_owner_may_press_go_ahead(tmp_path: Path) -> None:
    """The chat was checked, not the presser: any member of an allowed group could approve a write."""
    script = AgentScript(reply="Nothing there.\nRECOMMENDED ACTION: create notes.md with the text hello")
    async with telegram_app(tmp_path, script=script) as app:
        await connected(app)
        message_id, go, pending = await card_in(app, TEAM)
        member = app.telegram.press(TEAM, message_id, go, from_id=MEMBER)
        [refused] = await app.telegram.await_call("answerCallbackQuery")
        assert refused.params["callback_query_id"] == member
        assert "Only the owner can decide this" in refused.params["text"] and str(MEMBER) in refused.params["text"]
        assert [e.id for e in await app.services.approvals.escalations_list("pending")] == [pending.id]
        assert "reply_markup" in app.telegram.messages[(TEAM, message_id)]

        owner = app.telegram.press(TEAM, message_id, go, from_id=OWNER)  # the owner, in the group
        answers = await app.telegram.await_call("answerCallbackQuery", count=2)
        assert {c.params["callback_query_id"]: c.params["text"] for c in answers}[owner] == "Going ahead."
        assert [e.id for e in await app.services.approvals.escalations_list("approved")] == [pending.id]


async def test_allowed_user_ids_name_who_may_press(tmp_path: Path) -> None:
    script = AgentScript(reply="Nothing there.\nRECOMMENDED ACTION: create notes.md with the text hello")
    async with telegram_app(tmp_path, script=script, users=[MEMBER]) as app:
        await connected(app)
        message_id, skip, pending = await card_in(app, TEAM)
        skip = skip.replace("approve:", "dismiss:")
        app.telegram.press(TEAM, message_id, skip, from_id=OWNER)  # not in allowed_user_ids any more
        [refused] = await app.telegram.await_call("answerCallbackQuery")
        assert "Only the owner can decide this" in refused.params["text"]
        assert [e.id for e in await app.services.approvals.escalations_list("pending")] == [pending.id]
        app.telegram.press(TEAM, message_id, skip, from_id=MEMBER)
        await app.telegram.await_call("answerCallbackQuery", count=2)
        assert [e.id for e in await app.services.approvals.escalations_list("dismissed")] == [pending.id]


async def test_stop_ends_the_chats_run_and_the_chat_is_told(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        app.model.delays = {"plan": 30}  # the run works on its plan until stopped
        app.telegram.send_text(OWNER, "What is on my list today?")
        await app.wait_until(lambda: app.model.count("plan") >= 1, what="the run at work")
        [run] = await app.runs(OWNER)
        app.telegram.send_text(OWNER, "/stop")
        [told] = await app.telegram.await_call("sendMessage", OWNER)
        assert told.params["text"] == "Stopped by you."
        [stopped] = await app.runs(OWNER)
        assert (stopped.id, stopped.status, stopped.error) == (run.id, "cancelled", "Stopped by you.")
        assert await app.runs(TEAM) == []

        app.telegram.send_text(OWNER, "/stop@my_bot")  # nothing going on any more
        [_, nothing] = await app.telegram.await_call("sendMessage", OWNER, count=2)
        assert nothing.params["text"] == "Nothing is running here to stop."
        assert len(await app.runs(OWNER)) == 1  # /stop is no message to the assistant


@pytest.mark.logs_expected(r"get the token from @BotFather, put it in",
                           r"was not delivered \(Telegram refused the bot token")  # when the answer is quicker
async def test_a_revoked_token_degrades_with_the_fix_and_recovers_by_itself(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        app.telegram.revoke()
        app.telegram.send_text(OWNER, "are you there?")
        await app.wait_until(lambda: app.status()["state"] == "degraded", what="degraded")
        reason = app.status()["state_reason"]
        assert "401" in reason and "@BotFather" in reason and "OPENHUMAN_TEST_TELEGRAM_TOKEN" in reason
        assert TOKEN not in reason
        app.telegram.heal()
        await connected(app)
        await app.telegram.await_call("sendMessage", OWNER)  # the message sent meanwhile is answered
        assert len(await app.runs(OWNER)) == 1


@pytest.mark.logs_expected(r"telegram: Telegram asked the bot to slow down", r"was not delivered")
async def test_a_429_is_waited_out_as_told(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        app.telegram.flood(retry_after=2)
        app.telegram.send_text(OWNER, "hi")  # ends the long poll in flight; the next one gets the 429
        await app.wait_until(lambda: app.status()["state"] == "degraded", what="degraded")
        assert "429" in app.status()["state_reason"] and "2 s" in app.status()["state_reason"]
        await connected(app)
        [refused] = app.telegram.refused
        after = [c for c in app.telegram.calls_of("getUpdates") if c.at > refused.at]
        assert after[0].at - refused.at >= 1.95  # retry_after honoured (less a timer's rounding)
        await app.telegram.await_call("sendMessage", OWNER)


@pytest.mark.logs_expected(r"stop the other copy of the bot or give this one a token of")
async def test_another_poller_409_degrades_and_recovers(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        app.telegram.conflict(count=2)
        app.telegram.send_text(OWNER, "hi")
        await app.wait_until(lambda: "409" in app.status()["state_reason"], what="409 in the reason")
        assert "another copy" in app.status()["state_reason"] or "other copy" in app.status()["state_reason"]
        await app.telegram.await_call("sendMessage", OWNER)
        await connected(app)


@pytest.mark.logs_expected(r"telegram: Telegram cannot be reached at")
async def test_the_bot_api_down_then_up_again_loses_nothing(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        port = app.telegram.port
        app.telegram.stop()
        await app.wait_until(lambda: app.status()["state"] == "degraded", what="degraded")
        assert "cannot be reached" in app.status()["state_reason"]
        app.telegram.send_text(OWNER, "sent while the bot was away")
        app.telegram.start(port=port)
        await app.telegram.await_call("sendMessage", OWNER, timeout=30)
        await connected(app)
        [run] = await app.runs(OWNER)
        assert run.input == "sent while the bot was away"


async def test_the_same_update_handed_in_again_is_one_run(tmp_path: Path) -> None:
    model = AgentModel(AgentScript(answer="once"))
    model.delays[PLAN] = 1.0
    async with telegram_app(tmp_path) as app:
        app.ollama.set_responder(model)
        await connected(app)
        app.telegram.ignore_offsets = True  # the confirmations get lost: every poll gets the update again
        polls = len(app.telegram.calls_of("getUpdates"))
        app.telegram.send_text(OWNER, "only once please")
        await app.wait_until(lambda: len(app.telegram.calls_of("getUpdates")) >= polls + 4, what="repeated polls")
        app.telegram.ignore_offsets = False
        await app.wait_until(lambda: app.telegram.pending_updates == 0, what="the update confirmed")
        await app.telegram.await_call("sendMessage", OWNER)
        await app.wait_idle([OWNER])
        assert len(await app.runs(OWNER)) == 1
        assert app.telegram.sent_texts(OWNER) == ["once"]


async def test_channels_status_and_disabled(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        entry = app.status()
        assert entry["enabled"] is True and entry["state_reason"].startswith("Connected as @")
        app.paths.config_file.write_text(
            app.paths.config_file.read_text().replace("enabled = true", "enabled = false", 1))
        assert await app.services.settings.reload()
        await app.services.channels.reconfigure()
        entry = app.status()
        assert (entry["enabled"], entry["state"]) == (False, "disabled")
        assert "enabled = false" in entry["state_reason"]


@pytest.mark.logs_expected(r"telegram: No bot token: the environment variable")
async def test_no_token_says_which_variable_to_set(tmp_path: Path) -> None:
    async with telegram_app(tmp_path, token=None) as app:
        entry = app.status()
        assert entry["state"] == "degraded" and "OPENHUMAN_TEST_TELEGRAM_TOKEN" in entry["state_reason"]
        assert app.telegram.calls == []


async def test_a_heartbeat_card_goes_to_every_allowed_private_chat_and_loses_its_buttons_when_resolved(
    tmp_path: Path,
) -> None:
    second_owner = 4444
    async with telegram_app(tmp_path, allowed=(OWNER, TEAM, second_owner)) as app:
        await connected(app)
        card = Escalation(id="e1", task_id="t1", log_id=None, title="Tidy the inbox",
                          description="Archive 30 old newsletters", priority="normal", status="pending",
                          created_at=1.0, resolved_at=None, thread_id="subconscious:t1")
        app.services.bus.publish(EscalationChanged(card))
        shown = await app.telegram.await_call("sendMessage", count=2)
        assert sorted(c.params["chat_id"] for c in shown) == [OWNER, second_owner]  # not the group, not strangers
        assert all("Tidy the inbox" in c.params["text"] and "reply_markup" in c.params for c in shown)
        app.services.bus.publish(EscalationChanged(replace(card, status="dismissed", resolved_at=2.0)))
        edits = await app.telegram.await_call("editMessageText", count=2)
        assert all(e.params["text"] == "Skipped: Tidy the inbox" and "reply_markup" not in e.params for e in edits)
        [(_, message_id)] = [key for key in app.telegram.messages if key[0] == OWNER]
        query = app.telegram.press(OWNER, message_id, "approve:e1")  # an old button of a card the app never had
        [answer] = await app.telegram.await_call("answerCallbackQuery")
        assert answer.params["callback_query_id"] == query and "does not exist" in answer.params["text"]


async def test_a_cards_buttons_are_its_choices_and_fix_in_skills_answers_with_the_skills_state(
    tmp_path: Path,
) -> None:
    # Issue 25: the buttons are the ones the core chose for the card (the same as the desktop's and the page's).
    async with telegram_app(tmp_path) as app:
        await connected(app)
        card = Escalation(id="e7", task_id="t1", log_id=None, title="Workspace files disconnected",
                          description="Reconnect the Workspace files skill", priority="normal", status="pending",
                          created_at=1.0, resolved_at=None, thread_id="subconscious:t1",
                          choices=("fix_in_skills", "skip"), skill="files")
        app.services.bus.publish(EscalationChanged(card))
        [shown] = await app.telegram.await_call("sendMessage", OWNER)
        buttons = [b for row in shown.params["reply_markup"]["inline_keyboard"] for b in row]
        assert [(b["text"], b["callback_data"]) for b in buttons] == [("Fix in Skills", "fix:e7"),
                                                                      ("Skip", "dismiss:e7")]
        await app.services.store.escalations.raise_for_run(
            run_id="r1", thread_id="subconscious:t1", title=card.title, description=card.description,
            priority="normal", now=1.0, choices=card.choices, skill="files")
        [stored] = await app.services.approvals.escalations_list("pending")
        message_id = max(mid for chat, mid in app.telegram.messages if chat == OWNER)
        app.telegram.press(OWNER, message_id, f"fix:{stored.id}")
        [answer] = await app.telegram.await_call("answerCallbackQuery")
        assert "Workspace files" in answer.params["text"] and "connected" in answer.params["text"]
        said = await app.telegram.await_call("sendMessage", OWNER, count=2)
        assert "Skills tab" in said[-1].params["text"]
        assert [e.status for e in await app.services.approvals.escalations_list()] == ["pending"], "nothing approved"
        retry = replace(card, id="e8", choices=("retry", "skip"), note="Go ahead did not change anything: x.")
        app.services.bus.publish(EscalationChanged(retry))
        shown = await app.telegram.await_call("sendMessage", OWNER, count=3)
        buttons = [b["text"] for row in shown[-1].params["reply_markup"]["inline_keyboard"] for b in row]
        assert buttons == ["Retry", "Skip"] and "did not change anything" in shown[-1].params["text"]


async def test_a_sticker_gets_a_one_line_answer_and_no_run(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        app.telegram.send_sticker(OWNER)
        [said] = await app.telegram.await_call("sendMessage", OWNER)
        assert said.params["text"] == "I can only read text messages."
        assert await app.runs(OWNER) == []


async def test_five_chats_with_several_messages_each_get_every_answer_once(tmp_path: Path) -> None:
    chats = [OWNER, TEAM, 5551, 5552, -5553]
    async with telegram_app(tmp_path, allowed=chats) as app:
        await connected(app)
        for round_ in range(3):
            for chat in chats:
                app.telegram.send_text(chat, f"message {round_} from {chat}")

        def kept(chat: int) -> list[str]:  # what the chat shows now (a group's previews were deleted)
            return [m["text"] for (c, _), m in sorted(app.telegram.messages.items()) if c == chat]

        await app.wait_until(lambda: all(len(kept(c)) >= 3 for c in chats), timeout=60, what="every answer")
        await app.wait_idle(chats, runs=15)
        for chat in chats:
            runs = await app.runs(chat)
            assert sorted(r.input for r in runs) == [f"message {i} from {chat}" for i in range(3)]
            assert all(r.status == "completed" for r in runs)
        assert all(kept(c) == ["Hello from the assistant."] * 3 for c in chats)


@pytest.mark.logs_expected(r"could not be recorded", r"The run ledger cannot be written: the disk is full — free")
async def test_an_update_that_could_not_be_recorded_is_not_confirmed_and_comes_again(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        hub = app.services.channels
        real_submit = hub.submit
        refused: list[InboundMessage] = []

        async def failing_submit(message: InboundMessage) -> Run:
            if not refused:
                refused.append(message)
                raise StoreUnavailable("The run ledger cannot be written: the disk is full — free some space.")
            return await real_submit(message)

        hub.submit = failing_submit  # type: ignore[method-assign]
        app.telegram.send_text(OWNER, "remember this")
        await app.wait_until(lambda: refused, what="the refused recording")
        assert app.telegram.pending_updates == 1  # not confirmed: Telegram keeps it
        await app.wait_until(lambda: "could not be recorded" in app.status()["state_reason"], what="the reason")
        await app.telegram.await_call("sendMessage", OWNER)
        await app.wait_until(lambda: app.telegram.pending_updates == 0, what="confirmed once recorded")
        [run] = await app.runs(OWNER)
        assert run.input == "remember this"


async def test_a_new_api_url_restarts_the_channel_on_the_new_server(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        with FakeTelegram() as other:
            text = app.paths.config_file.read_text()
            app.paths.config_file.write_text(text.replace(app.telegram.url, other.url))
            assert await app.services.settings.reload()
            await app.services.channels.reconfigure()
            await connected(app)
            other.send_text(OWNER, "over here")
            [answer] = await other.await_call("sendMessage", OWNER)
            assert answer.params["text"] == "Hello from the assistant."


async def test_start_gets_a_greeting_and_no_run(tmp_path: Path) -> None:
    async with telegram_app(tmp_path) as app:
        await connected(app)
        app.telegram.send_text(OWNER, "/start")
        [said] = await app.telegram.await_call("sendMessage", OWNER)
        assert said.params["text"].startswith("Hello!")
        assert await app.runs(OWNER) == []


async def test_a_bot_api_server_without_drafts_gets_a_preview_message_in_private_chats(tmp_path: Path) -> None:
    answer = "A streamed answer for a server that has no sendMessageDraft at all."
    with slow_stream(0.3):
        async with telegram_app(tmp_path, script=AgentScript(answer=answer)) as app:
            await connected(app)
            app.telegram.fail("sendMessageDraft", 404, "Not Found")
            app.telegram.send_text(OWNER, "hello")
            await app.wait_idle([OWNER])
            await app.wait_until(lambda: [m["text"] for (c, _), m in app.telegram.messages.items() if c == OWNER]
                                 == [answer], what="only the answer left")
            assert len(app.telegram.calls_of("sendMessageDraft")) == 1  # tried once, then previews
            assert len(app.telegram.calls_of("sendMessage", OWNER)) == 2 and app.telegram.calls_of("deleteMessage")
            assert app.status()["state"] == "connected"  # a preview problem is not the channel's


async def test_a_card_raised_while_telegram_is_down_is_shown_once_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "openhuman_desktop.channels.telegram")
    async with telegram_app(tmp_path) as app:
        await connected(app)
        port = app.telegram.port
        app.telegram.stop()
        await app.wait_until(lambda: app.status()["state"] == "degraded", what="degraded")
        card = Escalation(id="e2", task_id="t1", log_id=None, title="Renew the domain", description="It expires soon",
                          priority="important", status="pending", created_at=1.0, resolved_at=None,
                          thread_id="subconscious:t1")
        app.services.bus.publish(EscalationChanged(card))
        await app.wait_until(lambda: "card e2 waits for chat" in caplog.text, what="the card tried")
        app.telegram.start(port=port)
        [shown] = await app.telegram.await_call("sendMessage", OWNER, timeout=30)
        assert "Renew the domain" in shown.params["text"] and "It expires soon" in shown.params["text"]
        assert "reply_markup" in shown.params


@pytest.mark.logs_expected(r"refused the answer's formatting")
async def test_formatting_telegram_refuses_costs_the_formatting_not_the_answer(tmp_path: Path) -> None:
    async with telegram_app(tmp_path, script=AgentScript(answer="**Bold** words")) as app:
        await connected(app)
        app.telegram.fail("sendMessage", 400, "Bad Request: can't parse entities: unsupported", count=1)
        app.telegram.send_text(OWNER, "format please")
        await app.wait_until(lambda: app.telegram.sent_texts(OWNER), what="the answer")
        refused, sent = app.telegram.calls_of("sendMessage", OWNER)
        assert refused.params["entities"] and "entities" not in sent.params
        assert app.telegram.sent_texts(OWNER) == ["Bold words"]
