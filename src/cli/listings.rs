//! The listings: `lancer variants` (the loaded variants, or a random variant's
//! numbered setups) and `lancer options` (the option table).

use crate::rules::setups::setup_count;
use crate::rules::start::seeded_setup;
use crate::rules::variant::Start;
use crate::rules::Variants;
use clap::Args;

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

/// Lists the variants, or the setups of `--setups VARIANT` (one, with `--setup` or
/// `--seed`).
pub(super) fn run_variants(vs: &Variants, a: VariantsArgs) -> Result<(), String> {
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

/// `lancer options`: the option table, one option a line.
pub(super) fn print_options() {
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

/// `lancer params`.
#[derive(Args, Debug)]
pub struct ParamsArgs {
    /// Give this variant's values (its `searchParams` in variants.ini) as the defaults.
    #[arg(long)]
    pub variant: Option<String>,
}

/// `lancer params`: the search's parameters, one a line, with the values a search of
/// the variant starts from.
pub(super) fn print_params(vs: &Variants, a: &ParamsArgs) -> Result<(), String> {
    use crate::engine::{SearchParams, Settings};
    let values = match &a.variant {
        Some(name) => Settings::default().params_for(super::variant(vs, name)?),
        None => SearchParams::default(),
    };
    for p in SearchParams::TABLE {
        println!(
            "{:<18} {:>5}  {:>5}..{:<5}  {}",
            p.name,
            values.get(p.name).unwrap_or(p.default),
            p.min,
            p.max,
            p.what.trim()
        );
    }
    Ok(())
}
