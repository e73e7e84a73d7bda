//! The engine is the one door to the search and the evaluation (docs: CONTRIBUTING.md,
//! "Layout"; `src/engine/mod.rs` lists what it offers). This test reads the source
//! of the front ends — `src/protocol/`, `src/serve/`, `src/cli/`, `src/referee/`,
//! `src/review.rs` and `src/main.rs`, each of which must exist — and fails on any path that
//! reaches `search` or `eval` (`crate::search::Info`, `use crate::{eval, rules}`,
//! `super::super::search` from `protocol/xboard/`, `lancer::eval::...`), naming the
//! file and line. `src/training/` may use the evaluation but reaches the search only
//! through the engine too.
//!
//! It reads paths, not meaning: comments and string literals are skipped, `{...}`
//! groups of a `use` are expanded, and `super`/`self` are resolved from the file's
//! own module.

use std::path::{Path, PathBuf};

/// Folders and files held to the door, and the top modules they must not reach.
const RULES: &[(&str, &[&str])] = &[
    ("src/protocol", &["search", "eval"]),
    ("src/serve", &["search", "eval"]),
    ("src/cli", &["search", "eval"]),
    ("src/referee", &["search", "eval"]),
    ("src/main.rs", &["search", "eval"]),
    ("src/review.rs", &["search", "eval"]),
    ("src/training", &["search"]),
];

/// One path that reaches a forbidden module: where, and the path as resolved from
/// the crate's root.
#[derive(Debug, PartialEq, Eq)]
struct Crossing {
    line: usize,
    path: String,
}

/// `text` with comments, string literals and character literals blanked out
/// (newlines kept, so that offsets still give line numbers).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                // Block comments nest in Rust.
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
                        depth += 1;
                        j += 2;
                    } else if b[j] == b'*' && b.get(j + 1) == Some(&b'/') {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                let end = text[start..]
                    .find(&close)
                    .map_or(b.len(), |e| start + e + close.len());
                blank(&mut out, i, end);
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i, j + 1);
                i = j + 1;
            }
            b'\'' => {
                // A character literal ('x', '\n', '"'), or else a lifetime ('a).
                let end = if b.get(i + 1) == Some(&b'\\') {
                    text[i + 2..].find('\'').map(|e| i + 2 + e + 1)
                } else {
                    let c = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (b.get(i + 1 + c) == Some(&b'\'')).then_some(i + 2 + c)
                };
                match end {
                    Some(e) => {
                        blank(&mut out, i, e);
                        i = e;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("only ASCII was blanked")
}

/// The tokens of code: identifiers, `::`, and single punctuation, with their lines.
fn tokens(code: &str) -> Vec<(String, usize)> {
    let mut toks = Vec::new();
    let mut line = 1;
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\n' {
            line += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphanumeric() || d == '_') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            toks.push((code[i..end].to_string(), line));
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            toks.push(("::".into(), line));
        } else if !c.is_whitespace() {
            toks.push((c.to_string(), line));
        }
    }
    toks
}

/// A path's segments, each with its line.
type Segments = Vec<(String, usize)>;

/// The paths of the path (or `use` tree) starting at token `i`, each as its
/// segments, with the index after it: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`,
/// `a::c::e`.
fn paths_at(toks: &[(String, usize)], mut i: usize) -> (Vec<Segments>, usize) {
    let mut segments = Vec::new();
    let mut paths = Vec::new();
    while let Some((t, line)) = toks.get(i) {
        if t == "{" {
            i += 1;
            while i < toks.len() && toks[i].0 != "}" {
                let (inner, next) = paths_at(toks, i);
                for p in inner {
                    paths.push([segments.clone(), p].concat());
                }
                i = next;
                if toks.get(i).is_some_and(|(t, _)| t == ",") {
                    i += 1;
                } else if toks.get(i).is_none_or(|(t, _)| t != "}") {
                    break;
                }
            }
            return (paths, i + 1);
        }
        if !(t.chars().all(|c| c.is_alphanumeric() || c == '_') || t == "*") {
            break;
        }
        segments.push((t.clone(), *line));
        i += 1;
        if toks.get(i).is_some_and(|(t, _)| t == "::") {
            i += 1;
        } else {
            break;
        }
    }
    paths.push(segments);
    (paths, i)
}

