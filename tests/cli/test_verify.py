"""``buraco verify``: every hand's deal commitment checked, tampering named, bad files refused."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from buraco.bots import make_bot, play_hand
from buraco.cli import app
from buraco.fairness import commitment, new_deal
from buraco.game import Game
from buraco.rules import make_rules
from clikit import CliRunner

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    """A two-hand match dealt as a server deals it: each deck from new_deal, committed."""
    rules = make_rules("aberto", players=2, match_hands=2)
    deals = [new_deal(rules) for _ in range(2)]
    game = Game(rules, stacked=[deals[0].deck_text], cuts=[deals[0].cut], seed=5, first_dealer=1)
    bots = [make_bot("greedy", seed=s) for s in range(2)]
    play_hand(game, bots)
    game.next_hand(deals[1].deck_text, deals[1].cut)
    play_hand(game, bots)
    assert game.is_over()
    record = game.record()
    for hand, deal in zip(record["hands"], deals, strict=True):
        hand["commitment"] = deal.commitment
        hand["salt"] = deal.salt
    return record


def write(tmp_path: Path, record: dict[str, Any] | str, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return str(path)


def _deck_reversed(record: dict[str, Any]) -> dict[str, Any]:
    """A copy of the record whose second hand's deck is reversed: its play no longer fits."""
    tampered = copy.deepcopy(record)
    cards = tampered["hands"][1]["deck"].split()
    tampered["hands"][1]["deck"] = " ".join(reversed(cards))
    return tampered


def hand_lines(out: str) -> dict[int, str]:
    """The line of each hand in the output, by hand number."""
    lines = {}
    for line in out.splitlines():
        if line.startswith("hand "):
            number = int(line.split(":")[0].split()[1])
            lines[number] = line
    return lines


def test_an_honest_record_verifies_every_hand(tmp_path: Path, committed: dict[str, Any]) -> None:
    code, out = run("verify", write(tmp_path, committed))
    assert code == 0, out
    lines = hand_lines(out)
    assert sorted(lines) == [1, 2]
    for number, hand in zip((1, 2), committed["hands"], strict=True):
        assert "ok" in lines[number] and "verified" in lines[number]
        assert hand["commitment"][:16] in lines[number]
    assert "2 of 2 hands verified" in out


