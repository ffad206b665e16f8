//! Two shapes, no world: the contact manifold, the distance, a ray cast and a shape cast.
//!
//! `cargo run --example pair_query`

use collide2d::shape::{Circle, Polygon, Ray, Shape};
use collide2d::{collide, distance, shape_cast, CastOptions, Sweep, Transform, Vec2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A 2 × 2 box at the origin, a ball of radius 0.5 overlapping its right side by 0.25.
    let crate_box = Shape::from(Polygon::rect(2.0, 2.0)?);
    let ball = Shape::from(Circle::with_radius(0.5)?);
    let at_box = Transform::from_translation(Vec2::ZERO);
    let at_ball = Transform::from_translation(Vec2::new(1.25, 0.0));

    // The manifold: its normal points from the first shape to the second; depth is positive
    // when the shapes overlap.
    let manifold = collide(&crate_box, &at_box, &ball, &at_ball);
    println!(
        "collide: {} point(s), normal {}",
        manifold.count, manifold.normal
    );
    for contact in &manifold.points[..manifold.count] {
        println!("  point {} depth {}", contact.point, contact.penetration);
    }
    assert_eq!(manifold.count, 1);
    assert!((manifold.points[0].penetration - 0.25).abs() < 1e-5);

    // The distance between the ball moved away and the box, with the closest points.
    let far = Transform::from_translation(Vec2::new(4.0, 1.0));
    let gap = distance(&crate_box, &at_box, &ball, &far);
    println!(
        "distance: {} between {} and {}",
        gap.distance, gap.point_a, gap.point_b
    );
    assert!((gap.distance - 2.5).abs() < 1e-4);

    // A ray from the left towards the box: distance along the ray, hit point, normal.
    let ray = Ray::new(Vec2::new(-5.0, 0.5), Vec2::X, 10.0)?;
    let hit = crate_box
        .ray_cast(&at_box, &ray)
        .ok_or("the ray missed the box")?;
    println!(
        "ray: hit at {} after {}, normal {}",
        hit.point, hit.distance, hit.normal
    );
    assert!((hit.distance - 4.0).abs() < 1e-5 && hit.normal == Vec2::NEG_X);

    // A shape cast: the ball thrown from (-6, 0) to (6, 0) past a box that stays put.
    // `t` is the time of impact as a fraction of the motion.
    let throw = Sweep::between(
        &Transform::from_translation(Vec2::new(-6.0, 0.0)),
        &Transform::from_translation(Vec2::new(6.0, 0.0)),
    );
    let impact = shape_cast(
        &ball,
        &throw,
        &crate_box,
        &Sweep::fixed(&at_box),
        CastOptions::default(),
    )
    .ok_or("the cast missed the box")?;
    let centre = Vec2::new(-6.0, 0.0).lerp(Vec2::new(6.0, 0.0), impact.t);
    println!(
        "shape cast: time of impact {:.4}, ball centre {} touches at {}, normal {}",
        impact.t, centre, impact.point, impact.normal
    );
    // The ball's edge meets the box's left side (x = -1) when its centre is at x = -1.5.
    assert!((centre.x + 1.5).abs() < 1e-3);
    Ok(())
}
