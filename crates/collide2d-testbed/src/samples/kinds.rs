//! The shapes offered in the pair samples, one of each kind the library has.

use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Segment, Shape};
use collide2d::Vec2;

/// A kind of shape to pick for A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeKind {
    /// A circle of radius 0.6.
    Circle,
    /// A capsule 1.6 long.
    Capsule,
    /// A bare segment.
    Segment,
    /// A 1.4 × 1 box.
    Box,
    /// A box with rounded corners.
    RoundedBox,
    /// A regular octagon.
    Octagon,
    /// A concave outline decomposed into convex pieces.
    Concave,
    /// A one-sided zig-zag polyline (collision side up).
    Chain,
}

impl ShapeKind {
    /// Every kind, in menu order.
    pub const ALL: [ShapeKind; 8] = [
        ShapeKind::Circle,
        ShapeKind::Capsule,
        ShapeKind::Segment,
        ShapeKind::Box,
        ShapeKind::RoundedBox,
        ShapeKind::Octagon,
        ShapeKind::Concave,
        ShapeKind::Chain,
    ];

    /// The menu entry.
    pub fn title(self) -> &'static str {
        match self {
            ShapeKind::Circle => "circle",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Segment => "segment",
            ShapeKind::Box => "box",
            ShapeKind::RoundedBox => "rounded box",
            ShapeKind::Octagon => "8-gon",
            ShapeKind::Concave => "concave",
            ShapeKind::Chain => "chain",
        }
    }

    /// The shape, centred near its local origin.
    pub fn shape(self) -> Shape {
        let shape = match self {
            ShapeKind::Circle => Circle::with_radius(0.6).map(Shape::from),
            ShapeKind::Capsule => {
                Capsule::new(Vec2::new(-0.8, 0.0), Vec2::new(0.8, 0.0), 0.35).map(Shape::from)
            }
            ShapeKind::Segment => {
                Segment::new(Vec2::new(-1.0, -0.2), Vec2::new(1.0, 0.2)).map(Shape::from)
            }
            ShapeKind::Box => Polygon::rect(1.4, 1.0).map(Shape::from),
            ShapeKind::RoundedBox => Polygon::rounded_rect(1.4, 1.0, 0.2).map(Shape::from),
            ShapeKind::Octagon => Polygon::regular(8, 0.75).map(Shape::from),
            ShapeKind::Concave => Compound::from_concave(&[
                Vec2::new(-0.9, -0.8),
                Vec2::new(0.9, -0.8),
                Vec2::new(0.9, 0.8),
                Vec2::new(0.3, 0.8),
                Vec2::new(0.3, -0.2),
                Vec2::new(-0.3, -0.2),
                Vec2::new(-0.3, 0.8),
                Vec2::new(-0.9, 0.8),
            ])
            .map(Shape::from),
            // Drawn right to left, so the collision side (the right) faces up.
            ShapeKind::Chain => Chain::open(&[
                Vec2::new(1.6, 0.1),
                Vec2::new(0.8, -0.3),
                Vec2::new(0.0, 0.2),
                Vec2::new(-0.8, -0.3),
                Vec2::new(-1.6, 0.1),
            ])
            .map(Shape::from),
        };
        shape.expect("the sample shapes are valid")
    }
}

/// A combo box choosing a shape kind; returns whether the choice changed.
pub fn shape_kind_menu(ui: &mut egui::Ui, label: &str, kind: &mut ShapeKind) -> bool {
    let before = *kind;
    egui::ComboBox::from_label(label)
        .selected_text(kind.title())
        .show_ui(ui, |ui| {
            for option in ShapeKind::ALL {
                ui.selectable_value(kind, option, option.title());
            }
        });
    *kind != before
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_builds() {
        for kind in ShapeKind::ALL {
            let shape = kind.shape();
            assert!(
                shape.aabb(&collide2d::Transform::IDENTITY).is_valid(),
                "{kind:?}"
            );
        }
    }
}
