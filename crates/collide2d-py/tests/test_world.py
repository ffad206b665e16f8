import pickle

import numpy as np
import pytest

import collide2d as c2


def three_balls():
    world = c2.World()
    ball = c2.Circle(0.5)
    handles = [world.insert(ball, (x, 0), user_data=i + 1) for i, x in enumerate((-0.8, 0.0, 0.8))]
    return world, handles


def test_insert_update_events_contacts():
    world, (left, middle, right) = three_balls()
    assert len(world) == 3 and left in world
    events = world.update()
    assert [(e.kind, e.a, e.b) for e in events.began] == [("begin", left, middle), ("begin", middle, right)]
    assert events.began[0].user_data == (1, 2)
    assert events.began[0].manifold.normal == pytest.approx((1.0, 0.0))
    assert events.ended == [] and "Events" in repr(events) and "Event" in repr(events.began[0])
    assert events.began_pairs.tolist() == [[left, middle], [middle, right]]
    assert events.began_pairs.dtype == np.uint64 and events.ended_pairs.shape == (0, 2)
    assert world.contact_pairs().tolist() == [[left, middle], [middle, right]]
    assert [(a, b) for a, b, _ in world.contacts()] == [(left, middle), (middle, right)]
    assert len(world.contacts_of(middle)) == 2 and world.is_touching(left)
    assert world.events().began_pairs.tolist() == events.began_pairs.tolist()
    # Move the right ball away: one end.
    world.set_transform(right, c2.Transform(5, 0))
    events = world.update()
    assert events.began == [] and [(e.kind, e.a, e.b, e.reason) for e in events.ended] == [("end", middle, right, "separated")]
    assert not world.is_touching(right)


def test_a_pair_that_changes_kind_ends_then_begins_again():
    world, (left, middle, right) = three_balls()
    world.update()
    world.set_sensor(middle, True)
    events = world.update()
    ended = [(e.a, e.b, e.reason, e.sensor) for e in events.ended]
    assert ended == [(left, middle, "sensor_changed", False), (middle, right, "sensor_changed", False)]
    assert [(e.a, e.b, e.sensor, e.manifold) for e in events.began] == [(left, middle, True, None), (middle, right, True, None)]
    assert world.is_touching(middle) and len(world.contacts_of(middle)) == 2


def test_remove_and_stale_handles():
    world, (left, middle, right) = three_balls()
    world.update()
    world.remove(left)
    assert left not in world and len(world) == 2
    ended = world.update().ended
    assert [(e.a, e.b, e.reason, e.user_data) for e in ended] == [(left, middle, "removed", (1, 2))]
    for call in (
        lambda: world.remove(left),
        lambda: world.set_transform(left, (0, 0)),
        lambda: world.transform(left),
        lambda: world.user_data(left),
        lambda: world.set_user_data(left, 3),
        lambda: world.set_sensor(left, True),
        lambda: world.set_enabled(left, False),
        lambda: world.set_layer(left, "default"),
        lambda: world.set_shape(left, c2.Circle(1)),
        lambda: world.shape(left),
        lambda: world.aabb(left),
        lambda: world.is_touching(left),
        lambda: world.contacts_of(left),
        lambda: world.move_and_slide(left, (1, 0)),
        lambda: world.set_transforms(np.array([middle, left], dtype=np.uint64), np.zeros((2, 2))),
        lambda: world.remove_many([middle, left]),
    ):
        with pytest.raises(c2.StaleHandle) as info:
            call()
        assert isinstance(info.value, KeyError) and "stale" in str(info.value)
    assert middle in world and right in world  # the batch calls were all or nothing
    assert world.transform(middle) == c2.Transform(0, 0)


def test_collider_properties_and_setters():
    world = c2.World()
    world.add_layer("walls")
    h = world.insert(c2.Polygon.rect(1, 1), c2.Transform(1, 2, 0.5), layer="walls", sensor=True, user_data=2**63 + 5)
    assert world.user_data(h) == 2**63 + 5
    assert world.layer(h) == "walls" and world.is_sensor(h) and world.is_enabled(h)
    assert world.transform(h).position == (1.0, 2.0)
    assert isinstance(world.shape(h), c2.Polygon)
    x0, y0, x1, y1 = world.aabb(h)
    assert x0 < 1 < x1 and y0 < 2 < y1
    world.set_sensor(h, False)
    world.set_enabled(h, False)
    world.set_user_data(h, 7)
    world.set_layer(h, "default")
    world.set_shape(h, c2.Circle(1))
    assert not world.is_sensor(h) and not world.is_enabled(h) and world.user_data(h) == 7
    assert world.layer(h) == "default" and isinstance(world.shape(h), c2.Circle)
    assert world.handles().tolist() == [h]
    assert "World" in repr(world)


