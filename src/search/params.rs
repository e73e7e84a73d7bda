//! The search's margins, depths and reductions, and the share of the clock a move
//! is given, as named parameters: one table of name, default and range, read by the
//! search through [`SearchParams`]. The `SearchParams` option sets them
//! (`name=value ...`), and so does each name as an option of its own, as SPSA tuners
//! send them; `lancer params` lists them (docs/uci.md, "Search parameters").

/// One parameter: its name, default, range and what it sets.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub what: &'static str,
}

/// Declares the parameters once: the struct the search reads, its defaults, and the
/// table of names and ranges.
macro_rules! search_params {
    ($( #[doc = $what:literal] $field:ident = $default:literal, $min:literal ..= $max:literal; )*) => {
        /// The values of the search's parameters (defaults: [`SearchParams::default`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( #[doc = $what] pub $field: i32, )*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $( $field: $default, )* }
            }
        }

        impl SearchParams {
            /// Every parameter, in the order `lancer params` lists them.
            pub const TABLE: &'static [ParamInfo] = &[
                $( ParamInfo {
                    name: stringify!($field),
                    default: $default,
                    min: $min,
                    max: $max,
                    what: $what,
                }, )*
            ];

            /// The value of the parameter `name` (as the table spells it).
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( stringify!($field) => Some(&mut self.$field), )*
                    _ => None,
                }
            }

            /// The value of the parameter `name` (any letter case).
            pub fn get(&self, name: &str) -> Option<i32> {
                let info = Self::info(name)?;
                match info.name {
                    $( stringify!($field) => Some(self.$field), )*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    /// Razoring: the deepest depth it applies at.
    razor_depth = 3, 0..=10;
    /// Razoring: the margin below alpha, fixed part.
    razor_base = 250, 0..=2000;
    /// Razoring: the margin below alpha per depth squared.
    razor_depth2 = 200, 0..=1000;
    /// Reverse futility pruning: the deepest depth it applies at.
    rfp_depth = 7, 0..=16;
    /// Reverse futility pruning: the margin above beta per depth.
    rfp_margin = 80, 0..=500;
    /// Reverse futility pruning: how much less margin an improving position needs.
    rfp_improving = 30, 0..=300;
    /// Null move: the shallowest depth it is tried at.
    nmp_depth = 3, 1..=10;
    /// Null move: the reduction, fixed part.
    nmp_base = 3, 1..=8;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_div = 4, 1..=16;
    /// Null move: one more ply of reduction per this many centipawns above beta.
    nmp_eval_div = 200, 1..=2000;
    /// Null move: the most plies the margin above beta adds.
    nmp_eval_max = 3, 0..=8;
    /// ProbCut: the shallowest depth it is tried at.
    probcut_depth = 5, 2..=20;
    /// ProbCut: the margin above beta.
    probcut_margin = 200, 0..=1000;
    /// ProbCut: how much less margin an improving position needs.
    probcut_improving = 50, 0..=500;
    /// ProbCut: the reduction of the verifying search.
    probcut_reduction = 4, 1..=10;
    /// Internal iterative reduction: the shallowest depth it applies at.
    iir_depth = 6, 1..=20;
    /// Late-move pruning: the deepest depth it applies at.
    lmp_depth = 6, 0..=16;
    /// Late-move pruning: quiet moves always tried (more by depth squared).
    lmp_base = 3, 0..=20;
    /// History pruning: the deepest depth it applies at.
    hist_prune_depth = 4, 0..=16;
    /// History pruning: the history below which a quiet move is pruned, per depth.
    hist_prune_margin = 2500, 0..=16384;
    /// Futility and SEE pruning of quiet moves: history per ply of predicted depth.
    prune_hist_div = 8192, 1..=65536;
    /// Futility pruning: the deepest predicted depth it applies at.
    futility_depth = 6, 0..=16;
    /// Futility pruning: the margin above the eval, fixed part.
    futility_base = 100, 0..=1000;
    /// Futility pruning: the margin above the eval per ply of predicted depth.
    futility_margin = 90, 0..=500;
    /// SEE pruning of captures, promotions and checks: the deepest depth.
    see_noisy_depth = 8, 0..=20;
    /// SEE pruning of captures, promotions and checks: material lost allowed per depth.
    see_noisy_margin = 120, 0..=1000;
    /// SEE pruning of quiet moves: the deepest predicted depth.
    see_quiet_depth = 8, 0..=20;
    /// SEE pruning of quiet moves: material lost allowed per predicted depth squared.
    see_quiet_margin = 30, 0..=300;
    /// Singular extension: the shallowest depth it is tried at.
    singular_depth = 8, 1..=20;
    /// Singular extension: how much shallower than the node the table entry may be.
    singular_tt_depth = 3, 0..=10;
    /// Singular extension: the margin below the table score per depth.
    singular_margin = 2, 0..=20;
    /// Singular extension: plies less for a table move that is not singular and whose score is at least beta.
    singular_neg_beta = 1, 0..=3;
    /// Late-move reductions: the table's fixed part, in hundredths of a ply.
    lmr_base = 75, 0..=300;
    /// Late-move reductions: the divisor of ln(depth) * ln(move number), in hundredths.
    lmr_div = 225, 50..=1000;
    /// Late-move reductions: the shallowest depth they apply at.
    lmr_depth = 3, 1..=10;
    /// Late-move reductions: the moves searched in full before them.
    lmr_moves = 2, 1..=10;
    /// Late-move reductions: one ply less per this much history.
    lmr_hist_div = 12000, 1..=65536;
    /// Late-move reductions: 1 reduces checks and moves out of check too (a check less).
    lmr_check = 0, 0..=1;
    /// Late-move reductions: 1 reduces late captures and promotions too (one ply less).
    lmr_noisy = 0, 0..=1;
    /// Aspiration windows: the shallowest iteration they are used at.
    asp_depth = 5, 1..=20;
    /// Aspiration windows: the first half-width.
    asp_delta = 30, 1..=500;
    /// History bonus of a cutoff: per depth.
    hist_bonus_mul = 170, 0..=1000;
    /// History bonus of a cutoff: subtracted.
    hist_bonus_sub = 100, 0..=1000;
    /// History bonus of a cutoff: the largest.
    hist_bonus_max = 1700, 0..=16384;
    /// Time: the share of the clock a move is given, in percent of the usual budget.
    time_percent = 100, 25..=300;
}

// A set of parameters is marked in a u64 (`apply_marking`).
const _: () = assert!(SearchParams::TABLE.len() <= 64);

impl SearchParams {
    /// The table row of `name` (any letter case).
    pub fn info(name: &str) -> Option<&'static ParamInfo> {
        Self::TABLE
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Sets one parameter; an unknown name or a value that is not a whole number in
    /// the parameter's range is an error and changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let info = Self::info(name).ok_or_else(|| {
            format!(
                "unknown search parameter '{}' (see 'lancer params')",
                name.trim()
            )
        })?;
        let v: i32 = value.trim().parse().map_err(|_| {
            format!(
                "search parameter {}: '{value}' is not a whole number",
                info.name
            )
        })?;
        if !(info.min..=info.max).contains(&v) {
            return Err(format!(
                "search parameter {}: {v} is outside {}..{}",
                info.name, info.min, info.max
            ));
        }
        if let Some(slot) = self.slot(info.name) {
            *slot = v;
        }
        Ok(())
    }

    /// Applies a list such as `razor_base=300 rfp_margin=70` (spaces or commas
    /// between; `default` first puts every parameter back to its default). Nothing
    /// changes unless the whole list is valid; an empty list changes nothing.
    pub fn apply(&mut self, list: &str) -> Result<(), String> {
        self.apply_marking(list, &mut 0)
    }

    /// [`Self::apply`], also marking in `set` the parameters the list set (bit `i`
    /// for `TABLE[i]`; `default` clears the marks before it).
    pub fn apply_marking(&mut self, list: &str, set: &mut u64) -> Result<(), String> {
        let mut new = *self;
        let mut marks = *set;
        for item in list
            .split([' ', ','])
            .filter(|t| !t.is_empty() && *t != "<empty>")
        {
            if item.eq_ignore_ascii_case("default") {
                new = SearchParams::default();
                marks = 0;
                continue;
            }
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("search parameters: '{item}' is not name=value"))?;
            new.set(name, value)?;
            marks |= Self::bit(name);
        }
        *self = new;
        *set = marks;
        Ok(())
    }

    /// The mark of parameter `name` in a set of marks (0 for an unknown name).
    pub fn bit(name: &str) -> u64 {
        Self::TABLE
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name.trim()))
            .map_or(0, |i| 1 << i)
    }

    /// These values where `set` marks them, the values of `base` elsewhere.
    pub fn over(&self, set: u64, base: &SearchParams) -> SearchParams {
        let mut out = *base;
        for (i, p) in Self::TABLE.iter().enumerate() {
            if set & (1 << i) != 0 {
                if let (Some(v), Some(slot)) = (self.get(p.name), out.slot(p.name)) {
                    *slot = v;
                }
            }
        }
        out
    }

    /// The late-move reduction table: plies of reduction by depth and move number.
    pub fn lmr_table(&self) -> Box<[[u8; 64]; 64]> {
        let base = f64::from(self.lmr_base) / 100.0;
        let div = f64::from(self.lmr_div) / 100.0;
        // Each search thread makes its table at every `go`: 64 logarithms, not 8,000.
        let ln: [f64; 64] = std::array::from_fn(|i| (i as f64).ln());
        let mut t = Box::new([[0u8; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + ln[d] * ln[m] / div) as u8;
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_the_defaults_and_names_are_unique() {
        let d = SearchParams::default();
        for (i, p) in SearchParams::TABLE.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert_eq!(d.get(p.name), Some(p.default), "{}", p.name);
            assert!(
                SearchParams::TABLE[..i].iter().all(|q| q.name != p.name),
                "{} twice",
                p.name
            );
            let mut s = d;
            s.set(p.name, &p.max.to_string()).unwrap();
            assert_eq!(s.get(&p.name.to_ascii_uppercase()), Some(p.max));
        }
    }

    #[test]
    fn a_bad_list_changes_nothing() {
        let mut s = SearchParams::default();
        s.apply("razor_base=300, rfp_margin=70").unwrap();
        assert_eq!((s.razor_base, s.rfp_margin), (300, 70));
        let before = s;
        for bad in [
            "razor_base=301 nosuch=1",
            "razor_base=301 rfp_margin=100000",
            "razor_base=301 rfp_margin=x",
            "razor_base=301 rfp_margin",
        ] {
            let e = s.apply(bad).unwrap_err();
            assert!(!e.is_empty());
            assert_eq!(s, before, "{bad}");
        }
        s.apply("").unwrap();
        assert_eq!(s, before);
        s.apply("default lmr_div=200").unwrap();
        assert_eq!(
            s,
            SearchParams {
                lmr_div: 200,
                ..SearchParams::default()
            }
        );
    }

    #[test]
    fn the_default_lmr_table_is_the_hand_set_formula() {
        let t = SearchParams::default().lmr_table();
        assert_eq!(t[0][5], 0);
        assert_eq!(t[1][1], 0);
        // 0.75 + ln 10 ln 20 / 2.25 = 3.82
        assert_eq!(t[10][20], 3);
        assert_eq!(t[63][63], (0.75 + 63f64.ln() * 63f64.ln() / 2.25) as u8);
    }
}
