//! The README's speed claims agree with `BENCHMARKS.md`: this test reads both files and fails
//! when a figure or a count of met targets in the README is not what `BENCHMARKS.md` says.
//!
//! The README states each area's targets as `N of M ... met ([Section](BENCHMARKS.md#anchor))`,
//! where `Section` is a `## ` heading of `BENCHMARKS.md`. There, a target is stated as
//! `… — met` or `… — not met`, or as a row of a table whose `met` column says `yes` or `no` or
//! whose `state` column starts with `met` or `not met` (`met for …; not met for …` is not met).
//! Every time figure (`91.3 ns`, `1.08 ms`) and ratio (`0.8×`) outside code in the README must
//! appear in `BENCHMARKS.md`, in a section the README line cites when it cites one.

use std::path::Path;

/// A file at the root of the repository.
fn repository_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text's lines outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut in_code = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code {
            lines.push(line);
        }
    }
    lines
}

/// The `## ` sections of a Markdown text: heading and body (its `### ` subsections included).
fn sections(text: &str) -> Vec<(String, String)> {
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in prose_lines(text) {
        if let Some(heading) = line.strip_prefix("## ") {
            sections.push((heading.trim().to_string(), String::new()));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections
}

/// GitHub's anchor for a heading: lower case, spaces to hyphens, other punctuation dropped.
fn anchor_of(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The cells of a Markdown table row, trimmed; `None` for a line that is not a row.
fn table_cells(line: &str) -> Option<Vec<&str>> {
    let line = line.trim();
    let inner = line.strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

/// Whether each target stated in a `BENCHMARKS.md` section is met, in order of appearance.
fn target_states(body: &str) -> Vec<bool> {
    let mut states = Vec::new();
    // The column of the table being read that states whether a target is met, if any.
    let mut state_column: Option<usize> = None;
    let mut in_table = false;
    for line in body.lines() {
        match table_cells(line) {
            Some(cells) if !in_table => {
                // A header row.
                in_table = true;
                state_column = cells.iter().position(|cell| {
                    let cell = cell.to_lowercase();
                    cell == "met" || cell == "state"
                });
            }
            Some(cells) => {
                if cells
                    .iter()
                    .all(|cell| cell.chars().all(|c| "-:".contains(c)))
                {
                    continue; // the separator row
                }
                if let Some(cell) = state_column.and_then(|column| cells.get(column)) {
                    let cell = cell.to_lowercase();
                    if cell == "yes" || (cell.starts_with("met") && !cell.contains("not met")) {
                        states.push(true);
                    } else if cell == "no" || cell.contains("not met") {
                        states.push(false);
                    } else {
                        panic!("BENCHMARKS.md: a target's state that is neither met nor not met: {line}");
                    }
                    continue;
                }
            }
            None => {
                in_table = false;
                state_column = None;
            }
        }
        states.extend(line.matches("— met").map(|_| true));
        states.extend(line.matches("— not met").map(|_| false));
    }
    states
}

/// A README claim `N of M … met ([heading](BENCHMARKS.md#anchor))`.
#[derive(Debug)]
struct Claim {
    met: usize,
    total: usize,
    heading: String,
    anchor: String,
    line: String,
}

/// The links to `BENCHMARKS.md` sections in a line: `(heading, anchor, start of the link)`.
fn benchmark_links(line: &str) -> Vec<(String, String, usize)> {
    let marker = "](BENCHMARKS.md#";
    let mut links = Vec::new();
    let mut from = 0;
    while let Some(offset) = line[from..].find(marker) {
        let middle = from + offset;
        let start = line[..middle]
            .rfind('[')
            .expect("a link has its text in brackets");
        let rest = &line[middle + marker.len()..];
        let end = rest.find(')').expect("a link ends with a parenthesis");
        links.push((
            line[start + 1..middle].to_string(),
            rest[..end].to_string(),
            start,
        ));
        from = middle + marker.len() + end;
    }
    links
}

/// The claims of one README line: each link to a `BENCHMARKS.md` section preceded (since the
/// previous link) by `N of M`.
fn claims(line: &str) -> Vec<Claim> {
    let mut claims = Vec::new();
    let mut previous_end = 0;
    for (heading, anchor, start) in benchmark_links(line) {
        let words: Vec<&str> = line[previous_end..start].split_whitespace().collect();
        let count = words.windows(3).rev().find_map(|w| {
            let met = w[0].parse::<usize>().ok()?;
            let total = w[2].parse::<usize>().ok()?;
            (w[1] == "of").then_some((met, total))
        });
        if let Some((met, total)) = count {
            claims.push(Claim {
                met,
                total,
                heading,
                anchor,
                line: line.to_string(),
            });
        }
        previous_end = start + 1;
    }
    claims
}

/// The figures quoted in a line: times (`91.3 ns`, `1.08 ms`, `3.2 µs`) and ratios (`0.8×`).
fn figures(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || ".,-".contains(chars[i - 1])));
        if !starts_number {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < chars.len()
            && (chars[end].is_ascii_digit()
                || (",.".contains(chars[end])
                    && chars.get(end + 1).is_some_and(|c| c.is_ascii_digit())))
        {
            end += 1;
        }
        let number: String = chars[i..end].iter().collect();
        let after: String = chars[end..].iter().take(4).collect();
        if after.starts_with('×') {
            found.push(format!("{number}×"));
        } else {
            for unit in ["ns", "µs", "ms"] {
                let spaced = format!(" {unit}");
                let next = chars.get(end + 1 + unit.chars().count());
                if after.starts_with(&spaced) && !next.is_some_and(|c| c.is_alphanumeric()) {
                    found.push(format!("{number} {unit}"));
                }
            }
        }
        i = end;
    }
    found
}

#[test]
fn the_readmes_target_counts_are_those_of_benchmarks_md() {
    let readme = repository_file("README.md");
    let benchmarks = sections(&repository_file("BENCHMARKS.md"));
    let claims: Vec<Claim> = prose_lines(&readme).into_iter().flat_map(claims).collect();
    assert!(!claims.is_empty(), "README.md states no speed targets");
    for claim in &claims {
        let (heading, body) = benchmarks
            .iter()
            .find(|(heading, _)| *heading == claim.heading)
            .unwrap_or_else(|| {
                panic!(
                    "README.md cites a section BENCHMARKS.md does not have: {:?}",
                    claim.heading
                )
            });
        assert_eq!(
            claim.anchor,
            anchor_of(heading),
            "README.md links {heading:?} to the wrong anchor"
        );
        let states = target_states(body);
        let met = states.iter().filter(|&&met| met).count();
        assert_eq!(
            (claim.met, claim.total),
            (met, states.len()),
            "README.md says {} of {} targets of {heading:?} are met; BENCHMARKS.md says {met} of {}:\n{}",
            claim.met,
            claim.total,
            states.len(),
            claim.line
        );
    }
    // Every section that states targets is summed up in the README, so none is left out.
    for (heading, body) in &benchmarks {
        if !target_states(body).is_empty() {
            assert!(
                claims.iter().any(|claim| claim.heading == *heading),
                "BENCHMARKS.md states targets under {heading:?}; README.md does not say how many are met"
            );
        }
    }
}

#[test]
fn every_figure_in_the_readme_is_in_benchmarks_md() {
    let readme = repository_file("README.md");
    let benchmarks_text = repository_file("BENCHMARKS.md");
    let benchmarks = sections(&benchmarks_text);
    let mut checked = 0;
    for line in prose_lines(&readme) {
        let cited: Vec<&str> = benchmark_links(line)
            .into_iter()
            .filter_map(|(heading, _, _)| {
                benchmarks
                    .iter()
                    .find(|(h, _)| *h == heading)
                    .map(|(_, body)| body.as_str())
            })
            .collect();
        for figure in figures(line) {
            let found = if cited.is_empty() {
                benchmarks_text.contains(&figure)
            } else {
                cited.iter().any(|body| body.contains(&figure))
            };
            assert!(
                found,
                "README.md quotes {figure:?}, which is not in {}:\n{line}",
                if cited.is_empty() {
                    "BENCHMARKS.md"
                } else {
                    "the sections it cites"
                }
            );
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "README.md quotes no figure; this test checks nothing"
    );
}

#[test]
fn the_parsers_read_what_they_are_meant_to() {
    assert_eq!(
        figures(
            "in 91.3 ns (parry2d 646 ns), 1.08 ms, 0.8× and 3.2 µs; not 8 × 8, x86-64 or 3 nsx"
        ),
        ["91.3 ns", "646 ns", "1.08 ms", "0.8×", "3.2 µs"]
    );
    assert_eq!(anchor_of("Ray and shape casts"), "ray-and-shape-casts");
    assert_eq!(
        anchor_of("Level geometry: tile maps and chains"),
        "level-geometry-tile-maps-and-chains"
    );
    let body = "| case | target |\n|---|---|\n| a | ≤ 1 ns — met |\n| b | — |\n\n\
                | target | measured | met |\n|---|---|---|\n| x | 1 ms | yes |\n| y | 2 ms | no |\n\n\
                | target | state |\n|---|---|\n| z | met for a; not met for b |\n\n\
                Target: not slower — met.\n";
    assert_eq!(target_states(body), [true, true, false, false, true]);
    let line = "ready; 2 of 3 targets met ([World update](BENCHMARKS.md#world-update)), \
                1 of 1 ([Character movement](BENCHMARKS.md#character-movement))";
    let found: Vec<(usize, usize, String)> = claims(line)
        .into_iter()
        .map(|c| (c.met, c.total, c.heading))
        .collect();
    assert_eq!(
        found,
        [
            (2, 3, "World update".to_string()),
            (1, 1, "Character movement".to_string())
        ]
    );
}
