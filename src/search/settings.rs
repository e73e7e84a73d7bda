//! How the engine searches, apart from what one search is asked to do
//! ([`super::Limits`]): the evaluation, the search's parameters, the features switched
//! off, the skill level, the move overhead, the lines searched and the threads.
//!
//! There is one such type. The engine holds one `Settings`, changes it only when an
//! option changes (`engine/options.rs`, which UCI, XBoard and the command line all
//! go through, or the engine's typed setters), and passes it by reference beside
//! the limits to every search: `search(pos, keys, &limits, &settings, ...)`. The
//! search reads it when a search or an iteration starts; a search thread copies the
//! few fields it reads at every node (the parameters, the features switched off)
//! into itself, so no node looks through it. The engine's other options (the table
//! size, pondering, the WDL display, the three inputs of the skill level) are the
//! engine's own state and never reach the search.

use super::params::SearchParams;
use crate::eval::nnue::{self, Net};
use crate::rules::Variant;

/// How the engine searches, kept between searches (see the module text).
#[derive(Clone, Debug)]
pub struct Settings {
    /// The evaluation (the `EvalFile` option).
    pub eval: EvalChoice,
    /// The search's parameters (the `SearchParams` option and one option a
    /// parameter): the values the user set where `params_set` marks them; a search
    /// uses the variant's own values (`searchParams` in variants.ini) for the others
    /// ([`Settings::for_variant`]).
    pub params: SearchParams,
    /// Which of `params` the user set (bit `i` for `SearchParams::TABLE[i]`).
    pub params_set: u64,
    /// Search features switched off, for measuring what each one gains (the
    /// `Ablation` option; bits of [`Feature`]).
    pub disabled: u32,
    /// Play at this skill level (0 to 20, see [`super::skill`]; from `Skill Level`, or
    /// `UCI_LimitStrength` with `UCI_Elo`); `None`: full strength.
    pub skill: Option<f64>,
    /// Safety margin subtracted from the clock (ms; the `Move Overhead` option).
    pub move_overhead: u64,
    /// Lines searched and reported (the `MultiPV` option), at least 1.
    pub multipv: usize,
    /// Search threads (the `Threads` option), at least 1.
    pub threads: usize,
}

impl Default for Settings {
    /// The options' defaults: the build's evaluation, the tuned parameters, every
    /// feature on, full strength, 10 ms overhead, one line, one thread.
    fn default() -> Settings {
        Settings {
            eval: EvalChoice::default(),
            params: SearchParams::default(),
            params_set: 0,
            disabled: 0,
            skill: None,
            move_overhead: 10,
            multipv: 1,
            threads: 1,
        }
    }
}

impl Settings {
    /// Sets one search parameter as the user's choice, kept in every variant.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.params.set(name, value)?;
        self.params_set |= SearchParams::bit(name);
        Ok(())
    }

    /// Applies a list of search parameters as the user's choice (`default` in it
    /// gives every parameter back to the variant); all or nothing.
    pub fn apply_params(&mut self, list: &str) -> Result<(), String> {
        self.params.apply_marking(list, &mut self.params_set)
    }

    /// The parameters a search of variant `v` uses: the defaults, the variant's own
    /// (its `searchParams`, checked when the variants were read: a bad list is left
    /// out), then those the user set.
    pub fn params_for(&self, v: &Variant) -> SearchParams {
        let mut base = SearchParams::default();
        // A bad list changes nothing (and was refused when the variants were read).
        let _ = base.apply(&v.search_params);
        self.params.over(self.params_set, &base)
    }

    /// These settings with the parameters of variant `v` ([`Settings::params_for`]).
    pub fn for_variant(&self, v: &Variant) -> Settings {
        Settings {
            params: self.params_for(v),
            params_set: u64::MAX,
            ..self.clone()
        }
    }
}

/// Which evaluation the search uses.
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The build's network where it has one for the variant, else the hand-made one.
    #[default]
    Builtin,
    /// The hand-made evaluation alone.
    Hand,
    /// This network where it covers the variant, else the build's network for it.
    Net(std::sync::Arc<Net>),
}

impl EvalChoice {
    /// The network used for variant `v`, if any.
    pub fn net_for(&self, v: &Variant) -> Option<&Net> {
        match self {
            EvalChoice::Builtin => nnue::builtin(v),
            EvalChoice::Hand => None,
            EvalChoice::Net(n) if n.covers(v) => Some(&**n),
            EvalChoice::Net(_) => nnue::builtin(v),
        }
    }
}

