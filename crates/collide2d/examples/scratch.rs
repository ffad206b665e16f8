use collide2d::query::*;
use collide2d::*;
fn main() {
    let a = Shape::from(
        Segment::new(
            Vec2::new(-0.016710838, 0.011194436),
            Vec2::new(-0.014124662, 0.019670924),
        )
        .unwrap(),
    );
    let b = Shape::from(
        Polygon::new(&[
            Vec2::new(-0.01676394, 0.003169831),
            Vec2::new(-0.0027620085, -0.028336465),
            Vec2::new(0.031613704, -0.0306314),
            Vec2::new(0.032173466, -0.02071064),
            Vec2::new(0.030678835, 0.008120071),
            Vec2::new(0.019826826, 0.023999076),
            Vec2::new(-0.013081048, 0.016528938),
            Vec2::new(-0.0155562125, 0.011215206),
        ])
        .unwrap(),
    );
    let sa = Sweep {
        local_center: Vec2::new(0.0, 0.0),
        center_start: Vec2::new(-224.88773, -44.12729),
        center_end: Vec2::new(-224.94379, -44.097713),
        angle_start: 2.438584,
        angle_end: 2.438584,
    };
    let sb = Sweep {
        local_center: Vec2::new(0.0, 0.0),
        center_start: Vec2::new(-224.92934, -44.178745),
        center_end: Vec2::new(-224.9118, -44.122314),
        angle_start: 1.5123079,
        angle_end: 1.5123079,
    };
    let opts = CastOptions {
        tolerance: 1e-4 + 2e-7 * 229.0,
        max_iterations: 256,
        separating_overlap_hits: true,
        ..CastOptions::default()
    };
    let hit = cast(&a, &sa, &b, &sb, opts).unwrap();
    println!("{hit:?}");
    for i in 0..24 {
        let t = i as f32 / 200.0;
        let d = distance(&a, &sa.transform_at(t), &b, &sb.transform_at(t));
        println!("t {t} d {} n {:?}", d.distance, d.normal);
    }
}
