"""Why an action is illegal: the first broken rule, as a :class:`~buraco.refusals.Refusal`.

Legality itself is decided by :meth:`buraco.game.Game.legal_actions` (an action
is legal exactly when it is listed); this module only finds the reason for one
that is not, so that the refusal names the rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from buraco.actions import Action, Add, Discard, Draw, Meld, MoveWild, Place, TakePile, TurnUp
from buraco.cards import CARD_NAMES, N_CODES, counts_of, is_wild_capable
from buraco.melds import TableMeld
from buraco.refusals import Param, Refusal
from buraco.state import Phase

if TYPE_CHECKING:
    from buraco.legality import Legality


def explain(g: Legality, action: Action) -> Refusal:
    """Why an action that is not legal now is refused."""
    r = g.rules
    if g.phase == Phase.OVER:
        return Refusal("hand-over")
    seat = g.turn
    side = g.side_of[seat]
    h = g.hands[seat]
    phase = g.phase
    top: dict[str, Param] = {"top": CARD_NAMES[g.top_to_meld] if g.top_to_meld >= 0 else ""}

    if isinstance(action, Draw | TakePile):
        if phase == Phase.PLAY:
            return Refusal("phase.drawn")
        if phase == Phase.TOP_MELD:
            return Refusal("pile-top.meld-now", top)
        if isinstance(action, Draw):
            return Refusal("stock-empty")
        if not g.pile:
            return Refusal("pile-empty")
        if g.first_draw:
            return Refusal("first-turn.draw-first-card")
        if r.pile_streak_limit and g.pile_streak >= r.pile_streak_limit:
            return Refusal("pile-streak", {"streak": g.pile_streak})
        code = "pile-top.wild" if is_wild_capable(g.pile[-1]) else "pile-top.unmeldable"
        need = g.requirement_left(side)
        if need:
            return Refusal(f"{code}-initial", {"top": CARD_NAMES[g.pile[-1]], "need": need})
        return Refusal(code, {"top": CARD_NAMES[g.pile[-1]]})

    if isinstance(action, TurnUp):
        return Refusal("first-turn.turn-up")

    if phase == Phase.DRAW:
        return Refusal("phase.draw-first")

    forced = g.must_open and phase == Phase.PLAY
    need = g.requirement[side] - g.staged_value
    before_discard = Refusal("initial-meld.before-discard", {"need": need})
    out_of_reach = Refusal("initial-meld.out-of-reach", {"need": need})

    if isinstance(action, Discard):
        c = action.card
        if not h[c]:
            return Refusal("not-held", {"card": CARD_NAMES[c]})
        if phase == Phase.TOP_MELD:
            return Refusal("pile-top.first", top)
        if forced:
            return before_discard
        if c == g._kept_card():
            return Refusal("keep-taken-top", {"card": CARD_NAMES[c]})
        if g.sizes[seat] == 1:
            return _empty_reason(g, side, True, c, g._has_canastra(side))
        return Refusal("illegal.discard")

    if isinstance(action, MoveWild):
        if not r.wild_moves:
            return Refusal("wild-moves.off", {"preset": r.preset})
        if phase == Phase.TOP_MELD:
            return Refusal("pile-top.first", top)
        number = _meld_number_problem(g, side, action.meld)
        if number is not None:
            return number
        if forced:
            return before_discard
        if action.meld in g.moved:
            return Refusal("wild-moves.once")
        m = g.melds[side][action.meld]
        if not m.run or m.wpos < 0:
            return Refusal("wild-moves.no-wild", {"meld": action.meld + 1})
        return Refusal("wild-moves.end", {"meld": action.meld + 1, "end": action.to.word})

    if isinstance(action, Meld):
        wanted = counts_of(action.cards)
        missing = [c for c in range(N_CODES) if wanted[c] > h[c]]
        if missing:
            return Refusal("not-held.meld", {"cards": [CARD_NAMES[c] for c in missing]})
        shape = g.tables.shape(action.cards)
        if isinstance(shape, Refusal):
            return shape
        if r.one_set_per_rank and not shape.run:
            for i, m in enumerate(g.melds[side]):
                if not m.run and m.rank == shape.rank:
                    return Refusal("one-set-per-rank", {"meld": i + 1})
        if forced:
            return out_of_reach
        if phase == Phase.TOP_MELD:
            if g.top_to_meld not in action.cards:
                return Refusal("pile-top.must-use", top)
            want = g.requirement_left(side)
            if want:
                return Refusal("initial-meld.top-meld", {"need": want})
        return _leave_reason(g, side, len(action.cards), shape, -1, action.cards)

    if isinstance(action, Add):
        number = _meld_number_problem(g, side, action.meld)
        if number is not None:
            return number
        c = action.card
        if not h[c]:
            return Refusal("not-held", {"card": CARD_NAMES[c]})
        m = g.melds[side][action.meld]
        if phase == Phase.TOP_MELD:
            if c != g.top_to_meld:
                return Refusal("pile-top.took-first", top)
            if is_wild_capable(c):
                return Refusal("pile-top.wild-add")
        options = m.add_options(r)
        places = [p for card, p in options if card == c]
        where: dict[str, Param] = {
            "card": CARD_NAMES[c],
            "meld": action.meld + 1,
            "meld_cards": [CARD_NAMES[x] for x in m.cards()],
        }
        if not places:
            if (
                is_wild_capable(c)
                and m.wild >= 0
                and not (m.run and c == m.suit * 13 + 1 and m.lo == 2)
            ):
                return Refusal("one-wild", {k: v for k, v in where.items() if k != "card"})
            if m.run and m.wpos >= 0 and c == _natural_at(m, m.wpos):
                return Refusal("wild-place", where)
            return Refusal("add-fit", where)
        if action.place not in places:
            if action.place == Place.NONE and not any(
                Add(action.meld, c, p) in g.legal_actions() for p in places
            ):
                # no placement is legal: the reason is the same for each
                return explain(g, Add(action.meld, c, places[0]))
            choices: list[str] = [str(Add(action.meld, c, p)) for p in places]
            if action.place == Place.NONE:
                return Refusal("placement.say", {"card": CARD_NAMES[c], "choices": choices})
            return Refusal(
                "placement.wrong", {**where, "place": action.place.word, "choices": choices}
            )
        if forced:
            return out_of_reach
        copy = m.copy()
        copy.apply_add(c, action.place, g.values[c])
        return _leave_reason(g, side, 1, copy, action.meld, (c,))

    return Refusal("illegal")


def _natural_at(m: TableMeld, pos: int) -> int:
    from buraco.melds import card_at

    return card_at(m.suit, pos)


def _meld_number_problem(g: Legality, side: int, index: int) -> Refusal | None:
    count = len(g.melds[side])
    if 0 <= index < count:
        return None
    if count == 0:
        return Refusal("meld-number.none")
    return Refusal("meld-number.range", {"count": count, "meld": index + 1})


def _leave_reason(
    g: Legality, side: int, used_count: int, result: TableMeld, skip: int, used: tuple[int, ...]
) -> Refusal:
    seat = g.turn
    left = g.sizes[seat] - used_count
    canastra = g._has_canastra(side, skip=skip) or g._qualifies(result)
    short = not g.opened[side] and (
        g.staged_value + sum(g.values[c] for c in used) < g.requirement[side]
    )
    if left == 0:
        if short:
            return Refusal("never-stranded.initial-meld", {"need": g.requirement[side]})
        return _empty_reason(g, side, False, -1, canastra)
    if left == 1:
        h = list(g.hands[seat])
        for c in used:
            h[c] -= 1
        last = next(c for c in range(N_CODES) if h[c] > 0)
        if last == g._kept_card() and last not in used:
            return Refusal("never-stranded.kept-last", {"card": CARD_NAMES[last]})
        why = _empty_reason(g, side, True, last, canastra)
        return Refusal(_LAST_CARD[why.code], why.params)
    return Refusal("never-stranded")


_LAST_CARD = {
    "never-stranded": "never-stranded.last-card",
    "never-stranded.no-morto-left": "never-stranded.last-card-no-morto-left",
    "never-stranded.no-canastra": "never-stranded.last-card-no-canastra",
    "never-stranded.no-clean-canastra": "never-stranded.last-card-no-clean-canastra",
    "never-stranded.first-turn": "never-stranded.last-card-first-turn",
    "never-stranded.wild-discard": "never-stranded.last-card-wild",
}
"""Why a last card could not be discarded: the reason a discard could not empty the hand."""


def _empty_reason(g: Legality, side: int, by_discard: bool, card: int, canastra: bool) -> Refusal:
    r = g.rules
    if not g.pot_taken[side] and g.pots:
        return Refusal("never-stranded")
    if not g.pot_taken[side]:
        return Refusal("never-stranded.no-morto-left")
    if not canastra:
        if r.go_out_canastra == "clean":
            return Refusal("never-stranded.no-clean-canastra")
        return Refusal("never-stranded.no-canastra")
    if not r.go_out_first_turn and g.turns_started[g.turn] <= 1:
        return Refusal("never-stranded.first-turn")
    if not by_discard:
        return Refusal("never-stranded.meld-last-card")
    if not r.go_out_wild_discard and is_wild_capable(card):
        return Refusal("never-stranded.wild-discard", {"card": CARD_NAMES[card]})
    return Refusal("never-stranded")
