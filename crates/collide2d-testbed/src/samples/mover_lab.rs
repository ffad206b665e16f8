//! The mover lab: characters moved by `move_and_slide` in creases from 10° to 170°, across
//! seams between boxes, up and down a slope and steps, and riding a moving platform, with the
//! planes that held each one drawn.

use collide2d::debug::{draw_shape, Color, DebugDraw};
use collide2d::shape::{Capsule, Circle, Polygon, Segment, Shape};
use collide2d::world::{Collider, ColliderHandle, MoveHit, MoveOptions, World};
use collide2d::{Transform, Vec2};

use super::shape_pair::TEXT;
use crate::sample::{Category, Sample, View};

const DT: f32 = 1.0 / 60.0;
const GRAVITY: f32 = -20.0;
const OUTLINE: Color = Color::rgb(200, 200, 220);
const HERO: Color = Color::rgb(90, 200, 255);
const PLATFORM: Color = Color::rgb(230, 160, 60);
const PLANE: Color = Color::rgb(255, 120, 200);

/// How a character is driven.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Drive {
    /// Pushed down into a crease and sideways, back and forth.
    Crease,
    /// Walks back and forth between `from` and `to` (x).
    Walk { from: f32, to: f32 },
    /// Stands on the platform and is carried by it.
    Ride,
}

struct Walker {
    handle: ColliderHandle,
    drive: Drive,
    velocity: Vec2,
    direction: f32,
    on_floor: bool,
    hits: Vec<MoveHit>,
}

/// The mover lab sample.
pub struct MoverLab {
    world: World,
    walkers: Vec<Walker>,
    platform: ColliderHandle,
    frame: u64,
}

fn add(world: &mut World, shape: Shape, at: Vec2, angle: f32) -> ColliderHandle {
    world
        .insert(Collider::new(shape).with_transform(Transform::new(at, angle)))
        .expect("valid collider")
}

fn segment(world: &mut World, a: Vec2, b: Vec2) {
    add(
        world,
        Shape::from(Segment::new(a, b).expect("valid segment")),
        Vec2::ZERO,
        0.0,
    );
}

fn rect(width: f32, height: f32) -> Shape {
    Shape::from(Polygon::rect(width, height).expect("valid box"))
}

impl Default for MoverLab {
    fn default() -> Self {
        let mut world = World::new();
        let mut walkers = Vec::new();
        let mut walker = |world: &mut World, shape: Shape, at: Vec2, drive: Drive| {
            let handle = add(world, shape, at, 0.0);
            walkers.push(Walker {
                handle,
                drive,
                velocity: Vec2::ZERO,
                direction: 1.0,
                on_floor: false,
                hits: Vec::new(),
            });
        };
        // Creases of 10° to 170°, each with a circle pushed into it.
        for k in 0..9 {
            let opening = (10.0 + 20.0 * k as f32).to_radians();
            let vertex = Vec2::new(3.0 + 4.0 * k as f32, 8.0);
            let half = 0.5 * opening;
            // Long enough for the circle to reach the bottom of the narrowest crease.
            let length = (1.8 / half.sin()).min((0.25 / half.sin() + 0.8).max(2.0));
            let left = vertex + Vec2::new(-half.sin(), half.cos()) * length;
            let right = vertex + Vec2::new(half.sin(), half.cos()) * length;
            segment(&mut world, left, vertex);
            segment(&mut world, vertex, right);
            let ball = Shape::from(Circle::with_radius(0.25).expect("valid circle"));
            let inside = vertex + Vec2::new(0.0, 0.25 / half.sin() + 0.3);
            walker(&mut world, ball, inside, Drive::Crease);
        }
        // Seams: boxes whose tops differ by up to half the skin, a box walking across them.
        for i in 0..12 {
            let offset = if i % 2 == 0 { 0.004 } else { -0.003 };
            add(
                &mut world,
                rect(1.0, 1.0),
                Vec2::new(1.5 + i as f32, 3.5 + offset),
                0.0,
            );
        }
        walker(
            &mut world,
            rect(0.7, 0.7),
            Vec2::new(2.0, 4.37),
            Drive::Walk {
                from: 2.0,
                to: 12.0,
            },
        );
        // A slope and steps, a capsule walking over them.
        add(&mut world, rect(8.0, 1.0), Vec2::new(19.0, 3.5), 0.0);
        // A 10° slope from the floor's end, then four steps 0.15 high.
        let angle = 10f32.to_radians();
        let (bottom, direction) = (Vec2::new(23.0, 4.0), Vec2::new(angle.cos(), angle.sin()));
        let top = bottom + direction * 3.5;
        let normal = Vec2::new(-direction.y, direction.x);
        add(
            &mut world,
            rect(3.5, 1.0),
            (bottom + top) * 0.5 - normal * 0.5,
            angle,
        );
        for s in 0..4 {
            let height = top.y + 0.15 * (s + 1) as f32;
            add(
                &mut world,
                rect(0.8, 1.0),
                Vec2::new(top.x + 0.8 * s as f32 + 0.4, height - 0.5),
                0.0,
            );
        }
        walker(
            &mut world,
            Shape::from(Capsule::vertical(0.6, 0.25).expect("valid capsule")),
            Vec2::new(16.0, 4.6),
            Drive::Walk {
                from: 16.0,
                to: 28.8,
            },
        );
        // A moving platform with a box riding it.
        let platform = add(&mut world, rect(3.0, 0.3), Vec2::new(33.0, 3.0), 0.0);
        walker(
            &mut world,
            rect(0.6, 0.6),
            Vec2::new(33.0, 3.0 + 0.15 + 0.3 + 0.01),
            Drive::Ride,
        );
        world.update();
        let mut lab = MoverLab {
            world,
            walkers,
            platform,
            frame: 0,
        };
        // Two seconds in, so that the characters have settled into the creases.
        for _ in 0..120 {
            lab.step();
        }
        lab
    }
}

