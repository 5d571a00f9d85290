from scenario import legal, play


def test_scenario_helper_replays_a_meld() -> None:
    # 001 §Players and Cards: a sequence of three or more consecutive cards of a suit
    g = play("aberto", hands=["3H 4H 5H"], stock="9C", actions=["draw", "meld 3H 4H 5H"])
    assert [m.cards_text() for m in g.melds[0]] == ["3H 4H 5H"]
    assert "discard 9C" in legal(g)
