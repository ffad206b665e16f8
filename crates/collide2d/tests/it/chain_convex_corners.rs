//! Shapes at the convex corners and flat joints of chains: a chain wound round a convex outline
//! answers as the polygon it outlines for every shape outside it. A shape resting on one face
//! and reaching past the corner is pushed straight off that face (its normal square to the
//! neighbouring face, in front of neither and behind neither), with both ends of its face; a
//! shape resting across flat joints gets points at both ends of all of its face over the
//! floor, not only over one segment.

use crate::manifold_reference::{check_manifold, place, size_of, Family, Setting, FAMILIES};
use crate::support::Rng;
use collide2d::shape::{Chain, Polygon, Shape};
use collide2d::{collide, collide_speculative, Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

#[test]
fn box_resting_on_a_square_chain_past_its_corner_is_pushed_up() {
    let platform = Shape::from(
        Chain::closed(&[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)]).unwrap(),
    );
    let crate_box = Shape::from(Polygon::rect(0.5, 0.5).unwrap());
    // Resting 0.01 deep on the top face, reaching 0.15 past the left corner.
    for (x, depth) in [(-1.1, 0.01), (-1.1, 0.0), (1.1, 0.01), (-1.2, 1e-4)] {
        let at = Transform::new(v(x, 1.25 - depth), 0.0);
        let m = collide(&platform, &Transform::IDENTITY, &crate_box, &at);
        assert_eq!(m.count, 2, "{x} {depth}: {m:?}");
        assert!((m.normal - Vec2::Y).length() < 1e-6, "{x} {depth}: {m:?}");
        assert!(
            (m.max_penetration() - depth).abs() < 1e-5,
            "{x} {depth}: {m:?}"
        );
    }
}

/// A closed chain around a convex outline, with `extra` collinear vertices put into some of
/// its edges (flat joints), and the polygon it outlines.
fn chain_around(polygon: &Polygon, rng: &mut Rng) -> Shape {
    let vertices = polygon.vertices();
    let mut points = Vec::new();
    for (i, &v) in vertices.iter().enumerate() {
        points.push(v);
        let next = vertices[(i + 1) % vertices.len()];
        if rng.chance(0.6) {
            for k in 1..=rng.below(3) + 1 {
                let f = k as f32 / 4.0 + rng.range(-0.05, 0.05);
                points.push(v + (next - v) * f);
            }
        }
    }
    Shape::from(collide2d::shape::Chain::closed(&points).unwrap())
}

#[test]
fn box_resting_across_a_flat_joint_gets_both_ends_of_its_face() {
    let platform = Shape::from(
        Chain::closed(&[
            v(-1.0, -1.0),
            v(1.0, -1.0),
            v(1.0, 1.0),
            v(0.1, 1.0),
            v(-1.0, 1.0),
        ])
        .unwrap(),
    );
    let plank = Shape::from(Polygon::rect(1.0, 0.5).unwrap());
    for x in [0.0f32, 0.3, -0.3, 0.55] {
        let m = collide(
            &platform,
            &Transform::IDENTITY,
            &plank,
            &Transform::new(v(x, 1.24), 0.0),
        );
        let mut ends: Vec<f32> = m.points().iter().map(|p| p.point.x).collect();
        ends.sort_by(f32::total_cmp);
        let expected = [(x - 0.5).max(-1.0), (x + 0.5).min(1.0)];
        assert_eq!(m.count, 2, "{x}: {m:?}");
        assert!(
            (ends[0] - expected[0]).abs() < 1e-5 && (ends[1] - expected[1]).abs() < 1e-5,
            "{x}: points at {ends:?}, the plank's face over the floor spans {expected:?}: {m:?}"
        );
        assert!((m.normal - Vec2::Y).length() < 1e-6 && (m.max_penetration() - 0.01).abs() < 1e-5);
    }
}

/// Every family against closed chains round boxes and convex polygons of 3 to 64 vertices,
/// with collinear vertices put into their edges: 600 placements per family (face to face,
/// tilted by 0 to 0.3 rad, touching to 0.02 deep, sizes 0.05 to 1 of the outline's, 0 to 1e5
/// from the origin), kept where the shape's centroid is outside the outline and in front of
/// every face near it: the chain's manifold is the polygon's, against the exact reference.
#[test]
fn closed_chains_answer_as_their_polygon() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for (j, &fb) in FAMILIES.iter().enumerate() {
        let mut rng = Rng(9000 + j as u64);
        for index in 0..600 {
            let fa = rng.pick(&[Family::Polygon, Family::ManySided, Family::Box]);
            let setting = Setting {
                far: rng.pick(&[0.0f32, 10.0, 1e5]),
                tilt: Some(
                    rng.pick(&[0.0f32, 1e-6, 1e-4, 1e-2, 0.3])
                        * if rng.chance(0.5) { 1.0 } else { -1.0 },
                ),
                depth: rng.pick(&[0.0f32, 1e-6, 1e-4, 1e-3, 0.02]),
                ratio: rng.pick(&[0.05f32, 0.3, 1.0]),
                quarter: rng.chance(0.3),
            };
            let (a, xf_a, b, xf_b) = place(fa, fb, setting, &mut rng);
            let Shape::Polygon(polygon) = &a else {
                continue;
            };
            // Centroid well in front of every face it is near.
            let centroid = xf_a.apply_inv(xf_b.apply(b.centroid()));
            let count = polygon.vertices().len();
            let near_behind = (0..count).any(|i| {
                let (v, w) = (polygon.vertices()[i], polygon.vertices()[(i + 1) % count]);
                let n = polygon.normals()[i];
                let f = ((centroid - v).dot(w - v) / (w - v).length_squared()).clamp(0.0, 1.0);
                let near = centroid.distance(v + (w - v) * f) < size_of(&b);
                near && (centroid - v).dot(n) < 0.1 * size_of(&b)
            });
            if near_behind {
                continue;
            }
            let chain = chain_around(polygon, &mut rng);
            for margin in [0.0, 0.01 * size_of(&b)] {
                cases += 1;
                let m = collide_speculative(&chain, &xf_a, &b, &xf_b, margin);
                if let Err(e) = check_manifold(&a, &xf_a, &b, &xf_b, margin, &m) {
                    failures.push(format!(
                        "{fa:?}-{fb:?} case {index} margin {margin:e} {setting:?}: {e}\n  chain {chain:?} at {xf_a:?}\n  b {b:?} at {xf_b:?}\n  -> {m:?}\n  polygon: {:?}",
                        collide_speculative(&a, &xf_a, &b, &xf_b, margin)
                    ));
                }
            }
        }
    }
    println!("{cases} cases, {} failures", failures.len());
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(2)].join("\n")
    );
    assert!(cases > 2000, "{cases}");
}
