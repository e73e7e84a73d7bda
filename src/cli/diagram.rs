//! `lancer diagram`: the SVG picture of a position.

use super::{build_position_with_last, PositionArgs};
use crate::rules::Variants;
use clap::Args;

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

/// Draws the position to stdout or the `-o` file.
pub(super) fn run_diagram(vs: &Variants, a: DiagramArgs) -> Result<(), String> {
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
