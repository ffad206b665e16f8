//! Shapes and transforms round-trip through serde, and deserialising re-validates.
#![cfg(feature = "serde")]

use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Segment, Shape};
use collide2d::{Transform, Vec2};

fn round_trip(shape: &Shape) -> Shape {
    let json = serde_json::to_string(shape).unwrap();
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn every_shape_round_trips_exactly() {
    let shapes = [
        Shape::from(Circle::new(Vec2::new(1.0, 2.0), 0.5).unwrap()),
        Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(0.0, 2.0), 0.25).unwrap()),
        Shape::from(Segment::new(Vec2::ZERO, Vec2::new(3.0, 1.0)).unwrap()),
        Shape::from(Polygon::regular(7, 1.5).unwrap()),
        Shape::from(Polygon::rounded_rect(2.0, 1.0, 0.2).unwrap()),
        Shape::from(
            Compound::from_concave(&[
                Vec2::new(0.0, 0.0),
                Vec2::new(3.0, 0.0),
                Vec2::new(3.0, 3.0),
                Vec2::new(2.0, 1.0),
                Vec2::new(0.0, 3.0),
            ])
            .unwrap(),
        ),
        Shape::from(
            Chain::open(&[
                Vec2::new(5.0, 0.0),
                Vec2::new(0.0, 0.0),
                Vec2::new(-1.0, 2.0),
            ])
            .unwrap(),
        ),
        Shape::from(
            Chain::closed(&[Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(1.0, 1.5)]).unwrap(),
        ),
    ];
    for shape in &shapes {
        assert_eq!(&round_trip(shape), shape);
    }
    let xf = Transform::new(Vec2::new(-3.5, 1e6), 0.3);
    let json = serde_json::to_string(&xf).unwrap();
    assert_eq!(serde_json::from_str::<Transform>(&json).unwrap(), xf);
}

#[test]
fn hand_edited_bad_shapes_are_errors() {
    let not_convex = r#"{"kind":"polygon","vertices":[[0,0],[2,1],[0,2],[0.5,1]],"radius":0}"#;
    let error = serde_json::from_str::<Shape>(not_convex).unwrap_err();
    assert!(error.to_string().contains("not convex"), "{error}");
    let negative = r#"{"kind":"circle","center":[0,0],"radius":-1}"#;
    let error = serde_json::from_str::<Shape>(negative).unwrap_err();
    assert!(error.to_string().contains("negative"), "{error}");
    let degenerate = r#"{"kind":"segment","a":[1,1],"b":[1,1]}"#;
    assert!(serde_json::from_str::<Shape>(degenerate).is_err());
    let empty = r#"{"kind":"compound","children":[]}"#;
    assert!(serde_json::from_str::<Shape>(empty).is_err());
    let short_chain = r#"{"kind":"chain","vertices":[[0,0]],"closed":false}"#;
    assert!(serde_json::from_str::<Shape>(short_chain).is_err());
    let repeated = r#"{"kind":"chain","vertices":[[0,0],[0,0],[1,0]],"closed":false}"#;
    let error = serde_json::from_str::<Shape>(repeated).unwrap_err();
    assert!(error.to_string().contains("coincide"), "{error}");
}
