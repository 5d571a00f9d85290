"""``buraco review RECORD``: each decision of a hand graded by the strongest bot's search.

The report: per seat and hand, the decisions with their grades, the three that lost the
most with the position as the seat saw it, and an accuracy figure per player. With
``--json``, the reviews as :meth:`buraco.review.SeatReview.to_dict` gives them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from buraco.cli.common import LANG_HELP, board_language, console, fail, printable, progress_bar
from buraco.errors import RecordError
from buraco.i18n import DOMAINS, Words
from buraco.record import ReplayError, load
from buraco.review import ReviewOptions, SeatReview, review_seat
from buraco.review.report import Decision
from buraco.review.steps import positions
from buraco.review.words import grade_word, kind_word, signed, step_words, worded
from buraco.views import SeatView

GRADE_STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "bold yellow",
    "blunder": "bold red",
}


def review(
    record: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    seat: Annotated[
        int | None, typer.Option(help="the seat reviewed, from 0 (default: every seat)")
    ] = None,
    hand: Annotated[
        int | None, typer.Option(help="the hand reviewed, from 1 (default: every hand)")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the reviews as JSON")] = False,
    lang: Annotated[str | None, typer.Option(help="the report's language: " + LANG_HELP)] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="fewer deals and alternatives: about 6 times faster")
    ] = False,
    seed: Annotated[
        int, typer.Option(help="seed of the deals sampled (same seed, same review)")
    ] = 0,
) -> None:
    """Grade each decision of a record by the strongest bot's search, from the seat's view.

    Every decision (drawing or taking the pile, a turn's melds, each discard, going out)
    is weighed against the search's alternatives on deals sampled from what that seat
    could see, never the real hidden cards, and graded best, good, inaccuracy, mistake or
    blunder by the points it lost (docs/review.md). Exits 2 for a bad record, seat or hand.
    """
    language = board_language("--lang", lang)
    if not 0 <= seed < 2**63:
        fail(f"--seed must be a whole number from 0 to {2**63 - 1}, not {seed}")
    try:
        data = load(record)
    except RecordError as exc:
        fail(str(exc))
    players = int(data["rules"]["players"])
    n_hands = len(data["hands"])
    if seat is not None and not 0 <= seat < players:
        fail(f"--seat must be a seat from 0 to {players - 1}, not {seat}")
    if hand is not None and not 1 <= hand <= n_hands:
        fail(f"--hand must be a hand of the record, from 1 to {n_hands}, not {hand}")
    seats = list(range(players)) if seat is None else [seat]
    hands = list(range(1, n_hands + 1)) if hand is None else [hand]
    options = ReviewOptions.of_mode("quick" if quick else "default", seed)
    words = Words(language, str(data["rules"]["preset"]), DOMAINS)
    reviews: list[SeatReview] = []
    try:
        with progress_bar(disable=json_out or not console.is_terminal) as bar:
            task = bar.add_task(words("review.progress"), total=None)
            for h in hands:
                for s in seats:
                    bar.update(task, description=f"{words('review.progress')} {h}·{s}")

                    def told(done: int, total: int) -> None:
                        bar.update(task, completed=done, total=total)

                    try:
                        reviews.append(review_seat(data, s, h, options, told))
                    except RecordError as exc:
                        if "made no decision" in str(exc):
                            continue
                        raise
    except ReplayError as exc:
        fail(
            f"the record does not replay: hand {exc.hand + 1}, action {exc.index + 1} "
            f"(seat {exc.seat}: {exc.action[:100]!r}): {exc.reason}"
        )
    except (RecordError, ValueError) as exc:
        fail(str(exc))
    if json_out:
        console.print_json(json.dumps({"ok": True, "reviews": [r.to_dict() for r in reviews]}))
        return
    for r in reviews:
        show(r, data, words)
    accuracy(reviews, words)


def show(r: SeatReview, data: dict[str, object], words: Words) -> None:
    """One seat's hand: the decisions graded, then the worst three drawn."""
    name = r.names[r.seat]
    console.print(
        Text(
            printable(
                words(
                    "review.title",
                    name=name,
                    seat=r.seat,
                    hand=r.hand,
                    preset=words.preset_name(r.preset),
                )
            ),
            style="bold",
        )
    )
    table = Table()
    for key in ("turn", "kind", "played", "best", "grade", "loss", "win"):
        table.add_column(
            words(f"review.col.{key}"),
            justify="right" if key in ("turn", "loss", "win") else "left",
        )
    for d in r.decisions:
        table.add_row(*_row(d, words))
    console.print(table)
    worst = sorted(
        (d for d in r.decisions if d.grade not in ("best", "good")), key=lambda d: -d.loss
    )
    console.print(Text(words("review.worst"), style="bold"))
    if not worst:
        console.print(words("review.worst.none"))
    views = {p.index: p.view for p in positions(data, r.seat, r.hand - 1)}
    for d in worst[:3]:
        decision(d, views[d.index], words)
    for line in r.result:
        console.print(
            Text(f"({words('review.hindsight.mark')}) {worded(words, line)}", style="dim")
        )
    console.print()


def _row(d: Decision, words: Words) -> list[str | Text]:
    win = "" if d.win_played is None else f"{100 * d.win_played:.0f}%"
    best = "" if d.best == d.played else printable(step_words(words, d.best))
    return [
        str(d.turn),
        kind_word(words, d.kind),
        printable(step_words(words, d.played)),
        best,
        Text(grade_word(words, d.grade), style=GRADE_STYLES[d.grade]),
        signed(-d.loss) if d.loss else "0",
        win,
    ]


def decision(d: Decision, view: SeatView, words: Words) -> None:
    """One decision at length: the position as the seat saw it, the numbers, why."""
    from buraco.tui import words as board_words
    from buraco.tui.render import cards_text, meld_text

    board_words.use(words.tag, view.preset)
    head = words(
        "review.position",
        turn=d.turn,
        kind=kind_word(words, d.kind),
        played=step_words(words, d.played),
        best=step_words(words, d.best),
    )
    console.print(
        Text.assemble(
            Text(printable(head), style="bold"),
            "  ",
            Text(grade_word(words, d.grade), style=GRADE_STYLES[d.grade]),
        )
    )
    console.print(
        Text("  ")
        .append(Text(words("review.board", hand="").rstrip()))
        .append(" ")
        .append(cards_text(view.hand))
    )
    for side, melds in enumerate(view.melds):
        seats = ", ".join(view.names[s] for s in view.sides[side])
        row = Text("  ").append(printable(seats)).append(": ")
        if not melds:
            row.append(words("review.board.none"), style="dim")
        for i, m in enumerate(melds):
            row.append(" · " if i else "").append(meld_text(m))
        console.print(row)
    pile = Text("  ").append(words("review.board.pile", n=view.pile_size, cards="").rstrip())
    console.print(pile.append(" ").append(cards_text(view.pile[-8:])))
    sizes = ", ".join(f"{printable(view.names[s])} {n}" for s, n in enumerate(view.hand_sizes))
    console.print(Text("  " + words("review.board.sizes", sizes=sizes)))
    console.print(
        "  "
        + words(
            "review.expected",
            played=signed(d.expected_played),
            best=signed(d.expected_best),
            rounds=d.rounds,
        )
    )
    if d.win_played is not None and d.win_best is not None:
        console.print(
            "  "
            + words("review.win", played=round(100 * d.win_played), best=round(100 * d.win_best))
        )
    for line in d.why:
        console.print(Text("  · " + printable(worded(words, line))))
    for line in d.hindsight:
        mark = words("review.hindsight.mark")
        console.print(Text(f"  ({mark}) " + printable(worded(words, line)), style="dim"))


def accuracy(reviews: list[SeatReview], words: Words) -> None:
    """The accuracy of each player over the hands reviewed."""
    if not reviews:
        return
    table = Table(title=words("review.accuracy.title"))
    for key in ("player", "decisions", "accuracy", "mean-loss"):
        table.add_column(words(f"review.col.{key}"), justify="left" if key == "player" else "right")
    by_seat: dict[int, list[Decision]] = {}
    for r in reviews:
        by_seat.setdefault(r.seat, []).extend(r.decisions)
    names = reviews[0].names
    for seat, decisions in sorted(by_seat.items()):
        n = len(decisions)
        good = sum(1 for d in decisions if d.grade in ("best", "good"))
        mean = sum(d.loss for d in decisions) / n if n else 0.0
        table.add_row(
            printable(names[seat]),
            str(n),
            f"{100 * good / n:.0f}%" if n else "",
            f"{mean:.0f}",
        )
    console.print(table)
