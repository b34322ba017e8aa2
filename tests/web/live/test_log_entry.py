"""A log line's banner and score come from its events' own ``headline`` and ``is_score``
(web/live/game.py ``log_entry``), so the game page parses no sentence to find them."""

from __future__ import annotations

from monsterball.core.actions import Event
from monsterball.games.huck_monster import events as hm
from monsterball.games.midway.events import scoring as mw
from monsterball.games.paper_ultimate import events as pu
from monsterball.web.live.game import log_entry


def entry(*events: Event) -> tuple[str, int | None]:
    made = log_entry(9, 0, "A", "x", "x", events)
    assert made.view(None)["banner"] == made.banner
    assert made.view(None)["scored_at"] == made.scored_at
    return made.banner, made.scored_at


def test_a_plain_action_has_no_banner() -> None:
    assert entry() == ("", None)
    assert entry(hm.MonsterMoved(3, "e7")) == ("", None)


def test_a_score_outranks_the_turnover_before_it() -> None:
    # HM-R32's Callahan: the interception is a turnover, and the point it scores is told
    # by the banner; the position is held at the score (index 1), not at the turnover.
    told = entry(hm.TurnedOver(1, 8, "intercept"), hm.CallahanScored(8), hm.Scored(1, 8, (0, 1)))
    assert told == ("Point!", 1)


def test_turnovers_of_each_kind_are_announced() -> None:
    assert entry(hm.Stalled(10, "ten seconds")) == ("Turnover", None)
    assert entry(hm.FellShort("e9")) == ("Turnover", None)
    assert entry(pu.Turnover(5, "the throw was dropped")) == ("Turnover", None)
    moved = hm.DiscMoved("e19", 2, "e18", hm.END_ZONE_TURNOVER)
    assert entry(moved) == ("Turnover", None)
    assert entry(hm.DiscMoved("e9", 2, "e8", "The Challenge takes the disc")) == ("", None)


def test_midway_names_its_scores_but_not_the_kick_after_a_touchdown() -> None:
    assert entry(mw.Touchdown(3, 0), mw.Scored("touchdown", 0, (6, 0))) == ("Touchdown!", 0)
    assert entry(mw.Scored("field-goal", 1, (6, 3))) == ("Field goal!", 0)
    assert entry(mw.Scored("safety", 1, (6, 5))) == ("Safety!", 0)
    assert entry(mw.ExtraPointRolled(3, 4, True), mw.Scored("extra-point", 0, (7, 5))) == (
        "",
        None,
    )
    assert entry(pu.PointScored(0, 1, 0)) == ("Point!", 0)
