import math
import pickle

import numpy as np
import pytest

import collide2d as c2


def test_every_shape_kind_builds_and_answers():
    shapes = [
        c2.Circle(1.0),
        c2.Circle(0.5, center=(1, 2)),
        c2.Capsule((0, -1), (0, 1), 0.5),
        c2.Capsule.vertical(2.0, 0.5),
        c2.Segment((0, 0), (2, 0)),
        c2.Polygon([(0, 0), (2, 0), (2, 1), (0, 1)]),
        c2.Polygon.hull([(0, 0), (1, 0), (0, 1), (0.2, 0.2)]),
        c2.Polygon.rect(2, 1),
        c2.Polygon.rect(2, 1, radius=0.1),
        c2.Polygon.regular(6, 1.0),
        c2.Polygon.rect(1, 1).rounded(0.25),
        c2.Compound([(c2.Transform(0, 0), c2.Circle(1)), ((3, 0), c2.Polygon.rect(1, 1))]),
        c2.Compound.from_concave([(0, 0), (4, 0), (4, 4), (3, 4), (3, 1), (0, 1)]),
        c2.Chain.open([(0, 0), (1, 0), (2, 1)]),
        c2.Chain.closed([(0, 0), (1, 0), (1, 1), (0, 1)]),
    ]
    for shape in shapes:
        assert isinstance(shape, c2.Shape)
        x0, y0, x1, y1 = shape.aabb()
        assert x0 <= x1 and y0 <= y1
        assert shape.area >= 0.0
        assert len(shape.centroid) == 2
        assert isinstance(shape.is_convex, bool)
        assert repr(shape)
        moved = shape.aabb(c2.Transform(10, 0, 0.5))
        assert moved[0] > x0


def test_shape_properties():
    assert c2.Circle(2.0).radius == 2.0
    assert c2.Circle(1, center=(1, 2)).center == (1.0, 2.0)
    assert c2.Capsule((0, -1), (0, 1), 0.5).radius == 0.5
    assert c2.Capsule((0, -1), (0, 1), 0.5).points == ((0.0, -1.0), (0.0, 1.0))
    assert c2.Segment((0, 0), (2, 0)).points == ((0.0, 0.0), (2.0, 0.0))
    assert len(c2.Polygon.regular(6, 1).vertices) == 6
    assert c2.Polygon.rect(1, 1, radius=0.1).radius == pytest.approx(0.1)
    assert c2.Polygon.rect(2, 1).area == pytest.approx(2.0)
    assert c2.Circle(1).area == pytest.approx(math.pi, rel=1e-6)
    assert len(c2.Compound.from_concave([(0, 0), (4, 0), (4, 4), (3, 4), (3, 1), (0, 1)]).children) >= 2
    assert c2.Chain.closed([(0, 0), (1, 0), (1, 1)]).is_closed
    assert not c2.Chain.open([(0, 0), (1, 0)]).is_closed
    assert len(c2.Chain.open([(0, 0), (1, 0), (2, 0.5)]).vertices) == 3
    assert not c2.Compound([((0, 0), c2.Circle(1))]).is_convex


def test_contains_project_and_ray_cast():
    box = c2.Polygon.rect(2, 2)
    assert box.contains((0.5, 0.5))
    assert box.contains((1.0, 0.0))  # the boundary is inside
    assert not box.contains((1.5, 0.0))
    assert box.contains((5.5, 0.0), c2.Transform(5, 0))
    point, inside = box.project_point((3, 0))
    assert point == (1.0, 0.0) and not inside
    hit = box.ray_cast((-5, 0), (1, 0))
    assert hit.distance == pytest.approx(4.0) and hit.normal == (-1.0, 0.0) and hit.handle is None
    assert box.ray_cast((-5, 0), (1, 0), max_distance=3.0) is None
    assert box.ray_cast((-5, 0), (3, 0)).distance == pytest.approx(4.0)  # any direction length


