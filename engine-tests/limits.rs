//! Limits (issue #9): deep and infinite searches stop on request, 1,000+ ply move
//! lists, a position with 218 legal moves, full Lighthouse hands, Threads up to the
//! machine's cores, and Hash bounding memory; plus inputs the fuzz targets found.
//! Nothing here is timed: a search must answer `stop` at all (within a generous
//! 10 s); the stop latency is measured by `engine-tests/scripts/limits.py`.

mod common;
mod protocol;
use common::*;
use lancer::rules::notation::{move_text, parse_move};
use lancer::rules::{Game, MoveList, Position};
use protocol::Session;
use rand::{Rng, SeedableRng};
use regex::Regex;
use std::collections::HashSet;
use std::time::Duration;

const ANSWER: Duration = Duration::from_secs(10);

fn re(s: &str) -> Regex {
    Regex::new(s).unwrap()
}

/// Waits for `bestmove` and checks the move is legal in `pos`.
fn legal_bestmove(s: &mut Session, pos: &Position, what: &str) -> String {
    let line = s
        .expect(&re("^bestmove "), ANSWER)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let m = line.split_whitespace().nth(1).unwrap_or("").to_string();
    assert!(
        parse_move(pos, &m).is_ok(),
        "{what}: bestmove '{m}' is not legal in {}",
        pos.efen()
    );
    m
}

/// Sends `position fen` and checks the engine holds exactly that position (`d`).
fn set_and_check(s: &mut Session, variant: &str, efen: &str, moves: &[String]) -> Position {
    let v = variants().get(variant).unwrap();
    let mut g = Game::new(Position::from_efen(v, efen).unwrap());
    for m in moves {
        g.play_text(m).unwrap();
    }
    s.send(&format!("setoption name UCI_Variant value {variant}"));
    if moves.is_empty() {
        s.send(&format!("position fen {efen}"));
    } else {
        s.send(&format!("position fen {efen} moves {}", moves.join(" ")));
    }
    s.send("d");
    let line = s.expect(&re("^EFEN: "), ANSWER).unwrap();
    assert_eq!(line, format!("EFEN: {}", g.position().efen()), "{variant}");
    *g.position()
}

fn no_errors(s: Session) {
    let (_, seen) = s.finish().unwrap();
    for l in &seen {
        assert!(!l.starts_with("info string error"), "{l}");
    }
}

#[test]
fn go_depth_200_and_go_infinite_answer_stop() {
    let mut s = Session::uci();
    for v in [
        "chess",
        "fullcavalry",
        "eightpiece",
        "royalstandard",
        "lighthouse",
    ] {
        let var = variants().get(v).unwrap();
        let fen = var.default_start_fen();
        let pos = set_and_check(&mut s, v, &fen, &[]);
        for (i, go) in [
            "go depth 200",
            "go infinite",
            "go ponder wtime 1000 btime 1000",
        ]
        .iter()
        .enumerate()
        {
            for delay in [0u64, 30, 300] {
                s.send(go);
                std::thread::sleep(Duration::from_millis(delay + i as u64));
                s.send("stop");
                legal_bestmove(&mut s, &pos, &format!("{v}: {go}, stop after {delay} ms"));
            }
        }
        // `stop` with no search running is harmless.
        s.send("stop");
        s.send("isready");
        s.expect(&re("^readyok$"), ANSWER).unwrap();
    }
    s.send("quit");
    no_errors(s);
}

#[test]
fn cecp_deep_search_answers_question_mark_and_analysis_exit() {
    let mut s = Session::start(&["xboard"]);
    s.send("protover 2");
    s.expect(&re("done=1"), ANSWER).unwrap();
    for v in ["normal", "fullcavalry", "lighthouse"] {
        s.send("new");
        s.send(&format!("variant {v}"));
        s.send("level 0 100 0");
        s.send("sd 200");
        s.send("force");
        s.send("usermove e2e3");
        s.send("go");
        std::thread::sleep(Duration::from_millis(200));
        s.send("?");
        s.expect(&re("^move "), ANSWER)
            .unwrap_or_else(|e| panic!("{v}: '?' got no move: {e}"));
        s.send("force");
        s.send("analyze");
        std::thread::sleep(Duration::from_millis(200));
        s.send("exit");
        s.send("ping 9");
        s.expect(&re("^pong 9$"), ANSWER).unwrap();
    }
    s.send("quit");
    let (_, seen) = s.finish().unwrap();
    assert!(!seen.iter().any(|l| l.starts_with("Error")), "{seen:?}");
}

