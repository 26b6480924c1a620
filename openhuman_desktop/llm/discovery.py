"""Finding the model servers on this computer, and which of their models suit which tier.

:func:`discover` asks, all at once and briefly, every place a server may be: the Ollama of ``[ollama] host``
(or ``OLLAMA_HOST``) and the default 127.0.0.1:11434, the ``base_url`` of configured tiers, and the usual local
ports of OpenAI-compatible servers (llama.cpp 8080, LM Studio 1234, vLLM 8000). Each answer carries the
server's model list (:func:`~openhuman_desktop.llm.catalog.list_models`) or its problem in one sentence.
:func:`recommend` picks the local and reasoning models from such a list, or suggests downloads.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from openhuman_desktop import config
from openhuman_desktop.errors import LlmUnavailable
from openhuman_desktop.llm.catalog import InstalledModel, list_models
from openhuman_desktop.llm.machine import Machine as Machine  # re-exported: the onboarding window asks discovery
from openhuman_desktop.llm.machine import this_machine as this_machine

PROBE_TIMEOUT = 1.5
"""Seconds each place may take to answer: a server on this computer answers in milliseconds."""
LOCAL_SERVERS = (("llama.cpp", 8080), ("LM Studio", 1234), ("vLLM", 8000))
"""OpenAI-compatible servers people run on this computer, at their default ports (``/v1/models``)."""


@dataclass(frozen=True)
class Candidate:
    """A place a model server may answer.

    Attributes:
        provider: ``"ollama"`` or ``"openai"`` (any OpenAI-compatible server), as in ``[models.*] provider``.
        base_url: what a tier's client is given (an OpenAI-compatible one ends in ``/v1``).
        label: the server's name for people ("Ollama", "LM Studio", …).
        source: why it is asked ("config.toml", "OLLAMA_HOST", "the default address", "its usual port").
        api_key_env: the variable with the key (configured tiers only).
        is_guess: a usual port, not a configured place: silence there is not a problem worth showing.
    """

    provider: str
    base_url: str
    label: str
    source: str
    api_key_env: str | None = None
    is_guess: bool = False


@dataclass(frozen=True)
class FoundServer:
    """What a place answered: its models, or why it could not be asked."""

    candidate: Candidate
    models: tuple[InstalledModel, ...] = ()
    problem: str | None = None

    @property
    def is_reachable(self) -> bool:
        return self.problem is None

    @property
    def provider(self) -> str:
        return self.candidate.provider

    @property
    def base_url(self) -> str:
        return self.candidate.base_url

    @property
    def label(self) -> str:
        return self.candidate.label

    @property
    def chat_models(self) -> tuple[InstalledModel, ...]:
        return tuple(model for model in self.models if not model.is_embedding)

    @property
    def embedding_models(self) -> tuple[InstalledModel, ...]:
        return tuple(model for model in self.models if model.is_embedding)


def same_place(a: str, b: str) -> bool:
    """Whether two base URLs reach the same server (``localhost`` is 127.0.0.1, a trailing slash is nothing)."""
    return _place(a) == _place(b)


def _place(url: str) -> tuple[str, str, int | None, str]:
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return (url, "", None, "")
    host = (parts.hostname or "").lower()
    if host in ("localhost", "::1", "[::1]"):
        host = "127.0.0.1"
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return (parts.scheme, host, port if port is not None else default, parts.path.rstrip("/"))


def candidates(settings: config.Settings, environ: Mapping[str, str] | None = None,
               local_servers: Sequence[tuple[str, int]] = LOCAL_SERVERS) -> list[Candidate]:
    """Every place to ask, configured ones first, each once."""
    environ = os.environ if environ is None else environ
    from_env = bool(environ.get("OLLAMA_HOST", "").strip())
    found: list[Candidate] = [
        Candidate("ollama", settings.ollama_host, "Ollama", "OLLAMA_HOST" if from_env else "config.toml"),
    ]
    for tier in config.MODEL_TIERS:
        model = settings.model(tier)
        if model is None or not model.base_url:
            continue
        label = "Ollama" if model.provider == "ollama" else "OpenAI-compatible server"
        found.append(Candidate(model.provider, model.base_url, label, f"[models.{tier}] in config.toml",
                               model.api_key_env if model.provider == "openai" else None))
    found.append(Candidate("ollama", config.DEFAULT_OLLAMA_HOST, "Ollama", "the default address"))
    found.extend(Candidate("openai", f"http://127.0.0.1:{port}/v1", label, "its usual port", is_guess=True)
                 for label, port in local_servers)
    unique: list[Candidate] = []
    for candidate in found:
        if not any(same_place(candidate.base_url, kept.base_url) for kept in unique):
            unique.append(candidate)
    return unique


async def probe(candidate: Candidate, timeout: float = PROBE_TIMEOUT,
                environ: Mapping[str, str] | None = None) -> FoundServer:
    """Ask one place for its models; never raises for a server that is down (that is the answer's problem)."""
    try:
        models = await list_models(candidate.provider, candidate.base_url, api_key_env=candidate.api_key_env,
                                   timeout=timeout, environ=environ)
    except LlmUnavailable as exc:
        return FoundServer(candidate, problem=str(exc))
    return FoundServer(candidate, tuple(models))


async def discover(settings: config.Settings, *, environ: Mapping[str, str] | None = None,
                   timeout: float = PROBE_TIMEOUT,
                   local_servers: Sequence[tuple[str, int]] = LOCAL_SERVERS) -> list[FoundServer]:
    """Ask every place at once; returns the servers that answered first, then configured places that did not.

    A usual port where nothing answers is left out (most people run one server, not four).
    """
    places = candidates(settings, environ, local_servers)
    answers = await asyncio.gather(*(probe(place, timeout, environ) for place in places))
    shown = [answer for answer in answers if answer.is_reachable or not answer.candidate.is_guess]
    return sorted(shown, key=lambda answer: not answer.is_reachable)  # stable: configured order kept


async def probe_address(address: str, timeout: float = 3.0) -> FoundServer:
    """A server at an address the user typed: Ollama's API first, then an OpenAI-compatible ``/v1``.

    ``host:port`` and URLs with or without ``/v1`` are accepted; the answer names what was tried.
    """
    text = address.strip().rstrip("/")
    if not text:
        return FoundServer(Candidate("ollama", "", "Server", "your address"),
                           problem="Type the address of your server, e.g. http://127.0.0.1:11434.")
    if "://" not in text:
        text = f"http://{text}"
    root = re.sub(r"/v1$", "", text)
    tries = [Candidate("ollama", root, "Ollama", "your address"),
             Candidate("openai", f"{root}/v1", "OpenAI-compatible server", "your address")]
    if text.endswith("/v1"):
        tries.reverse()
    answers = await asyncio.gather(*(probe(place, timeout) for place in tries))
    for answer in answers:
        if answer.is_reachable:
            return answer
    return FoundServer(tries[0], problem=f"Neither Ollama nor an OpenAI-compatible server answers at {root}; "
                                         "check that it runs and the address (host:port).")


# --- which model for which tier ------------------------------------------------------------------------


@dataclass(frozen=True)
class Suggestion:
    """A model worth downloading when nothing installed fits (sizes as ollama.com lists them)."""

    name: str
    size_bytes: int
    tier: str       # "local", "reasoning" or "embedding"
    why: str
    parameters: float = 0.0
    title: str = ""   # the model family's own name, for servers that load models by file (llama.cpp, LM Studio)


SUGGESTIONS = (
    Suggestion("llama3.2:3b", 2_019_393_189, "local", "quick answers for the heartbeat and chat", 3.2e9,
               "Llama 3.2 3B Instruct"),
    Suggestion("qwen2.5:0.5b", 397_821_319, "local", "the smallest: for a computer with little memory", 0.49e9,
               "Qwen2.5 0.5B Instruct"),
    Suggestion("qwen2.5:7b", 4_683_087_332, "reasoning", "plans and uses tools for the agent", 7.6e9,
               "Qwen2.5 7B Instruct"),
    Suggestion("llama3.2:3b", 2_019_393_189, "reasoning", "smaller, for a computer with 8 GB of memory", 3.2e9,
               "Llama 3.2 3B Instruct"),
    Suggestion("nomic-embed-text", 274_302_450, "embedding", "vectors for long-term memory", 137e6, "nomic-embed-text"),
)

TINY = 1e9
"""Parameters below which a chat model is "very small": it greets and sums up, and it misreads tasks."""


@dataclass(frozen=True)
class Picks:
    """The model names recommended per tier; ``to_download`` lists those not installed yet.

    ``subconscious`` is the reflection tier's model (the reasoning one unless configured otherwise).
    """

    local: str
    reasoning: str
    embedding: str | None = None
    to_download: tuple[str, ...] = ()
    subconscious: str | None = None


_PARAMETERS = re.compile(r"([\d.]+)\s*([KMBT])", re.IGNORECASE)
_SCALE = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}


