//! `lancer match`: an engine-vs-engine referee with cutechess-cli's interface for the
//! variants cutechess cannot play. The rules core holds the game: every move is
//! checked, the clock is kept here, and every game end is decided here.

pub mod engine;
pub mod pgn;
pub mod stats;

use crate::protocol::xboard::{parse_xboard_move, xboard_fen, xboard_move, xboard_move_full};
use crate::rules::notation::{move_text, parse_move, parse_san};
use crate::rules::setups::{setup_count, setup_fen};
use crate::rules::variant::{Start, Variant};
use crate::rules::{Color, Game, Move, Position, Reason, Variants};
use engine::{Clock, EngineConfig, EngineError, EngineProcess, Proto};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use stats::{Sprt, Wld};
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A time control: `moves/time+inc` (seconds), or a fixed time per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    pub moves: u32,
    pub base_ms: i64,
    pub inc_ms: i64,
    pub per_move_ms: Option<i64>,
}

impl TimeControl {
    /// Parses `40/60+0.5`, `60+0.5`, `1:30+1`, `10`.
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let bad = || format!("bad time control '{s}' (moves/time+increment, e.g. 40/60+0.5)");
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (m.parse::<u32>().map_err(|_| bad())?, r),
            None => (0, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, i.parse::<f64>().map_err(|_| bad())?),
            None => (rest, 0.0),
        };
        let secs = match base.split_once(':') {
            Some((m, sec)) => {
                m.parse::<f64>().map_err(|_| bad())? * 60.0
                    + sec.parse::<f64>().map_err(|_| bad())?
            }
            None => base.parse::<f64>().map_err(|_| bad())?,
        };
        if secs.is_nan() || secs <= 0.0 || inc.is_nan() || inc < 0.0 || secs > 1e7 {
            return Err(bad());
        }
        Ok(TimeControl {
            moves,
            base_ms: (secs * 1000.0) as i64,
            inc_ms: (inc * 1000.0) as i64,
            per_move_ms: None,
        })
    }

    /// The PGN `TimeControl` tag value.
    pub fn pgn(&self) -> String {
        if let Some(ms) = self.per_move_ms {
            return format!("{}/move", ms as f64 / 1000.0);
        }
        let base = self.base_ms as f64 / 1000.0;
        let mut s = if self.moves > 0 {
            format!("{}/{base}", self.moves)
        } else {
            format!("{base}")
        };
        if self.inc_ms > 0 {
            s.push_str(&format!("+{}", self.inc_ms as f64 / 1000.0));
        }
        s
    }

    fn clock(&self) -> Clock {
        Clock {
            left: self.base_ms,
            inc: self.inc_ms,
            moves_to_go: self.moves,
            per_move: self.per_move_ms,
        }
    }
}

/// Everything `lancer match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub tcs: Vec<TimeControl>,
    pub variant: String,
    pub games: u32,
    pub rounds: u32,
    pub repeat: bool,
    pub concurrency: usize,
    pub openings: Option<Openings>,
    pub pgnout: Option<String>,
    pub sprt: Option<Sprt>,
    pub maxmoves: Option<u32>,
    pub draw: Option<(u32, u32, i32)>,
    /// `-resign movecount= score= twosided=`.
    pub resign: Option<(u32, i32, bool)>,
    pub seed: u64,
    pub recover: bool,
    pub event: String,
}

/// Opening positions (EFEN, moves).
#[derive(Clone, Debug)]
pub struct Openings {
    pub file: String,
    pub format: String,
    pub order: String,
    pub plies: Option<usize>,
}

fn kv(tok: &str) -> Result<(&str, &str), String> {
    tok.split_once('=')
        .ok_or_else(|| format!("expected key=value, got '{tok}'"))
}

