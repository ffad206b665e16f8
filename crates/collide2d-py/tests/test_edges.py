"""Every public call at the edges of its input: a Python caller sees one of the package's
exceptions (or a documented answer), never OverflowError, a panic, a hang, a NaN or an answer
made up from input that should have been refused."""

import ast
import inspect
import json
import math
import pathlib
import pickle
import threading

import numpy as np
import pytest

import collide2d as c2

NAN, INF = float("nan"), float("inf")
BEYOND_F32 = 1e300  # finite as a Python float, infinite as the library's float32
PACKAGE_ERRORS = (c2.Collide2dError,)


def small_world():
    world = c2.World()
    world.add_layer("walls")
    ball = world.insert(c2.Circle(0.5), (0, 0), user_data=1)
    box = world.insert(c2.Polygon.rect(2, 2), (3, 0), layer="walls")
    hero = world.insert(c2.Capsule.vertical(1.8, 0.4), (-3, 1))
    world.insert(c2.Polygon.rect(20, 1), (0, -1))
    world.update()
    return world, ball, box, hero


def no_nan(value):
    """Whether a result (numbers, tuples, lists, arrays, result objects) holds no NaN."""
    if isinstance(value, (float, np.floating)):
        return not math.isnan(value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind != "f" or not np.isnan(value).any()
    if isinstance(value, (tuple, list)):
        return all(no_nan(v) for v in value)
    if value is None or isinstance(value, (bool, int, str, np.integer, np.bool_)):
        return True
    fields = [f for f in dir(value) if not f.startswith("_")]
    return all(no_nan(getattr(value, f)) for f in fields if not callable(getattr(value, f)))


# ---- every float argument ---------------------------------------------------------------

WORLD, BALL, BOX, HERO = small_world()

# One call per float argument of the public API, with that argument set to `v`.
FLOAT_ARGUMENTS = {
    "Transform.x": lambda v: c2.Transform(v, 0),
    "Transform.y": lambda v: c2.Transform(0, v),
    "Transform.angle": lambda v: c2.Transform(0, 0, v),
    "Transform.apply": lambda v: c2.Transform(1, 2, 0.5).apply((v, 0)),
    "Circle.radius": lambda v: c2.Circle(v),
    "Circle.center": lambda v: c2.Circle(1, center=(0, v)),
    "Capsule.a": lambda v: c2.Capsule((v, 0), (0, 1), 0.5),
    "Capsule.radius": lambda v: c2.Capsule((0, 0), (0, 1), v),
    "Capsule.vertical.height": lambda v: c2.Capsule.vertical(v, 0.5),
    "Capsule.vertical.radius": lambda v: c2.Capsule.vertical(2, v),
    "Segment.b": lambda v: c2.Segment((0, 0), (1, v)),
    "Polygon.outline": lambda v: c2.Polygon([(0, 0), (1, 0), (v, 1)]),
    "Polygon.radius": lambda v: c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=v),
    "Polygon.hull": lambda v: c2.Polygon.hull([(0, 0), (1, 0), (0, v), (0.5, 0.5)]),
    "Polygon.rect.width": lambda v: c2.Polygon.rect(v, 1),
    "Polygon.rect.radius": lambda v: c2.Polygon.rect(1, 1, radius=v),
    "Polygon.regular.circumradius": lambda v: c2.Polygon.regular(5, v),
    "Polygon.rounded": lambda v: c2.Polygon.rect(1, 1).rounded(v),
    "Compound.transform": lambda v: c2.Compound([((v, 0), c2.Circle(1))]),
    "Compound.from_concave": lambda v: c2.Compound.from_concave([(0, 0), (4, 0), (4, 4), (3, v), (3, 1), (0, 1)]),
    "Chain.open": lambda v: c2.Chain.open([(0, 0), (v, 1)]),
    "Chain.closed": lambda v: c2.Chain.closed([(0, 0), (1, 0), (v, 1)]),
    "Shape.aabb": lambda v: c2.Circle(1).aabb((v, 0)),
    "Shape.contains": lambda v: c2.Circle(1).contains((v, 0)),
    "Shape.project_point": lambda v: c2.Circle(1).project_point((0, v)),
    "Shape.ray_cast.origin": lambda v: c2.Circle(1).ray_cast((v, 0), (1, 0)),
    "Shape.ray_cast.direction": lambda v: c2.Circle(1).ray_cast((-5, 0), (v, 0)),
    "Shape.contains_points": lambda v: c2.Circle(1).contains_points([[0, 0], [v, 0]]),
    "collide": lambda v: c2.collide(c2.Circle(1), (0, v), c2.Circle(1), (1, 0)),
    "overlaps": lambda v: c2.overlaps(c2.Circle(1), (0, 0), c2.Circle(1), (1, 0, v)),
    "distance": lambda v: c2.distance(c2.Circle(1), (v, 0), c2.Circle(1), (1, 0)),
    "shape_cast.motion_a": lambda v: c2.shape_cast(c2.Circle(1), (0, 0), (v, 0), c2.Circle(1), (5, 0)),
    "shape_cast.motion_b": lambda v: c2.shape_cast(c2.Circle(1), (0, 0), (1, 0), c2.Circle(1), (5, 0), (0, v)),
    "ray_cast.origin": lambda v: c2.ray_cast(c2.Circle(1), (5, 0), (0, v), (1, 0)),
    "World.insert.transform": lambda v: WORLD.insert(c2.Circle(1), (v, 0)),
    "World.insert.offset": lambda v: WORLD.insert(c2.Circle(1), (0, 0), offset=(0, v)),
    "World.insert.one_way.direction": lambda v: WORLD.insert(c2.Circle(1), (0, 0), one_way=((v, 1), 0.1)),
    "World.insert.one_way.margin": lambda v: WORLD.insert(c2.Circle(1), (0, 0), one_way=((0, 1), v)),
    "World.insert_many.positions": lambda v: WORLD.insert_many(c2.Circle(1), [[0, 0], [v, 0]]),
    "World.insert_many.angles": lambda v: WORLD.insert_many(c2.Circle(1), [[0, 0], [1, 0]], [0, v]),
    "World.set_transform": lambda v: WORLD.set_transform(BALL, (0, 0, v)),
    "World.set_transforms.positions": lambda v: WORLD.set_transforms([BALL], [[v, 0]]),
    "World.set_transforms.angles": lambda v: WORLD.set_transforms([BALL], [[0, 0]], [v]),
    "World.set_offset": lambda v: WORLD.set_offset(BALL, (v, 0)),
    "World.overlap_point": lambda v: WORLD.overlap_point((v, 0)),
    "World.overlap_aabb": lambda v: WORLD.overlap_aabb((0, 0), (v, 1)),
    "World.overlap_shape": lambda v: WORLD.overlap_shape(c2.Circle(1), (0, v)),
    "World.ray_cast.origin": lambda v: WORLD.ray_cast((v, 0), (1, 0)),
    "World.ray_cast.direction": lambda v: WORLD.ray_cast((0, 0), (1, v)),
    "World.shape_cast.motion": lambda v: WORLD.shape_cast(c2.Circle(0.2), (0, 5), (v, 0)),
    "World.move_and_slide.delta": lambda v: WORLD.move_and_slide(HERO, (v, 0)),
    "World.move_and_slide.up": lambda v: WORLD.move_and_slide(HERO, (0.1, 0), up=(0, v)),
    "World.move_and_slide.max_slope": lambda v: WORLD.move_and_slide(HERO, (0.1, 0), max_slope=v),
    "World.move_and_slide.skin": lambda v: WORLD.move_and_slide(HERO, (0.1, 0), skin=v),
    "World.move_and_slide.step_height": lambda v: WORLD.move_and_slide(HERO, (0.1, 0), step_height=v),
    "World.move_and_slide.snap_distance": lambda v: WORLD.move_and_slide(HERO, (0.1, 0), snap_distance=v),
    "World.move_and_slide.max_recovery": lambda v: WORLD.move_and_slide(HERO, (0.1, 0), max_recovery=v),
    "World.move_and_slide.size": lambda v: WORLD.move_and_slide(HERO, (0.1, 0), size=v),
    "World.overlap_points": lambda v: WORLD.overlap_points([[0, 0], [v, 0]]),
    "World.overlap_aabbs": lambda v: WORLD.overlap_aabbs([[0, 0]], [[1, v]]),
    "World.ray_cast_many.origins": lambda v: WORLD.ray_cast_many([[0, 0], [v, 0]], [[1, 0], [1, 0]]),
    "World.ray_cast_many.directions": lambda v: WORLD.ray_cast_many([[0, 0]], [[v, 0]]),
    "World.insert_tile_map.cell_size": lambda v: WORLD.insert_tile_map([[1, 0], [0, 1]], v),
    "World.insert_tile_map.origin": lambda v: WORLD.insert_tile_map([[1, 0], [0, 1]], 1.0, (v, 0)),
}

