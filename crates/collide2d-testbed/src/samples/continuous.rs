//! Continuous colliders: fast bullets fired through thin walls and past sensor coins, with the
//! world sweeping them between updates (or not, to see them tunnel).

use std::collections::VecDeque;

use collide2d::debug::{draw_shape, Color, DebugDraw};
use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, CollisionEvent, World};
use collide2d::{Transform, Vec2};

use super::shape_pair::TEXT;
use crate::sample::{Category, Sample, View};
use collide2d_testkit::Rng;

const WALL: Color = Color::rgb(150, 150, 165);
const COIN: Color = Color::rgb(230, 220, 80);
const BULLET: Color = Color::rgb(90, 170, 255);
const MARK: Color = Color::rgb(255, 90, 90);
/// Hit marks kept on screen.
const MARKS: usize = 120;
/// Where bullets start again after leaving on the right.
const START_X: f32 = -13.0;
const END_X: f32 = 13.0;
/// The thin walls' x positions; each is 0.05 thick and 8 tall.
const WALLS_X: [f32; 3] = [-4.0, 2.0, 8.0];

/// A bullet and its velocity (units per frame).
#[derive(Clone, Copy, Debug)]
struct Bullet {
    handle: ColliderHandle,
    velocity: Vec2,
}

/// The continuous-collider sample.
pub struct Continuous {
    world: World,
    walls: Vec<ColliderHandle>,
    bullets: Vec<Bullet>,
    continuous: bool,
    running: bool,
    frame: u64,
    /// Contact points of reported hits (at their time of impact), newest first.
    marks: VecDeque<Vec2>,
    crossings: u64,
    reported: u64,
}

impl Default for Continuous {
    fn default() -> Self {
        let mut world = World::new();
        let walls = WALLS_X
            .iter()
            .map(|&x| {
                let wall = Shape::from(Polygon::rect(0.05, 8.0).expect("valid wall"));
                world
                    .insert(
                        Collider::new(wall).with_transform(Transform::new(Vec2::new(x, 0.0), 0.0)),
                    )
                    .expect("valid collider")
            })
            .collect();
        for i in 0..7 {
            let coin = Shape::from(Circle::with_radius(0.2).expect("valid coin"));
            let at = Vec2::new(-1.0, -4.5 + 1.5 * i as f32);
            world
                .insert(
                    Collider::new(coin)
                        .with_sensor(true)
                        .with_transform(Transform::new(at, 0.0)),
                )
                .expect("valid collider");
        }
        let mut rng = Rng(0xB011E7);
        let bullets = (0..14)
            .map(|i| {
                let shape = if i % 2 == 0 {
                    Shape::from(Circle::with_radius(0.06).expect("valid bullet"))
                } else {
                    Shape::from(Polygon::rect(0.3, 0.05).expect("valid bullet"))
                };
                let at = Vec2::new(rng.range(START_X, 0.0), rng.range(-3.5, 3.5));
                let handle = world
                    .insert(
                        Collider::new(shape)
                            .with_continuous(true)
                            .with_transform(Transform::new(at, 0.0)),
                    )
                    .expect("valid collider");
                let velocity = Vec2::new(rng.range(2.5, 7.0), rng.range(-0.2, 0.2));
                Bullet { handle, velocity }
            })
            .collect();
        world.update();
        let mut sample = Continuous {
            world,
            walls,
            bullets,
            continuous: true,
            running: true,
            frame: 0,
            marks: VecDeque::new(),
            crossings: 0,
            reported: 0,
        };
        sample.step();
        sample
    }
}

impl Continuous {
    /// Counts the walls a bullet's straight move from `from` to `to` passes well inside their
    /// length (what a sweep must report).
    fn crossings(from: Vec2, to: Vec2) -> u64 {
        WALLS_X
            .iter()
            .filter(|&&x| {
                let share = (x - from.x) / (to.x - from.x);
                let y = from.y + share * (to.y - from.y);
                from.x < x && to.x >= x && y.abs() < 3.8
            })
            .count() as u64
    }
}

impl Sample for Continuous {
    fn name(&self) -> &'static str {
        "continuous-bullets"
    }

    fn category(&self) -> Category {
        Category::World
    }

    fn help(&self) -> &'static str {
        "Bullets move 2.5 to 7 units a frame through walls 0.05 thick and past sensor coins. \
         Continuous, every crossing is a Begin (red mark at the time of impact); untick \
         continuous to see them tunnel without a word."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::ZERO,
            half_width: 13.5,
            half_height: 6.0,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.running, "run");
        if ui.checkbox(&mut self.continuous, "continuous").changed() {
            for bullet in &self.bullets {
                let _ = self.world.set_continuous(bullet.handle, self.continuous);
            }
            (self.crossings, self.reported) = (0, 0);
        }
        ui.label(format!(
            "wall crossings {}, reported {}",
            self.crossings, self.reported
        ));
    }

    fn step(&mut self) {
        if !self.running {
            return;
        }
        self.frame += 1;
        for bullet in &self.bullets {
            let Ok(collider) = self.world.get(bullet.handle) else {
                continue;
            };
            let from = collider.transform().p;
            let to = from + bullet.velocity;
            if to.x > END_X {
                // Back to the left without sweeping across the whole field.
                let again = Vec2::new(START_X, from.y);
                let _ = self
                    .world
                    .teleport(bullet.handle, Transform::new(again, 0.0));
            } else {
                self.crossings += Continuous::crossings(from, to);
                let _ = self
                    .world
                    .set_transform(bullet.handle, Transform::new(to, 0.0));
            }
        }
        self.world.update();
        for event in self.world.events() {
            let CollisionEvent::Begin { a, manifold, .. } = event else {
                continue;
            };
            if self.walls.contains(a) {
                self.reported += 1;
            }
            if let Some(manifold) = manifold {
                if self.marks.len() == MARKS {
                    self.marks.pop_back();
                }
                self.marks.push_front(manifold.points()[0].point);
            }
        }
    }

    fn is_animating(&self) -> bool {
        self.running
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        for (handle, collider) in self.world.iter() {
            let color = if self.walls.contains(&handle) {
                WALL
            } else if collider.is_sensor() {
                COIN
            } else {
                BULLET
            };
            draw_shape(draw, collider.shape(), &collider.world_transform(), color);
        }
        for &mark in &self.marks {
            draw.point(mark, 5.0, MARK);
        }
        draw.label(
            Vec2::new(-13.0, 5.2),
            &format!(
                "frame {}: {} wall crossings, {} reported",
                self.frame, self.crossings, self.reported
            ),
            TEXT,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuous_bullets_report_every_wall_crossing_and_tunnel_without() {
        let mut sample = Continuous::default();
        for _ in 0..120 {
            sample.step();
        }
        assert!(sample.crossings > 50, "{}", sample.crossings);
        assert!(sample.reported >= sample.crossings);
        for bullet in &sample.bullets {
            sample.world.set_continuous(bullet.handle, false).unwrap();
        }
        sample.continuous = false;
        (sample.crossings, sample.reported) = (0, 0);
        for _ in 0..120 {
            sample.step();
        }
        assert!(sample.reported < sample.crossings / 2);
    }
}