def model_weight(model: InstalledModel) -> float | None:
    """How big a model is, for ordering: its parameter count if Ollama says it, else its size in bytes."""
    if model.parameter_size:
        match = _PARAMETERS.search(model.parameter_size)
        if match:
            return float(match.group(1)) * _SCALE[match.group(2).upper()]
    match = _PARAMETERS.search(model.name.rsplit(":", 1)[-1])  # "qwen2.5:14b" says its size in its tag
    if match:
        return float(match.group(1)) * _SCALE[match.group(2).upper()]
    return float(model.size_bytes) * 2 if model.size_bytes else None  # ≈ 4-bit weights: 2 parameters a byte


def recommend(server: FoundServer, current: config.Settings | None = None, machine: Machine | None = None) -> Picks:
    """Local: a small chat model (at least 1 B parameters when there is one); reasoning: the largest one;
    reflection (``subconscious``): the reasoning one.

    A model the configuration already names is kept when the server has it. On an Ollama without a chat
    model the suggestions are picked (and listed in ``to_download``): with ``machine``, the largest this
    computer runs well. There, an installed model that is very small (under ``TINY`` parameters) gives way to
    a download this computer runs well; elsewhere (a server that loads its own models) it is kept and
    :func:`small_model_advice` says what to load instead. The embedding model stays optional.
    """
    chat = list(server.chat_models)
    names = {model.name for model in server.models}
    tiers = ("local", "reasoning", "subconscious", "embedding")
    configured = {tier: _installed_name(current, tier, names) for tier in tiers}
    embedding = configured["embedding"] or next((m.name for m in server.embedding_models), None)
    can_pull = server.provider == "ollama"
    if not chat:
        if not can_pull:
            return Picks("", "", embedding)
        local, reasoning = _suggested("local", machine), _suggested("reasoning", machine)
        return Picks(local, reasoning, embedding, tuple(dict.fromkeys((local, reasoning))),
                     configured["subconscious"] or reasoning)
    weighed = sorted(chat, key=lambda m: (model_weight(m) is None, model_weight(m) or 0, m.name))
    big_enough = [m for m in weighed if (model_weight(m) or 0) >= TINY]
    picked = {"local": (big_enough or weighed)[0]}
    known = [m for m in weighed if model_weight(m) is not None]
    picked["reasoning"] = known[-1] if known else picked["local"]
    chosen: dict[str, str] = {}
    downloads: list[str] = []
    for tier, model in picked.items():
        name = configured[tier] or model.name
        weight = model_weight(model)
        if not configured[tier] and can_pull and machine is not None and weight is not None and weight < TINY:
            bigger = _suggested(tier, machine)
            if _suggestion(bigger).parameters > weight:
                name = bigger
                downloads.append(bigger)
        chosen[tier] = name
    return Picks(chosen["local"], chosen["reasoning"], embedding, tuple(dict.fromkeys(downloads)),
                 configured["subconscious"] or chosen["reasoning"])


