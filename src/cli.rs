//! The command line: `lancer perft`, `variants`, `bench`, `analyse`, `match`,
//! `pgn-check`, `openings`, `options`, `diagram`, and the protocols.

use crate::engine::Engine;
use crate::progress::{self, Progress};
use crate::rules::notation::{move_text, parse_any};
use crate::rules::setups::{seeded_setup, setup_count, start_position};
use crate::rules::variant::{Start, Variant};
use crate::rules::{perft, Color, Move, Position, Variants};
use clap::{Args, Parser, Subcommand};
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// lancer: a chess-variant engine (UCI and XBoard).
#[derive(Parser, Debug)]
#[command(name = "lancer", version, about)]
pub struct Cli {
    /// A variants.ini merged over the built-in one.
    #[arg(long, global = true, value_name = "FILE")]
    pub variants: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the legal move tree.
    Perft(PerftArgs),
    /// List the loaded variants, or the numbered setups of a random variant.
    Variants(VariantsArgs),
    /// Search a fixed set of positions (every variant) to a fixed depth; prints nodes and nps.
    Bench(BenchArgs),
    /// Analyse a position: UCI-style info lines, the PV in SAN, the best move.
    Analyse(AnalyseArgs),
    /// Speak UCI on stdin/stdout (without a subcommand, the first line picks the protocol).
    Uci,
    /// Speak XBoard / CECP v2 on stdin/stdout.
    Xboard,
    /// Engine-vs-engine matches with cutechess-cli's options (lancer match -engine cmd=... ...).
    Match(MatchArgs),
    /// Replay a PGN file with the rules core and report the first illegal move.
    PgnCheck(PgnCheckArgs),
    /// Write balanced opening positions (EPD) for `lancer match -openings`.
    Openings(OpeningsArgs),
    /// List the engine's options (UCI `setoption`, XBoard `option`, `analyse --option`).
    Options,
    /// List the search's parameters (the `SearchParams` option): name, default, range.
    Params,
    /// Draw the position as an SVG picture (stdout, or a file with -o).
    Diagram(DiagramArgs),
    /// Self-play games written as labelled quiet positions, for `lancer train` and `lancer tune`.
    Datagen(DatagenArgs),
    /// Fit the evaluation's weights to `lancer datagen` positions (writes the weights file).
    Tune(TuneArgs),
    /// Train a network on `lancer datagen` positions (writes the network file the build embeds).
    Train(TrainArgs),
    /// A board in the browser: play and analyse every variant (prints its URL).
    Serve(ServeArgs),
}

/// `lancer serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on.
    #[arg(long, default_value_t = crate::serve::DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on (loopback unless you say otherwise).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
}

/// `lancer datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Variant name (see `lancer variants`).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random plies played from the start (one more in about half the games).
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Seed: the same seed writes the same positions, whatever the thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=crate::engine::MAX_THREADS as u64))]
    pub threads: u64,
    /// The data file: a new one, or one an earlier run with the same settings left
    /// (the run goes on from its last whole game).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: String,
}

/// `lancer tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Variant name (see `lancer variants`).
    #[arg(long)]
    pub variant: String,
    /// Data files of `lancer datagen` (or text lines `EFEN | result | score`).
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<String>,
    /// The weights file: read for the starting weights, rewritten with the tuned section.
    #[arg(
        long,
        default_value = "src/search/eval/weights.ini",
        value_name = "FILE"
    )]
    pub weights: String,
    /// Passes of gradient descent (Adam).
    #[arg(long, default_value_t = 500)]
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Share of the game result in the target; the rest is the search's score.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Tune only these groups (material, squares, mobility, pieces, king, pawns, threats,
    /// tempo, counter).
    #[arg(long, value_delimiter = ',')]
    pub terms: Vec<String>,
    /// Use this K (per centipawn) instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Start from the hand-set weights, not the file's.
    #[arg(long)]
    pub from_hand_set: bool,
    /// Print the error every this many epochs.
    #[arg(long, default_value_t = 10)]
    pub report: usize,
    /// Print the new file on stdout instead of writing it.
    #[arg(long)]
    pub dry_run: bool,
    /// L2 pull towards the starting weights (0: none).
    #[arg(long, default_value_t = 0.0)]
    pub reg: f64,
}

