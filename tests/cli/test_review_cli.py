"""``buraco review``: the report, its JSON, its languages and its one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from buraco.cli import app
from buraco.cli.play import farewell
from buraco.review import GRADES
from clikit import CliRunner
from reviewkit import short_record

runner = CliRunner()


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "hand.json"
    path.write_text(short_record(), encoding="utf-8")
    return path


def test_the_json_reviews_each_seat_asked_with_grades_and_a_summary(record: Path) -> None:
    result = runner.invoke(app, ["review", str(record), "--seat", "1", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ok"] and [r["seat"] for r in data["reviews"]] == [1]
    review = data["reviews"][0]
    assert review["format"] == "buraco-review" and review["options"]["mode"] == "quick"
    assert review["decisions"] and all(d["grade"] in GRADES for d in review["decisions"])
    assert review["summary"]["decisions"] == len(review["decisions"])


def test_the_report_lists_the_decisions_the_worst_and_the_accuracy_in_italian(
    record: Path,
) -> None:
    result = runner.invoke(app, ["review", str(record), "--quick", "--lang", "it"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Analisi di" in out and "Le tre decisioni peggiori" in out
    assert "Precisione per giocatore" in out
    assert out.count("Analisi di") == 2  # both seats, every hand


def test_the_same_seed_gives_the_same_json(record: Path) -> None:
    args = ["review", str(record), "--seat", "0", "--quick", "--json", "--seed", "3"]
    assert runner.invoke(app, args).output == runner.invoke(app, args).output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "4"], "--seat must be a seat from 0 to 1, not 4"),
        (["--hand", "2"], "--hand must be a hand of the record, from 1 to 1, not 2"),
        (["--lang", "fr"], "not a language offered"),
        (["--seed", "-1"], "--seed must be a whole number"),
    ],
)
def test_a_bad_seat_hand_language_or_seed_is_refused_in_one_line(
    record: Path, args: list[str], message: str
) -> None:
    result = runner.invoke(app, ["review", str(record), *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_record_that_does_not_replay_is_refused_in_one_line(tmp_path: Path) -> None:
    data = json.loads(short_record())
    data["hands"][0]["actions"][3][1] = "discard JK"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    missing = runner.invoke(app, ["review", str(tmp_path / "none.json")])
    for result in (runner.invoke(app, ["review", str(bad)]), missing):
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert result.output.startswith("error:")
        assert len(result.output.strip().splitlines()) == 1


def test_play_offers_a_review_at_the_end_of_a_match(tmp_path: Path) -> None:
    class Over:
        match_over = True

    line = farewell(Over(), tmp_path / "m.json")  # type: ignore[arg-type]
    assert f"buraco review {tmp_path / 'm.json'} --seat 0" in line
