//! The `eval` command's report: the hand-made evaluation of the current position term
//! by term, with what each number adds to, and the network the search uses, if any.

use super::Engine;
use crate::eval::{breakdown, MgEg};
use crate::search::uci_score;

impl Engine {
    /// The evaluation of the current position as lines of text, each starting with
    /// `eval` (UCI sends them as `info string` lines). Every number is shown with what
    /// it adds to, so the lines can be checked by hand: the terms sum to `sum`, `sum`
    /// blends by the phase, the tempo goes to the side to move; the network's line
    /// says what the search uses.
    pub fn eval_report(&self) -> Vec<String> {
        let pos = self.position();
        let b = breakdown(pos);
        let row = |name: &str, s: MgEg| format!("eval {name:<9} mg {:>6} eg {:>6}", s.mg, s.eg);
        let mut lines: Vec<String> = b.terms().map(|(n, s)| row(n, s)).collect();
        lines.push(format!("{} (White's view)", row("sum", b.sum())));
        lines.push(format!(
            "eval phase {} / 256: {} (White's view)",
            b.phase,
            b.tapered()
        ));
        let hand = b.for_side(pos.side());
        lines.push(format!(
            "eval tempo {}, counter scale {} / 256: total {} (side to move)",
            b.tempo(),
            b.scale,
            uci_score(hand)
        ));
        if let Some(net) = self.settings.eval.net_for(pos.variant()) {
            let v = net.evaluate(pos);
            lines.push(if net.residual {
                format!(
                    "eval network {} correction {}: {} (side to move; the search uses this one)",
                    net.name,
                    uci_score(v),
                    uci_score(hand + v)
                )
            } else {
                format!(
                    "eval network {} {} (side to move; the search uses this one)",
                    net.name,
                    uci_score(v)
                )
            });
        }
        lines
    }
}
