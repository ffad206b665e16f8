//! `move_and_slide` with many solve-and-cast rounds: a round that ends where it began with no
//! new plane repeats identically, so the call stops there. With `max_iterations = u32::MAX` a
//! circle wedged between triangles and segments never returned (each round cast into the same
//! face at fraction 0 and added a copy of its plane; the solve, cubic in the planes, took 3.4 s
//! at 1,000 rounds), while its answer was settled after 100.

use crate::support::{random_shape, Rng, ALL_KINDS};

use collide2d::shape::{Circle, Polygon, Segment, Shape};
use collide2d::world::{Collider, MoveOptions, MoveResult, World};
use collide2d::{Transform, Vec2};

/// The move of the last collider of `scene` (a fresh world each time) by `delta`.
fn moved(scene: &[(Shape, Transform)], delta: Vec2, rounds: u32) -> MoveResult {
    let mut world = World::new();
    let mut hero = None;
    for (shape, xf) in scene {
        hero = Some(
            world
                .insert(Collider::new(shape.clone()).with_transform(*xf))
                .unwrap(),
        );
    }
    let options = MoveOptions {
        max_iterations: rounds,
        ..MoveOptions::default()
    };
    world.move_and_slide(hero.unwrap(), delta, options).unwrap()
}

#[test]
fn the_wedged_circle_ends_with_the_answer_it_settled_on() {
    let triangle = Shape::from(Polygon::regular(3, 0.7).unwrap());
    let segment = Shape::from(Segment::new(Vec2::ZERO, Vec2::new(1.0, 0.3)).unwrap());
    let rect = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
    let circle = Shape::from(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let scene: [(&Shape, f32, f32, f32); 12] = [
        (&segment, 0.596_621_33, 1.857_559_7, -0.134_773_25),
        (&triangle, 0.095_242_895, -1.703_637_6, -0.780_111_5),
        (&triangle, -1.586_866_6, -1.450_057_5, -2.801_500_3),
        (&triangle, -0.017_135_995, 0.413_832_4, 0.195_016_85),
        (&triangle, 0.722_436_96, 0.547_780_6, 0.616_261_5),
        (&triangle, 0.023_801_368, -1.701_542_1, -2.415_913_3),
        (&segment, -1.152_454, -0.338_439_35, 0.884_110_5),
        (&segment, 0.398_924_9, -1.022_818_7, -1.396_171_9),
        (&segment, 0.650_022_7, 0.878_558_16, -2.208_381_2),
        (&rect, -0.917_048_16, -1.405_150_4, 0.672_878_5),
        (&rect, 1.479_314_7, -0.935_065_45, 0.866_131_1),
        (&circle, 0.544_145_8, 1.767_404_1, 1.337_478_9),
    ];
    let mut scene: Vec<(Shape, Transform)> = scene
        .iter()
        .map(|&(shape, x, y, angle)| (shape.clone(), Transform::new(Vec2::new(x, y), angle)))
        .collect();
    scene.push((
        Shape::from(Circle::new(Vec2::ZERO, 0.3).unwrap()),
        Transform::new(Vec2::new(1.732_028_2, 0.337_180_38), 0.0),
    ));
    let delta = Vec2::new(-49.654_945, -17.359_65);
    let settled = moved(&scene, delta, 100);
    for rounds in [1_000, 100_000, u32::MAX] {
        let answer = moved(&scene, delta, rounds);
        assert_eq!(answer, settled, "{rounds} rounds");
    }
    assert!((settled.moved - Vec2::new(-0.563_284_6, -0.398_648_1)).length() < 1e-5);
}

/// Random crowded scenes of every kind: with `u32::MAX` rounds each call ends, with the
/// answer of 1,000 rounds.
#[test]
fn calls_with_unbounded_rounds_end_with_the_answer_of_a_thousand() {
    let mut rng = Rng(0x726f_756e_6473);
    for case in 0..150 {
        let mut scene = Vec::new();
        for _ in 0..12 {
            let kind = rng.pick(&ALL_KINDS);
            let size = rng.range(0.3, 1.2);
            let shape = random_shape(&mut rng, kind, size);
            scene.push((shape, Transform::new(rng.point(2.0), rng.angle())));
        }
        let kind = rng.pick(&ALL_KINDS[..5]);
        let size = rng.range(0.2, 0.6);
        let shape = random_shape(&mut rng, kind, size);
        scene.push((shape, Transform::new(rng.point(2.0), 0.0)));
        let delta = rng.point(50.0);
        let bounded = moved(&scene, delta, 1_000);
        let unbounded = moved(&scene, delta, u32::MAX);
        assert_eq!(bounded, unbounded, "case {case}");
    }
}
