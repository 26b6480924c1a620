#!/usr/bin/env bash
# A real small model on 127.0.0.1 (llama-cpp-python's OpenAI-compatible server + SmolLM2-135M-Instruct).
#   scripts/real_model_server.sh install            # venv + model; skipped when already there
#   scripts/real_model_server.sh start --port 8090  # prints the base URL (http://127.0.0.1:8090/v1)
#   scripts/real_model_server.sh stop --port 8090
#   scripts/real_model_server.sh status --port 8090
# OPENHUMAN_LLAMA_VENV (default .venv-llama) and OPENHUMAN_LLAMA_MODELS (default .real-model) say where.
# See bench/real_model_server.py.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/real_model_server.py "$@"
