"""Turn play: an action parsed, checked against the rules and applied."""

from __future__ import annotations

from buraco.actions import (
    ACTION_TYPES,
    DRAW,
    TAKE_PILE,
    TURN_UP,
    Action,
    Add,
    Discard,
    Draw,
    Meld,
    MoveWild,
    TakePile,
    TurnUp,
    check_action,
)
from buraco.cards import (
    CARD_NAMES,
    N_CODES,
)
from buraco.errors import (
    IllegalAction,
)
from buraco.explain import explain
from buraco.melds import TableMeld
from buraco.notes import note
from buraco.refusals import Refusal
from buraco.scoring import Scoring
from buraco.state import Event, Phase

_DISCARDS = tuple(Discard(c) for c in range(N_CODES))


class TurnPlay(Scoring):
    """Applying an action: parsing it, checking it, and what it changes."""

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply a legal action (or action text) of the seat to move.

        Raises :class:`~buraco.errors.IllegalAction` naming the broken rule, and
        leaves the game unchanged, for an illegal action or the wrong ``seat``.
        """
        act = self.parse(action) if isinstance(action, str) else action
        if type(act) not in ACTION_TYPES:
            check_action(act)  # raises, naming what an action is
        if seat is not None and self._check_seat(seat) != self.turn:
            if self.phase == Phase.OVER:
                raise IllegalAction(Refusal("hand-over"))
            raise IllegalAction(Refusal("wrong-player", {"turn": self.turn, "seat": seat}))
        legal = self._legal if self._legal is not None else self.legal_actions()
        try:
            found = legal[legal.index(act)]
        except ValueError:
            found = None
        if found is not act:
            # not the engine's own value: checked field by field as is_legal and explain
            # check it, so an equal one with odd field types (5.0 or False for a card) is
            # refused by all three alike; a well-formed one plays the engine's own value
            act = self._resolve(act)
            if act not in legal:
                raise IllegalAction(explain(self, act)) from None
            act = legal[legal.index(act)]
        self._legal = None
        self.score_cache = None
        if isinstance(act, Discard):
            self._do_discard(act.card)
        elif isinstance(act, Draw):
            self._do_draw()
        elif isinstance(act, Meld):
            self._do_meld(act)
        elif isinstance(act, Add):
            self._do_add(act)
        elif isinstance(act, TakePile):
            self._do_take_pile()
        elif isinstance(act, TurnUp):
            self._do_turn_up()
        else:
            self._do_move(act)

    push = apply
    """Alias of :meth:`apply` (as in python-chess)."""

    def _do_draw(self) -> None:
        seat = self.turn
        if self.unplayed[seat]:
            self.unplayed[seat] = False
        c = self.stock.pop()
        self.hands[seat][c] += 1
        self.sizes[seat] += 1
        self.pile_streak = 0
        self.turns_started[seat] += 1
        self.events.append(Event(seat, DRAW, c))
        if self.first_draw:
            self.first_draw = False
            self.first_card = c
        self.phase = Phase.PLAY
        self._after_stock_draw()

    def _after_stock_draw(self) -> None:
        r = self.rules
        if len(self.stock) > r.stock_reserve:
            return
        if r.pot_to_stock and self.pots:
            self.public_cache = None
            pot = self.pots.pop(0)  # the next morto in taking order
            self.stock = pot[::-1] + self.stock
            self.events.append(Event(self.turn, None, **note("pot-to-stock")))
            return
        if r.stock_end == "at-once":
            self._end_hand("stock")
        else:
            self.last_turn = True

    def _do_turn_up(self) -> None:
        seat = self.turn
        c = self.first_card
        self.first_card = -1
        self.hands[seat][c] -= 1
        self.sizes[seat] -= 1
        self.pile.append(c)
        nxt = self.stock.pop()
        self.hands[seat][nxt] += 1
        self.sizes[seat] += 1
        turned = note("turned-up", card=CARD_NAMES[c])
        self.events.append(Event(seat, TURN_UP, nxt, cards=(c,), **turned))
        self._after_stock_draw()

    def _do_take_pile(self) -> None:
        seat = self.turn
        if self.unplayed[seat]:
            self.unplayed[seat] = False
        h = self.hands[seat]
        pile = self.pile
        for c in pile:
            h[c] += 1
        self.sizes[seat] += len(pile)
        self.pile_streak += 1
        self.turns_started[seat] += 1
        top = pile[-1]
        self.events.append(Event(seat, TAKE_PILE, cards=tuple(pile)))
        self.pile = []
        self.taken_top = top
        self.taken_melded = False
        if self.rules.pile_top_meld:
            self.top_to_meld = top
            self.phase = Phase.TOP_MELD
            side = self.side_of[seat]
            self.must_open = not self.opened[side] and self.requirement[side] > 0
        else:
            self.phase = Phase.PLAY

    def _do_meld(self, act: Meld) -> None:
        seat = self.turn
        side = self.side_of[seat]
        h = self.hands[seat]
        for c in act.cards:
            h[c] -= 1
        self.sizes[seat] -= len(act.cards)
        m = self.tables.shape(act.cards)
        assert isinstance(m, TableMeld)
        self.melds[side].append(m)
        self.table_views = None
        self.events.append(Event(seat, act))
        self.first_card = -1
        if self.taken_top in act.cards:
            self.taken_melded = True
        if self.phase == Phase.TOP_MELD:
            self.phase = Phase.PLAY
            self.top_to_meld = -1
        if not self.opened[side]:
            m.staged = True
            self.staged_value += m.value
            self._check_opening(side)
        if self.opened[side]:
            self._card_stays(side)
        if self.sizes[seat] == 0:
            self._emptied(seat, by_discard=False)

    def _do_add(self, act: Add) -> None:
        seat = self.turn
        side = self.side_of[seat]
        self.hands[seat][act.card] -= 1
        self.sizes[seat] -= 1
        m = self.melds[side][act.meld]
        self.table_views = None
        value = self.values[act.card]
        m.apply_add(act.card, act.place, value)
        self.events.append(Event(seat, act))
        self.first_card = -1
        if act.card == self.taken_top:
            self.taken_melded = True
        if self.phase == Phase.TOP_MELD:
            self.phase = Phase.PLAY
            self.top_to_meld = -1
        if m.staged:
            self.staged_value += value
            self._check_opening(side)
        if self.opened[side]:
            self._card_stays(side)
        if self.sizes[seat] == 0:
            self._emptied(seat, by_discard=False)

    def _do_move(self, act: MoveWild) -> None:
        seat = self.turn
        side = self.side_of[seat]
        self.melds[side][act.meld].apply_move(act.to)
        self.table_views = None
        self.moved.add(act.meld)
        self.first_card = -1
        self.events.append(Event(seat, act))

    def _card_stays(self, side: int) -> None:
        """A card went to the table for good (not staged toward an opening)."""
        self.pile_streak = 0  # the hand moves on
        if self.pot_taken[side]:
            self.pot_used[side] = True

    def _check_opening(self, side: int) -> None:
        if self.staged_value >= self.requirement[side]:
            self.public_cache = None
            self.opened[side] = True
            self.must_open = False
            self.table_views = None
            for m in self.melds[side]:
                m.staged = False

    def _do_discard(self, c: int) -> None:
        seat = self.turn
        side = self.side_of[seat]
        h = self.hands[seat]
        h[c] -= 1
        self.sizes[seat] -= 1
        self.pile.append(c)
        self.first_card = -1
        self.events.append(Event(seat, _DISCARDS[c]))
        if not self.opened[side] and any(m.staged for m in self.melds[side]):
            self._return_short_opening(seat, side)
        if self.sizes[seat] == 0:
            self._emptied(seat, by_discard=True)
            if self.phase == Phase.OVER:
                return
        self._end_turn()

    def _return_short_opening(self, seat: int, side: int) -> None:
        r = self.rules
        h = self.hands[seat]
        keep = []
        back = 0
        for m in self.melds[side]:
            if m.staged:
                for c in m.cards():
                    h[c] += 1
                    back += 1
            else:
                keep.append(m)
        self.melds[side] = keep
        self.table_views = None
        self.sizes[seat] += back
        self.public_cache = None
        short = {"value": self.staged_value, "need": self.requirement[side]}
        self.requirement[side] += r.failed_opening_penalty
        if r.failed_opening_penalty:
            said = note("opening-short-raised", now=self.requirement[side], **short)
        else:
            said = note("opening-short", **short)
        self.staged_value = 0
        self.events.append(Event(seat, None, **said))

    def _emptied(self, seat: int, by_discard: bool) -> None:
        side = self.side_of[seat]
        if not self.pot_taken[side] and self.pots:
            self.public_cache = None
            pot = self.pots.pop(0)
            h = self.hands[seat]
            for c in pot:
                h[c] += 1
            self.sizes[seat] = len(pot)
            self.pot_taken[side] = True
            if by_discard:
                self.unplayed[seat] = True
                if self.rules.hidden_indirect_pot:
                    self.hidden[seat] = True
            how = "pot-taken.discard" if by_discard else "pot-taken.meld"
            self.events.append(Event(seat, None, **note(how)))
            return
        self.went_out = side
        self.events.append(Event(seat, None, **note("went-out")))
        self._end_hand("going-out")

    def _end_turn(self) -> None:
        seat = self.turn
        for t in self.teammates[seat]:
            if self.hidden[t]:
                self.hidden[t] = False
        self.moved.clear()
        self.taken_top = -1
        self.taken_melded = False
        self.top_to_meld = -1
        self.must_open = False
        self.staged_value = 0
        if self.last_turn:
            self._end_hand("stock")
            return
        nxt = (seat + 1) % self.n
        self.turn = nxt
        self.phase = Phase.DRAW
        if self.hidden[nxt] and not self.teammates[nxt]:
            self.hidden[nxt] = False
        limit = self.rules.pile_streak_limit
        if limit and self.pile_streak >= limit and self.stock:
            self.events.append(Event(nxt, None, **note("pile-streak", streak=self.pile_streak)))
        if not self.legal_actions():
            self._end_hand("blocked")
