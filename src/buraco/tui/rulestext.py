"""The rules being played, in words, from the rule options themselves.

So the help screen always describes the options in force, overrides included. The
sentences are the catalogs' (``rules.*``, shared with the web page's rules, and the
terminal's ``tui.rules.*``), in the language in use.

>>> from buraco.rules import make_rules
>>> lines = rules_summary(make_rules("fechado", players=2))
>>> lines[0]
'Closed buraco (Brazil) — 2 players (source: 001 §Buraco Fechado)'
>>> "The pile is closed: only its top card is shown." in lines
True
"""

from __future__ import annotations

from buraco.rules import PRESETS, Rules
from buraco.tui.words import sentence, t


def _ranks(text: str) -> str:
    if len(text) >= 13:
        return t("rules.any-rank")
    if len(text) == 12:
        missing = [r for r in "A23456789TJQK" if r not in text]
        return t(
            "tui.rules.any-rank-but", ranks=" ".join(t(f"card.rank.{r}.short") for r in missing)
        )
    return " ".join(t(f"card.rank.{r}.short") for r in text)


def rules_summary(r: Rules) -> list[str]:
    """The rules of ``r`` in short sentences, one per line."""
    preset = PRESETS[r.preset]
    lines = [
        t("tui.rules.title", name=t(f"preset.{r.preset}"), players=r.players, source=preset.source)
    ]
    if r.partnerships:
        lines.append(t("rules.teams", teams=r.sides, size=r.players // r.sides))
    else:
        lines.append(t("rules.alone", n=r.sides))
    jokers = r.decks * r.jokers_per_deck
    lines.append(t("rules.pack-jokers" if jokers else "rules.pack", decks=r.decks, jokers=jokers))
    lines.append(
        t(
            "rules.points",
            joker=r.joker_value,
            two=r.two_value,
            ace=r.ace_value,
            high=r.high_value,
            low=r.low_value,
        )
    )
    pots = ", ".join(str(p) for p in r.pot_sizes)
    lines.append(t("rules.deal-upcard" if r.upcard else "rules.deal", n=r.hand_size, pots=pots))
    lines.append(t("rules.turn"))
    if r.pile_top_meld:
        lines.append(t("rules.pile-top-meld"))
    elif r.keep_taken_top:
        lines.append(t("rules.keep-taken-top"))
    if r.first_card_choice:
        lines.append(t("rules.first-card"))
    lines.append(t("rules.pile-open" if r.pile_open else "rules.pile-closed"))
    lines.append(t(f"rules.runs.{r.aces}"))
    if r.set_ranks:
        key = "rules.sets-one" if r.one_set_per_rank else "rules.sets"
        lines.append(t(key, ranks=_ranks(r.set_ranks)))
    else:
        lines.append(t("rules.no-sets"))
    if r.wild_moves:
        lines.append(f"{t('rules.wild-moves')} {t('tui.rules.wild-moves-key')}")
    lines.append(t("rules.canastra", clean=r.clean_bonus, dirty=r.dirty_bonus))
    for key, value in (
        ("semi-clean", r.semi_clean_bonus),
        ("clean-13", r.clean_13_bonus),
        ("clean-14", r.clean_14_bonus),
        ("twos", r.twos_canastra_bonus),
        ("clean-8-set", r.clean_eight_set_bonus),
    ):
        if value:
            lines.append(t(f"tui.rules.{key}", n=value))
    if r.opening_minimum:
        lines.append(t("rules.opening", n=r.opening_minimum))
    if r.vulnerable_minimum:
        lines.append(t("rules.vulnerable", n=r.vulnerable_minimum, at=r.vulnerable_threshold))
    if r.failed_opening_penalty:
        lines.append(t("rules.failed-opening", n=r.failed_opening_penalty))
    clean = r.go_out_canastra == "clean"
    lines.append(t("rules.go-out-clean" if clean else "rules.go-out", bonus=r.going_out_bonus))
    if r.go_out_discard == "required":
        lines.append(t("rules.go-out-discard"))
    if not r.go_out_wild_discard:
        lines.append(t("rules.go-out-no-wild"))
    if not r.go_out_first_turn:
        lines.append(t("rules.go-out-not-first"))
    lines.append(t("rules.pot", n=r.pot_penalty))
    if r.hidden_indirect_pot:
        lines.append(t("tui.rules.hidden-pot"))
    lines.append(t("rules.end"))
    if r.pot_to_stock:
        lines.append(t("tui.rules.pot-to-stock"))
    if r.match_hands:
        lines.append(t("rules.match-hands", n=r.match_hands))
    else:
        lines.append(t("rules.match-target", n=r.target))
    return [sentence(line) for line in lines]
