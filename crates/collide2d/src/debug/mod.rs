//! Debug drawing: one small interface through which shapes, contacts and worlds are drawn.
//!
//! Implement [`DebugDraw`] for your engine's renderer and call [`draw_shape`] and
//! [`draw_manifold`]; the command-line renderer and the testbed draw through the same functions.
#![cfg_attr(
    feature = "render",
    doc = "With the `render` feature, [`Canvas`] implements it with tiny-skia and writes PNG files."
)]
#![cfg_attr(
    not(feature = "render"),
    doc = "With the `render` feature, `Canvas` implements it with tiny-skia and writes PNG files."
)]

#[cfg(feature = "render")]
mod canvas;

#[cfg(feature = "render")]
pub use canvas::{Canvas, RenderError};

use crate::math::{left_perp, Transform, Vec2};
use crate::query::Manifold;
use crate::shape::{Polygon, Shape};

/// An sRGB colour with alpha, 0–255 per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity (255 = opaque).
    pub a: u8,
}

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b, a: 255 }
    }

    /// The same colour with opacity `a`.
    pub const fn with_alpha(self, a: u8) -> Color {
        Color { a, ..self }
    }

    /// Colliders that touch nothing.
    pub const FREE: Color = Color::rgb(46, 204, 64);
    /// Colliders that overlap something.
    pub const OVERLAPPING: Color = Color::rgb(232, 52, 52);
    /// Sensors.
    pub const SENSOR: Color = Color::rgb(66, 135, 245);
    /// Contact points.
    pub const CONTACT: Color = Color::rgb(255, 214, 10);
    /// Contact normals.
    pub const NORMAL: Color = Color::rgb(255, 255, 255);
    /// Bounding boxes and broad-phase structure.
    pub const BOUNDS: Color = Color::rgb(140, 140, 160);
}

/// What a renderer must provide. Coordinates are world space; the implementation maps them to
/// its screen.
pub trait DebugDraw {
    /// A closed polygon outline, filled with a translucent `color` when `filled`.
    fn polygon(&mut self, points: &[Vec2], color: Color, filled: bool);
    /// A circle outline, filled when `filled`.
    fn circle(&mut self, center: Vec2, radius: f32, color: Color, filled: bool);
    /// A line segment.
    fn segment(&mut self, a: Vec2, b: Vec2, color: Color);
    /// A dot of about `size` pixels.
    fn point(&mut self, p: Vec2, size: f32, color: Color);
    /// A short text label with its lower-left corner at `at`. Renderers without text may
    /// ignore it (the default).
    fn label(&mut self, at: Vec2, text: &str, color: Color) {
        let _ = (at, text, color);
    }
}

/// How many straight pieces approximate a quarter circle in outlines.
const ARC_PIECES_PER_QUARTER: usize = 6;

/// The outline of a convex shape as a closed polygon in world space (arcs approximated).
pub fn outline(shape: &Shape, xf: &Transform) -> Vec<Vec2> {
    match shape {
        Shape::Circle(c) => rounded_outline(&[c.center()], &[Vec2::X], c.radius(), xf),
        Shape::Capsule(c) => {
            let axis = (c.b() - c.a()).try_normalize().unwrap_or(Vec2::X);
            let side = left_perp(axis);
            rounded_outline(&[c.a(), c.b()], &[-side, side], c.radius(), xf)
        }
        Shape::Segment(s) => vec![xf.apply(s.a()), xf.apply(s.b())],
        Shape::Polygon(p) => polygon_outline(p, xf),
        Shape::Compound(_) | Shape::Chain(_) => Vec::new(),
    }
}

fn polygon_outline(polygon: &Polygon, xf: &Transform) -> Vec<Vec2> {
    if polygon.radius() == 0.0 {
        return polygon.vertices().iter().map(|v| xf.apply(*v)).collect();
    }
    rounded_outline(polygon.vertices(), polygon.normals(), polygon.radius(), xf)
}

/// A core (1, 2 or more points with outward edge normals) inflated by `radius`, as an outline:
/// each edge pushed out, joined by arcs around the vertices.
fn rounded_outline(vertices: &[Vec2], normals: &[Vec2], radius: f32, xf: &Transform) -> Vec<Vec2> {
    let count = vertices.len();
    let mut points = Vec::new();
    if count == 1 {
        let pieces = 4 * ARC_PIECES_PER_QUARTER;
        for i in 0..pieces {
            let angle = i as f32 / pieces as f32 * std::f32::consts::TAU;
            points.push(xf.apply(vertices[0] + Vec2::from_angle(angle) * radius));
        }
        return points;
    }
    for i in 0..count {
        // Arc at vertex i from the previous edge's normal to this edge's normal.
        let from = normals[(i + count - 1) % count];
        let to = normals[i];
        let sweep = from.perp_dot(to).atan2(from.dot(to));
        let sweep = if count == 2 && sweep <= 0.0 {
            std::f32::consts::PI
        } else {
            sweep
        };
        let pieces = ((sweep / std::f32::consts::FRAC_PI_2) * ARC_PIECES_PER_QUARTER as f32)
            .ceil()
            .max(1.0) as usize;
        let start_angle = from.to_angle();
        for step in 0..=pieces {
            let angle = start_angle + sweep * step as f32 / pieces as f32;
            points.push(xf.apply(vertices[i] + Vec2::from_angle(angle) * radius));
        }
    }
    points
}

