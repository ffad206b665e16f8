//! Box2D v3 beside collide2d in the benchmarks: collide2d's shapes and placements turned into
//! Box2D's C types (through the `boxdd-sys` bindings), and one safe wrapper per C function the
//! benchmarks call.
//!
//! Box2D's pair functions take B's placement relative to A and answer in A's frame; the
//! benchmarks compute that relative placement inside the timed loop with [`inv_mul`], as
//! collide2d does inside its own calls.

#![allow(dead_code)] // each benchmark uses a different part

use boxdd_sys::ffi;
use collide2d::shape::{Capsule, Polygon};
use collide2d::{Transform, Vec2};

pub use ffi::{
    b2Capsule, b2CastOutput, b2Circle, b2DistanceOutput, b2LocalManifold, b2Polygon, b2Rot,
    b2ShapeProxy, b2SimplexCache, b2Sweep, b2TOIOutput, b2Transform, b2Vec2,
};

/// A collide2d vector as Box2D's.
pub fn vec(v: Vec2) -> b2Vec2 {
    b2Vec2 { x: v.x, y: v.y }
}

/// A collide2d placement as Box2D's.
pub fn transform(xf: &Transform) -> b2Transform {
    b2Transform {
        p: vec(xf.p),
        q: b2Rot {
            c: xf.q.c,
            s: xf.q.s,
        },
    }
}

/// B's placement in A's frame, `A⁻¹ B`, with the arithmetic of Box2D's `b2InvMulTransforms`
/// (an inline function in its headers, so not in the bindings).
#[inline]
pub fn inv_mul(a: &b2Transform, b: &b2Transform) -> b2Transform {
    let (ac, as_) = (a.q.c, a.q.s);
    let q = b2Rot {
        c: ac * b.q.c + as_ * b.q.s,
        s: ac * b.q.s - as_ * b.q.c,
    };
    let dx = b.p.x - a.p.x;
    let dy = b.p.y - a.p.y;
    b2Transform {
        p: b2Vec2 {
            x: ac * dx + as_ * dy,
            y: -as_ * dx + ac * dy,
        },
        q,
    }
}

/// A vector `v` turned into the frame of rotation `q` (`q⁻¹ v`).
#[inline]
pub fn rotate_inv(q: &b2Rot, v: b2Vec2) -> b2Vec2 {
    b2Vec2 {
        x: q.c * v.x + q.s * v.y,
        y: -q.s * v.x + q.c * v.y,
    }
}

/// A manifold of Box2D's pair functions (in A's frame) moved into world space by A's
/// placement `xf_a`, as Box2D's contact update does after each call: the normal rotated, each
/// point rotated and moved. collide2d's pair queries answer in world space, so the benchmarks
/// add this step to Box2D's calls.
#[inline]
pub fn to_world(xf_a: &b2Transform, mut manifold: b2LocalManifold) -> b2LocalManifold {
    let q = xf_a.q;
    let rotate = |v: b2Vec2| b2Vec2 {
        x: q.c * v.x - q.s * v.y,
        y: q.s * v.x + q.c * v.y,
    };
    manifold.normal = rotate(manifold.normal);
    let count = manifold.pointCount.clamp(0, 2) as usize;
    for point in &mut manifold.points[..count] {
        let turned = rotate(point.point);
        point.point = b2Vec2 {
            x: turned.x + xf_a.p.x,
            y: turned.y + xf_a.p.y,
        };
    }
    manifold
}

/// A convex collide2d polygon (with its rounding radius) as a Box2D polygon, through Box2D's own
/// hull and polygon builders. Panics if Box2D refuses the outline (benchmark setup only).
pub fn polygon(polygon: &Polygon) -> b2Polygon {
    try_polygon(polygon).expect("Box2D keeps every vertex of this polygon")
}