def test_insert_keywords():
    world = c2.World()
    h = world.insert(c2.Circle(0.5), (0, 0), offset=(1, 0), continuous=True, enabled=True)
    assert world.overlap_point((1.2, 0)) == [h]
    plat = world.insert(c2.Polygon.rect(4, 0.2), (0, -3), one_way=((0, 1), 0.1))
    assert world.ray_cast((0, -1), (0, -1)).handle == plat  # from above: blocked
    assert world.ray_cast((0, -5), (0, 1), 1.5) is None  # from below: passes
    with pytest.raises(c2.InvalidInput):
        world.insert(c2.Circle(1), (0, 0), one_way=((0, 0), 0.1))
    with pytest.raises(c2.InvalidInput):
        world.insert(c2.Circle(1), (0, 0), offset=(float("nan"), 0))
    with pytest.raises(c2.InvalidInput, match="out of range"):
        world.insert(c2.Circle(1), (0, 0), user_data=-1)


def test_groups_and_offset():
    world = c2.World()
    a = world.insert(c2.Circle(1), (0, 0), groups=(0b01, 0b10))
    b = world.insert(c2.Circle(1), (1, 0), groups=(0b01, 0b10))
    c = world.insert(c2.Circle(1), (-1.5, 0), groups=(0b10, 0b01))
    assert world.groups(a) == (1, 2)
    assert world.update().began_pairs.tolist() == [[a, c]]  # a and b share a group but do not mask it
    world.set_groups(b, 0b11, 0b11)
    assert world.update().began_pairs.tolist() == [[a, b]]
    world.set_offset(c, (10, 0))
    assert world.update().ended_pairs.tolist() == [[a, c]]
    assert world.overlap_point((8.5, 0)) == [c]
    with pytest.raises(c2.InvalidInput):
        world.set_offset(c, (float("nan"), 0))
    with pytest.raises(c2.InvalidInput, match="out of range"):
        world.set_groups(c, -1, 0)


def test_layers_and_matrix():
    world = c2.World()
    assert world.add_layer("player") == 1
    world.add_layer("enemy")
    world.add_layer("pickup")
    assert world.layer_names == ["default", "player", "enemy", "pickup"]
    world.set_layers_collide("enemy", "enemy", False)
    assert not world.layers_collide("enemy", "enemy") and world.layers_collide("enemy", "player")
    world.collide_only("pickup", ["player"])
    assert world.layers_collide("pickup", "player") and not world.layers_collide("pickup", "enemy")
    a = world.insert(c2.Circle(1), (0, 0), layer="enemy")
    b = world.insert(c2.Circle(1), (1, 0), layer="enemy")
    p = world.insert(c2.Circle(1), (-1, 0), layer="player")
    assert world.update().began_pairs.tolist() == [[a, p], [b, p]]
    assert world.overlap_point((-0.5, 0), layers=["player"]) == [p]
    assert world.overlap_point((-0.5, 0)) == [a, p]
    assert world.overlap_point((0.5, 0), layers=["enemy"], exclude=[a]) == [b]
    with pytest.raises(c2.UnknownLayer):
        world.insert(c2.Circle(1), layer="nope")
    with pytest.raises(c2.UnknownLayer):
        world.overlap_point((0, 0), layers=["nope"])
    with pytest.raises(c2.InvalidInput):
        world.add_layer("player")
    with pytest.raises(c2.InvalidInput):
        world.add_layer("")
    for i in range(c2.MAX_LAYERS - 4):
        world.add_layer(f"l{i}")
    with pytest.raises(c2.InvalidInput):
        world.add_layer("one too many")


def test_sensors_are_left_out_of_queries_unless_asked():
    world = c2.World()
    s = world.insert(c2.Circle(1), (0, 0), sensor=True)
    assert world.overlap_point((0, 0)) == []
    assert world.overlap_point((0, 0), sensors=True) == [s]
    assert world.ray_cast((-5, 0), (1, 0)) is None
    assert world.ray_cast((-5, 0), (1, 0), sensors=True).handle == s


