//! A built scene brought to life with simple kinematic motion (building it from a scene file
//! is [`crate::build`]'s part).
//!
//! There is no rigid-body solver. Each frame:
//! 1. moving colliders integrate their velocity (plus last frame's push-out), the character
//!    calls `move_and_slide`, bullets cast their shape along their motion and bounce;
//! 2. `World::update` reports begin/stay/end events;
//! 3. for every solid contact with a dynamic collider, the dynamic side is pushed out along the
//!    manifold normal (next frame) and the approaching part of the velocity is reflected.

use crate::progress::Progress;
use collide2d::query::CastOptions;
use collide2d::shape::Aabb;
use collide2d::world::{
    ColliderHandle, CollisionEvent, MoveOptions, QueryFilter, UpdateStats, World,
};
use collide2d::{Transform, Vec2};

/// How a body moves each frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    /// Integrates its velocity; contacts do not touch it.
    Kinematic,
    /// Integrates its velocity; pushed out of and bounced off what it touches.
    Dynamic,
    /// Moved by shape casts; bounces a limited number of times.
    Bullet {
        /// Bounces left before it stops.
        bounces_left: u32,
    },
    /// Moved by `move_and_slide`.
    Character {
        /// Walking speed, signed by direction.
        walk_speed: f32,
        /// Gravity vector.
        gravity: Vec2,
        /// Jump speed.
        jump_speed: f32,
        /// Jump every this many frames (0: never).
        jump_every: u32,
        /// Frames spent on the floor since the last jump.
        floor_frames: u32,
    },
}

/// A collider that moves.
#[derive(Clone, Debug)]
pub struct Body {
    /// Its collider.
    pub handle: ColliderHandle,
    /// Object position.
    pub position: Vec2,
    /// Object angle.
    pub angle: f32,
    /// Velocity.
    pub velocity: Vec2,
    /// Angular velocity.
    pub angular_velocity: f32,
    /// How it moves.
    pub motion: Motion,
    /// Push-out gathered from this frame's contacts, applied next frame.
    pub correction: Vec2,
}

/// What happened in one frame besides collision events.
#[derive(Clone, Debug, Default)]
pub struct FrameReport {
    /// Bullet cast hits: (bullet, collider hit, point, normal).
    pub cast_hits: Vec<(ColliderHandle, ColliderHandle, Vec2, Vec2)>,
    /// The character stood on the floor after its move.
    pub on_floor: bool,
}

/// A running scene.
pub struct Sim {
    /// The collision world.
    pub world: World,
    /// The moving colliders.
    pub bodies: Vec<Body>,
    /// For each handle index, its body index (`u32::MAX` for static colliders).
    pub(crate) body_of: Vec<u32>,
    /// For each handle index, the collider's name (empty when unnamed).
    pub names: Vec<String>,
    /// Seconds per frame.
    pub dt: f32,
    /// Frames to run when not told otherwise.
    pub default_frames: u32,
    /// The region to draw.
    pub view: Option<Aabb>,
    /// A title.
    pub title: String,
    /// The frame number (updates done so far).
    pub frame: u32,
    /// Progress of the build, while building.
    pub(crate) building: Option<Progress>,
}

impl Sim {
    /// The body of a collider, if it moves.
    pub fn body_index(&self, handle: ColliderHandle) -> Option<usize> {
        self.body_of
            .get(handle.index() as usize)
            .copied()
            .filter(|&i| i != u32::MAX)
            .map(|i| i as usize)
    }

    /// The name of a collider (empty when unnamed).
    pub fn name(&self, handle: ColliderHandle) -> &str {
        self.names
            .get(handle.index() as usize)
            .map_or("", String::as_str)
    }

    /// Runs one frame: move, update, respond. Returns the frame's cast and character report;
    /// the events are in `self.world.events()`.
    pub fn step(&mut self) -> FrameReport {
        let mut report = FrameReport::default();
        self.move_bodies(&mut report);
        self.world.update();
        self.respond();
        self.frame += 1;
        report
    }

    /// The last update's statistics.
    pub fn stats(&self) -> UpdateStats {
        self.world.stats()
    }

    /// The last update's events.
    pub fn events(&self) -> &[CollisionEvent] {
        self.world.events()
    }

