//! The command line: `lancer perft`, `variants`, `bench`, `analyse`, `match`,
//! `pgn-check`, `annotate`, `openings`, `options`, `diagram`, `datagen`, `tune`,
//! `train`, `serve`, and the protocols.
//!
//! This file parses the arguments and dispatches ([`run`]), with what the commands
//! share (loading the variants, building the start position, an engine for a
//! search); each family of commands has its file.

mod analyse;
mod annotate;
mod diagram;
mod listings;
mod openings;
mod perft;
mod referee;
mod training;

pub use analyse::AnalyseArgs;
pub use annotate::AnnotateArgs;
pub use diagram::{DiagramArgs, OnOff};
pub use listings::VariantsArgs;
pub use openings::OpeningsArgs;
pub use perft::{BenchArgs, PerftArgs};
pub use referee::{MatchArgs, PgnCheckArgs};
pub use training::{DatagenArgs, DumpArgs, TrainArgs, TuneArgs};

use crate::engine::Engine;
use crate::rules::notation::{move_text, parse_any};
use crate::rules::start::start_position;
use crate::rules::variant::Variant;
use crate::rules::{Move, Position, Variants};
use analyse::run_analyse;
use annotate::run_annotate;
use clap::{Args, Parser, Subcommand};
use diagram::run_diagram;
use listings::{print_options, print_params, run_variants, ParamsArgs};
use openings::run_openings;
use perft::{run_bench, run_perft};
use referee::{run_match, run_pgn_check};
use training::{run_datagen, run_dump, run_train, run_tune};

/// lancer: a chess-variant engine (UCI and XBoard).
#[derive(Parser, Debug)]
#[command(
    name = "lancer",
    version = crate::version::VERSION,
    long_version = crate::version::long_version(),
    about,
    after_help = "Arguments that are UCI commands run in order, then lancer exits, as OpenBench runs \
engines:\n  lancer \"setoption name UCI_Variant value lighthouse\" \"genfens 12 seed 7 book None\" quit"
)]
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
    /// Review the games of a PGN: each position's evaluation, ?! ? ?? and the best lines, written back.
    Annotate(AnnotateArgs),
    /// Write balanced opening positions (EPD) for `lancer match -openings`.
    Openings(OpeningsArgs),
    /// List the engine's options (UCI `setoption`, XBoard `option`, `analyse --option`).
    Options,
    /// List the search's parameters (the `SearchParams` option): name, default (or a
    /// variant's value), range.
    Params(ParamsArgs),
    /// Draw the position as an SVG picture (stdout, or a file with -o).
    Diagram(DiagramArgs),
    /// Self-play games written as labelled quiet positions, for `lancer train` and `lancer tune`.
    Datagen(DatagenArgs),
    /// Fit the evaluation's weights to `lancer datagen` positions (writes the weights file).
    Tune(TuneArgs),
    /// Train a network on `lancer datagen` positions (writes the network file the build embeds).
    Train(TrainArgs),
    /// Print data files' positions as text lines `EFEN | result | score` (what `train` and `tune` read too).
    Dump(DumpArgs),
    /// A board in the browser: play and analyse every variant (prints its URL).
    Serve(ServeArgs),
}

/// `lancer serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on.
    #[arg(long, default_value_t = crate::serve::DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on (loopback unless you say otherwise; any other
    /// address needs a token, drawn at random unless --token gives one).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The token every request must carry (8 to 128 letters, digits, '-', '_'); the
    /// URL printed has it as ?token=.
    #[arg(long)]
    pub token: Option<String>,
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

/// The UCI command lines the process arguments are, if they are (with a
/// `--variants FILE` before them): `lancer "genfens 12 seed 7 book None" quit`, as
/// OpenBench runs engines. They are when the first argument that is not an option
/// starts with a UCI command and is not one of lancer's commands (`lancer bench` is
/// the command, `lancer "bench 5"` the UCI line); anything else is clap's to read,
/// and to report when wrong.
pub fn uci_arguments(args: &[std::ffi::OsString]) -> Option<(Option<String>, Vec<String>)> {
    use clap::CommandFactory;
    let mut args = args.iter().skip(1).map(|a| a.to_str());
    let mut variants = None;
    let first = loop {
        match args.next()?? {
            "--variants" => variants = Some(args.next()??.to_string()),
            a if a.starts_with("--variants=") => {
                variants = Some(a["--variants=".len()..].to_string())
            }
            a if a.starts_with('-') => return None,
            a => break a,
        }
    };
    let cli = Cli::command();
    let command = cli
        .get_subcommands()
        .any(|c| c.get_name() == first || c.get_all_aliases().any(|x| x == first));
    let word = first.split_whitespace().next()?;
    if command || !crate::protocol::uci::COMMANDS.contains(&word) {
        return None;
    }
    let mut lines = vec![first.to_string()];
    for a in args {
        lines.push(a?.to_string());
    }
    Some((variants, lines))
}

/// Runs UCI command lines given as arguments (see [`uci_arguments`]).
pub fn run_uci_lines(variants: Option<&str>, lines: &[String]) -> Result<(), CliError> {
    let vs = load_variants(variants)?;
    crate::protocol::uci::run_lines(lines, vs);
    Ok(())
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
        Some(Command::Params(a)) => Ok(print_params(&vs, &a)?),
        Some(Command::Bench(a)) => Ok(run_bench(&vs, a)?),
        Some(Command::Analyse(a)) => Ok(run_analyse(&vs, a)?),
        Some(Command::Match(a)) => run_match(&vs, a),
        Some(Command::PgnCheck(a)) => Ok(run_pgn_check(&vs, a)?),
        Some(Command::Annotate(a)) => Ok(run_annotate(&vs, a)?),
        Some(Command::Openings(a)) => Ok(run_openings(&vs, a)?),
        Some(Command::Diagram(a)) => Ok(run_diagram(&vs, a)?),
        Some(Command::Datagen(a)) => Ok(run_datagen(&vs, a)?),
        Some(Command::Tune(a)) => Ok(run_tune(&vs, a)?),
        Some(Command::Train(a)) => Ok(run_train(&vs, a)?),
        Some(Command::Dump(a)) => Ok(run_dump(&vs, a)?),
        Some(Command::Serve(a)) => Ok(crate::serve::run(vs, &a.host, a.port, a.token)?),
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

/// An engine for a command-line search: the variants, `name`'s position, the typed
/// settings `setup` makes, then the given `--option NAME=VALUE`s set through the
/// option table.
fn engine_for(
    vs: &Variants,
    name: &str,
    start: Position,
    setup: impl FnOnce(&mut Engine),
    options: &[String],
) -> Result<Engine, String> {
    let mut e = Engine::with_variants(vs.clone());
    e.set_variant(name)?;
    // The command line searches without a GUI's clock lag.
    e.set_move_overhead(0);
    setup(&mut e);
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

/// Text of every legal move (used by tests and tools).
pub fn legal_move_texts(pos: &Position) -> Vec<String> {
    let mut list = crate::rules::MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().map(|&m| move_text(pos, m)).collect()
}
