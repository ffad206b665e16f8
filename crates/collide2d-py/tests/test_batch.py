"""Batch calls give the answers of the one-at-a-time calls, and refuse bad arrays clearly."""

import numpy as np
import pytest

import collide2d as c2
from test_world import random_world


def test_set_transforms_equals_set_transform(rng):
    a, handles = random_world(rng)
    b = pickle_copy(a)
    a.update()
    b.update()
    for _ in range(5):
        pos = rng.uniform(0, 20, (len(handles), 2))
        ang = rng.uniform(-3, 3, len(handles))
        a.set_transforms(handles, pos, ang)
        for h, p, t in zip(handles, pos, ang):
            b.set_transform(int(h), c2.Transform(p[0], p[1], t))
        ea, eb = a.update(), b.update()
        assert ea.began_pairs.tolist() == eb.began_pairs.tolist()
        assert ea.ended_pairs.tolist() == eb.ended_pairs.tolist()
        assert a.contact_pairs().tolist() == b.contact_pairs().tolist()
        for h in handles[:50]:
            assert a.transform(int(h)) == b.transform(int(h))


def pickle_copy(world):
    import pickle

    return pickle.loads(pickle.dumps(world))


def test_events_arrays_equal_event_lists(rng):
    world, handles = random_world(rng)
    for _ in range(4):
        world.set_transforms(handles, rng.uniform(0, 20, (len(handles), 2)))
        events = world.update()
        assert events.began_pairs.tolist() == [[e.a, e.b] for e in events.began]
        assert events.ended_pairs.tolist() == [[e.a, e.b] for e in events.ended]
        assert world.contact_pairs().tolist() == [[a, b] for a, b, _ in world.contacts()]
        assert world.contact_pairs().shape[1] == 2


def test_overlap_points_equals_overlap_point(rng):
    world, _ = random_world(rng)
    points = rng.uniform(-1, 21, (5000, 2))
    for kw in ({}, {"sensors": True}, {"layers": ["a"]}):
        rows, found = world.overlap_points(points, **kw)
        assert rows.dtype == np.int64 and found.dtype == np.uint64
        expected = [(i, h) for i, p in enumerate(points) for h in world.overlap_point(p, **kw)]
        assert list(zip(rows.tolist(), found.tolist())) == expected
        assert len(expected) > 100


def test_overlap_aabbs_equals_overlap_aabb(rng):
    world, _ = random_world(rng)
    mins = rng.uniform(-1, 20, (3000, 2))
    maxs = mins + rng.uniform(0, 2, (3000, 2))
    rows, found = world.overlap_aabbs(mins, maxs, sensors=True)
    expected = [(i, h) for i, (lo, hi) in enumerate(zip(mins, maxs)) for h in world.overlap_aabb(lo, hi, sensors=True)]
    assert list(zip(rows.tolist(), found.tolist())) == expected
    assert len(expected) > 100


def test_ray_cast_many_equals_ray_cast(rng):
    world, _ = random_world(rng)
    n = 4000
    origins = rng.uniform(-5, 25, (n, 2))
    theta = rng.uniform(-np.pi, np.pi, n)
    dirs = np.c_[np.cos(theta), np.sin(theta)] * rng.uniform(0.1, 3, (n, 1))
    maxd = rng.uniform(0, 30, n)
    hits = world.ray_cast_many(origins, dirs, maxd)
    assert isinstance(hits, c2.RayHits) and hits.hit.dtype == np.bool_ and hits.distance.dtype == np.float32
    assert hits.point.shape == (n, 2) and hits.normal.shape == (n, 2) and hits.handle.dtype == np.uint64
    n_hit = 0
    for i in range(n):
        one = world.ray_cast(origins[i], dirs[i], maxd[i])
        if one is None:
            assert not hits.hit[i] and hits.distance[i] == np.inf and hits.handle[i] == c2.NO_HANDLE
            assert hits.point[i].tolist() == [0.0, 0.0]
        else:
            n_hit += 1
            assert hits.hit[i] and hits.handle[i] == one.handle
            assert hits.distance[i] == np.float32(one.distance)
            assert tuple(hits.point[i]) == one.point and tuple(hits.normal[i]) == one.normal
    assert 500 < n_hit < n
    # One max distance for all, float32 input, and a strided view: the same answers.
    all_inf = world.ray_cast_many(origins, dirs)
    assert all_inf.hit.sum() >= hits.hit.sum()
    same = world.ray_cast_many(origins.astype(np.float32), dirs.astype(np.float32), maxd.astype(np.float32))
    assert same.hit.tolist() == hits.hit.tolist() and same.handle.tolist() == hits.handle.tolist()
    wide = np.zeros((n, 4))
    wide[:, 1::2] = origins
    assert not wide[:, 1::2].flags["C_CONTIGUOUS"]
    strided = world.ray_cast_many(wide[:, 1::2], dirs, maxd)
    assert strided.distance.tolist() == hits.distance.tolist()