/// A game of `plies` legal moves from the start of `variant` in which no position
/// repeats and the n-move rule never ends it (random moves, a capture or pawn move
/// whenever the counter runs high); None when the seed runs into a dead end.
fn long_game(variant: &str, plies: usize, seed: u64) -> Option<Vec<String>> {
    let v = variants().get(variant).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut pos = Position::from_efen(v, &v.default_start_fen()).unwrap();
    let mut seen = HashSet::from([pos.key()]);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    while out.len() < plies {
        list.clear();
        pos.legal_moves(&mut list);
        let ok: Vec<_> = list
            .iter()
            .copied()
            .filter(|&m| {
                let a = pos.after(m);
                !seen.contains(&a.key()) && a.outcome().is_none()
            })
            .collect();
        let urgent = v.n_move_rule > 0 && pos.halfmove() + 8 >= v.n_move_rule;
        let (reset, quiet): (Vec<_>, Vec<_>) =
            ok.iter().partition(|&&m| pos.after(m).halfmove() == 0);
        let pool = match (urgent, reset.is_empty(), quiet.is_empty()) {
            (true, false, _) | (false, false, true) => reset,
            (_, _, false) => quiet,
            _ => return None,
        };
        let m = pool[rng.gen_range(0..pool.len())];
        out.push(move_text(&pos, m));
        pos.do_move(m);
        seen.insert(pos.key());
    }
    Some(out)
}

#[test]
fn position_with_1200_plies_of_moves() {
    let mut s = Session::uci();
    for v in ["chess", "fullcavalry", "lighthouse"] {
        let moves = (0..20)
            .find_map(|seed| long_game(v, 1200, seed))
            .unwrap_or_else(|| panic!("{v}: no 1200-ply game found"));
        let fen = variants().get(v).unwrap().default_start_fen();
        s.send(&format!("setoption name UCI_Variant value {v}"));
        s.send(&format!("position startpos moves {}", moves.join(" ")));
        s.send("d");
        let mut g = Game::new(Position::from_efen(variants().get(v).unwrap(), &fen).unwrap());
        for m in &moves {
            g.play_text(m).unwrap();
        }
        assert!(g.outcome().is_none(), "{v}: the long game ended");
        let line = s.expect(&re("^EFEN: "), ANSWER).unwrap();
        assert_eq!(line, format!("EFEN: {}", g.position().efen()), "{v}");
        let pos = set_and_check(&mut s, v, &fen, &moves);
        s.send("go depth 5");
        legal_bestmove(&mut s, &pos, &format!("{v} after 1200 plies"));
        s.send("go infinite");
        s.send("stop");
        legal_bestmove(&mut s, &pos, &format!("{v} after 1200 plies, infinite"));
    }
    s.send("quit");
    no_errors(s);
}

/// The 218-move chess position (the most known for a legal position).
const MOVES_218: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";

/// An independent count of White's legal moves in a position with only kings, queens,
/// rooks, bishops and knights for White and only pawns and a king for Black (so no
/// pin, and only king steps can be illegal): walks the board as a char grid.
fn naive_white_moves(board: &str) -> usize {
    let mut g = [['.'; 8]; 8];
    for (i, row) in board.split('/').enumerate() {
        let mut f = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                f += d as usize;
            } else {
                g[7 - i][f] = c;
                f += 1;
            }
        }
    }
    let at = |r: i32, f: i32| -> Option<char> {
        ((0..8).contains(&r) && (0..8).contains(&f)).then(|| g[r as usize][f as usize])
    };
    let black_attacks = |r: i32, f: i32| -> bool {
        [(1, -1), (1, 1)]
            .iter()
            .any(|(dr, df)| at(r + dr, f + df) == Some('p'))
            || (-1..=1)
                .flat_map(|dr| (-1..=1).map(move |df| (dr, df)))
                .any(|(dr, df)| (dr, df) != (0, 0) && at(r + dr, f + df) == Some('k'))
    };
    let orth = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let knight = [
        (1, 2),
        (2, 1),
        (-1, 2),
        (-2, 1),
        (1, -2),
        (2, -1),
        (-1, -2),
        (-2, -1),
    ];
    let mut n = 0;
    for r in 0..8i32 {
        for f in 0..8i32 {
            let c = g[r as usize][f as usize];
            let free = |x: Option<char>| x.is_some_and(|x| x == '.' || x.is_ascii_lowercase());
            let slide = |dirs: &[(i32, i32)]| {
                let mut k = 0;
                for (dr, df) in dirs {
                    let (mut rr, mut ff) = (r + dr, f + df);
                    while let Some(x) = at(rr, ff) {
                        if x.is_ascii_uppercase() {
                            break;
                        }
                        k += 1;
                        if x != '.' {
                            break;
                        }
                        rr += dr;
                        ff += df;
                    }
                }
                k
            };
            n += match c {
                'Q' => slide(&orth) + slide(&diag),
                'R' => slide(&orth),
                'B' => slide(&diag),
                'N' => knight
                    .iter()
                    .filter(|(dr, df)| free(at(r + dr, f + df)))
                    .count(),
                'K' => orth
                    .iter()
                    .chain(diag.iter())
                    .filter(|(dr, df)| free(at(r + dr, f + df)) && !black_attacks(r + dr, f + df))
                    .count(),
                _ => 0,
            };
        }
    }
    n
}

