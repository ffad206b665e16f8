//! Shared helpers for the integration tests and benchmarks: the seeded random number generator,
//! random shapes, the benchmarks' scenes, conversion of our shapes to parry2d's, and a touch
//! reference for the world.
#![allow(dead_code, unused_imports)] // each test module and benchmark uses a different part

pub mod broad_scene;
pub mod cast_cases;
pub mod narrow_placements;
pub mod parry;
pub mod probe_shapes;
pub mod rng;
pub mod shapes;
pub mod threads;
pub mod vec64;
pub mod world_scene;

pub use rng::Rng;
pub use shapes::*;

/// Every broad phase, a grid with cells of 4 units: a sweep picks one by seed, or runs all.
pub const BROAD_PHASES: [collide2d::world::BroadPhaseKind; 3] = [
    collide2d::world::BroadPhaseKind::Tree,
    collide2d::world::BroadPhaseKind::Grid { cell_size: 4.0 },
    collide2d::world::BroadPhaseKind::SweepAndPrune,
];

/// Whether two colliders of `world` touch now, by the rules the world applies (layer matrix,
/// category and mask, sensors by overlap, solid pairs by a non-empty manifold), computed
/// directly from their shapes and placements: the reference of the world model tests.
pub fn touches(
    world: &collide2d::World,
    a: &collide2d::world::Collider,
    b: &collide2d::world::Collider,
) -> bool {
    let (groups_a, groups_b) = (a.groups(), b.groups());
    let (category_a, mask_a) = (groups_a.category, groups_a.mask);
    let (category_b, mask_b) = (groups_b.category, groups_b.mask);
    if !world.layers().collides(a.layer(), b.layer())
        || category_a & mask_b == 0
        || category_b & mask_a == 0
    {
        return false;
    }
    let (xa, xb) = (a.world_transform(), b.world_transform());
    if a.is_sensor() || b.is_sensor() {
        collide2d::overlaps(a.shape(), &xa, b.shape(), &xb)
    } else {
        let manifold = collide2d::collide(a.shape(), &xa, b.shape(), &xb);
        // A one-way collider blocks only shapes on its side, no deeper than its margin.
        let blocks = |one_way: Option<collide2d::world::OneWay>,
                      xf: &collide2d::Transform,
                      normal: collide2d::Vec2| {
            one_way.is_none_or(|w| {
                xf.rotate(w.direction).dot(normal) > 0.0 && manifold.max_penetration() <= w.margin
            })
        };
        !manifold.is_empty()
            && blocks(a.one_way(), &xa, manifold.normal)
            && blocks(b.one_way(), &xb, -manifold.normal)
    }
}

/// Why the contact of `a` and `b` (both still in `world`) ends when neither was removed or
/// disabled: `Separated` if the layer matrix and groups still let them touch, else `Filtered`.
pub fn reason_they_stop(
    world: &collide2d::World,
    a: &collide2d::world::Collider,
    b: &collide2d::world::Collider,
) -> collide2d::world::EndReason {
    let allowed =
        world.layers().collides(a.layer(), b.layer()) && a.groups().interacts_with(b.groups());
    if allowed {
        collide2d::world::EndReason::Separated
    } else {
        collide2d::world::EndReason::Filtered
    }
}

/// Checks every collider's `World::contacts_of` and `World::is_touching` against `listed`, the
/// pairs `World::contacts` gives: `contacts_of` lists exactly the listed pairs naming the
/// collider, in `listed`'s order, and `is_touching` says whether there is one.
pub fn check_contacts_of_each_collider(
    world: &collide2d::World,
    listed: &[(
        collide2d::world::ColliderHandle,
        collide2d::world::ColliderHandle,
    )],
    context: &str,
) {
    for (handle, _) in world.iter() {
        let mine: Vec<_> = listed
            .iter()
            .filter(|&&(a, b)| a == handle || b == handle)
            .copied()
            .collect();
        let of: Vec<_> = world.contacts_of(handle).map(|(a, b, _)| (a, b)).collect();
        assert_eq!(of, mine, "{context}: contacts_of({handle:?})");
        assert_eq!(
            world.is_touching(handle),
            !mine.is_empty(),
            "{context}: is_touching({handle:?}), touching {mine:?}"
        );
    }
}

/// Fails, listing the first `shown` of `failures` and how many of `count` cases they are,
/// unless there are none: the summary of a randomized sweep.
#[track_caller]
pub fn assert_no_failures(failures: &[String], count: usize, shown: usize) {
    assert!(
        failures.is_empty(),
        "{} of {count} wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(shown)].join("\n")
    );
}

/// Bisects `[low, high]` `steps` times for where `holds` stops holding (true below some point,
/// false above it): each step keeps the half whose ends still straddle it. Returns the last
/// `(low, high)`.
pub fn bisect(
    mut low: f64,
    mut high: f64,
    steps: usize,
    holds: impl Fn(f64) -> bool,
) -> (f64, f64) {
    for _ in 0..steps {
        let middle = 0.5 * (low + high);
        if holds(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low, high)
}

/// Puts `shape` in `world` at `at`, unturned, as a plain collider.
pub fn place(
    world: &mut collide2d::world::World,
    shape: collide2d::shape::Shape,
    at: collide2d::Vec2,
) -> collide2d::world::ColliderHandle {
    world
        .insert(
            collide2d::world::Collider::new(shape)
                .with_transform(collide2d::Transform::new(at, 0.0)),
        )
        .unwrap()
}
