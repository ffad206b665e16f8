//! Every default of the command in one place: the demo's, the other subcommands' flags, and
//! the values a scene file may leave out (documented in `scenes/README.md`).

/// The built-in demo's settings.
#[derive(Clone, Copy, Debug)]
pub struct DemoDefaults {
    /// Frames to run.
    pub frames: u32,
    /// The picture of the last frame.
    pub png: &'static str,
    /// Picture width in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// What messages call the built-in scene.
    pub scene_name: &'static str,
}

/// `collide2d` with no subcommand, and `collide2d demo`.
pub const DEMO: DemoDefaults = DemoDefaults {
    frames: 300,
    png: "collide2d-demo.png",
    width: 1600,
    height: 1000,
    scene_name: "scenes/demo.json (built in)",
};

/// The flags of `run`, `render` and `bench`.
#[derive(Clone, Copy, Debug)]
pub struct CommandDefaults {
    /// `--width` of `run --png` and `render`.
    pub width: u32,
    /// `--height` of `run --png` and `render`.
    pub height: u32,
    /// `run --gif-every`.
    pub gif_every: u32,
    /// `run --gif-width`.
    pub gif_width: u32,
    /// `render --frames`.
    pub render_frames: u32,
    /// `bench --n`.
    pub bench_sizes: &'static str,
    /// `bench --broad`.
    pub bench_broad_phases: &'static str,
    /// `bench --frames`.
    pub bench_frames: u32,
}

/// The defaults of every subcommand's flags.
pub const COMMAND: CommandDefaults = CommandDefaults {
    width: 1200,
    height: 800,
    gif_every: 3,
    gif_width: 600,
    render_frames: 1,
    bench_sizes: "1000,10000,100000,1000000",
    bench_broad_phases: "tree,grid,sap",
    bench_frames: 5,
};

/// What a scene file may leave out.
#[derive(Clone, Copy, Debug)]
pub struct SceneDefaults {
    /// `dt`: seconds per frame.
    pub dt: f32,
    /// `frames`: frames `run` runs without `--frames`.
    pub frames: u32,
    /// `grid_cell`: the hash grid's cell size.
    pub grid_cell: f32,
    /// `arena.thickness`.
    pub arena_thickness: f32,
    /// The radius of a bullet without a `shape`.
    pub bullet_radius: f32,
    /// `bullets[].bounces`.
    pub bullet_bounces: u32,
}

/// The values a scene file may leave out.
pub const SCENE: SceneDefaults = SceneDefaults {
    dt: 1.0 / 60.0,
    frames: 120,
    grid_cell: 2.0,
    arena_thickness: 1.0,
    bullet_radius: 0.05,
    bullet_bounces: 3,
};
