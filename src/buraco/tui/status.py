"""The status panel: turn and phase, mortos, card counts, scores and the opening owed.

Also the vulnerability of each side and the last-turn warning.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from buraco.text import safe
from buraco.tui.render import card_label
from buraco.tui.table import side_name
from buraco.tui.words import sentence, t
from buraco.views import SeatView


def status_text(view: SeatView, goal: str) -> Text:
    """The panel's lines for a view; ``goal`` says how the game ends (``Match to 3000``)."""
    out = Text()
    v = view
    out.append(t("table.hand-number", n=v.hand_number + 1), style="bold")
    out.append(t("tui.status.dealer", name=safe(v.names[v.dealer])) + "\n")
    if v.turn is None:
        out.append(t("table.hand-over") + "\n", style="bold reverse")
    else:
        who = t("tui.you.title") if v.turn == v.seat else safe(v.names[v.turn])
        style = "bold reverse" if v.turn == v.seat else "bold"
        out.append(t("tui.line", who=who, what=t(f"tui.phase.{v.phase}")), style=style)
        out.append("\n")
    if v.last_turn:
        out.append(t("table.last-turn") + "\n", style="bold")
    if v.taken_top is not None and v.phase == "top-meld":
        out.append(t("tui.status.top-meld", card=card_label(v.taken_top)) + "\n", style="italic")
    elif v.taken_top is not None and v.options.get("keep_taken_top"):
        out.append(t("tui.status.top-stays", card=card_label(v.taken_top)) + "\n", style="italic")
    pots = " ".join(str(p) for p in v.pots) or t("tui.status.none")
    out.append(sentence(t("tui.status.pots", sizes=pots)) + "\n")
    if v.hidden_pot:
        out.append(t("tui.status.hidden-pot", n=v.hidden_pot) + "\n", style="italic")
    others = [s for s in range(len(v.names)) if s != v.seat]
    out.append(t("tui.status.cards"))
    for s in others:
        mark = "*" if v.sides[v.side].count(s) else ""
        out.append(f" {safe(v.names[s])}{mark} {v.hand_sizes[s]}")
    out.append("\n")
    out.append(f"{goal}\n", style="bold")
    for side in range(len(v.totals)):
        line = f" {side_name(v, side)} {v.totals[side]}"
        out.append(line, style="bold" if side == v.side else "")
        if v.vulnerable[side]:
            out.append(" " + t("tui.status.vuln"), style="italic")
        out.append("\n")
    owed = v.requirement[v.side]
    if owed:
        staged = v.detail.staged_value if v.detail is not None else 0
        so_far = t("tui.status.staged", n=staged) if staged else ""
        out.append(t("tui.status.owed", n=owed) + so_far + "\n", style="bold")
    out.rstrip()
    return out


class StatusPanel(Static):
    """The game's state at a glance (from the human's view)."""

    DEFAULT_CSS = "StatusPanel { height: auto; padding: 0 1; }"

    def show(self, view: SeatView, goal: str) -> None:
        """Draw from a new view."""
        self.update(status_text(view, goal))