/// The module path of the file at `rel` (from the repository root): `src/cli/mod.rs`
/// is `cli`, `src/protocol/xboard/commands.rs` is `protocol::xboard::commands`.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_start_matches("src/")
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Every path in `text` (the file at `rel`) that reaches one of `forbidden` from the
/// crate's root.
fn crossings(rel: &str, text: &str, forbidden: &[&str]) -> Vec<Crossing> {
    let module = module_of(rel);
    let toks = tokens(&code_only(text));
    let mut found = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i].0;
        let starts = matches!(t.as_str(), "crate" | "super" | "self" | "lancer")
            && toks.get(i + 1).is_some_and(|(n, _)| n == "::")
            && (i == 0 || toks[i - 1].0 != "::");
        if !starts {
            i += 1;
            continue;
        }
        let (paths, next) = paths_at(&toks, i);
        for p in paths {
            let mut abs: Vec<String> = Vec::new();
            let mut rest = p.as_slice();
            match rest.first().map(|s| s.0.as_str()) {
                Some("crate" | "lancer") => rest = &rest[1..],
                Some("self" | "super") => {
                    abs = module.clone();
                    if rest[0].0 == "self" {
                        rest = &rest[1..];
                    }
                    while rest.first().is_some_and(|s| s.0 == "super") {
                        abs.pop();
                        rest = &rest[1..];
                    }
                }
                _ => {}
            }
            // The line of the first segment below the crate's root in this path.
            let line = rest.first().map_or(toks[i].1, |s| s.1);
            abs.extend(rest.iter().map(|s| s.0.clone()));
            if abs.first().is_some_and(|s| forbidden.contains(&s.as_str())) {
                found.push(Crossing {
                    line,
                    path: abs.join("::"),
                });
            }
        }
        i = next.max(i + 1);
    }
    found
}

/// The `.rs` files at `path` (a file, or a folder read whole), sorted.
fn rust_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut files = Vec::new();
    if let Ok(entries) = std::fs::read_dir(path) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                files.extend(rust_files(&p));
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn front_ends_reach_the_search_and_the_evaluation_only_through_the_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut errors = Vec::new();
    let mut read = 0;
    for (place, forbidden) in RULES {
        // Every rule guards something: a folder or file renamed away fails here.
        assert!(root.join(place).exists(), "{place} is gone: update RULES");
        for file in rust_files(&root.join(place)) {
            let rel = file
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{rel}: {e}"));
            read += 1;
            for c in crossings(&rel, &text, forbidden) {
                errors.push(format!("{rel}:{}: {}", c.line, c.path));
            }
        }
    }
    // The front ends are there to be read (a renamed folder would pass unread).
    assert!(read >= 20, "only {read} files read");
    assert!(
        errors.is_empty(),
        "these reach the search or the evaluation around the engine (use or add what \
         they need in src/engine/mod.rs, the one door):\n{}",
        errors.join("\n")
    );
}

/// The check finds what it is there to find, and nothing in comments or strings.
#[test]
fn the_check_finds_planted_imports() {
    let planted = r#"//! A doc naming crate::search::Info is fine.
use crate::engine::{Engine, Limits};
use crate::search::tt::Bound;
use crate::{engine, eval::breakdown};
use crate::{
    rules::Position,
    search::{self, Info},
};
fn f() {
    let s = "crate::search::Info"; // crate::eval too
    let c = '"'; let d = crate::search::skill::MIN_ELO;
    let l: &'static str = "x";
    /* crate::eval /* nested */ still a comment */
    let e = super::super::super::search::Score(0);
    let h = super::super::search::Score(0);
    let g = super::options::find("x");
}
"#;
    let found = crossings(
        "src/protocol/xboard/commands.rs",
        planted,
        &["search", "eval"],
    );
    let got: Vec<(usize, &str)> = found.iter().map(|c| (c.line, c.path.as_str())).collect();
    assert_eq!(
        got,
        vec![
            (3, "search::tt::Bound"),
            (4, "eval::breakdown"),
            (7, "search::self"),
            (7, "search::Info"),
            (11, "search::skill::MIN_ELO"),
            (14, "search::Score"),
        ]
    );
    // From `protocol/xboard/commands.rs`, `super::super::search` (line 15) is
    // `protocol::search`; from `protocol/uci.rs` it is the search.
    let from_uci = crossings(
        "src/protocol/uci.rs",
        "use super::super::search::X;",
        &["search"],
    );
    assert_eq!(
        from_uci,
        vec![Crossing {
            line: 1,
            path: "search::X".into()
        }]
    );
    assert!(crossings("src/protocol/uci.rs", "use super::search::X;", &["search"]).is_empty());
    assert!(crossings("src/protocol/mod.rs", "use self::search::X;", &["search"]).is_empty());
    assert_eq!(
        crossings("src/main.rs", "use lancer::eval::nnue;", &["eval"]),
        vec![Crossing {
            line: 1,
            path: "eval::nnue".into()
        }]
    );
    assert!(crossings("src/cli/mod.rs", "use crate::engine::Score;", &["search"]).is_empty());
}