def test_queries():
    world = c2.World()
    box = world.insert(c2.Polygon.rect(2, 2), (5, 0))
    ball = world.insert(c2.Circle(1), (0, 5))
    assert world.overlap_point((5.5, 0.5)) == [box]
    assert world.overlap_aabb((-1, -1), (10, 1)) == [box]
    assert world.overlap_shape(c2.Circle(1.5), (0, 3)) == [ball]
    hit = world.ray_cast((0, 0), (1, 0))
    assert hit.handle == box and hit.distance == pytest.approx(4.0)
    assert world.ray_cast((0, 0), (1, 0), 3.0) is None
    cast = world.shape_cast(c2.Circle(0.5), (0, 0), (10, 0))
    assert cast.handle == box and cast.fraction == pytest.approx(0.35, abs=1e-4)
    for bad in (
        lambda: world.overlap_point((float("nan"), 0)),
        lambda: world.overlap_aabb((1, 1), (0, 0)),
        lambda: world.ray_cast((0, 0), (0, 0)),
        lambda: world.shape_cast(c2.Circle(1), (0, 0), (float("inf"), 0)),
        lambda: world.overlap_shape(c2.Circle(1), (float("nan"), 0)),
    ):
        with pytest.raises(c2.InvalidInput):
            bad()


def test_move_and_slide():
    world = c2.World()
    world.insert(c2.Polygon.rect(20, 1), (0, 0))
    hero = world.insert(c2.Polygon.rect(1, 1), (0, 1.2))
    result = world.move_and_slide(hero, (1, -1))
    assert result.on_floor and not result.on_wall and not result.on_ceiling
    assert result.moved[0] == pytest.approx(1.0, abs=1e-4)
    assert result.floor_normal == pytest.approx((0.0, 1.0)) and result.floor_collider is not None
    assert result.hits and "MoveResult" in repr(result)
    assert result.recovery == (0.0, 0.0) and result.step == 0.0  # started clear, nothing to step up
    assert world.move_and_slide(hero, (0.5, 0), step_height=0.0, snap_distance=0.0, max_iterations=2, up=(0, 1)).moved[0] > 0
    with pytest.raises(c2.InvalidInput):
        world.move_and_slide(hero, (1, 0), skin=-1.0)
    with pytest.raises(c2.InvalidInput):
        world.move_and_slide(hero, (1, 0), up=(0, 0))



def test_move_and_slide_walks_up_a_slope_under_gravity():
    """Walkable floor absorbs the downward part of a request (`stop_on_slope`, the default): a
    box walking up a 25 degree slope with gravity three times its walk climbs it, and the result
    says how much was absorbed; with `stop_on_slope=False` the same request slides it down."""
    import math

    slope = math.radians(25)
    climbs = {}
    for stop in (True, False):
        world = c2.World()
        world.insert(c2.Polygon.rect(40, 1), (0, 0, slope))  # top face through (0, 0.5 / cos)
        top = 0.5 / math.cos(slope)
        hero = world.insert(c2.Polygon.rect(1, 1), (0, top + 0.5 / math.cos(slope) + 0.3))
        for _ in range(30):
            world.move_and_slide(hero, (0, -0.05), stop_on_slope=stop)  # settle
        start = world.transform(hero).position
        for _ in range(20):
            result = world.move_and_slide(hero, (0.003, -0.009), stop_on_slope=stop)
        climbs[stop] = world.transform(hero).position[0] - start[0]
        if stop:
            assert result.on_floor
            assert result.absorbed[1] < 0 and result.absorbed[0] == pytest.approx(0.0)
            assert result.snap >= 0.0
        else:
            assert result.absorbed == (0.0, 0.0)
    assert climbs[True] > 20 * 0.003 * math.cos(slope) ** 2 * 0.8
    assert climbs[False] < 0


