//! XBoard / CECP v2 tests against the built binary: transcripts in
//! `engine-tests/protocol/xboard/`, and engine-vs-itself games through two CECP
//! processes in every variant.

mod common;
mod protocol;
use protocol::*;
use regex::Regex;
use std::time::Duration;

#[test]
fn xboard_transcripts() {
    run_transcript_dir("xboard", &["xboard"], 5);
}

fn handshake(s: &mut Session, variant: &str) -> Option<String> {
    s.send("xboard");
    s.send("protover 2");
    s.expect(
        &Regex::new("^feature .*done=1$").unwrap(),
        Duration::from_secs(10),
    )
    .unwrap();
    s.send("new");
    s.send(&format!("variant {variant}"));
    s.send("force");
    s.send("sd 2");
    s.send("ping 1");
    let setup = Regex::new(r"^setup \(\S+\) \S+ (.+)$").unwrap();
    let pong = Regex::new(r"^(pong 1|setup .*)$").unwrap();
    let mut fen = None;
    loop {
        let l = s.expect(&pong, Duration::from_secs(10)).unwrap();
        if let Some(c) = setup.captures(&l) {
            fen = Some(c[1].to_string());
        } else {
            return fen;
        }
    }
}

/// Two engines play each other through CECP (force/go/usermove), as XBoard runs a
/// match: every move one sends is accepted by the other.
#[test]
fn self_play_every_variant() {
    let mv = Regex::new(r"^(move (\S+)|(1-0|0-1|1/2-1/2) \{.*\}|Illegal move.*)$").unwrap();
    let bad = Regex::new(r"^(Illegal move|Error)").unwrap();
    let pong9 = Regex::new("^pong 9$").unwrap();
    for v in common::VARIANTS.map(|v| if v == "chess" { "normal" } else { v }) {
        let mut a = Session::start(&["xboard"]);
        let mut b = Session::start(&["xboard"]);
        // The first engine's setup goes to the second one as setboard (XBoard's way).
        let fen = handshake(&mut a, v);
        handshake(&mut b, v);
        if let Some(f) = &fen {
            b.send(&format!("setboard {f}"));
        }
        let mut moves = Vec::new();
        let mut sides = [a, b];
        let mut turn = 0;
        let mut started = [true, false];
        sides[0].send("go");
        for _ in 0..40 {
            let l = sides[turn]
                .expect(&mv, Duration::from_secs(60))
                .unwrap_or_else(|e| panic!("{v}: {e}"));
            // A Royal Standard displacement travels as the plain capture; the sender
            // only plays the displacement the receiver reads from it, so the two
            // engines never part.
            assert!(!l.starts_with("Illegal move"), "{v}: {l} after {moves:?}");
            let c = mv.captures(&l).unwrap();
            let Some(m) = c.get(2) else {
                break;
            };
            let m = m.as_str().to_string();
            moves.push(m.clone());
            turn = 1 - turn;
            // Like XBoard: `go` once, then the engine answers each usermove by itself.
            sides[turn].send(&format!("usermove {m}"));
            if !started[turn] {
                sides[turn].send("go");
                started[turn] = true;
            }
        }
        for s in sides.iter_mut() {
            s.send("force");
            s.send("ping 9");
            s.expect(&pong9, Duration::from_secs(60)).unwrap();
            s.send("quit");
        }
        eprintln!("{v}: {}", moves.join(" "));
        assert!(moves.len() >= 4, "{v}: too short a game: {moves:?}");
        for s in sides {
            let (_, seen) = s.finish().unwrap();
            for l in &seen {
                assert!(!bad.is_match(l), "{v}: rejected: {l} (moves {moves:?})");
            }
        }
    }
}

#[test]
fn garbage_bytes_do_not_hurt() {
    let mut s = Session::start(&["xboard"]);
    s.send("protover 2");
    s.send_bytes(b"\xff\xfe\x00garbage\x07\n");
    s.send_bytes(b"usermove \xc3\x28\n");
    s.send_bytes(b"setboard \xff/8 w\n");
    s.send_bytes(&[b'x'; 100_000]);
    s.send_bytes(b"\nmemory 99999999999999999999999999\n");
    s.send_bytes(b"level 99999999999 99999999999 99999999999\n");
    s.send("new");
    s.send("ping 3");
    s.expect(&Regex::new("^pong 3$").unwrap(), Duration::from_secs(20))
        .unwrap();
    s.send("sd 2");
    s.send("usermove e2e4");
    s.expect(
        &Regex::new("^move [a-h][1-8][a-h][1-8]$").unwrap(),
        Duration::from_secs(20),
    )
    .unwrap();
    s.send("quit");
    s.finish().unwrap();
}

/// A variant from the user's `--variants` file is shown to XBoard by its data alone:
/// `[mycavalry : fullcavalry]` gets fullcavalry's `setup` and `piece` lines, with no
/// code that names it.
#[test]
fn user_variant_gets_setup_and_piece_lines() {
    let dir = std::env::temp_dir().join(format!("lancer-xb-user-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ini = dir.join("my.ini");
    std::fs::write(&ini, "[mycavalry : fullcavalry]\nnMoveRule = 80\n").unwrap();
    let ini = ini.to_string_lossy().to_string();
    let mut s = Session::start(&["--variants", &ini, "xboard"]);
    s.send("xboard");
    s.send("protover 2");
    let features = s
        .expect(
            &Regex::new("^feature .*variants=.*$").unwrap(),
            Duration::from_secs(10),
        )
        .unwrap();
    assert!(features.contains("mycavalry"), "{features}");
    s.send("new");
    s.send("variant mycavalry");
    s.expect(
        &Regex::new(
            r"^setup \(PNB\.QCDEFGHMOKpnb\.qcdefghmok\) 8x8\+0_fairy enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1$",
        )
        .unwrap(),
        Duration::from_secs(10),
    )
    .unwrap();
    for p in ["K& KO2", "C& x", "O& x"] {
        s.expect(
            &Regex::new(&format!("^piece {}$", regex::escape(p))).unwrap(),
            Duration::from_secs(10),
        )
        .unwrap();
    }
    // The game goes on in the variant.
    s.send("force");
    s.send("usermove e2e4");
    s.send("ping 2");
    s.expect(&Regex::new("^pong 2$").unwrap(), Duration::from_secs(10))
        .unwrap();
    s.send("quit");
    let (_, seen) = s.finish().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    for l in &seen {
        assert!(!l.starts_with("Illegal") && !l.starts_with("Error"), "{l}");
    }
}
