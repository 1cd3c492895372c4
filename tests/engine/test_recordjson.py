"""Match records as JSON: lossless both ways through ``json``; anything else is RecordJsonError."""

from __future__ import annotations

import json

import pytest

from engine.matfile import read_mat, write_mat
from engine.recordjson import RecordJsonError, from_json, to_json
from tests.engine.test_matfile import HAND_TYPED
from tests.matchgen import random_match


def test_round_trip_is_lossless() -> None:
    records = [random_match(seed, (0, 3, 5)[seed % 3], jacoby=seed == 0, raccoons=True)
               for seed in range(6)]
    records.append(read_mat(HAND_TYPED))  # lines, an unfinished game
    illegal = read_mat(write_mat(records[1]).replace("13/9 ", "13/2 ", 1))
    records.append(illegal)
    assert any(a.illegal for g in illegal.games for a in g.actions)
    for record in records:
        data = json.loads(json.dumps(to_json(record)))
        assert from_json(data) == record


def test_small_and_readable() -> None:
    data = to_json(read_mat(HAND_TYPED))
    first = data["games"][0]["actions"][0]
    assert first == {"side": "white", "kind": "roll", "dice": [3, 1],
                     "steps": [[8, 5, 3, 0], [6, 5, 1, 0]], "play": "8/5 6/5", "line": 5}
    assert "start" not in data["games"][0]
    assert data["rules"] == "backgammon" and data["length"] == 5


@pytest.mark.parametrize("data", [
    [], {"games": []}, {"length": "3"}, {"length": 3, "rules": "chess"},
    {"length": 3, "games": [{"number": 1}]},
    {"length": 3, "games": [{"number": 1, "score": [0, 0], "actions": [{"kind": "roll"}]}]},
    {"length": 3, "games": [{"number": 1, "score": [0, 0],
                             "actions": [{"side": "red", "kind": "roll"}]}]},
    {"length": 3, "games": [{"number": 1, "score": [0, 0],
                             "actions": [{"side": "white", "kind": "roll", "dice": [1]}]}]},
    {"length": 3, "games": [{"number": 1, "score": [0, 0],
                             "actions": [{"side": "white", "kind": "fly"}]}]},
    {"length": 3, "games": [{"number": 1, "score": [0, 0], "start": {"points": [1]}}]},
    {"length": True},
])
def test_bad_json_raises_record_json_error(data: object) -> None:
    with pytest.raises(RecordJsonError):
        from_json(data)


def test_positions_set_mid_game_round_trip_and_old_records_read_as_before() -> None:
    from engine.corrections import game_sets, with_corrections
    from tests.engine.test_matfile_setpos import _json_log, camera_corrected

    ref, end = camera_corrected()
    record = with_corrections(ref.record, _json_log(ref))
    data = to_json(record)
    assert data["games"][0]["sets"][0]["source"] == "camera"
    back = from_json(json.loads(json.dumps(data)))
    assert back == record and game_sets(back.games[0])[2][0].position == end
    del data["games"][0]["sets"]  # a record written before sets existed
    assert from_json(data) == ref.record
