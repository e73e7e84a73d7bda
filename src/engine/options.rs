//! The engine's options in one table: UCI lists and sets them (`option`,
//! `setoption`), XBoard announces and sets those it has no command of its own for
//! (`feature option`, `option NAME=VALUE`), and the command line sets any of them
//! (`--option NAME=VALUE`) and lists them (`lancer options`). An option added here
//! appears everywhere. Each row parses its text and calls the engine's typed setter
//! or sets its field, so an option is set in one place, once, when it changes: the
//! search's options go into the engine's [`crate::search::Settings`].

use super::{Engine, DEFAULT_HASH, MAX_HASH, MAX_MOVE_OVERHEAD, MAX_MULTIPV, MAX_THREADS};
use crate::search::{skill, EvalChoice, SearchParams};

/// An option's type, default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A switch.
    Check { default: bool },
    /// A whole number in `min..=max` (values outside are clamped).
    Spin { default: i64, min: i64, max: i64 },
    /// One of the loaded variants' names.
    Variant { default: &'static str },
    /// Free text (`<empty>` when unset).
    Text,
    /// An action without a value.
    Button,
}

/// Who shows an option to the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// UCI, XBoard and the command line.
    Everywhere,
    /// UCI and the command line; XBoard sets it with a command of its own (`memory`,
    /// `cores`, `hard`), but `option NAME=VALUE` is accepted too (match tools send it).
    XboardCommand,
    /// UCI and the command line only: UCI's own options (`UCI_...`, `VariantPath`);
    /// XBoard chooses the variant with `variant`.
    UciOnly,
}

/// One row of the table.
pub struct EngineOption {
    /// The name as the protocols write it (matched without regard to case).
    pub name: &'static str,
    pub kind: OptionKind,
    pub shown: Shown,
    set: fn(&mut Engine, Option<&str>) -> Result<(), String>,
}

impl EngineOption {
    /// Whether XBoard's `option NAME=VALUE` may set it.
    pub fn xboard_settable(&self) -> bool {
        self.shown != Shown::UciOnly
    }

    /// Sets the option on `engine` (`None` for a button or a missing value).
    pub fn set(&self, engine: &mut Engine, value: Option<&str>) -> Result<(), String> {
        (self.set)(engine, value)
    }

    /// The XBoard `feature option="..."` text (CECP v2), or `None` when not shown there.
    pub fn xboard_feature(&self) -> Option<String> {
        if self.shown != Shown::Everywhere {
            return None;
        }
        let n = self.name;
        Some(match self.kind {
            OptionKind::Check { default } => format!("{n} -check {}", default as u8),
            OptionKind::Spin { default, min, max } => format!("{n} -spin {default} {min} {max}"),
            OptionKind::Variant { default } => format!("{n} -string {default}"),
            OptionKind::Text => format!("{n} -string "),
            OptionKind::Button => format!("{n} -button"),
        })
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Some(true),
        "false" | "off" | "0" => Some(false),
        _ => None,
    }
}

fn number(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let v = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
    let n: i64 = v
        .trim()
        .parse()
        .map_err(|_| format!("option '{name}': '{v}' is not a number"))?;
    Ok(n.clamp(min, max))
}

fn switch(name: &str, value: Option<&str>) -> Result<bool, String> {
    value
        .and_then(parse_bool)
        .ok_or_else(|| format!("{name} needs true or false"))
}