#[test]
fn position_with_218_legal_moves() {
    let p = pos("chess", MOVES_218);
    let board = MOVES_218.split(' ').next().unwrap();
    assert_eq!(naive_white_moves(board), 218);
    assert_eq!(p.legal_move_count(), 218);
    let mut s = Session::uci();
    let pos = set_and_check(&mut s, "chess", MOVES_218, &[]);
    s.send("go perft 1");
    s.expect(&re("^Nodes searched: 218$"), ANSWER).unwrap();
    s.send("go perft 2");
    s.expect(&re("^Nodes searched: \\d+$"), Duration::from_secs(60))
        .unwrap();
    s.send("go depth 6");
    legal_bestmove(&mut s, &pos, "218 moves, depth 6");
    s.send("setoption name MultiPV value 218");
    s.send("go depth 2");
    legal_bestmove(&mut s, &pos, "218 moves, MultiPV 218");
    s.send("setoption name MultiPV value 1");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    s.send("stop");
    legal_bestmove(&mut s, &pos, "218 moves, infinite");
    s.send("quit");
    no_errors(s);
}

/// Lighthouse positions with every unit in hand; each count is checked by hand rule:
/// a drop may go on any empty square (a pawn not on the first or last rank), a side
/// not in check can drop anything anywhere, and the king's own steps are added.
#[test]
fn full_lighthouse_hands() {
    let cases = [
        // Each side holds all of its own units; kings on c1 and b8.
        (
            "1k2/4/4/4/4/4/4/2K1[BNRPPPPbnrpppp] w - - 0 1",
            30 * 3 + 24 + 5,
        ),
        // White holds all fourteen units of both sides.
        (
            "1k2/4/4/4/4/4/4/2K1[BBNNRRPPPPPPPP] w - - 0 1",
            30 * 3 + 24 + 5,
        ),
        // Black to move, holding everything, its king in the corner a8.
        (
            "k3/4/4/4/4/4/4/3K[bbnnrrpppppppp] b - - 0 1",
            30 * 3 + 24 + 3,
        ),
    ];
    let mut s = Session::uci();
    for (fen, want) in cases {
        let p = pos("lighthouse", fen);
        assert_eq!(p.legal_move_count(), want, "{fen}");
        assert_eq!(pos("lighthouse", &p.efen()).efen(), p.efen());
        let pos = set_and_check(&mut s, "lighthouse", fen, &[]);
        s.send("go perft 1");
        s.expect(&re(&format!("^Nodes searched: {want}$")), ANSWER)
            .unwrap();
        s.send("go perft 3");
        s.expect(&re("^Nodes searched: \\d+$"), Duration::from_secs(120))
            .unwrap();
        s.send("go depth 6");
        legal_bestmove(&mut s, &pos, fen);
        s.send("go infinite");
        std::thread::sleep(Duration::from_millis(50));
        s.send("stop");
        legal_bestmove(&mut s, &pos, fen);
    }
    s.send("quit");
    no_errors(s);
}

#[test]
fn threads_up_to_the_cores() {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut s = Session::uci();
    for threads in [2, cores.max(2)] {
        s.send(&format!("setoption name Threads value {threads}"));
        for v in ["chess", "eightpiece", "royalstandard", "lighthouse"] {
            let fen = variants().get(v).unwrap().default_start_fen();
            let pos = set_and_check(&mut s, v, &fen, &[]);
            s.send("go depth 7");
            legal_bestmove(&mut s, &pos, &format!("{v}, {threads} threads"));
            s.send("go infinite");
            std::thread::sleep(Duration::from_millis(50));
            s.send("stop");
            legal_bestmove(&mut s, &pos, &format!("{v}, {threads} threads, infinite"));
        }
    }
    s.send("quit");
    no_errors(s);
}

/// Resident memory of a process in MB (Linux).
fn rss_mb(pid: u32) -> Option<u64> {
    status_mb(pid, "VmRSS:")
}