/// [`polygon`], or `None` where Box2D's hull would not keep exactly these vertices (more than 8,
/// or two closer than its welding distance).
pub fn try_polygon(polygon: &Polygon) -> Option<b2Polygon> {
    let vertices = polygon.vertices();
    if vertices.len() > 8 {
        return None;
    }
    let points: Vec<b2Vec2> = vertices.iter().map(|&v| vec(v)).collect();
    // SAFETY: `points` holds `points.len()` (≤ 8) initialised vectors for the call's duration;
    // the hull is a plain value that `b2MakePolygon` reads through a pointer to a local.
    unsafe {
        let hull = ffi::b2ComputeHull(points.as_ptr(), points.len() as i32);
        (hull.count as usize == vertices.len()).then(|| ffi::b2MakePolygon(&hull, polygon.radius()))
    }
}

/// A collide2d capsule as Box2D's.
pub fn capsule(capsule: &Capsule) -> b2Capsule {
    b2Capsule {
        center1: vec(capsule.a()),
        center2: vec(capsule.b()),
        radius: capsule.radius(),
    }
}

/// A circle of `radius` at the local origin.
pub fn circle(radius: f32) -> b2Circle {
    b2Circle {
        center: b2Vec2 { x: 0.0, y: 0.0 },
        radius,
    }
}

/// A polygon's distance proxy (its vertices and radius).
pub fn polygon_proxy(polygon: &b2Polygon) -> b2ShapeProxy {
    // SAFETY: the pointer addresses `polygon.count` (≤ 8) initialised vertices of a live value.
    unsafe { ffi::b2MakeProxy(polygon.vertices.as_ptr(), polygon.count, polygon.radius) }
}

/// `b2CollidePolygons`: B placed by `b_in_a`; the manifold in A's frame.
#[inline]
pub fn collide_polygons(a: &b2Polygon, b: &b2Polygon, b_in_a: b2Transform) -> b2LocalManifold {
    // SAFETY: both pointers address live, initialised polygons built by Box2D's own builders.
    unsafe { ffi::b2CollidePolygons(a, b, b_in_a) }
}

/// `b2CollideCircles`.
#[inline]
pub fn collide_circles(a: &b2Circle, b: &b2Circle, b_in_a: b2Transform) -> b2LocalManifold {
    // SAFETY: both pointers address live, initialised circles.
    unsafe { ffi::b2CollideCircles(a, b, b_in_a) }
}

/// `b2CollidePolygonAndCircle` (the polygon is A).
#[inline]
pub fn collide_polygon_circle(a: &b2Polygon, b: &b2Circle, b_in_a: b2Transform) -> b2LocalManifold {
    // SAFETY: both pointers address live, initialised shapes.
    unsafe { ffi::b2CollidePolygonAndCircle(a, b, b_in_a) }
}

/// `b2CollideCapsules`.
#[inline]
pub fn collide_capsules(a: &b2Capsule, b: &b2Capsule, b_in_a: b2Transform) -> b2LocalManifold {
    // SAFETY: both pointers address live, initialised capsules.
    unsafe { ffi::b2CollideCapsules(a, b, b_in_a) }
}

/// `b2CollidePolygonAndCapsule` (the polygon is A).
#[inline]
pub fn collide_polygon_capsule(
    a: &b2Polygon,
    b: &b2Capsule,
    b_in_a: b2Transform,
) -> b2LocalManifold {
    // SAFETY: both pointers address live, initialised shapes.
    unsafe { ffi::b2CollidePolygonAndCapsule(a, b, b_in_a) }
}

/// `b2ShapeDistance` between two proxies, B placed by `b_in_a`, warm-started from `cache`
/// (`count = 0` for a cold start); no simplex history kept.
#[inline]
pub fn shape_distance(
    a: &b2ShapeProxy,
    b: &b2ShapeProxy,
    b_in_a: b2Transform,
    cache: &mut b2SimplexCache,
) -> b2DistanceOutput {
    let input = ffi::b2DistanceInput {
        proxyA: *a,
        proxyB: *b,
        transform: b_in_a,
        useRadii: true,
    };
    // SAFETY: `input` and `cache` are live locals; a null simplex buffer with capacity 0 is
    // Box2D's documented way to ask for no simplex history.
    unsafe { ffi::b2ShapeDistance(&input, cache, std::ptr::null_mut(), 0) }
}

