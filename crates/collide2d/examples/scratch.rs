use collide2d::query::*;
use collide2d::*;
use std::hint::black_box;
fn main() {
    let shape = Shape::from(Polygon::regular(8, 1.0).unwrap());
    let mut seed = 7u64;
    let mut unit = || { seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (seed >> 40) as f32 / (1u64 << 24) as f32 };
    let mut cases = vec![];
    for _ in 0..256 {
        let xf = Transform::new(Vec2::new(unit()*20.0-10.0, unit()*20.0-10.0), unit()*6.0-3.0);
        let origin = xf.p + Vec2::from_angle(unit()*6.0-3.0) * 5.0;
        let target = xf.p + Vec2::new(unit()*2.4-1.2, unit()*2.4-1.2);
        cases.push((xf, Ray::new(origin, target - origin, 20.0).unwrap(), target - origin));
    }
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut hits = 0;
    for i in 0..200_000 {
        let (xf, ray, motion) = &cases[i % 256];
        if mode == "ray" {
            if black_box(shape.ray_cast(black_box(xf), black_box(ray))).is_some() { hits += 1; }
        } else {
            let a = Sweep::linear(&Transform::new(ray.origin, 0.3), *motion * 1.5);
            if black_box(cast(&shape, &a, &shape, &Sweep::fixed(xf), CastOptions::default())).is_some() { hits += 1; }
        }
    }
    println!("{hits}");
}
