/* Markdown for model answers, built from DOM nodes only: text is always a text node, never markup, so
   whatever the model writes (<script>, <img onerror=…>) shows as the characters it is. Covers what chat
   answers use: paragraphs with line breaks, headings, emphasis, strike-through, inline code, fenced code,
   lists (nested), block quotes, tables, rules and links (http, https and mailto only). */
"use strict";

(function () {
  const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/;
  const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
  const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
  const QUOTE = /^ {0,3}> ?(.*)$/;
  const ITEM = /^( *)([-*+]|\d{1,9}[.)])\s+(.*)$/;
  const TABLE_RULE = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function safeHref(raw) {
    try {
      const url = new URL(raw, "https://invalid.invalid/");
      if (url.origin === "https://invalid.invalid") return null; // relative: not a place to send anyone
      return ["http:", "https:", "mailto:"].includes(url.protocol) ? url.href : null;
    } catch (_) {
      return null;
    }
  }

  function link(href, children) {
    const a = el("a");
    a.href = href;
    a.rel = "noopener noreferrer nofollow";
    a.target = "_blank";
    a.append(...children);
    return a;
  }

  // --- inline --------------------------------------------------------------------------------------

  const INLINE = [
    ["escape", /\\([\\`*_{}[\]()#+\-.!~|>])/],
    ["code", /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/],
    ["link", /\[([^\]\n]+)\]\(\s*<?([^()\s<>]+)>?(?:\s+"[^"\n]*")?\s*\)/],
    ["auto", /<?(https?:\/\/[^\s<>]*[^\s<>.,:;"')\]!?*_~])>?/],
    ["strong", /\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__(?!\w)/],
    ["strike", /~~(?=\S)([\s\S]*?\S)~~/],
    ["em", /\*(?=[^\s*])([\s\S]*?[^\s*])\*(?!\*)|(?<![\w])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\w])/],
  ];

  function inline(text) {
    const out = [];
    let rest = text;
    while (rest) {
      let best = null;
      for (const [kind, pattern] of INLINE) {
        const match = pattern.exec(rest);
        if (match && (best === null || match.index < best.match.index)) best = { kind, match };
      }
      if (best === null) {
        out.push(...textWithBreaks(rest));
        break;
      }
      const { kind, match } = best;
      if (match.index > 0) out.push(...textWithBreaks(rest.slice(0, match.index)));
      out.push(inlineNode(kind, match));
      rest = rest.slice(match.index + match[0].length);
    }
    return out;
  }

  function inlineNode(kind, match) {
    switch (kind) {
      case "escape":
        return document.createTextNode(match[1]);
      case "code":
        return el("code", "", match[2].replace(/^ (.*) $/s, "$1"));
      case "link": {
        const href = safeHref(match[2]);
        return href ? link(href, inline(match[1])) : document.createTextNode(match[0]);
      }
      case "auto": {
        const href = safeHref(match[1]);
        return href ? link(href, [document.createTextNode(match[1])]) : document.createTextNode(match[0]);
      }
      default: {
        const tag = { strong: "strong", strike: "del", em: "em" }[kind];
        const node = el(tag);
        node.append(...inline(match[1] !== undefined ? match[1] : match[2]));
        return node;
      }
    }
  }

  function textWithBreaks(text) {
    const nodes = [];
    text.split("\n").forEach((line, index) => {
      if (index > 0) nodes.push(el("br"));
      if (line) nodes.push(document.createTextNode(line));
    });
    return nodes;
  }

  // --- blocks --------------------------------------------------------------------------------------

  function isBlockStart(line, next) {
    return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line) ||
      (line.includes("|") && next !== undefined && TABLE_RULE.test(next) && next.includes("-"));
  }

  function cells(line) {
    let text = line.trim();
    if (text.startsWith("|")) text = text.slice(1);
    if (text.endsWith("|") && !text.endsWith("\\|")) text = text.slice(0, -1);
    return text.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
  }

  function table(lines, start) {
    const head = cells(lines[start]);
    const aligns = cells(lines[start + 1]).map((c) => (c.startsWith(":") && c.endsWith(":") ? "center"
      : c.endsWith(":") ? "right" : ""));
    const wrap = el("div", "md-table");
    wrap.tabIndex = 0; // a wide table scrolls: reachable by keyboard
    const tableNode = el("table");
    const thead = el("thead");
    const headRow = el("tr");
    head.forEach((cell, index) => {
      const th = el("th");
      th.scope = "col";
      if (aligns[index]) th.dataset.align = aligns[index];
      th.append(...inline(cell));
      headRow.append(th);
    });
    thead.append(headRow);
    const tbody = el("tbody");
    let index = start + 2;
    while (index < lines.length && lines[index].includes("|") && lines[index].trim()) {
      const row = el("tr");
      cells(lines[index]).slice(0, Math.max(head.length, 1)).forEach((cell, column) => {
        const td = el("td");
        if (aligns[column]) td.dataset.align = aligns[column];
        td.append(...inline(cell));
        row.append(td);
      });
      tbody.append(row);
      index += 1;
    }
    tableNode.append(thead, tbody);
    wrap.append(tableNode);
    return [wrap, index];
  }

  function list(lines, start) {
    const first = ITEM.exec(lines[start]);
    const indent = first[1].length;
    const ordered = /\d/.test(first[2]);
    const node = el(ordered ? "ol" : "ul");
    if (ordered && parseInt(first[2], 10) !== 1) node.start = parseInt(first[2], 10);
    let index = start;
    let loose = false;
    while (index < lines.length) {
      const match = ITEM.exec(lines[index]);
      if (!match || match[1].length !== indent || /\d/.test(match[2]) !== ordered) break;
      const body = [match[3]];
      index += 1;
      while (index < lines.length) {
        const line = lines[index];
        const nested = ITEM.exec(line);
        if (!line.trim()) {
          const after = lines[index + 1];
          if (after !== undefined && (after.startsWith(" ".repeat(indent + 2)) ||
              (ITEM.test(after) && ITEM.exec(after)[1].length === indent))) {
            loose = loose || !(ITEM.test(after) && ITEM.exec(after)[1].length > indent);
            body.push("");
            index += 1;
            continue;
          }
          break;
        }
        if (nested && nested[1].length <= indent) break;
        if (!nested && !line.startsWith(" ") && isBlockStart(line, lines[index + 1])) break;
        body.push(line.startsWith(" ".repeat(indent + 2)) ? line.slice(indent + 2) : line.trimStart());
        index += 1;
      }
      const item = el("li");
      item.append(...blocks(body.join("\n").replace(/\n+$/, ""), { tight: !loose }));
      node.append(item);
    }
    return [node, index];
  }

  function blocks(text, options) {
    const tight = options && options.tight;
    const lines = text.replace(/\r\n?/g, "\n").split("\n");
    const out = [];
    let index = 0;
    while (index < lines.length) {
      const line = lines[index];
      if (!line.trim()) {
        index += 1;
        continue;
      }
      let match;
      if ((match = FENCE.exec(line))) {
        const fence = match[1];
        const code = [];
        index += 1;
        while (index < lines.length && !(lines[index].trim().startsWith(fence[0].repeat(fence.length)) &&
               !lines[index].trim().replace(new RegExp("^\\" + fence[0] + "+"), "").trim())) {
          code.push(lines[index]);
          index += 1;
        }
        index += 1; // the closing fence (a stream still being written may not have it yet)
        const pre = el("pre");
        const codeNode = el("code", "", code.join("\n"));
        if (match[2]) {
          codeNode.dataset.lang = match[2];
          pre.dataset.lang = match[2];
        }
        pre.append(codeNode);
        out.push(pre);
      } else if ((match = HEADING.exec(line))) {
        const level = Math.min(match[1].length + 2, 6);
        const heading = el("h" + level, "md-h" + match[1].length);
        heading.append(...inline(match[2]));
        out.push(heading);
        index += 1;
      } else if (RULE.test(line)) {
        out.push(el("hr"));
        index += 1;
      } else if (QUOTE.test(line)) {
        const quoted = [];
        while (index < lines.length && lines[index].trim() && QUOTE.test(lines[index])) {
          quoted.push(QUOTE.exec(lines[index])[1]);
          index += 1;
        }
        const quote = el("blockquote");
        quote.append(...blocks(quoted.join("\n")));
        out.push(quote);
      } else if (ITEM.test(line)) {
        const [node, next] = list(lines, index);
        out.push(node);
        index = next;
      } else if (line.includes("|") && TABLE_RULE.test(lines[index + 1] || "") && (lines[index + 1] || "").includes("-")) {
        const [node, next] = table(lines, index);
        out.push(node);
        index = next;
      } else {
        const para = [line];
        index += 1;
        while (index < lines.length && lines[index].trim() && !isBlockStart(lines[index], lines[index + 1])) {
          para.push(lines[index]);
          index += 1;
        }
        const content = inline(para.map((l) => l.trim()).join("\n"));
        if (tight && out.length === 0) {
          out.push(...content); // a tight list item holds its text directly, like everywhere else
        } else {
          const p = el("p");
          p.append(...content);
          out.push(p);
        }
      }
    }
    return out;
  }

  /** Render ``text`` as a DocumentFragment of safe nodes. */
  function render(text) {
    const fragment = document.createDocumentFragment();
    fragment.append(...blocks(String(text || "")));
    return fragment;
  }

  window.OHMarkdown = { render };
})();
