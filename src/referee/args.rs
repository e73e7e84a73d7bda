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
    pub engines: Vec<PlayerConfig>,
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
    /// `policy=`: when the next opening is taken.
    pub policy: Policy,
}

/// cutechess's opening policy: when a match moves on to its next opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// `default`: every game (every two with `-repeat`) and at each new encounter.
    #[default]
    Default,
    /// `encounter`: at each new encounter (every game of a pair in a round).
    Encounter,
    /// `round`: at each new round, so every pair of a round plays the same opening.
    Round,
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

/// What the command line has given so far: the match settings, each `-engine`'s
/// fields, the `-each` fields, `-debug`.
struct Parsed {
    c: MatchConfig,
    engines: Vec<Vec<(String, String)>>,
    each: Vec<(String, String)>,
    debug: bool,
}

/// A flag's handler: it gets the flag and the values up to the next flag.
type Handler = fn(&mut Parsed, &str, Vec<String>) -> Result<(), String>;

/// Every flag `lancer match` reads, and the cutechess-cli flags it refuses by name.
const FLAGS: &[(&str, Handler)] = &[
    ("-engine", |p, _, v| {
        p.engines.push(v.iter().map(|t| field(t)).collect());
        Ok(())
    }),
    ("-each", |p, _, v| {
        p.each.extend(v.iter().map(|t| field(t)));
        Ok(())
    }),
    ("-tc", |p, o, v| {
        p.each.push(("tc".into(), one(v, o)?));
        Ok(())
    }),
    ("-variant", |p, o, v| {
        p.c.variant = one(v, o)?;
        Ok(())
    }),
    ("-tournament", |p, o, v| {
        p.c.tournament = tournament(&one(v, o)?)?;
        Ok(())
    }),
    ("-games", |p, o, v| {
        p.c.games = num(one(v, o)?, o)?.clamp(1, 1_000_000) as u32;
        Ok(())
    }),
    ("-rounds", |p, o, v| {
        p.c.rounds = num(one(v, o)?, o)?.clamp(1, 1_000_000) as u32;
        Ok(())
    }),
    ("-repeat", |p, _, v| {
        // cutechess: `-repeat` = each opening twice (one game a colour).
        p.c.repeat = match v.as_slice() {
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
        Ok(())
    }),
    ("-concurrency", |p, o, v| {
        p.c.concurrency = num(one(v, o)?, o)?.clamp(1, 64) as usize;
        Ok(())
    }),
    ("-pgnout", |p, _, v| {
        p.c.pgnout = Some(pgnout(&v)?);
        Ok(())
    }),
    ("-seed", seed),
    ("-srand", seed),
    ("-maxmoves", |p, o, v| {
        p.c.maxmoves = Some(num(one(v, o)?, o)? as u32);
        Ok(())
    }),
    ("-recover", |p, _, v| {
        if !v.is_empty() {
            return Err("-recover takes no value".into());
        }
        p.c.recover = true;
        Ok(())
    }),
    ("-event", |p, o, v| {
        p.c.event = one(v, o)?;
        Ok(())
    }),
    ("-ratinginterval", |p, o, v| {
        p.c.rating_interval = num(one(v, o)?, o)?.min(u32::MAX as u64) as u32;
        Ok(())
    }),
    ("-wait", |p, o, v| {
        p.c.wait_ms = num(one(v, o)?, o)?.min(3_600_000);
        Ok(())
    }),
    ("-openings", |p, _, v| {
        p.c.openings = Some(openings(&v)?);
        Ok(())
    }),
    ("-sprt", |p, _, v| {
        p.c.sprt = Some(sprt(&v)?);
        Ok(())
    }),
    ("-draw", |p, _, v| {
        p.c.draw = Some(draw(&v)?);
        Ok(())
    }),
    ("-resign", |p, _, v| {
        p.c.resign = Some(resign(&v)?);
        Ok(())
    }),
    ("-debug", |p, _, _| {
        p.debug = true;
        Ok(())
    }),
    ("-outcomeinterval", refused),
    ("-tb", refused),
    ("-tbpieces", refused),
    ("-tbignore50", refused),
    ("-bookmode", refused),
    ("-epdout", refused),
    ("-noswap", refused),
    ("-reverse", refused),
    ("-seeds", refused),
    ("-site", refused),
    ("-resultformat", refused),
];

fn seed(p: &mut Parsed, o: &str, v: Vec<String>) -> Result<(), String> {
    p.c.seed = num(one(v, o)?, o)?;
    Ok(())
}

fn refused(_: &mut Parsed, o: &str, _: Vec<String>) -> Result<(), String> {
    Err(unimplemented(o, "docs/match.md lists what it does"))
}

/// The one value of a flag that takes one.
fn one(v: Vec<String>, name: &str) -> Result<String, String> {
    match <[String; 1]>::try_from(v) {
        Ok([x]) => Ok(x),
        Err(_) => Err(format!("{name} takes one value")),
    }
}

fn num(s: String, name: &str) -> Result<u64, String> {
    s.parse::<u64>()
        .map_err(|_| format!("{name}: '{s}' is not a number"))
}

fn tournament(t: &str) -> Result<Tournament, String> {
    match t {
        "round-robin" => Ok(Tournament::RoundRobin),
        "gauntlet" => Ok(Tournament::Gauntlet),
        "knockout" | "pyramid" => Err(unimplemented(
            &format!("-tournament {t}"),
            "round-robin and gauntlet are",
        )),
        t => Err(format!(
            "-tournament: unknown type '{t}' (round-robin, gauntlet)"
        )),
    }
}

/// `-pgnout FILE [min] [fi]`.
fn pgnout(v: &[String]) -> Result<PgnOut, String> {
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
    Ok(p)
}

/// `-openings file= format= order= plies= start= policy=`.
fn openings(v: &[String]) -> Result<Openings, String> {
    let mut o = Openings {
        file: String::new(),
        format: "epd".into(),
        order: "sequential".into(),
        plies: None,
        start: 1,
        policy: Policy::Default,
    };
    for t in v {
        let (k, v) = kv(t)?;
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
            "policy" => {
                o.policy = match v {
                    "default" => Policy::Default,
                    "encounter" => Policy::Encounter,
                    "round" => Policy::Round,
                    _ => {
                        return Err(format!(
                            "-openings: unknown policy '{v}' (default, encounter, round)"
                        ))
                    }
                }
            }
            _ => return Err(format!("-openings: unknown field '{k}'")),
        }
    }
    if o.file.is_empty() {
        return Err("-openings needs file=".into());
    }
    Ok(o)
}

