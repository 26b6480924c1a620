"""``[skills.mcp.NAME]`` in the loader (CONTRACT §12.1): the keys, their defaults and one sentence per bad value."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from openhuman_desktop import config
from openhuman_desktop.errors import ConfigError

PATH = Path("/ws/config.toml")


def load(text: str) -> config.LoadedConfig:
    return config.parse(tomllib.loads(text), PATH, environ={})


def test_every_key_of_the_contract() -> None:
    loaded = load("""
[skills.mcp.time]
enabled = true
command = "mcp-server-time"
args = ["--local-timezone", "Europe/Berlin"]
env = { LANG = "C.UTF-8" }
env_from = { GITHUB_TOKEN = "MY_GITHUB_PAT" }
read_tools = ["get_current_time"]
write_tools = ["convert_time"]
disabled_tools = ["nothing"]
timeout_seconds = 30
watch = ["time://now"]

[skills.mcp.remote-1]
url = "http://127.0.0.1:9000/mcp"
headers_from = { Authorization = "MY_SERVER_AUTH" }
""")
    assert not loaded.warnings
    time, remote = loaded.settings.skills.mcp.values()
    assert (time.name, time.command, time.args, time.transport) == ("time", "mcp-server-time",
                                                                     ("--local-timezone", "Europe/Berlin"), "stdio")
    assert time.env == {"LANG": "C.UTF-8"} and time.env_from == {"GITHUB_TOKEN": "MY_GITHUB_PAT"}
    assert (time.read_tools, time.write_tools, time.disabled_tools) == (("get_current_time",), ("convert_time",),
                                                                        ("nothing",))
    assert (time.timeout_seconds, time.watch) == (30, ("time://now",))
    assert (remote.url, remote.transport, remote.headers_from) == ("http://127.0.0.1:9000/mcp", "http",
                                                                   {"Authorization": "MY_SERVER_AUTH"})
    assert remote.enabled and remote.timeout_seconds == 60 and remote.watch == ()


def test_no_skills_means_none_and_unknown_keys_are_warnings() -> None:
    assert load("").settings.skills.mcp == {}
    loaded = load('[skills.mcp.a]\ncommand = "x"\ncolour = "blue"\n')
    assert loaded.warnings == (f"{PATH}: unknown key skills.mcp.a.colour is ignored",)


@pytest.mark.parametrize(("text", "sentence"), [
    ('[skills.mcp."a b"]\ncommand = "x"', "skills.mcp.a b = 'a b' is invalid: expected a server name of at most 40 "
                                          "letters, digits, '-' and '_'"),
    ("[skills.mcp.a]\nenabled = true", "skills.mcp.a.command = None is invalid: expected the program that starts "
                                       'the server (command = "...") or its address (url = "http://...")'),
    ('[skills.mcp.a]\ncommand = "x"\nurl = "http://127.0.0.1:1/mcp"', "expected either command (a program the app "
                                                                       "starts) or url (a server already running)"),
    ('[skills.mcp.a]\nurl = "ftp://host/mcp"', "skills.mcp.a.url = 'ftp://host/mcp' is invalid: expected an http://"),
    ('[skills.mcp.a]\ncommand = "x"\nargs = "--flag"', "skills.mcp.a.args = '--flag' is invalid: expected a list"),
    ('[skills.mcp.a]\ncommand = "x"\ntimeout_seconds = 0', "expected a whole number from 1 to 3600"),
    ('[skills.mcp.a]\ncommand = "x"\nenv = { "A B" = "1" }', "expected a variable name"),
    ('[skills.mcp.a]\ncommand = "x"\nenv_from = { TOKEN = "not a name" }', "expected the NAME of an environment "
                                                                            "variable"),
    ('[skills.mcp.a]\ncommand = "x"\nwatch = [1]', "skills.mcp.a.watch = [1] is invalid: expected a list of "
                                                   "resource URIs"),
    ('[skills.mcp.a]\ncommand = "x"\ndisabled_tools = [""]', "expected a list of tool names"),
])
def test_a_bad_value_is_one_sentence_naming_file_key_and_value(text: str, sentence: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(text)
    message = str(caught.value)
    assert message.startswith(f"{PATH}: ") and sentence in message and "\n" not in message


def test_a_secret_pasted_into_env_or_env_from_is_refused_without_repeating_it() -> None:
    secret = "ghp_0123456789abcdefghijABCDEFGHIJ0123"
    for text in (f'[skills.mcp.a]\ncommand = "x"\nenv = {{ GITHUB_TOKEN = "{secret}" }}',
                 f'[skills.mcp.a]\ncommand = "x"\nenv_from = {{ GITHUB_TOKEN = "{secret}" }}',
                 f'[skills.mcp.a]\nurl = "http://127.0.0.1:1/mcp"\nheaders_from = {{ Authorization = "{secret}" }}'):
        with pytest.raises(ConfigError) as caught:
            load(text)
        assert secret not in str(caught.value) and "not shown" in str(caught.value)
