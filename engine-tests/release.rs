//! The binaries a release ships, tested as their users run them (docs/download.md):
//! each Windows executable under Wine, each static Linux executable as it is.
//!
//! Which binaries: every `lancer-*-windows-*.exe` and `lancer-*-linux-*` in the folder
//! `LANCER_RELEASE_DIR` names. `make release` sets it to `dist/`; `.ci/run` builds one
//! Windows and one Linux executable with the quicker `quick` profile and sets it to
//! theirs. Without it the tests of binaries say that they skipped (under CI, which
//! must give them, they fail); the sessions also run against the binary cargo built.
//!
//! Each binary must print the native build's bench signature and version, pass every
//! UCI and XBoard transcript of `engine-tests/protocol/` (`release/` holds the
//! sessions named for releases: seven variants, clocks, two threads, stop, ponder,
//! bench), serve the web board, and, for Windows, play a `lancer match` against the
//! native build in Full Cavalry and Lighthouse in which every game ends by the rules.
//! Linux binaries must need no library; Windows ones no DLL beyond Windows' own.

mod common;
mod protocol;

use protocol::{run_transcript_dir_with, Engine};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The tests take turns: the match needs both cores to itself.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// One binary of a release.
#[derive(Clone, Debug)]
struct Bin {
    path: PathBuf,
    windows: bool,
    /// The x86-64 level its name gives (`x86-64-v3`).
    level: String,
}

impl Bin {
    fn name(&self) -> String {
        self.path.file_name().unwrap().to_string_lossy().into()
    }

    /// How to start it: through Wine for Windows.
    fn engine(&self) -> Engine {
        if self.windows {
            wine_ready();
            Engine {
                program: "wine".into(),
                prefix: vec![self.path.display().to_string()],
            }
        } else {
            Engine {
                program: self.path.display().to_string(),
                prefix: Vec::new(),
            }
        }
    }

    fn run(&self, args: &[&str]) -> Output {
        self.engine()
            .command()
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{}: cannot start: {e}", self.name()))
    }
}

/// Wine's settings folder (`WINEPREFIX`, in target/ unless given) and quiet logs;
/// the first run creates the folder, once, before the tests start Wine in parallel.
fn wine_ready() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let o = Command::new("wine")
            .args(["cmd", "/c", "exit"])
            .output()
            .expect("wine runs");
        assert!(
            o.status.success(),
            "wine cannot start: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    });
}

/// Wine's environment, set on this process before any test starts a program (the
/// children and `lancer match`'s engines inherit it).
fn wine_env() {
    static SET: OnceLock<()> = OnceLock::new();
    SET.get_or_init(|| {
        let prefix = std::env::var_os("WINEPREFIX").unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("target/wine")
                .into_os_string()
        });
        // Set once, under the lock every test takes first, before any thread of
        // this process reads the environment again.
        std::env::set_var("WINEPREFIX", prefix);
        std::env::set_var("WINEDEBUG", "-all");
    });
}

/// The release's binaries, or none (with a skip line) when no folder is given.
fn binaries(test: &str) -> Vec<Bin> {
    wine_env();
    let Some(dir) = std::env::var_os("LANCER_RELEASE_DIR") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must build release binaries and set LANCER_RELEASE_DIR (.ci/run)"
        );
        eprintln!("SKIPPED {test}: no LANCER_RELEASE_DIR (make release sets it)");
        return Vec::new();
    };
    let mut bins: Vec<Bin> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("LANCER_RELEASE_DIR {}: {e}", Path::new(&dir).display()))
        .map(|e| e.unwrap().path())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_string();
            // lancer-0.2.0-windows-x86-64-v3.exe, lancer-0.2.0-linux-x86-64-v3
            let (system, level) = name.strip_prefix("lancer-")?.split_once("-x86-64")?;
            let level = format!("x86-64{}", level.strip_suffix(".exe").unwrap_or(level));
            let windows = system.ends_with("-windows") && name.ends_with(".exe");
            let linux = system.ends_with("-linux") && !level.contains('.');
            if !(windows || linux) {
                return None;
            }
            Some(Bin {
                path,
                windows,
                level,
            })
        })
        .collect();
    bins.sort_by_key(|b| b.path.clone());
    for b in &bins {
        eprintln!(
            "{test}: {} ({})",
            b.name(),
            if b.windows {
                "Windows, under Wine"
            } else {
                "Linux"
            }
        );
    }
    assert!(
        !bins.is_empty(),
        "no lancer-*-windows-*.exe or lancer-*-linux-* in {}",
        Path::new(&dir).display()
    );
    if bins.iter().any(|b| b.windows) {
        assert!(
            common::tools_present(test, &["wine"], "apt-get install wine"),
            "Windows binaries need Wine"
        );
    }
    bins
}

/// The first line of `bench`'s total: `219382 nodes`.
fn bench_nodes(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .find(|l| l.ends_with(" nodes") && !l.starts_with("position"))
        .unwrap_or("")
        .to_string()
}