# Arguments where an infinity is a documented value: a ray's reach.
MAX_DISTANCES = {
    "Shape.ray_cast.max_distance": lambda v: c2.Circle(1).ray_cast((-5, 0), (1, 0), v),
    "ray_cast.max_distance": lambda v: c2.ray_cast(c2.Circle(1), (5, 0), (0, 0), (1, 0), v),
    "World.ray_cast.max_distance": lambda v: WORLD.ray_cast((-5, 0), (1, 0), v),
    "World.ray_cast_many.max_distance": lambda v: WORLD.ray_cast_many([[-5, 0]], [[1, 0]], v),
    "World.ray_cast_many.max_distance[]": lambda v: WORLD.ray_cast_many([[-5, 0], [-5, 0]], [[1, 0], [1, 0]], [1.0, v]),
}


@pytest.mark.parametrize(
    "value",
    [NAN, INF, -INF, BEYOND_F32, -BEYOND_F32, 10**39, 10**400, -(10**400)],
    ids=["nan", "inf", "-inf", "1e300", "-1e300", "int 10**39", "int 10**400", "int -10**400"],
)
@pytest.mark.parametrize("name", sorted(FLOAT_ARGUMENTS))
def test_every_float_argument_refuses_non_finite_numbers(name, value):
    """NaN, infinities and numbers beyond float32 raise InvalidInput (a ValueError) in every
    float argument; 1e300 used to slip through as a finite float64 and become inf, and a Python
    integer too large for a float (10**400) raised OverflowError (no package exception, no
    ValueError) or ArrayTypeError ("must be a pair of numbers")."""
    before = len(WORLD)
    with pytest.raises(c2.InvalidInput) as info:
        FLOAT_ARGUMENTS[name](value)
    assert isinstance(info.value, ValueError) and str(info.value)
    assert len(WORLD) == before  # nothing inserted by a refused call


@pytest.mark.parametrize("name", sorted(MAX_DISTANCES))
def test_max_distance_refuses_nan_and_negative_and_takes_infinity(name):
    call = MAX_DISTANCES[name]
    for bad in (NAN, -1.0, -INF):
        with pytest.raises(c2.InvalidInput):
            call(bad)
    hit = call(INF)
    far = call(BEYOND_F32)  # beyond float32: as far as a float32 reaches, i.e. without end
    assert no_nan(hit) and no_nan(far)
    huge = call(10**400)  # an integer beyond any float: the same
    assert np.asarray(huge.distance).tolist() == np.asarray(far.distance).tolist()


@pytest.mark.parametrize("value", [-1.0, 0.0, 1e-30, 1e-45, 5e8, 1e9, 1.5e9, 3e38], ids=str)
@pytest.mark.parametrize("name", sorted(FLOAT_ARGUMENTS))
def test_finite_extremes_answer_without_nan_or_raise_clearly(name, value):
    """Negative, zero, tiny and huge finite values: a package exception or an answer without
    NaN, never anything else."""
    try:
        answer = FLOAT_ARGUMENTS[name](value)
    except PACKAGE_ERRORS as error:
        assert isinstance(error, (ValueError, TypeError, KeyError)) and str(error)
        return
    assert no_nan(answer), answer


def test_transform_apply_beyond_float32_regression():
    """Transform.apply((1e300, 0)) answered (inf, inf)."""
    with pytest.raises(c2.InvalidInput, match="float32"):
        c2.Transform(1, 2, 0.5).apply((1e300, 0))
    with pytest.raises(c2.InvalidInput):
        c2.Transform(0, 0, 1e39)  # an angle beyond float32: its sine and cosine are NaN


@pytest.mark.parametrize(
    "call",
    [
        lambda: c2.Circle(-1),
        lambda: c2.Capsule((0, 0), (1, 0), -0.5),
        lambda: c2.Capsule.vertical(-2, 0.5),
        lambda: c2.Polygon.rect(-1, 1),
        lambda: c2.Polygon.rect(1, 0),
        lambda: c2.Polygon.rect(2e9, 1),
        lambda: c2.Polygon.regular(5, -1),
        lambda: c2.Polygon.regular(5, 0),
        lambda: c2.Polygon.rect(1, 1).rounded(-0.1),
        lambda: c2.Circle(2e9),
        lambda: c2.Segment((0, 0), (1e-13, 0)),
        lambda: c2.World().insert_tile_map([[1]], 0.0),
        lambda: c2.World().insert_tile_map([[1]], -1.0),
    ],
)
def test_negative_zero_and_huge_sizes_raise_invalid_input(call):
    with pytest.raises(c2.InvalidInput):
        call()


