//! UCI (docs/uci.md). vampirc-uci writes the handshake, options and numeric
//! info fields; every input line is parsed by hand (vampirc mis-parses drops, facings
//! and `go perft`, and panics on some inputs; a bad line must only get an error).

use super::board::diagram;
use super::out;
use crate::engine::options::{OptionKind, OPTIONS};
use crate::engine::{wdl, Bound, Engine, Info, Limits, SearchResult};
use crate::rules::notation::{move_text, parse_move};
use crate::rules::perft;
use crate::rules::variant::Goal;
use crate::rules::Position;
use vampirc_uci::{Serializable, UciInfoAttribute, UciMessage, UciOptionConfig};

/// An error as UCI allows it: an `info string` line (stdout carries protocol lines only).
fn error(msg: &str) {
    out(&format!("info string error: {msg}"));
}

/// The first words of the command lines a session knows. `lancer` given arguments
/// that start with one of them runs them as command lines ([`run_lines`]).
pub const COMMANDS: [&str; 15] = [
    "uci",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "debug",
    "register",
    "d",
    "eval",
    "bench",
    "genfens",
];

/// The option table as UCI `option` lines.
fn options(engine: &Engine) -> Vec<UciOptionConfig> {
    OPTIONS
        .iter()
        .map(|o| {
            let name = o.name.to_string();
            match o.kind {
                OptionKind::Check { default } => UciOptionConfig::Check {
                    name,
                    default: Some(default),
                },
                OptionKind::Spin { default, min, max } => UciOptionConfig::Spin {
                    name,
                    default: Some(default),
                    min: Some(min),
                    max: Some(max),
                },
                OptionKind::Variant { default } => UciOptionConfig::Combo {
                    name,
                    default: Some(default.into()),
                    var: engine
                        .variants()
                        .all()
                        .iter()
                        .map(|v| v.name.clone())
                        .collect(),
                },
                OptionKind::Text => UciOptionConfig::String {
                    name,
                    default: Some("<empty>".into()),
                },
                OptionKind::Button => UciOptionConfig::Button { name },
            }
        })
        .collect()
}

fn announce_variant(engine: &Engine) {
    let v = engine.effective_variant();
    out(&format!(
        "info string variant {} files {} ranks {} startpos {}",
        engine.variant().name,
        v.width,
        v.height,
        engine.start_position().efen()
    ));
}

fn set_option(engine: &mut Engine, name: &str, value: Option<&str>) {
    match engine.set_option(name, value) {
        Err(e) => error(&e),
        Ok(()) => {
            // A new variant (or variants file) is announced with its board.
            let announce = match name.trim().to_ascii_lowercase().as_str() {
                "uci_variant" => true,
                "variantpath" => !matches!(value.map(str::trim), None | Some("") | Some("<empty>")),
                _ => false,
            };
            if announce {
                announce_variant(engine);
            }
        }
    }
}

/// Hand parser for `setoption name <N...> [value <V...>]`.
fn parse_setoption(line: &str) -> Option<(String, Option<String>)> {
    let rest = line.strip_prefix("setoption")?.trim_start();
    let rest = rest.strip_prefix("name")?.trim_start();
    match rest.find(" value") {
        Some(i) => Some((
            rest[..i].trim().to_string(),
            Some(rest[i + 6..].trim().to_string()),
        )),
        None => Some((rest.trim().to_string(), None)),
    }
}

fn cmd_position(engine: &mut Engine, args: &str) {
    let mut toks = args.split_whitespace().peekable();
    let fen = match toks.next() {
        Some("startpos") => None,
        Some("fen") => {
            let mut f = Vec::new();
            while let Some(&t) = toks.peek() {
                if t == "moves" {
                    break;
                }
                f.push(t);
                toks.next();
            }
            if f.is_empty() {
                return error("position fen: missing EFEN");
            }
            Some(f.join(" "))
        }
        Some(other) => {
            return error(&format!(
                "position: expected startpos or fen, got '{other}'"
            ))
        }
        None => return error("position: expected startpos or fen"),
    };
    let moves: Vec<&str> = match toks.next() {
        None => Vec::new(),
        Some("moves") => toks.collect(),
        Some(other) => return error(&format!("position: expected 'moves', got '{other}'")),
    };
    if let Err(e) = engine.set_position(fen.as_deref(), &moves) {
        error(&format!("position: {e}"));
    }
}