#[test]
fn every_binary_searches_as_the_native_build_and_names_itself() {
    let _turn = serial();
    let bins = binaries("every_binary_searches_as_the_native_build_and_names_itself");
    if bins.is_empty() {
        return;
    }
    let native = Bin {
        path: env!("CARGO_BIN_EXE_lancer").into(),
        windows: false,
        level: String::new(),
    };
    let expected = bench_nodes(&native.run(&["bench"]));
    assert!(expected.ends_with(" nodes"), "native bench: {expected:?}");
    let version = String::from_utf8_lossy(&native.run(&["--version"]).stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    // The version and commit must be the native build's; whether the tree was
    // modified may differ (files edited after the release's builds).
    let commit = |v: &str| v.replace(", modified)", ")");
    for b in &bins {
        let got = bench_nodes(&b.run(&["bench"]));
        assert_eq!(got, expected, "{}: bench signature", b.name());
        let o = b.run(&["--version"]);
        let text = String::from_utf8_lossy(&o.stdout).replace('\r', "");
        let mut lines = text.lines();
        assert_eq!(
            lines.next().map(commit),
            Some(commit(&version)),
            "{}",
            b.name()
        );
        let build = lines.next().unwrap_or("");
        assert!(
            build.contains(&format!(" for {} (", b.level)),
            "{}: built for its level: {build}",
            b.name()
        );
        eprintln!("{}: {got}, {version}; {build}", b.name());
    }
}

#[test]
fn every_binary_passes_the_protocol_transcripts() {
    let _turn = serial();
    for b in binaries("every_binary_passes_the_protocol_transcripts") {
        let e = b.engine();
        eprintln!("{}:", b.name());
        run_transcript_dir_with(&e, "release", &[], 2);
        run_transcript_dir_with(&e, "uci", &["uci"], 5);
        run_transcript_dir_with(&e, "xboard", &["xboard"], 5);
    }
}

/// The release's sessions against the binary cargo built, so that a change that
/// breaks them shows in every test run, not only in `make release`.
#[test]
fn the_release_sessions_pass_with_the_built_lancer() {
    let _turn = serial();
    run_transcript_dir_with(&Engine::built(), "release", &[], 2);
}

/// A GET request on a fresh connection; the status line and the body's length.
fn http_get(addr: std::net::SocketAddr, path: &str) -> (String, usize) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = Vec::new();
    let _ = s.read_to_end(&mut reply);
    let text = String::from_utf8_lossy(&reply);
    let status = text.lines().next().unwrap_or("").to_string();
    let body = text.split_once("\r\n\r\n").map_or(0, |(_, b)| b.len());
    (status, body)
}