# ---- polygons -------------------------------------------------------------------------

CIRCLE_100 = [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 100, endpoint=False)]


@pytest.mark.parametrize(
    "outline, message",
    [
        ([], "too few distinct points"),
        ([(0, 0)], "too few distinct points"),
        ([(0, 0), (1, 0)], "too few distinct points"),
        ([(0, 0), (0, 0), (0, 0)], "too few distinct points"),
        ([(0, 0), (1, 1), (2, 2)], "line"),
        ([(0, 0), (1, 1), (1, 0), (0, 1)], "convex"),  # crosses itself
        ([(math.cos(k * 4 * math.pi / 5), math.sin(k * 4 * math.pi / 5)) for k in range(5)], "convex"),  # a star
        (CIRCLE_100, "more than the supported 64"),
        ([(0, 0), (1e-30, 0), (0, 1e-30)], "too small"),
    ],
)
def test_degenerate_polygons_raise_invalid_input(outline, message):
    with pytest.raises(c2.InvalidInput, match=message):
        c2.Polygon(outline)


def test_polygon_limits_and_hull_of_many_points():
    assert len(c2.Polygon(CIRCLE_100[::2][:64]).vertices) == 50
    assert c2.Polygon([(0, 0), (0, 1), (1, 0)]).vertices == [(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)]  # clockwise in, CCW out
    hull = c2.Polygon.hull(np.random.default_rng(1).normal(size=(100_000, 2)))
    assert 3 <= len(hull.vertices) <= 64
    with pytest.raises(c2.InvalidInput, match="64"):
        c2.Polygon.hull(CIRCLE_100)
    with pytest.raises(c2.InvalidInput, match="intersect"):
        c2.Compound.from_concave([(0, 0), (1, 1), (0, 1), (1, 0)])
    with pytest.raises(c2.InvalidInput, match="at least one child"):
        c2.Compound([])
    with pytest.raises(c2.InvalidInput, match="convex shapes"):
        c2.Compound([((0, 0), c2.Compound([((0, 0), c2.Circle(1))]))])
    assert len(c2.Compound(((c2.Transform(), c2.Circle(1)),)).children) == 1  # any sequence
    with pytest.raises(c2.ArrayTypeError):
        c2.Compound(None)


# ---- integers -------------------------------------------------------------------------

INTEGER_ARGUMENTS = {
    "insert.user_data": lambda w, h, v: w.insert(c2.Circle(1), (0, 0), user_data=v),
    "insert.groups": lambda w, h, v: w.insert(c2.Circle(1), (0, 0), groups=(v, 1)),
    "insert_many.user_data": lambda w, h, v: w.insert_many(c2.Circle(1), [[0, 0], [1, 0]], user_data=v),
    "set_user_data": lambda w, h, v: w.set_user_data(h, v),
    "set_groups.category": lambda w, h, v: w.set_groups(h, v, 1),
    "set_groups.mask": lambda w, h, v: w.set_groups(h, 1, v),
    "Polygon.regular.sides": lambda w, h, v: c2.Polygon.regular(v, 1.0),
    "move_and_slide.max_iterations": lambda w, h, v: w.move_and_slide(h, (1, 0), max_iterations=v),
    "set_tile.map": lambda w, h, v: w.set_tile(v, 0, 0, True),
    "set_tile.x": lambda w, h, v: w.set_tile(0, v, 0, True),
    "set_tile.y": lambda w, h, v: w.set_tile(0, 0, v, True),
    "tile_map_handles.map": lambda w, h, v: w.tile_map_handles(v),
    "overlap_points.threads": lambda w, h, v: w.overlap_points([[0, 0]], threads=v),
    "overlap_aabbs.threads": lambda w, h, v: w.overlap_aabbs([[0, 0]], [[1, 1]], threads=v),
    "ray_cast_many.threads": lambda w, h, v: w.ray_cast_many([[0, 0]], [[1, 0]], threads=v),
}

HANDLE_ARGUMENTS = {
    name: call
    for name, call in {
        "remove": lambda w, v: w.remove(v),
        "transform": lambda w, v: w.transform(v),
        "shape": lambda w, v: w.shape(v),
        "aabb": lambda w, v: w.aabb(v),
        "user_data": lambda w, v: w.user_data(v),
        "layer": lambda w, v: w.layer(v),
        "is_sensor": lambda w, v: w.is_sensor(v),
        "is_enabled": lambda w, v: w.is_enabled(v),
        "set_transform": lambda w, v: w.set_transform(v, (0, 0)),
        "set_sensor": lambda w, v: w.set_sensor(v, True),
        "set_enabled": lambda w, v: w.set_enabled(v, True),
        "set_user_data": lambda w, v: w.set_user_data(v, 1),
        "set_layer": lambda w, v: w.set_layer(v, "default"),
        "set_groups": lambda w, v: w.set_groups(v, 1, 1),
        "groups": lambda w, v: w.groups(v),
        "set_offset": lambda w, v: w.set_offset(v, (0, 0)),
        "set_shape": lambda w, v: w.set_shape(v, c2.Circle(1)),
        "contacts_of": lambda w, v: w.contacts_of(v),
        "is_touching": lambda w, v: w.is_touching(v),
        "move_and_slide": lambda w, v: w.move_and_slide(v, (1, 0)),
        "remove_many": lambda w, v: w.remove_many([v]),
        "set_transforms": lambda w, v: w.set_transforms([v], [[0, 0]]),
    }.items()
}


def tile_world():
    world, ball, _, _ = small_world()
    world.insert_tile_map([[1, 0], [0, 1]], 1.0, (10, 10))
    return world, ball


@pytest.mark.parametrize("value", [-1, 2**64, 2**70, -(2**63)], ids=str)
@pytest.mark.parametrize("name", sorted(INTEGER_ARGUMENTS))
def test_integers_out_of_range_raise_invalid_input_not_overflow_error(name, value):
    """Out-of-range integers raised PyO3's OverflowError (`user_data=-1`,
    `Polygon.regular(-1, 1.0)`, `threads=2**64`); now InvalidInput naming the range."""
    world, ball = tile_world()
    with pytest.raises(c2.InvalidInput, match="out of range") as info:
        INTEGER_ARGUMENTS[name](world, ball, value)
    assert isinstance(info.value, ValueError) and not isinstance(info.value, OverflowError)