/// Parses cutechess-style arguments.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    let mut engines: Vec<Vec<(String, String)>> = Vec::new();
    let mut debug = false;
    let mut each: Vec<(String, String)> = Vec::new();
    let mut c = MatchConfig {
        engines: Vec::new(),
        tcs: Vec::new(),
        variant: "chess".into(),
        games: 1,
        rounds: 1,
        repeat: false,
        concurrency: 1,
        openings: None,
        pgnout: None,
        sprt: None,
        maxmoves: None,
        draw: None,
        resign: None,
        seed: rand::random(),
        recover: false,
        event: "lancer match".into(),
    };
    let mut i = 0;
    let vals = |i: &mut usize| -> Vec<String> {
        let mut v = Vec::new();
        while *i < args.len()
            && !(args[*i].starts_with('-')
                && args[*i].len() > 1
                && !args[*i][1..].starts_with(|c: char| c.is_ascii_digit()))
        {
            v.push(args[*i].clone());
            *i += 1;
        }
        v
    };
    let one = |i: &mut usize, name: &str| -> Result<String, String> {
        let v = vals(i);
        if v.len() != 1 {
            return Err(format!("{name} takes one value"));
        }
        Ok(v[0].clone())
    };
    let num = |s: String, name: &str| -> Result<u64, String> {
        s.parse::<u64>()
            .map_err(|_| format!("{name}: '{s}' is not a number"))
    };
    while i < args.len() {
        let opt = args[i].clone();
        i += 1;
        match opt.as_str() {
            "-engine" => {
                let v = vals(&mut i);
                let mut e = Vec::new();
                for t in v {
                    let (k, val) = kv(&t)?;
                    e.push((k.to_string(), val.to_string()));
                }
                engines.push(e);
            }
            "-each" => {
                for t in vals(&mut i) {
                    let (k, val) = kv(&t)?;
                    each.push((k.to_string(), val.to_string()));
                }
            }
            "-tc" => each.push(("tc".into(), one(&mut i, "-tc")?)),
            "-variant" => c.variant = one(&mut i, "-variant")?,
            "-games" => c.games = num(one(&mut i, "-games")?, "-games")?.clamp(1, 1_000_000) as u32,
            "-rounds" => {
                c.rounds = num(one(&mut i, "-rounds")?, "-rounds")?.clamp(1, 1_000_000) as u32
            }
            "-repeat" => {
                let v = vals(&mut i);
                c.repeat = v.first().is_none_or(|x| x != "0");
            }
            "-concurrency" => {
                c.concurrency =
                    num(one(&mut i, "-concurrency")?, "-concurrency")?.clamp(1, 64) as usize
            }
            "-pgnout" => {
                let v = vals(&mut i);
                c.pgnout = Some(v.first().ok_or("-pgnout needs a file")?.clone());
            }
            "-seed" | "-srand" => c.seed = num(one(&mut i, &opt)?, &opt)?,
            "-maxmoves" => c.maxmoves = Some(num(one(&mut i, "-maxmoves")?, "-maxmoves")? as u32),
            "-recover" => c.recover = true,
            "-event" => c.event = one(&mut i, "-event")?,
            "-openings" => {
                let mut o = Openings {
                    file: String::new(),
                    format: "epd".into(),
                    order: "sequential".into(),
                    plies: None,
                };
                for t in vals(&mut i) {
                    let (k, v) = kv(&t)?;
                    match k {
                        "file" => o.file = v.into(),
                        "format" => o.format = v.into(),
                        "order" => o.order = v.into(),
                        "plies" => o.plies = Some(num(v.into(), "plies")? as usize),
                        "policy" | "start" => {}
                        _ => return Err(format!("-openings: unknown field '{k}'")),
                    }
                }
                if o.file.is_empty() {
                    return Err("-openings needs file=".into());
                }
                c.openings = Some(o);
            }
            "-sprt" => {
                let mut s = Sprt {
                    elo0: 0.0,
                    elo1: 5.0,
                    alpha: 0.05,
                    beta: 0.05,
                };
                for t in vals(&mut i) {
                    let (k, v) = kv(&t)?;
                    let x: f64 = v
                        .parse()
                        .map_err(|_| format!("-sprt {k}: '{v}' is not a number"))?;
                    match k {
                        "elo0" => s.elo0 = x,
                        "elo1" => s.elo1 = x,
                        "alpha" => s.alpha = x,
                        "beta" => s.beta = x,
                        _ => return Err(format!("-sprt: unknown field '{k}'")),
                    }
                }
                c.sprt = Some(s);
            }
            "-draw" => {
                let (mut mn, mut mc, mut sc) = (0, 1, 0);
                for t in vals(&mut i) {
                    let (k, v) = kv(&t)?;
                    let x = num(v.into(), k)?;
                    match k {
                        "movenumber" => mn = x as u32,
                        "movecount" => mc = x as u32,
                        "score" => sc = x as i32,
                        _ => return Err(format!("-draw: unknown field '{k}'")),
                    }
                }
                c.draw = Some((mn, mc, sc));
            }
            "-resign" => {
                let (mut mc, mut sc, mut two) = (1, 0, false);
                for t in vals(&mut i) {
                    let (k, v) = kv(&t)?;
                    match k {
                        "movecount" => mc = num(v.into(), k)? as u32,
                        "score" => sc = num(v.into(), k)? as i32,
                        "twosided" => {
                            two = match v {
                                "true" => true,
                                "false" => false,
                                _ => {
                                    return Err(format!(
                                        "-resign twosided: '{v}' is not true/false"
                                    ))
                                }
                            }
                        }
                        _ => return Err(format!("-resign: unknown field '{k}'")),
                    }
                }
                c.resign = Some((mc, sc, two));
            }
            "-debug" => {
                let _ = vals(&mut i);
                debug = true;
            }
            "-ratinginterval" | "-outcomeinterval" | "-wait" | "-tournament" => {
                let _ = vals(&mut i);
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if engines.len() < 2 {
        return Err("at least two -engine are needed".into());
    }
    for (n, e) in engines.into_iter().enumerate() {
        let mut cfg = EngineConfig {
            name: format!("engine{}", n + 1),
            cmd: String::new(),
            dir: None,
            proto: Proto::Uci,
            options: Vec::new(),
            tc: None,
            st: None,
            timemargin: 50,
            nodes: None,
            plies: None,
            args: Vec::new(),
            initstr: Vec::new(),
            debug,
        };
        for (k, v) in each.iter().chain(e.iter()) {
            match k.as_str() {
                "cmd" => cfg.cmd = v.clone(),
                "name" => cfg.name = v.clone(),
                "dir" => cfg.dir = Some(v.clone()),
                "proto" => {
                    cfg.proto = match v.as_str() {
                        "uci" => Proto::Uci,
                        "xboard" => Proto::Xboard,
                        _ => return Err(format!("proto must be uci or xboard, got '{v}'")),
                    }
                }
                "tc" => cfg.tc = Some(v.clone()),
                "st" => {
                    cfg.st = Some(
                        v.parse()
                            .map_err(|_| format!("st: '{v}' is not a number"))?,
                    )
                }
                "timemargin" => {
                    cfg.timemargin = v
                        .parse()
                        .map_err(|_| format!("timemargin: '{v}' is not a number"))?
                }
                k if k.starts_with("option.") => cfg.options.push((k[7..].to_string(), v.clone())),
                "nodes" => {
                    cfg.nodes = Some(
                        v.parse()
                            .map_err(|_| format!("nodes: '{v}' is not a number"))?,
                    )
                }
                "arg" => cfg.args.push(v.clone()),
                "initstr" => cfg.initstr.extend(
                    v.split("\\n")
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(String::from),
                ),
                "plies" | "depth" => {
                    cfg.plies = Some(
                        v.parse()
                            .map_err(|_| format!("{k}: '{v}' is not a number"))?,
                    )
                }
                "restart" | "trust" | "whitepov" | "ponder" | "book" | "bookdepth" => {}
                _ => return Err(format!("unknown engine field '{k}'")),
            }
        }
        if cfg.cmd.is_empty() {
            return Err(format!("{}: missing cmd=", cfg.name));
        }
        if cfg.nodes.is_some() && cfg.proto == Proto::Xboard {
            return Err(format!("{}: nodes= needs proto=uci", cfg.name));
        }
        let tc = match (cfg.st, &cfg.tc) {
            (Some(st), _) => TimeControl {
                moves: 0,
                base_ms: 0,
                inc_ms: 0,
                per_move_ms: Some((st * 1000.0) as i64),
            },
            (None, Some(t)) if t == "inf" => TimeControl {
                moves: 0,
                base_ms: 1 << 40,
                inc_ms: 0,
                per_move_ms: None,
            },
            (None, Some(t)) => TimeControl::parse(t)?,
            (None, None) => return Err(format!("{}: no time control (tc= or st=)", cfg.name)),
        };
        c.tcs.push(tc);
        c.engines.push(cfg);
    }
    let mut names = HashMap::new();
    for e in &c.engines {
        if names.insert(e.name.clone(), ()).is_some() {
            return Err(format!("two engines are named '{}'", e.name));
        }
    }
    Ok(c)
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub score: &'static str,
    pub reason: String,
    pub termination: &'static str,
    pub pgn: String,
    /// True when an engine played an illegal move, lost on time or crashed.
    pub forfeit: Option<String>,
}

fn side_name(c: Color) -> &'static str {
    c.name()
}

fn reason_text(o: &crate::rules::Outcome, v: &Variant) -> String {
    match (o.reason, o.winner) {
        (Reason::Checkmate, Some(c)) => format!("{} mates", side_name(c)),
        (Reason::KingCaptured, Some(c)) => format!("{} captures the king", side_name(c)),
        (Reason::Stalemate, _) => "Draw by stalemate".into(),
        (Reason::Repetition, _) => "Draw by 3-fold repetition".into(),
        (Reason::NMoveRule, _) => format!("Draw by {}-move rule", v.n_move_rule / 2),
        (Reason::InsufficientMaterial, _) => "Draw by insufficient mating material".into(),
        _ => "game over".into(),
    }
}

/// Plays one game between `white` and `black` from `start` (EFEN) with `pre` moves.
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    cfg: &MatchConfig,
    v: &'static Variant,
    white: usize,
    black: usize,
    start_fen: &str,
    pre: &[Move],
    round: u32,
    game_no: u32,
) -> GameResult {
    let start = Position::from_efen(v, start_fen).expect("opening positions are validated");
    let is_standard_start =
        start_fen == v.default_start_fen() && !matches!(v.start, Start::Random(_));
    let send_fen = if is_standard_start {
        None
    } else {
        Some(start_fen.to_string())
    };
    let mut game = Game::new(start);
    // Move lists as each protocol wants them: NOTATION.md text (UCI) and XBoard forms (CECP).
    let mut texts: Vec<String> = Vec::new();
    let mut xb_texts: Vec<String> = Vec::new();
    let mut xb_full: Vec<String> = Vec::new();
    let xb_fen = send_fen.as_ref().map(|_| xboard_fen(&start));
    let mut record: Vec<(Move, String)> = Vec::new();
    for &m in pre {
        texts.push(move_text(game.position(), m));
        xb_texts.push(xboard_move(game.position(), m));
        xb_full.push(xboard_move_full(game.position(), m));
        record.push((m, "book".into()));
        game.play(m);
    }
    let ids = [white, black];
    let mut clocks = [cfg.tcs[white].clock(), cfg.tcs[black].clock()];
    let mut engines: [Option<EngineProcess>; 2] = [None, None];
    let mut outcome: Option<(&'static str, String, &'static str, Option<String>)> = None;
    for (i, &id) in ids.iter().enumerate() {
        match EngineProcess::start(&cfg.engines[id], &v.name) {
            Ok(mut e) => {
                // A peer that reads move text also reads EFEN, which keeps what XBoard's
                // FEN drops (frozen standard-bearers, lancer-corner castling rights).
                let fen = match e.config.proto {
                    Proto::Uci => send_fen.as_deref(),
                    Proto::Xboard if e.full_text => send_fen.as_deref(),
                    Proto::Xboard => xb_fen.as_deref(),
                };
                e.new_game(&v.name, &v.xboard_name, fen, &clocks[i], cfg.tcs[id].moves);
                engines[i] = Some(e);
            }
            Err(err) => {
                let c = Color::from_idx(i);
                outcome = Some((
                    if c == Color::White { "0-1" } else { "1-0" },
                    format!("{} fails to start: {err}", side_name(c)),
                    "abandoned",
                    Some(err),
                ));
                break;
            }
        }
    }
    // Adjudication counters, kept as cutechess keeps them: per engine move.
    let mut resign_count = [0u32; 2];
    let mut win_count = [0u32; 2];
    let mut draw_count = 0u32;
    while outcome.is_none() {
        if let Some(o) = game.outcome() {
            outcome = Some((o.score(), reason_text(&o, v), "normal", None));
            break;
        }
        if let Some(mm) = cfg.maxmoves {
            if game.moves().len() as u32 >= 2 * mm {
                outcome = Some((
                    "1/2-1/2",
                    "Draw by adjudication".into(),
                    "adjudication",
                    None,
                ));
                break;
            }
        }
        let side = game.position().side();
        let si = side.idx();
        let (mine, theirs) = (clocks[si], clocks[1 - si]);
        let Some(eng) = engines[si].as_mut() else {
            break;
        };
        let xboard = eng.config.proto == Proto::Xboard;
        let (fen_for_engine, list) = if xboard && eng.full_text {
            (send_fen.clone(), &xb_full)
        } else if xboard {
            (xb_fen.clone(), &xb_texts)
        } else {
            (send_fen.clone(), &texts)
        };
        let loss = if side == Color::White { "0-1" } else { "1-0" };
        let reply = eng.go(
            fen_for_engine.as_deref(),
            list,
            side == Color::White,
            &mine,
            &theirs,
        );
        let em = match reply {
            Ok(m) => m,
            Err(EngineError::Timeout) => {
                outcome = Some((
                    loss,
                    format!("{} loses on time", side_name(side)),
                    "time forfeit",
                    Some("hang/time".into()),
                ));
                break;
            }
            Err(EngineError::Disconnected) => {
                outcome = Some((
                    loss,
                    format!("{}'s connection stalls", side_name(side)),
                    "abandoned",
                    Some("crash".into()),
                ));
                break;
            }
            Err(EngineError::Protocol(p)) => {
                outcome = Some((
                    loss,
                    format!("{} makes a protocol error: {p}", side_name(side)),
                    "abandoned",
                    Some(p),
                ));
                break;
            }
        };
        let limit = mine.per_move.unwrap_or(mine.left) + cfg.engines[ids[si]].timemargin as i64;
        if em.elapsed_ms > limit {
            outcome = Some((
                loss,
                format!("{} loses on time", side_name(side)),
                "time forfeit",
                Some("time".into()),
            ));
            break;
        }
        let pos = *game.position();
        let parsed = if xboard {
            parse_xboard_move(&pos, &em.text).map_err(|_| ())
        } else {
            Err(())
        };
        // As cutechess: SAN, or long algebraic once the decorations `x=+#!?` are dropped.
        let m = match parsed.or_else(|_| {
            parse_move(&pos, &em.text)
                .or_else(|_| parse_san(&pos, &em.text))
                .or_else(|_| {
                    let bare: String = em.text.chars().filter(|c| !"x=+#!?".contains(*c)).collect();
                    parse_move(&pos, &bare)
                })
        }) {
            Ok(m) => m,
            Err(_) => {
                outcome = Some((
                    loss,
                    format!("{} makes an illegal move: {}", side_name(side), em.text),
                    "illegal move",
                    Some(format!("illegal move {}", em.text)),
                ));
                break;
            }
        };
        let c = &mut clocks[si];
        if c.per_move.is_none() {
            c.left -= em.elapsed_ms;
            c.left += c.inc;
            if c.moves_to_go > 0 {
                c.moves_to_go -= 1;
                if c.moves_to_go == 0 {
                    c.moves_to_go = cfg.tcs[ids[si]].moves;
                    c.left += cfg.tcs[ids[si]].base_ms;
                }
            }
        }
        let comment = match (em.score, em.depth) {
            (Some(s), Some(d)) => format!(
                "{:+.2}/{d} {:.3}s",
                s as f64 / 100.0,
                em.elapsed_ms as f64 / 1000.0
            ),
            _ => format!("{:.3}s", em.elapsed_ms as f64 / 1000.0),
        };
        texts.push(move_text(&pos, m));
        xb_texts.push(xboard_move(&pos, m));
        xb_full.push(xboard_move_full(&pos, m));
        record.push((m, comment));
        game.play(m);
        // Resign and draw adjudication on the engines' own scores, as cutechess does
        // it: an irreversible move or a move without a score restarts the draw count;
        // the draw needs `movecount` moves a side within the score once `movenumber`
        // moves are played; a resignation needs `movecount` moves of one engine at or
        // below -score (and, two-sided, as many of the other at or above +score).
        match em.score {
            None => {
                draw_count = 0;
                resign_count[si] = 0;
                win_count[si] = 0;
            }
            Some(s) => {
                if game.position().halfmove() == 0 {
                    draw_count = 0;
                }
                if let Some((movenumber, count, score)) = cfg.draw {
                    draw_count = if s.abs() <= score { draw_count + 1 } else { 0 };
                    if movenumber > 0
                        && game.moves().len() as u32 / 2 >= movenumber
                        && draw_count >= 2 * count
                    {
                        outcome = Some((
                            "1/2-1/2",
                            "Draw by adjudication".into(),
                            "adjudication",
                            None,
                        ));
                        continue;
                    }
                }
                if let Some((count, score, two_sided)) = cfg.resign {
                    resign_count[si] = if s <= -score { resign_count[si] + 1 } else { 0 };
                    win_count[si] = if s >= score { win_count[si] + 1 } else { 0 };
                    if count > 0
                        && resign_count[si] >= count
                        && (!two_sided || win_count[1 - si] >= count)
                    {
                        let winner = side_name(side.flip());
                        outcome = Some((
                            loss,
                            format!("{winner} wins by adjudication"),
                            "adjudication",
                            None,
                        ));
                    }
                }
            }
        }
    }
    for e in engines.iter_mut() {
        if let Some(e) = e.take() {
            e.quit();
        }
    }
    let (score, reason, termination, forfeit) =
        outcome.unwrap_or(("*", "unterminated".into(), "unterminated", None));
    let mut headers = vec![
        ("Event".to_string(), cfg.event.clone()),
        ("Site".to_string(), "?".to_string()),
        ("Date".to_string(), today()),
        ("Round".to_string(), format!("{round}")),
        ("White".to_string(), cfg.engines[white].name.clone()),
        ("Black".to_string(), cfg.engines[black].name.clone()),
        ("Result".to_string(), score.to_string()),
    ];
    if v.name != "chess" {
        headers.push(("Variant".into(), v.name.clone()));
    }
    if !is_standard_start {
        headers.push(("FEN".into(), start_fen.to_string()));
        headers.push(("SetUp".into(), "1".into()));
    }
    let tcw = cfg.tcs[white];
    headers.push(("TimeControl".into(), tcw.pgn()));
    headers.push(("PlyCount".into(), record.len().to_string()));
    headers.push(("Termination".into(), termination.to_string()));
    headers.push(("GameNumber".into(), game_no.to_string()));
    let result_comment = format!("{{{reason}}} {score}");
    let pgn = pgn::write(&pgn::PgnGame {
        headers,
        start,
        moves: &record,
        result: &result_comment,
    });
    GameResult {
        score,
        reason,
        termination,
        pgn,
        forfeit,
    }
}