def test_json_output_lists_each_hand(tmp_path: Path, committed: dict[str, Any]) -> None:
    code, out = run("verify", write(tmp_path, committed), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ok"] is True
    assert [(h["hand"], h["ok"]) for h in data["hands"]] == [(1, True), (2, True)]


def _swap_replayable(record: dict[str, Any], hand: int) -> dict[str, Any]:
    """The record with two different cards of a hand's deck exchanged, still replaying."""
    from buraco.replays import replay

    cards = record["hands"][hand]["deck"].split()
    for i in range(len(cards) - 1, 0, -1):
        if cards[i] == cards[i - 1]:
            continue
        swapped = cards[:]
        swapped[i], swapped[i - 1] = swapped[i - 1], swapped[i]
        tampered = copy.deepcopy(record)
        tampered["hands"][hand]["deck"] = " ".join(swapped)
        try:
            replay(tampered)
        except Exception:
            continue
        return tampered
    raise AssertionError("no exchange of two cards keeps the record replaying")


def test_a_tampered_deck_fails_and_names_the_hand(
    tmp_path: Path, committed: dict[str, Any]
) -> None:
    tampered = _swap_replayable(committed, 1)
    code, out = run("verify", write(tmp_path, tampered))
    assert code == 1, out
    lines = hand_lines(out)
    assert "verified" in lines[1] and "FAILED" not in lines[1]
    assert "FAILED" in lines[2] and "MISMATCH" in lines[2]
    assert "1 of 2 hands verified" in out


def test_a_deck_changed_so_play_no_longer_fits_fails_naming_the_hand(
    tmp_path: Path, committed: dict[str, Any]
) -> None:
    code, out = run("verify", write(tmp_path, _deck_reversed(committed)))
    assert code == 1, out
    assert "hand 2" in out and "hand 1," not in out


@pytest.mark.parametrize("hand", [0, 1])
def test_a_changed_cut_fails_and_names_the_hand(
    tmp_path: Path, committed: dict[str, Any], hand: int
) -> None:
    tampered = copy.deepcopy(committed)
    cut = committed["hands"][hand]["cut"]
    tampered["hands"][hand]["cut"] = cut - 1 if cut > -3 else cut + 1  # within cut_spread 3
    code, out = run("verify", write(tmp_path, tampered))
    assert code == 1, out
    assert f"hand {hand + 1}" in out
    lines = hand_lines(out)
    if lines:  # the play still fits the new cut: the commitment check names the hand
        assert "MISMATCH" in lines[hand + 1]
        assert "verified" in lines[2 - hand]


def test_a_changed_salt_fails_and_names_the_hand(tmp_path: Path, committed: dict[str, Any]) -> None:
    tampered = copy.deepcopy(committed)
    salt = committed["hands"][0]["salt"]
    tampered["hands"][0]["salt"] = ("0" if salt[0] != "0" else "1") + salt[1:]
    code, out = run("verify", write(tmp_path, tampered))
    assert code == 1, out
    lines = hand_lines(out)
    assert "MISMATCH" in lines[1] and "verified" in lines[2]


def test_the_commitment_is_the_sha256_of_the_documented_text(committed: dict[str, Any]) -> None:
    for hand in committed["hands"]:
        text = f"buraco-deal-v1\n{hand['salt']}\n{hand['deck']}\n{hand['cut']}"
        assert hashlib.sha256(text.encode()).hexdigest() == hand["commitment"]


def test_a_deck_recommitted_after_the_fact_passes_only_with_the_new_hash(
    tmp_path: Path, committed: dict[str, Any]
) -> None:
    # the check is exactly the hash: a changed deck verifies only against a changed
    # commitment, which is why the commitment is published before the first card is seen
    tampered = _swap_replayable(committed, 0)
    hand = tampered["hands"][0]
    hand["commitment"] = commitment(hand["salt"], hand["deck"], hand["cut"])
    assert hand["commitment"] != committed["hands"][0]["commitment"]
    code, out = run("verify", write(tmp_path, tampered))
    assert code == 0, out


def test_a_record_without_commitments_fails(tmp_path: Path, committed: dict[str, Any]) -> None:
    bare = copy.deepcopy(committed)
    for hand in bare["hands"]:
        del hand["commitment"], hand["salt"]
    code, out = run("verify", write(tmp_path, bare))
    assert code == 1, out
    lines = hand_lines(out)
    assert all("no commitment" in lines[n] for n in (1, 2))
    assert "0 of 2 hands verified" in out


def test_a_hand_whose_salt_was_not_revealed_fails(
    tmp_path: Path, committed: dict[str, Any]
) -> None:
    partial = copy.deepcopy(committed)
    del partial["hands"][1]["salt"]
    code, out = run("verify", write(tmp_path, partial))
    assert code == 1
    lines = hand_lines(out)
    assert "verified" in lines[1] and "salt was not revealed" in lines[2]


def test_an_engine_record_of_a_seeded_game_has_nothing_to_verify(tmp_path: Path) -> None:
    game = Game("aberto", players=2, seed=3, match=False)
    play_hand(game, [make_bot("greedy", seed=s) for s in range(2)])
    code, out = run("verify", write(tmp_path, game.record()))
    assert code == 1
    assert "no commitment" in hand_lines(out)[1]


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json at all", "not valid JSON"),
        ("[1, 2, 3]", "JSON object"),
        ('{"format": "buraco-record"', "not valid JSON"),
        ("", "not valid JSON"),
    ],
)
def test_a_malformed_file_gives_one_line_and_exit_2(
    tmp_path: Path, content: str, says: str
) -> None:
    code, out = run("verify", write(tmp_path, content))
    assert code == 2, out
    assert says in out
    assert out.strip().count("\n") == 0 and out.startswith("error:")
    assert "Traceback" not in out


def test_a_malformed_record_field_gives_exit_2(tmp_path: Path, committed: dict[str, Any]) -> None:
    for field, value, says in (
        ("commitment", "xyz", "hands[0].commitment"),
        ("salt", "NOT-HEX", "hands[0].salt"),
        ("deck", "ZZ QQ", "hands[0].deck"),
    ):
        bad = copy.deepcopy(committed)
        bad["hands"][0][field] = value
        code, out = run("verify", write(tmp_path, bad))
        assert code == 2, (field, out)
        assert says in out and out.strip().count("\n") == 0, out


def test_a_missing_file_or_a_folder_gives_exit_2(tmp_path: Path) -> None:
    code, out = run("verify", str(tmp_path / "nowhere.json"))
    assert code == 2 and "cannot read record" in out and "Traceback" not in out
    code, out = run("verify", str(tmp_path))
    assert code == 2 and "cannot read record" in out and "Traceback" not in out


def test_binary_junk_gives_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    code, out = run("verify", str(path))
    assert code == 2 and "UTF-8" in out and out.strip().count("\n") == 0


def test_with_json_a_record_that_cannot_be_verified_still_answers_in_json(
    tmp_path: Path, committed: dict[str, Any]
) -> None:
    # a malformed record (exit 2) and one whose actions no longer replay (exit 1)
    for record, code, says in (
        ("{not json", 2, "JSON"),
        (_deck_reversed(committed), 1, "the record does not replay"),
    ):
        result = runner.invoke(app, ["verify", write(tmp_path, record), "--json"])
        assert result.exit_code == code, result.output
        answer = json.loads(result.stdout)
        assert answer["ok"] is False and says in answer["error"]