@pytest.mark.parametrize("name", sorted(INTEGER_ARGUMENTS))
def test_integer_arguments_refuse_non_integers_with_type_error(name):
    world, ball = tile_world()
    for value in (1.5, "1"):
        with pytest.raises(TypeError):
            INTEGER_ARGUMENTS[name](world, ball, value)


@pytest.mark.parametrize("name", sorted(HANDLE_ARGUMENTS))
def test_stale_foreign_and_forged_handles_raise_stale_handle(name):
    world, ball, box, _ = small_world()
    other = c2.World()
    foreign = [other.insert(c2.Circle(1), (0, 0)) for _ in range(6)][-1]
    removed = world.insert(c2.Circle(1), (9, 9))
    world.remove(removed)
    before = (len(world), world.handles().tolist(), world.transform(ball))
    for value in (removed, foreign, 12345, 2**32 + ball, 2**64 - 1, -1, 2**64, 2**100):
        if name in ("remove_many", "set_transforms") and not 0 <= value < 2**64:
            with pytest.raises((c2.InvalidInput, c2.ArrayTypeError)):  # an integer array can't hold it
                HANDLE_ARGUMENTS[name](world, value)
            continue
        with pytest.raises(c2.StaleHandle) as info:
            HANDLE_ARGUMENTS[name](world, value)
        assert isinstance(info.value, KeyError) and "handle" in str(info.value)
    assert (len(world), world.handles().tolist(), world.transform(ball)) == before
    with pytest.raises(TypeError):
        HANDLE_ARGUMENTS[name](world, None)


def test_handles_by_keyword_and_in():
    """The handle keyword is `handle`, as the stubs say (it was `handle_bits`)."""
    world, ball, box, _ = small_world()
    assert world.transform(handle=ball) == c2.Transform(0, 0)
    world.set_user_data(handle=ball, user_data=2**64 - 1)
    assert world.user_data(handle=ball) == 2**64 - 1
    assert ball in world and np.uint64(ball) in world and np.int64(box) in world
    for value in (-1, 2**64, 2**100, 12345, 2**64 - 1):
        assert value not in world
    assert "0" not in world  # not a handle: False, as for any container
    world.remove(handle=ball)
    assert ball not in world
    with pytest.raises(c2.StaleHandle):
        world.remove(ball)  # removing twice


def test_removing_twice_and_stale_in_batches():
    world, ball, box, _ = small_world()
    world.remove_many([ball])
    with pytest.raises(c2.StaleHandle):
        world.remove_many([ball])
    with pytest.raises(c2.StaleHandle):
        world.remove_many([box, box])  # the same handle twice in one batch
    assert box in world  # all or nothing
    with pytest.raises(c2.InvalidInput, match="negative"):
        world.remove_many([-1])
    assert box in world


def test_handle_lists_refuse_floats_strings_and_booleans():
    """remove_many([1.5]) removed collider 1 (numpy cast 1.5 to uint64), and ["1"] was parsed."""
    world, ball, box, _ = small_world()
    for bad in ([float(box) + 0.5], [float(box)], [str(box)], [True], [None], [[box]]):
        with pytest.raises((c2.ArrayTypeError, c2.InvalidInput)):
            world.remove_many(bad)
        with pytest.raises((c2.ArrayTypeError, c2.InvalidInput)):
            world.set_transforms(bad, [[0, 0]])
    assert box in world and len(world) == 4
    with pytest.raises(TypeError):
        world.overlap_point((0, 0), exclude=[float(box)])
    assert world.overlap_point((3, 0), exclude=[np.uint64(box)]) == []


def test_layers_that_do_not_exist():
    world, ball, _, _ = small_world()
    for call in (
        lambda: world.insert(c2.Circle(1), layer="nope"),
        lambda: world.insert_many(c2.Circle(1), [[0, 0]], layer="nope"),
        lambda: world.set_layer(ball, "nope"),
        lambda: world.overlap_point((0, 0), layers=["nope"]),
        lambda: world.overlap_points([[0, 0]], layers=["default", "nope"]),
        lambda: world.ray_cast_many([[0, 0]], [[1, 0]], layers=["nope"]),
        lambda: world.set_layers_collide("default", "nope", True),
        lambda: world.layers_collide("nope", "default"),
        lambda: world.collide_only("default", ["nope"]),
        lambda: world.move_and_slide(ball, (1, 0), layers=[""]),
    ):
        with pytest.raises(c2.UnknownLayer) as info:
            call()
        assert isinstance(info.value, KeyError) and "nope" in str(info.value) or "layer" in str(info.value)
    with pytest.raises(TypeError):
        world.overlap_point((0, 0), layers="default")  # a list of names, not one name
    with pytest.raises(c2.InvalidInput):
        world.add_layer("walls")  # a name twice
    for i in range(c2.MAX_LAYERS - 2):
        world.add_layer(f"layer{i}")
    with pytest.raises(c2.InvalidInput):
        world.add_layer("one too many")
    assert len(world.layer_names) == c2.MAX_LAYERS


# ---- arrays -----------------------------------------------------------------------------

BASE = np.array([[0.0, 0.0], [3.0, 0.1], [6.0, 0.2]])


def layouts(base):
    """The same values in every layout, byte order and container a caller may pass."""
    wide = np.zeros((base.shape[0], 4))
    wide[:, ::2] = base
    reversed_copy = np.ascontiguousarray(base[::-1])
    read_only = base.copy()
    read_only.setflags(write=False)
    misaligned = np.frombuffer(bytearray(base.nbytes + 1), dtype=np.float64, offset=1, count=base.size).reshape(base.shape)
    misaligned[...] = base
    return {
        "float32": base.astype(np.float32),
        "fortran": np.asfortranarray(base),
        "strided": wide[:, ::2],
        "negative stride": reversed_copy[::-1],
        "big-endian": base.astype(">f8"),
        "big-endian float32": base.astype(">f4"),
        "read-only": read_only,
        "misaligned": misaligned,
        "list": base.tolist(),
        "tuple": tuple(map(tuple, base)),
        "int list": base.round().astype(int).tolist() if (base == base.round()).all() else base.tolist(),
    }


def point_calls(world):
    return {
        "contains_points": lambda a: c2.Circle(1.5).contains_points(a, (1, 0)).tolist(),
        "overlap_points": lambda a: [x.tolist() for x in world.overlap_points(a, sensors=True)],
        "overlap_aabbs": lambda a: [x.tolist() for x in world.overlap_aabbs(a, np.asarray(BASE) + 1)],
        "ray_cast_many": lambda a: world.ray_cast_many(a, np.ones((3, 2))).distance.tolist(),
        "ray_cast_many.directions": lambda a: world.ray_cast_many(np.zeros((3, 2)) - 5, a).distance.tolist(),
        "Polygon": lambda a: c2.Polygon(a).vertices,
        "Polygon.hull": lambda a: c2.Polygon.hull(a).vertices,
        "Chain.open": lambda a: c2.Chain.open(a).vertices,
        "insert_many": lambda a: (lambda w: [w.transform(int(h)).position for h in w.insert_many(c2.Circle(1), a)])(c2.World()),
    }


