use collide2d::query::*;
use collide2d::shape::*;
use collide2d::world::*;
use collide2d::*;
fn main() {
    let mut world = World::new();
    for i in 0..100 {
        world
            .insert(
                Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                    .transform(Transform::new(Vec2::new(i as f32 + 0.5, -0.5), 0.0)),
            )
            .unwrap();
    }
    for (size, speed) in [(0.8f32, 0.05f32), (0.5, 0.13), (0.9, 0.3), (1.0, 0.5)] {
        let hero = world
            .insert(
                Collider::new(Shape::from(Polygon::rect(size, size).unwrap()))
                    .transform(Transform::new(Vec2::new(1.0, 0.5 * size + 0.01), 0.0)),
            )
            .unwrap();
        let mut x = 1.0;
        while x < 95.0 {
            let before = world.get(hero).unwrap().world_transform();
            let result = world
                .move_and_slide(hero, Vec2::new(speed, -0.02), MoveOptions::default())
                .unwrap();
            if (result.moved.x - speed).abs() > 1e-4 {
                println!("size {size} speed {speed} at {:?}: {result:?}", before.p);
                let shape = Shape::from(Polygon::rect(size, size).unwrap());
                for (h, c) in world.iter() {
                    if h == hero {
                        continue;
                    }
                    let xf = before;
                    let d = distance(&shape, &xf, c.shape(), &c.world_transform());
                    if d.distance < 0.05 {
                        println!(" tile {:?} d {d:?}", c.world_transform().p);
                        let hit = cast(
                            &shape,
                            &Sweep::linear(&xf, Vec2::new(speed, -0.02)),
                            c.shape(),
                            &Sweep::fixed(&c.world_transform()),
                            CastOptions {
                                target_separation: 0.01,
                                ..Default::default()
                            },
                        );
                        println!("   cast {hit:?}");
                        let hit = cast(
                            &shape,
                            &Sweep::linear(&xf, Vec2::new(speed, 0.0)),
                            c.shape(),
                            &Sweep::fixed(&c.world_transform()),
                            CastOptions {
                                target_separation: 0.01,
                                ..Default::default()
                            },
                        );
                        println!("   cast horizontal {hit:?}");
                    }
                }
                return;
            }
            x += result.moved.x;
        }
        world.remove(hero).unwrap();
    }
}
