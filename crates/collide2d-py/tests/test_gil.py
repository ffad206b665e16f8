"""The batch calls release the GIL while they run: another Python thread keeps running."""

import threading

import numpy as np
import pytest

import collide2d as c2


def ticks_while(call):
    """How many times this thread ran a Python loop while `call` ran on another thread. A
    call that holds the GIL throughout lets it run only before and after: a handful."""
    done = threading.Event()
    failure = []

    def run():
        try:
            call()
        except BaseException as error:  # reported below
            failure.append(error)
        finally:
            done.set()

    worker = threading.Thread(target=run)
    ticks = 0
    worker.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.0005)
    worker.join()
    assert failure == []
    return ticks


def world_of(n, rng, update=True):
    world = c2.World()
    handles = world.insert_many(c2.Polygon.rect(0.5, 0.5), rng.uniform(0, 300, (n, 2)))
    if update:
        world.update()
    return world, handles


@pytest.fixture(scope="module")
def shared():
    return world_of(100_000, np.random.default_rng(3))


BATCHES = {
    "overlap_points": lambda w, h, r: w.overlap_points(r.uniform(0, 300, (600_000, 2))),
    "overlap_aabbs": lambda w, h, r: w.overlap_aabbs(*(lambda m: (m, m + 0.1))(r.uniform(0, 300, (400_000, 2)))),
    "ray_cast_many": lambda w, h, r: w.ray_cast_many(r.uniform(0, 300, (100_000, 2)), np.ones((100_000, 2)), 50.0, threads=1),
    "contains_points": lambda w, h, r: c2.Polygon.rect(100, 100).contains_points(r.uniform(0, 300, (3_000_000, 2))),
    "set_transforms": lambda w, h, r: [w.set_transforms(h, r.uniform(0, 300, (len(h), 2))) for _ in range(3)],
    "update": lambda w, h, r: (w.set_transforms(h, r.uniform(0, 300, (len(h), 2))), w.update()),
    "insert_many": lambda w, h, r: c2.World().insert_many(c2.Circle(0.5), r.uniform(0, 300, (300_000, 2))),
}


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_batch_calls_let_other_threads_run(name, shared, rng):
    world, handles = shared
    ticks = ticks_while(lambda: BATCHES[name](world, handles, rng))
    assert ticks >= 20, (name, ticks)


def test_remove_many_lets_other_threads_run(rng):
    """remove_many held the GIL while it removed: another thread ran once or twice during the
    removal of a world's 1,000,000 colliders; it releases it now, as the other batch calls do.
    (A world without contacts: removing colliders that touch costs the library time
    quadratic in their number.)"""
    world, handles = world_of(1_000_000, rng, update=False)
    ticks = ticks_while(lambda: world.remove_many(handles))
    assert ticks >= 20 and len(world) == 0, ticks
