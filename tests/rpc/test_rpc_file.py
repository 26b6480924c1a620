"""run/rpc.json that cannot be written (found by the issue-9 attack): the error names it and no temporary copy of the
token stays behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop.private_file import write_private_json


def test_a_folder_in_the_place_of_rpc_json_names_it_and_leaves_no_token_behind(tmp_path: Path) -> None:
    target = tmp_path / "run" / "rpc.json"
    target.mkdir(parents=True)
    with pytest.raises(OSError) as raised:
        write_private_json(target, {"token": "secret"})
    assert raised.value.filename == str(target), "the sentence must name rpc.json, not a temporary file"
    assert sorted(p.name for p in target.parent.iterdir()) == ["rpc.json"], "no temporary copy of the token"
