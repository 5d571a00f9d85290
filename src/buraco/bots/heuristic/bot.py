"""The heuristic bot's decisions: drawing or taking the pile, melding, going out, discarding."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from buraco.actions import (
    DRAW,
    TAKE_PILE,
    TURN_UP,
    Action,
    Add,
    Discard,
    Meld,
)
from buraco.bots.base import Bot, play_sections
from buraco.bots.heuristic.danger import _Danger
from buraco.bots.heuristic.memory import _Memory
from buraco.bots.heuristic.planning import (
    _best_clean_meld,
    _best_natural_add,
    _best_wild_play,
    _cards_of,
    _cleaning_move,
    _opening_plan,
    _top_needs_wild,
    _top_score,
)
from buraco.bots.heuristic.reading import (
    _ADJ,
    _CODES,
    _JUNK,
    _MELD,
    _WILD,
    _classes,
    _extra_class,
    _meldable_points,
    _potential,
    _Rules,
    _SideTable,
)
from buraco.bots.heuristic.turn import _ready_to_go_out, _side_of, _stock_left, _Turn
from buraco.bots.heuristic.weights import (
    _DENY,
    _DENY_CARD,
    _DENY_FIT,
    _DENY_HALF,
    _DENY_MANY,
    _DENY_WILD,
    _DRAW_SHORT,
    _DRAW_VALUE,
    _DRAW_VALUE_ANY,
    _KEEP,
    _KEEP_FIT,
    _KEEP_SPARE,
    _KEEP_WILD,
    _KEPT_TOP_COST,
    _OUT_MARGIN,
    _SHORT_TURNS,
    _SWAP_COST,
    _SWAP_RATE,
    _WILD_COST,
)
from buraco.cards import Card
from buraco.views import SeatView


class HeuristicBot(Bot):
    """A fast rule-based player (see the module docstring for its strategy)."""

    name = "heuristic"
    wants_full_view = True

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._options: Mapping[str, Any] | None = None
        self._rules: _Rules | None = None
        self._melds_key: object = None
        self._tables: list[_SideTable] = []
        self._memories: dict[int, _Memory] = {}
        self._plans: dict[int, list[Meld]] = {}
        """The rest of each seat's opening plan this turn."""

    def new_hand(self) -> None:
        """Forget the previous hand."""
        self._memories.clear()
        self._plans.clear()

    # ----- entry point ---------------------------------------------------------------
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The heuristic choice (see the module docstring)."""
        if len(legal) == 1:
            return legal[0]
        r = self._rules_for(view)
        mem = self._memory_for(view)
        tables = self._tables_for(view, r)
        t = _Turn(view, r, tables, mem)
        phase = view.phase
        if phase == "draw":
            if mem is not None:
                mem.drawn = view.counts
            return self._draw(t, legal)
        if phase == "top-meld":
            return self._top_meld(t, legal)
        return self._play(t, legal)

    def _rules_for(self, view: SeatView) -> _Rules:
        if view.options is not self._options or self._rules is None:
            self._options = view.options
            self._rules = _Rules(view.options, view.options_values)
            self._melds_key = None
        return self._rules

    def _memory_for(self, view: SeatView) -> _Memory | None:
        if view.detail is None and not view.events:
            return None
        mem = self._memories.get(view.seat)
        if mem is None:
            mem = self._memories[view.seat] = _Memory(len(view.hand_sizes))
        mem.update(view)
        return mem

    def _tables_for(self, view: SeatView, r: _Rules) -> list[_SideTable]:
        melds = view.melds
        if melds is not self._melds_key:
            self._melds_key = melds
            tables = self._tables
            if len(tables) != len(melds):
                self._tables = [_SideTable(side, r) for side in melds]
            else:
                for i, side in enumerate(melds):
                    if not tables[i].same(side):
                        tables[i] = _SideTable(side, r)
        return self._tables

    # ----- drawing -------------------------------------------------------------------
    def _draw(self, t: _Turn, legal: Sequence[Action]) -> Action:
        if TAKE_PILE not in legal:
            return legal[0]
        if DRAW not in legal:
            return TAKE_PILE
        turns = _stock_left(t.view, t.r) / t.r.players
        base = _DRAW_VALUE if t.r.clean_out else _DRAW_VALUE_ANY
        threshold = base + _DRAW_SHORT * max(0.0, 1.0 - turns / _SHORT_TURNS)
        denial = self._denial(t)
        if self._pointless_swap(t):
            # a swap only keeps a card from a next player who takes nearly every lone card
            swap = self._take_rate(t) >= _SWAP_RATE and denial > threshold + _SWAP_COST
            return TAKE_PILE if swap else DRAW
        gain = self._pile_gain(t) + denial
        return TAKE_PILE if gain > threshold else DRAW

    def _take_rate(self, t: _Turn) -> float:
        """How often the next player took the pile when they could, this hand.

        With one imagined take and one imagined draw before the first turn, so that a
        few turns do not make a habit.
        """
        mem = t.mem
        if mem is None:
            return 0.5
        nxt = (t.view.seat + 1) % t.r.players
        return (mem.takes[nxt] + 1.0) / (mem.chances[nxt] + 2.0)

    def _denial(self, t: _Turn) -> float:
        """What taking the pile keeps from the next player, who would take it otherwise.

        Left, the pile goes with this seat's discard to the next player, an opponent;
        taken, only the discard does. Each card is worth something to any hand while
        the hand has long to go, more when it extends the opponents' melds; weighed by
        how often the next player took the pile when they could this hand.
        """
        view, r = t.view, t.r
        if r.top_meld or not view.pile:
            return 0.0
        nxt = (view.seat + 1) % r.players
        side = _side_of(view, nxt)
        if side == t.side:
            return 0.0
        rate = self._take_rate(t)
        worth = _DENY_CARD * t.horizon / (t.horizon + _DENY_HALF)
        fit = t.tables[side].fit
        total = (view.pile_size - len(view.pile)) * worth
        for c in view.pile:
            total += worth + (_DENY_WILD if _WILD[c] else _DENY_FIT * fit.get(c, 0.0))
        return (_DENY if r.sides == 2 else _DENY_MANY) * rate * total

    def _pointless_swap(self, t: _Turn) -> bool:
        """Whether taking a one-card pile would only swap its card for one worth as much.

        Under ``keep_taken_top`` a lone top card that cannot be melded at once stays in
        hand while another card is discarded. When the card that would go is worth no
        less to the bot than the one taken (another wild for a wild, a copy of it), the
        take makes no progress, and a run of such takes passes the same cards round the
        table; drawing from the stock brings a new card instead.
        """
        view, r = t.view, t.r
        if not r.keep_top or view.pile_size != 1 or not view.pile:
            return False
        top = view.pile[-1]
        with_top = list(t.counts)
        with_top[top] += 1
        if (
            not _WILD[top]
            and _classes(with_top, r, t.own).get(top, _JUNK) >= _MELD
            and (t.size >= 2 or _ready_to_go_out(view, r))
        ):
            return False  # it can be melded (with one card left over to discard)
        after = _Turn(view, r, t.tables, t.mem)  # the same decision, one card more
        after.counts = tuple(with_top)
        after.size = t.size + 1
        after.wilds = t.wilds + _WILD[top]
        held = [c for c in _CODES if with_top[c]]
        ranked = self._discard_scores(after, [Discard(c) for c in held])
        scores = dict(zip(held, ranked, strict=True))
        others = [scores[c] for c in held if c != top or t.counts[top]]
        return bool(others) and min(others) >= scores[top]

    def _pile_gain(self, t: _Turn) -> float:
        """What taking the pile is worth beyond the hand as it is."""
        view, r = t.view, t.r
        pile: Sequence[Card] = view.pile
        if not view.pile_open:
            mem = t.mem
            if mem is not None and len(mem.pile) == view.pile_size and mem.pile[-1:] == [*pile]:
                pile = mem.pile
        with_pile = list(t.counts)
        for c in pile:
            with_pile[c] += 1
        unknown = view.pile_size - len(pile)
        before = _potential(t.counts, r, t.own, t.risk, t.tempo)
        after = _potential(with_pile, r, t.own, t.risk, t.tempo)
        gain = after - before - unknown * (t.risk * r.average + t.tempo - 1.0)
        need = view.requirement[t.side]
        if need and not r.top_meld and _meldable_points(with_pile, r, t.own) < need:
            gain -= 10.0 + len(pile) * 3.0
        if r.keep_top and view.pile:
            top = view.pile[-1]
            if not _WILD[top] and _classes(with_pile, r, t.own).get(top, _JUNK) < _MELD:
                gain -= _KEPT_TOP_COST  # the top card stays in hand this turn
        if r.top_meld:
            gain += 10.0  # the top card is melded at once
            if _top_needs_wild(view.pile[-1], with_pile, r, t.own):
                gain -= _WILD_COST
        return gain

    # ----- a pile taken to meld its top card (fechado) --------------------------------
    def _top_meld(self, t: _Turn, legal: Sequence[Action]) -> Action:
        if t.view.requirement[t.side]:
            values = t.r.values
            return max(legal, key=lambda a: sum(values[c] for c in _cards_of(a)))
        melds = t.view.melds[t.side]
        return max(legal, key=lambda a: _top_score(a, melds))

    # ----- melding and discarding ----------------------------------------------------
    def _play(self, t: _Turn, legal: Sequence[Action]) -> Action:
        end = len(legal)
        first_meld, first_add, first_discard = play_sections(legal)
        if first_meld and self._turn_up(t):
            return TURN_UP
        melds = legal[first_meld:first_add]
        adds = legal[first_add:first_discard]
        if t.view.requirement[t.side]:
            act = self._opening(t, melds, adds)
        else:
            act = self._meld_step(t, melds, adds)
        if act is not None:
            return act
        if first_discard < end:
            return self._discard(t, legal[first_discard:])
        return legal[0]

    def _turn_up(self, t: _Turn) -> bool:
        """On the first turn: turn the first card up unless it fits the hand."""
        view = t.view
        card = view.detail.turn_up_card if view.detail is not None else None
        if card is None and t.mem is not None and t.mem.drawn is not None:
            drawn = [c for c in range(53) if view.counts[c] > t.mem.drawn[c]]
            card = drawn[0] if len(drawn) == 1 else None
        if card is None or _WILD[card]:
            return False
        classes = _classes(t.counts, t.r, t.own)
        return classes.get(card, _JUNK) < _ADJ and t.counts[card] == 1

    # ----- the initial meld ----------------------------------------------------------
    def _opening(self, t: _Turn, melds: Sequence[Action], adds: Sequence[Action]) -> Action | None:
        """A meld of a plan that reaches the initial-meld minimum this turn, if any.

        The plan is made when the first meld goes down and then followed, so the melds
        staged this turn always reach the minimum (an ``us`` attempt never fails).
        """
        view = t.view
        seat = view.seat
        staged = sum(m.points for m in view.melds[t.side] if m.staged)
        plan = self._plans.get(seat)
        if staged and plan and plan[0] in melds:
            return plan.pop(0)
        need = view.requirement[t.side] - staged
        values = t.r.values
        plan = _opening_plan([a for a in melds if type(a) is Meld], t.counts, values, need, t.size)
        if plan is not None:
            self._plans[seat] = plan[1:]
            return plan[0]
        if staged:
            # the plan went wrong (it should not happen): anything that brings points
            options = [a for a in (*melds, *adds) if type(a) in (Meld, Add)]
            if options:
                return max(options, key=lambda a: sum(values[c] for c in _cards_of(a)))
        return None

    # ----- melding once opened ---------------------------------------------------------
    def _meld_step(
        self, t: _Turn, melds: Sequence[Action], adds: Sequence[Action]
    ) -> Action | None:
        view, r = t.view, t.r
        side_melds = view.melds[t.side]
        racing = not view.pot_taken[t.side] and bool(view.pots)
        if racing:
            min_left = 0
        elif view.pot_taken[t.side]:
            min_left = 0 if self._want_out(t) else 2
        else:
            min_left = 2
        size = t.size
        move = _cleaning_move(adds, side_melds, r)
        if move is not None:
            return move
        add = _best_natural_add(adds, side_melds, size, min_left)
        if add is not None:
            return add
        meld = _best_clean_meld(melds, size, min_left)
        if meld is not None:
            return meld
        dump = t.imminent
        return _best_wild_play(t, melds, adds, side_melds, min_left, dump)

    def _want_out(self, t: _Turn) -> bool:
        """Whether to go out (when possible) rather than go on melding."""
        if t.threat >= 0.6 or t.end_near:
            return True
        view, r = t.view, t.r
        mine = float(view.table_points[t.side] + r.going_out_bonus)
        partners = [s for s in view.sides[t.side] if s != view.seat]
        mine -= sum(view.hand_sizes[s] for s in partners) * r.average
        others = []
        for o in range(len(view.melds)):
            if o == t.side:
                continue
            theirs = float(view.table_points[o])
            theirs -= sum(view.hand_sizes[s] for s in view.sides[o]) * r.average
            if not view.pot_taken[o]:
                theirs -= r.pot_penalty
            others.append(theirs)
        return mine + _OUT_MARGIN >= sum(others) / len(others)

    # ----- discarding ----------------------------------------------------------------
    def ranked_discards(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        """The legal discards, the one this bot would play first, then by its preference.

        For a search bot that tries the heuristic's best few discards. Empty when
        ``legal`` holds no discard.

        >>> from buraco.game import Game
        >>> from buraco.views import seat_view
        >>> game = Game("aberto", players=2, seed=3, match=False)
        >>> game.apply("draw")
        >>> bot = HeuristicBot(seed=1)
        >>> ranked = bot.ranked_discards(seat_view(game, 0), game.legal_actions())
        >>> len(ranked) == len({a for a in game.legal_actions() if a.kind == "discard"})
        True
        """
        discards: list[Action] = [a for a in legal if type(a) is Discard]
        if len(discards) < 2:
            return discards
        r = self._rules_for(view)
        t = _Turn(view, r, self._tables_for(view, r), self._memory_for(view))
        scores = self._discard_scores(t, discards)
        order = sorted(range(len(discards)), key=scores.__getitem__)
        return [discards[i] for i in order]

    def _discard(self, t: _Turn, discards: Sequence[Action]) -> Action:
        if len(discards) == 1:
            return discards[0]
        scores = self._discard_scores(t, discards)
        return discards[min(range(len(discards)), key=scores.__getitem__)]

    def _discard_scores(self, t: _Turn, discards: Sequence[Action]) -> list[float]:
        """Keep value plus danger of each discard: the lowest is played."""
        r = t.r
        counts = t.counts
        classes = _classes(counts, r, t.own)
        danger = _Danger(t)
        fit = t.own.fit
        values = r.values
        value_weight = 1.0 if t.end_near else 0.3 + 0.7 * t.threat
        keep = _KEEP_SPARE if t.wilds > 1 else _KEEP
        scores: list[float] = []
        for a in discards:
            c = a.card  # type: ignore[union-attr]
            if _WILD[c]:
                score = _KEEP_WILD + values[c]
            else:
                k = classes.get(c, _JUNK)
                if counts[c] > 1:
                    k = _extra_class(c, k, counts, r)
                w = fit.get(c)
                score = _KEEP_FIT * w if w else keep[k]
                score -= values[c] * value_weight
                score += danger.of(c)
            scores.append(score)
        return scores