@pytest.mark.parametrize("layout", sorted(layouts(BASE)))
def test_every_layout_gives_the_answers_of_a_c_contiguous_float64_array(layout):
    world, *_ = small_world()
    outline = np.array([[0.0, 0.0], [3.0, 0.0], [1.0, 2.0]])
    for name, call in point_calls(world).items():
        base = {"Polygon": outline, "Polygon.hull": outline, "ray_cast_many.directions": BASE + 1}.get(name, BASE)
        assert call(layouts(base)[layout]) == call(base), (name, layout)


BAD_ARRAYS = {
    "int64 array": (np.zeros((3, 2), dtype=np.int64), c2.ArrayTypeError),
    "object array": (BASE.astype(object), c2.ArrayTypeError),
    "float16 array": (BASE.astype(np.float16), c2.ArrayTypeError),
    "complex array": (BASE.astype(np.complex128), c2.ArrayTypeError),
    "bool array": (BASE.astype(bool), c2.ArrayTypeError),
    "strings": ([["1", "2"], ["3", "4"], ["5", "6"]], c2.ArrayTypeError),
    "None": (None, c2.ArrayTypeError),
    "None inside": ([[0, None], [1, 1], [2, 2]], c2.ArrayTypeError),
    "str": ("abc", c2.ArrayTypeError),
    "dict": ({}, c2.ArrayTypeError),
    "ragged": ([[0, 0], [1]], c2.ArrayTypeError),
    "0-d": (np.array(1.0), c2.InvalidInput),
    "1-d": (np.zeros(6), c2.InvalidInput),
    "3-d": (np.zeros((1, 3, 2)), c2.InvalidInput),
    "(n, 3)": (np.zeros((3, 3)), c2.InvalidInput),
    "(n, 1)": (np.zeros((3, 1)), c2.InvalidInput),
    "nan": (np.array([[0.0, 0.0], [NAN, 0.0], [1.0, 1.0]]), c2.InvalidInput),
    "inf": (np.array([[0.0, 0.0], [1.0, -INF], [1.0, 1.0]]), c2.InvalidInput),
    "beyond float32": ([[0.0, 0.0], [1e300, 0.0], [1.0, 1.0]], c2.InvalidInput),
    "integer beyond float": ([[0, 0], [10**400, 0], [1, 1]], c2.InvalidInput),
    "integer beyond float, with floats": ([[0.5, 0], [0, -(10**400)], [1, 1]], c2.InvalidInput),
    "None among huge integers": ([[0, 0], [10**400, None], [1, 1]], c2.ArrayTypeError),
    "bool among huge integers": ([[0, 0], [10**400, True], [1, 1]], c2.ArrayTypeError),
}


@pytest.mark.parametrize("bad", sorted(BAD_ARRAYS))
def test_every_points_argument_refuses_bad_arrays(bad):
    """Lists of strings were parsed by numpy ([['1', '2']] was a point), None became NaN."""
    world, *_ = small_world()
    array, error = BAD_ARRAYS[bad]
    calls = point_calls(world)
    calls["set_transforms"] = lambda a: world.set_transforms(world.handles()[:3], a)
    for name, call in calls.items():
        with pytest.raises(error) as info:
            call(array)
        assert str(info.value), name
        if bad in ("nan", "inf", "beyond float32", "integer beyond float", "integer beyond float, with floats"):
            assert "row 1" in str(info.value), name


def test_scalar_arrays_take_one_number_in_any_form():
    world, ball, box, hero = small_world()
    handles = np.array([ball, box, hero], dtype=np.uint64)
    rays = np.zeros((3, 2)) - 5, np.ones((3, 2))
    expected = world.ray_cast_many(*rays, 7.0).distance.tolist()
    for one in (7, 7.0, np.float32(7), np.float64(7), np.array(7.0), np.array(7.0, dtype=np.float32), [7, 7, 7], np.full(3, 7.0, dtype=">f8")):
        assert world.ray_cast_many(*rays, one).distance.tolist() == expected
    for bad, error in ((["7", "7", "7"], c2.ArrayTypeError), (np.full(3, 7, dtype=np.int32), c2.ArrayTypeError), (np.array(7, dtype=np.int64), c2.ArrayTypeError), (np.ones((3, 1)), c2.InvalidInput), ([NAN, 1, 1], c2.InvalidInput)):
        with pytest.raises(error):
            world.ray_cast_many(*rays, bad)
        with pytest.raises(error):
            world.set_transforms(handles, np.zeros((3, 2)), bad)


def test_empty_batches():
    world, *_ = small_world()
    for empty in ([], np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2), dtype=np.float32)):
        assert [x.size for x in world.overlap_points(empty)] == [0, 0]
        assert world.ray_cast_many(empty, empty).hit.shape == (0,)
        assert world.overlap_aabbs(empty, empty)[0].size == 0
        assert world.insert_many(c2.Circle(1), empty).size == 0
        assert c2.Circle(1).contains_points(empty).shape == (0,)
        world.set_transforms([], empty)
        world.remove_many([])
    with pytest.raises(c2.InvalidInput):
        c2.Polygon([])


def test_batches_beyond_max_rows_raise_before_allocating():
    """A broadcast view of 10**9 rows (16 bytes of data) aborted the process on an 8 GB
    allocation."""
    world, ball, *_ = small_world()
    huge = np.broadcast_to(np.array([1.0, 0.5]), (10**9, 2))
    handles = np.broadcast_to(np.uint64(ball), (10**9,))
    for call in (
        lambda: world.ray_cast_many(huge, huge),
        lambda: world.overlap_points(huge),
        lambda: world.overlap_aabbs(huge, huge),
        lambda: world.set_transforms(handles, huge),
        lambda: world.remove_many(handles),
        lambda: world.insert_many(c2.Circle(1), huge),
        lambda: c2.Circle(1).contains_points(huge),
        lambda: c2.Polygon.hull(huge),
        lambda: c2.Chain.open(huge),
        lambda: world.insert_tile_map(np.broadcast_to(np.uint8(1), (2**15, 2**14 + 1)), 1.0),
    ):
        with pytest.raises(c2.InvalidInput, match="more than"):
            call()
    assert len(world) == 4 and world.transform(ball) == c2.Transform(0, 0)


