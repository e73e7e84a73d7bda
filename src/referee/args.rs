//! `lancer match` arguments: cutechess-cli's command line read into a [`MatchConfig`].

use super::*;

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

    pub(super) fn clock(&self) -> Clock {
        Clock {
            left: self.base_ms,
            inc: self.inc_ms,
            moves_to_go: self.moves,
            per_move: self.per_move_ms,
            infinite: self.infinite,
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
                return Err(unimplemented(&opt, "docs/protocols.md lists what it does"))
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
                        "docs/protocols.md lists what it does",
                    ))
                }
                _ => return Err(format!("unknown engine field '{k}'")),
            }
        }
        if cfg.cmd.is_empty() {
            return Err(format!("{}: missing cmd=", cfg.name));
        }
        super::engine::split_cmd(&cfg.cmd).map_err(|e| format!("{}: {e}", cfg.name))?;
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
