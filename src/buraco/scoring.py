"""The end of a hand, each side's score, and the match from one hand to the next."""

from __future__ import annotations

from collections.abc import Sequence

from buraco.cards import (
    N_CODES,
    Card,
    build_deck,
)
from buraco.dealing import deck_codes
from buraco.errors import (
    IllegalAction,
    RulesError,
    shown,
)
from buraco.legality import Legality
from buraco.refusals import Refusal
from buraco.state import HandResult, Phase, Score


class Scoring(Legality):
    """The end of a hand, its scores, and the match from hand to hand."""

    def _end_hand(self, how: str) -> None:
        self.phase = Phase.OVER
        self.public_cache = None
        self.ended_by = how
        self._legal = ()
        scores = self.scores()
        for s, sc in enumerate(scores):
            self.totals[s] += sc.total
        self.results.append(
            HandResult(
                self.hand_number,
                self.dealer,
                how,
                self.went_out if self.went_out >= 0 else None,
                scores,
                list(self.totals),
            )
        )
        if self.match:
            r = self.rules
            done = (
                len(self.results) >= r.match_hands
                if r.match_hands
                else max(self.totals) >= r.target
            )
            if done:
                best = max(self.totals)
                leaders = [s for s in range(self.k) if self.totals[s] == best]
                if len(leaders) == 1:
                    self.winner = leaders[0]

    def next_hand(
        self, deck: Sequence[Card | str] | str | None = None, cut: int | None = None
    ) -> None:
        """Deal the next hand of the match (the current hand must be over).

        ``deck`` gives the new hand's deck order (top card first) and ``cut`` its
        cut, as ``stacked`` and ``cuts`` do up front: a server that draws each deck
        when it deals passes it here. Without them the hand comes from the stacked
        decks, else from the seed.
        """
        if self.phase != Phase.OVER:
            raise IllegalAction(Refusal("hand-not-over"))
        if self.is_over():
            raise IllegalAction(Refusal("match-over"))
        number = self.hand_number + 1
        if deck is not None:
            if number < len(self._stacked):
                raise RulesError(f"hand {number + 1} already has a stacked deck")
            codes = deck_codes(deck)
            spread = self.rules.cut_spread
            if cut is not None and (type(cut) is not int or not -spread <= cut <= spread):
                raise RulesError(
                    f"a cut is a whole number from {-spread} to {spread} (cut_spread), "
                    f"not {shown(cut)}"
                )
            expected = sorted(build_deck(self.rules.decks, self.rules.jokers_per_deck))
            if sorted(codes) != expected:
                raise RulesError(
                    f"the deck of hand {number + 1} is not the {self.rules.deck_size}-card "
                    "pack of these rules"
                )
            self._stacked.extend([[]] * (number - len(self._stacked)))
            self._stacked.append(codes)
            if cut is not None:
                self._cuts.extend([min(1, spread)] * (number - len(self._cuts)))
                self._cuts[number:] = [cut]
        elif cut is not None:
            raise RulesError("a cut is given with the deck it cuts")
        self._deal_next()

    def scores(self) -> list[Score]:
        """Each side's score for the current hand, as it stands (final once over)."""
        if self.score_cache is not None:
            return self.score_cache
        r = self.rules
        values = self.values
        any_taken = any(self.pot_taken)
        out = []
        for side in range(self.k):
            melds = bonuses = 0
            kinds = []
            for m in self.melds[side]:
                if m.staged:
                    continue
                melds += m.value
                b = m.bonus(r)
                if b is not None:
                    bonuses += b.points
                    kinds.append(b.kind)
            hand = 0
            for seat in r.seats_of(side):
                if self.unplayed[seat] and r.unplayed_pot == "penalty":
                    hand -= r.pot_penalty
                else:
                    h = self.hands[seat]
                    hand -= sum(values[c] * h[c] for c in range(N_CODES) if h[c])
            # melds staged toward a short opening still belong to the mover's hand
            hand -= sum(m.value for m in self.melds[side] if m.staged)
            pot = 0
            if not self.pot_taken[side]:
                if r.pot_penalty_if_none_taken or any_taken:
                    pot = -r.pot_penalty
            elif r.unused_pot_penalty and not self.pot_used[side]:
                pot = -r.pot_penalty  # taken but never used on the table (RULINGS 16)
            going_out = r.going_out_bonus if self.went_out == side else 0
            cut = self.cut_points[side]
            subtotal = melds + bonuses + hand + pot + going_out + cut
            rounding = (-subtotal) % 10 if r.round_scores else 0
            out.append(
                Score(side, melds, bonuses, hand, pot, going_out, cut, rounding, tuple(kinds))
            )
        self.score_cache = out
        return out

    def is_hand_over(self) -> bool:
        """Whether the current hand has ended."""
        return self.phase == Phase.OVER

    def is_match_over(self) -> bool:
        """Whether the match has a winner (always False in a single-hand game)."""
        return self.winner is not None

    def is_over(self) -> bool:
        """Whether nothing more can be played: the match is won (or stopped), or the hand ended."""
        if self.match:
            return self.winner is not None or self.stopped or self.resigned >= 0
        return self.phase == Phase.OVER
