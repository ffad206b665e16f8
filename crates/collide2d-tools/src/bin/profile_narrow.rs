//! Narrow-phase profiling driver: runs one benchmark case on the same 256 configurations as
//! `benches/narrow_phase.rs`, many times over, for `valgrind --tool=callgrind`.
//!
//! ```text
//! cargo build --release -p collide2d-tools --bin profile_narrow
//! valgrind --tool=callgrind target/release/profile_narrow octagon 100000
//! ```
//! Cases: `octagon`, `box`, `box_overlap`, `circle`, `circle_polygon`, `capsule`, `setup`
//! (`setup` builds the inputs only, to subtract the fixed cost), and the pairs of the world
//! scene's shapes (circle of radius 0.5, 0.9 × 0.7 box, capsule, hexagon of radius 0.5, at
//! distances where their boxes overlap): `capsule_hexagon`, `hexagon_capsule`, `capsule_box`,
//! `box_capsule`, `hexagon_box`, `box_hexagon`, `hexagon`, `circle_hexagon`, `hexagon_circle`,
//! `circle_box`, `circle_capsule`, `scene_capsule`, and `mix` (all sixteen ordered pairs in turn);
//! `rounded_octagon` (octagons of radius 0.8 rounded by 0.2, as `octagon`) and
//! `capsule_rounded_hexagon` (the scene's capsule against a hexagon of radius 0.4 rounded by 0.1);
//! `capsule_box2d` runs Box2D v3's `b2CollideCapsules` on the `capsule` case's placements;
//! `distance` runs `distance` (GJK from scratch) on the benchmark's separated octagon pairs,
//! `distance_capsule` on capsule–box at the same placements, `distance_warm` warm-started from
//! each placement's own cache (as the benchmark's warm case); `distance_box2d` and
//! `distance_warm_box2d` run Box2D v3's `b2ShapeDistance` on the same pairs.

use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::{collide, distance, distance_with_cache, overlaps, Transform, Vec2};
use std::hint::black_box;

#[path = "../../../collide2d/benches/support/box2d.rs"]
mod box2d;

