//! Shapes the mouse can pick up, move and turn: shared by the samples.

use collide2d::shape::Shape;
use collide2d::{Transform, Vec2};

use crate::sample::Input;

/// A shape placed in the world.
#[derive(Clone, Debug)]
pub struct Body {
    /// The shape, in its local frame.
    pub shape: Shape,
    /// Where it is.
    pub xf: Transform,
}

impl Body {
    /// A body at `position`, turned by `angle` radians.
    pub fn new(shape: Shape, position: Vec2, angle: f32) -> Body {
        Body {
            shape,
            xf: Transform::new(position, angle),
        }
    }

    /// Whether the mouse at `point` picks this body: inside it, or within `pick_radius` of a
    /// thin shape's line.
    pub fn picked_by(&self, point: Vec2, pick_radius: f32) -> bool {
        self.shape.contains(&self.xf, point)
            || self.shape.project_point(&self.xf, point).distance <= pick_radius
    }
}

/// Which body the mouse holds, and where on it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Grab {
    held: Option<(usize, Vec2)>,
    hovered: Option<usize>,
}

impl Grab {
    /// The body being dragged, if any.
    pub fn held(&self) -> Option<usize> {
        self.held.map(|(index, _)| index)
    }

    /// The body being dragged, or else the one under the mouse.
    pub fn active(&self) -> Option<usize> {
        self.held().or(self.hovered)
    }

    /// Picks up, drags, turns and drops `bodies` following `input`. Returns whether anything
    /// moved. The last body in the slice is on top, so it is picked first.
    pub fn apply(&mut self, bodies: &mut [Body], input: &Input) -> bool {
        let mut moved = false;
        self.hovered = input.mouse.and_then(|mouse| {
            (0..bodies.len())
                .rev()
                .find(|&i| bodies[i].picked_by(mouse, input.pick_radius))
        });
        if input.pressed {
            self.held = match (input.mouse, self.hovered) {
                (Some(mouse), Some(index)) => Some((index, bodies[index].xf.apply_inv(mouse))),
                _ => None,
            };
        }
        if let (Some((index, local_anchor)), Some(mouse)) = (self.held, input.mouse) {
            if let Some(body) = bodies.get_mut(index) {
                let anchor = body.xf.apply(local_anchor);
                if anchor != mouse {
                    body.xf.p += mouse - anchor;
                    moved = true;
                }
            }
        }
        if input.rotate != 0.0 {
            if let Some(body) = self.active().and_then(|i| bodies.get_mut(i)) {
                // Turn about the grabbed point when dragging, about the origin otherwise.
                let pivot = match self.held {
                    Some((_, local_anchor)) => body.xf.apply(local_anchor),
                    None => body.xf.p,
                };
                let turned = Transform::new(Vec2::ZERO, input.rotate);
                let angle = body.xf.angle() + input.rotate;
                body.xf = Transform::new(pivot + turned.rotate(body.xf.p - pivot), angle);
                moved = true;
            }
        }
        if input.released || !input.held {
            self.held = None;
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide2d::shape::Polygon;

    #[test]
    fn dragging_moves_the_grabbed_point_with_the_mouse() {
        let mut bodies = vec![Body::new(
            Shape::from(Polygon::rect(2.0, 2.0).unwrap()),
            Vec2::ZERO,
            0.0,
        )];
        let mut grab = Grab::default();
        let mut input = Input {
            mouse: Some(Vec2::new(0.5, 0.5)),
            pressed: true,
            held: true,
            pick_radius: 0.1,
            ..Input::default()
        };
        grab.apply(&mut bodies, &input);
        assert_eq!(grab.held(), Some(0));
        input.pressed = false;
        input.mouse = Some(Vec2::new(3.5, 1.5));
        assert!(grab.apply(&mut bodies, &input));
        assert!((bodies[0].xf.p - Vec2::new(3.0, 1.0)).length() < 1e-5);
        input.held = false;
        input.released = true;
        grab.apply(&mut bodies, &input);
        assert_eq!(grab.held(), None);
    }
}