/// Every option, in the order UCI lists them.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "UCI_Variant",
        kind: OptionKind::Variant { default: "chess" },
        shown: Shown::UciOnly,
        set: |e, v| match v {
            Some(v) => e.set_variant(v.trim()),
            None => Err("UCI_Variant needs a value".into()),
        },
    },
    EngineOption {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
        shown: Shown::UciOnly,
        set: |e, v| switch("UCI_Chess960", v).map(|b| e.set_chess960(b)),
    },
    EngineOption {
        name: "VariantPath",
        kind: OptionKind::Text,
        shown: Shown::UciOnly,
        set: |e, v| match v.map(str::trim) {
            None | Some("") | Some("<empty>") => Ok(()),
            Some(p) => e.load_variant_file(p),
        },
    },
    EngineOption {
        name: "Hash",
        kind: OptionKind::Spin {
            default: DEFAULT_HASH as i64,
            min: 1,
            max: MAX_HASH as i64,
        },
        shown: Shown::XboardCommand,
        set: |e, v| e.set_hash(number("Hash", v, 1, MAX_HASH as i64)? as usize),
    },
    EngineOption {
        name: "Clear Hash",
        kind: OptionKind::Button,
        shown: Shown::Everywhere,
        set: |e, _| e.clear_hash(),
    },
    EngineOption {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
        shown: Shown::XboardCommand,
        set: |e, v| {
            e.set_threads(number("Threads", v, 1, MAX_THREADS as i64)? as usize);
            Ok(())
        },
    },
    EngineOption {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
        shown: Shown::Everywhere,
        set: |e, v| {
            e.set_multipv(number("MultiPV", v, 1, MAX_MULTIPV as i64)? as usize);
            Ok(())
        },
    },
    EngineOption {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: MAX_MOVE_OVERHEAD as i64,
        },
        shown: Shown::Everywhere,
        set: |e, v| {
            e.set_move_overhead(number("Move Overhead", v, 0, MAX_MOVE_OVERHEAD as i64)? as u64);
            Ok(())
        },
    },
    EngineOption {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
        shown: Shown::XboardCommand,
        set: |e, v| {
            e.ponder = switch("Ponder", v)?;
            Ok(())
        },
    },
    // GUIs send it before analysing; the search is the same either way, so the value
    // is only kept (an error line here would alarm the GUI's user).
    EngineOption {
        name: "UCI_AnalyseMode",
        kind: OptionKind::Check { default: false },
        shown: Shown::UciOnly,
        set: |e, v| {
            e.analyse_mode = switch("UCI_AnalyseMode", v)?;
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false },
        shown: Shown::UciOnly,
        set: |e, v| {
            e.show_wdl = switch("UCI_ShowWDL", v)?;
            Ok(())
        },
    },
    EngineOption {
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: skill::FULL as i64,
            min: 0,
            max: skill::FULL as i64,
        },
        shown: Shown::Everywhere,
        set: |e, v| {
            e.skill_level = number("Skill Level", v, 0, skill::FULL as i64)?;
            e.update_skill();
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
        shown: Shown::UciOnly,
        set: |e, v| {
            e.limit_strength = switch("UCI_LimitStrength", v)?;
            e.update_skill();
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: skill::MIN_ELO,
            min: skill::MIN_ELO,
            max: skill::MAX_ELO,
        },
        shown: Shown::UciOnly,
        set: |e, v| {
            e.elo = number("UCI_Elo", v, skill::MIN_ELO, skill::MAX_ELO)?;
            e.update_skill();
            Ok(())
        },
    },
    EngineOption {
        name: "EvalFile",
        kind: OptionKind::Text,
        shown: Shown::Everywhere,
        set: |e, v| {
            e.settings.eval = match v.map(str::trim) {
                None | Some("") | Some("<empty>") => EvalChoice::Builtin,
                Some(p) if p.eq_ignore_ascii_case("none") => EvalChoice::Hand,
                Some(p) => {
                    let net = crate::eval::nnue::load(p).map_err(|e| format!("EvalFile {e}"))?;
                    // Options may come before the variant: a network is refused only
                    // when it can judge none of the variants.
                    if !e.variants().all().iter().any(|v| net.covers(v)) {
                        return Err(format!(
                            "EvalFile {p}: the network ({}x{} board, {} input groups) fits none of the variants",
                            net.layout.width,
                            net.layout.height,
                            net.layout.groups.len()
                        ));
                    }
                    EvalChoice::Net(std::sync::Arc::new(net))
                }
            };
            Ok(())
        },
    },
    EngineOption {
        name: "Ablation",
        kind: OptionKind::Text,
        shown: Shown::Everywhere,
        set: |e, v| e.set_ablation(v.unwrap_or("")),
    },
    // One option for the whole table, so that GUIs do not list forty spins; each
    // parameter is also an option of its own name (unlisted), as SPSA tuners set them.
    EngineOption {
        name: "SearchParams",
        kind: OptionKind::Text,
        shown: Shown::Everywhere,
        set: |e, v| e.settings.apply_params(v.unwrap_or("")),
    },
];

/// Whether XBoard's `option NAME=VALUE` may set `name` (any letter case): an option
/// XBoard may set, or a search parameter.
pub fn xboard_settable(name: &str) -> bool {
    find(name).is_some_and(|o| o.xboard_settable()) || SearchParams::info(name).is_some()
}

/// The option of that name (any letter case).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

impl Engine {
    /// Sets the option `name` (any letter case) from its text value; the name of a
    /// search parameter sets that parameter.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        if let Some(o) = find(name) {
            return o.set(self, value);
        }
        if SearchParams::info(name).is_some() {
            let v =
                value.ok_or_else(|| format!("search parameter '{}' needs a value", name.trim()))?;
            return self.settings.set_param(name, v);
        }
        Err(format!("unknown option '{}'", name.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_takes_its_default_and_names_are_unique() {
        let mut e = Engine::new();
        for (i, o) in OPTIONS.iter().enumerate() {
            assert!(
                OPTIONS[..i]
                    .iter()
                    .all(|p| !p.name.eq_ignore_ascii_case(o.name)),
                "{} twice",
                o.name
            );
            let value = match o.kind {
                OptionKind::Check { default } => Some(default.to_string()),
                OptionKind::Spin { default, .. } => Some(default.to_string()),
                OptionKind::Variant { default } => Some(default.to_string()),
                OptionKind::Text => Some(String::new()),
                OptionKind::Button => None,
            };
            e.set_option(&o.name.to_ascii_lowercase(), value.as_deref())
                .unwrap_or_else(|err| panic!("{}: {err}", o.name));
            assert_eq!(
                o.xboard_feature().is_some(),
                o.shown == Shown::Everywhere,
                "{}",
                o.name
            );
        }
        assert!(e.set_option("No Such Option", Some("1")).is_err());
        assert!(e.set_option("Threads", Some("x")).is_err());
        e.set_option("Threads", Some("100000")).unwrap();
        assert_eq!(e.settings().threads, MAX_THREADS);
    }
}
