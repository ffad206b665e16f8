"""Points far beyond the coordinate range: an answer is right or the call raises InvalidInput,
never a made-up point or an infinity."""

import math

import numpy as np
import pytest

import collide2d as c2

REACH = 4e9  # 4 * MAX_COORDINATE: farther than any placed shape reaches


def shapes():
    return [
        c2.Circle(1.0),
        c2.Circle(0.5, center=(3, -2)),
        c2.Capsule((0, 0), (2, 1), 0.5),
        c2.Segment((-1, 0), (1, 0.5)),
        c2.Polygon.rect(2, 1),
        c2.Polygon.regular(6, 1.5, 0.25),
        c2.Compound([(c2.Transform(1, 0, 0.5), c2.Polygon.rect(1, 1)), (None, c2.Circle(0.5))]),
        c2.Chain.open([(0, 0), (2, 0), (3, 1)]),
        c2.Chain.closed([(0, 0), (2, 0), (1, 2)]),
    ]


def test_the_projection_of_a_point_beyond_4e9_is_refused_not_the_origin():
    """A unit square's closest point to (1e10, 1e10) came back as ((0.0, 0.0), False): the
    library's "no projection" answer, which reads as a point at the origin (inside the square,
    and not the closest). Such a point now raises InvalidInput naming it."""
    square = c2.Polygon.rect(1, 1)
    with pytest.raises(c2.InvalidInput, match="point .* beyond ±4e9"):
        square.project_point((1e10, 1e10))
    with pytest.raises(c2.InvalidInput):
        c2.Circle(1, (1e9, 0)).project_point((-3e38, 3e38), (1e9, 1e9, 2))
    assert square.project_point((4e9, 0))[0][0] == 0.5


def test_projections_of_points_of_every_magnitude_lie_on_the_shape_or_are_refused(rng):
    """Every shape kind, placed away from the origin, projected from points of magnitudes 1 to
    3e38: refused exactly when beyond ±4e9; else the answer lies in the placed shape's bounding
    box (widened by the rounding of the point's coordinates), and for a circle it is the
    closest point an exact float64 computation gives."""
    tried = refused = 0
    for shape in shapes():
        for _ in range(150):
            xf = c2.Transform(float(rng.uniform(-100, 100)), float(rng.uniform(-100, 100)), float(rng.uniform(-3, 3)))
            magnitude = 10.0 ** rng.uniform(0, 38.5)
            direction = rng.normal(size=2)
            point = tuple(float(v) for v in np.float32(direction / np.linalg.norm(direction) * magnitude))
            if not all(math.isfinite(v) for v in point):
                continue
            tried += 1
            if max(abs(point[0]), abs(point[1])) > REACH:
                refused += 1
                with pytest.raises(c2.InvalidInput):
                    shape.project_point(point, xf)
                continue
            (x, y), inside = shape.project_point(point, xf)
            x0, y0, x1, y1 = shape.aabb(xf)
            slack = 1e-3 + 2e-7 * max(abs(point[0]), abs(point[1]))
            assert x0 - slack <= x <= x1 + slack and y0 - slack <= y <= y1 + slack, (shape, xf, point, (x, y))
            assert inside == shape.contains(point, xf)
            if isinstance(shape, c2.Circle):
                cx, cy = xf.apply(shape.center)
                dx, dy = point[0] - cx, point[1] - cy
                d = math.hypot(dx, dy)
                want = (cx + shape.radius * dx / d, cy + shape.radius * dy / d)
                assert math.hypot(x - want[0], y - want[1]) <= 1e-5 * (1 + shape.radius) + 1e-7 * d
    assert tried > 1000 and 0 < refused < tried


def test_a_transform_that_would_send_a_point_beyond_float32_raises():
    """Transform(1e9, 1e9, 1).apply((3e38, 3e38)) gave (-9.0e37, inf)."""
    with pytest.raises(c2.InvalidInput, match="beyond float32"):
        c2.Transform(1e9, 1e9, 1).apply((3e38, 3e38))


def test_applied_points_of_every_magnitude_are_exact_or_refused(rng):
    """Random transforms applied to points up to 3.4e38: the float64 reference (from the
    transform's own cosine and sine) is matched to float32 rounding, or, where it lies beyond
    float32, the call raises InvalidInput; never an infinity."""
    f32_max = float(np.finfo(np.float32).max)
    checked = refused = 0
    for _ in range(4000):
        t = c2.Transform(float(rng.uniform(-1e9, 1e9)), float(rng.uniform(-1e9, 1e9)), float(rng.uniform(-4, 4)))
        c, s = math.cos(t.angle), math.sin(t.angle)
        # Half of them near float32's largest, where a turn can carry a point beyond it.
        magnitude = 10.0 ** rng.uniform(0, 38.53) if rng.random() < 0.5 else rng.uniform(1e38, f32_max)
        px, py = (float(v) for v in np.float32(rng.choice([-1, 1], 2) * rng.uniform(0.5, 1, 2) * magnitude))
        if not (math.isfinite(px) and math.isfinite(py)):
            continue
        want = (c * px - s * py + t.x, s * px + c * py + t.y)
        size = max(abs(want[0]), abs(want[1]))
        if size > 1.01 * f32_max:
            refused += 1
            with pytest.raises(c2.InvalidInput):
                t.apply((px, py))
        elif size < 0.99 * f32_max:
            x, y = t.apply((px, py))
            assert math.isfinite(x) and math.isfinite(y)
            tolerance = 1e-6 * (abs(px) + abs(py)) + 1e-6 * (abs(t.x) + abs(t.y)) + 1e-6
            assert abs(x - want[0]) <= tolerance and abs(y - want[1]) <= tolerance, (t, px, py)
            checked += 1
    assert checked > 2000 and refused > 50
