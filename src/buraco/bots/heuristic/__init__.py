"""The ``heuristic`` bot: a fast rule-based player for every preset and player count.

It plays only from its seat's view, remembering what the hand's history showed it
(cards the others took from the pile, what they discarded, and in a closed pile what
lies under the top card). Its policy, decision by decision:

Reading the hand
    Each natural card is classed by what it can become, counting the side's melds as
    if their cards were in hand: *meld* (part of three or more in a row, or of a set,
    or it extends one of the side's melds), *adjacent* (next to another card of its
    suit, or one of a pair when sets are allowed), *gap* (two places from one) or
    *junk*. Wild cards are counted apart. The classes give both what a card is worth
    keeping and a hand's *potential*, a number used to value drawing choices.

Drawing
    Take the pile when the potential of the hand with the pile, less the risk of the
    added junk (its points, weighed by how close the hand is to its end, and the
    extra cards to shed before the morto), plus what taking it keeps from the next
    player, beats a stock card. Left, an open pile goes with this seat's discard to the
    next player, an opponent, who takes it as often as they have taken piles this hand:
    every card of it is worth something to them while the hand has long to go (more
    when it extends their melds, most for a wild card). With two sides only: with
    three, two opponents race to go out while a big hand is a burden. A one-card pile
    whose card is worth no more to the bot than what it would discard instead is
    taken only from a next player who takes nearly every pile (the swap keeps them
    from taking two cards for one), else the stock card is the better draw. In a
    closed pile the bot knows the cards under the top from the discards it saw. On the
    first turn it keeps the first card only if it fits the hand.

Melding
    An unopened side with an initial-meld minimum melds only when a plan of disjoint
    melds reaches the minimum this turn (so an ``us`` attempt never fails). Otherwise:
    clean a run by sending a wild 2 home (``us``); add natural cards to the side's
    melds (the partner's too), canastras first; put down the longest clean melds. A
    wild card is spent only to complete a canastra that is not the side's hope of a
    clean one, to empty the hand (the morto race, going out), or when the hand may
    end soon (a wild left in hand costs its points).

Going out
    With the morto taken and the canastra the preset needs, the bot goes out when
    ending now leaves its side ahead, when an opponent could go out soon, or near the
    end of the stock; otherwise it keeps two cards and goes on melding.

Discarding
    The discard minimises *keep value + danger*. Keep value: the card's class, minus
    a little of its points (more when the hand may end soon). Danger: the card
    extends an opponent's meld (most when it completes a canastra), it is near cards
    the next player took from the pile, it joins cards already in an open pile that
    the next player takes whole, all scaled by the pile's size; a card the next player
    discarded is safer. Wild cards go last.
"""

from __future__ import annotations

from buraco.bots.heuristic.bot import HeuristicBot

__all__ = ["HeuristicBot"]