/// `lancer train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Variant name (see `lancer variants`).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Data files of `lancer datagen` (or text lines `EFEN | result | score`).
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<String>,
    /// Where to write the network.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: String,
    /// Passes over the data.
    #[arg(long, default_value_t = 8)]
    pub epochs: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    /// Share of the game result in the target; the rest is the search's score.
    #[arg(long, default_value_t = 0.1)]
    pub lambda: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Seed of the starting weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Do not also train on the positions seen in a mirror (files turned round).
    #[arg(long)]
    pub no_mirror: bool,
    /// Train each input's weights alone, without the weights shared by a kind's
    /// squares and a lancer's facings.
    #[arg(long)]
    pub no_factors: bool,
    /// A whole evaluation, not a correction added to the hand-made one.
    #[arg(long)]
    pub whole: bool,
}

/// `lancer diagram`.
#[derive(Args, Debug)]
pub struct DiagramArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Draw each lancer's facing as an arrow.
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    pub arrows: OnOff,
    /// Write the SVG to this file instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
}

/// A switch given as `on` or `off`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnOff {
    On,
    Off,
}

/// `lancer openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// How many distinct positions to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random legal plies played from the start (random setups are drawn per line).
    #[arg(long, default_value_t = 6)]
    pub plies: usize,
    /// Depth of the search that judges balance.
    #[arg(long, default_value_t = 6)]
    pub depth: i32,
    /// Keep a position only if the search scores it within this many centipawns.
    #[arg(long, default_value_t = 60)]
    pub max_score: i32,
}

/// `lancer match`: cutechess-style options, passed through as they are.
#[derive(Args, Debug)]
#[command(after_help = "\
Engine fields (-engine, -each): cmd= name= proto=uci|xboard dir= arg= option.X=Y initstr=
  tc=moves/time+inc|inf st= timemargin= nodes= plies=|depth= whitepov restart=on
Options: -variant V -tournament round-robin|gauntlet -games N -rounds N -repeat
  -concurrency N -openings file= format=epd|pgn order=random|sequential plies= start=
  -pgnout F [min] [fi] -sprt elo0= elo1= alpha= beta= -ratinginterval N -maxmoves N
  -draw movenumber= movecount= score= -resign movecount= score= twosided=
  -seed N|-srand N -wait MS -recover -event NAME -debug -tc T (= -each tc=T)
Anything else is refused. docs/protocols.md has the details.")]
pub struct MatchArgs {
    /// -engine cmd=... name=... proto=uci|xboard ..., -each tc=..., -variant, -games, ...
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<String>,
}

/// `lancer pgn-check`.
#[derive(Args, Debug)]
pub struct PgnCheckArgs {
    /// The PGN file.
    pub file: String,
}

/// `lancer bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(default_value_t = 9)]
    pub depth: i32,
}

/// `lancer analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Search to this depth.
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<i32>,
    /// Search this long (milliseconds).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Number of principal variations.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=500))]
    pub multipv: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=crate::engine::MAX_THREADS as u64))]
    pub threads: u64,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=crate::engine::MAX_HASH as u64))]
    pub hash: u64,
    /// Set an engine option (any of `lancer options`), as UCI's setoption does.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// Where a command starts: variant, position, moves.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Variant name (see `lancer variants`).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Start from this EFEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first (move text or SAN; one argument or several).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Random-setup variants: draw the setup with this seed (default: the standard setup).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// `lancer perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Threads (root moves are split over them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=crate::engine::MAX_THREADS as u64))]
    pub threads: u64,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Depth in plies.
    pub depth: Option<u32>,
}

/// `lancer variants`.
#[derive(Args, Debug)]
pub struct VariantsArgs {
    /// Print the numbered setups of this random-setup variant.
    #[arg(long, value_name = "VARIANT")]
    pub setups: Option<String>,
    /// With --setups: only setup N.
    #[arg(long)]
    pub setup: Option<usize>,
    /// With --setups: the setup a game with this seed would use.
    #[arg(long)]
    pub seed: Option<u64>,
}

fn unknown_variant(name: &str) -> String {
    format!("unknown variant '{name}' (see 'lancer variants')")
}

/// The variant called `name`, or the error to print.
fn variant(vs: &Variants, name: &str) -> Result<&'static Variant, String> {
    vs.get(name).ok_or_else(|| unknown_variant(name))
}

/// Loads the variants (built-in, with the user file merged over it).
pub fn load_variants(file: Option<&str>) -> Result<Variants, String> {
    match file {
        Some(f) => crate::engine::load_variants(f),
        None => Ok(Variants::builtin()),
    }
}