/// `b2ShapeCast`: B placed by `b_in_a` and moving by `translation_b` (A's frame) over the step.
#[inline]
pub fn shape_cast(
    a: &b2ShapeProxy,
    b: &b2ShapeProxy,
    b_in_a: b2Transform,
    translation_b: b2Vec2,
) -> b2CastOutput {
    let input = ffi::b2ShapeCastPairInput {
        proxyA: *a,
        proxyB: *b,
        transform: b_in_a,
        translationB: translation_b,
        maxFraction: 1.0,
        canEncroach: false,
    };
    // SAFETY: `input` is a live, fully initialised local.
    unsafe { ffi::b2ShapeCast(&input) }
}

/// The sweep of a body whose origin moves from `start` by `motion` while turning by `turn`.
#[inline]
pub fn sweep(start: &b2Transform, motion: Vec2, turn: f32) -> b2Sweep {
    let angle = start.q.s.atan2(start.q.c) + turn;
    let (s, c) = angle.sin_cos();
    b2Sweep {
        localCenter: b2Vec2 { x: 0.0, y: 0.0 },
        c1: start.p,
        c2: b2Vec2 {
            x: start.p.x + motion.x,
            y: start.p.y + motion.y,
        },
        q1: start.q,
        q2: b2Rot { c, s },
    }
}

/// `b2TimeOfImpact` of two swept proxies over the whole step.
#[inline]
pub fn time_of_impact(
    a: &b2ShapeProxy,
    sweep_a: b2Sweep,
    b: &b2ShapeProxy,
    sweep_b: b2Sweep,
) -> b2TOIOutput {
    let input = ffi::b2TOIInput {
        proxyA: *a,
        proxyB: *b,
        sweepA: sweep_a,
        sweepB: sweep_b,
        maxFraction: 1.0,
    };
    // SAFETY: `input` is a live, fully initialised local.
    unsafe { ffi::b2TimeOfImpact(&input) }
}

/// `b2RayCastPolygon`: a ray from `origin` along `translation` (the whole length), both in the
/// polygon's frame.
#[inline]
pub fn ray_cast_polygon(polygon: &b2Polygon, origin: b2Vec2, translation: b2Vec2) -> b2CastOutput {
    let input = ffi::b2RayCastInput {
        origin,
        translation,
        maxFraction: 1.0,
    };
    // SAFETY: both pointers address live, initialised values.
    unsafe { ffi::b2RayCastPolygon(polygon, &input) }
}

/// [`ray_cast_polygon`] on a polygon placed by `xf`, as the benchmark's Box2D column runs it:
/// the ray moved into the polygon's frame, the hit point and normal moved out.
pub fn ray_cast_placed_polygon(
    polygon: &b2Polygon,
    xf: &b2Transform,
    origin: b2Vec2,
    translation: b2Vec2,
) -> b2CastOutput {
    let local_origin = rotate_inv(
        &xf.q,
        b2Vec2 {
            x: origin.x - xf.p.x,
            y: origin.y - xf.p.y,
        },
    );
    let local_translation = rotate_inv(&xf.q, translation);
    let mut hit = ray_cast_polygon(polygon, local_origin, local_translation);
    let (c, s) = (xf.q.c, xf.q.s);
    hit.point = b2Vec2 {
        x: c * hit.point.x - s * hit.point.y + xf.p.x,
        y: s * hit.point.x + c * hit.point.y + xf.p.y,
    };
    hit.normal = b2Vec2 {
        x: c * hit.normal.x - s * hit.normal.y,
        y: s * hit.normal.x + c * hit.normal.y,
    };
    hit
}

/// A collide2d box as Box2D's.
pub fn aabb(aabb: &collide2d::Aabb) -> ffi::b2AABB {
    ffi::b2AABB {
        lowerBound: vec(aabb.min),
        upperBound: vec(aabb.max),
    }
}