/// The UCI `info` line of one search report (also what `lancer analyse` prints);
/// with `show_wdl`, the score is followed by `wdl W D L` (per mille, side to move).
pub fn info_line(pos: &Position, i: &Info, show_wdl: bool) -> String {
    if let Some((m, n)) = i.currmove {
        return format!(
            "info depth {} currmove {} currmovenumber {n}",
            i.depth,
            move_text(pos, m)
        );
    }
    let score = i.score;
    let (cp, mate) = (
        score.centipawns(),
        score.mate_in().map(|m| m.clamp(-127, 127) as i8),
    );
    let msg = UciMessage::Info(vec![
        UciInfoAttribute::Depth(i.depth.clamp(0, 255) as u8),
        UciInfoAttribute::SelDepth(i.seldepth.clamp(0, 255) as u8),
        UciInfoAttribute::MultiPv(i.multipv.min(u16::MAX as usize) as u16),
        UciInfoAttribute::Score {
            cp,
            mate,
            lower_bound: (i.bound == Bound::Lower).then_some(true),
            upper_bound: (i.bound == Bound::Upper).then_some(true),
        },
        UciInfoAttribute::Nodes(i.nodes),
        UciInfoAttribute::Nps(i.nps),
        UciInfoAttribute::HashFull(i.hashfull.min(1000) as u16),
        UciInfoAttribute::Time(vampirc_uci::Duration::milliseconds(i.time_ms as i64)),
    ]);
    let mut p = *pos;
    let mut pv = Vec::new();
    for &m in &i.pv {
        pv.push(move_text(&p, m));
        p.do_move(m);
    }
    let mut text = msg.serialize();
    if show_wdl {
        let [w, d, l] = wdl(pos.variant(), i.score, pos.game_ply());
        // Right after the score, before a bound, as Stockfish writes it.
        let at = [" lowerbound", " upperbound", " nodes "]
            .iter()
            .filter_map(|k| text.find(k))
            .min();
        if let Some(at) = at {
            text.insert_str(at, &format!(" wdl {w} {d} {l}"));
        }
    }
    format!("{text} pv {}", pv.join(" "))
}

/// The UCI `bestmove` line of a search result.
pub fn bestmove_line(pos: &Position, r: &SearchResult) -> String {
    match r.best {
        Some(m) => {
            let mut s = format!("bestmove {}", move_text(pos, m));
            if let Some(p) = r.ponder {
                s.push_str(&format!(" ponder {}", move_text(&pos.after(m), p)));
            }
            s
        }
        // No move at all: say why first, as Stockfish does (mated, or a draw).
        None if pos.legal_move_count() == 0 => {
            let mated = pos.variant().goal == Goal::Checkmate && pos.in_check();
            let score = if mated { "mate 0" } else { "cp 0" };
            format!("info depth 0 score {score}\nbestmove (none)")
        }
        None => "bestmove (none)".into(),
    }
}

fn parse_num<T: std::str::FromStr>(kw: &str, t: Option<&str>) -> Result<T, String> {
    let t = t.ok_or_else(|| format!("go {kw}: missing number"))?;
    // Absurdly large numbers saturate instead of failing.
    t.parse::<T>()
        .or_else(|_| {
            if t.chars().all(|c| c.is_ascii_digit()) && !t.is_empty() {
                "18446744073709551615"
                    .parse::<T>()
                    .or_else(|_| "2147483647".parse::<T>())
                    .map_err(|_| ())
            } else {
                Err(())
            }
        })
        .map_err(|_| format!("go {kw}: '{t}' is not a number"))
}