/// Search features that can be switched off for self-play measurements (the
/// `Ablation` option; docs/uci.md, "Ablation"). Each is one bit of
/// [`Settings::disabled`]; `Pruning` switches off every pruning at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    NullMove = 1,
    Lmr = 1 << 1,
    /// Every pruning: razoring, reverse futility, ProbCut, late-move, history,
    /// futility and SEE pruning.
    Pruning = 1 << 2,
    Aspiration = 1 << 3,
    /// Reverse futility pruning.
    Rfp = 1 << 4,
    /// Futility pruning of quiet moves (eval plus a margin below alpha).
    Futility = 1 << 5,
    /// Late-move pruning: quiet moves past a count at low depth.
    Lmp = 1 << 6,
    /// Quiet moves with a bad history at low depth.
    HistoryPruning = 1 << 7,
    /// Moves that lose material by SEE at low depth.
    SeePruning = 1 << 8,
    Razoring = 1 << 9,
    ProbCut = 1 << 10,
    /// Singular extension, with multi-cut and the negative extension.
    Singular = 1 << 11,
    /// The extension of checks that do not lose material.
    CheckExtension = 1 << 12,
    /// Internal iterative reduction.
    Iir = 1 << 13,
    /// Correction history of the static evaluation.
    Correction = 1 << 14,
    /// Mate-distance pruning.
    MateDistance = 1 << 15,
    /// Cutoffs on the table's score.
    TtCutoff = 1 << 16,
    /// Quiescence's skipping of captures that lose material.
    QsearchSee = 1 << 17,
    /// Quiescence's checking drops (drop variants).
    QsearchDrops = 1 << 18,
    /// Killer moves in move ordering.
    Killers = 1 << 19,
    /// The counter move in move ordering.
    CounterMove = 1 << 20,
    /// Quiet-move histories (history, continuation) in move ordering.
    History = 1 << 21,
    /// The correction history keyed by each side's pieces other than pawns.
    PieceCorrection = 1 << 22,
}

impl Feature {
    /// Every feature with its name, in the order the error message lists them.
    pub const ALL: &'static [(&'static str, Feature)] = &[
        ("null", Feature::NullMove),
        ("lmr", Feature::Lmr),
        ("pruning", Feature::Pruning),
        ("aspiration", Feature::Aspiration),
        ("rfp", Feature::Rfp),
        ("futility", Feature::Futility),
        ("lmp", Feature::Lmp),
        ("histprune", Feature::HistoryPruning),
        ("see", Feature::SeePruning),
        ("razoring", Feature::Razoring),
        ("probcut", Feature::ProbCut),
        ("singular", Feature::Singular),
        ("checkext", Feature::CheckExtension),
        ("iir", Feature::Iir),
        ("correction", Feature::Correction),
        ("matedistance", Feature::MateDistance),
        ("ttcut", Feature::TtCutoff),
        ("qsee", Feature::QsearchSee),
        ("qdrops", Feature::QsearchDrops),
        ("killers", Feature::Killers),
        ("countermove", Feature::CounterMove),
        ("history", Feature::History),
        ("piececorr", Feature::PieceCorrection),
    ];

    /// Parses a comma list such as `null,lmr` into bits; an unknown name is an error
    /// that lists the names.
    pub fn parse_list(s: &str) -> Result<u32, String> {
        let mut bits = 0;
        for t in s
            .split([',', ' '])
            .filter(|t| !t.is_empty() && *t != "<empty>" && *t != "none")
        {
            let f = Feature::ALL.iter().find(|(n, _)| *n == t).ok_or_else(|| {
                let names: Vec<&str> = Feature::ALL.iter().map(|(n, _)| *n).collect();
                format!("unknown search feature '{t}' ({})", names.join(", "))
            })?;
            bits |= f.1 as u32;
        }
        Ok(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variants;

    #[test]
    fn the_variants_parameters_under_the_users() {
        let mut v = Variants::builtin().get("chess").unwrap().clone();
        v.search_params = "lmr_base=150 rfp_margin=60".to_string();
        let mut s = Settings::default();
        let p = s.params_for(&v);
        assert_eq!((p.lmr_base, p.rfp_margin, p.razor_base), (150, 60, 250));
        // The user's value wins, even when it is the default.
        s.set_param("RFP_margin", "80").unwrap();
        s.apply_params("razor_base=300").unwrap();
        let p = s.params_for(&v);
        assert_eq!((p.lmr_base, p.rfp_margin, p.razor_base), (150, 80, 300));
        assert_eq!(s.for_variant(&v).params, p);
        // A refused list changes neither values nor marks.
        assert!(s.apply_params("lmr_base=1 nosuch=2").is_err());
        assert_eq!(s.params_for(&v), p);
        s.apply_params("default").unwrap();
        assert_eq!(s.params_for(&v).rfp_margin, 60);
        // A bad list in the variant leaves the defaults.
        v.search_params = "rfp_margin=x".to_string();
        assert_eq!(s.params_for(&v), SearchParams::default());
    }

    #[test]
    fn every_feature_name_parses_to_its_own_bit() {
        let mut all = 0;
        for &(name, f) in Feature::ALL {
            let bits = Feature::parse_list(name).unwrap();
            assert_eq!(bits, f as u32, "{name}");
            assert_eq!(all & bits, 0, "{name} shares a bit");
            all |= bits;
        }
        assert_eq!(Feature::parse_list("null, lmr").unwrap(), 3);
        assert_eq!(Feature::parse_list("none").unwrap(), 0);
        let e = Feature::parse_list("nul").unwrap_err();
        assert!(
            e.contains("'nul'") && e.contains("probcut, singular"),
            "{e}"
        );
    }
}