/// Builds the position a command starts from.
pub fn build_position(vs: &Variants, a: &PositionArgs) -> Result<Position, String> {
    Ok(build_position_with_last(vs, a)?.0)
}

/// Builds the position a command starts from, with the last of `--moves` and the
/// position it was played in (`None` without moves).
pub fn build_position_with_last(
    vs: &Variants,
    a: &PositionArgs,
) -> Result<(Position, Option<(Position, Move)>), String> {
    let v = variant(vs, &a.variant)?;
    let mut pos = match &a.fen {
        Some(f) => Position::from_efen(v, f).map_err(|e| format!("bad EFEN: {e}"))?,
        None => start_position(v, a.seed)?,
    };
    let mut last = None;
    for tok in a.moves.iter().flat_map(|m| m.split_whitespace()) {
        let m = parse_any(&pos, tok).map_err(|e| e.to_string())?;
        last = Some((pos, m));
        pos.do_move(m);
    }
    Ok((pos, last))
}

fn run_diagram(vs: &Variants, a: DiagramArgs) -> Result<(), String> {
    use std::io::Write;
    let (pos, last) = build_position_with_last(vs, &a.pos)?;
    let svg = crate::diagram::svg(
        &pos,
        last.as_ref().map(|(before, m)| (before, *m)),
        a.arrows == OnOff::On,
    );
    match &a.output {
        Some(f) => std::fs::write(f, svg).map_err(|e| format!("cannot write {f}: {e}")),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(svg.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the diagram: {e}"))
        }
    }
}

fn run_perft(vs: &Variants, mut a: PerftArgs) -> Result<(), String> {
    // `--moves e2e4 3` swallows the depth: take a trailing number back.
    if a.depth.is_none() {
        if let Some(last) = a.pos.moves.last() {
            if let Ok(d) = last.parse::<u32>() {
                a.depth = Some(d);
                a.pos.moves.pop();
            }
        }
    }
    let depth = a.depth.ok_or("perft needs a DEPTH")?;
    let pos = build_position(vs, &a.pos)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads as usize)
        .build()
        .map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    let progress = Progress::stderr();
    // On a terminal the one-thread count goes by root move too, to show progress: a
    // move text per root move is all that costs.
    let nodes = if depth == 0 {
        1
    } else if a.divide || a.threads > 1 || progress.enabled() {
        let divide = a.divide;
        let roots = pos.legal_move_count();
        // Root moves done and their nodes; counted under one lock so that the line
        // never goes backwards when two threads finish together.
        let counted = std::sync::Mutex::new((0usize, 0u64));
        let total = pool.install(|| {
            perft::divide(&pos, depth, &|m, n| {
                if divide {
                    progress.println(&format!("{m}: {n}"));
                }
                if let Ok(mut c) = counted.lock() {
                    *c = (c.0 + 1, c.1 + n);
                    progress.show(&progress::perft_text(c.0, roots, c.1));
                }
            })
        });
        progress.clear();
        if divide {
            println!();
        }
        total
    } else {
        perft::perft(&pos, depth)
    };
    let secs = t0.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn run_variants(vs: &Variants, a: VariantsArgs) -> Result<(), String> {
    let Some(name) = a.setups else {
        for v in vs.all() {
            match &v.start {
                Start::Fen(f) => println!("{:<18}{f}", v.name),
                Start::Random(r) => println!(
                    "{:<18}random ({} setups), standard: {}",
                    v.name,
                    setup_count(*r),
                    v.default_start_fen()
                ),
            }
        }
        return Ok(());
    };
    let v = vs
        .get(&name)
        .ok_or_else(|| format!("unknown variant '{name}'"))?;
    let Start::Random(r) = v.start else {
        return Err(format!("{name} has a fixed start position"));
    };
    let pick = match (a.setup, a.seed) {
        (Some(n), _) => Some(n),
        (None, Some(s)) => seeded_setup(v, s),
        (None, None) => None,
    };
    match pick {
        Some(n) => println!("{n} {}", v.setup_fen(r, n)?),
        None => {
            for n in 0..setup_count(r) {
                println!("{n} {}", v.setup_fen(r, n)?);
            }
        }
    }
    Ok(())
}

/// Why a command failed: the message is printed as `error: MESSAGE` on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    /// The command line itself is wrong (what clap reports for the other commands:
    /// an unknown option, a missing or malformed value): exit status 2, with a
    /// usage hint.
    Usage {
        message: String,
        usage: &'static str,
    },
    /// The command could not do its work (a bad EFEN, an illegal move, an unknown
    /// variant, an unreadable file, an engine that failed): exit status 1.
    Failed(String),
}

