"""Why an action is illegal: the first broken rule, in words.

Legality itself is decided by :meth:`buraco.game.Game.legal_actions` (an action
is legal exactly when it is listed); this module only finds the reason for one
that is not, so that the message names the rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from buraco.actions import Action, Add, Discard, Draw, Meld, MoveWild, Place, TakePile, TurnUp
from buraco.cards import CARD_NAMES, N_CODES, counts_of, format_cards, is_wild_capable
from buraco.melds import TableMeld

if TYPE_CHECKING:
    from buraco.game import Game


def explain(g: Game, action: Action) -> tuple[str, str]:
    """(message, rule id) for an action that is not legal now."""
    from buraco.game import Phase

    r = g.rules
    if g.phase == Phase.OVER:
        return ("the hand is over", "hand-over")
    seat = g.turn
    side = g.side_of[seat]
    h = g.hands[seat]
    phase = g.phase
    top_text = CARD_NAMES[g.top_to_meld] if g.top_to_meld >= 0 else ""

    if isinstance(action, Draw | TakePile):
        if phase == Phase.PLAY:
            return ("you have drawn already this turn; now meld, add or discard", "phase")
        if phase == Phase.TOP_MELD:
            return (f"you took the pile: now meld its top card {top_text}", "pile-top")
        if isinstance(action, Draw):
            return ("the stock is empty", "stock-empty")
        if not g.pile:
            return ("the discard pile is empty: draw from the stock", "pile-empty")
        if g.first_draw:
            return ("the first turn of the hand starts by drawing the first card", "first-turn")
        if r.pile_streak_limit and g.pile_streak >= r.pile_streak_limit:
            return (
                f"the pile was taken {g.pile_streak} turns in a row with no card put on the "
                "table: draw from the stock (pile_streak_limit)",
                "pile-streak",
            )
        top = g.pile[-1]
        need = g.requirement_left(side)
        extra = (
            f" from which your side's initial meld of {need} points can be completed this turn"
            if need
            else ""
        )
        if is_wild_capable(top):
            return (
                f"the pile's top card {CARD_NAMES[top]} is wild: the pile may be taken only to "
                f"start a new meld with it{extra}, and your hand with the pile makes none",
                "pile-top",
            )
        return (
            f"the pile may be taken only to meld its top card {CARD_NAMES[top]} at once (in a "
            f"new meld{extra} or on one of your side's melds), and you can make no such play",
            "pile-top",
        )

    if isinstance(action, TurnUp):
        return (
            "turn-up is allowed only right after drawing the first card of the hand",
            "first-turn",
        )

    if phase == Phase.DRAW:
        return ("start your turn by drawing from the stock or taking the pile", "phase")

    forced = g.must_open and phase == Phase.PLAY
    need = g.requirement[side] - g.staged_value
    before_discard = (
        f"you took the pile owing your side's initial meld: meld {need} more points this "
        "turn before discarding",
        "initial-meld",
    )
    out_of_reach = (
        f"after this play your side's initial meld ({need} more points this turn) could no "
        "longer be made from your hand",
        "initial-meld",
    )

    if isinstance(action, Discard):
        c = action.card
        if not h[c]:
            return (f"you do not hold {CARD_NAMES[c]}", "not-held")
        if phase == Phase.TOP_MELD:
            return (f"meld the pile's top card {top_text} first", "pile-top")
        if forced:
            return before_discard
        if c == g._kept_card():
            return (
                f"{CARD_NAMES[c]} was taken from the top of the pile this turn and may not be "
                "discarded",
                "keep-taken-top",
            )
        if g.sizes[seat] == 1:
            return (_empty_reason(g, side, True, c, g._has_canastra(side)), "never-stranded")
        return ("not a legal discard now", "illegal")

    if isinstance(action, MoveWild):
        if not r.wild_moves:
            return (
                f"moving a wild within a meld is not allowed in {r.preset} (wild_moves)",
                "wild-moves",
            )
        if phase == Phase.TOP_MELD:
            return (f"meld the pile's top card {top_text} first", "pile-top")
        msg = _meld_number_problem(g, side, action.meld)
        if msg:
            return (msg, "meld-number")
        if forced:
            return before_discard
        if action.meld in g.moved:
            return ("a wild moves at most once a turn", "wild-moves")
        m = g.melds[side][action.meld]
        if not m.run or m.wpos < 0:
            return (f"meld {action.meld + 1} has no wild in a run to move", "wild-moves")
        return (
            f"the wild of meld {action.meld + 1} cannot move to the {action.to.word} end "
            "(only a wild at one end moves, to the other end, within A-A)",
            "wild-moves",
        )

    if isinstance(action, Meld):
        wanted = counts_of(action.cards)
        missing = [c for c in range(N_CODES) if wanted[c] > h[c]]
        if missing:
            return (f"you do not hold {format_cards(missing)} (for this meld)", "not-held")
        shape = g.tables.shape(action.cards)
        if isinstance(shape, str):
            return (f"not a valid meld: {shape}", "meld-shape")
        if r.one_set_per_rank and not shape.run:
            for i, m in enumerate(g.melds[side]):
                if not m.run and m.rank == shape.rank:
                    return (
                        f"your side already has a set of that rank (meld {i + 1}): one set "
                        "per rank; add to it instead",
                        "one-set-per-rank",
                    )
        if forced:
            return out_of_reach
        if phase == Phase.TOP_MELD:
            if g.top_to_meld not in action.cards:
                return (
                    f"you took the pile: this meld must use its top card {top_text}",
                    "pile-top",
                )
            want = g.requirement_left(side)
            if want:
                return (
                    f"with this meld your side's initial meld of {want} points could not be "
                    "completed from your hand this turn",
                    "initial-meld",
                )
        return (
            _leave_reason(g, side, len(action.cards), shape, -1, action.cards),
            "never-stranded",
        )

    if isinstance(action, Add):
        msg = _meld_number_problem(g, side, action.meld)
        if msg:
            return (msg, "meld-number")
        c = action.card
        if not h[c]:
            return (f"you do not hold {CARD_NAMES[c]}", "not-held")
        m = g.melds[side][action.meld]
        if phase == Phase.TOP_MELD:
            if c != g.top_to_meld:
                return (f"you took the pile: meld its top card {top_text} first", "pile-top")
            if is_wild_capable(c):
                return ("a wild top card of the pile may only start a new meld", "pile-top")
        options = m.add_options(r)
        places = [p for card, p in options if card == c]
        where = f"meld {action.meld + 1} ({m.cards_text()})"
        if not places:
            if (
                is_wild_capable(c)
                and m.wild >= 0
                and not (m.run and c == m.suit * 13 + 1 and m.lo == 2)
            ):
                return (f"{where} already holds a wild card: one wild per meld", "one-wild")
            if m.run and m.wpos >= 0 and c == _natural_at(m, m.wpos):
                return (
                    f"{CARD_NAMES[c]} would free the wild of {where}, but there is no end "
                    "for the wild to move to",
                    "wild-place",
                )
            return (f"{CARD_NAMES[c]} does not fit {where}", "add-fit")
        if action.place not in places:
            if action.place == Place.NONE and not any(
                Add(action.meld, c, p) in g.legal_actions() for p in places
            ):
                # no placement is legal: the reason is the same for each
                return explain(g, Add(action.meld, c, places[0]))
            words = " or ".join(f"'{Add(action.meld, c, p)}'" for p in places)
            if action.place == Place.NONE:
                return (f"say where {CARD_NAMES[c]} goes: {words}", "placement")
            return (
                f"{CARD_NAMES[c]} cannot go {action.place.word} on {where}; try {words}",
                "placement",
            )
        if forced:
            return out_of_reach
        copy = m.copy()
        copy.apply_add(c, action.place, g.values[c])
        return (_leave_reason(g, side, 1, copy, action.meld, (c,)), "never-stranded")

    return ("not a legal action now", "illegal")


def _natural_at(m: TableMeld, pos: int) -> int:
    from buraco.melds import card_at

    return card_at(m.suit, pos)


def _meld_number_problem(g: Game, side: int, index: int) -> str:
    count = len(g.melds[side])
    if 0 <= index < count:
        return ""
    if count == 0:
        return "your side has no melds yet"
    return f"your side has melds 1 to {count}, not {index + 1}"


def _leave_reason(
    g: Game, side: int, used_count: int, result: TableMeld, skip: int, used: tuple[int, ...]
) -> str:
    seat = g.turn
    left = g.sizes[seat] - used_count
    canastra = g._has_canastra(side, skip=skip) or g._qualifies(result)
    short = not g.opened[side] and (
        g.staged_value + sum(g.values[c] for c in used) < g.requirement[side]
    )
    if left == 0:
        if short:
            return (
                "you may not empty your hand before your side's initial meld reaches "
                f"{g.requirement[side]} points"
            )
        return _empty_reason(g, side, False, -1, canastra)
    if left == 1:
        h = list(g.hands[seat])
        for c in used:
            h[c] -= 1
        last = next(c for c in range(N_CODES) if h[c] > 0)
        if last == g._kept_card() and last not in used:
            return (
                f"this would leave only {CARD_NAMES[last]}, taken from the pile this turn, "
                "which may not be discarded"
            )
        return "this would leave a last card you could not discard: " + _empty_reason(
            g, side, True, last, canastra
        )
    return "not a legal play now"


def _empty_reason(g: Game, side: int, by_discard: bool, card: int, canastra: bool) -> str:
    r = g.rules
    if not g.pot_taken[side] and g.pots:
        return "not a legal play now"
    if not g.pot_taken[side]:
        return (
            "you may not empty your hand: no morto is left for your side to take, and "
            "going out needs a morto taken"
        )
    if not canastra:
        kind = "clean canastra" if r.go_out_canastra == "clean" else "canastra"
        return f"you may not empty your hand: going out needs a {kind} and your side has none"
    if not r.go_out_first_turn and g.turns_started[g.turn] <= 1:
        return "you may not go out in your first turn of the hand (go_out_first_turn is off)"
    if not by_discard:
        return "you may not go out by melding your last card: going out needs a final discard"
    if not r.go_out_wild_discard and is_wild_capable(card):
        return f"the final discard may not be a wild card ({CARD_NAMES[card]})"
    return "not a legal play now"