/// Box2D v3's dynamic AABB tree (`b2DynamicTree`), owned: destroyed when dropped.
pub struct DynamicTree {
    tree: ffi::b2DynamicTree,
}

impl DynamicTree {
    /// An empty tree with room for `capacity` proxies before it grows.
    pub fn new(capacity: usize) -> DynamicTree {
        // SAFETY: `b2DynamicTree_Create` only allocates; any capacity is valid.
        let tree = unsafe { ffi::b2DynamicTree_Create(capacity as i32) };
        DynamicTree { tree }
    }

    /// `b2DynamicTree_CreateProxy`: a leaf holding `aabb` (category 1) and `user_data`; its id.
    pub fn create_proxy(&mut self, aabb: ffi::b2AABB, user_data: u64) -> i32 {
        // SAFETY: `self.tree` is a live tree made by `b2DynamicTree_Create`; the box is a value.
        unsafe { ffi::b2DynamicTree_CreateProxy(&mut self.tree, aabb, 1, user_data) }
    }

    /// `b2DynamicTree_EnlargeProxy`: the leaf's box becomes `aabb`, which must not lie inside
    /// its current box; its ancestors grow and are marked for [`DynamicTree::rebuild`].
    #[inline]
    pub fn enlarge_proxy(&mut self, proxy: i32, aabb: ffi::b2AABB) {
        // SAFETY: `proxy` is a leaf this tree returned from `create_proxy`; the tree is live.
        unsafe { ffi::b2DynamicTree_EnlargeProxy(&mut self.tree, proxy, aabb) }
    }

    /// `b2DynamicTree_MoveProxy`: the leaf is taken out and inserted again with `aabb`.
    #[inline]
    pub fn move_proxy(&mut self, proxy: i32, aabb: ffi::b2AABB) {
        // SAFETY: `proxy` is a leaf this tree returned from `create_proxy`; the tree is live.
        unsafe { ffi::b2DynamicTree_MoveProxy(&mut self.tree, proxy, aabb) }
    }

    /// `b2DynamicTree_Rebuild`: rebuilds the enlarged part of the tree (all of it when
    /// `full`); the number of leaves rebuilt.
    #[inline]
    pub fn rebuild(&mut self, full: bool) -> i32 {
        // SAFETY: the tree is live and owned here, so nothing else reads it meanwhile.
        unsafe { ffi::b2DynamicTree_Rebuild(&mut self.tree, full) }
    }

    /// `b2DynamicTree_Query`: calls `found(proxy, user_data)` for every leaf whose box overlaps
    /// `aabb`, until it returns `false`.
    #[inline]
    pub fn query<F: FnMut(i32, u64) -> bool>(&self, aabb: ffi::b2AABB, found: &mut F) {
        /// Box2D's callback: `context` is the `&mut F` passed below.
        unsafe extern "C" fn trampoline<F: FnMut(i32, u64) -> bool>(
            proxy: i32,
            user_data: u64,
            context: *mut std::os::raw::c_void,
        ) -> bool {
            // SAFETY: `context` is the `&mut F` given to `b2DynamicTree_Query` below, alive and
            // not otherwise borrowed for the whole query.
            let found = unsafe { &mut *context.cast::<F>() };
            found(proxy, user_data)
        }
        let context: *mut F = found;
        // SAFETY: the tree is live; the callback matches Box2D's signature and only
        // dereferences `context`, which outlives the call (Box2D keeps no pointer after it).
        unsafe {
            ffi::b2DynamicTree_Query(
                &self.tree,
                aabb,
                u64::MAX,
                Some(trampoline::<F>),
                context.cast(),
            );
        }
    }
}

impl Drop for DynamicTree {
    fn drop(&mut self) {
        // SAFETY: the tree was made by `b2DynamicTree_Create` and is destroyed once, here.
        unsafe { ffi::b2DynamicTree_Destroy(&mut self.tree) }
    }
}