use collide2d_testkit::narrow_placements::{
    box_placements, placements, separated_placements, CONFIGURATIONS,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "octagon".to_string());
    let iterations: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);

    let octagon = Shape::from(Polygon::regular(8, 1.0).unwrap());
    let square = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
    let ball = Shape::from(Circle::with_radius(1.0).unwrap());
    let pill = Shape::from(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5).unwrap());
    let scene = [
        Shape::from(Circle::with_radius(0.5).unwrap()),
        Shape::from(Polygon::rect(0.9, 0.7).unwrap()),
        Shape::from(Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.25).unwrap()),
        Shape::from(Polygon::regular(6, 0.5).unwrap()),
    ];
    let [s_circle, s_box, s_capsule, s_hexagon] = &scene;
    let rounded_octagon = Shape::from(Polygon::regular(8, 0.8).unwrap().with_radius(0.2).unwrap());
    let rounded_hexagon = Shape::from(Polygon::regular(6, 0.4).unwrap().with_radius(0.1).unwrap());
    if case == "capsule_box2d" {
        // Box2D v3's `b2CollideCapsules` on the `capsule` case's placements, with its
        // conversion of the manifold to world points (as the benchmark times it).
        let pill_capsule = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5).unwrap();
        let b2_pill = box2d::capsule(&pill_capsule);
        let configurations = placements(2.5);
        let touching = drive(&configurations, iterations, |xf_a, xf_b| {
            let (a, b) = (box2d::transform(xf_a), box2d::transform(xf_b));
            let local = box2d::collide_capsules(&b2_pill, &b2_pill, box2d::inv_mul(&a, &b));
            black_box(box2d::to_world(&a, local)).pointCount as usize
        });
        println!("{case}: {touching}");
        return;
    }
    if case == "mix" {
        let configurations = placements(1.2);
        let touching = drive(&configurations, iterations, |xf_a, xf_b| {
            let k = (xf_a.p.x.to_bits() ^ xf_b.p.y.to_bits()) as usize;
            let (a, b) = (&scene[k & 3], &scene[(k >> 2) & 3]);
            black_box(collide(a, xf_a, b, xf_b)).count
        });
        println!("{case}: {touching}");
        return;
    }
    if case.starts_with("distance_") && case != "distance_capsule" {
        let configurations = separated_placements();
        let apart = match case.as_str() {
            "distance_warm" => {
                let mut caches = vec![collide2d::query::SimplexCache::default(); CONFIGURATIONS];
                let mut turn = 0;
                drive(&configurations, iterations, |xf_a, xf_b| {
                    let cache = &mut caches[turn % CONFIGURATIONS];
                    turn += 1;
                    let out = distance_with_cache(&octagon, xf_a, &octagon, xf_b, cache);
                    usize::from(black_box(out).distance > 0.0)
                })
            }
            "distance_box2d" | "distance_warm_box2d" => {
                let warm = case == "distance_warm_box2d";
                let b2_octagon = box2d::polygon(&Polygon::regular(8, 1.0).unwrap());
                let proxy = box2d::polygon_proxy(&b2_octagon);
                let empty = box2d::b2SimplexCache {
                    count: 0,
                    indexA: [0; 3],
                    indexB: [0; 3],
                };
                let mut caches = vec![empty; CONFIGURATIONS];
                let poses: Vec<_> = configurations
                    .iter()
                    .map(|(a, b)| (box2d::transform(a), box2d::transform(b)))
                    .collect();
                let mut turn = 0;
                drive(&configurations, iterations, |_, _| {
                    let (a, b) = &poses[turn % CONFIGURATIONS];
                    let mut cold = empty;
                    let cache = if warm {
                        &mut caches[turn % CONFIGURATIONS]
                    } else {
                        &mut cold
                    };
                    turn += 1;
                    let out = box2d::shape_distance(&proxy, &proxy, box2d::inv_mul(a, b), cache);
                    usize::from(black_box(out).distance > 0.0)
                })
            }
            other => panic!("unknown case {other}"),
        };
        println!("{case}: {apart}");
        return;
    }
    if let Some((a, b)) = match case.as_str() {
        "distance" => Some((&octagon, &octagon)),
        "distance_capsule" => Some((&pill, &square)),
        _ => None,
    } {
        let configurations = separated_placements();
        let apart = drive(&configurations, iterations, |xf_a, xf_b| {
            usize::from(black_box(distance(a, xf_a, b, xf_b)).distance > 0.0)
        });
        println!("{case}: {apart}");
        return;
    }
    let (a, b, configurations, boolean) = match case.as_str() {
        "capsule_hexagon" => (s_capsule, s_hexagon, placements(1.2), false),
        "hexagon_capsule" => (s_hexagon, s_capsule, placements(1.2), false),
        "capsule_box" => (s_capsule, s_box, placements(1.2), false),
        "box_capsule" => (s_box, s_capsule, placements(1.2), false),
        "hexagon_box" => (s_hexagon, s_box, placements(1.2), false),
        "box_hexagon" => (s_box, s_hexagon, placements(1.2), false),
        "hexagon" => (s_hexagon, s_hexagon, placements(1.2), false),
        "circle_hexagon" => (s_circle, s_hexagon, placements(1.2), false),
        "hexagon_circle" => (s_hexagon, s_circle, placements(1.2), false),
        "circle_box" => (s_circle, s_box, placements(1.2), false),
        "circle_capsule" => (s_circle, s_capsule, placements(1.2), false),
        "scene_capsule" => (s_capsule, s_capsule, placements(1.2), false),
        "octagon" => (&octagon, &octagon, placements(1.8), false),
        "rounded_octagon" => (&rounded_octagon, &rounded_octagon, placements(1.8), false),
        "capsule_rounded_hexagon" => (s_capsule, &rounded_hexagon, placements(1.2), false),
        "box" => (&square, &square, box_placements(), false),
        "box_overlap" => (&square, &square, placements(2.6), true),
        "circle" => (&ball, &ball, placements(1.9), false),
        "circle_polygon" => (&ball, &octagon, placements(1.8), false),
        "capsule" => (&pill, &pill, placements(2.5), false),
        "setup" => (&ball, &ball, placements(1.0), false),
        other => panic!("unknown case {other}"),
    };
    if case == "setup" {
        return;
    }
    let touching = if boolean {
        drive(&configurations, iterations, |xf_a, xf_b| {
            overlaps(a, xf_a, b, xf_b) as usize
        })
    } else {
        drive(&configurations, iterations, |xf_a, xf_b| {
            black_box(collide(a, xf_a, b, xf_b)).count
        })
    };
    println!("{case}: {touching}");
}

/// The measured loop, one copy per kind of call (as each benchmark has its own loop).
#[inline(never)]
fn drive(
    configurations: &[(Transform, Transform)],
    iterations: usize,
    mut call: impl FnMut(&Transform, &Transform) -> usize,
) -> usize {
    let mut touching = 0usize;
    for i in 0..iterations {
        let (xf_a, xf_b) = &configurations[i % CONFIGURATIONS];
        touching += black_box(call(xf_a, xf_b));
    }
    touching
}
