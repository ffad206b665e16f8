//! Differential test: our ray casts against parry2d's on random shapes and rays.

use crate::support;

use support::{parry, random_ray_case, RayCase, Rng, ALL_KINDS};

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    agree_hit: usize,
    agree_miss: usize,
    grazing: usize,
    parry_off_surface: usize,
    max_distance_error: f32,
}

#[test]
fn ray_casts_agree_with_parry() {
    let cases_per_kind = 100_000;
    let mut report = Vec::new();
    for kind in ALL_KINDS {
        let mut rng = Rng(0xa11_5eed ^ kind as u64);
        let mut tally = Tally::default();
        for case in 0..cases_per_kind {
            let RayCase {
                shape,
                size,
                xf,
                ray,
            } = random_ray_case(&mut rng, kind);
            let Some(ray) = ray else {
                continue;
            };
            tally.cases += 1;
            let ours = shape.ray_cast(&xf, &ray);
            let parry_shape = parry::shape(&shape);
            let parry_ray =
                parry2d::query::Ray::new(parry::vector(ray.origin), parry::vector(ray.direction));
            let theirs =
                parry_shape.cast_ray(&parry::pose(&xf), &parry_ray, ray.max_distance, true);
            let tolerance = 1e-4 * size + 2e-7 * xf.p.length();
            match (ours, theirs) {
                (Some(hit), Some(t)) => {
                    // Distances agree up to rounding, which grows as the ray turns tangent to
                    // the surface (1 / cos of the incidence angle).
                    let error = (hit.distance - t).abs();
                    let incidence = hit.normal.dot(ray.direction).abs().max(1e-3);
                    let on_surface = |distance: f32| {
                        distance == 0.0
                            || shape.project_point(&xf, ray.at(distance)).distance
                                <= 2.0 * tolerance
                    };
                    if error <= tolerance.max(1e-4 * t) / incidence {
                        tally.agree_hit += 1;
                        tally.max_distance_error =
                            tally.max_distance_error.max(error * incidence / size);
                    } else {
                        // Otherwise ours must be on the surface and be an entry (just before it
                        // the ray is outside), and parry's answer must be the worse one: a later
                        // crossing (it missed ours), or a point farther from the surface.
                        let surface_offset = |distance: f32| {
                            if distance == 0.0 {
                                0.0
                            } else {
                                shape.project_point(&xf, ray.at(distance)).distance
                            }
                        };
                        let back = (10.0 * tolerance / incidence).min(hit.distance);
                        let before = shape.project_point(&xf, ray.at(hit.distance - back));
                        let entry = !before.inside || before.distance <= 2.0 * tolerance;
                        assert!(
                            on_surface(hit.distance)
                                && entry
                                && (t > hit.distance
                                    || surface_offset(hit.distance) <= surface_offset(t)),
                            "case {case} {kind:?}: ours {} parry {t}; our offset {}, parry's {}, entry {entry}\n{shape:?}\n{xf:?}\n{ray:?}",
                            hit.distance, surface_offset(hit.distance), surface_offset(t)
                        );
                        tally.parry_off_surface += 1;
                    }
                }
                (None, None) => tally.agree_miss += 1,
                (ours, theirs) => {
                    // Only grazing rays may differ: the ray passes within tolerance of the surface.
                    let closest = (0..=256)
                        .map(|i| {
                            let point = ray.at(ray.max_distance * i as f32 / 256.0);
                            let p = shape.project_point(&xf, point);
                            if p.inside {
                                0.0
                            } else {
                                p.distance
                            }
                        })
                        .fold(f32::INFINITY, f32::min);
                    let endpoint = theirs
                        .map_or(0.0, |t| (t - ray.max_distance).abs())
                        .min(ours.map_or(0.0, |h| (h.distance - ray.max_distance).abs()));
                    assert!(
                        closest <= 4.0 * tolerance + ray.max_distance / 256.0 * 0.05 || endpoint <= tolerance,
                        "case {case} {kind:?}: ours {ours:?} parry {theirs:?}, closest approach {closest}\n{shape:?}\n{xf:?}\n{ray:?}"
                    );
                    tally.grazing += 1;
                }
            }
        }
        assert!(tally.cases >= cases_per_kind * 99 / 100);
        report.push((kind, tally));
    }
    for (kind, tally) in &report {
        println!(
            "{kind:?}: {} cases, {} hits agree, {} misses agree, {} grazing differ, {} where parry's hit is off the surface, max |Δt|·cos(incidence)/size {:.2e}",
            tally.cases, tally.agree_hit, tally.agree_miss, tally.grazing, tally.parry_off_surface, tally.max_distance_error
        );
    }
}
