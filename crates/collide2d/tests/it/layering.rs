//! The library's layers depend downward only: this test reads every source file under `src/` and
//! checks each `crate::…` path in code (comments are skipped) against the layer order
//!
//! ```text
//! math < shape, layer < query, broad, level < world < debug
//! ```
//!
//! where a module may name only modules of a strictly lower rank (so siblings, such as `query`,
//! `broad` and `level`, never name each other), and the leaf utilities (`prefetch`, `huge_pages`,
//! `test_numbers`) name no layer and may be named by any. Paths through the crate root's
//! re-exports (`crate::Transform`) count as paths into the module they come from. It also checks
//! that the files of one module never import each other in a circle (the module's own `mod.rs`
//! aside, which declares and re-exports them).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each layer and its rank: a module may name only modules of lower rank.
const LAYERS: [(&str, u32); 8] = [
    ("math", 0),
    ("shape", 1),
    ("layer", 1),
    ("query", 2),
    ("broad", 2),
    ("level", 2),
    ("world", 3),
    ("debug", 4),
];

/// Modules below every layer: they name no layer, and any layer may name them.
const LEAVES: [&str; 4] = ["prefetch", "huge_pages", "slot_ranges", "test_numbers"];

fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("source directory is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The file's code with comments (line comments, doc comments, block comments) removed.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut in_block = 0usize;
    for line in text.lines() {
        let mut rest = line;
        let mut kept = String::new();
        loop {
            if in_block > 0 {
                match rest.find("*/") {
                    Some(end) => {
                        in_block -= 1;
                        rest = &rest[end + 2..];
                    }
                    None => break,
                }
            } else {
                let line_comment = rest.find("//");
                let block_comment = rest.find("/*");
                match (line_comment, block_comment) {
                    (Some(l), Some(b)) if b < l => {
                        kept.push_str(&rest[..b]);
                        in_block += 1;
                        rest = &rest[b + 2..];
                    }
                    (None, Some(b)) => {
                        kept.push_str(&rest[..b]);
                        in_block += 1;
                        rest = &rest[b + 2..];
                    }
                    (Some(l), _) => {
                        kept.push_str(&rest[..l]);
                        break;
                    }
                    (None, None) => {
                        kept.push_str(rest);
                        break;
                    }
                }
            }
        }
        code.push_str(&kept);
        code.push('\n');
    }
    code
}

/// The path segments after each `crate::` in `code`: `crate::shape::Aabb` gives
/// `["shape", "Aabb"]`; a group (`crate::{a, b}`) gives each of its first segments.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `mycrate::`, not `crate::`.
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let segments = segments_of(item.trim());
                if !segments.is_empty() {
                    paths.push(segments);
                }
            }
        } else {
            paths.push(segments_of(rest));
        }
    }
    paths
}

/// The identifiers of a path like `shape::Aabb;`, up to the first character that ends it.
fn segments_of(text: &str) -> Vec<String> {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        segments.push(rest[..end].to_string());
        match rest[end..].strip_prefix("::") {
            Some(next) => rest = next,
            None => break,
        }
    }
    segments
}