impl From<String> for CliError {
    fn from(s: String) -> CliError {
        CliError::Failed(s)
    }
}

impl From<&str> for CliError {
    fn from(s: &str) -> CliError {
        CliError::Failed(s.to_string())
    }
}

impl CliError {
    /// The process exit status for this error.
    pub fn status(&self) -> i32 {
        match self {
            CliError::Usage { .. } => 2,
            CliError::Failed(_) => 1,
        }
    }

    /// The text for stderr, laid out as clap lays out its own usage errors.
    pub fn text(&self) -> String {
        match self {
            CliError::Usage { message, usage } => {
                // `lancer match ...` -> `lancer match --help`.
                let command: Vec<&str> = usage.split(' ').take(2).collect();
                format!(
                    "error: {message}\n\nUsage: {usage}\n\nFor more information, try '{} --help'.",
                    command.join(" ")
                )
            }
            CliError::Failed(m) => format!("error: {m}"),
        }
    }
}

/// The usage line of `lancer match` (its arguments are cutechess's, parsed by hand).
const MATCH_USAGE: &str =
    "lancer match -engine cmd=CMD [name=NAME] [proto=uci|xboard] [FIELD=VALUE...] -engine ... [-each FIELD=VALUE...] [OPTIONS]";

/// Output commands end quietly when their reader goes away (`lancer variants | head`),
/// as Unix tools do, instead of reporting a panic: `println!` panics on a broken
/// pipe, and this hook turns that one panic into a plain exit. Not the protocols or
/// the referee: they write to engines' and GUIs' pipes and handle a closed one.
fn end_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let p = info.payload();
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// Runs a subcommand.
pub fn run(cli: Cli) -> Result<(), CliError> {
    let vs = load_variants(cli.variants.as_deref())?;
    if !matches!(
        cli.command,
        None | Some(Command::Uci) | Some(Command::Xboard) | Some(Command::Match(_))
    ) {
        end_on_broken_pipe();
    }
    match cli.command {
        Some(Command::Perft(a)) => Ok(run_perft(&vs, a)?),
        Some(Command::Variants(a)) => Ok(run_variants(&vs, a)?),
        Some(Command::Options) => {
            print_options();
            Ok(())
        }
        Some(Command::Params) => {
            print_params();
            Ok(())
        }
        Some(Command::Bench(a)) => {
            let (nodes, nps) = crate::bench::run(&vs, a.depth)?;
            println!("{nodes} nodes");
            println!("{nps} nps");
            Ok(())
        }
        Some(Command::Analyse(a)) => Ok(run_analyse(&vs, a)?),
        Some(Command::Match(a)) => {
            let cfg = crate::referee::parse_args(&a.args).map_err(|message| CliError::Usage {
                message,
                usage: MATCH_USAGE,
            })?;
            let report = crate::referee::run(cfg, &vs)?;
            if report.forfeits > 0 {
                eprintln!(
                    "{} game(s) ended by forfeit (illegal move, time, crash)",
                    report.forfeits
                );
            }
            match report.terminated {
                Some(why) => Err(format!("the match was cut short: {why}").into()),
                None => Ok(()),
            }
        }
        Some(Command::PgnCheck(a)) => {
            let n = crate::referee::pgn_check(&a.file, &vs)?;
            println!("{n} games replayed without an illegal move");
            Ok(())
        }
        Some(Command::Openings(a)) => Ok(run_openings(&vs, a)?),
        Some(Command::Diagram(a)) => Ok(run_diagram(&vs, a)?),
        Some(Command::Datagen(a)) => Ok(run_datagen(&vs, a)?),
        Some(Command::Tune(a)) => Ok(run_tune(&vs, a)?),
        Some(Command::Train(a)) => Ok(run_train(&vs, a)?),
        Some(Command::Serve(a)) => Ok(crate::serve::run(vs, &a.host, a.port)?),
        Some(Command::Uci) => {
            crate::protocol::uci::run(None, vs);
            Ok(())
        }
        Some(Command::Xboard) => {
            crate::protocol::xboard::run(None, vs);
            Ok(())
        }
        None => {
            crate::protocol::run_auto(vs);
            Ok(())
        }
    }
}