/// A memory figure of /proc/PID/status (`VmRSS:`, `VmHWM:`) in MB.
fn status_mb(pid: u32, key: &str) -> Option<u64> {
    let st = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = st
        .lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024)
}

/// The default 64 MB table is made only when first needed: a `Hash` set before
/// `isready` is the only table the engine ever writes, so its peak memory stays far
/// below 64 MB; without one, `isready` makes the default table.
#[test]
#[cfg(target_os = "linux")]
fn the_default_table_waits_for_the_gui_hash() {
    let start = variants().get("chess").unwrap().default_start_fen();
    let start = Position::from_efen(variants().get("chess").unwrap(), &start).unwrap();
    let mut s = Session::uci();
    let pid = s.child.id();
    s.send("setoption name Hash value 8");
    s.send("isready");
    s.expect(&re("^readyok$"), ANSWER).unwrap();
    s.send("ucinewgame");
    s.send("position startpos");
    s.send("go depth 9");
    legal_bestmove(&mut s, &start, "Hash 8");
    let peak = status_mb(pid, "VmHWM:").expect("VmHWM");
    assert!(peak < 48, "Hash 8: peak {peak} MB");
    s.send("quit");
    no_errors(s);

    let mut s = Session::uci();
    let pid = s.child.id();
    let before = rss_mb(pid).expect("VmRSS");
    s.send("isready");
    s.expect(&re("^readyok$"), ANSWER).unwrap();
    let after = rss_mb(pid).expect("VmRSS");
    assert!(
        before < 48 && after >= 64,
        "{before} MB before isready, {after} after"
    );
    s.send("quit");
    no_errors(s);
}

/// The table is the engine's only large allocation: resident memory follows `Hash`
/// (the table is written when it is made), up to a fixed overhead.
#[test]
#[cfg(target_os = "linux")]
fn hash_bounds_memory() {
    let mut s = Session::uci();
    let pid = s.child.id();
    let start = set_and_check(
        &mut s,
        "chess",
        &variants().get("chess").unwrap().default_start_fen(),
        &[],
    );
    for mb in [16u64, 256, 16] {
        s.send(&format!("setoption name Hash value {mb}"));
        s.send("isready");
        s.expect(&re("^readyok$"), ANSWER).unwrap();
        s.send("go depth 8");
        legal_bestmove(&mut s, &start, &format!("Hash {mb}"));
        let rss = rss_mb(pid).expect("VmRSS");
        assert!(rss >= mb * 9 / 10, "Hash {mb}: only {rss} MB resident");
        assert!(rss <= mb + 100, "Hash {mb}: {rss} MB resident");
    }
    s.send("quit");
    no_errors(s);
}

// ---------------------------------------------------------------------------
// Inputs the fuzz targets found (engine-tests/fuzz); each crashed before its fix.

/// efen: a run of digits longer than u32 overflowed the empty-square count.
#[test]
fn efen_with_a_huge_empty_square_count_is_an_error() {
    for v in VARIANTS {
        let var = variants().get(v).unwrap();
        for fen in [
            "1k34444444444444444444444444444/8/8/8/8/8/8/4K3 w - - 0 1",
            "99999999999999999999999/8/8/8/8/8/8/4K3 w - - 0 1",
            "4294967296/8/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            let e = Position::from_efen(var, fen).err();
            assert!(
                e.as_deref()
                    .is_some_and(|e| e.contains("wider") || e.contains("ranks")),
                "{v} {fen}: {e:?}"
            );
        }
    }
    let mut s = Session::uci();
    s.send("position fen 1k34444444444444444444444444444/8/8/8/8/8/8/4K3 w - - 0 1");
    s.expect(
        &re("^info string error: position: bad EFEN: rank 8 is wider"),
        ANSWER,
    )
    .unwrap();
    s.send("quit");
    s.finish().unwrap();
}

/// efen, ini: two sentries capturing the same victim (landing on different squares)
/// both got the SAN `Sxd5`, which then did not parse (ambiguous).
#[test]
fn sentry_captures_of_one_victim_get_distinct_san() {
    use lancer::rules::notation::{parse_san, san};
    use lancer::rules::MoveType;
    let p = pos(
        "eightpiece",
        "jl(w)sqkbnr/pSp1pppp/8/3pP3/8/8/SPPPJ1PP/JL(ne)SSK3 w - - 0 1",
    );
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut on_d5 = Vec::new();
    for &m in list.iter() {
        let s = san(&p, m);
        assert_eq!(parse_san(&p, &s), Ok(m), "{s}");
        if m.move_type() == MoveType::SentryCapture && move_text(&p, m).ends_with("d5") {
            on_d5.push(s);
        }
    }
    on_d5.sort();
    assert_eq!(on_d5, ["Saxd5", "Sbxd5"]);
}

