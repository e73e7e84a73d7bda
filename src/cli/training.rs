//! The training commands: `lancer datagen` (self-play positions), `lancer tune`
//! (the evaluation's weights) and `lancer train` (a network).

use super::variant;
use crate::rules::Variants;
use clap::Args;

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
    #[arg(long, default_value = "src/eval/weights.ini", value_name = "FILE")]
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
    /// Hidden units per side (1 to 256); fewer learn from less data.
    #[arg(long, default_value_t = crate::training::train::DEFAULT_HIDDEN)]
    pub hidden: usize,
    /// Also give pieces held by a jailer inputs of their own (variants with jailers).
    #[arg(long)]
    pub held: bool,
    /// Inputs relative to the own king: none; m (one bucket, the board turned for a
    /// king on the right half); 4 or 8 buckets by the king's square, mirrored.
    #[arg(long, default_value = "none")]
    pub kings: String,
    /// Output buckets by the count of pieces on the board (1 to 16).
    #[arg(long, default_value_t = 1)]
    pub outputs: usize,
    /// Squared clipped ReLU hidden units instead of clipped ReLU.
    #[arg(long)]
    pub screlu: bool,
    /// Start from this network file (same inputs) instead of random weights: a new
    /// round of data refines the network the earlier rounds made.
    #[arg(long, value_name = "NET")]
    pub init: Option<String>,
    /// Also learn from this evaluation's judgement of each position: `builtin` (the
    /// build's evaluation, its network included) or a network file.
    #[arg(long, value_name = "EVAL")]
    pub teacher: Option<String>,
    /// The teacher's share of the score part of the target (0 to 1).
    #[arg(long, default_value_t = 0.5)]
    pub teacher_weight: f32,
}

/// Plays and writes the self-play games; prints what this run added.
pub(super) fn run_datagen(vs: &Variants, a: DatagenArgs) -> Result<(), String> {
    let v = variant(vs, &a.variant)?;
    let cfg = crate::training::datagen::GenConfig {
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

/// Tunes the variant's weights section and writes the weights file (or prints it).
pub(super) fn run_tune(vs: &Variants, a: TuneArgs) -> Result<(), String> {
    let v = variant(vs, &a.variant)?;
    let text = std::fs::read_to_string(&a.weights).map_err(|e| {
        format!(
            "{}: {e} (run from the source tree, or give --weights)",
            a.weights
        )
    })?;
    let cfg = crate::training::tune::TuneConfig {
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

/// Trains the variant's network and writes it.
pub(super) fn run_train(vs: &Variants, a: TrainArgs) -> Result<(), String> {
    let v = variant(vs, &a.variant)?;
    let cfg = crate::training::train::TrainConfig {
        epochs: a.epochs,
        lr: a.lr,
        lambda: a.lambda.clamp(0.0, 1.0),
        batch: a.batch,
        seed: a.seed,
        mirror: !a.no_mirror,
        residual: !a.whole,
        factors: !a.no_factors,
        hidden: a.hidden,
        held: a.held,
        kings: a.kings,
        outputs: a.outputs,
        activation: if a.screlu {
            crate::training::train::Activation::Screlu
        } else {
            crate::training::train::Activation::Crelu
        },
        init: a.init,
        teacher: a.teacher,
        teacher_weight: a.teacher_weight.clamp(0.0, 1.0),
    };
    let net = crate::training::train::run(v, &a.data, &cfg)?;
    std::fs::write(&a.output, net).map_err(|e| format!("{}: {e}", a.output))?;
    eprintln!("wrote {}", a.output);
    Ok(())
}

/// `lancer dump`.
#[derive(Args, Debug)]
pub struct DumpArgs {
    /// Variant name (see `lancer variants`).
    #[arg(long)]
    pub variant: String,
    /// Data files of `lancer datagen` (or text lines).
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<String>,
}

/// Prints the positions of data files as text lines, in file order, so that another
/// program (docs/training.md, Labels from another engine) can read or relabel them.
pub(super) fn run_dump(vs: &Variants, a: DumpArgs) -> Result<(), String> {
    use std::io::Write;
    let v = variant(vs, &a.variant)?;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut failed = None;
    crate::training::data::read_each(v, &a.data, |samples| {
        for s in samples {
            let result = match s.result {
                r if r > 0.75 => "1-0",
                r if r < 0.25 => "0-1",
                _ => "1/2-1/2",
            };
            if failed.is_none() {
                if let Err(e) = writeln!(out, "{} | {result} | {}", s.pos.efen(), s.score) {
                    failed = Some(e);
                }
            }
        }
    })?;
    match failed {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}
