//! Ray casts against every kind of shape: a fan of rays from a draggable, turnable emitter.

use collide2d::debug::{draw_shape, Color, DebugDraw};
use collide2d::query::{RayHit, RayInside};
use collide2d::shape::Ray;
use collide2d::shape::{Circle, Shape};
use collide2d::Vec2;

use super::kinds::ShapeKind;
use super::shape_pair::TEXT;
use crate::body::{Body, Grab};
use crate::sample::{Category, Input, Sample, View};

const SHAPE: Color = Color::rgb(120, 200, 255);
const EMITTER: Color = Color::rgb(255, 160, 60);
const RAY: Color = Color::rgb(255, 214, 10);
const MISS: Color = Color::rgb(110, 110, 130);
const HIT: Color = Color::rgb(255, 80, 80);

/// Shapes and an emitter (body 0) casting a fan of rays.
pub struct RayCast {
    bodies: Vec<Body>,
    grab: Grab,
    ray_count: usize,
    spread: f32,
    length: f32,
    report_exit: bool,
}

impl Default for RayCast {
    fn default() -> Self {
        let emitter = Shape::from(Circle::with_radius(0.25).expect("valid radius"));
        let mut bodies = vec![Body::new(emitter, Vec2::new(-5.5, 0.0), 0.0)];
        let placed = [
            (ShapeKind::Circle, Vec2::new(-1.5, 2.2), 0.0),
            (ShapeKind::Capsule, Vec2::new(0.5, 1.0), 1.1),
            (ShapeKind::Segment, Vec2::new(-2.0, -1.2), 1.3),
            (ShapeKind::Box, Vec2::new(2.6, 2.4), 0.3),
            (ShapeKind::RoundedBox, Vec2::new(3.0, -0.2), -0.4),
            (ShapeKind::Octagon, Vec2::new(0.8, -2.0), 0.2),
            (ShapeKind::Concave, Vec2::new(5.0, 1.6), 1.57),
            (ShapeKind::Chain, Vec2::new(4.0, -2.8), 0.0),
        ];
        bodies.extend(
            placed
                .iter()
                .map(|&(kind, p, angle)| Body::new(kind.shape(), p, angle)),
        );
        RayCast {
            bodies,
            grab: Grab::default(),
            ray_count: 32,
            spread: 1.5,
            length: 12.0,
            report_exit: false,
        }
    }
}

impl RayCast {
    /// The closest hit of `ray` on any shape.
    fn closest_hit(&self, ray: &Ray) -> Option<RayHit> {
        let inside = if self.report_exit {
            RayInside::ReportExit
        } else {
            RayInside::HitAtStart
        };
        self.bodies[1..]
            .iter()
            .filter_map(|b| b.shape.ray_cast_with(&b.xf, ray, inside))
            .min_by(|x, y| x.distance.total_cmp(&y.distance))
    }
}

impl Sample for RayCast {
    fn name(&self) -> &'static str {
        "ray-cast"
    }

    fn category(&self) -> Category {
        Category::Casts
    }

    fn help(&self) -> &'static str {
        "Drag the orange emitter (Q/E turns it) or any shape. Each ray stops at its first \
         hit; the white tick is the surface normal there."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::new(0.4, 0.0),
            half_width: 6.6,
            half_height: 3.6,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.add(egui::Slider::new(&mut self.ray_count, 1..=128).text("rays"));
        ui.add(egui::Slider::new(&mut self.spread, 0.0..=6.2).text("spread (rad)"));
        ui.add(egui::Slider::new(&mut self.length, 1.0..=30.0).text("length"));
        ui.checkbox(
            &mut self.report_exit,
            "rays starting inside report the exit",
        );
    }

    fn input(&mut self, input: &Input) {
        self.grab.apply(&mut self.bodies, input);
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        for body in &self.bodies[1..] {
            draw_shape(draw, &body.shape, &body.xf, SHAPE);
        }
        let emitter = &self.bodies[0];
        draw_shape(draw, &emitter.shape, &emitter.xf, EMITTER);
        let origin = emitter.xf.p;
        let heading = emitter.xf.angle();
        let mut hits = 0;
        for i in 0..self.ray_count {
            let fraction = if self.ray_count == 1 {
                0.5
            } else {
                i as f32 / (self.ray_count - 1) as f32
            };
            let angle = heading + (fraction - 0.5) * self.spread;
            let Ok(ray) = Ray::new(origin, Vec2::from_angle(angle), self.length) else {
                continue;
            };
            match self.closest_hit(&ray) {
                Some(hit) => {
                    hits += 1;
                    draw.segment(origin, hit.point, RAY);
                    draw.point(hit.point, 5.0, HIT);
                    draw.segment(hit.point, hit.point + hit.normal * 0.35, Color::NORMAL);
                }
                None => draw.segment(origin, ray.at(self.length), MISS),
            }
        }
        draw.label(
            origin + Vec2::new(-0.4, 0.45),
            &format!("{hits}/{} hit", self.ray_count),
            TEXT,
        );
    }
}
