//! Manifolds against GJK distance, two independent methods: distance is zero exactly when the
//! shapes overlap (away from float noise at the boundary), and pushing B out along the normal by
//! the penetration plus a gap leaves exactly that gap.

use crate::support;

use collide2d::query::{collide, distance, overlaps};
use collide2d::Transform;
use support::{random_shape, size_of, Rng, ALL_KINDS};

#[test]
fn distance_and_manifold_agree_for_every_pair_family() {
    let mut report = Vec::new();
    for kind_a in ALL_KINDS {
        for kind_b in ALL_KINDS {
            let mut rng = Rng(0xd157 ^ ((kind_a as u64) << 8) ^ kind_b as u64);
            let (mut overlapping, mut pushed, mut case) = (0, 0, 0);
            let mut worst_excess = 0.0f32;
            // At least 10,000 cases per family, and until 10,000 of them overlap.
            while case < 10_000 || overlapping < 10_000 {
                case += 1;
                assert!(
                    case < 200_000,
                    "{kind_a:?}/{kind_b:?}: too few overlapping cases"
                );
                let (size_a, size_b) = (rng.log_size(0.05, 20.0), rng.log_size(0.05, 20.0));
                let a = random_shape(&mut rng, kind_a, size_a);
                let b = random_shape(&mut rng, kind_b, size_b);
                let scale = size_of(&a).max(size_of(&b));
                let xf_a = Transform::new(rng.point(100.0), rng.angle());
                let xf_b = Transform::new(
                    xf_a.p + rng.point(0.5 * (size_of(&a) + size_of(&b))),
                    rng.angle(),
                );
                // Float noise at the boundary: positions of ~100 carry ~1e-5 absolute error.
                let noise = 1e-4 * scale + 2e-6 * xf_a.p.length();
                let context = || {
                    format!(
                        "case {case} {kind_a:?}/{kind_b:?}\n{a:?} at {xf_a:?}\n{b:?} at {xf_b:?}"
                    )
                };
                let manifold = collide(&a, &xf_a, &b, &xf_b);
                let gap = distance(&a, &xf_a, &b, &xf_b).distance;
                // 1. Distance is zero exactly when overlapping.
                if manifold.max_penetration() > noise {
                    assert_eq!(
                        gap,
                        0.0,
                        "overlapping by {} but distance {gap}: {}",
                        manifold.max_penetration(),
                        context()
                    );
                }
                if gap > noise {
                    assert!(
                        !overlaps(&a, &xf_a, &b, &xf_b),
                        "apart by {gap} but overlapping: {}",
                        context()
                    );
                }
                if manifold.is_empty() {
                    continue;
                }
                overlapping += 1;
                // The push applies to convex pairs: for a compound, `collide` gives the deepest
                // child pair, and other children may touch along other directions.
                if !a.is_convex() || !b.is_convex() {
                    continue;
                }
                // 2. Push B out along the normal by penetration + 1e-3 × scale.
                let wanted = 1e-3 * scale;
                let mut moved = xf_b;
                moved.p += manifold.normal * (manifold.max_penetration() + wanted);
                let after = distance(&a, &xf_a, &b, &moved).distance;
                assert!(
                    !overlaps(&a, &xf_a, &b, &moved) || after <= noise,
                    "still overlapping after the push: {}",
                    context()
                );
                // Along the contact normal the gap is exactly `wanted`; the true distance can
                // only be larger where the closest features are not the ones along the normal
                // (a corner clearing the other shape), never smaller.
                assert!(
                    after >= wanted - noise,
                    "distance {after} < {wanted} after the push: {}",
                    context()
                );
                assert!(
                    after <= wanted + 1e-3 * scale + noise,
                    "distance {after} far above {wanted}: {}",
                    context()
                );
                pushed += 1;
                worst_excess = worst_excess.max((after - wanted) / scale);
            }
            report.push(format!("{kind_a:?}/{kind_b:?}: {case} cases, {overlapping} overlapping, {pushed} pushed apart (largest excess over the gap {worst_excess:.1e} × size)"));
        }
    }
    println!("{}", report.join("\n"));
}
