//! The manifold of any two shapes: drag them together and read the normal, the points, the
//! penetration and the feature ids.

use collide2d::debug::{draw_manifold, draw_shape, Color, DebugDraw};
use collide2d::query::{Feature, Manifold};
use collide2d::{distance, query::collide_all, Vec2};

use super::kinds::{shape_kind_menu, ShapeKind};
use crate::body::{Body, Grab};
use crate::sample::{Category, Input, Sample, View};

/// Colour of shape A.
pub const COLOR_A: Color = Color::rgb(90, 170, 255);
/// Colour of shape B.
pub const COLOR_B: Color = Color::rgb(120, 220, 120);
/// Colour of text.
pub const TEXT: Color = Color::rgb(235, 235, 235);
/// Colour of the closest-points line when the shapes are apart.
pub const GAP: Color = Color::rgb(200, 120, 255);

/// Two draggable shapes and their manifold.
pub struct ShapePair {
    kind_a: ShapeKind,
    kind_b: ShapeKind,
    bodies: Vec<Body>,
    grab: Grab,
    margin: f32,
    manifolds: Vec<Manifold>,
}

impl Default for ShapePair {
    fn default() -> Self {
        let kind_a = ShapeKind::Box;
        let kind_b = ShapeKind::Octagon;
        let mut sample = ShapePair {
            kind_a,
            kind_b,
            bodies: vec![
                Body::new(kind_a.shape(), Vec2::new(-0.55, -0.1), 0.15),
                Body::new(kind_b.shape(), Vec2::new(0.6, 0.3), 0.2),
            ],
            grab: Grab::default(),
            margin: 0.0,
            manifolds: Vec::new(),
        };
        sample.refresh();
        sample
    }
}

/// A feature id as `v3` (vertex 3) or `e1` (edge 1).
pub fn feature_name(feature: Feature) -> String {
    match feature {
        Feature::Vertex(i) => format!("v{i}"),
        Feature::Edge(i) => format!("e{i}"),
    }
}

impl ShapePair {
    fn refresh(&mut self) {
        let (a, b) = (&self.bodies[0], &self.bodies[1]);
        self.manifolds.clear();
        collide_all(
            &a.shape,
            &a.xf,
            &b.shape,
            &b.xf,
            self.margin,
            &mut self.manifolds,
        );
    }
}

impl Sample for ShapePair {
    fn name(&self) -> &'static str {
        "shape-pair"
    }

    fn category(&self) -> Category {
        Category::Shapes
    }

    fn help(&self) -> &'static str {
        "Choose A and B; drag them, Q/E or the wheel while dragging turns. White lines are \
         normals (A to B), yellow dots the contact points, labelled with penetration and the \
         features of A/B."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::new(0.0, 0.0),
            half_width: 2.6,
            half_height: 2.0,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let mut changed = shape_kind_menu(ui, "A", &mut self.kind_a);
        changed |= shape_kind_menu(ui, "B", &mut self.kind_b);
        if changed {
            self.bodies[0].shape = self.kind_a.shape();
            self.bodies[1].shape = self.kind_b.shape();
        }
        if ui
            .add(egui::Slider::new(&mut self.margin, 0.0..=0.5).text("speculative margin"))
            .changed()
            || changed
        {
            self.refresh();
        }
        ui.separator();
        if self.manifolds.is_empty() {
            ui.label("apart");
        }
        for manifold in &self.manifolds {
            ui.label(format!(
                "children {}/{}  normal ({:.3}, {:.3})",
                manifold.child_a, manifold.child_b, manifold.normal.x, manifold.normal.y
            ));
            for point in manifold.points() {
                ui.monospace(format!(
                    "  depth {:+.4}  ids {}/{}",
                    point.penetration,
                    feature_name(point.id.a),
                    feature_name(point.id.b)
                ));
            }
        }
    }

    fn input(&mut self, input: &Input) {
        if self.grab.apply(&mut self.bodies, input) {
            self.refresh();
        }
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        draw_shape(draw, &self.bodies[0].shape, &self.bodies[0].xf, COLOR_A);
        draw_shape(draw, &self.bodies[1].shape, &self.bodies[1].xf, COLOR_B);
        draw.label(self.bodies[0].xf.p, "A", COLOR_A);
        draw.label(self.bodies[1].xf.p, "B", COLOR_B);
        if self.manifolds.is_empty() {
            let (a, b) = (&self.bodies[0], &self.bodies[1]);
            let gap = distance(&a.shape, &a.xf, &b.shape, &b.xf);
            if gap.distance.is_finite() && gap.distance > 0.0 {
                draw.segment(gap.point_a, gap.point_b, GAP);
                draw.label(
                    0.5 * (gap.point_a + gap.point_b),
                    &format!("gap {:.3}", gap.distance),
                    GAP,
                );
            }
            return;
        }
        for manifold in &self.manifolds {
            draw_manifold(draw, manifold, 0.5);
            for point in manifold.points() {
                // On A's side of the point, clear of the normal and of B's name.
                draw.label(
                    point.point - manifold.normal * 0.95,
                    &format!(
                        "{:.3} {}/{}",
                        point.penetration,
                        feature_name(point.id.a),
                        feature_name(point.id.b)
                    ),
                    TEXT,
                );
            }
            if let Some(first) = manifold.points().first() {
                draw.label(first.point + manifold.normal * 0.5, "n", Color::NORMAL);
            }
        }
    }
}
