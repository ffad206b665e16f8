//! Differential test: linear shape casts against parry2d's `cast_shapes`.

use crate::support;

use collide2d::query::{distance, shape_cast, CastOptions, Sweep};
use collide2d::Transform;
use parry2d::query::{cast_shapes, ShapeCastOptions};
use support::{parry, random_shape, size_of, Rng, ALL_KINDS};

#[test]
fn linear_casts_agree_with_parry() {
    let per_family = 30_000;
    for kind_a in ALL_KINDS {
        let mut rng = Rng(0xd1ff ^ kind_a as u64);
        let (mut both_hit, mut both_miss, mut grazing, mut ill_conditioned) = (0, 0, 0, 0);
        let mut worst_t = 0.0f32;
        for case in 0..per_family {
            let kind_b = ALL_KINDS[rng.below(ALL_KINDS.len())];
            let (size_a, size_b) = (rng.log_size(0.05, 20.0), rng.log_size(0.05, 20.0));
            let a = random_shape(&mut rng, kind_a, size_a);
            let b = random_shape(&mut rng, kind_b, size_b);
            let scale = size_of(&a) + size_of(&b);
            let xf_a = Transform::new(rng.point(500.0), rng.angle());
            let xf_b = Transform::new(xf_a.p + rng.point(3.0 * scale), rng.angle());
            let motion_a = (xf_b.p - xf_a.p) * rng.range(0.0, 2.0) + rng.point(scale);
            let motion_b = rng.point(scale);
            let (sweep_a, sweep_b) = (
                Sweep::linear(&xf_a, motion_a),
                Sweep::linear(&xf_b, motion_b),
            );
            let tolerance = 1e-4 + 2e-7 * xf_a.p.length();
            let opts = CastOptions {
                tolerance,
                separating_overlap_hits: true,
                ..CastOptions::default()
            };
            let ours = shape_cast(&a, &sweep_a, &b, &sweep_b, opts);
            let theirs = cast_shapes(
                &parry::pose(&xf_a),
                parry::vector(motion_a),
                &*parry::shape(&a),
                &parry::pose(&xf_b),
                parry::vector(motion_b),
                &*parry::shape(&b),
                ShapeCastOptions {
                    max_time_of_impact: 1.0,
                    target_distance: 0.0,
                    stop_at_penetration: true,
                    compute_impact_geometry_on_penetration: true,
                },
            )
            .expect("parry supports every pair used here");
            let context = || {
                format!("case {case} {kind_a:?}/{kind_b:?}\n{a:?}\n{b:?}\n{sweep_a:?}\n{sweep_b:?}")
            };
            // How close the shapes ever come: near-grazing sweeps may legitimately differ.
            let closest_approach = || {
                (0..=256)
                    .map(|i| {
                        let t = i as f32 / 256.0;
                        distance(&a, &sweep_a.transform_at(t), &b, &sweep_b.transform_at(t))
                            .distance
                    })
                    .fold(f32::INFINITY, f32::min)
            };
            let step = (motion_b - motion_a).length() / 256.0;
            match (ours, theirs) {
                (Some(hit), Some(their)) => {
                    let difference = (hit.t - their.time_of_impact).abs();
                    if difference <= 1e-3 {
                        both_hit += 1;
                        worst_t = worst_t.max(difference);
                    } else {
                        // Ill-conditioned: the shapes approach so slowly along the normal that
                        // both times are within tolerance of contact.
                        let closing = -(motion_b - motion_a).dot(hit.normal);
                        let (pa, pb) = (
                            sweep_a.transform_at(their.time_of_impact),
                            sweep_b.transform_at(their.time_of_impact),
                        );
                        let gap_at_theirs = distance(&a, &pa, &b, &pb).distance;
                        assert!(
                            hit.t < their.time_of_impact && gap_at_theirs <= 4.0 * tolerance
                                || closing.abs() * difference <= 4.0 * tolerance,
                            "ours t {} theirs t {} (gap at theirs {gap_at_theirs}): {}",
                            hit.t,
                            their.time_of_impact,
                            context()
                        );
                        ill_conditioned += 1;
                    }
                }
                (None, None) => both_miss += 1,
                (ours, theirs) => {
                    let approach = closest_approach();
                    assert!(
                        approach <= 4.0 * tolerance + step,
                        "ours {ours:?} theirs {:?}, closest approach {approach}: {}",
                        theirs.map(|h| h.time_of_impact),
                        context()
                    );
                    grazing += 1;
                }
            }
        }
        println!(
            "{kind_a:?} vs any: {per_family} casts, {both_hit} hits within 1e-3 (worst {worst_t:.1e}), {both_miss} misses, {grazing} grazing differ, {ill_conditioned} ill-conditioned times"
        );
    }
}