/// Draws a placed shape's outline, filled translucently.
pub fn draw_shape(draw: &mut dyn DebugDraw, shape: &Shape, xf: &Transform, color: Color) {
    match shape {
        Shape::Circle(c) => {
            let center = xf.apply(c.center());
            draw.circle(center, c.radius(), color, true);
            // A radius line shows the rotation.
            draw.segment(center, center + xf.rotate(Vec2::X) * c.radius(), color);
        }
        Shape::Segment(s) => draw.segment(xf.apply(s.a()), xf.apply(s.b()), color),
        Shape::Compound(compound) => {
            for (child_xf, child) in compound.children() {
                draw_shape(draw, child, &xf.mul(child_xf), color);
            }
        }
        Shape::Chain(chain) => {
            // Each segment, with a short tick on its collision side at the middle.
            let tick = 0.02 * chain.local_aabb().extents().length();
            for (index, normal) in chain.normals().iter().enumerate() {
                let (a, b) = chain.segment_points(index);
                let (a, b) = (xf.apply(a), xf.apply(b));
                draw.segment(a, b, color);
                let middle = 0.5 * (a + b);
                let tick = tick.min(0.25 * a.distance(b));
                draw.segment(middle, middle + xf.rotate(*normal) * tick, color);
            }
        }
        _ => draw.polygon(&outline(shape, xf), color, true),
    }
}

/// Draws a manifold: each contact point, and the normal from it, `normal_length` long.
pub fn draw_manifold(draw: &mut dyn DebugDraw, manifold: &Manifold, normal_length: f32) {
    for contact in manifold.points() {
        draw.point(contact.point, 5.0, Color::CONTACT);
        draw.segment(
            contact.point,
            contact.point + manifold.normal * normal_length,
            Color::NORMAL,
        );
    }
}

/// Draws an axis-aligned box outline.
pub fn draw_aabb(draw: &mut dyn DebugDraw, aabb: &crate::shape::Aabb, color: Color) {
    let corners = [
        aabb.min,
        Vec2::new(aabb.max.x, aabb.min.y),
        aabb.max,
        Vec2::new(aabb.min.x, aabb.max.y),
    ];
    draw.polygon(&corners, color, false);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Circle};

    #[derive(Default)]
    struct Recorder {
        polygons: Vec<Vec<Vec2>>,
        circles: usize,
        segments: usize,
    }

    impl DebugDraw for Recorder {
        fn polygon(&mut self, points: &[Vec2], _: Color, _: bool) {
            self.polygons.push(points.to_vec());
        }
        fn circle(&mut self, _: Vec2, _: f32, _: Color, _: bool) {
            self.circles += 1;
        }
        fn segment(&mut self, _: Vec2, _: Vec2, _: Color) {
            self.segments += 1;
        }
        fn point(&mut self, _: Vec2, _: f32, _: Color) {}
    }

    #[test]
    fn rounded_outlines_lie_on_the_surface() {
        let shapes = [
            Shape::from(Polygon::rounded_rect(3.0, 2.0, 0.4).unwrap()),
            Shape::from(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.5), 0.3).unwrap()),
            Shape::from(Circle::new(Vec2::new(0.5, 0.0), 0.7).unwrap()),
        ];
        let xf = Transform::new(Vec2::new(3.0, -2.0), 0.6);
        for shape in &shapes {
            let points = outline(shape, &xf);
            assert!(points.len() > 8);
            for p in points {
                let projection = shape.project_point(&xf, p);
                assert!(
                    projection.distance < 1e-4,
                    "{shape:?}: {p:?} off by {}",
                    projection.distance
                );
            }
        }
    }

    #[test]
    fn compounds_draw_every_child() {
        let compound = crate::shape::Compound::from_concave(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ])
        .unwrap();
        let mut recorder = Recorder::default();
        draw_shape(
            &mut recorder,
            &Shape::from(compound),
            &Transform::IDENTITY,
            Color::FREE,
        );
        assert_eq!(recorder.polygons.len(), 2);
        assert_eq!((recorder.circles, recorder.segments), (0, 0));
    }
}