#[test]
fn every_binary_serves_the_board() {
    let _turn = serial();
    for b in binaries("every_binary_serves_the_board") {
        let mut child = b
            .engine()
            .command()
            .args(["serve", "--port", "0"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let addr = common::served_address(child.stdout.take().unwrap());
        let (status, body) = http_get(addr, "/");
        let (missing, _) = http_get(addr, "/no-such-page");
        let _ = child.kill();
        let _ = child.wait();
        assert!(status.contains(" 200 "), "{}: / {status}", b.name());
        assert!(body > 1000, "{}: / is {body} bytes", b.name());
        assert!(missing.contains(" 404 "), "{}: {missing}", b.name());
    }
}

/// `lancer match` with a Windows build against the native one: every game ends by
/// the rules, with no crash, time loss or illegal move, and the PGN replays.
#[test]
fn windows_builds_play_matches_against_the_native_build() {
    let _turn = serial();
    let bins: Vec<Bin> = binaries("windows_builds_play_matches_against_the_native_build")
        .into_iter()
        .filter(|b| b.windows)
        .collect();
    let lancer = env!("CARGO_BIN_EXE_lancer");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("release-match");
    std::fs::create_dir_all(&dir).unwrap();
    for b in &bins {
        // Full Cavalry over UCI with two threads and pondering; Lighthouse over
        // XBoard. One game at a time, so that the engine to move has both cores.
        for (variant, proto, extra) in [
            (
                "fullcavalry",
                "proto=uci",
                &["option.Threads=2", "ponder"][..],
            ),
            ("lighthouse", "proto=xboard", &[][..]),
        ] {
            let epd = dir.join(format!("{variant}.epd"));
            let o = Command::new(lancer)
                .args(["openings", "--variant", variant, "--count", "5"])
                .args(["--plies", "6", "--seed", "86"])
                .output()
                .unwrap();
            assert!(o.status.success());
            std::fs::write(&epd, &o.stdout).unwrap();
            let pgn = dir.join(format!("{}-{variant}.pgn", b.name()));
            let _ = std::fs::remove_file(&pgn);
            let windows = format!("cmd=wine {}", b.path.display());
            let mut args = vec!["match", "-engine", &windows, "name=windows", proto];
            args.extend_from_slice(extra);
            let native = format!("cmd={lancer}");
            let file = format!("file={}", epd.display());
            let pgn_s = pgn.display().to_string();
            args.extend([
                "-engine",
                &native,
                "name=linux",
                "proto=uci",
                "-each",
                "tc=2+0.05",
                "-variant",
                variant,
                "-openings",
                &file,
                "format=epd",
                "-repeat",
                "-games",
                "10",
                "-concurrency",
                "1",
                "-pgnout",
                &pgn_s,
            ]);
            let o = Command::new(lancer).args(&args).output().unwrap();
            let out = String::from_utf8_lossy(&o.stdout);
            let what = format!("{} {variant}", b.name());
            assert!(
                o.status.success(),
                "{what}: {out}\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert_eq!(out.matches("Finished game").count(), 10, "{what}: {out}");
            for bad in [
                "illegal move",
                "loses on time",
                "connection stalls",
                "protocol error",
                "adjudicat",
            ] {
                assert!(!out.contains(bad), "{what}: {bad}: {out}");
            }
            let o = Command::new(lancer)
                .arg("pgn-check")
                .arg(&pgn)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{what}: pgn-check: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let score = out.lines().rev().find(|l| l.starts_with("Score of"));
            eprintln!("{what}: {}", score.unwrap_or(""));
        }
    }
}

#[test]
fn linux_builds_need_no_library() {
    let _turn = serial();
    for b in binaries("linux_builds_need_no_library") {
        if b.windows {
            continue;
        }
        let o = Command::new("ldd").arg(&b.path).output().unwrap();
        let text =
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
        assert!(
            text.contains("not a dynamic executable") || text.contains("statically linked"),
            "{}: ldd says {text}",
            b.name()
        );
        // No environment at all: no PATH, no HOME, no locale.
        let o = b
            .engine()
            .command()
            .env_clear()
            .args(["analyse", "--variant", "lighthouse", "--depth", "6"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}: {o:?}", b.name());
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("bestmove "),
            "{}",
            b.name()
        );
    }
}

#[test]
fn windows_builds_need_only_windows_own_dlls() {
    let _turn = serial();
    let bins: Vec<Bin> = binaries("windows_builds_need_only_windows_own_dlls")
        .into_iter()
        .filter(|b| b.windows)
        .collect();
    if bins.is_empty()
        || !common::tools_present(
            "windows_builds_need_only_windows_own_dlls",
            &["x86_64-w64-mingw32-objdump"],
            "apt-get install binutils-mingw-w64-x86-64",
        )
    {
        return;
    }
    // Windows 7's own DLLs (bcryptprimitives.dll, which newer Rust standard
    // libraries import for x86_64-pc-windows-gnu, came with Windows 10).
    let system = [
        "advapi32.dll",
        "bcrypt.dll",
        "kernel32.dll",
        "msvcrt.dll",
        "ntdll.dll",
        "userenv.dll",
        "ws2_32.dll",
    ];
    for b in &bins {
        let o = Command::new("x86_64-w64-mingw32-objdump")
            .arg("-p")
            .arg(&b.path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        let dlls: Vec<String> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("DLL Name: "))
            .map(|d| d.to_ascii_lowercase())
            .collect();
        assert!(
            dlls.iter().any(|d| d == "kernel32.dll"),
            "{}: {dlls:?}",
            b.name()
        );
        for d in &dlls {
            assert!(system.contains(&d.as_str()), "{} imports {d}", b.name());
        }
    }
}

/// A build for a newer processor than the one it runs on stops with a message that
/// names the build to use, where it would otherwise die of an illegal instruction.
/// Older processors come from qemu's user-mode emulator.
#[test]
fn a_build_for_a_newer_processor_names_the_one_to_use() {
    let _turn = serial();
    let bins: Vec<Bin> = binaries("a_build_for_a_newer_processor_names_the_one_to_use")
        .into_iter()
        .filter(|b| !b.windows)
        .collect();
    if bins.is_empty()
        || !common::tools_present(
            "a_build_for_a_newer_processor_names_the_one_to_use",
            &["qemu-x86_64"],
            "apt-get install qemu-user",
        )
    {
        return;
    }
    let version = env!("CARGO_PKG_VERSION");
    for b in &bins {
        // (a processor too old for this level, the build it should be told to use)
        let (cpu, fallback) = match b.level.as_str() {
            "x86-64-v4" | "x86-64-v3" => ("Nehalem", "x86-64-v2"),
            "x86-64-v2" => ("core2duo", "x86-64"),
            _ => ("qemu64", ""),
        };
        let o = Command::new("qemu-x86_64")
            .args(["-cpu", cpu])
            .arg(&b.path)
            .arg("--version")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        if fallback.is_empty() {
            assert!(o.status.success(), "{} on {cpu}: {err}", b.name());
            continue;
        }
        assert_eq!(o.status.code(), Some(1), "{} on {cpu}: {o:?}", b.name());
        let file = format!("lancer-{version}-linux-{fallback}");
        assert!(
            err.contains("this processor lacks") && err.contains(&format!("use {file} ")),
            "{} on {cpu}: {err}",
            b.name()
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.starts_with("tellusererror "), "{}: {out}", b.name());
    }
}
