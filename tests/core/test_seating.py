import pytest

from monsterball.core.errors import OptionsError
from monsterball.core.seating import Seating


def test_four_coaches_rotate_within_their_seat():
    seating = Seating.of(["ann", "bob"], ["cy", "dee"])
    assert seating.num_coaches == 4
    assert [seating.coach_for(0, t) for t in range(4)] == ["ann", "bob", "ann", "bob"]
    assert [seating.coach_for(1, t) for t in range(3)] == ["cy", "dee", "cy"]
    assert seating.seat_of("dee") == 1


def test_two_coaches_always_act_for_their_own_seat():
    seating = Seating.of(["ann"], ["bob"])
    assert {seating.coach_for(0, t) for t in range(5)} == {"ann"}


@pytest.mark.parametrize("seats", [([], ["b"]), (["a"], ["a"])])
def test_bad_seatings_are_refused(seats):
    with pytest.raises(OptionsError):
        Seating.of(*seats)
    with pytest.raises(OptionsError):
        Seating.of(["a"], ["b"]).seat_of("zed")