def test_move_and_slide_with_size_scales_the_lengths():
    """`size=` takes the library's defaults scaled to the character's height: a 32-unit
    character in a level measured in pixels steps up a 6-unit ledge (0.2 x 32 = 6.4), which
    the unit-sized defaults (a 0.2 step) refuse."""
    steps = []
    for size in (None, 32.0):
        world = c2.World()
        world.insert(c2.Polygon.rect(400, 10), (0, -5))  # floor, top at y = 0
        world.insert(c2.Polygon.rect(180, 6), (110, 3))  # ledge from x = 20, top at y = 6
        hero = world.insert(c2.Polygon.rect(16, 32), (0, 16.2))
        for _ in range(6):
            result = world.move_and_slide(hero, (5, -0.5), size=size)
        x, y = world.transform(hero).position
        steps.append((x, y))
    (x_unit, y_unit), (x_sized, y_sized) = steps
    assert x_unit < 12.5 and y_unit < 17  # held at the ledge's wall
    assert x_sized > 20 and y_sized > 6 + 16 - 1  # on the ledge
    with pytest.raises(c2.InvalidInput):
        world.move_and_slide(hero, (1, 0), size=0.0)
    with pytest.raises(c2.InvalidInput):
        world.move_and_slide(hero, (1, 0), size=-2.0)

def test_tile_map():
    world = c2.World()
    tiles = np.zeros((3, 10), dtype=np.uint8)
    tiles[0, :] = 1  # a floor, one tile thick
    m = world.insert_tile_map(tiles, 1.0)
    assert len(world.tile_map_handles(m)) == 1
    assert world.ray_cast((5.5, 2), (0, -1)).handle == world.tile_map_handles(m)[0]
    world.set_tile(m, 5, 0, False)  # dig a hole: two regions
    assert len(world.tile_map_handles(m)) == 2
    assert world.ray_cast((5.5, 2), (0, -1)) is None  # through the hole
    assert world.ray_cast((4.5, 2), (0, -1)).handle in world.tile_map_handles(m)
    rects = world.insert_tile_map(tiles, 1.0, origin=(0, 10), rectangles=True)
    assert len(world.tile_map_handles(rects)) == 1
    assert world.overlap_point((5.5, 10.5)) == world.tile_map_handles(rects).tolist()
    with pytest.raises(c2.InvalidInput):
        world.insert_tile_map(np.zeros(5), 1.0)
    with pytest.raises(c2.InvalidInput):
        world.insert_tile_map(tiles, -1.0)
    with pytest.raises(c2.InvalidInput):
        world.set_tile(7, 0, 0, True)


def random_world(rng, n=300):
    world = c2.World()
    world.add_layer("a")
    shapes = [c2.Circle(0.6), c2.Polygon.rect(1, 0.7), c2.Capsule((0, -0.4), (0, 0.4), 0.3)]
    handles = []
    for i in range(n):
        handles.append(
            world.insert(
                shapes[i % 3],
                c2.Transform(*rng.uniform(0, 20, 2), rng.uniform(-3, 3)),
                sensor=bool(i % 5 == 0),
                layer="a" if i % 2 else "default",
                user_data=i,
            )
        )
    return world, np.array(handles, dtype=np.uint64)


def event_tuples(events):
    return [(e.kind, e.a, e.b, e.sensor, e.user_data, e.reason, None if e.manifold is None else (e.manifold.normal, [(p.point, p.penetration) for p in e.manifold.points])) for e in events.began + events.ended]


def test_pickle_round_trip_equals_next_update(rng):
    world, handles = random_world(rng)
    world.update()
    moves = rng.uniform(-0.5, 0.5, (len(handles), 2))
    for step in range(3):
        world.set_transforms(handles, np.array([world.transform(h).position for h in handles]) + moves)
        world.update()
    copy = pickle.loads(pickle.dumps(world))
    restored = c2.World.restore(world.snapshot())
    assert len(copy) == len(world) and copy.layer_names == world.layer_names
    assert copy.contact_pairs().tolist() == world.contact_pairs().tolist()
    next_positions = np.array([world.transform(h).position for h in handles]) + moves
    for w in (world, copy, restored):
        w.set_transforms(handles, next_positions)
    expected = event_tuples(world.update())
    assert expected  # the step changes something
    assert event_tuples(copy.update()) == expected
    assert event_tuples(restored.update()) == expected
    assert copy.contact_pairs().tolist() == world.contact_pairs().tolist()


def test_corrupt_snapshot_raises():
    with pytest.raises(c2.InvalidInput):
        c2.World.restore(b"not json")
    with pytest.raises(c2.InvalidInput):
        c2.World.restore(b"{}")