/// `-sprt elo0= elo1= alpha= beta=`.
fn sprt(v: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for t in v {
        let (k, v) = kv(t)?;
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
    Ok(s)
}

/// `-draw movenumber= movecount= score=`.
fn draw(v: &[String]) -> Result<(u32, u32, i32), String> {
    let (mut mn, mut mc, mut sc) = (0, 1, 0);
    for t in v {
        let (k, v) = kv(t)?;
        let x = num(v.into(), k)?;
        match k {
            "movenumber" => mn = x as u32,
            "movecount" => mc = x as u32,
            "score" => sc = x as i32,
            _ => return Err(format!("-draw: unknown field '{k}'")),
        }
    }
    Ok((mn, mc, sc))
}

/// `-resign movecount= score= twosided=`.
fn resign(v: &[String]) -> Result<(u32, i32, bool), String> {
    let (mut mc, mut sc, mut two) = (1, 0, false);
    for t in v {
        let (k, v) = kv(t)?;
        match k {
            "movecount" => mc = num(v.into(), k)? as u32,
            "score" => sc = num(v.into(), k)? as i32,
            "twosided" => {
                two = match v {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("-resign twosided: '{v}' is not true/false")),
                }
            }
            _ => return Err(format!("-resign: unknown field '{k}'")),
        }
    }
    Ok((mc, sc, two))
}