def test_a_million_rays_in_one_batch(rng):
    world, *_ = small_world()
    n = 1_000_000
    origins = rng.uniform(-10, 10, (n, 2))
    theta = rng.uniform(-np.pi, np.pi, n)
    hits = world.ray_cast_many(origins, np.c_[np.cos(theta), np.sin(theta)], 20.0, threads=1)
    assert hits.hit.shape == (n,) and hits.point.shape == (n, 2) and 0 < hits.hit.sum() < n
    assert np.isfinite(hits.distance[hits.hit]).all() and not np.isnan(hits.normal).any()


def test_more_threads_than_cores_give_the_same_answers_at_once(rng):
    """threads=100000 hung in ray_cast_many (a rayon pool of that many threads)."""
    world, *_ = small_world()
    origins = rng.uniform(-10, 10, (5000, 2))
    directions = rng.normal(size=(5000, 2))
    one = world.ray_cast_many(origins, directions, 30.0, threads=1)
    for threads in (3, 100_000, 2**64 - 1):
        many = world.ray_cast_many(origins, directions, 30.0, threads=threads)
        assert many.distance.tobytes() == one.distance.tobytes() and many.handle.tolist() == one.handle.tolist()
        rows = world.overlap_points(origins, threads=threads)
        assert [r.tolist() for r in rows] == [r.tolist() for r in world.overlap_points(origins)]
    with pytest.raises(c2.InvalidInput, match="threads"):
        world.ray_cast_many(origins, directions, threads=0)


def test_tile_maps_refuse_nan_cells_and_wrong_arrays():
    """A NaN cell was solid (NaN != 0)."""
    world = c2.World()
    with pytest.raises(c2.InvalidInput, match="NaN"):
        world.insert_tile_map(np.array([[1.0, NAN]]), 1.0)
    for bad, error in (
        (np.ones(3), c2.InvalidInput),
        (np.ones((2, 2, 2)), c2.InvalidInput),
        (np.array(1.0), c2.InvalidInput),
        (np.zeros((0, 3)), c2.InvalidInput),
        ([["a", "b"]], c2.ArrayTypeError),
        (None, c2.ArrayTypeError),
        (np.ones((2, 2), dtype=object), c2.ArrayTypeError),
    ):
        with pytest.raises(error):
            world.insert_tile_map(bad, 1.0)
    assert len(world) == 0
    cells = np.array([[1, 1, 0], [0, 1, 0]])
    answers = []
    for tiles in (cells, cells.astype(bool), cells.astype(np.float32), np.asfortranarray(cells.astype(">f8")), cells.tolist()):
        other = c2.World()
        index = other.insert_tile_map(tiles, 0.5, (1e5, -1e5), rectangles=True)
        answers.append(sorted(other.aabb(int(h)) for h in other.tile_map_handles(index)))
    assert all(a == answers[0] for a in answers) and len(answers[0]) >= 1
    index = world.insert_tile_map(cells, 1.0)
    with pytest.raises(c2.InvalidInput, match="outside"):
        world.set_tile(index, 3, 0, True)
    with pytest.raises(c2.InvalidInput, match="no tile map"):
        world.set_tile(index + 1, 0, 0, True)


# ---- exact answers -----------------------------------------------------------------------


@pytest.mark.parametrize("offset", [0.0, 1e5, -1e5])
def test_touching_resting_parallel_and_far_cases_against_hand_computation(offset):
    """Every expected value below is exact in float32 at these offsets (1e5 is a multiple of
    float32's spacing there, 2**-7), so the comparisons are exact."""
    o = offset
    # Touching circles (radius 1, centres 2 apart): one point midway, depth 0, normal +x.
    m = c2.collide(c2.Circle(1), (o, o), c2.Circle(1), (o + 2, o))
    assert m and m.normal == (1.0, 0.0) and [(p.point, p.penetration) for p in m.points] == [((o + 1, o), 0.0)]
    assert c2.overlaps(c2.Circle(1), (o, o), c2.Circle(1), (o + 2, o))
    d = c2.distance(c2.Circle(1), (o, o), c2.Circle(1), (o + 2, o))
    assert (d.distance, d.point_a, d.point_b) == (0.0, (o + 1, o), (o + 1, o))
    # Resting boxes (2 x 2, one on the other, shifted by 0.5): two points on y = o + 1, depth 0.
    m = c2.collide(c2.Polygon.rect(2, 2), (o, o), c2.Polygon.rect(2, 2), (o + 0.5, o + 2))
    assert m.normal == (0.0, 1.0) and len(m) == 2
    assert sorted(p.point for p in m.points) == [(o - 0.5, o + 1), (o + 1, o + 1)]
    assert all(p.penetration == 0.0 for p in m.points)
    # Parallel faces 1 apart.
    d = c2.distance(c2.Polygon.rect(2, 2), (o, o), c2.Polygon.rect(2, 2), (o + 0.5, o + 3))
    assert d.distance == 1.0 and d.normal == (0.0, 1.0) and d.point_b[1] - d.point_a[1] == 1.0
    # A ray along a box's top face (grazing), through its centre, and tangent to a circle.
    box = c2.Polygon.rect(2, 2)
    for origin_y, point in ((o + 1, (o - 1, o + 1)), (o, (o - 1, o))):
        hit = box.ray_cast((o - 5, origin_y), (1, 0), transform=(o, o))
        assert (hit.distance, hit.point, hit.normal) == (4.0, point, (-1.0, 0.0))
    hit = c2.Circle(1).ray_cast((o - 5, o + 1), (1, 0), transform=(o, o))
    assert (hit.distance, hit.point, hit.normal) == (5.0, (o, o + 1), (0.0, 1.0))
    # The library's documented example (`Ray::new`): a 1 x 10 wall at x = 5, hit at 4.5.
    hit = c2.ray_cast(c2.Polygon.rect(1, 10), (o + 5, o), (o, o), (3, 0), 100)
    assert (hit.distance, hit.normal) == (4.5, (-1.0, 0.0))
    # Casts: a box 4 from another box's face, moving 10: the fraction is 0.4.
    cast = c2.shape_cast(c2.Polygon.rect(2, 2), (o, o), (10, 0), c2.Polygon.rect(2, 2), (o + 6, o))
    assert cast.fraction == pytest.approx(0.4, abs=1e-6) and cast.normal == (1.0, 0.0)
    cast = c2.shape_cast(c2.Circle(1), (o, o), (0, -10), c2.Segment((-5, 0), (5, 0)), (o, o - 3))
    assert cast.fraction == pytest.approx(0.2, abs=1e-6) and cast.normal == (0.0, -1.0) and cast.point == (o, o - 3)
    # Boundaries count as inside.
    assert box.contains((o + 1, o), (o, o)) and c2.Circle(1).contains((o, o + 1), (o, o))
    assert box.project_point((o + 3, o + 0.5), (o, o)) == ((o + 1, o + 0.5), False)
    # The same through a world: touching boxes begin, the ray and the batch agree bit for bit.
    world = c2.World()
    a = world.insert(c2.Polygon.rect(2, 2), (o, o))
    b = world.insert(c2.Polygon.rect(2, 2), (o + 2, o))
    assert world.update().began_pairs.tolist() == [[a, b]]
    assert world.overlap_point((o + 1, o)) == [a, b]
    hit = world.ray_cast((o - 5, o), (1, 0))
    assert (hit.distance, hit.point, hit.normal, hit.handle) == (4.0, (o - 1, o), (-1.0, 0.0), a)
    many = world.ray_cast_many([[o - 5, o]], [[1, 0]])
    assert (many.distance[0], tuple(many.point[0]), tuple(many.normal[0]), many.handle[0]) == (4.0, (o - 1, o), (-1.0, 0.0), a)