fn cmd_go(engine: &mut Engine, args: &str) {
    let toks: Vec<&str> = args.split_whitespace().collect();
    let mut l = Limits::default();
    let mut i = 0;
    let mut perft_depth = None;
    let pos = *engine.position();
    const KEYWORDS: [&str; 13] = [
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "infinite",
        "ponder",
        "mate",
        "searchmoves",
        "perft",
    ];
    let r: Result<(), String> = (|| {
        while i < toks.len() {
            let kw = toks[i];
            i += 1;
            let next = toks.get(i).copied();
            match kw {
                "depth" => {
                    l.depth = Some(parse_num::<u64>(kw, next)?.min(1000) as i32);
                    i += 1;
                }
                "nodes" => {
                    l.nodes = Some(parse_num::<u64>(kw, next)?.max(1));
                    i += 1;
                }
                "movetime" => {
                    l.movetime = Some(parse_num::<u64>(kw, next)?);
                    i += 1;
                }
                "wtime" | "btime" => {
                    let t: i64 = parse_num::<i64>(kw, next)?;
                    l.time[usize::from(kw == "btime")] = Some(t.max(1) as u64);
                    i += 1;
                }
                "winc" | "binc" => {
                    let t: i64 = parse_num::<i64>(kw, next)?;
                    l.inc[usize::from(kw == "binc")] = t.max(0) as u64;
                    i += 1;
                }
                "movestogo" => {
                    l.movestogo = Some(parse_num::<u64>(kw, next)?.clamp(1, 1000) as u32);
                    i += 1;
                }
                "mate" => {
                    l.mate = Some(parse_num::<u64>(kw, next)?.clamp(1, 100) as u32);
                    i += 1;
                }
                "infinite" => l.infinite = true,
                "ponder" => l.ponder = true,
                "perft" => {
                    perft_depth = Some(parse_num::<u64>(kw, next)?.min(64) as u32);
                    i += 1;
                }
                "searchmoves" => {
                    while i < toks.len() && !KEYWORDS.contains(&toks[i]) {
                        let m = parse_move(&pos, toks[i])
                            .map_err(|e| format!("go searchmoves: {e}"))?;
                        l.searchmoves.push(m);
                        i += 1;
                    }
                }
                other => return Err(format!("go: unknown parameter '{other}'")),
            }
        }
        Ok(())
    })();
    if let Err(e) = r {
        return error(&e);
    }
    if let Some(d) = perft_depth {
        engine.stop();
        let depth = engine.capped_depth(d.max(1) as i32) as u32;
        let total = perft::divide(&pos, depth, &|m, n| out(&format!("{m}: {n}")));
        out("");
        out(&format!(
            "Nodes searched: {}",
            if d == 0 { 1 } else { total }
        ));
        return;
    }
    if l.mate.is_some() && l.depth.is_none() {
        l.depth = Some(2 * l.mate.unwrap_or(1) as i32 + 2);
    }
    let show_wdl = engine.show_wdl();
    if let Err(e) = engine.go(
        l,
        Box::new(move |pos, i| out(&info_line(pos, i, show_wdl))),
        Box::new(|pos, r| out(&bestmove_line(pos, &r))),
    ) {
        error(&e);
    }
}

fn cmd_eval(engine: &Engine) {
    for line in engine.eval_report() {
        out(&format!("info string {line}"));
    }
}

/// What `genfens N [seed S] [book None|FILE] [...]` asks for.
#[derive(Debug, PartialEq, Eq)]
struct Genfens {
    count: usize,
    seed: u64,
    book: Option<String>,
}