/// An engine for a command-line search: the variants, `name`'s position, and the
/// given `--option NAME=VALUE`s set through the option table.
fn engine_for(
    vs: &Variants,
    name: &str,
    start: Position,
    options: &[String],
) -> Result<Engine, String> {
    let mut e = Engine::with_variants(vs.clone());
    e.set_variant(name)?;
    // The command line searches without a GUI's clock lag.
    e.set_option("Move Overhead", Some("0"))?;
    for o in options {
        let (k, v) = match o.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (o.as_str(), None),
        };
        e.set_option(k, v)
            .map_err(|err| format!("--option {o}: {err}"))?;
    }
    e.set_start(start);
    Ok(e)
}

fn run_analyse(vs: &Variants, a: AnalyseArgs) -> Result<(), String> {
    use crate::protocol::uci::{bestmove_line, info_line};
    use crate::rules::notation::san;
    use crate::search::Limits;
    let v = variant(vs, &a.pos.variant)?;
    let start = match &a.pos.fen {
        Some(f) => Position::from_efen(v, f).map_err(|e| format!("bad EFEN: {e}"))?,
        None => start_position(v, a.pos.seed)?,
    };
    let mut options = vec![
        format!("Threads={}", a.threads),
        format!("MultiPV={}", a.multipv),
    ];
    options.extend(a.options.iter().cloned());
    let mut engine = engine_for(vs, &v.name, start, &options)?;
    engine
        .set_hash(a.hash as usize)
        .map_err(|e| format!("--hash {}: {e}", a.hash))?;
    for tok in a.pos.moves.iter().flat_map(|m| m.split_whitespace()) {
        let m = parse_any(engine.position(), tok).map_err(|e| e.to_string())?;
        engine.play(m);
    }
    let pos = *engine.position();
    let show_wdl = engine.show_wdl();
    println!("info string variant {} position {}", v.name, pos.efen());
    if let Some(o) = pos.outcome() {
        println!("info string game over: {} {}", o.score(), o.reason.text());
        println!("bestmove (none)");
        return Ok(());
    }
    let limits = Limits {
        depth: a
            .depth
            .or(if a.movetime.is_none() { Some(12) } else { None }),
        movetime: a.movetime,
        ..Default::default()
    };
    let r = engine.analyse(
        limits,
        Box::new(move |root, i| {
            // The current-move lines are for GUIs; a terminal reader wants the PVs.
            if i.currmove.is_some() {
                return;
            }
            println!("{}", info_line(root, i, show_wdl));
            let mut p = *root;
            let mut pv_san = Vec::new();
            for &m in &i.pv {
                let s = san(&p, m);
                pv_san.push(if p.side() == Color::White || pv_san.is_empty() {
                    let dots = if p.side() == Color::White { "." } else { "..." };
                    format!("{}{dots} {s}", p.fullmove())
                } else {
                    s
                });
                p.do_move(m);
            }
            println!("info string san {}", pv_san.join(" "));
        }),
    )?;
    println!("{}", bestmove_line(&pos, &r));
    Ok(())
}