def _suggested(tier: str, machine: Machine | None = None) -> str:
    """The first suggestion of ``tier`` that ``machine`` runs well (the first one when it is not known); a
    computer that runs none gets the smallest chat model."""
    offers = [s for s in SUGGESTIONS if s.tier == tier]
    if machine is None:
        return offers[0].name
    fitting = [s for s in offers if machine.runs(s)]
    if fitting:
        return fitting[0].name
    smallest = min((s for s in SUGGESTIONS if s.tier in ("local", "reasoning")), key=lambda s: s.size_bytes)
    return smallest.name


def _suggestion(name: str) -> Suggestion:
    return next(s for s in SUGGESTIONS if s.name == name)


def weight_of(name: str, server: FoundServer | None = None) -> float | None:
    """The parameters of the model ``name``: as the server lists it, else as its name says (``:3b``)."""
    bare = name.removesuffix(":latest")
    for model in server.models if server is not None else ():
        if model.name.removesuffix(":latest") == bare:
            return model_weight(model)
    for offer in SUGGESTIONS:
        if offer.name == bare:
            return offer.parameters
    return model_weight(InstalledModel(name))


def _parameters_text(parameters: float) -> str:
    if parameters >= 1e9:
        return f"{parameters / 1e9:.1f}".removesuffix(".0") + " B"
    return f"{round(parameters / 1e6):,} M"


def small_model_advice(server: FoundServer, chosen: Mapping[str, str], machine: Machine | None) -> str | None:
    """What a very small chosen chat model can and cannot do, and a bigger one for its tier that this computer
    runs well (None when no chosen chat model is very small).

    Args:
        chosen: the chosen model of each chat tier (``local``, ``reasoning``, ``subconscious``).
    """
    small = [(tier, name, weight) for tier, name in chosen.items()
             if name and (weight := weight_of(name, server)) is not None and weight < TINY]
    if not small:
        return None
    tier, name, weight = small[0]
    shown = name.removesuffix(":latest")
    text = (f"{shown} is a very small model ({_parameters_text(weight)} parameters): it answers short questions "
            "and sums up a short note, but often misreads tasks, gets the heartbeat's decisions wrong and cannot "
            "plan the agent's steps or tools.")
    if machine is None:
        return text + " A model of 3 B parameters or more (about 2 GB) answers far better."
    bigger = _suggestion(_suggested("local" if tier == "local" else "reasoning", machine))
    if bigger.parameters <= weight or not machine.runs(bigger):
        return text + f" This computer ({machine.describe()}) has no room for a bigger one."
    size = f"{bigger.size_bytes / 1e9:.1f} GB"
    if server.provider == "ollama":
        how = f"runs {bigger.name} ({size}) well: pick it, and it is downloaded when you press Next."
    else:
        how = (f"runs a {_parameters_text(bigger.parameters)} model well: load one in {server.label}, such as "
               f"{bigger.title} (about {size} at 4 bits), then search again.")
    return text + f" This computer ({machine.describe()}) {how}"


def _installed_name(settings: config.Settings | None, tier: str, names: set[str]) -> str | None:
    model = settings.model(tier) if settings is not None else None
    if model is None or not model.model:
        return None
    for name in (model.model, f"{model.model}:latest"):
        if name in names:
            return name
    return None


def suggestions_for(tier: str) -> tuple[Suggestion, ...]:
    """The downloads offered for ``tier``, best first."""
    return tuple(s for s in SUGGESTIONS if s.tier == tier)
