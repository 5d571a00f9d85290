"""The heuristic's weights, tuned by duplicate deals (its policy: :mod:`buraco.bots.heuristic`)."""

from __future__ import annotations

# ----- weights (tuned by duplicate deals against the greedy bot) -------------------------

_KEEP = (0.0, 14.0, 30.0, 90.0)
"""Keep value of a card by class."""
_KEEP_SPARE = (0.0, 40.0, 60.0, 90.0)
"""Keep value by class when a wild card is to spare (a wild makes a pair a meld)."""
_KEEP_FIT = 120.0
"""Keep value of a card that extends one of the side's melds."""
_KEEP_WILD = 400.0
_POTENTIAL = (0.0, 2.0, 4.0, 10.0)
"""Potential of a card by class (a meld-class card also counts its points)."""
_POTENTIAL_WILD = 22.0
_DRAW_VALUE = -10.0
_DRAW_VALUE_ANY = 4.0
_DRAW_SHORT = 20.0
_SHORT_TURNS = 12.0
"""What a card from the stock is worth, for comparison with the pile: the first when
the hand has long to go, up to the sum when it is about to end (more cards in hand
pay off only with time to meld them)."""
_DANGER_FIT = 45.0
"""Danger of a card that extends an opponent's meld (per weight unit)."""
_DANGER_KNOWN = 18.0
"""Danger per card the next player is known to hold next to the discard."""
_DANGER_PILE = 5.0
"""Danger per card of an open pile that the discard would join."""
_SAFE_DISCARDED = 8.0
_TEMPO_RACING = 2.0
"""What an extra card in hand costs while the side races for its morto."""
_TEMPO = 1.0
"""What an extra card in hand costs once the morto is taken."""
_RISK_K = 2.0
"""A junk card costs this share of its points divided by the turns left (see _horizon)."""
_FUTURE = 3.0
"""What a junk card may yet become, at a long horizon."""
_NEAR_TEMPO = 1.0
"""Share of the tempo cost charged to a card that is near a meld but not in one."""
_NO_POT_TURNS = 8.0
"""Turns an opponent without its morto is expected to need to go out (doubled when
going out needs a clean canastra), beyond a third of its hand."""
_KEPT_TOP_COST = 16.0
"""Taking a pile whose top card may not be discarded at once (``keep_taken_top``) and
cannot be melded at once."""
_WILD_COST = 15.0
"""What spending a wild card on a meld that does not need it costs."""
_TOP_WILD = 15.0
_DENY = 1.0
"""Weight of what taking the pile keeps from the next player (see ``_denial``)."""
_SWAP_RATE = 0.85
"""Take a one-card pile only to swap its card when the next player took at least this share
of the piles they could."""
_DENY_MANY = 0.0
"""The same weight with three sides (two opponents racing to go out while this hand grows)."""
_DENY_CARD = 40.0
"""What any card of the pile is worth to the next player at a long horizon."""
_DENY_HALF = 1.0
"""Turns left at which a card is worth half of that."""
_DENY_FIT = 15.0
"""More for a card that extends the next player's melds (per weight unit)."""
_DENY_WILD = 20.0
"""More for a wild card."""
_SWAP_COST = 10.0
"""What a take that only swaps a card for one worth as much costs beyond a stock card."""
_OUT_MARGIN = 0.0
"""Go out when the hand would end at most this much behind."""
"""Danger removed for a card the next player discarded this hand."""