def test_contains_points_equals_contains(rng):
    shape = c2.Compound.from_concave([(0, 0), (4, 0), (4, 4), (3, 4), (3, 1), (0, 1)])
    xf = c2.Transform(1, -2, 0.7)
    points = rng.uniform(-3, 7, (3000, 2))
    batch = shape.contains_points(points, xf)
    assert batch.dtype == np.bool_ and batch.shape == (3000,)
    assert batch.tolist() == [shape.contains(p, xf) for p in points]
    assert 0 < batch.sum() < 3000
    # float32 and a non-contiguous view give the same answers.
    assert shape.contains_points(points.astype(np.float32), xf).tolist() == batch.tolist()
    wide = np.zeros((3000, 4))
    wide[:, ::2] = points
    assert shape.contains_points(wide[:, ::2], xf).tolist() == batch.tolist()


@pytest.mark.parametrize(
    "make",
    [
        lambda: c2.Circle(-1.0),
        lambda: c2.Circle(float("nan")),
        lambda: c2.Circle(1.0, center=(float("inf"), 0)),
        lambda: c2.Capsule((0, 0), (0, 1), -0.5),
        lambda: c2.Segment((1, 1), (1, 1)),
        lambda: c2.Polygon([(0, 0), (1, 1), (2, 2)]),
        lambda: c2.Polygon([(0, 0), (4, 0), (4, 4), (3, 4), (3, 1), (0, 1)]),  # not convex
        lambda: c2.Polygon.hull([(0, 0), (float("nan"), 1), (1, 0)]),
        lambda: c2.Polygon.rect(0, 1),
        lambda: c2.Polygon.regular(2, 1.0),
        lambda: c2.Polygon.rect(1, 1, radius=-1),
        lambda: c2.Compound.from_concave([(0, 0), (1, 1), (0, 1), (1, 0)]),  # crosses itself
        lambda: c2.Chain.open([(0, 0)]),
        lambda: c2.Transform(float("nan"), 0),
        lambda: c2.Transform(0, 0, float("inf")),
        lambda: c2.Transform(2e9, 0),
        lambda: c2.Polygon.rect(1, 1).ray_cast((0, 0), (0, 0)),
        lambda: c2.Polygon.rect(1, 1).ray_cast((0, 0), (1, 0), -1.0),
        lambda: c2.Polygon.rect(1, 1).contains((float("nan"), 0)),
    ],
)
def test_bad_values_raise_invalid_input(make):
    with pytest.raises(c2.InvalidInput) as info:
        make()
    assert isinstance(info.value, ValueError) and isinstance(info.value, c2.Collide2dError)
    assert str(info.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda: c2.Polygon(np.array([[0, 0], [1, 0], [0, 1]], dtype=np.int64)),
        lambda: c2.Polygon(np.array([[0, 0], [1, 0], [0, 1]], dtype=np.complex128)),
        lambda: c2.Polygon(["a", "b", "c"]),
        lambda: c2.Circle(1).contains("xy"),
        lambda: c2.Compound([(c2.Transform(), "not a shape")]),
        lambda: c2.collide(c2.Circle(1), (0, 0), 42, (0, 0)),
        lambda: c2.Circle(1).aabb("here"),
    ],
)
def test_wrong_types_raise_array_type_error(make):
    with pytest.raises(c2.ArrayTypeError) as info:
        make()
    assert isinstance(info.value, TypeError)


def test_wrong_array_shape_raises_invalid_input():
    with pytest.raises(c2.InvalidInput, match=r"shape \(n, 2\)"):
        c2.Polygon(np.zeros((4, 3)))
    with pytest.raises(c2.InvalidInput):
        c2.Polygon.hull(np.zeros(8))


def test_transform():
    xf = c2.Transform(1, 2, math.pi / 2)
    assert (xf.x, xf.y) == (1.0, 2.0) and xf.position == (1.0, 2.0)
    assert xf.angle == pytest.approx(math.pi / 2)
    ax, ay = xf.apply((1, 0))
    assert ax == pytest.approx(1.0, abs=1e-6) and ay == pytest.approx(3.0)
    assert xf == c2.Transform(1, 2, math.pi / 2)
    assert pickle.loads(pickle.dumps(xf)) == xf
    assert "Transform" in repr(xf)
