"""``buraco tournament``: a club's evening from the command line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from buraco.cli import app
from clikit import CliRunner

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args])
    return result.exit_code, result.output


def test_a_club_evening_pairs_scores_and_ranks(tmp_path: Path) -> None:
    file = str(tmp_path / "club.json")
    pairs = ["Ana/Bia", "Caio/Duda", "Eva/Fabio", "Gil/Hugo", "Ivo/Júlia", "Leo/Mara"]
    entrants = [arg for p in pairs for arg in ("-e", p)]
    code, out = run("new", file, *entrants, "--name", "Circolo", "--movement",
                    "mitchell,mitchell,danish-modified")  # fmt: skip
    assert code == 0, out
    assert "6 entrants, 3 turns" in out
    code, out = run("pair", file)
    assert code == 0 and "Ana/Bia" in out and "Gil/Hugo" in out  # NS 1 meets EW 1
    code, out = run("pair", file)
    assert code == 2 and "turn 1 still needs the result of table 1, 2, 3" in out
    for table, ns, ew in ((1, "1240", "860"), (2, "700", "705"), (3, "2100", "0")):
        code, out = run("result", file, str(table), ns, ew)
        assert code == 0, out
    assert "VP 20–0; turn complete" in out
    code, out = run("standings", file, "--csv", "-")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["entrant"] for r in rows][:2] == ["Eva/Fabio", "Ana/Bia"]
    assert [int(r["vp"]) for r in rows] == [20, 14, 10, 10, 6, 0]
    code, out = run("adjust", file, "2", "8", "12", "--note", "late arrival", "--turn", "1")
    assert code == 0, out
    assert "12" in run("show", file)[1] and "late arrival" in run("show", file)[1]
    saved = json.loads(Path(file).read_text())
    assert saved["results"][1]["vp"] == [8, 12]


def test_the_page_to_print_escapes_names(tmp_path: Path) -> None:
    file = str(tmp_path / "t.json")
    code, out = run("new", file, "-e", "<script>x</script>", "-e", "=1+1", "--movement",
                    "round-robin")  # fmt: skip
    assert code == 0, out
    run("pair", file)
    run("result", file, "1", "500", "400")
    page = tmp_path / "t.html"
    code, out = run("standings", file, "--html", str(page), "--csv", str(tmp_path / "t.csv"))
    assert code == 0, out
    text = page.read_text()
    assert "<script>" not in text and "&lt;script&gt;x&lt;/script&gt;" in text
    assert "'=1+1" in (tmp_path / "t.csv").read_text()  # a spreadsheet shows it as text


def test_bad_input_is_one_error_line_and_the_file_is_unchanged(tmp_path: Path) -> None:
    file = tmp_path / "t.json"
    code, out = run("new", str(file), "-e", "A", "-e", "B", "--movement", "swiss")
    assert code == 2 and "give --turns for a swiss" in out
    code, out = run("new", str(file), "-e", "A", "-e", "B", "--movement", "swiss", "--turns", "2")
    assert code == 0, out
    code, out = run("new", str(file), "-e", "A", "-e", "B", "--movement", "swiss", "--turns", "2")
    assert code == 2 and "exists" in out
    before = file.read_text()
    for args, says in (
        (("result", str(file), "1", "10", "0"), "turn 0 is not paired"),
        (("standings", str(file), "--after", "3"), "--after is a turn from 1 to 0"),
        (("pair", str(tmp_path / "none.json")), "cannot read"),
    ):
        code, out = run(*args)
        assert code == 2 and says in out and "Traceback" not in out, out
        assert out.count("\n") == 1
    assert file.read_text() == before
    file.write_text('{"format": "buraco-tournament", "version": 1}')
    code, out = run("pair", str(file))
    assert code == 2 and "has the keys" in out
    file.write_text("{")
    code, out = run("show", str(file))
    assert code == 2 and "is not JSON" in out


def test_files_that_are_not_text_json_or_a_file_are_one_error_line(tmp_path: Path) -> None:
    # found by review: these were tracebacks (or ran out of memory)
    file = tmp_path / "t.json"
    bad = tmp_path / "bad"
    bad.write_bytes(b"\xff\xfe\x00")
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000)
    cases = [
        (("new", str(file), "--entrants", str(bad), "--movement", "swiss", "--turns", "2"),
         "not UTF-8"),
        (("new", str(file), "-e", "A", "-e", "B", "--scale", str(bad)), "not UTF-8"),
        (("new", str(file), "-e", "A", "-e", "B", "--scale", str(nested)), "nested too deep"),
        (("new", str(file), "-e", "A", "-e", "B", "--movement", "swiss", "--turns", "10**8"),
         "Invalid value"),
        (("new", str(file), "-e", "A", "-e", "B", "--movement", "swiss", "--turns", "100000000"),
         "--turns is 1 to 50"),
        (("show", str(nested)), "nested too deep"),
        (("show", "/dev/zero"), "no such file"),
        (("show", str(tmp_path)), "no such file"),
    ]  # fmt: skip
    for args, says in cases:
        code, out = run(*args)
        assert code == 2 and says in out and "Traceback" not in out, (args, out)
    assert not file.exists()


def test_csv_to_the_terminal_and_a_page_are_both_written(tmp_path: Path) -> None:
    file = str(tmp_path / "t.json")
    run("new", file, "-e", "A", "-e", "B", "--movement", "round-robin")
    run("pair", file)
    page = tmp_path / "p.html"
    code, out = run("standings", file, "--csv", "-", "--html", str(page))
    assert code == 0 and out.count("\n") >= 3 and page.exists()


def test_a_result_entered_again_says_what_it_replaces_and_a_movement_typo_is_named(
    tmp_path: Path,
) -> None:
    file = str(tmp_path / "t.json")
    code, out = run("new", file, "-e", "A", "-e", "B", "--movement", "mitchel")
    assert code == 2 and "no movement 'mitchel'; movements: mitchell" in out
    run("new", file, "-e", "A", "-e", "B", "--movement", "round-robin")
    run("pair", file)
    run("result", file, "1", "900", "500")
    code, out = run("result", file, "1", "500", "901")
    assert code == 0 and "replaces the result entered before: 900–500" in out
    assert "multiples of 5" in out


def test_an_individual_evening_seats_players_in_fours_with_new_partners(tmp_path: Path) -> None:
    file = str(tmp_path / "individuale.json")
    players = ["Ana", "Bia", "Caio", "Duda", "Eva", "Fabio", "Gil", "Hugo", "Ines"]
    code, out = run("new", file, *[a for p in players for a in ("-e", p)], "--individual",
                    "--turns", "2")  # fmt: skip
    assert code == 0 and "9 entrants, 2 turns (swiss)" in out, out
    code, out = run("pair", file)
    assert code == 0 and "Ana & Duda" in out and "Bia & Caio" in out and "Ines" in out, out
    for table, ns, ew in ((1, "1200", "800"), (2, "700", "900")):
        assert run("result", file, str(table), ns, ew)[0] == 0
    code, out = run("standings", file, "--csv", "-")
    rows = {r["entrant"]: int(r["vp"]) for r in csv.DictReader(io.StringIO(out))}
    assert rows["Ana"] == rows["Duda"] == 14 and rows["Bia"] == rows["Caio"] == 6
    code, out = run("pair", file)
    assert code == 0 and "Ana & Duda" not in out and "Bia & Caio" not in out, out
    code, out = run("new", str(tmp_path / "x.json"), "-e", "A", "-e", "B", "-e", "C", "-e",
                    "D", "--individual", "--movement", "mitchell", "--turns", "2")  # fmt: skip
    assert code == 2 and "paired 'swiss' every turn" in out


def _two_pairs_paired(tmp_path: Path) -> Path:
    file = tmp_path / "t.json"
    code, out = run("new", str(file), "-e", "Ana/Bia", "-e", "Caio/Duda", "--movement",
                    "round-robin")  # fmt: skip
    assert code == 0, out
    assert run("pair", str(file))[0] == 0
    return file


def test_negative_match_points_are_typed_as_they_are(tmp_path: Path) -> None:
    # found by a user: "result t.json 2 -5 800" was "No such option: -5"
    file = _two_pairs_paired(tmp_path)
    code, out = run("result", str(file), "1", "-5", "800")
    assert code == 0 and "-5–800, VP 3–17" in out, out
    code, out = run("result", str(file), "1", "-400", "-5", "--turn", "1")
    assert code == 0 and "-400–-5, VP 6–14" in out, out
    code, out = run("result", str(file), "1", "--", "-10", "-5")
    assert code == 0 and "-10–-5, VP 10–10" in out, out
    assert json.loads(file.read_text())["results"][0]["ns_mp"] == -10
    before = file.read_text()
    for args, says in (
        (("1", "-5", "800", "--bogus"), "No such option: --bogus"),
        (("--bogus", "1", "-5", "800"), "No such option: --bogus"),
        (("-x", "1", "5", "800"), "No such option: -x"),
        (("1", "-5", "800", "--turn"), "Option '--turn' requires an argument"),
        (("1", "-5", "-1000000"), "match points are whole numbers from -100000 to 100000"),
    ):
        code, out = run("result", str(file), *args)
        assert code == 2 and says in out and out.count("\n") == 1, (args, out)
    assert file.read_text() == before


def test_an_adjustment_takes_negative_numbers_and_its_note_after_them(tmp_path: Path) -> None:
    # found by a user: "adjust F 1 -3 0" was "No such option: -3", and "adjust F 1 -- -3 0
    # --note x" was "unexpected extra argument(s) (--note x)"
    file = _two_pairs_paired(tmp_path)
    before = file.read_text()
    for args in (("-3", "0", "--note", "x"), ("--", "-3", "0", "--note", "x")):
        code, out = run("adjust", str(file), "1", *args)
        # read as numbers, the note read too: the VP's range is what is refused
        assert code == 2 and "each side 0 to 20 VP, not (-3, 0)" in out, (args, out)
    code, out = run("adjust", str(file), "1", "-3", "0", "--note")
    assert code == 2 and "Option '--note' requires an argument" in out
    assert file.read_text() == before
    code, out = run("adjust", str(file), "1", "--", "8", "12", "--note", "-a card exposed")
    assert code == 0 and "VP 8–12 (-a card exposed)" in out, out
    saved = json.loads(file.read_text())["results"][0]
    assert saved["vp"] == [8, 12] and saved["note"] == "-a card exposed"


def test_clear_with_vp_says_that_clear_takes_none(tmp_path: Path) -> None:
    file = _two_pairs_paired(tmp_path)
    run("adjust", str(file), "1", "8", "12", "--note", "late")
    before = file.read_text()
    for args in (("--clear", "5", "5"), ("5", "--clear")):
        code, out = run("adjust", str(file), "1", *args)
        assert code == 2 and "--clear takes no VP" in out and out.count("\n") == 1, out
    assert file.read_text() == before
    code, out = run("adjust", str(file), "1", "--clear")
    assert code == 0 and "adjustment cleared" in out


def test_a_scale_that_names_its_hands_sets_them_or_is_refused_against_hands(
    tmp_path: Path,
) -> None:
    # found by a user: the docs' 2-hand scale made a tournament of 3 hands (a file that
    # would not then load), and was taken with --hands 4 too
    scale = tmp_path / "club-2.json"
    scale.write_text(json.dumps({"name": "club-2", "hands": 2, "source": "our club's sheet",
                                 "bands": [[30, 10], [100, 11], [200, 12]]}))  # fmt: skip
    file = tmp_path / "t.json"
    args = ("-e", "A", "-e", "B", "--movement", "round-robin", "--scale", str(scale))
    code, out = run("new", str(file), *args, "--hands", "4")
    assert code == 2 and "is for turns of 2 hands, not 4 (--hands)" in out, out
    assert out.count("\n") == 1 and not file.exists()
    code, out = run("new", str(file), *args)
    assert code == 0 and "VP scale club-2" in out, out
    assert json.loads(file.read_text())["hands"] == 2
    assert run("pair", str(file))[0] == 0
    code, out = run("result", str(file), "1", "150", "0")
    assert code == 0 and "VP 12–8" in out, out
    anyhands = tmp_path / "any.json"
    anyhands.write_text(json.dumps({"name": "any", "source": "", "bands": [[30, 10]]}))
    code, out = run("new", str(tmp_path / "u.json"), "-e", "A", "-e", "B", "--movement",
                    "round-robin", "--scale", str(anyhands), "--hands", "5")  # fmt: skip
    assert code == 0, out
    assert json.loads((tmp_path / "u.json").read_text())["hands"] == 5


def test_a_scale_without_its_source_says_the_source_is_missing(tmp_path: Path) -> None:
    scale = tmp_path / "s.json"
    scale.write_text(json.dumps({"name": "club-2", "hands": 2, "bands": [[30, 10]]}))
    file = tmp_path / "t.json"
    code, out = run("new", str(file), "-e", "A", "-e", "B", "--movement", "round-robin",
                    "--scale", str(scale))  # fmt: skip
    assert code == 2 and "a VP scale's 'source' is missing" in out and not file.exists(), out


def test_a_player_in_two_pairs_or_a_pair_without_a_name_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "t.json"
    entrants = tmp_path / "entrants.txt"
    entrants.write_text("Eva/Fabio\nbia/Gil\n")
    for args, says in (
        (("-e", "Ana/Bia", "-e", "Ana/Caio"),
         "entrant 2: 'Ana' plays in entrant 1 ('Ana/Bia') too"),
        (("-e", "Ana/Bia", "--entrants", str(entrants)),
         "entrant 3: 'bia' plays in entrant 1 ('Ana/Bia') too"),
        (("-e", "Ana", "-e", "Caio/Ana"), "entrant 2: 'Ana' plays in entrant 1 ('Ana') too"),
        (("-e", "/", "-e", "Ana/Bia"), "entrant 1: '/' is not a pair"),
        (("-e", "Ana/Bia", "-e", "Caio/ "), "entrant 2: 'Caio/ ' is not a pair"),
        (("-e", "Ana/Bia", "-e", "Caio/Duda/Eva"), "'Caio/Duda/Eva' is not a pair"),
        (("-e", "Ana/ana", "-e", "Caio/Duda"), "entrant 1: 'Ana/ana' names one player twice"),
        (("-e", "Ana/Bia", "-e", "ana/bia"), "entrant 2: 'ana/bia' is entered twice"),
    ):  # fmt: skip
        code, out = run("new", str(file), *args, "--movement", "round-robin")
        assert code == 2 and says in out and out.count("\n") == 1, (args, out)
        assert not file.exists()
    code, out = run("new", str(file), "-e", "Ana / Bia", "-e", "Caio/Duda", "--movement",
                    "round-robin")  # fmt: skip
    assert code == 0, out
