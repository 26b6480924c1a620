"""The local JSON-RPC API (CONTRACT §4): framing, methods, server and the command-line client."""
