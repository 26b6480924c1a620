"""The page's Markdown renderer (markdown.js) in the browser: what answers use becomes the right elements,
and nothing from the model ever becomes markup of its own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Browser, Page

from tests.channels.conftest import WebApp

pytestmark = pytest.mark.e2e

RENDER = """text => { const box = document.createElement('div'); box.append(OHMarkdown.render(text));
                      return box.innerHTML; }"""


@pytest.fixture
async def page(browser: Browser, web_app: WebApp) -> AsyncIterator[Page]:
    context = await browser.new_context()
    opened = await context.new_page()
    await opened.goto(web_app.url)  # no key: the page still loads its renderer
    await opened.wait_for_function("window.OHMarkdown !== undefined")
    yield opened
    await context.close()


CASES = [
    ("plain\nsecond line", "<p>plain<br>second line</p>"),
    ("a\n\nb", "<p>a</p><p>b</p>"),
    ("# Title", '<h3 class="md-h1">Title</h3>'),
    ("**b** *i* ~~s~~ `c`", "<p><strong>b</strong> <em>i</em> <del>s</del> <code>c</code></p>"),
    ("snake_case_name stays", "<p>snake_case_name stays</p>"),
    (r"\*not em\*", "<p>*not em*</p>"),
    ("- a\n  - b\n- c", "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"),
    ("3. three\n4. four", '<ol start="3"><li>three</li><li>four</li></ol>'),
    ("> quoted", "<blockquote><p>quoted</p></blockquote>"),
    ("```js\nlet x = 1 < 2", '<pre data-lang="js"><code data-lang="js">let x = 1 &lt; 2</code></pre>'),
    ("---", "<hr>"),
    ("| a | b |\n|---|--:|\n| 1 | 2 |",
     '<div class="md-table" tabindex="0"><table><thead><tr><th scope="col">a</th><th scope="col" '
     'data-align="right">b</th></tr></thead><tbody><tr><td>1</td><td data-align="right">2</td></tr></tbody>'
     "</table></div>"),
    ("see https://example.org/a_b.",
     '<p>see <a href="https://example.org/a_b" rel="noopener noreferrer nofollow" target="_blank">'
     "https://example.org/a_b</a>.</p>"),
    ('[docs](https://example.org "t")',
     '<p><a href="https://example.org/" rel="noopener noreferrer nofollow" target="_blank">docs</a></p>'),
    ("<b>x</b> & <script>alert(1)</script>", "<p>&lt;b&gt;x&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;</p>"),
    ("[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>"),
    ("[x](data:text/html,hi)", "<p>[x](data:text/html,hi)</p>"),
    ("[x](/relative)", "<p>[x](/relative)</p>"),
    ('<img src=x onerror="alert(1)">', '<p>&lt;img src=x onerror="alert(1)"&gt;</p>'),
]


async def test_markdown_becomes_safe_elements(page: Page) -> None:
    rendered = [(markdown, await page.evaluate(RENDER, markdown)) for markdown, _ in CASES]
    assert rendered == CASES  # one browser for every case: each pair shows its Markdown and its HTML


async def test_deep_or_odd_input_never_throws(page: Page) -> None:
    nasty = ["*" * 5000, "`" * 3001, "[" * 2000 + "](", "> " * 500 + "deep", "- " * 300 + "x",
             "|" * 1000 + "\n|---|", "\u0000\ufeff\u202e text", "```\n" * 200]
    for text in nasty:
        assert isinstance(await page.evaluate(RENDER, text), str)
