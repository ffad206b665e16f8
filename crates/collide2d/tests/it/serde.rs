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
fn thin_and_huge_ratio_shapes_round_trip_exactly() {
    // A rect(1, 1e-6) has short edges below its weld distance (1e-5 of its diagonal): the
    // constructors make it, but deserialising went through Polygon::new, which welded it to
    // two points and refused it, so a world holding one could not restore its snapshot.
    let thin = |width: f32, height: f32| Shape::from(Polygon::rect(width, height).unwrap());
    let mut shapes = vec![
        thin(1.0, 1e-6),
        thin(1e9, 1e-3),
        thin(1e-3, 1e6),
        thin(1e-6, 1e-11),
        Shape::from(Polygon::rect(1.0, 1e-6).unwrap().with_radius(0.25).unwrap()),
        Shape::from(Polygon::regular(64, 1e9).unwrap()),
        Shape::from(
            Compound::new(vec![
                (Transform::new(Vec2::new(1e6, 0.0), 0.3), thin(2e6, 1e-2)),
                (Transform::IDENTITY, thin(1.0, 1e-7)),
            ])
            .unwrap(),
        ),
        Shape::from(Chain::open(&[Vec2::ZERO, Vec2::new(1e9, 0.0), Vec2::new(1e9, 1e-3)]).unwrap()),
        Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(1e9, 0.0), 1e-6).unwrap()),
    ];
    // Seeded thin boxes at every turn and scale.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f32 / (1u64 << 53) as f32
    };
    for _ in 0..200 {
        let length = 10f32.powf(next() * 12.0 - 3.0);
        let ratio = 10f32.powf(-next() * 8.0);
        let half = Vec2::new(length, (length * ratio).max(1e-9)) * 0.5;
        let center = Vec2::new(next() - 0.5, next() - 0.5) * 1e3;
        if let Ok(polygon) = Polygon::box_at(center, half, next() * 7.0) {
            shapes.push(Shape::from(polygon));
        }
        if let Ok(polygon) = Polygon::rect(half.x * 2.0, half.y * 2.0) {
            shapes.push(Shape::from(polygon));
        }
    }
    assert!(shapes.len() > 250);
    for shape in &shapes {
        assert_eq!(&round_trip(shape), shape);
    }
}

#[test]
fn hand_edited_bad_shapes_are_errors() {
    let not_convex = r#"{"kind":"polygon","vertices":[[0,0],[2,1],[0,2],[0.5,1]],"radius":0}"#;
    // A pentagram turns left at every vertex but winds twice.
    let star = r#"{"kind":"polygon","vertices":[[1,0],[-0.809,0.588],[0.309,-0.951],[0.309,0.951],[-0.809,-0.588]],"radius":0}"#;
    assert!(serde_json::from_str::<Shape>(star).is_err());
    let clockwise = r#"{"kind":"polygon","vertices":[[0,0],[0,1],[1,0]],"radius":0}"#;
    let reversed = serde_json::from_str::<Shape>(clockwise).unwrap();
    assert_eq!(
        reversed,
        Shape::from(Polygon::new(&[Vec2::ZERO, Vec2::Y, Vec2::X]).unwrap())
    );
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

/// A compound read back from JSON is the compound written, whatever its children's turns: a
/// compound built again from another's children keeps their rotations (normalising a
/// rotation again may move it to neighbouring floats and back).
#[test]
fn compounds_with_turned_children_round_trip_exactly() {
    let mut moved = 0;
    for step in 0..20_000 {
        let angle = -3.2 + step as f32 * 3.2e-4;
        let child = Polygon::rect(2.0, 1.0).unwrap();
        let compound = Compound::new(vec![
            (
                Transform::new(Vec2::ZERO, angle),
                Shape::from(child.clone()),
            ),
            (
                Transform::new(Vec2::new(1.5, 0.25), -angle * 0.7),
                Shape::from(child),
            ),
        ])
        .unwrap();
        let again = Compound::new(compound.children().to_vec()).unwrap();
        assert_eq!(
            again, compound,
            "angle {angle:?}: built again from its children"
        );
        let shape = Shape::from(compound);
        assert_eq!(round_trip(&shape), shape, "angle {angle:?}");
        let Shape::Compound(compound) = &shape else {
            unreachable!()
        };
        moved += usize::from(compound.children()[0].0.q != Transform::new(Vec2::ZERO, angle).q);
    }
    assert_eq!(moved, 0, "children keep the rotations they were given");
}

/// A world holding turned compounds that touch other colliders restores from its JSON
/// snapshot and goes on with the same events (its contacts must match its colliders).
#[test]
fn a_world_of_turned_compounds_restores_from_json() {
    use collide2d::world::{Collider, World, WorldSnapshot};
    for seed in 0..40u32 {
        let mut world = World::new();
        let child = Shape::from(Polygon::rect(2.0, 1.0).unwrap());
        for i in 0..12 {
            let angle = 0.37 * (seed * 12 + i) as f32 + 1.0;
            let compound = Compound::new(vec![
                (Transform::new(Vec2::ZERO, angle), child.clone()),
                (
                    Transform::new(Vec2::new(0.9, 0.4), angle * 1.7),
                    child.clone(),
                ),
            ])
            .unwrap();
            let at = Vec2::new((i % 4) as f32 * 1.8, (i / 4) as f32 * 1.6);
            world
                .insert(
                    Collider::new(Shape::from(compound))
                        .with_transform(Transform::new(at, 0.1 * i as f32)),
                )
                .unwrap();
            let ball = Shape::from(Circle::with_radius(0.5).unwrap());
            world
                .insert(
                    Collider::new(ball)
                        .with_transform(Transform::new(at + Vec2::new(0.8, 0.3), 0.0)),
                )
                .unwrap();
        }
        world.update();
        assert!(!world.events().is_empty(), "seed {seed}: touching pairs");
        let json = serde_json::to_string(&world.snapshot()).unwrap();
        let snapshot: WorldSnapshot = serde_json::from_str(&json).unwrap();
        let mut restored = World::restore(snapshot)
            .unwrap_or_else(|e| panic!("seed {seed}: the snapshot is refused: {e}"));
        world.update();
        restored.update();
        assert_eq!(world.events(), restored.events(), "seed {seed}");
    }
}
