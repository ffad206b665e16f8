//! Shape casts and time of impact: A sweeps from its start pose to its end pose, turning on
//! the way, and stops where it first touches B.

use collide2d::debug::{draw_shape, Color, DebugDraw};
use collide2d::query::{shape_cast, CastHit, CastOptions, Sweep};
use collide2d::{Transform, Vec2};

use super::kinds::{shape_kind_menu, ShapeKind};
use super::shape_pair::{COLOR_A, COLOR_B, TEXT};
use crate::body::{Body, Grab};
use crate::sample::{Category, Input, Sample, View};

const GHOST: Color = Color::rgb(90, 170, 255).with_alpha(90);
const END: Color = Color::rgb(160, 160, 180);
const IMPACT: Color = Color::rgb(255, 140, 40);

/// A moving shape A (body 0 at its start, body 2 at its end) and a fixed shape B (body 1).
pub struct ShapeCast {
    kind_a: ShapeKind,
    kind_b: ShapeKind,
    bodies: Vec<Body>,
    grab: Grab,
    turn: f32,
    ghosts: usize,
    target_separation: f32,
    hit: Option<CastHit>,
}

impl Default for ShapeCast {
    fn default() -> Self {
        let kind_a = ShapeKind::Box;
        let kind_b = ShapeKind::Capsule;
        let mut sample = ShapeCast {
            kind_a,
            kind_b,
            bodies: vec![
                Body::new(kind_a.shape(), Vec2::new(-4.5, 1.2), 0.0),
                Body::new(kind_b.shape(), Vec2::new(1.2, -0.3), 1.2),
                Body::new(kind_a.shape(), Vec2::new(4.5, -1.4), 0.0),
            ],
            grab: Grab::default(),
            turn: 2.5,
            ghosts: 10,
            target_separation: 0.0,
            hit: None,
        };
        sample.refresh();
        sample
    }
}

impl ShapeCast {
    fn sweep(&self) -> Sweep {
        let start = &self.bodies[0].xf;
        Sweep::spinning(start, self.bodies[2].xf.p - start.p, self.turn)
    }

    fn refresh(&mut self) {
        let end_angle = self.bodies[0].xf.angle() + self.turn;
        self.bodies[2].xf = Transform::new(self.bodies[2].xf.p, end_angle);
        let options = CastOptions {
            target_separation: self.target_separation,
            ..CastOptions::default()
        };
        let b = &self.bodies[1];
        self.hit = shape_cast(
            &self.bodies[0].shape,
            &self.sweep(),
            &b.shape,
            &Sweep::fixed(&b.xf),
            options,
        );
    }
}

impl Sample for ShapeCast {
    fn name(&self) -> &'static str {
        "shape-cast"
    }

    fn category(&self) -> Category {
        Category::Casts
    }

    fn help(&self) -> &'static str {
        "A moves from its start (solid) to its end (grey), turning by the chosen angle; faint \
         copies are poses along the way. Orange is A at the time of impact, with the contact \
         point and normal. Drag any of the three."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::new(0.0, 0.0),
            half_width: 6.2,
            half_height: 3.0,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let mut changed = shape_kind_menu(ui, "A (moving)", &mut self.kind_a);
        changed |= shape_kind_menu(ui, "B (fixed)", &mut self.kind_b);
        if changed {
            self.bodies[0].shape = self.kind_a.shape();
            self.bodies[2].shape = self.kind_a.shape();
            self.bodies[1].shape = self.kind_b.shape();
        }
        changed |= ui
            .add(egui::Slider::new(&mut self.turn, -12.6..=12.6).text("turn (rad)"))
            .changed();
        changed |= ui
            .add(egui::Slider::new(&mut self.target_separation, 0.0..=0.5).text("stop short by"))
            .changed();
        ui.add(egui::Slider::new(&mut self.ghosts, 0..=40).text("poses drawn"));
        if changed {
            self.refresh();
        }
        ui.separator();
        match &self.hit {
            Some(hit) => ui.monospace(format!(
                "t = {:.4}\npoint ({:.3}, {:.3})\nnormal ({:.3}, {:.3})\nconverged: {}",
                hit.t, hit.point.x, hit.point.y, hit.normal.x, hit.normal.y, hit.converged
            )),
            None => ui.label("no hit over the motion"),
        };
    }

    fn input(&mut self, input: &Input) {
        let end_angle = self.bodies[2].xf.angle();
        if self.grab.apply(&mut self.bodies, input) {
            if self.grab.active() == Some(2) {
                // Turning the end pose changes the turn.
                self.turn += self.bodies[2].xf.angle() - end_angle;
            }
            self.refresh();
        }
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        let sweep = self.sweep();
        let shape_a = &self.bodies[0].shape;
        let end_t = self.hit.map_or(1.0, |hit| hit.t);
        for i in 1..=self.ghosts {
            let t = i as f32 / (self.ghosts + 1) as f32;
            let xf = sweep.transform_at(t);
            let color = if t <= end_t {
                GHOST
            } else {
                GHOST.with_alpha(35)
            };
            draw_shape(draw, shape_a, &xf, color);
        }
        draw_shape(draw, &self.bodies[1].shape, &self.bodies[1].xf, COLOR_B);
        draw_shape(draw, shape_a, &self.bodies[0].xf, COLOR_A);
        draw_shape(draw, shape_a, &self.bodies[2].xf, END);
        draw.segment(self.bodies[0].xf.p, self.bodies[2].xf.p, END);
        draw.label(self.bodies[0].xf.p, "start", TEXT);
        draw.label(self.bodies[2].xf.p, "end", TEXT);
        draw.label(self.bodies[1].xf.p, "B", COLOR_B);
        if let Some(hit) = self.hit {
            let at_impact = sweep.transform_at(hit.t);
            draw_shape(draw, shape_a, &at_impact, IMPACT);
            draw.point(hit.point, 7.0, Color::CONTACT);
            draw.segment(hit.point, hit.point + hit.normal * 0.8, Color::NORMAL);
            draw.label(
                hit.point + Vec2::new(0.1, 0.15),
                &format!("t = {:.3}", hit.t),
                TEXT,
            );
        }
    }
}