fn today() -> String {
    // Days since 1970 to a civil date (no time-zone crate needed).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let z = secs / 86400 + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Loads the opening list: (EFEN, moves).
fn load_openings(
    o: &Openings,
    v: &'static Variant,
    rng: &mut rand::rngs::StdRng,
) -> Result<Vec<(String, Vec<Move>)>, String> {
    let text = std::fs::read_to_string(&o.file).map_err(|e| format!("{}: {e}", o.file))?;
    let mut out = Vec::new();
    match o.format.as_str() {
        "epd" => {
            for (i, line) in text.lines().enumerate() {
                let l = line.split(';').next().unwrap_or("").trim();
                if l.is_empty() || l.starts_with('#') {
                    continue;
                }
                let p =
                    Position::from_efen(v, l).map_err(|e| format!("{}:{}: {e}", o.file, i + 1))?;
                out.push((p.efen(), Vec::new()));
            }
        }
        "pgn" => {
            for (i, g) in pgn::read(&text).iter().enumerate() {
                let fen = g
                    .headers
                    .iter()
                    .find(|(k, _)| k == "FEN")
                    .map(|(_, f)| f.clone())
                    .unwrap_or_else(|| v.default_start_fen());
                let mut p = Position::from_efen(v, &fen)
                    .map_err(|e| format!("{} game {}: {e}", o.file, i + 1))?;
                let mut moves = Vec::new();
                for s in g.sans.iter().take(o.plies.unwrap_or(usize::MAX)) {
                    let m =
                        parse_san(&p, s).map_err(|e| format!("{} game {}: {e}", o.file, i + 1))?;
                    moves.push(m);
                    p.do_move(m);
                }
                out.push((fen, moves));
            }
        }
        f => return Err(format!("-openings: unknown format '{f}' (epd, pgn)")),
    }
    if out.is_empty() {
        return Err(format!("{}: no openings", o.file));
    }
    if o.order == "random" {
        out.shuffle(rng);
    }
    Ok(out)
}

struct Job {
    number: u32,
    round: u32,
    white: usize,
    black: usize,
    fen: String,
    moves: Vec<Move>,
}

/// Runs the match; prints cutechess-style lines; returns the number of forfeits.
pub fn run(args: &[String], variants: &Variants) -> Result<u32, String> {
    let cfg = parse_args(args)?;
    let v = variants
        .get(&cfg.variant)
        .ok_or_else(|| format!("unknown variant '{}'", cfg.variant))?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(cfg.seed);
    let openings = match &cfg.openings {
        Some(o) => Some(load_openings(o, v, &mut rng)?),
        None => None,
    };
    // Random-setup variants: each game pair shares one drawn setup.
    let random = match v.start {
        Start::Random(r) => Some(r),
        Start::Fen(_) => None,
    };
    let repeat = cfg.repeat || random.is_some();
    let n = cfg.engines.len();
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            pairs.push((a, b));
        }
    }
    let mut jobs = Vec::new();
    let mut number = 0;
    let mut opening_idx = 0;
    for round in 1..=cfg.rounds {
        for &(a, b) in &pairs {
            let mut current: Option<(String, Vec<Move>)> = None;
            for g in 0..cfg.games {
                if !repeat || g % 2 == 0 || current.is_none() {
                    current = Some(match (&openings, random) {
                        (Some(list), _) => {
                            let o = list[opening_idx % list.len()].clone();
                            opening_idx += 1;
                            o
                        }
                        (None, Some(r)) => (
                            setup_fen(v, r, rng.gen_range(0..setup_count(r)))?,
                            Vec::new(),
                        ),
                        (None, None) => (v.default_start_fen(), Vec::new()),
                    });
                }
                let (fen, moves) = current.clone().unwrap_or_default();
                // Colours alternate game by game within the encounter.
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                number += 1;
                jobs.push(Job {
                    number,
                    round,
                    white,
                    black,
                    fen,
                    moves,
                });
            }
        }
    }
    let total = jobs.len() as u32;
    let jobs = Arc::new(Mutex::new(jobs.into_iter().rev().collect::<Vec<_>>()));
    let results: Arc<Mutex<HashMap<(usize, usize), Wld>>> = Arc::new(Mutex::new(HashMap::new()));
    let pgn_file = match &cfg.pgnout {
        Some(f) => Some(Arc::new(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(f)
                .map_err(|e| format!("{f}: {e}"))?,
        ))),
        None => None,
    };
    let forfeits = Arc::new(Mutex::new(0u32));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.min(total as usize).max(1) {
            let jobs = Arc::clone(&jobs);
            let results = Arc::clone(&results);
            let pgn_file = pgn_file.clone();
            let forfeits = Arc::clone(&forfeits);
            let stop = Arc::clone(&stop);
            let cfg = &cfg;
            s.spawn(move || loop {
                if stop.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                let Some(job) = jobs.lock().map(|mut j| j.pop()).ok().flatten() else {
                    return;
                };
                let (wn, bn) = (&cfg.engines[job.white].name, &cfg.engines[job.black].name);
                println!("Started game {} of {total} ({wn} vs {bn})", job.number);
                let r = play_game(cfg, v, job.white, job.black, &job.fen, &job.moves, job.round, job.number);
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "Finished game {} ({wn} vs {bn}): {} {{{}}}", job.number, r.score, r.reason);
                if let Some(f) = &r.forfeit {
                    if let Ok(mut n) = forfeits.lock() {
                        *n += 1;
                    }
                    log::warn!("game {}: {f}", job.number);
                    if !cfg.recover && r.termination == "abandoned" {
                        let _ = writeln!(out, "Terminating the match: an engine failed (use -recover to go on)");
                        stop.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                }
                if let Some(f) = &pgn_file {
                    if let Ok(mut f) = f.lock() {
                        let _ = f.write_all(r.pgn.as_bytes());
                    }
                }
                let (a, b) = (job.white.min(job.black), job.white.max(job.black));
                if let Ok(mut res) = results.lock() {
                    let wld = res.entry((a, b)).or_default();
                    let first_white = job.white == a;
                    match r.score {
                        "1-0" if first_white => wld.w += 1,
                        "1-0" => wld.l += 1,
                        "0-1" if first_white => wld.l += 1,
                        "0-1" => wld.w += 1,
                        "1/2-1/2" => wld.d += 1,
                        _ => {}
                    }
                    let wld = *wld;
                    let _ = writeln!(
                        out,
                        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                        cfg.engines[a].name,
                        cfg.engines[b].name,
                        wld.w,
                        wld.l,
                        wld.d,
                        wld.ratio(),
                        wld.n()
                    );
                    if let Some(sp) = cfg.sprt {
                        let llr = sp.llr(&wld);
                        let (lo, hi) = sp.bounds();
                        if llr >= hi || llr <= lo {
                            let _ = writeln!(
                                out,
                                "SPRT: llr {llr:.3}, lbound {lo:.2}, ubound {hi:.2} - {} was accepted",
                                if llr >= hi { "H1" } else { "H0" }
                            );
                            stop.store(true, std::sync::atomic::Ordering::SeqCst);
                        }
                    }
                }
                let _ = out.flush();
            });
        }
    });
    let res = results.lock().map(|r| r.clone()).unwrap_or_default();
    let mut keys: Vec<_> = res.keys().copied().collect();
    keys.sort();
    for k in keys {
        let wld = res[&k];
        println!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            cfg.engines[k.0].name,
            cfg.engines[k.1].name,
            wld.w,
            wld.l,
            wld.d,
            wld.ratio(),
            wld.n()
        );
        match stats::elo(&wld) {
            Some((e, m)) => println!(
                "Elo difference: {e:.1} +/- {m:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
                stats::los(&wld),
                100.0 * wld.d as f64 / wld.n().max(1) as f64
            ),
            None => println!("Elo difference: out of range (no losses or no wins)"),
        }
        if let Some(sp) = cfg.sprt {
            let (lo, hi) = sp.bounds();
            println!(
                "SPRT: llr {:.3}, lbound {lo:.2}, ubound {hi:.2}",
                sp.llr(&wld)
            );
        }
    }
    println!("Finished match");
    let f = forfeits.lock().map(|f| *f).unwrap_or(0);
    Ok(f)
}

