//! `lancer analyse`: a search of one position, its info lines with the PV in SAN.

use super::{engine_for, variant, PositionArgs};
use crate::engine::{Engine, Limits};
use crate::rules::notation::parse_any;
use crate::rules::start::start_position;
use crate::rules::{Color, Position, Variants};
use clap::Args;

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

/// Analyses the position: info lines, the PV in SAN, the best move.
pub(super) fn run_analyse(vs: &Variants, a: AnalyseArgs) -> Result<(), String> {
    use crate::protocol::uci::{bestmove_line, info_line};
    use crate::rules::notation::san;
    let v = variant(vs, &a.pos.variant)?;
    let start = match &a.pos.fen {
        Some(f) => Position::from_efen(v, f).map_err(|e| format!("bad EFEN: {e}"))?,
        None => start_position(v, a.pos.seed)?,
    };
    // `--threads` and `--multipv` first, so that an `--option` of either overrides them.
    let setup = |e: &mut Engine| {
        e.set_threads(a.threads as usize);
        e.set_multipv(a.multipv as usize);
    };
    let mut engine = engine_for(vs, &v.name, start, setup, &a.options)?;
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
