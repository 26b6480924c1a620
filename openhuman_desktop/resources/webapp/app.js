/* The OpenHuman web app: one WebSocket to the app on this computer, the conversation of this browser's
   session (thread webapp:<session>), streamed answers, approval cards, and reconnecting by itself. */
"use strict";

(function () {
  const TOKEN_KEY = "openhuman.token";
  const SESSION_KEY = "openhuman.session";
  const MAX_TEXT = 100000;
  // What the run does next, from the node it has just finished (CONTRACT §8's graph).
  function nextWords(node, item) {
    if (node === "channel_ingestion") return "Thinking…";
    if (node === "agent_execution") return "Writing the answer…";
    if (node === "frontend_agent") {
      item.passes = (item.passes || 0) + 1;
      return item.passes === 1 ? "Working on it…" : "Wrapping up…";
    }
    return null;
  }

  const $ = (id) => document.getElementById(id);
  const log = $("log");
  const scroller = $("scroller");
  const welcome = $("welcome");
  const input = $("composer-input");
  const send = $("send");
  const stop = $("stop");
  const statusBox = $("status");
  const statusText = $("status-text");

  const storage = {
    get(key) { try { return window.localStorage.getItem(key); } catch (_) { return null; } },
    set(key, value) { try { window.localStorage.setItem(key, value); } catch (_) { /* private mode */ } },
    remove(key) { try { window.localStorage.removeItem(key); } catch (_) { /* private mode */ } },
  };

  // The key comes in the address's fragment (never sent to the server); keep it, then take it out of sight.
  function readToken() {
    const match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
    if (match) {
      const token = decodeURIComponent(match[1]);
      storage.set(TOKEN_KEY, token);
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
      return token;
    }
    return storage.get(TOKEN_KEY);
  }

  const token = readToken();
  let socket = null;
  let attempt = 0;
  let retryTimer = null;
  let connected = false;
  let refCounter = 0;
  const runs = new Map(); // run_id → {user, assistant, text, finished}
  const pendingRefs = new Map(); // ref → user message element not yet tied to a run
  const cards = new Map(); // escalation id → card element

  // --- little helpers ----------------------------------------------------------------------------

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function clock(seconds) {
    const date = seconds ? new Date(seconds * 1000) : new Date();
    return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function announce(text) {
    const region = $("announcer");
    region.textContent = "";
    window.setTimeout(() => { region.textContent = text.length > 400 ? text.slice(0, 399) + "…" : text; }, 30);
  }

  function alertText(text) {
    const region = $("alerts");
    region.textContent = "";
    window.setTimeout(() => { region.textContent = text; }, 30);
  }

  function nearBottom() {
    return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 120;
  }

  function scrollToEnd(force) {
    if (force || nearBottom()) scroller.scrollTop = scroller.scrollHeight;
  }

  function updateWelcome() {
    welcome.hidden = log.childElementCount > 0;
  }

  function setStatus(state, text) {
    statusBox.dataset.state = state;
    statusText.textContent = text;
    connected = state === "connected";
    updateSend();
    updateStop();
  }

  function updateSend() {
    send.disabled = !connected || !input.value.trim();
  }

  // Stop shows while an answer of this conversation is on its way (queued or being written).
  function working() {
    const ids = [];
    runs.forEach((item, runId) => { if (item.assistant && !item.finished && !item.stopping) ids.push(runId); });
    return ids;
  }

  function updateStop() {
    stop.hidden = !connected || working().length === 0;
  }

  function stopAnswers() {
    const ids = working();
    if (!ids.length || !socket || socket.readyState !== WebSocket.OPEN) return;
    ids.forEach((runId) => {
      const item = runs.get(runId);
      item.stopping = true;
      socket.send(JSON.stringify({ type: "stop", run_id: runId }));
      if (!item.text) typing(item.assistant, "Stopping…");
    });
    updateStop();
    announce("Stopping the answer.");
  }

  // --- messages ----------------------------------------------------------------------------------

  function userMessage(text, at) {
    const article = el("article", "msg msg-user");
    article.setAttribute("aria-label", "You said");
    const bubble = el("div", "bubble", String(text)); // as typed: plain text, its line breaks kept by CSS
    const meta = el("p", "meta", clock(at));
    article.append(bubble, meta);
    log.append(article);
    updateWelcome();
    return article;
  }

  function assistantMessage(label) {
    const article = el("article", "msg msg-assistant");
    article.setAttribute("aria-label", label || "OpenHuman said");
    const avatar = el("div", "avatar");
    avatar.setAttribute("aria-hidden", "true");
    const main = el("div", "msg-main");
    const bubble = el("div", "bubble markdown");
    const meta = el("p", "meta");
    main.append(bubble, meta);
    article.append(avatar, main);
    log.append(article);
    updateWelcome();
    return article;
  }

  function typing(article, words) {
    const bubble = article.querySelector(".bubble");
    let box = bubble.querySelector(".typing");
    if (!box) {
      bubble.textContent = "";
      box = el("div", "typing");
      const dots = el("span", "dots");
      dots.setAttribute("aria-hidden", "true");
      dots.append(el("span"), el("span"), el("span"));
      box.append(dots, el("span", "typing-words"));
      bubble.append(box);
    }
    box.querySelector(".typing-words").textContent = words || "Thinking…";
    article.setAttribute("aria-busy", "true");
  }

  function entry(runId) {
    let item = runs.get(runId);
    if (!item) {
      item = { user: null, assistant: null, text: "", finished: false, frame: 0 };
      runs.set(runId, item);
    }
    return item;
  }

  function ensureAssistant(item, purpose) {
    if (!item.assistant) {
      item.assistant = assistantMessage(purpose === "approved" ? "OpenHuman carried out an approved action" : "");
      if (purpose === "approved") item.assistant.classList.add("msg-approved");
      if (item.user && item.user.nextSibling !== item.assistant) item.user.after(item.assistant);
    }
    return item.assistant;
  }

  function renderAnswer(item) {
    item.frame = 0;
    const bubble = item.assistant.querySelector(".bubble");
    bubble.textContent = "";
    bubble.append(window.OHMarkdown.render(item.text));
    addCopyButtons(bubble);
    if (!item.finished) {
      const caret = el("span", "caret");
      caret.setAttribute("aria-hidden", "true");
      (bubble.lastElementChild && bubble.lastElementChild.tagName === "P" ? bubble.lastElementChild : bubble).append(caret);
    }
    scrollToEnd(false);
  }

  function addCopyButtons(bubble) {
    if (!navigator.clipboard) return;
    bubble.querySelectorAll("pre").forEach((pre) => {
      const button = el("button", "copy", "Copy");
      button.type = "button";
      button.setAttribute("aria-label", "Copy code");
      button.addEventListener("click", () => {
        navigator.clipboard.writeText(pre.querySelector("code").textContent).then(() => {
          button.textContent = "Copied";
          window.setTimeout(() => { button.textContent = "Copy"; }, 1500);
        }, () => { button.textContent = "Copy failed"; });
      });
      pre.append(button);
    });
  }

  function scheduleRender(item) {
    if (!item.frame) item.frame = window.requestAnimationFrame(() => renderAnswer(item));
  }

  function finish(item, text, status, at) {
    item.finished = true;
    item.text = text;
    const article = item.assistant;
    if (item.frame) window.cancelAnimationFrame(item.frame);
    article.removeAttribute("aria-busy");
    if (status === "cancelled") { // what it had written stays, and says it stopped there
      article.classList.add("msg-stopped");
      const bubble = article.querySelector(".bubble");
      const written = item.streamed || "";
      bubble.textContent = "";
      if (written.trim()) bubble.append(window.OHMarkdown.render(written));
      bubble.append(el("p", "stopped-note", text || "Stopped."));
    } else if (status && status !== "completed") {
      article.classList.add("msg-failed");
      const bubble = article.querySelector(".bubble");
      bubble.textContent = "";
      bubble.append(el("strong", "failed-label", "That didn't work. "), document.createTextNode(text));
    } else {
      renderAnswer(item);
    }
    article.querySelector(".meta").textContent = "OpenHuman · " + clock(at);
    updateStop();
  }

  function showRun(run, fromHistory) {
    const item = entry(run.run_id);
    if (run.purpose !== "approved" && !item.user) {
      const waiting = run.ref && pendingRefs.get(run.ref);
      if (waiting) {
        pendingRefs.delete(run.ref);
        item.user = waiting;
      } else {
        item.user = userMessage(run.input, run.created_at);
      }
    }
    const unfinished = run.status === "queued" || run.status === "running";
    if (fromHistory && !unfinished) {
      ensureAssistant(item, run.purpose);
      const text = run.status === "completed" ? (run.response || "") : (run.error || "The run failed.");
      if (run.status === "cancelled") item.streamed = run.response || ""; // what it had written when stopped
      finish(item, text, run.status, run.finished_at);
    } else if (!item.finished) {
      const article = ensureAssistant(item, run.purpose);
      if (!item.text) typing(article, "Thinking…");
    }
    updateStop();
  }

  function onHistory(frame) {
    runs.clear();
    pendingRefs.forEach((node) => node.remove());
    pendingRefs.clear();
    cards.clear();
    log.textContent = "";
    frame.runs.forEach((run) => showRun(run, true));
    updateWelcome();
    updateStop();
    scrollToEnd(true);
  }

  function onDelta(frame) {
    const item = entry(frame.run_id);
    if (item.finished) return;
    ensureAssistant(item);
    item.text += frame.text;
    item.streamed = item.text;
    scheduleRender(item);
  }

  function onReply(frame) {
    const item = entry(frame.run_id);
    ensureAssistant(item);
    finish(item, frame.text, frame.status);
    if (frame.status === "cancelled") announce("The answer was stopped.");
    else announce((frame.status === "completed" ? "OpenHuman: " : "OpenHuman could not answer: ") + frame.text);
  }

  function onProgress(frame) {
    const item = runs.get(frame.run_id);
    if (!item || item.finished || item.text || !item.assistant) return;
    const words = nextWords(frame.node, item);
    if (words) typing(item.assistant, words);
  }

  function onError(frame) {
    if (frame.run_id && runs.has(frame.run_id)) { // a Stop that did not go through: the button comes back
      runs.get(frame.run_id).stopping = false;
      updateStop();
    }
    if (frame.escalation_id && cards.has(frame.escalation_id)) {
      const card = cards.get(frame.escalation_id);
      card.querySelectorAll("button").forEach((b) => { b.disabled = false; });
      card.querySelector(".card-result").textContent = frame.message;
      return;
    }
    const note = el("p", "note note-error", frame.message);
    log.append(note);
    updateWelcome();
    scrollToEnd(true);
    alertText(frame.message);
  }

  // --- cards -------------------------------------------------------------------------------------

  const PRIORITY = { critical: "Critical", important: "Important", normal: "" };
  const CHOICES = {
    go_ahead: { label: "Go ahead", frame: "approve", style: "primary" },
    retry: { label: "Retry", frame: "approve", style: "primary" },
    fix_in_skills: { label: "Fix in Skills", frame: "fix", style: "primary" },
    skip: { label: "Skip", frame: "dismiss", style: "secondary" },
  };

  function onEscalation(escalation) {
    let card = cards.get(escalation.id);
    if (card && escalation.status === "pending" && card.dataset.status) {
      // Approved, and back (it changed nothing, or could not run): the card again, with its note and buttons.
      const again = buildCard(escalation);
      card.replaceWith(again);
      cards.set(escalation.id, again);
      announce("Approval needed again: " + escalation.title);
      return;
    }
    if (!card) {
      if (escalation.status !== "pending") return; // resolved before this page saw it
      card = buildCard(escalation);
      cards.set(escalation.id, card);
      const item = escalation.run_id && runs.get(escalation.run_id);
      const anchor = item && (item.assistant || item.user);
      if (anchor) anchor.after(card); else log.append(card);
      updateWelcome();
      scrollToEnd(true);
      announce("Approval needed: " + escalation.title);
    }
    if (escalation.status !== "pending") resolveCard(card, escalation.status);
  }

  function buildCard(escalation) {
    const card = el("section", "card");
    card.setAttribute("role", "group");
    card.dataset.id = escalation.id;
    card.dataset.priority = escalation.priority;
    const titleId = "card-" + escalation.id.replace(/[^\w-]/g, "");
    card.setAttribute("aria-labelledby", titleId);
    const kicker = el("p", "card-kicker");
    kicker.append(el("span", "card-icon"), document.createTextNode("Approval needed"));
    if (PRIORITY[escalation.priority]) kicker.append(el("span", "badge", PRIORITY[escalation.priority]));
    const title = el("h3", "card-title", escalation.title);
    title.id = titleId;
    card.append(kicker, title);
    if (escalation.description) card.append(el("p", "card-text", escalation.description));
    if (escalation.note) card.append(el("p", "card-note", escalation.note));
    const actions = el("div", "card-actions");
    // The buttons the app chose for this card when it was raised: the same on every surface.
    const choices = Array.isArray(escalation.choices) && escalation.choices.length
      ? escalation.choices : ["go_ahead", "skip"];
    choices.forEach((choice) => {
      const spec = CHOICES[choice];
      if (!spec) return; // a newer app may offer more: this page shows what it knows
      const button = el("button", "button " + spec.style, spec.label);
      button.type = "button";
      button.dataset.choice = choice;
      button.addEventListener("click", () => decide(card, spec.frame));
      actions.append(button);
    });
    const result = el("p", "card-result");
    result.setAttribute("role", "status");
    card.append(actions, result);
    return card;
  }

  function decide(card, kind) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      card.querySelector(".card-result").textContent = "Not connected: try again in a moment.";
      return;
    }
    if (kind === "fix") { // no Skills tab here: the app answers with the skill's state and where to fix it
      card.querySelector(".card-result").textContent = "Looking at the skill…";
      socket.send(JSON.stringify({ type: "fix", escalation_id: card.dataset.id }));
      return;
    }
    card.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    card.querySelector(".card-result").textContent = kind === "approve" ? "Going ahead…" : "Skipping…";
    socket.send(JSON.stringify({ type: kind, escalation_id: card.dataset.id }));
  }

  function onSkill(frame) {
    const card = cards.get(frame.escalation_id);
    if (!card) return;
    card.querySelector(".card-result").textContent = frame.text;
    announce(frame.text);
  }

  function resolveCard(card, status) {
    card.dataset.status = status;
    const actions = card.querySelector(".card-actions");
    const hadFocus = actions && actions.contains(document.activeElement);
    if (actions) actions.remove();
    if (hadFocus) { // the button just pressed is gone: keep the keyboard on this card, not on the page's top
      card.tabIndex = -1;
      card.focus();
    }
    const words = status === "approved" ? "Approved: it is being carried out." : "Skipped.";
    card.querySelector(".card-result").textContent = words;
    card.querySelector(".card-kicker").firstChild.nextSibling.textContent =
      status === "approved" ? "Approved" : "Skipped";
  }

  // --- the connection ----------------------------------------------------------------------------

  function handle(frame) {
    switch (frame.type) {
      case "session":
        storage.set(SESSION_KEY, frame.session_id);
        break;
      case "history": onHistory(frame); break;
      case "run": showRun(frame, false); scrollToEnd(true); break;
      case "progress": onProgress(frame); break;
      case "delta": onDelta(frame); break;
      case "reply": onReply(frame); break;
      case "escalation": onEscalation(frame.escalation); break;
      case "skill": onSkill(frame); break;
      case "error": onError(frame); break;
      default: break; // a newer app may send more: ignore what this page does not know
    }
  }

  function connect() {
    window.clearTimeout(retryTimer);
    retryTimer = null;
    if (socket) return;
    const session = storage.get(SESSION_KEY);
    let url = "ws://" + window.location.host + "/ws?token=" + encodeURIComponent(token);
    if (session) url += "&session=" + encodeURIComponent(session);
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener("open", () => {
      attempt = 0;
      setStatus("connected", "Connected");
    });
    ws.addEventListener("message", (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch (_) { return; }
      if (frame && typeof frame.type === "string") handle(frame);
    });
    ws.addEventListener("close", () => {
      if (socket !== ws) return;
      socket = null;
      retry();
    });
  }

  function retry() {
    const delay = Math.min(10000, 500 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
    attempt += 1;
    setStatus("offline", attempt > 1 ? "Can't reach OpenHuman. Trying again…" : "Reconnecting…");
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(probe, delay);
  }

  // A refused WebSocket tells a page nothing; ask /auth whether the app is there and knows this key.
  async function probe() {
    retryTimer = null;
    let answer;
    try {
      answer = await fetch("/auth", { headers: { Authorization: "Bearer " + token }, cache: "no-store" });
    } catch (_) {
      retry(); // not running (yet): it may be restarting
      return;
    }
    if (answer.status === 401) {
      setStatus("refused", "This link's key is not valid any more. Open the web app again from the OpenHuman tray menu.");
      attempt = 6;
      retryTimer = window.setTimeout(probe, 30000);
      return;
    }
    connect();
  }

  function wakeUp() {
    if (!socket && token && retryTimer !== null) {
      attempt = 0;
      probe();
    }
  }

  // --- the composer ------------------------------------------------------------------------------

  function resize() {
    input.style.height = "auto";
    input.style.height = Math.min(input.scrollHeight, Math.round(window.innerHeight * 0.4)) + "px";
  }

  function submit() {
    const text = input.value;
    if (!text.trim() || !socket || socket.readyState !== WebSocket.OPEN) return;
    if (text.length > MAX_TEXT) {
      onError({ message: "That message is too long (at most 100,000 characters)." });
      return;
    }
    refCounter += 1;
    const ref = "r" + refCounter;
    pendingRefs.set(ref, userMessage(text));
    socket.send(JSON.stringify({ type: "message", text, ref }));
    input.value = "";
    resize();
    updateSend();
    scrollToEnd(true);
  }

  $("composer").addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  stop.addEventListener("click", () => { stopAnswers(); input.focus(); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !stop.hidden) {
      event.preventDefault();
      stopAnswers();
    }
  });
  input.addEventListener("input", () => { resize(); updateSend(); });
  $("new-chat").addEventListener("click", () => {
    storage.remove(SESSION_KEY);
    runs.clear();
    updateStop();
    cards.clear();
    log.textContent = "";
    updateWelcome();
    const old = socket;
    socket = null; // its close event must not schedule a reconnect: connect now, as a new session
    if (old) old.close();
    connect();
    input.focus();
  });
  document.querySelectorAll(".suggestion").forEach((button) => {
    button.addEventListener("click", () => { // fills the box: the person still decides to send it
      input.value = button.textContent;
      resize();
      updateSend();
      input.focus();
    });
  });
  window.addEventListener("online", wakeUp);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) wakeUp(); });

  if (!token) {
    setStatus("refused", "Open the web app from the OpenHuman tray menu: its link carries the key.");
  } else {
    connect();
  }
  input.focus();
})();
