//! `lancer match`: an engine-vs-engine referee with cutechess-cli's interface for the
//! variants cutechess cannot play. The rules core holds the game: every move is
//! checked, the clock is kept here, and every game end is decided here.

pub mod engine;
pub mod pgn;
pub mod stats;

use crate::rules::notation::xboard::{parse_xboard_move, xboard_move, xboard_move_full};
use crate::rules::notation::{move_text, parse_move, parse_san};
use crate::rules::variant::{Start, Variant};
use crate::rules::xboard_fen::xboard_fen;
use crate::rules::{Color, Game, Move, Position, Variants};
use engine::{Clock, EngineConfig, EngineError, EngineProcess, Proto};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use stats::{PlayerStats, Sprt};
use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;

/// A time control: `moves/time+inc` (seconds), or a fixed time per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    pub moves: u32,
    pub base_ms: i64,
    pub inc_ms: i64,
    pub per_move_ms: Option<i64>,
    /// `tc=inf`: no clock; the game is bounded by `nodes=` or `plies=`.
    pub infinite: bool,
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
            infinite: false,
        })
    }

    /// `tc=inf`: a clock that never runs out (2^40 ms).
    pub fn infinite() -> TimeControl {
        TimeControl {
            moves: 0,
            base_ms: 1 << 40,
            inc_ms: 0,
            per_move_ms: None,
            infinite: true,
        }
    }

    /// The PGN `TimeControl` tag value, as cutechess writes it (`inf` for no clock).
    pub fn pgn(&self) -> String {
        if self.infinite {
            return "inf".into();
        }
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

/// How the engines are paired (`-tournament`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other (cutechess's default).
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// Everything `lancer match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub tcs: Vec<TimeControl>,
    pub variant: String,
    pub tournament: Tournament,
    pub games: u32,
    pub rounds: u32,
    pub repeat: bool,
    pub concurrency: usize,
    pub openings: Option<Openings>,
    pub pgnout: Option<PgnOut>,
    pub sprt: Option<Sprt>,
    pub maxmoves: Option<u32>,
    pub draw: Option<(u32, u32, i32)>,
    /// `-resign movecount= score= twosided=`.
    pub resign: Option<(u32, i32, bool)>,
    pub seed: u64,
    pub recover: bool,
    pub event: String,
    /// `-ratinginterval N`: the ranking is printed after every N games (0: only at the end).
    pub rating_interval: u32,
    /// `-wait N`: milliseconds between two games of one worker.
    pub wait_ms: u64,
}

/// `-pgnout FILE [min] [fi]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnOut {
    pub file: String,
    /// `min`: the seven-tag roster (plus FEN, SetUp, Variant) and bare moves.
    pub minimal: bool,
    /// `fi`: unfinished games are not written.
    pub finished_only: bool,
}

/// Opening positions (EFEN, moves).
#[derive(Clone, Debug)]
pub struct Openings {
    pub file: String,
    pub format: String,
    pub order: String,
    pub plies: Option<usize>,
    /// `start=N`: the first opening used (1-based).
    pub start: usize,
}

fn kv(tok: &str) -> Result<(&str, &str), String> {
    tok.split_once('=')
        .ok_or_else(|| format!("expected key=value, got '{tok}'"))
}

/// An engine field: `key=value`, or a bare flag such as `whitepov` (value empty).
fn field(tok: &str) -> (String, String) {
    let (k, v) = tok.split_once('=').unwrap_or((tok, ""));
    (k.to_string(), v.to_string())
}

/// cutechess-cli features `lancer match` does not have: refused by name, so that
/// a command line written for cutechess never silently means something else.
fn unimplemented(what: &str, why: &str) -> String {
    format!("{what} is not implemented by lancer match ({why})")
}

