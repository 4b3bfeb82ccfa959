"""Link routing (ui/canvas/routing.py): straight where free, around cards where not."""
from ui.canvas.routing import crosses, route

A = (0, 0, 150, 92)
B = (400, 0, 550, 92)
MIDDLE = (200, 0, 350, 92)


def _hits(points, rect) -> bool:
    return any(crosses(p, q, rect) for p, q in zip(points, points[1:]))


def test_a_free_line_stays_straight():
    assert route((150, 46), (400, 46), A, B, [(200, 200, 350, 292)]) == [(150, 46), (400, 46)]


def test_a_card_in_the_way_is_gone_around():
    points = route((150, 46), (400, 46), A, B, [MIDDLE])
    assert len(points) > 2
    assert not _hits(points, MIDDLE)
    assert points[0] == (150, 46) and points[-1] == (400, 46)
    # Orthogonal: every segment is horizontal or vertical.
    assert all(p[0] == q[0] or p[1] == q[1] for p, q in zip(points, points[1:]))


def test_a_crowd_of_cards_keeps_the_line_straight():
    crowd = [(200 + 10 * i, 0, 210 + 10 * i, 92) for i in range(30)]
    assert route((150, 46), (400, 46), A, B, crowd) == [(150, 46), (400, 46)]
