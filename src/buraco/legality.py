"""The legal actions of the seat to move, and the checks behind them (001, 000, 004)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from buraco.actions import (
    DRAW,
    TAKE_PILE,
    TURN_UP,
    Action,
    Add,
    Discard,
    Meld,
    MoveWild,
    Place,
    check_action,
    parse_action,
)
from buraco.cards import (
    N_CODES,
    Card,
    is_wild_capable,
)
from buraco.dealing import Dealing
from buraco.errors import (
    BuracoError,
    NotationError,
    SeatError,
    shown,
)
from buraco.melds import TableMeld
from buraco.opening import can_reach
from buraco.refusals import Refusal
from buraco.state import Phase

_DISCARDS = tuple(Discard(c) for c in range(N_CODES))


class Legality(Dealing):
    """The legal actions of the seat to move, and the checks behind them."""

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to move, in a fixed order (empty when over).

        The order: turn-up, new melds (runs by suit, then sets), adds, wild moves,
        discards.
        """
        legal = self._legal
        if legal is None:
            phase = self.phase
            if phase == Phase.PLAY:
                found = self._play_actions()
            elif phase == Phase.DRAW:
                found = []
                if self.stock:
                    found.append(DRAW)
                if (
                    self.pile
                    and not self.first_draw
                    and (
                        self.pile_streak < self.rules.pile_streak_limit
                        or not self.rules.pile_streak_limit
                    )
                    and self._pile_takeable()
                ):
                    found.append(TAKE_PILE)
            elif phase == Phase.TOP_MELD:
                found = self._top_meld_actions(self.hands[self.turn], self.sizes[self.turn])
            else:
                found = []
            legal = self._legal = tuple(found)
        return legal

    def is_legal(self, action: Action | str) -> bool:
        """Whether an action (or action text) is legal now.

        False for anything that is not an action: text that does not parse, a value
        of the wrong type or with impossible fields.
        """
        try:
            act = self._resolve(action)
        except BuracoError:
            return False
        return act in self.legal_actions()

    def _new_melds(self, h: list[int]) -> list[Meld]:
        return self.tables.melds(h, self._set_exclusions(self.side_of[self.turn]))

    def _play_actions(self) -> list[Action]:
        seat = self.turn
        h = self.hands[seat]
        size = self.sizes[seat]
        side = self.side_of[seat]
        if self.must_open:
            return self._forced_opening_actions(h, size, side)
        out: list[Action] = [TURN_UP] if self.first_card >= 0 and self.stock else []
        # plain: no card taken from the pile that may not be discarded (keep_taken_top)
        plain = self.taken_top < 0 or self.taken_melded or not self.rules.keep_taken_top
        melds = self.tables.melds(
            h, self._set_exclusions(side) if self.rules.one_set_per_rank else 0
        )
        if size <= 15:
            # a meld that leaves fewer than two cards must pass the never-stranded checks
            ok = self._meld_ok
            out.extend(m for m in melds if size - len(m[0]) >= 2 or ok(m, h, size, side))
        else:
            out.extend(melds)  # no meld leaves fewer than two cards
        side_melds = self.melds[side]
        loose = size >= 3
        wild_held = h[52] or h[1] or h[14] or h[27] or h[40]
        for i, m in enumerate(side_melds):
            cands: tuple[list[tuple[int, Add]], list[tuple[int, Add]]] | None = m.cands
            if cands is None:
                cands = self._candidates(i, m)
            for c, a in cands[0]:
                if h[c] and (loose or self._add_ok(a, h, size, side)):
                    out.append(a)
            if wild_held:
                for c, a in cands[1]:
                    if h[c] and (loose or self._add_ok(a, h, size, side)):
                        out.append(a)
        if self.rules.wild_moves:
            for i, m in enumerate(side_melds):
                if i not in self.moved:
                    out.extend(MoveWild(i, p) for p in m.move_options(self.rules))
        discards = _DISCARDS
        if size > 1 and plain:
            out.extend(compress(discards, h))
        else:
            ok_discard = self._discard_ok
            out.extend(
                [discards[c] for c in range(N_CODES) if h[c] and ok_discard(c, h, size, side)]
            )
        return out

    def _forced_opening_actions(self, h: list[int], size: int, side: int) -> list[Action]:
        """After taking the pile owing an initial meld: plays that keep it within reach."""
        need = self.requirement[side] - self.staged_value
        values = self.values
        keep = self._reach_keep(side)
        exclude = self._set_exclusions(side)
        out: list[Action] = []
        for m in self._new_melds(h):
            if not self._meld_ok(m, h, size, side):
                continue
            rank = self.tables.set_rank(m.cards)
            more = exclude | (1 << rank if rank >= 0 and self.rules.one_set_per_rank else 0)
            if self._reach_after(h, m.cards, need - sum(values[c] for c in m.cards), keep, more):
                out.append(m)
        for i, tm in enumerate(self.melds[side]):
            for c, p in tm.add_options(self.rules):
                if h[c]:
                    a = Add(i, c, p)
                    if self._add_ok(a, h, size, side) and self._reach_after(
                        h, (c,), need - values[c], keep, exclude
                    ):
                        out.append(a)
        return out

    def _reach_after(
        self, h: list[int], used: Sequence[Card], need: int, keep: int, exclude: int
    ) -> bool:
        """Whether ``need`` points can still be melded once ``used`` has left the hand."""
        for c in used:
            h[c] -= 1
        try:
            return can_reach(self.tables, h, need, keep, exclude, self.rules.one_set_per_rank)
        finally:
            for c in used:
                h[c] += 1

    def _reach_keep(self, side: int) -> int:
        """Cards to keep in hand while completing a forced opening.

        One when discarding the last card would take a morto, else two (a lone last
        card might not be discardable).
        """
        r = self.rules
        # with pile_top_meld the taken top card is melded first, so it never stays kept
        if not self.pot_taken[side] and self.pots and (r.pile_top_meld or not r.keep_taken_top):
            return 1
        return 2

    def _set_exclusions(self, side: int) -> int:
        """Ranks (bit r) of which the side may not start another set."""
        exclude = 0
        if self.rules.one_set_per_rank:
            for m in self.melds[side]:
                if not m.run:
                    exclude |= 1 << m.rank
        return exclude

    def _kept_card(self) -> Card:
        """The card taken from the pile that may not be discarded now (``keep_taken_top``).

        Copies are interchangeable: once a copy of it has been melded this turn, another
        copy may go. -1 when no card is kept.
        """
        if self.rules.keep_taken_top and self.taken_top >= 0 and not self.taken_melded:
            return self.taken_top
        return -1

    def _candidates(
        self, index: int, m: TableMeld
    ) -> tuple[list[tuple[int, Add]], list[tuple[int, Add]]]:
        """A meld's possible adds: (card, action) for natural cards, then for wild cards."""
        pairs = [(c, Add(index, c, p)) for c, p in m.add_options(self.rules)]
        natural = [(c, a) for c, a in pairs if not is_wild_capable(c)]
        wild = [(c, a) for c, a in pairs if is_wild_capable(c)]
        m.cands = (natural, wild)
        return natural, wild

    def _top_meld_actions(self, h: list[int], size: int) -> list[Action]:
        """Melds and adds that use the pile's top card (``pile_top_meld``)."""
        top = self.top_to_meld
        seat = self.turn
        side = self.side_of[seat]
        need = 0 if self.opened[side] else self.requirement[side]
        values = self.values
        keep = self._reach_keep(side)
        exclude = self._set_exclusions(side)
        out: list[Action] = []
        for m in self._new_melds(h):
            if top in m.cards and self._meld_ok(m, h, size, side):
                if need:
                    # the rest of the initial meld must still be possible this turn
                    rank = self.tables.set_rank(m.cards)
                    more = exclude
                    if rank >= 0 and self.rules.one_set_per_rank:
                        more |= 1 << rank
                    rest = need - sum(values[c] for c in m.cards)
                    if not self._reach_after(h, m.cards, rest, keep, more):
                        continue
                out.append(m)
        if not is_wild_capable(top) and not need:
            for i, tm in enumerate(self.melds[side]):
                for c, p in tm.add_options(self.rules):
                    if c == top:
                        a = Add(i, c, p)
                        if self._add_ok(a, h, size, side):
                            out.append(a)
        return out

    def _pile_takeable(self) -> bool:
        if not self.rules.pile_top_meld:
            return True
        # the top card must be melded at once: look at the hand with the pile added
        seat = self.turn
        h = list(self.hands[seat])
        for c in self.pile:
            h[c] += 1
        saved = self.top_to_meld
        self.top_to_meld = self.pile[-1]
        try:
            return bool(self._top_meld_actions(h, self.sizes[seat] + len(self.pile)))
        finally:
            self.top_to_meld = saved

    # ----- never stranded (RULINGS 8) --------------------------------------------------
    def _can_empty(self, side: int, by_discard: bool, card: int, canastra: bool) -> bool:
        """Whether emptying the hand is allowed: it takes a morto or goes out legally."""
        if not self.pot_taken[side] and self.pots:
            return True
        r = self.rules
        if not self.pot_taken[side]:
            return False
        if not canastra:
            return False
        if not r.go_out_first_turn and self.turns_started[self.turn] <= 1:
            return False
        if not by_discard:
            return r.go_out_discard == "optional"
        return r.go_out_wild_discard or not is_wild_capable(card)

    def _has_canastra(self, side: int, skip: int = -1) -> bool:
        need_clean = self.rules.go_out_canastra == "clean"
        for i, m in enumerate(self.melds[side]):
            if i != skip and m.size >= 7 and (m.wild < 0 or not need_clean) and not m.staged:
                return True
        return False

    def _qualifies(self, m: TableMeld) -> bool:
        return m.size >= 7 and (m.wild < 0 or self.rules.go_out_canastra == "any")

    def _left_ok(
        self,
        h: list[int],
        size: int,
        side: int,
        used: dict[int, int],
        canastra: bool,
        staged_after: int,
    ) -> bool:
        """Whether a meld or add using ``used`` leaves a playable hand."""
        left = size - sum(used.values())
        kept = self._kept_card()
        if used.get(kept, 0):
            kept = -1  # melding a copy of the taken card accounts for it
        short = not self.opened[side] and staged_after < self.requirement[side]
        if left == 0:
            return not short and self._can_empty(side, False, -1, canastra)
        if left == 1:
            last = next(c for c in range(N_CODES) if h[c] - used.get(c, 0) > 0)
            if last == kept:
                return False  # the taken card would be left alone, and it may not be discarded
            if short:
                # a short opening comes back to the hand at the discard, but not after a take
                return not self.must_open
            return self._can_empty(side, True, last, canastra)
        return True

    def _meld_ok(self, m: Meld, h: list[int], size: int, side: int) -> bool:
        cards = m.cards
        if size - len(cards) >= 2:
            return True  # two cards left: one to discard, kept card or not (_left_ok)
        used: dict[int, int] = {}
        for c in cards:
            used[c] = used.get(c, 0) + 1
        shape = self.tables.shape(cards)
        assert isinstance(shape, TableMeld)
        canastra = self._has_canastra(side) or self._qualifies(shape)
        staged = self.staged_value + (shape.value if not self.opened[side] else 0)
        return self._left_ok(h, size, side, used, canastra, staged)

    def _add_ok(self, a: Add, h: list[int], size: int, side: int) -> bool:
        if size >= 3:
            return True  # two cards left (_left_ok)
        m = self.melds[side][a.meld].copy()
        m.apply_add(a.card, a.place, self.values[a.card])
        canastra = self._has_canastra(side, skip=a.meld) or self._qualifies(m)
        staged = self.staged_value + (self.values[a.card] if not self.opened[side] else 0)
        return self._left_ok(h, size, side, {a.card: 1}, canastra, staged)

    def _discard_ok(self, c: int, h: list[int], size: int, side: int) -> bool:
        if c == self._kept_card() and h[c] < 2:
            return False  # the card taken from the pile (another copy may go)
        if size > 1:
            return True
        if not self.opened[side] and self.staged_value < self.requirement[side]:
            return not self.must_open  # a short opening comes back to the hand
        return self._can_empty(side, True, c, self._has_canastra(side))

    def _check_seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise SeatError(f"a seat is a number from 0 to {self.n - 1}, not {shown(seat)}")
        return seat

    def _check_side(self, side: object) -> int:
        if type(side) is not int or not 0 <= side < self.k:
            raise SeatError(f"a side is a number from 0 to {self.k - 1}, not {shown(side)}")
        return side

    def parse(self, text: str | Action) -> Action:
        """Parse action notation in this game's context.

        Puts a set's cards in canonical order and fills in an omitted placement
        of an ``add`` when exactly one placement is legal. An action value is checked
        field by field (:func:`~buraco.actions.check_action`). Raises
        :class:`~buraco.errors.NotationError` for anything that is not an action.
        """
        action = parse_action(text) if isinstance(text, str) else check_action(text)
        if isinstance(action, Meld):
            shape = self.tables.shape(action.cards)
            if isinstance(shape, TableMeld) and not shape.run:
                return Meld(tuple(shape.cards()))
            return action
        if isinstance(action, Add) and action.place == Place.NONE:
            matches = [
                a
                for a in self.legal_actions()
                if isinstance(a, Add) and a.meld == action.meld and a.card == action.card
            ]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                choices = [str(a) for a in matches]
                why = Refusal("notation.ambiguous", {"given": f"'{action}'", "choices": choices})
                raise NotationError(why)
        return action

    def _resolve(self, action: object) -> Action:
        """Action text parsed in context, or an action value checked (a set's cards sorted).

        A value's omitted placement is not filled in: only text is read that freely.
        """
        if isinstance(action, str):
            return self.parse(action)
        act = check_action(action)
        if isinstance(act, Meld):
            return self.parse(act)
        return act

    def requirement_left(self, side: int) -> int:
        """The side's initial-meld minimum this hand, or 0 once it has opened.

        Melds staged this turn count toward it (see :attr:`staged_value`).
        """
        if self.opened[self._check_side(side)]:
            return 0
        return self.requirement[side]
