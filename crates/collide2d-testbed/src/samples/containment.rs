//! Point containment and closest points: a lattice of points coloured by whether a shape holds
//! them, and the mouse's projection onto the nearest surface.

use collide2d::debug::{draw_shape, Color, DebugDraw};
use collide2d::Vec2;

use super::kinds::ShapeKind;
use super::shape_pair::TEXT;
use crate::body::{Body, Grab};
use crate::sample::{Category, Input, Sample, View};

const INSIDE: Color = Color::rgb(255, 110, 80);
const OUTSIDE: Color = Color::rgb(90, 90, 110);
const SHAPE: Color = Color::rgb(120, 200, 255);
const PROJECTION: Color = Color::rgb(255, 214, 10);

/// Shapes, a lattice of test points and a probe.
pub struct Containment {
    bodies: Vec<Body>,
    grab: Grab,
    spacing: f32,
    probe: Vec2,
}

impl Default for Containment {
    fn default() -> Self {
        let kinds = [
            (ShapeKind::Circle, Vec2::new(-4.0, 1.5), 0.0),
            (ShapeKind::Capsule, Vec2::new(-1.2, 1.6), 0.5),
            (ShapeKind::Box, Vec2::new(1.6, 1.5), -0.3),
            (ShapeKind::RoundedBox, Vec2::new(4.2, 1.4), 0.4),
            (ShapeKind::Octagon, Vec2::new(-3.6, -1.5), 0.1),
            (ShapeKind::Concave, Vec2::new(-0.6, -1.5), 0.2),
            (ShapeKind::Segment, Vec2::new(2.2, -1.4), 0.6),
            (ShapeKind::Chain, Vec2::new(4.6, -1.6), 0.0),
        ];
        let bodies = kinds
            .iter()
            .map(|&(kind, p, angle)| Body::new(kind.shape(), p, angle))
            .collect();
        Containment {
            bodies,
            grab: Grab::default(),
            spacing: 0.2,
            probe: Vec2::new(0.3, 0.1),
        }
    }
}

impl Sample for Containment {
    fn name(&self) -> &'static str {
        "point-containment"
    }

    fn category(&self) -> Category {
        Category::Shapes
    }

    fn help(&self) -> &'static str {
        "Lattice points turn orange inside a shape (boundary included; segments and chains \
         hold only their line). The yellow line joins the mouse to the nearest surface point."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::new(0.2, 0.2),
            half_width: 7.2,
            half_height: 3.7,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.add(egui::Slider::new(&mut self.spacing, 0.08..=0.5).text("lattice spacing"));
        let (index, projection) = self.nearest();
        ui.label(format!(
            "probe ({:.2}, {:.2}): nearest shape {index}, distance {:.3}, {}",
            self.probe.x,
            self.probe.y,
            projection.distance,
            if projection.inside {
                "inside"
            } else {
                "outside"
            }
        ));
    }

    fn input(&mut self, input: &Input) {
        self.grab.apply(&mut self.bodies, input);
        if let Some(mouse) = input.mouse {
            self.probe = mouse;
        }
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        for (index, body) in self.bodies.iter().enumerate() {
            let color = if self.grab.active() == Some(index) {
                Color::rgb(255, 255, 255)
            } else {
                SHAPE
            };
            draw_shape(draw, &body.shape, &body.xf, color);
        }
        let spacing = self.spacing.max(0.05);
        let steps_x = (14.0 / spacing) as i32;
        let steps_y = (7.0 / spacing) as i32;
        for i in 0..=steps_x {
            for j in 0..=steps_y {
                let p = Vec2::new(-6.8 + i as f32 * spacing, -3.3 + j as f32 * spacing);
                let inside = self.bodies.iter().any(|b| b.shape.contains(&b.xf, p));
                if inside {
                    draw.point(p, 4.0, INSIDE);
                } else {
                    draw.point(p, 2.0, OUTSIDE);
                }
            }
        }
        let (_, projection) = self.nearest();
        draw.segment(self.probe, projection.point, PROJECTION);
        draw.point(self.probe, 7.0, PROJECTION);
        draw.point(projection.point, 5.0, Color::NORMAL);
        draw.label(self.probe, &format!("{:.3}", projection.distance), TEXT);
    }
}

impl Containment {
    /// The shape nearest the probe and the probe's projection onto it.
    fn nearest(&self) -> (usize, collide2d::PointProjection) {
        self.bodies
            .iter()
            .map(|b| b.shape.project_point(&b.xf, self.probe))
            .enumerate()
            .min_by(|x, y| x.1.distance.total_cmp(&y.1.distance))
            .expect("the sample has shapes")
    }
}