    fn move_bodies(&mut self, report: &mut FrameReport) {
        let dt = self.dt;
        for body in &mut self.bodies {
            match &mut body.motion {
                Motion::Kinematic | Motion::Dynamic => {
                    if body.velocity == Vec2::ZERO
                        && body.angular_velocity == 0.0
                        && body.correction == Vec2::ZERO
                    {
                        continue;
                    }
                    body.position += body.velocity * dt + body.correction;
                    body.angle = wrap_angle(body.angle + body.angular_velocity * dt);
                    body.correction = Vec2::ZERO;
                    let xf = Transform::new(body.position, body.angle);
                    if self.world.set_transform(body.handle, xf).is_err() {
                        // A position that overflowed: stop the body where it was.
                        body.velocity = Vec2::ZERO;
                        body.angular_velocity = 0.0;
                    }
                }
                Motion::Bullet { bounces_left } => {
                    if body.velocity == Vec2::ZERO {
                        continue;
                    }
                    let Ok(collider) = self.world.get(body.handle) else {
                        continue;
                    };
                    let shape = collider.shape().clone();
                    let layers = self.world.layers().mask_of(collider.layer());
                    let filter = QueryFilter::new()
                        .layers(layers)
                        .excluding(std::slice::from_ref(&body.handle));
                    let xf = Transform::new(body.position, body.angle);
                    let delta = body.velocity * dt;
                    let options = CastOptions {
                        target_separation: 0.001,
                        ..CastOptions::default()
                    };
                    match self.world.shape_cast(&shape, &xf, delta, &filter, options) {
                        Ok(Some(hit)) => {
                            body.position += delta * hit.fraction;
                            let normal = hit.normal;
                            let along = body.velocity.dot(normal);
                            if along > 0.0 {
                                body.velocity -= 2.0 * along * normal;
                            }
                            report
                                .cast_hits
                                .push((body.handle, hit.collider, hit.point, normal));
                            if *bounces_left == 0 {
                                body.velocity = Vec2::ZERO;
                            } else {
                                *bounces_left -= 1;
                            }
                        }
                        Ok(None) => body.position += delta,
                        Err(_) => body.velocity = Vec2::ZERO,
                    }
                    let _ = self
                        .world
                        .set_transform(body.handle, Transform::new(body.position, body.angle));
                }
                Motion::Character {
                    walk_speed,
                    gravity,
                    jump_speed,
                    jump_every,
                    floor_frames,
                } => {
                    body.velocity.x = *walk_speed;
                    body.velocity += *gravity * dt;
                    let Ok(collider) = self.world.get(body.handle) else {
                        continue;
                    };
                    let layers = self.world.layers().mask_of(collider.layer());
                    let options = MoveOptions {
                        up: (-*gravity).try_normalize().unwrap_or(Vec2::Y),
                        filter: QueryFilter::new().layers(layers),
                        ..MoveOptions::default()
                    };
                    let Ok(result) =
                        self.world
                            .move_and_slide(body.handle, body.velocity * dt, options)
                    else {
                        continue;
                    };
                    if let Ok(collider) = self.world.get(body.handle) {
                        body.position = collider.transform().p;
                    }
                    if result.on_floor || result.on_ceiling {
                        body.velocity.y = 0.0;
                    }
                    if result.on_wall && result.moved.x.abs() < (*walk_speed * dt).abs() * 0.5 {
                        *walk_speed = -*walk_speed;
                    }
                    report.on_floor = result.on_floor;
                    if result.on_floor {
                        *floor_frames += 1;
                        if *jump_every > 0 && *floor_frames >= *jump_every {
                            body.velocity.y = *jump_speed;
                            *floor_frames = 0;
                        }
                    }
                }
            }
        }
    }

    /// Pushes dynamic bodies out of what they touch and reflects their approach velocity.
    fn respond(&mut self) {
        for event in self.world.events() {
            let (CollisionEvent::Begin {
                a,
                b,
                manifold: Some(manifold),
                ..
            }
            | CollisionEvent::Stay {
                a,
                b,
                manifold: Some(manifold),
            }) = event
            else {
                continue;
            };
            let dynamic = |handle: ColliderHandle| {
                self.body_index(handle)
                    .filter(|&i| self.bodies[i].motion == Motion::Dynamic)
            };
            let (body_a, body_b) = (dynamic(*a), dynamic(*b));
            let share = match (body_a, body_b) {
                (None, None) => continue,
                (Some(_), Some(_)) => 0.5,
                _ => 1.0,
            };
            let normal = manifold.normal;
            let depth = manifold.max_penetration().clamp(0.0, 0.5);
            let velocity_of =
                |body: Option<usize>| body.map_or(Vec2::ZERO, |i| self.bodies[i].velocity);
            let approach = (velocity_of(body_b) - velocity_of(body_a)).dot(normal);
            // Equal masses, restitution 1: a dynamic body against a fixed one reflects; two
            // dynamic bodies exchange their normal speeds.
            let impulse = if approach < 0.0 {
                -2.0 * approach * share
            } else {
                0.0
            };
            if let Some(i) = body_a {
                self.bodies[i].correction -= normal * depth * share;
                self.bodies[i].velocity -= normal * impulse;
            }
            if let Some(i) = body_b {
                self.bodies[i].correction += normal * depth * share;
                self.bodies[i].velocity += normal * impulse;
            }
        }
    }

    /// A box around every collider.
    pub fn bounds(&self) -> Option<Aabb> {
        self.world
            .iter()
            .map(|(_, c)| c.aabb())
            .reduce(|a, b| a.union(&b))
    }
}

fn wrap_angle(angle: f32) -> f32 {
    if angle.abs() > 1000.0 {
        angle.rem_euclid(std::f32::consts::TAU)
    } else {
        angle
    }
}