def test_thread_count_does_not_change_answers(rng):
    world, handles = random_world(rng)
    points = rng.uniform(-1, 21, (10_000, 2))
    one = world.overlap_points(points, threads=1)
    for threads in (2, 3, 8, None):
        many = world.overlap_points(points, threads=threads)
        assert many[0].tolist() == one[0].tolist() and many[1].tolist() == one[1].tolist()
    origins = rng.uniform(-5, 25, (10_000, 2))
    dirs = rng.normal(size=(10_000, 2))
    one = world.ray_cast_many(origins, dirs, 20.0, threads=1)
    many = world.ray_cast_many(origins, dirs, 20.0, threads=4)
    assert one.handle.tolist() == many.handle.tolist() and one.distance.tolist() == many.distance.tolist()
    mins = rng.uniform(0, 20, (5000, 2))
    assert [a.tolist() for a in world.overlap_aabbs(mins, mins + 1, threads=1)] == [
        a.tolist() for a in world.overlap_aabbs(mins, mins + 1, threads=5)
    ]
    for threads in (1, 2, None):
        # Cast after a move (the kept grid is rebuilt) and again (the kept grid is read).
        world.set_transform(int(handles[threads or 3]), c2.Transform(*rng.uniform(0, 20, 2), 0.5))
        for _ in range(2):
            hits = world.ray_cast_many(origins[:3000], dirs[:3000], 20.0, threads=threads)
            for i in range(3000):
                single = world.ray_cast(origins[i], dirs[i], 20.0)
                if single is None:
                    assert not hits.hit[i]
                else:
                    assert hits.hit[i] and hits.handle[i] == single.handle
                    assert hits.distance[i] == np.float32(single.distance)
                    assert tuple(hits.point[i]) == single.point and tuple(hits.normal[i]) == single.normal
    bad = points.copy()
    bad[7000] = np.inf
    with pytest.raises(c2.InvalidInput, match="row 7000"):
        world.overlap_points(bad, threads=4)
    with pytest.raises(c2.InvalidInput, match="threads"):
        world.overlap_points(points, threads=0)


def test_insert_many_equals_insert(rng):
    pos = rng.uniform(0, 30, (500, 2))
    ang = rng.uniform(-3, 3, 500)
    a, b = c2.World(), c2.World()
    ha = a.insert_many(c2.Polygon.rect(1, 0.5), pos, ang, user_data=np.arange(500, dtype=np.uint64), sensor=True)
    hb = [b.insert(c2.Polygon.rect(1, 0.5), c2.Transform(p[0], p[1], t), user_data=i, sensor=True) for i, (p, t) in enumerate(zip(pos, ang))]
    assert ha.dtype == np.uint64 and ha.tolist() == hb
    assert a.update().began_pairs.tolist() == b.update().began_pairs.tolist()
    assert [a.user_data(int(h)) for h in ha] == list(range(500))
    assert a.insert_many(c2.Circle(1), np.zeros((3, 2)), user_data=9).size == 3
    with pytest.raises(c2.InvalidInput):
        a.insert_many(c2.Circle(1), np.zeros((3, 2)), user_data=np.arange(2, dtype=np.uint64))
    with pytest.raises(c2.InvalidInput):
        a.insert_many(c2.Circle(1), np.zeros((3, 2)), np.array([0.0, np.nan, 0.0]))
    before = len(a)
    with pytest.raises(c2.InvalidInput):
        a.insert_many(c2.Circle(1), np.array([[0.0, 0.0], [3e9, 0.0]]))
    assert len(a) == before  # all or nothing


def test_insert_many_with_one_shape_per_row(rng):
    pos = rng.uniform(0, 30, (300, 2))
    shapes = [c2.Circle(0.5 + 0.01 * i) if i % 2 else c2.Polygon.regular(3 + i % 5, 0.7) for i in range(300)]
    a, b = c2.World(), c2.World()
    a.add_layer("x")
    b.add_layer("x")
    ha = a.insert_many(shapes, pos, layer="x")
    hb = [b.insert(s, tuple(p), layer="x") for s, p in zip(shapes, pos)]
    assert ha.tolist() == hb
    assert [repr(a.shape(int(h))) for h in ha] == [repr(s) for s in shapes]
    assert a.update().began_pairs.tolist() == b.update().began_pairs.tolist()
    with pytest.raises(c2.InvalidInput, match="299 shapes for 300"):
        a.insert_many(shapes[1:], pos)
    with pytest.raises(c2.ArrayTypeError):
        a.insert_many([c2.Circle(1), "nope"], pos[:2])
    with pytest.raises(c2.ArrayTypeError):
        a.insert_many(3.0, pos[:2])
    assert a.insert_many([], np.zeros((0, 2))).size == 0


def test_remove_many(rng):
    world, handles = random_world(rng, 50)
    world.remove_many(handles[:10])
    assert len(world) == 40 and all(int(h) not in world for h in handles[:10])
    world.remove_many(handles[10:20].astype(np.int64))
    assert len(world) == 30