/// Parses cutechess-style arguments. Every option and field is either carried out
/// or refused: unknown and unimplemented ones are errors.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    let mut p = Parsed {
        c: MatchConfig {
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
        },
        engines: Vec::new(),
        each: Vec::new(),
        debug: false,
    };
    // A flag's values run to the next flag (a negative number is a value).
    let is_flag = |a: &str| {
        a.starts_with('-') && a.len() > 1 && !a[1..].starts_with(|c: char| c.is_ascii_digit())
    };
    let mut i = 0;
    while i < args.len() {
        let opt = &args[i];
        i += 1;
        let handler = FLAGS
            .iter()
            .find(|(f, _)| f == opt)
            .ok_or_else(|| format!("unknown option '{opt}'"))?
            .1;
        let start = i;
        while i < args.len() && !is_flag(&args[i]) {
            i += 1;
        }
        handler(&mut p, opt, args[start..i].to_vec())?;
    }
    let Parsed {
        mut c,
        engines,
        each,
        debug,
    } = p;
    if engines.len() < 2 {
        return Err("at least two -engine are needed".into());
    }
    if c.sprt.is_some() && engines.len() != 2 {
        return Err("-sprt needs exactly two engines".into());
    }
    for (n, e) in engines.into_iter().enumerate() {
        let (cfg, tc) = engine_config(n, each.iter().chain(e.iter()), debug)?;
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

/// Engine `n`'s configuration and time control from its fields (`-each` first).
fn engine_config<'a>(
    n: usize,
    fields: impl Iterator<Item = &'a (String, String)>,
    debug: bool,
) -> Result<(PlayerConfig, TimeControl), String> {
    let mut cfg = PlayerConfig {
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
        ponder: false,
    };
    for (k, v) in fields {
        engine_field(&mut cfg, k, v)?;
    }
    if cfg.cmd.is_empty() {
        return Err(format!("{}: missing cmd=", cfg.name));
    }
    super::player::split_cmd(&cfg.cmd).map_err(|e| format!("{}: {e}", cfg.name))?;
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
    Ok((cfg, tc))
}

/// One `key=value` field of `-engine` or `-each`.
fn engine_field(cfg: &mut PlayerConfig, k: &str, v: &str) -> Result<(), String> {
    match k {
        "cmd" => cfg.cmd = v.into(),
        "name" => cfg.name = v.into(),
        "dir" => cfg.dir = Some(v.into()),
        "proto" => {
            cfg.proto = match v {
                "uci" => Proto::Uci,
                "xboard" => Proto::Xboard,
                _ => return Err(format!("proto must be uci or xboard, got '{v}'")),
            }
        }
        "tc" => cfg.tc = Some(v.into()),
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
        k if k.starts_with("option.") => cfg.options.push((k[7..].to_string(), v.into())),
        "nodes" => {
            cfg.nodes = Some(
                v.parse()
                    .map_err(|_| format!("nodes: '{v}' is not a number"))?,
            )
        }
        "arg" => cfg.args.push(v.into()),
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
        // cutechess's flag; `ponder=true|on|false|off` as well.
        "ponder" => {
            cfg.ponder = match v {
                "" | "true" | "on" => true,
                "false" | "off" => false,
                _ => return Err(format!("ponder: '{v}' is not true/false")),
            }
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
                "docs/match.md lists what it does",
            ))
        }
        _ => return Err(format!("unknown engine field '{k}'")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(extra: &[&str]) -> Result<MatchConfig, String> {
        let mut args = vec![
            "-engine", "cmd=a", "name=a", "-engine", "cmd=b", "name=b", "-each", "tc=1",
        ];
        args.extend_from_slice(extra);
        parse_args(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn ponder_is_a_flag_of_each_engine() {
        let ponders = |c: MatchConfig| c.engines.iter().map(|e| e.ponder).collect::<Vec<_>>();
        assert_eq!(ponders(parse(&[]).unwrap()), [false, false]);
        assert_eq!(ponders(parse(&["ponder"]).unwrap()), [true, true]);
        for on in ["ponder=true", "ponder=on"] {
            assert_eq!(ponders(parse(&[on]).unwrap()), [true, true], "{on}");
        }
        let c = parse(&["-engine", "cmd=c", "name=c", "ponder", "proto=xboard"]).unwrap();
        assert_eq!(ponders(c), [false, false, true]);
        // `-each` comes first: an engine's own field overrides it.
        let c = parse_args(
            &[
                "-engine",
                "cmd=a",
                "ponder=off",
                "-engine",
                "cmd=b",
                "-each",
                "tc=1",
                "ponder",
            ]
            .map(String::from),
        )
        .unwrap();
        assert_eq!(ponders(c), [false, true]);
        let e = parse(&["ponder=maybe"]).unwrap_err();
        assert!(e.contains("ponder: 'maybe' is not true/false"), "{e}");
    }
}