/// Parses cutechess-style arguments. Every option and field is either carried out
/// or refused: unknown and unimplemented ones are errors.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    let mut engines: Vec<Vec<(String, String)>> = Vec::new();
    let mut debug = false;
    let mut each: Vec<(String, String)> = Vec::new();
    let mut c = MatchConfig {
        engines: Vec::new(),
        tcs: Vec::new(),
        variant: "chess".into(),
        tournament: Tournament::RoundRobin,
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
        rating_interval: 0,
        wait_ms: 0,
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
                engines.push(vals(&mut i).iter().map(|t| field(t)).collect());
            }
            "-each" => each.extend(vals(&mut i).iter().map(|t| field(t))),
            "-tc" => each.push(("tc".into(), one(&mut i, "-tc")?)),
            "-variant" => c.variant = one(&mut i, "-variant")?,
            "-tournament" => {
                c.tournament = match one(&mut i, "-tournament")?.as_str() {
                    "round-robin" => Tournament::RoundRobin,
                    "gauntlet" => Tournament::Gauntlet,
                    t @ ("knockout" | "pyramid") => {
                        return Err(unimplemented(
                            &format!("-tournament {t}"),
                            "round-robin and gauntlet are",
                        ))
                    }
                    t => {
                        return Err(format!(
                            "-tournament: unknown type '{t}' (round-robin, gauntlet)"
                        ))
                    }
                }
            }
            "-games" => c.games = num(one(&mut i, "-games")?, "-games")?.clamp(1, 1_000_000) as u32,
            "-rounds" => {
                c.rounds = num(one(&mut i, "-rounds")?, "-rounds")?.clamp(1, 1_000_000) as u32
            }
            "-repeat" => {
                // cutechess: `-repeat` = each opening twice (one game a colour).
                c.repeat = match vals(&mut i).as_slice() {
                    [] => true,
                    [n] if n == "2" => true,
                    [n] if n == "1" => false,
                    v => {
                        return Err(unimplemented(
                            &format!("-repeat {}", v.join(" ")),
                            "openings are played once or twice (-repeat)",
                        ))
                    }
                };
            }
            "-concurrency" => {
                c.concurrency =
                    num(one(&mut i, "-concurrency")?, "-concurrency")?.clamp(1, 64) as usize
            }
            "-pgnout" => {
                let v = vals(&mut i);
                let (file, flags) = v.split_first().ok_or("-pgnout needs a file")?;
                let mut p = PgnOut {
                    file: file.clone(),
                    minimal: false,
                    finished_only: false,
                };
                if flags.len() > 2 {
                    return Err("-pgnout FILE [min] [fi]".into());
                }
                for f in flags {
                    match f.as_str() {
                        "min" => p.minimal = true,
                        "fi" => p.finished_only = true,
                        _ => return Err(format!("-pgnout: unknown flag '{f}' (min, fi)")),
                    }
                }
                c.pgnout = Some(p);
            }
            "-seed" | "-srand" => c.seed = num(one(&mut i, &opt)?, &opt)?,
            "-maxmoves" => c.maxmoves = Some(num(one(&mut i, "-maxmoves")?, "-maxmoves")? as u32),
            "-recover" => {
                if !vals(&mut i).is_empty() {
                    return Err("-recover takes no value".into());
                }
                c.recover = true
            }
            "-event" => c.event = one(&mut i, "-event")?,
            "-ratinginterval" => {
                c.rating_interval = num(one(&mut i, &opt)?, &opt)?.min(u32::MAX as u64) as u32
            }
            "-wait" => c.wait_ms = num(one(&mut i, &opt)?, &opt)?.min(3_600_000),
            "-openings" => {
                let mut o = Openings {
                    file: String::new(),
                    format: "epd".into(),
                    order: "sequential".into(),
                    plies: None,
                    start: 1,
                };
                for t in vals(&mut i) {
                    let (k, v) = kv(&t)?;
                    match k {
                        "file" => o.file = v.into(),
                        "format" => match v {
                            "epd" | "pgn" => o.format = v.into(),
                            _ => return Err(format!("-openings: unknown format '{v}' (epd, pgn)")),
                        },
                        "order" => match v {
                            "random" | "sequential" => o.order = v.into(),
                            _ => {
                                return Err(format!(
                                    "-openings: unknown order '{v}' (random, sequential)"
                                ))
                            }
                        },
                        "plies" => o.plies = Some(num(v.into(), "plies")? as usize),
                        "start" => o.start = num(v.into(), "start")?.max(1) as usize,
                        "policy" if v == "default" => {}
                        "policy" => {
                            return Err(unimplemented(
                                &format!("-openings policy={v}"),
                                "a new opening for each pair of games",
                            ))
                        }
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
            "-outcomeinterval" | "-tb" | "-tbpieces" | "-tbignore50" | "-bookmode" | "-epdout"
            | "-noswap" | "-reverse" | "-seeds" | "-site" | "-resultformat" => {
                return Err(unimplemented(&opt, "the README lists what it does"))
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if engines.len() < 2 {
        return Err("at least two -engine are needed".into());
    }
    if c.sprt.is_some() && engines.len() != 2 {
        return Err("-sprt needs exactly two engines".into());
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
            white_pov: false,
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
                        v.parse::<f64>()
                            .ok()
                            .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e7)
                            .ok_or_else(|| format!("st: '{v}' is not a time in seconds"))?,
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
                "whitepov" if v.is_empty() || v == "true" => cfg.white_pov = true,
                // Each game runs fresh engine processes: that is cutechess's
                // `restart=on`, and `auto` may restart too.
                "restart" if v == "on" || v == "auto" => {}
                "restart" => {
                    return Err(unimplemented(
                        &format!("restart={v}"),
                        "every game starts fresh engines",
                    ))
                }
                "book" | "bookdepth" => {
                    return Err(unimplemented(
                        &format!("{k}="),
                        "no opening books; use -openings file=F format=epd|pgn",
                    ))
                }
                "ponder" => {
                    return Err(unimplemented(
                        "ponder",
                        "engines think only on their own time",
                    ))
                }
                "trust" => {
                    return Err(unimplemented(
                        "trust",
                        "the referee decides every result itself and reads no claims",
                    ))
                }
                "stderr" | "tscale" | "tmargin" => {
                    return Err(unimplemented(
                        &format!("{k}="),
                        "the README lists what it does",
                    ))
                }
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
                infinite: false,
            },
            (None, Some(t)) if t == "inf" => TimeControl::infinite(),
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
    /// An engine could not be started for this game.
    pub start_failed: bool,
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
    game_no: u64,
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
    let mut start_failed = false;
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
                    format!("{} fails to start: {err}", c.name()),
                    "abandoned",
                    Some(err),
                ));
                start_failed = true;
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
            outcome = Some((o.score(), o.describe(v).to_string(), "normal", None));
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
                    format!("{} loses on time", side.name()),
                    "time forfeit",
                    Some("hang/time".into()),
                ));
                break;
            }
            Err(EngineError::Disconnected) => {
                outcome = Some((
                    loss,
                    format!("{}'s connection stalls", side.name()),
                    "abandoned",
                    Some("crash".into()),
                ));
                break;
            }
            Err(EngineError::Protocol(p)) => {
                outcome = Some((
                    loss,
                    format!("{} makes a protocol error: {p}", side.name()),
                    "abandoned",
                    Some(p),
                ));
                break;
            }
        };
        let mut em = em;
        if cfg.engines[ids[si]].white_pov && side == Color::Black {
            em.score = em.score.map(|s| -s);
        }
        let margin = cfg.engines[ids[si]].timemargin.min(i64::MAX as u64) as i64;
        let limit = mine.per_move.unwrap_or(mine.left).saturating_add(margin);
        if em.elapsed_ms > limit {
            outcome = Some((
                loss,
                format!("{} loses on time", side.name()),
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
                    format!("{} makes an illegal move: {}", side.name(), em.text),
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
        let comment = pgn::eval_comment(em.score, em.depth, em.elapsed_ms);
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
                        let winner = side.flip().name();
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
    let (tcw, tcb) = (cfg.tcs[white].pgn(), cfg.tcs[black].pgn());
    if tcw == tcb {
        headers.push(("TimeControl".into(), tcw));
    } else {
        headers.push(("WhiteTimeControl".into(), tcw));
        headers.push(("BlackTimeControl".into(), tcb));
    }
    headers.push(("PlyCount".into(), record.len().to_string()));
    headers.push(("Termination".into(), termination.to_string()));
    headers.push(("GameNumber".into(), game_no.to_string()));
    // As cutechess: the end reason joins the last move's comment.
    let mut initial_comment = None;
    match record.last_mut() {
        Some((_, c)) if c.is_empty() => *c = reason.clone(),
        Some((_, c)) => *c = format!("{c}, {reason}"),
        None => initial_comment = Some(reason.clone()),
    }
    let pgn = pgn::write(&pgn::PgnGame {
        headers,
        start,
        moves: &record,
        result: score,
        initial_comment,
        minimal: cfg.pgnout.as_ref().is_some_and(|p| p.minimal),
    });
    GameResult {
        score,
        reason,
        termination,
        pgn,
        forfeit,
        start_failed,
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
    number: u64,
    round: u32,
    white: usize,
    black: usize,
    fen: String,
    moves: Vec<Move>,
}

/// The games of a match, made one at a time as workers ask, so a long match is
/// never held in memory: rounds, then the pairs of the tournament, then the games
/// of a pair (colours alternate; with `-repeat` or a random-setup variant, each
/// start position serves two games).
struct Schedule {
    variant: &'static Variant,
    pairs: Vec<(usize, usize)>,
    rounds: u32,
    games: u32,
    repeat: bool,
    openings: Option<Vec<(String, Vec<Move>)>>,
    opening_idx: usize,
    rng: rand::rngs::StdRng,
    round: u32,
    pair: usize,
    game: u32,
    current: Option<(String, Vec<Move>)>,
    number: u64,
}

impl Schedule {
    fn next(&mut self) -> Result<Option<Job>, String> {
        if self.round > self.rounds || self.pairs.is_empty() {
            return Ok(None);
        }
        let (a, b) = self.pairs[self.pair];
        let g = self.game;
        if !self.repeat || g.is_multiple_of(2) || self.current.is_none() {
            self.current = Some(match &self.openings {
                Some(list) => {
                    let o = list[self.opening_idx % list.len()].clone();
                    self.opening_idx += 1;
                    o
                }
                None => (self.variant.random_start(&mut self.rng)?, Vec::new()),
            });
        }
        let (fen, moves) = self.current.clone().unwrap_or_default();
        // Colours alternate game by game within the encounter.
        let (white, black) = if g.is_multiple_of(2) { (a, b) } else { (b, a) };
        self.number += 1;
        let job = Job {
            number: self.number,
            round: self.round,
            white,
            black,
            fen,
            moves,
        };
        self.game += 1;
        if self.game == self.games {
            self.game = 0;
            self.current = None;
            self.pair += 1;
            if self.pair == self.pairs.len() {
                self.pair = 0;
                self.round += 1;
            }
        }
        Ok(Some(job))
    }
}

/// How a match ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchReport {
    /// Games lost by an illegal move, the clock, a crash or a protocol error.
    pub forfeits: u32,
    /// Why the match stopped before its last game (an engine failed or could not
    /// start); `None` when it ran to the end or an SPRT decided it.
    pub terminated: Option<String>,
}

/// The standings as cutechess prints them (`-ratinginterval` and the end of the
/// match): for two engines the first one's results by colour and the Elo
/// difference; for more, the ranking table (cutechess's default columns).
fn results_text(cfg: &MatchConfig, players: &[PlayerStats]) -> String {
    use stats::{fixed, general, CuteElo};
    let mut ret = String::new();
    if players.len() == 2 {
        let p = players[0];
        let name = &cfg.engines[0].name;
        for (side, r) in [("White", p.white), ("Black", p.black)] {
            if r.n() > 0 {
                ret.push_str(&format!(
                    "...      {name} playing {side}: {} - {} - {}  [{:.3}] {}\n",
                    r.w,
                    r.l,
                    r.d,
                    r.ratio(),
                    r.n()
                ));
            }
        }
        let t = p.total();
        if t.n() > 0 {
            let white_points = 2 * p.white.w + p.white.d + 2 * p.black.l + p.black.d;
            ret.push_str(&format!(
                "...      White vs Black: {} - {} - {}  [{:.3}] {}\n",
                p.white.w + p.black.l,
                p.white.l + p.black.w,
                t.d,
                white_points as f64 / (2 * t.n()) as f64,
                t.n()
            ));
        }
        let e = CuteElo::new(&t);
        ret.push_str(&format!(
            "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
            fixed(e.diff(), 1),
            fixed(e.error_margin(), 1),
            fixed(e.los(), 1),
            fixed(e.draw_ratio() * 100.0, 1)
        ));
    } else {
        // Order: the gauntlet engine first (ranked 0), then by points per game;
        // engines without a finished game last. Ties list the later engine first.
        let gauntlet = cfg.tournament == Tournament::Gauntlet;
        let mut rows: Vec<(f64, usize)> = players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let key = if gauntlet && i == 0 {
                    -1.0
                } else if p.total().n() > 0 {
                    1.0 - CuteElo::new(&p.total()).point_ratio()
                } else {
                    2.0
                };
                (key, i)
            })
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        ret.push_str(&format!(
            "{:>4} {:<25} {:>7} {:>7} {:>7} {:>7} {:>7} \n",
            "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
        ));
        for (n, (_, i)) in rows.iter().enumerate() {
            let t = players[*i].total();
            let e = CuteElo::new(&t);
            let rank = if gauntlet { n as i64 } else { n as i64 + 1 };
            ret.push_str(&format!(
                "{rank:>4} {:<25} {:>7} {:>7} {:>7} {:>6}% {:>6}% \n",
                cfg.engines[*i].name,
                fixed(e.diff(), 0),
                fixed(e.error_margin(), 0),
                t.n(),
                fixed(e.point_ratio() * 100.0, 1),
                fixed(e.draw_ratio() * 100.0, 1)
            ));
        }
    }
    if let Some(sp) = cfg.sprt {
        let r = players.first().map(|p| p.total()).unwrap_or_default();
        let llr = sp.llr(&r);
        let (lo, hi) = sp.bounds();
        ret.push_str(&format!(
            "\nSPRT: llr {} ({}%), lbound {}, ubound {}",
            general(llr, 3),
            fixed(llr / hi * 100.0, 1),
            general(lo, 3),
            general(hi, 3)
        ));
        if llr >= hi {
            ret.push_str(" - H1 was accepted");
        } else if llr <= lo {
            ret.push_str(" - H0 was accepted");
        }
    }
    ret
}