@pytest.fixture
def small_world():
    world = c2.World()
    handles = world.insert_many(c2.Circle(0.5), np.array([[0.0, 0.0], [3.0, 0.0], [6.0, 0.0]]))
    return world, handles


def test_wrong_dtypes_raise_type_errors(small_world):
    world, handles = small_world
    for call in (
        lambda: world.set_transforms(handles, np.zeros((3, 2), dtype=np.int64)),
        lambda: world.set_transforms(handles.astype(np.float64), np.zeros((3, 2))),
        lambda: world.set_transforms(handles, np.zeros((3, 2)), np.zeros(3, dtype=np.int32)),
        lambda: world.overlap_points(np.zeros((4, 2), dtype=np.complex64)),
        lambda: world.overlap_points(np.zeros((4, 2), dtype=np.float16)),
        lambda: world.ray_cast_many(np.zeros((4, 2), dtype=bool), np.ones((4, 2))),
        lambda: world.overlap_aabbs(np.zeros((4, 2)), np.zeros((4, 2), dtype=np.uint8)),
        lambda: world.overlap_points([["a", "b"]]),
        lambda: world.remove_many(np.zeros(2, dtype=np.float32)),
    ):
        with pytest.raises(c2.ArrayTypeError) as info:
            call()
        assert isinstance(info.value, TypeError) and "dtype" in str(info.value) or "array" in str(info.value)


def test_wrong_shapes_raise_value_errors(small_world):
    world, handles = small_world
    for call, message in (
        (lambda: world.set_transforms(handles, np.zeros((2, 2))), "rows"),
        (lambda: world.set_transforms(handles, np.zeros((3, 3))), "shape"),
        (lambda: world.set_transforms(handles, np.zeros(6)), "shape"),
        (lambda: world.set_transforms(handles, np.zeros((3, 2)), np.zeros(2)), "rows"),
        (lambda: world.set_transforms(handles.reshape(3, 1), np.zeros((3, 2))), "shape"),
        (lambda: world.overlap_points(np.zeros((4, 2, 1))), "shape"),
        (lambda: world.ray_cast_many(np.zeros((4, 2)), np.ones((5, 2))), "rows"),
        (lambda: world.ray_cast_many(np.zeros((4, 2)), np.ones((4, 2)), np.ones(3)), "rows"),
        (lambda: world.overlap_aabbs(np.zeros((4, 2)), np.ones((3, 2))), "rows"),
        (lambda: world.remove_many(np.array([-1, 0])), "negative"),
    ):
        with pytest.raises(c2.InvalidInput, match=message) as info:
            call()
        assert isinstance(info.value, ValueError)


def test_nan_and_bad_rows_raise_with_the_row(small_world):
    world, handles = small_world
    pos = np.zeros((3, 2))
    pos[1, 0] = np.nan
    with pytest.raises(c2.InvalidInput, match="row 1"):
        world.set_transforms(handles, pos)
    with pytest.raises(c2.InvalidInput, match="row 2"):
        world.set_transforms(handles, np.zeros((3, 2)), np.array([0, 0, np.inf]))
    with pytest.raises(c2.InvalidInput, match="row 0"):
        world.overlap_points(np.array([[np.inf, 0.0]]))
    with pytest.raises(c2.InvalidInput, match="row 1"):
        world.ray_cast_many(np.zeros((2, 2)), np.array([[1.0, 0.0], [0.0, 0.0]]))
    with pytest.raises(c2.InvalidInput, match="row 0"):
        world.ray_cast_many(np.zeros((1, 2)), np.ones((1, 2)), -1.0)
    with pytest.raises(c2.InvalidInput, match="row 0"):
        world.overlap_aabbs(np.ones((1, 2)), np.zeros((1, 2)))
    with pytest.raises(c2.InvalidInput, match="row 0"):
        world.overlap_points(np.array([[1e300, 0.0]]))  # beyond float32
    big = np.zeros((3, 2))
    big[2] = 2e9
    with pytest.raises(c2.InvalidInput):
        world.set_transforms(handles, big)
    assert world.transform(int(handles[0])) == c2.Transform(0, 0)  # nothing moved


def test_stale_handle_in_a_batch(small_world):
    world, handles = small_world
    world.remove(int(handles[1]))
    with pytest.raises(c2.StaleHandle, match="1:0 is stale"):
        world.set_transforms(handles, np.zeros((3, 2)))


def test_batches_accept_lists_and_empty_arrays(small_world):
    world, handles = small_world
    world.set_transforms(handles.tolist(), [[0, 0], [1, 0], [2, 0]], [0, 0, 0])
    assert world.update().began_pairs.shape == (2, 2)
    rows, found = world.overlap_points(np.zeros((0, 2)))
    assert rows.size == 0 and found.size == 0
    assert world.ray_cast_many(np.zeros((0, 2)), np.zeros((0, 2))).hit.shape == (0,)
    world.set_transforms(np.zeros(0, dtype=np.uint64), np.zeros((0, 2)))
