"""The rules being played, in words, from the rule options themselves.

So the help screen always describes the options in force, overrides included.

>>> from buraco.rules import make_rules
>>> lines = rules_summary(make_rules("fechado", players=2))
>>> lines[0]
'Buraco Fechado (Brazil, closed pile) — preset fechado, 2 players (source: 001 §Buraco Fechado)'
>>> any("closed" in line and "top card" in line for line in lines)
True
"""

from __future__ import annotations

from buraco.rules import PRESETS, Rules

_RANK_WORDS = {"A": "A", "T": "10"}


def _ranks(text: str) -> str:
    if len(text) >= 12:
        missing = [r for r in "A23456789TJQK" if r not in text]
        return "any rank" + (f" but {', '.join(missing)}" if missing else "")
    return " ".join(_RANK_WORDS.get(r, r) for r in text)


def rules_summary(r: Rules) -> list[str]:
    """The rules of ``r`` in short sentences, one per line."""
    preset = PRESETS[r.preset]
    lines = [f"{preset.title} — preset {r.preset}, {r.players} players (source: {preset.source})"]
    if r.partnerships:
        size = r.players // r.sides
        lines.append(
            f"Sides: {r.sides} teams of {size}; partners share their melds and sit apart, "
            "so play alternates between the teams."
        )
    else:
        lines.append(f"Sides: everyone plays alone ({r.sides} sides).")
    jokers = f" and {r.decks * r.jokers_per_deck} jokers" if r.jokers_per_deck else ", no jokers"
    joker_points = f"joker {r.joker_value}, " if r.jokers_per_deck else ""
    lines.append(
        f"Pack: {r.decks} decks{jokers}. Wild cards: "
        + ("the jokers and the 2s" if r.jokers_per_deck else "the 2s")
        + f". Points: {joker_points}2 {r.two_value}, ace {r.ace_value}, "
        f"8 to K {r.high_value}, 3 to 7 {r.low_value}."
    )
    pots = ", ".join(str(p) for p in r.pot_sizes)
    lines.append(
        f"Deal: {r.hand_size} cards each; mortos of {pots} cards"
        + ("; one card turned up to start the pile." if r.upcard else ".")
    )
    turn = "Turn: draw from the stock or take the whole discard pile, then meld, add, discard."
    if r.pile_top_meld:
        turn += " The pile may be taken only to meld its top card at once."
    elif r.keep_taken_top:
        turn += " The top card taken may not be discarded that turn."
    if r.first_card_choice:
        turn += " The first player may turn the first card drawn up and draw again."
    lines.append(turn)
    lines.append(
        "Pile: open, every card shown." if r.pile_open else "Pile: closed, only its top card shown."
    )
    aces = {"both": "low or high", "low": "low only", "high": "high only"}[r.aces]
    melds = f"Melds: runs of 3+ cards of one suit (aces {aces}); at most one wild per meld"
    if r.set_ranks:
        melds += f"; sets of 3+ cards of {_ranks(r.set_ranks)}"
        if r.one_set_per_rank:
            melds += " (one set per rank per side)"
    else:
        melds += "; no sets"
    lines.append(melds + ".")
    if r.wild_moves:
        lines.append("A wild at one end of a run may move to the other end (key w, `move N`).")
    bonus = (
        f"Canastra: 7+ cards; clean (no wild) +{r.clean_bonus}, dirty +{r.dirty_bonus}"
        + (f", semi-clean +{r.semi_clean_bonus}" if r.semi_clean_bonus else "")
        + (f", clean 13-card run +{r.clean_13_bonus}" if r.clean_13_bonus else "")
        + (f", clean A-to-A run +{r.clean_14_bonus}" if r.clean_14_bonus else "")
        + (f", canastra of 2s +{r.twos_canastra_bonus}" if r.twos_canastra_bonus else "")
        + "."
    )
    lines.append(bonus)
    if r.opening_minimum or r.vulnerable_minimum:
        opening = "Opening: a side's first melds of a hand must reach "
        parts = []
        if r.opening_minimum:
            parts.append(f"{r.opening_minimum} points")
        if r.vulnerable_minimum:
            parts.append(
                f"{r.vulnerable_minimum} once vulnerable (match total "
                f"{r.vulnerable_threshold} or more)"
            )
        opening += ", or ".join(parts)
        if r.failed_opening_penalty:
            opening += f"; a failed try adds {r.failed_opening_penalty}"
        lines.append(opening + ".")
    canastra = "a clean canastra" if r.go_out_canastra == "clean" else "a canastra"
    out = f"Going out: your side must have taken a morto and hold {canastra}"
    out += "; a final discard is needed" if r.go_out_discard == "required" else ""
    out += "" if r.go_out_wild_discard else " (not a wild)"
    out += "" if r.go_out_first_turn else "; not in your first turn"
    lines.append(out + f"; worth +{r.going_out_bonus}.")
    morto = (
        "Morto: taken when a hand empties (by melding, or by discarding); a side that never "
        f"takes its morto loses {r.pot_penalty}."
    )
    if r.hidden_indirect_pot:
        morto += " A morto taken by discarding stays unseen until your partner has played."
    lines.append(morto)
    end = "The hand ends when someone goes out or the stock runs out"
    if r.pot_to_stock:
        end += " (an untaken morto then becomes the stock)"
    lines.append(end + ". Cards left in hand count against their side.")
    if r.match_hands:
        lines.append(f"Match: {r.match_hands} hands; the higher total wins.")
    else:
        lines.append(f"Match: the first side to reach {r.target} points wins.")
    return lines