@pytest.mark.parametrize("offset", [0.0, 1e5])
@pytest.mark.parametrize("threads", [1, 2, None])
def test_ray_cast_many_equals_a_loop_of_ray_cast_bit_for_bit(rng, offset, threads):
    world = c2.World()
    kinds = [c2.Circle(0.6), c2.Polygon.rect(1.5, 0.7), c2.Capsule((0, -0.5), (0, 0.5), 0.3), c2.Polygon.regular(6, 0.8, radius=0.05)]
    for i, position in enumerate(rng.uniform(-20, 20, (300, 2)) + offset):
        world.insert(kinds[i % 4], c2.Transform(*position, rng.uniform(-3, 3)))
    world.insert(c2.Polygon.rect(10, 1), (offset, offset))  # faces parallel to the axis rays
    n = 3000
    origins = rng.uniform(-25, 25, (n, 2)) + offset
    directions = rng.normal(size=(n, 2))
    directions[:200] = [1.0, 0.0]  # axis-parallel rays, grazing faces
    origins[:100, 1] = offset + 0.5
    max_distance = rng.uniform(0, 40, n)
    batch = world.ray_cast_many(origins, directions, max_distance, threads=threads)
    for i in range(n):
        single = world.ray_cast(origins[i], directions[i], max_distance[i])
        if single is None:
            assert not batch.hit[i] and batch.handle[i] == c2.NO_HANDLE and batch.distance[i] == np.inf
        else:
            assert batch.hit[i] and batch.handle[i] == single.handle
            assert np.float32(single.distance).tobytes() == batch.distance[i].tobytes()
            assert tuple(batch.point[i]) == single.point and tuple(batch.normal[i]) == single.normal
    assert 0 < batch.hit.sum() < n


@pytest.mark.parametrize("magnitude", [4e9, 1e12, 1e20, 3e38], ids=str)
def test_ray_batches_from_far_origins_end_and_equal_single_rays(rng, magnitude):
    """ray_cast_many([[-3e38, 0]], [[1, 0]]) never returned (the batch grid's march stood
    still), and from 1e12 sixty rays took 30 s; each is now one short march."""
    world = c2.World()
    world.insert_many(c2.Circle(0.5), rng.uniform(0, 60, (400, 2)))
    angles = np.linspace(0, 2 * np.pi, 60, endpoint=False)
    towards = np.c_[np.cos(angles), np.sin(angles)]
    origins = np.vstack([30 - towards * magnitude, np.c_[np.full(60, -magnitude), np.arange(60) * 5.0 - 100]])
    directions = np.vstack([towards, np.tile([1.0, 0.0], (60, 1))])
    batch = world.ray_cast_many(origins, directions, threads=1)
    for i in range(len(origins)):
        single = world.ray_cast(origins[i], directions[i])
        assert (single is None) == (not batch.hit[i])
        if single is not None:
            assert (batch.distance[i], batch.handle[i]) == (np.float32(single.distance), single.handle)
    assert 0 < batch.hit.sum() < len(origins)


# ---- snapshots and pickling ----------------------------------------------------------------


def test_corrupt_snapshots_raise_invalid_input(rng):
    world, ball, box, hero = small_world()
    world.insert(c2.Compound.from_concave([(0, 0), (4, 0), (4, 4), (3, 4), (3, 1), (0, 1)]), (8, 8))
    world.insert(c2.Chain.open([(0, 0), (1, 0), (2, 1)]), (1, 1), one_way=((0, 1), 0.1))
    world.remove(ball)
    world.update()
    data = world.snapshot()
    for bad in (b"", b"{}", b"null", b"[]", b"\x00\xff\xfe", data[:-1], data + b"x", data[: len(data) // 2]):
        with pytest.raises(c2.InvalidInput, match="snapshot"):
            c2.World.restore(bad)
    for bad in ("text", None, 3):
        with pytest.raises(TypeError):
            c2.World.restore(bad)
    # Changed values inside a well-formed snapshot: refused, or a world that answers sanely.
    document = json.loads(data)
    leaves = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, path + (key,))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, path + (index,))
        else:
            leaves.append((path, node))

    walk(document, ())
    replacements = [None, -1, 0, 1, 2**32, 2**64 - 1, 1e300, -1e30, 0.5, "x", [], {}, True, 1e9, 3e38]
    restored = 0
    for _ in range(300):
        changed = json.loads(data)
        for _ in range(int(rng.integers(1, 4))):
            path, _ = leaves[int(rng.integers(len(leaves)))]
            node = changed
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = replacements[int(rng.integers(len(replacements)))]
        try:
            other = c2.World.restore(json.dumps(changed).encode())
        except c2.Collide2dError:
            continue
        restored += 1
        other.update()
        hits = other.ray_cast_many(rng.uniform(-5, 15, (50, 2)), rng.normal(size=(50, 2)), 30.0, sensors=True)
        assert no_nan(hits.distance[hits.hit]) and no_nan(hits.point)
        other.overlap_points(rng.uniform(-5, 15, (50, 2)), sensors=True)
        for handle in other.handles():
            assert no_nan(other.aabb(int(handle)))
        pickle.loads(pickle.dumps(other))
    assert restored > 0