/// Replays a PGN file; prints how many games replayed.
pub fn pgn_check(path: &str, variants: &Variants) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    pgn::check(&text, variants).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let t = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!((t.moves, t.base_ms, t.inc_ms), (40, 60000, 500));
        assert_eq!(t.pgn(), "40/60+0.5");
        let t = TimeControl::parse("1:30+1").unwrap();
        assert_eq!((t.moves, t.base_ms, t.inc_ms), (0, 90000, 1000));
        assert!(TimeControl::parse("abc").is_err());
        assert!(TimeControl::parse("0+1").is_err());
        assert!(today().len() == 10);
    }

    #[test]
    fn parses_cutechess_arguments() {
        let a: Vec<String> = "-engine cmd=lancer name=A -engine cmd=lancer name=B proto=xboard option.Hash=32 -each tc=2+0.05 -games 4 -repeat -variant lighthouse -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=900 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -seed 7"
            .split_whitespace()
            .map(String::from)
            .collect();
        let c = parse_args(&a).unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[1].proto, Proto::Xboard);
        assert_eq!(
            c.engines[1].options,
            vec![("Hash".to_string(), "32".to_string())]
        );
        assert_eq!(c.tcs[0].base_ms, 2000);
        assert_eq!(
            (c.games, c.repeat, c.variant.as_str(), c.seed),
            (4, true, "lighthouse", 7)
        );
        assert_eq!(c.draw, Some((40, 8, 10)));
        assert_eq!(c.resign, Some((3, 900, false)));
        assert!(parse_args(&["-engine".into(), "cmd=x".into()]).is_err());
    }
}