/// Random playouts from the start, kept when a shallow search finds them balanced; one
/// EFEN per line. The seed (`--seed`, default 1) makes the file reproducible.
fn run_openings(vs: &Variants, a: OpeningsArgs) -> Result<(), String> {
    use crate::search::{Limits, MATE_BOUND};
    let v = variant(vs, &a.pos.variant)?;
    if a.pos.fen.is_some() || !a.pos.moves.is_empty() {
        return Err("openings: --fen and --moves are not used here".into());
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(a.pos.seed.unwrap_or(1));
    let mut engine = engine_for(vs, &v.name, start_position(v, None)?, &[])?;
    engine.set_hash(16)?;
    let limits = Limits {
        depth: Some(a.depth.clamp(1, 64)),
        multipv: 1,
        ..Default::default()
    };
    let mut seen = std::collections::HashSet::new();
    let mut list = crate::rules::MoveList::new();
    // Cleared when dropped, also on the error returns below.
    let progress = Progress::stderr();
    let mut tries = 0usize;
    while seen.len() < a.count {
        tries += 1;
        if tries > a.count.saturating_mul(200).saturating_add(1000) {
            return Err(format!(
                "openings: found only {} balanced positions; try fewer plies or a larger --max-score",
                seen.len()
            ));
        }
        engine.set_start(start_position(v, Some(rng.gen()))?);
        let mut ok = true;
        for _ in 0..a.plies {
            let pos = *engine.position();
            pos.legal_moves(&mut list);
            if list.is_empty() || pos.outcome().is_some() {
                ok = false;
                break;
            }
            engine.play(list.as_slice()[rng.gen_range(0..list.len())]);
        }
        let pos = *engine.position();
        if !ok || pos.outcome().is_some() || !seen.insert(pos.key()) {
            continue;
        }
        // The table starts empty for each position; the history tables go on.
        engine.clear_table();
        let r = engine.analyse(limits.clone(), Box::new(|_, _| {}))?;
        if r.score.abs() > a.max_score.min(MATE_BOUND - 1) {
            seen.remove(&pos.key());
        } else {
            progress.println(&pos.efen());
        }
        progress.show(&progress::openings_text(seen.len(), a.count, tries));
    }
    Ok(())
}

fn run_datagen(vs: &Variants, a: DatagenArgs) -> Result<(), String> {
    let v = variant(vs, &a.variant)?;
    let cfg = crate::training::datagen::Config {
        games: a.games,
        nodes: a.nodes.max(1),
        plies: a.plies,
        seed: a.seed,
        threads: a.threads as usize,
    };
    let t = std::time::Instant::now();
    let r = crate::training::datagen::run(vs, v, &cfg, &a.output)?;
    let secs = t.elapsed().as_secs_f64().max(1e-3);
    let rate = r.new_positions as f64 / secs;
    eprintln!(
        "datagen {}: {} games, {} positions in {}; this run {} games, {} positions in {secs:.1}s ({rate:.0} positions/s, {:.0} an hour)",
        v.name,
        r.games,
        r.positions,
        a.output,
        r.new_games,
        r.new_positions,
        rate * 3600.0
    );
    Ok(())
}

fn run_tune(vs: &Variants, a: TuneArgs) -> Result<(), String> {
    let v = variant(vs, &a.variant)?;
    let text = std::fs::read_to_string(&a.weights).map_err(|e| {
        format!(
            "{}: {e} (run from the source tree, or give --weights)",
            a.weights
        )
    })?;
    let cfg = crate::training::tune::Config {
        epochs: a.epochs,
        lr: a.lr,
        lambda: a.lambda.clamp(0.0, 1.0),
        terms: a.terms,
        k: a.k,
        from_hand_set: a.from_hand_set,
        report: a.report,
        reg: a.reg.max(0.0),
    };
    let new = crate::training::tune::run(v, &a.data, &text, &cfg)?;
    if a.dry_run {
        print!("{new}");
    } else {
        std::fs::write(&a.weights, new).map_err(|e| format!("{}: {e}", a.weights))?;
        eprintln!("wrote {} (rebuild to use the new weights)", a.weights);
    }
    Ok(())
}

fn run_train(vs: &Variants, a: TrainArgs) -> Result<(), String> {
    let v = variant(vs, &a.variant)?;
    let cfg = crate::training::train::Config {
        epochs: a.epochs,
        lr: a.lr,
        lambda: a.lambda.clamp(0.0, 1.0),
        batch: a.batch,
        seed: a.seed,
        mirror: !a.no_mirror,
        residual: !a.whole,
        factors: !a.no_factors,
    };
    let net = crate::training::train::run(v, &a.data, &cfg)?;
    std::fs::write(&a.output, net).map_err(|e| format!("{}: {e}", a.output))?;
    eprintln!("wrote {}", a.output);
    Ok(())
}

/// `lancer options`: the option table, one option a line.
fn print_options() {
    use crate::engine::options::{OptionKind, OPTIONS};
    for o in OPTIONS {
        let kind = match o.kind {
            OptionKind::Check { default } => format!("check, default {default}"),
            OptionKind::Spin { default, min, max } => {
                format!("spin {min}..{max}, default {default}")
            }
            OptionKind::Variant { default } => format!("variant name, default {default}"),
            OptionKind::Text => "text".to_string(),
            OptionKind::Button => "button".to_string(),
        };
        println!("{:<17} {kind}", o.name);
    }
}

fn print_params() {
    use crate::search::SearchParams;
    for p in SearchParams::TABLE {
        println!(
            "{:<18} {:>5}  {:>5}..{:<5}  {}",
            p.name,
            p.default,
            p.min,
            p.max,
            p.what.trim()
        );
    }
}

/// Text of every legal move (used by tests and tools).
pub fn legal_move_texts(pos: &Position) -> Vec<String> {
    let mut list = crate::rules::MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().map(|&m| move_text(pos, m)).collect()
}