/// The crate root's re-exports: name → the top-level module it comes from.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in code_of(lib).split(';') {
        let statement = statement.trim();
        let Some(path) = statement.strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = path.split_once("::") else {
            continue;
        };
        let items = items.trim();
        let items = items
            .strip_prefix('{')
            .and_then(|inner| inner.strip_suffix('}'))
            .unwrap_or(items);
        for item in items.split(',') {
            // `a::B` re-exports `B`; `B as C` re-exports `C`.
            let name = item.rsplit("::").next().unwrap_or("").trim();
            let name = name.rsplit(" as ").next().unwrap_or(name).trim();
            if !name.is_empty() {
                names.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    names
}

/// The top-level module a file belongs to (`src/shape/chain.rs` → `shape`, `src/math.rs` →
/// `math`), `None` for the crate root.
fn module_of(file: &Path) -> Option<String> {
    let relative = file.strip_prefix(source_dir()).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

fn rank_of(module: &str) -> Option<u32> {
    LAYERS
        .iter()
        .find(|(name, _)| *name == module)
        .map(|&(_, rank)| rank)
}

/// Each module file's path below `src/` and the `crate::` paths in its code.
fn sources() -> Vec<(PathBuf, Vec<Vec<String>>)> {
    rust_files(&source_dir())
        .into_iter()
        .map(|file| {
            let text = fs::read_to_string(&file).expect("source file is readable");
            let paths = crate_paths(&code_of(&text));
            (file, paths)
        })
        .collect()
}

#[test]
fn layers_name_only_lower_layers() {
    let lib = fs::read_to_string(source_dir().join("lib.rs")).expect("lib.rs is readable");
    let reexports = root_reexports(&lib);
    let mut violations = BTreeSet::new();
    for (file, paths) in sources() {
        let Some(from) = module_of(&file) else {
            continue;
        };
        let from_leaf = LEAVES.contains(&from.as_str());
        let from_rank = rank_of(&from);
        assert!(
            from_leaf || from_rank.is_some(),
            "{}: module `{from}` has no layer; add it to LAYERS or LEAVES",
            file.display()
        );
        for path in paths {
            let Some(first) = path.first() else {
                continue;
            };
            let to = reexports
                .get(first)
                .cloned()
                .unwrap_or_else(|| first.clone());
            if to == from || LEAVES.contains(&to.as_str()) {
                continue;
            }
            let Some(to_rank) = rank_of(&to) else {
                continue; // A root item that is not a module, such as a macro.
            };
            let allowed = !from_leaf && from_rank.is_some_and(|rank| to_rank < rank);
            if !allowed {
                let relative = file.strip_prefix(source_dir()).unwrap_or(&file);
                violations.insert(format!(
                    "{}: `{from}` names `crate::{}`",
                    relative.display(),
                    path.join("::")
                ));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "imports against the layer order:\n{}",
        violations.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_files_of_a_module_import_each_other_without_circles() {
    // Edges `a → b` between files of one directory module (`crate::level::region::…` named in
    // `level/tile_map.rs` is `tile_map → region`).
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for (file, paths) in sources() {
        let Some(module) = module_of(&file) else {
            continue;
        };
        let Some(stem) = file.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let parent = file
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|p| p.to_str());
        if stem == "mod" || parent != Some(module.as_str()) {
            continue; // Only the files directly in a top-level module's folder.
        }
        for path in paths {
            if path.len() >= 3 && path[0] == module && path[1] != stem {
                let target = source_dir().join(&module).join(format!("{}.rs", path[1]));
                let folder = source_dir().join(&module).join(&path[1]);
                if target.exists() || folder.is_dir() {
                    edges
                        .entry((module.clone(), stem.to_string()))
                        .or_default()
                        .insert(path[1].clone());
                }
            }
        }
    }
    // Depth-first search for a back edge, module by module.
    fn visit(
        node: &(String, String),
        edges: &BTreeMap<(String, String), BTreeSet<String>>,
        on_path: &mut Vec<(String, String)>,
        done: &mut BTreeSet<(String, String)>,
    ) -> Option<Vec<(String, String)>> {
        if let Some(at) = on_path.iter().position(|n| n == node) {
            return Some(on_path[at..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        on_path.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            let next = (node.0.clone(), next.clone());
            if let Some(circle) = visit(&next, edges, on_path, done) {
                return Some(circle);
            }
        }
        on_path.pop();
        done.insert(node.clone());
        None
    }
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        if let Some(circle) = visit(node, &edges, &mut Vec::new(), &mut done) {
            let names: Vec<String> = circle
                .iter()
                .map(|(module, file)| format!("{module}/{file}"))
                .collect();
            panic!("import circle: {}", names.join(" → "));
        }
    }
}

#[test]
fn the_scanner_finds_upward_paths_and_skips_comments() {
    let code = code_of(
        "use crate::query::Ray; // crate::world::World\n/* crate::debug */ let x = \
         crate::{math::Vec2, shape::Aabb};\n/// [`World`](crate::world::World)\n",
    );
    let firsts: Vec<String> = crate_paths(&code)
        .into_iter()
        .map(|path| path[0].clone())
        .collect();
    assert_eq!(firsts, ["query", "math", "shape"]);
    let reexports = root_reexports("pub use query::{cast, collide};\npub use world::World;\n");
    assert_eq!(reexports.get("collide").map(String::as_str), Some("query"));
    assert_eq!(reexports.get("World").map(String::as_str), Some("world"));
}
