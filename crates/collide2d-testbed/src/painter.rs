//! The library's [`DebugDraw`] on an egui painter: the testbed draws through the same
//! interface as the command-line renderer and users' engines.

use collide2d::debug::{Color, DebugDraw};
use collide2d::Vec2;
use egui::{Align2, Color32, FontId, Painter, Pos2, Stroke};

use crate::camera::Camera;

/// Opacity of the fill of filled shapes (out of 255).
const FILL_ALPHA: u8 = 60;

/// Draws world-space primitives on an egui canvas through a [`Camera`].
pub struct EguiDraw<'a> {
    painter: &'a Painter,
    camera: Camera,
    canvas_center: Vec2,
}

impl<'a> EguiDraw<'a> {
    /// Drawing on `painter`, whose clip rectangle is the canvas.
    pub fn new(painter: &'a Painter, camera: Camera) -> EguiDraw<'a> {
        let center = painter.clip_rect().center();
        EguiDraw {
            painter,
            camera,
            canvas_center: Vec2::new(center.x, center.y),
        }
    }

    fn to_screen(&self, world_point: Vec2) -> Pos2 {
        let p = self.camera.world_to_screen(world_point, self.canvas_center);
        Pos2::new(p.x, p.y)
    }
}

/// An egui colour from a library colour.
pub fn color32(color: Color) -> Color32 {
    Color32::from_rgba_unmultiplied(color.r, color.g, color.b, color.a)
}

impl DebugDraw for EguiDraw<'_> {
    fn polygon(&mut self, points: &[Vec2], color: Color, filled: bool) {
        let screen: Vec<Pos2> = points.iter().map(|&p| self.to_screen(p)).collect();
        let stroke = Stroke::new(1.5, color32(color));
        if filled && screen.len() >= 3 {
            let fill = color32(color.with_alpha(FILL_ALPHA.min(color.a)));
            self.painter
                .add(egui::Shape::convex_polygon(screen, fill, stroke));
        } else {
            self.painter.add(egui::Shape::closed_line(screen, stroke));
        }
    }

    fn circle(&mut self, center: Vec2, radius: f32, color: Color, filled: bool) {
        let center = self.to_screen(center);
        let radius = radius * self.camera.pixels_per_unit;
        let stroke = Stroke::new(1.5, color32(color));
        if filled {
            let fill = color32(color.with_alpha(FILL_ALPHA.min(color.a)));
            self.painter.circle(center, radius, fill, stroke);
        } else {
            self.painter.circle_stroke(center, radius, stroke);
        }
    }

    fn segment(&mut self, a: Vec2, b: Vec2, color: Color) {
        let points = [self.to_screen(a), self.to_screen(b)];
        self.painter
            .line_segment(points, Stroke::new(1.5, color32(color)));
    }

    fn point(&mut self, p: Vec2, size: f32, color: Color) {
        self.painter
            .circle_filled(self.to_screen(p), 0.5 * size, color32(color));
    }

    fn label(&mut self, at: Vec2, text: &str, color: Color) {
        self.painter.text(
            self.to_screen(at) + egui::vec2(4.0, -2.0),
            Align2::LEFT_BOTTOM,
            text,
            FontId::monospace(13.0),
            color32(color),
        );
    }
}