/// ini: `promotion = queen jailer jailer` generated every jailer promotion twice
/// (two legal moves with one text).
#[test]
fn a_promotion_kind_given_twice_is_an_error() {
    use lancer::rules::Variants;
    let ini = "[x]\nboard = 6x6\npieces = K:king Q:queen P:pawn J:jailer\n\
               start = qq1k2/pPpppp/6/6/PPPP1P/1J1K2 w - - 0 1\n\
               promotion = queen jailer jailer\n";
    let e = Variants::load(&[(ini, "x.ini")]).unwrap_err();
    assert_eq!(e.to_string(), "x.ini:5: promotion: 'jailer' given twice");
    let vs = Variants::load(&[(&ini.replace("jailer jailer", "jailer"), "x.ini")]).unwrap();
    let v = vs.get("x").unwrap();
    let p = Position::from_efen(v, &v.default_start_fen()).unwrap();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut texts: Vec<String> = list.iter().map(|&m| move_text(&p, m)).collect();
    let n = texts.len();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), n, "two legal moves with one text");
    assert!(texts.contains(&"b5a6j".to_string()), "{texts:?}");
}

// ---------------------------------------------------------------------------
// Allocations whose size a user chooses (issue 15).

/// Runs `lancer ARGS` with at most `mb` MB of address space (`ulimit -v`), so a table
/// of a few GB cannot be had on any machine.
fn limited(mb: u64, args: &str) -> std::process::Command {
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(format!(
        "ulimit -v {} && exec {} {args}",
        mb * 1024,
        env!("CARGO_BIN_EXE_lancer")
    ));
    c
}

fn limited_session(mb: u64, args: &str) -> Session {
    use std::process::Stdio;
    let mut child = limited(mb, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for l in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    Session {
        child,
        stdin,
        rx,
        seen: Vec::new(),
    }
}

/// `setoption name Hash value 40000` aborted the engine (`memory allocation of
/// 41943040000 bytes failed`). A table that cannot be had is refused with an error
/// line, the old table stays, and the engine carries on; the same for CECP `memory`
/// and `analyse --hash`.
#[test]
#[cfg(target_os = "linux")]
fn a_table_too_large_is_refused_and_the_old_one_kept() {
    let start = variants().get("chess").unwrap().default_start_fen();
    let start = Position::from_efen(variants().get("chess").unwrap(), &start).unwrap();
    let mut s = limited_session(1024, "uci");
    s.send("uci");
    s.expect(&re("^uciok$"), ANSWER).unwrap();
    s.send("setoption name Hash value 32");
    s.send("setoption name Hash value 4000");
    s.expect(
        &re("^info string error: Hash 4000 MB: .*; the table stays 32 MB$"),
        ANSWER,
    )
    .unwrap();
    s.send("setoption name Hash value 40000");
    s.expect(&re("^info string error: Hash 40000 MB: "), ANSWER)
        .unwrap();
    s.send("isready");
    s.expect(&re("^readyok$"), ANSWER).unwrap();
    s.send("position startpos");
    s.send("go depth 6");
    legal_bestmove(&mut s, &start, "after a refused Hash");
    let rss = rss_mb(s.child.id()).unwrap_or(0);
    assert!(
        rss >= 28,
        "the 32 MB table is still there: {rss} MB resident"
    );
    s.send("setoption name Hash value 8");
    s.send("go depth 4");
    legal_bestmove(&mut s, &start, "after a smaller Hash");
    s.send("quit");
    let (_, seen) = s.finish().unwrap();
    assert_eq!(
        seen.iter()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        2,
        "{seen:?}"
    );

    let mut s = limited_session(1024, "xboard");
    s.send("protover 2");
    s.expect(&re("done=1"), ANSWER).unwrap();
    s.send("new");
    s.send("memory 4000");
    s.expect(&re(r"^Error \(Hash 4000 MB: .*\): memory 4000$"), ANSWER)
        .unwrap();
    s.send("option Hash=5000");
    s.expect(
        &re(r"^Error \(Hash 5000 MB: .*\): option Hash=5000$"),
        ANSWER,
    )
    .unwrap();
    s.send("sd 3");
    s.send("usermove e2e4");
    s.expect(&re("^move [a-h][1-8][a-h][1-8]$"), ANSWER)
        .unwrap();
    s.send("quit");
    s.finish().unwrap();

    let o = limited(1024, "analyse --hash 4000 --depth 2")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: --hash 4000: "), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{err}"
    );
}