impl Sample for MoverLab {
    fn name(&self) -> &'static str {
        "mover-lab"
    }

    fn category(&self) -> Category {
        Category::World
    }

    fn help(&self) -> &'static str {
        "move_and_slide in creases from 10° to 170° (top row), across seams between boxes a \
         few thousandths apart, up a slope and steps, and on a moving platform. Pink: the \
         planes that held each character this frame (surface point, normal, plane)."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::new(19.0, 6.5),
            half_width: 19.5,
            half_height: 6.0,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        if ui.button("restart").clicked() {
            *self = MoverLab::default();
        }
        let on_floor = self.walkers.iter().filter(|w| w.on_floor).count();
        ui.monospace(format!(
            "frame {}\ncharacters on the floor: {on_floor} of {}",
            self.frame,
            self.walkers.len()
        ));
    }

    fn step(&mut self) {
        self.frame += 1;
        let t = self.frame as f32 * DT;
        // The platform swings left and right; its riders are carried first.
        let before = self
            .world
            .get(self.platform)
            .map(|c| c.transform())
            .unwrap_or(Transform::IDENTITY);
        let platform_at = Vec2::new(33.0 + 2.5 * (0.8 * t).sin(), 3.0 + 0.5 * (1.3 * t).sin());
        if self
            .world
            .set_transform(self.platform, Transform::new(platform_at, 0.0))
            .is_err()
        {
            return;
        }
        for walker in &mut self.walkers {
            let position = self
                .world
                .get(walker.handle)
                .map(|c| c.transform().p)
                .unwrap_or_default();
            walker.velocity.y += GRAVITY * DT;
            let request = match walker.drive {
                Drive::Crease => {
                    walker.velocity.y = walker.velocity.y.max(-6.0);
                    Vec2::new(1.5 * (2.0 * t).sin() * DT, walker.velocity.y * DT)
                }
                Drive::Walk { from, to } => {
                    if position.x > to {
                        walker.direction = -1.0;
                    } else if position.x < from {
                        walker.direction = 1.0;
                    }
                    Vec2::new(2.5 * walker.direction * DT, walker.velocity.y * DT)
                }
                Drive::Ride => {
                    if walker.on_floor {
                        let _ = self.world.carry(
                            walker.handle,
                            self.platform,
                            before,
                            MoveOptions::default(),
                        );
                    }
                    Vec2::new(0.0, walker.velocity.y * DT)
                }
            };
            let Ok(result) =
                self.world
                    .move_and_slide(walker.handle, request, MoveOptions::default())
            else {
                continue;
            };
            walker.on_floor = result.on_floor;
            if (result.on_floor && walker.velocity.y < 0.0)
                || (result.on_ceiling && walker.velocity.y > 0.0)
            {
                walker.velocity.y = 0.0;
            }
            walker.hits = result.hits;
        }
        self.world.update();
    }

    fn is_animating(&self) -> bool {
        true
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        let is_walker = |h: ColliderHandle| self.walkers.iter().any(|w| w.handle == h);
        for (handle, collider) in self.world.iter() {
            if is_walker(handle) {
                continue;
            }
            let color = if handle == self.platform {
                PLATFORM
            } else {
                OUTLINE
            };
            draw_shape(draw, collider.shape(), &collider.world_transform(), color);
        }
        for walker in &self.walkers {
            if let Ok(hero) = self.world.get(walker.handle) {
                draw_shape(draw, hero.shape(), &hero.world_transform(), HERO);
            }
            for hit in &walker.hits {
                let along = Vec2::new(-hit.normal.y, hit.normal.x) * 0.4;
                draw.segment(hit.point - along, hit.point + along, PLANE);
                draw.segment(hit.point, hit.point + hit.normal * 0.4, Color::NORMAL);
                draw.point(hit.point, 4.0, Color::CONTACT);
            }
        }
        for k in 0..9 {
            draw.label(
                Vec2::new(2.4 + 4.0 * k as f32, 7.6),
                &format!("{}°", 10 + 20 * k),
                TEXT,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_characters_stay_in_the_lab_and_the_walkers_keep_walking() {
        let mut lab = MoverLab::default();
        for _ in 0..600 {
            lab.step();
        }
        for walker in &lab.walkers {
            let p = lab.world.get(walker.handle).unwrap().transform().p;
            assert!(p.y > 2.0, "fell out of the lab: {p:?} ({:?})", walker.drive);
        }
        // Every walker covers most of its walking speed's distance (2.5 units/s, 30 frames).
        let walker_x = |lab: &MoverLab| -> Vec<f32> {
            lab.walkers
                .iter()
                .filter(|w| matches!(w.drive, Drive::Walk { .. }))
                .map(|w| lab.world.get(w.handle).unwrap().transform().p.x)
                .collect()
        };
        let mut path = vec![0.0f32; walker_x(&lab).len()];
        let mut last = walker_x(&lab);
        for _ in 0..30 {
            lab.step();
            let now = walker_x(&lab);
            for (length, (a, b)) in path.iter_mut().zip(last.iter().zip(&now)) {
                *length += (b - a).abs();
            }
            last = now;
        }
        let moved = path.iter().all(|length| *length > 1.0);
        assert!(moved, "a walker stopped: {path:?} at {last:?}");
    }
}
