import math

import numpy as np
import pytest

import collide2d as c2


def test_collide_circles_exact():
    m = c2.collide(c2.Circle(1), c2.Transform(0, 0), c2.Circle(1), c2.Transform(1.5, 0))
    assert m and len(m) == 1
    assert m.normal == (1.0, 0.0)
    assert m.penetration == pytest.approx(0.5)
    (p,) = m.points
    assert p.point[0] == pytest.approx(0.75) and p.penetration == pytest.approx(0.5)
    assert "Manifold" in repr(m) and "ContactPoint" in repr(p)


def test_collide_apart_is_empty_and_falsy():
    m = c2.collide(c2.Circle(1), (0, 0), c2.Polygon.rect(1, 1), (5, 0))
    assert not m and len(m) == 0 and m.points == [] and m.penetration == 0.0


def test_box_on_box_has_two_points():
    m = c2.collide(c2.Polygon.rect(2, 2), (0, 0), c2.Polygon.rect(2, 2), (0, 1.9))
    assert len(m) == 2
    assert m.normal == (0.0, 1.0)
    assert all(cp.penetration == pytest.approx(0.1, abs=1e-5) for cp in m.points)


def test_overlaps_touching_counts():
    assert c2.overlaps(c2.Circle(1), (0, 0), c2.Circle(1), (2, 0))
    assert not c2.overlaps(c2.Circle(1), (0, 0), c2.Circle(1), (2.01, 0))


def test_distance():
    d = c2.distance(c2.Circle(1), (0, 0), c2.Polygon.rect(2, 2), (5, 0))
    assert d.distance == pytest.approx(3.0)
    assert d.point_a == pytest.approx((1.0, 0.0)) and d.point_b == pytest.approx((4.0, 0.0))
    assert d.normal == pytest.approx((1.0, 0.0))
    assert "Distance" in repr(d)


def test_shape_cast():
    hit = c2.shape_cast(c2.Circle(1), (0, 0), (10, 0), c2.Polygon.rect(2, 2), (6, 0))
    assert hit.fraction == pytest.approx(0.4, abs=1e-4)
    assert hit.normal == pytest.approx((1.0, 0.0))
    assert c2.shape_cast(c2.Circle(1), (0, 0), (0, 10), c2.Polygon.rect(2, 2), (6, 0)) is None
    # Both moving: towards each other they meet halfway in time.
    hit = c2.shape_cast(c2.Circle(1), (0, 0), (4, 0), c2.Circle(1), (6, 0), (-4, 0))
    assert hit.fraction == pytest.approx(0.5, abs=1e-4)
    assert "CastHit" in repr(hit)


def test_ray_cast_function():
    hit = c2.ray_cast(c2.Circle(1), c2.Transform(5, 0), (0, 0), (1, 0))
    assert hit.distance == pytest.approx(4.0) and hit.point == pytest.approx((4.0, 0.0))
    assert c2.ray_cast(c2.Circle(1), (5, 0), (0, 0), (-1, 0)) is None
    assert "RayHit" in repr(hit)


def test_queries_refuse_bad_input():
    with pytest.raises(c2.InvalidInput):
        c2.collide(c2.Circle(1), (float("nan"), 0), c2.Circle(1), (0, 0))
    with pytest.raises(c2.InvalidInput):
        c2.shape_cast(c2.Circle(1), (0, 0), (math.inf, 0), c2.Circle(1), (3, 0))
    with pytest.raises(c2.InvalidInput):
        c2.ray_cast(c2.Circle(1), (0, 0), (0, 0), (math.nan, 1))
    with pytest.raises(c2.ArrayTypeError):
        c2.distance(c2.Circle(1), "origin", c2.Circle(1), (0, 0))


def test_random_pairs_agree_with_overlaps(rng):
    """collide is non-empty exactly when overlaps says so, and distance is 0 there."""
    kinds = [c2.Circle(0.7), c2.Polygon.rect(1.2, 0.8), c2.Capsule((0, -0.5), (0, 0.5), 0.3), c2.Polygon.regular(5, 0.8, radius=0.1)]
    for _ in range(2000):
        a, b = kinds[rng.integers(4)], kinds[rng.integers(4)]
        xa = c2.Transform(*rng.uniform(-1, 1, 2), rng.uniform(-3, 3))
        xb = c2.Transform(*rng.uniform(-1, 1, 2), rng.uniform(-3, 3))
        over = c2.overlaps(a, xa, b, xb)
        m = c2.collide(a, xa, b, xb)
        d = c2.distance(a, xa, b, xb)
        if m and m.penetration > 1e-3:
            assert over
        if not over:
            assert d.distance > 0.0
        if over and d.distance > 1e-3:
            pytest.fail("overlapping shapes at a positive distance")
