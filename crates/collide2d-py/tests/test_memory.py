"""Worlds, their events and their batch results are freed: RSS stays flat over many cycles."""

import os

import numpy as np

import collide2d as c2


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def cycle(rng_positions, shape):
    world = c2.World()
    handles = world.insert_many(shape, rng_positions, sensor=True)
    world.update()
    world.set_transforms(handles, rng_positions[::-1].copy())
    events = world.update()
    _ = events.began, events.ended, events.began_pairs, world.contact_pairs()
    _ = world.ray_cast_many(rng_positions, np.ones_like(rng_positions), 5.0).hit
    _ = world.overlap_points(rng_positions)
    world.remove(int(handles[0]))
    world.update()
    _ = world.snapshot()


def test_no_leak_over_10000_create_update_drop_cycles():
    positions = np.random.default_rng(7).uniform(0, 10, (40, 2))
    shape = c2.Circle(0.8)
    for _ in range(1000):
        cycle(positions, shape)
    warm = rss_bytes()
    for _ in range(10_000):
        cycle(positions, shape)
    after = rss_bytes()
    assert after <= warm * 1.05, f"RSS grew from {warm} to {after} bytes"