def test_pickling_round_trips():
    world, ball, box, hero = small_world()
    again = pickle.loads(pickle.dumps(world))
    assert again.handles().tolist() == world.handles().tolist()
    assert again.contact_pairs().tolist() == world.contact_pairs().tolist()
    assert [again.transform(int(h)) for h in again.handles()] == [world.transform(int(h)) for h in world.handles()]
    assert again.layer(box) == "walls" and again.user_data(ball) == 1
    xf = c2.Transform(1e5, -1e5, 3.0)
    assert pickle.loads(pickle.dumps(xf)) == xf


def test_worlds_with_thin_polygons_pickle_and_restore(rng):
    """A world holding Polygon.rect(1, 1e-6) could not restore its own snapshot (the polygon
    was re-built through the welding constructor, which refused it), so it did not pickle."""
    world = c2.World()
    shapes = [c2.Polygon.rect(1, 1e-6), c2.Polygon.rect(1e9, 1e-3), c2.Polygon.rect(1, 1e-6, radius=0.1)]
    shapes += [c2.Polygon.rect(10 ** rng.uniform(-3, 8), 10 ** rng.uniform(-6, 0)) for _ in range(50)]
    for i, shape in enumerate(shapes):
        world.insert(shape, (float(i), 0.0, float(i)))
    world.update()
    again = pickle.loads(pickle.dumps(world))
    assert [repr(again.shape(int(h))) for h in again.handles()] == [repr(s) for s in shapes]
    assert [again.shape(int(h)).vertices for h in again.handles()] == [s.vertices for s in shapes]
    assert again.contact_pairs().tolist() == world.contact_pairs().tolist()


# ---- mutation while iterating, and threads -------------------------------------------------


def test_mutating_the_world_while_iterating_its_results():
    world, ball, box, hero = small_world()
    world.set_transform(ball, (2.0, 0))
    events = world.update()
    began = events.began
    for event in world.events().began:  # the lists are copies: removing does not disturb them
        if event.a in world:
            world.remove(event.a)
    assert [e.a for e in events.began] == [e.a for e in began]
    for handle in world.handles():
        world.remove(int(handle))
    assert len(world) == 0 and world.overlap_points([[0, 0]])[0].size == 0
    ended = world.update().ended
    assert len(ended) >= 1 and all(e.reason == "removed" for e in ended)
    assert all(no_nan(e.manifold.normal) for e in began if e.manifold)


def test_a_world_shared_with_another_thread_raises_clearly_and_stays_whole(rng):
    """While a batch call runs with the GIL released, a call from another thread on the same
    world raises RuntimeError ("Already borrowed"), as the World docs say, and changes
    nothing; no crash, and the world answers as before afterwards."""
    world = c2.World()
    handles = world.insert_many(c2.Circle(0.5), rng.uniform(0, 100, (2000, 2)))
    world.update()
    origins = rng.uniform(0, 100, (100_000, 2))
    directions = rng.normal(size=(100_000, 2))
    seen = {"refused": 0}
    stop = threading.Event()
    failures = []

    def mutate():
        step = 0
        local = np.random.default_rng(5)
        while not stop.is_set():
            try:
                if step % 3 == 0:
                    world.set_transforms(handles, local.uniform(0, 100, (2000, 2)))
                elif step % 3 == 1:
                    world.update()
                else:
                    world.remove(world.insert(c2.Circle(1), (5, 5)))
            except RuntimeError as error:
                if "borrowed" not in str(error):
                    failures.append(error)
                seen["refused"] += 1
            except BaseException as error:  # anything else is a failure of the test
                failures.append(error)
            step += 1

    thread = threading.Thread(target=mutate)
    thread.start()
    try:
        for _ in range(15):
            for call in (
                lambda: world.ray_cast_many(origins, directions, 10.0, threads=2),
                lambda: world.overlap_points(origins, threads=2),
                lambda: world.update(),
            ):
                try:
                    call()
                except RuntimeError as error:
                    assert "borrowed" in str(error)
    finally:
        stop.set()
        thread.join()
    assert failures == []
    assert len(world) == 2000 and set(world.handles().tolist()) == set(handles.tolist())
    batch = world.ray_cast_many(origins[:500], directions[:500], 10.0)
    for i in range(500):
        single = world.ray_cast(origins[i], directions[i], 10.0)
        assert (single is None) == (not batch.hit[i])


# ---- the surface ---------------------------------------------------------------------------


def test_results_print_as_python_values():
    """World.ray_cast's repr said handle=Some(0) and MoveResult's on_floor=true."""
    world, ball, box, hero = small_world()
    assert "handle=0)" in repr(world.ray_cast((-2, 0), (1, 0)))
    assert "handle=None)" in repr(c2.Circle(1).ray_cast((-2, 0), (1, 0)))
    assert "handle=" in repr(world.shape_cast(c2.Circle(0.2), (-2, 0), (3, 0))) and "Some" not in repr(world.shape_cast(c2.Circle(0.2), (-2, 0), (3, 0)))
    text = repr(world.move_and_slide(hero, (0.5, -0.5)))
    assert "true" not in text and "false" not in text and ("True" in text or "False" in text)
    event = c2.World()
    event.insert(c2.Circle(1), (0, 0))
    event.insert(c2.Circle(1), (1, 0), sensor=True)
    assert "sensor=True" in repr(event.update().began[0])


STUB = ast.parse((pathlib.Path(c2.__file__).parent / "__init__.pyi").read_text())


def stub_functions():
    for node in STUB.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, getattr(c2, node.name), node
        if isinstance(node, ast.ClassDef):
            cls = getattr(c2, node.name)
            for item in node.body:
                is_property = any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list) if isinstance(item, ast.FunctionDef) else True
                if isinstance(item, ast.FunctionDef) and not is_property and not item.name.startswith("__"):
                    yield f"{node.name}.{item.name}", getattr(cls, item.name), item
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    yield f"{node.name}()", cls, item


def test_stub_parameter_names_and_defaults_match_the_module():
    """The stubs said `handle` where the module took `handle_bits`: a keyword call failed."""
    differences = []
    for name, runtime, stub in stub_functions():
        arguments = stub.args
        stub_names = [a.arg for a in arguments.posonlyargs + arguments.args if a.arg not in ("self", "cls")]
        stub_names += ["*"] * bool(arguments.kwonlyargs) + [a.arg for a in arguments.kwonlyargs]
        try:
            signature = inspect.signature(runtime)
        except (TypeError, ValueError):
            continue
        runtime_names = []
        for parameter in signature.parameters.values():
            if parameter.name in ("self", "cls"):
                continue
            if parameter.kind == parameter.KEYWORD_ONLY and "*" not in runtime_names:
                runtime_names.append("*")
            runtime_names.append(parameter.name)
        if stub_names != runtime_names:
            differences.append((name, stub_names, runtime_names))
    assert differences == []
