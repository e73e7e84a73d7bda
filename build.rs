//! Names the build (docs/download.md, "Which build is this"): the commit lancer is
//! built from, its date, whether tracked files differed from it, the target and the
//! compiler. `src/version.rs` reads them (and finds the processor level itself: a
//! release gives it to the lancer package alone, which a build script cannot see).

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=LANCER_COMMIT");
    println!("cargo:rerun-if-env-changed=LANCER_COMMIT_DATE");

    // A source archive has no .git: its builder may name the commit instead.
    let env_commit = std::env::var("LANCER_COMMIT")
        .ok()
        .filter(|s| !s.is_empty());
    let (commit, date, modified) = match env_commit {
        Some(c) => (
            c,
            std::env::var("LANCER_COMMIT_DATE").unwrap_or_default(),
            false,
        ),
        None => match git(&["rev-parse", "--short=7", "HEAD"]) {
            Some(c) => {
                let date = git(&["log", "-1", "--format=%cs", "HEAD"]).unwrap_or_default();
                let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                    .is_some_and(|s| !s.is_empty());
                // Rerun when HEAD moves, the index changes (commit, add) or a source
                // file is edited; cargo otherwise reruns a build script only when
                // the files it names change.
                for p in ["HEAD", "index", "packed-refs"] {
                    if let Some(path) = git(&["rev-parse", "--git-path", p]) {
                        println!("cargo:rerun-if-changed={path}");
                    }
                }
                if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    if let Some(path) = git(&["rev-parse", "--git-path", &r]) {
                        println!("cargo:rerun-if-changed={path}");
                    }
                }
                for p in ["src", "Cargo.toml", "Cargo.lock", "variants.ini"] {
                    if Path::new(p).exists() {
                        println!("cargo:rerun-if-changed={p}");
                    }
                }
                (c, date, dirty)
            }
            None => (String::new(), String::new(), false),
        },
    };
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let target = std::env::var("TARGET").unwrap_or_default();
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    // "0.2.0 (cc96aaa)", "0.2.0 (cc96aaa, modified)", "0.2.0 (commit unknown)".
    let short = match (commit.is_empty(), modified) {
        (true, _) => format!("{version} (commit unknown)"),
        (false, false) => format!("{version} ({commit})"),
        (false, true) => format!("{version} ({commit}, modified)"),
    };
    let from = if commit.is_empty() {
        "from a source without git history".to_string()
    } else if date.is_empty() {
        format!("from commit {commit}")
    } else {
        format!("from commit {commit} of {date}")
    };
    println!("cargo:rustc-env=LANCER_VERSION={short}");
    println!("cargo:rustc-env=LANCER_BUILT_FROM=built {from}");
    println!("cargo:rustc-env=LANCER_TARGET={target}");
    println!("cargo:rustc-env=LANCER_RUSTC={rustc_version}");
}