/// Reads `genfens`'s arguments; what follows the book (OpenBench's extra arguments)
/// is not used.
fn parse_genfens(args: &str) -> Result<Genfens, String> {
    const USAGE: &str = "expected 'genfens N seed S book <None|FILE>'";
    let mut toks = args.split_whitespace();
    let count = toks
        .next()
        .ok_or_else(|| format!("genfens: {USAGE}"))?
        .parse::<usize>()
        .map_err(|_| format!("genfens: N is not a count; {USAGE}"))?;
    let mut g = Genfens {
        count,
        seed: 0,
        book: None,
    };
    loop {
        match toks.next() {
            Some("seed") => {
                let t = toks.next().unwrap_or("");
                g.seed = t
                    .parse::<u64>()
                    .map_err(|_| format!("genfens: seed '{t}' is not a number"))?;
            }
            Some("book") => match toks.next() {
                None => return Err(format!("genfens: book: missing; {USAGE}")),
                Some(b) if b.eq_ignore_ascii_case("none") => g.book = None,
                Some(b) => g.book = Some(b.to_string()),
            },
            _ => return Ok(g),
        }
    }
}

/// `genfens`: N balanced openings of the current variant, each as `info string
/// genfens EFEN` as soon as it is found (docs/uci.md, "Commands").
fn cmd_genfens(engine: &mut Engine, args: &str) {
    use crate::engine::openings::{self, Book, Starts};
    use rand::SeedableRng;
    engine.stop();
    let g = match parse_genfens(args) {
        Ok(g) => g,
        Err(e) => return error(&e),
    };
    let v = engine.effective_variant();
    let book = match &g.book {
        Some(_) if engine.sandbox().is_some() => {
            return error("genfens: a sandboxed session reads no book")
        }
        Some(path) => match Book::read(path, v, engine.variants()) {
            Ok(b) => Some(b),
            Err(e) => return error(&format!("genfens: {e}")),
        },
        None => None,
    };
    let (starts, spec) = match &book {
        Some(b) => (Starts::Book(b), openings::GENFENS_FROM_BOOK),
        None => (Starts::Setup(v), openings::GENFENS_FROM_START),
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(g.seed);
    let found = openings::generate(
        engine,
        &starts,
        g.count,
        &spec,
        &mut rng,
        &mut |pos| out(&format!("info string genfens {}", pos.efen())),
        &mut |_, _| {},
    );
    match found {
        Err(e) => error(&format!("genfens: {e}")),
        Ok(n) if n < g.count => error(&format!(
            "genfens: found only {n} of {} balanced openings",
            g.count
        )),
        Ok(_) => {}
    }
}

/// Handles one line; false on `quit`.
pub fn handle(engine: &mut Engine, raw: &str) -> bool {
    let line = raw.trim();
    if line.is_empty() {
        return true;
    }
    let (cmd, rest) = super::split_command(line);
    match cmd {
        "uci" => {
            out(&UciMessage::id_name(&crate::version::engine_name()).serialize());
            out(&UciMessage::id_author("the lancer developers").serialize());
            for o in options(engine) {
                out(&UciMessage::Option(o).serialize());
            }
            out(&UciMessage::UciOk.serialize());
        }
        "isready" => {
            if let Err(e) = engine.ensure_table() {
                error(&e);
            }
            out(&UciMessage::ReadyOk.serialize());
        }
        "setoption" => match parse_setoption(line) {
            Some((name, value)) => set_option(engine, &name, value.as_deref()),
            None => error("setoption: expected 'setoption name <name> [value <value>]'"),
        },
        "ucinewgame" => {
            if let Err(e) = engine.clear_hash() {
                error(&e);
            }
            engine.set_start(engine.start_position());
        }
        "position" => {
            engine.stop();
            cmd_position(engine, rest);
        }
        "go" => cmd_go(engine, rest),
        "stop" => engine.stop(),
        "ponderhit" => engine.ponderhit(),
        "quit" => {
            engine.stop();
            return false;
        }
        "debug" | "register" => {}
        "genfens" => cmd_genfens(engine, rest),
        "d" => out(&diagram(engine.position())),
        "eval" => cmd_eval(engine),
        "bench" => {
            engine.stop();
            let depth = engine.capped_depth(rest.parse::<i32>().unwrap_or(9).clamp(1, 30));
            match crate::engine::bench::run_in(engine.variants(), depth, engine.sandbox()) {
                Ok((n, nps)) => {
                    out(&format!("{n} nodes"));
                    out(&format!("{nps} nps"));
                }
                Err(e) => error(&e),
            }
        }
        _ => error(&format!(
            "unknown command '{}'",
            line.chars().take(60).collect::<String>()
        )),
    }
    true
}

/// What decides whether a `go` with these arguments ends by itself: (it has a limit,
/// it is infinite, it ponders).
fn go_kind(args: &str) -> (bool, bool, bool) {
    let toks: Vec<&str> = args.split_whitespace().collect();
    let limited = [
        "depth", "nodes", "movetime", "wtime", "btime", "mate", "perft",
    ]
    .iter()
    .any(|k| toks.contains(k));
    (
        limited,
        toks.contains(&"infinite"),
        toks.contains(&"ponder"),
    )
}

/// Runs `lines` as a session's input, in order, then ends, as `lancer "genfens 10
/// seed 1 book None" quit` does (docs/cli.md). A search the
/// last lines started is waited for when it ends by itself; an open one (`go
/// infinite`, `go ponder`, a `go` without limits) is stopped.
pub fn run_lines(lines: &[String], variants: crate::rules::Variants) {
    let mut engine = Engine::with_variants(variants);
    let mut go = (true, false, false);
    for line in lines {
        match super::split_command(line.trim()) {
            ("go", rest) => go = go_kind(rest),
            // The ponder search goes on as a real one, with the limits it was given.
            ("ponderhit", _) => go.2 = false,
            _ => {}
        }
        if !handle(&mut engine, line) {
            return;
        }
    }
    let (limited, infinite, ponder) = go;
    if limited && !infinite && !ponder {
        engine.wait();
    }
    engine.stop();
}

/// The UCI loop (`first` is the line that selected UCI, if already read).
pub fn run(first: Option<String>, variants: crate::rules::Variants) {
    let mut engine = Engine::with_variants(variants);
    if let Some(f) = first {
        if !handle(&mut engine, &f) {
            return;
        }
    }
    let mut buf = Vec::new();
    while let Some(line) = super::read_line(&mut buf) {
        if !handle(&mut engine, &line) {
            return;
        }
    }
    engine.stop();
}

#[cfg(test)]
mod tests {
    use super::{go_kind, parse_genfens, Genfens};

    #[test]
    fn genfens_arguments() {
        let g = |count, seed, book: Option<&str>| Genfens {
            count,
            seed,
            book: book.map(str::to_string),
        };
        assert_eq!(parse_genfens("12 seed 7 book None"), Ok(g(12, 7, None)));
        assert_eq!(
            parse_genfens("3 seed 1 book Books/x.epd extra words"),
            Ok(g(3, 1, Some("Books/x.epd")))
        );
        assert_eq!(parse_genfens("5"), Ok(g(5, 0, None)));
        assert_eq!(parse_genfens("5 book none seed 2"), Ok(g(5, 2, None)));
        for bad in ["", "x seed 1", "-1", "4 seed", "4 seed x", "4 book"] {
            let e = parse_genfens(bad).unwrap_err();
            assert!(e.starts_with("genfens: "), "{bad}: {e}");
        }
    }

    #[test]
    fn which_go_ends_by_itself() {
        assert_eq!(go_kind("depth 5"), (true, false, false));
        assert_eq!(go_kind("wtime 100 btime 100"), (true, false, false));
        assert_eq!(go_kind(""), (false, false, false));
        assert_eq!(go_kind("infinite"), (false, true, false));
        assert_eq!(go_kind("ponder wtime 9 btime 9"), (true, false, true));
        assert_eq!(go_kind("depth 3 searchmoves e2e4"), (true, false, false));
    }
}