/// Runs the match (`parse_args`' result) and prints cutechess-style lines.
pub fn run(cfg: MatchConfig, variants: &Variants) -> Result<MatchReport, String> {
    let v = variants
        .get(&cfg.variant)
        .ok_or_else(|| format!("unknown variant '{}'", cfg.variant))?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(cfg.seed);
    let openings = match &cfg.openings {
        Some(o) => {
            let mut list = load_openings(o, v, &mut rng)?;
            let first = (o.start - 1) % list.len();
            list.rotate_left(first);
            Some(list)
        }
        None => None,
    };
    // Random-setup variants: each game pair shares one drawn setup.
    let random = matches!(v.start, Start::Random(_));
    let n = cfg.engines.len();
    let pairs: Vec<(usize, usize)> = match cfg.tournament {
        Tournament::RoundRobin => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
        Tournament::Gauntlet => (1..n).map(|b| (0, b)).collect(),
    };
    let total = (cfg.rounds as u64)
        .saturating_mul(pairs.len() as u64)
        .saturating_mul(cfg.games as u64);
    let schedule = Mutex::new(Schedule {
        variant: v,
        pairs,
        rounds: cfg.rounds,
        games: cfg.games,
        repeat: cfg.repeat || random,
        openings,
        opening_idx: 0,
        rng,
        round: 1,
        pair: 0,
        game: 0,
        current: None,
        number: 0,
    });
    let pgn_file = match &cfg.pgnout {
        Some(p) => Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p.file)
                .map_err(|e| format!("{}: {e}", p.file))?,
        )),
        None => None,
    };
    struct Tally {
        players: Vec<PlayerStats>,
        finished: u64,
        forfeits: u32,
        terminated: Option<String>,
        error: Option<String>,
    }
    let tally = Mutex::new(Tally {
        players: vec![PlayerStats::default(); n],
        finished: 0,
        forfeits: 0,
        terminated: None,
        error: None,
    });
    let stop = std::sync::atomic::AtomicBool::new(false);
    let workers = (cfg.concurrency as u64).min(total).max(1) as usize;
    std::thread::scope(|s| {
        for _ in 0..workers {
            let (schedule, tally, stop, pgn_file, cfg) =
                (&schedule, &tally, &stop, &pgn_file, &cfg);
            let mut first = true;
            s.spawn(move || loop {
                if stop.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                let job = match schedule.lock().map(|mut q| q.next()) {
                    Ok(Ok(Some(job))) => job,
                    Ok(Ok(None)) | Err(_) => return,
                    Ok(Err(e)) => {
                        if let Ok(mut t) = tally.lock() {
                            t.error.get_or_insert(e);
                        }
                        stop.store(true, std::sync::atomic::Ordering::SeqCst);
                        return;
                    }
                };
                if !first {
                    std::thread::sleep(std::time::Duration::from_millis(cfg.wait_ms));
                }
                first = false;
                let (wn, bn) = (&cfg.engines[job.white].name, &cfg.engines[job.black].name);
                println!("Started game {} of {total} ({wn} vs {bn})", job.number);
                let r = play_game(
                    cfg, v, job.white, job.black, &job.fen, &job.moves, job.round, job.number,
                );
                let Ok(mut t) = tally.lock() else { return };
                let mut out = std::io::stdout().lock();
                let _ = writeln!(
                    out,
                    "Finished game {} ({wn} vs {bn}): {} {{{}}}",
                    job.number, r.score, r.reason
                );
                if let Some(f) = &r.forfeit {
                    t.forfeits += 1;
                    log::warn!("game {}: {f}", job.number);
                    // An engine that cannot start ends the match (as in cutechess);
                    // one that fails during a game does unless -recover.
                    if r.termination == "abandoned" && (!cfg.recover || r.start_failed) {
                        let why = if r.start_failed {
                            "an engine could not start"
                        } else {
                            "an engine failed (use -recover to go on)"
                        };
                        let _ = writeln!(out, "Terminating the match: {why}");
                        t.terminated.get_or_insert_with(|| why.to_string());
                        stop.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                }
                if let Some(f) = pgn_file {
                    let write =
                        !(r.score == "*" && cfg.pgnout.as_ref().is_some_and(|p| p.finished_only));
                    if let (true, Ok(mut f)) = (write, f.lock()) {
                        let _ = f.write_all(r.pgn.as_bytes());
                    }
                }
                let (wi, bi) = (job.white, job.black);
                match r.score {
                    "1-0" => {
                        t.players[wi].white.w += 1;
                        t.players[bi].black.l += 1;
                    }
                    "0-1" => {
                        t.players[wi].white.l += 1;
                        t.players[bi].black.w += 1;
                    }
                    "1/2-1/2" => {
                        t.players[wi].white.d += 1;
                        t.players[bi].black.d += 1;
                    }
                    _ => {}
                }
                t.finished += 1;
                if n == 2 {
                    let p = t.players[0].total();
                    let _ = writeln!(
                        out,
                        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                        cfg.engines[0].name,
                        cfg.engines[1].name,
                        p.w,
                        p.l,
                        p.d,
                        p.ratio(),
                        p.n()
                    );
                }
                if cfg.rating_interval > 0 && t.finished % cfg.rating_interval as u64 == 0 {
                    let _ = writeln!(out, "{}", results_text(cfg, &t.players));
                }
                if let Some(sp) = cfg.sprt {
                    let llr = sp.llr(&t.players[0].total());
                    let (lo, hi) = sp.bounds();
                    if llr >= hi || llr <= lo {
                        stop.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                }
                let _ = out.flush();
            });
        }
    });
    let t = tally
        .into_inner()
        .map_err(|_| "a match worker panicked".to_string())?;
    if let Some(e) = t.error {
        return Err(e);
    }
    if cfg.rating_interval == 0 || t.finished % cfg.rating_interval as u64 != 0 {
        println!("{}", results_text(&cfg, &t.players));
    }
    println!("Finished match");
    Ok(MatchReport {
        forfeits: t.forfeits,
        terminated: t.terminated,
    })
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
