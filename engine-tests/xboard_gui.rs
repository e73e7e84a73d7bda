//! XBoard in earnest: the piece images the project ships, and Debian's XBoard
//! 4.9.1 hosting lancer under a private Xvfb display
//! (`engine-tests/xboard_gui/run.py`: one engine-vs-engine game per variant, a
//! two-game match in each random-setup variant, and a mouse-driven human move,
//! checked from XBoard's debug log and saved PGN). Without the tools the test says it
//! skipped, except under CI (`CI` set), which must have them.

mod common;

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `xboard/pieces/` is exactly what `xboard/make-pieces.py` writes.
#[test]
fn piece_images_match_their_generator() {
    let out = std::env::temp_dir().join(format!("lancer-pieces-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let st = Command::new("python3")
        .arg(Path::new(ROOT).join("xboard/make-pieces.py"))
        .arg(&out)
        .status()
        .expect("python3");
    assert!(st.success(), "make-pieces.py failed");
    let list = |dir: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let committed = Path::new(ROOT).join("xboard/pieces");
    let names = list(&out);
    assert_eq!(names, list(&committed), "file names differ");
    // 8 lancer facings + jailer, sentry, standard-bearer, windmill; both colours.
    assert_eq!(names.len(), 24, "{names:?}");
    for n in &names {
        let a = std::fs::read(out.join(n)).unwrap();
        let b = std::fs::read(committed.join(n)).unwrap();
        assert!(
            a == b,
            "xboard/pieces/{n} differs from the generator's output: run python3 xboard/make-pieces.py"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn xboard_hosts_every_variant() {
    if !common::tools_present(
        "xboard_hosts_every_variant",
        &["/usr/games/xboard", "Xvfb", "import", "xdotool", "python3"],
        "apt-get install xboard xvfb imagemagick xdotool",
    ) {
        return;
    }
    let out = Path::new(ROOT).join("target/xboard-gui");
    let st = Command::new("python3")
        .arg(Path::new(ROOT).join("engine-tests/xboard_gui/run.py"))
        .arg("--lancer")
        .arg(env!("CARGO_BIN_EXE_lancer"))
        .arg("--out")
        .arg(&out)
        .status()
        .expect("run.py");
    assert!(
        st.success(),
        "the XBoard GUI test failed (see above; logs and screenshots in {})",
        out.display()
    );
}
