//! `lancer match` (engine-vs-engine matches) and `lancer pgn-check`.

use super::CliError;
use crate::rules::Variants;
use clap::Args;

/// `lancer match`: cutechess-style options, passed through as they are.
#[derive(Args, Debug)]
#[command(after_help = "\
Engine fields (-engine, -each): cmd= name= proto=uci|xboard dir= arg= option.X=Y initstr=
  tc=moves/time+inc|inf st= timemargin= nodes= plies=|depth= whitepov ponder restart=on
Options: -variant V -tournament round-robin|gauntlet -games N -rounds N -repeat
  -concurrency N -openings file= format=epd|pgn order=random|sequential plies= start=
  -pgnout F [min] [fi] -sprt elo0= elo1= alpha= beta= -ratinginterval N -maxmoves N
  -draw movenumber= movecount= score= -resign movecount= score= twosided=
  -seed N|-srand N -wait MS -recover -event NAME -debug -tc T (= -each tc=T)
Anything else is refused. docs/match.md has the details.")]
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

/// The usage line of `lancer match` (its arguments are cutechess's, parsed by hand).
const MATCH_USAGE: &str =
    "lancer match -engine cmd=CMD [name=NAME] [proto=uci|xboard] [FIELD=VALUE...] -engine ... [-each FIELD=VALUE...] [OPTIONS]";

/// Plays the match the arguments describe; a usage error for arguments it refuses.
pub(super) fn run_match(vs: &Variants, a: MatchArgs) -> Result<(), CliError> {
    let cfg = crate::referee::parse_args(&a.args).map_err(|message| CliError::Usage {
        message,
        usage: MATCH_USAGE,
    })?;
    let report = crate::referee::run(cfg, vs)?;
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

/// Replays a PGN file; reports how many games it replayed.
pub(super) fn run_pgn_check(vs: &Variants, a: PgnCheckArgs) -> Result<(), String> {
    let n = crate::referee::pgn_check(&a.file, vs)?;
    println!("{n} games replayed without an illegal move");
    Ok(())
}
