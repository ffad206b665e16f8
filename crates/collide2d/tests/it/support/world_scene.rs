//! The world benchmark's scene, shared by `benches/world.rs` and the `world_profile` tool:
//! mixed circles, boxes, capsules and hexagons about 1 unit across, uniform in a square sized
//! so each collider's box overlaps about 1.5 others. Bodies bounce off the square's sides, so a
//! long run keeps that density.

use super::rng::Rng;
use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, World};
use collide2d::{Transform, Vec2};

/// A world and the bodies that move in it.
pub struct Scene {
    pub world: World,
    /// Each body's collider, position and velocity per frame.
    pub bodies: Vec<(ColliderHandle, Vec2, Vec2)>,
    /// Whether a frame moves its bodies with one `set_transforms` call instead of one
    /// `set_transform` call per body.
    pub batched: bool,
    /// The side of the square the bodies move in (from the origin).
    side: f32,
    moves: Vec<(ColliderHandle, Transform)>,
    rng: Rng,
}

impl Scene {
    /// `count` colliders, updated once.
    pub fn new(count: usize) -> Scene {
        let mut scene = Scene {
            world: World::new(),
            bodies: Vec::with_capacity(count),
            batched: false,
            side: (count as f32 * 1.6).sqrt(),
            moves: Vec::new(),
            rng: Rng(99),
        };
        let side = scene.side;
        for i in 0..count {
            let shape = match i % 4 {
                0 => Shape::from(Circle::with_radius(0.5).unwrap()),
                1 => Shape::from(Polygon::rect(0.9, 0.7).unwrap()),
                2 => Shape::from(
                    Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.25).unwrap(),
                ),
                _ => Shape::from(Polygon::regular(6, 0.5).unwrap()),
            };
            let position = Vec2::new(scene.rng.unit() * side, scene.rng.unit() * side);
            let velocity = Vec2::new(scene.rng.unit() - 0.5, scene.rng.unit() - 0.5) * 0.05;
            let angle = scene.rng.unit() * 6.0;
            let handle = scene
                .world
                .insert(Collider::new(shape).with_transform(Transform::new(position, angle)))
                .unwrap();
            scene.bodies.push((handle, position, velocity));
        }
        scene.world.update();
        scene
    }

    /// Moves every `every`-th body (starting at `offset % every`) a little, bouncing off the
    /// square's sides, then updates; returns the event count.
    pub fn frame(&mut self, every: usize, offset: usize) -> usize {
        self.moves.clear();
        for (handle, position, velocity) in
            self.bodies.iter_mut().skip(offset % every).step_by(every)
        {
            *position += *velocity;
            for axis in 0..2 {
                if position[axis] < 0.0 {
                    position[axis] = -position[axis];
                    velocity[axis] = -velocity[axis];
                } else if position[axis] > self.side {
                    position[axis] = 2.0 * self.side - position[axis];
                    velocity[axis] = -velocity[axis];
                }
            }
            let xf = Transform::new(*position, 0.0);
            if self.batched {
                self.moves.push((*handle, xf));
            } else {
                self.world.set_transform(*handle, xf).unwrap();
            }
        }
        if self.batched {
            self.world.set_transforms(&self.moves).unwrap();
        }
        {
            self.world.update();
            self.world.events().len()
        }
    }
}
