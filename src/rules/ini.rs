//! `variants.ini`: the variants as data. The built-in file is embedded in the binary;
//! a user file is merged over it key by key (a section of the same name overrides
//! the keys it names, a new section adds a variant).
//!
//! Format: `[name]` or `[name : parent]` starts a section (a child starts with all
//! of its parent's keys), `key = value` lines, `#` or `;` comments.

use super::bitboard::*;
use super::piece::*;
use super::position::Position;
use super::variant::*;
use std::collections::HashMap;
use std::fmt;

/// The built-in variants file.
pub const BUILTIN_INI: &str = include_str!("../../variants.ini");

/// An error in a variants file: `file:line: what`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniError {
    /// File name as given.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub msg: String,
}

impl fmt::Display for IniError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.msg)
    }
}

impl std::error::Error for IniError {}

/// A `key = value` line of an INI file.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The value, trimmed.
    pub value: String,
    /// File name as given.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
}

/// A `[name]` or `[name : parent]` section of an INI file with its lines in order.
#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub parent: Option<String>,
    pub file: String,
    pub line: usize,
    pub keys: Vec<(String, Entry)>,
}

const KEYS: &[&str] = &[
    "board",
    "holes",
    "pieces",
    "start",
    "castling",
    "castlingPartners",
    "promotion",
    "promotionLimit",
    "drops",
    "demote",
    "goal",
    "nMoveRule",
    "nMoveRuleResetOnPawnMove",
    "enPassant",
    "doubleStep",
    "lancerMayFaceEdge",
    "passWhenHeld",
    "mobilityRule",
    "kingCapturesOwnBearer",
    "insufficientMaterial",
    "xboardName",
    "xboardSetup",
    "xboardParent",
    "xboardPieces",
    "xboardShuffles",
    "smallBoardValues",
    "chess960Variant",
    "wdlModel",
    "searchParams",
    "network",
    "weights",
];

/// Reads the sections of an INI file (the format above; `variants.ini` and the
/// evaluation's `weights.ini` share it). With `known`, a key not in it is an error.
pub fn read_sections(
    text: &str,
    file: &str,
    known: Option<&[&str]>,
) -> Result<Vec<Section>, IniError> {
    let mut out: Vec<Section> = Vec::new();
    let err = |line: usize, msg: String| IniError {
        file: file.to_string(),
        line,
        msg,
    };
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let line = match raw.find(['#', ';']) {
            Some(p) => &raw[..p],
            None => raw,
        }
        .trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let inner = rest
                .strip_suffix(']')
                .ok_or_else(|| err(ln, format!("section header without ']': {line}")))?;
            let (name, parent) = match inner.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim().to_string())),
                None => (inner.trim(), None),
            };
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return Err(err(
                    ln,
                    format!("bad section name '{name}' (letters, digits, '_', '-')"),
                ));
            }
            if out.iter().any(|s| s.name == name) {
                return Err(err(ln, format!("section [{name}] appears twice")));
            }
            out.push(Section {
                name: name.to_string(),
                parent,
                file: file.to_string(),
                line: ln,
                keys: Vec::new(),
            });
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| err(ln, format!("expected 'key = value', got '{line}'")))?;
        let k = k.trim();
        if known.is_some_and(|ks| !ks.contains(&k)) {
            return Err(err(ln, format!("unknown key '{k}'")));
        }
        let sec = out
            .last_mut()
            .ok_or_else(|| err(ln, "key outside of any [section]".to_string()))?;
        sec.keys.push((
            k.to_string(),
            Entry {
                value: v.trim().to_string(),
                file: file.to_string(),
                line: ln,
            },
        ));
    }
    Ok(out)
}

fn parse_bool(e: &Entry, key: &str) -> Result<bool, IniError> {
    match e.value.as_str() {
        "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        v => Err(e.err(format!("{key}: expected true or false, got '{v}'"))),
    }
}

impl Entry {
    fn err(&self, msg: String) -> IniError {
        IniError {
            file: self.file.clone(),
            line: self.line,
            msg,
        }
    }
}

fn parse_kind(e: &Entry, key: &str, s: &str) -> Result<Kind, IniError> {
    Kind::from_ini_name(s).ok_or_else(|| e.err(format!("{key}: unknown piece kind '{s}'")))
}

/// The variant of section `name` with its `keys` (inherited ones included).
fn build_variant(
    name: &str,
    keys: &HashMap<String, Entry>,
    head: &Section,
) -> Result<Variant, IniError> {
    let head_err = |msg: String| IniError {
        file: head.file.clone(),
        line: head.line,
        msg,
    };
    let mut v = defaults(name);
    read_board(&mut v, keys)?;
    let e = keys
        .get("pieces")
        .ok_or_else(|| head_err(format!("[{name}] has no 'pieces'")))?;
    read_pieces(&mut v, e)?;
    read_moves(&mut v, keys)?;
    read_goal_and_switches(&mut v, keys)?;
    read_protocol_and_eval(&mut v, keys)?;
    let e = keys
        .get("start")
        .ok_or_else(|| head_err(format!("[{name}] has no 'start'")))?;
    read_start(&mut v, e)?;
    Ok(v)
}

/// A variant named `name` with every key at its default, before its keys are read.
fn defaults(name: &str) -> Variant {
    Variant {
        name: name.to_string(),
        xboard_name: name.to_string(),
        xboard_setup: None,
        xboard_parent: "fairy".to_string(),
        xboard_pieces: Vec::new(),
        xboard_shuffles: false,
        small_board_values: false,
        chess960_variant: None,
        wdl_model: None,
        search_params: String::new(),
        network: None,
        weights: None,
        width: 8,
        height: 8,
        mask: 0,
        letters: ['\0'; NKINDS],
        kinds: 0,
        start: Start::Fen(String::new()),
        castling: Castling::None,
        castling_partners: 1 << Kind::Rook as u32,
        promotions: Vec::new(),
        limits: [255; NKINDS],
        drops: false,
        demote: ALL_KINDS,
        goal: Goal::Checkmate,
        n_move_rule: 100,
        n_move_reset_on_pawn: true,
        double_step: true,
        en_passant: true,
        lancer_may_face_edge: false,
        pass_when_held: false,
        mobility_rule: false,
        king_captures_own_bearer: false,
        insufficient_material: false,
        facing_ok: [0; 64],
        simple: false,
        start_phase: 0,
    }
}

/// `board` and `holes`: the board's size and its real squares.
fn read_board(v: &mut Variant, keys: &HashMap<String, Entry>) -> Result<(), IniError> {
    if let Some(e) = keys.get("board") {
        let (w, h) = e
            .value
            .split_once('x')
            .and_then(|(w, h)| Some((w.trim().parse::<u8>().ok()?, h.trim().parse::<u8>().ok()?)))
            .ok_or_else(|| e.err(format!("board: expected WxH, got '{}'", e.value)))?;
        if !(2..=8).contains(&w) || !(3..=8).contains(&h) {
            return Err(e.err(format!(
                "board: {w}x{h} does not fit 2..8 files x 3..8 ranks"
            )));
        }
        v.width = w;
        v.height = h;
    }
    for r in 0..v.height {
        for f in 0..v.width {
            v.mask |= bb(square(f, r));
        }
    }
    if let Some(e) = keys.get("holes") {
        for t in e.value.split_whitespace() {
            let sq = parse_square(t)
                .filter(|&s| v.mask & bb(s) != 0)
                .ok_or_else(|| e.err(format!("holes: '{t}' is not a square of the board")))?;
            v.mask &= !bb(sq);
        }
    }
    Ok(())
}

/// `pieces` (entry `e`): the kinds of the variant and their letters.
fn read_pieces(v: &mut Variant, e: &Entry) -> Result<(), IniError> {
    for t in e.value.split_whitespace() {
        let (l, k) = t
            .split_once(':')
            .ok_or_else(|| e.err(format!("pieces: expected LETTER:kind, got '{t}'")))?;
        let mut lc = l.chars();
        let letter = match (lc.next(), lc.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => return Err(e.err(format!("pieces: '{l}' is not a single letter"))),
        };
        let kind = parse_kind(e, "pieces", k)?;
        if v.letters.contains(&letter) {
            return Err(e.err(format!("pieces: letter {letter} used twice")));
        }
        if v.has(kind) {
            return Err(e.err(format!("pieces: kind {k} given twice")));
        }
        v.letters[kind.idx()] = letter;
        v.kinds |= 1 << kind as u32;
    }
    if !v.has(Kind::King) {
        return Err(e.err("pieces: a variant needs a king".to_string()));
    }
    Ok(())
}

/// The keys of the moves: castling, promotion, drops and demotion.
fn read_moves(v: &mut Variant, keys: &HashMap<String, Entry>) -> Result<(), IniError> {
    if let Some(e) = keys.get("castling") {
        v.castling = match e.value.as_str() {
            "none" => Castling::None,
            "standard" => Castling::Standard,
            "960" | "chess960" => Castling::Chess960,
            x => {
                return Err(e.err(format!(
                    "castling: expected none, standard or 960, got '{x}'"
                )))
            }
        };
        if v.castling != Castling::None && v.width != 8 {
            return Err(e.err("castling: only 8-file boards can castle".to_string()));
        }
    }
    if let Some(e) = keys.get("castlingPartners") {
        v.castling_partners = 0;
        for t in e.value.split_whitespace() {
            let k = parse_kind(e, "castlingPartners", t)?;
            if !v.has(k) || matches!(k, Kind::King | Kind::Pawn) {
                return Err(e.err(format!(
                    "castlingPartners: '{t}' is not a piece of this variant"
                )));
            }
            v.castling_partners |= 1 << k as u32;
        }
    }
    if let Some(e) = keys.get("promotion") {
        for t in e.value.split_whitespace() {
            let k = parse_kind(e, "promotion", t)?;
            if !v.has(k) || matches!(k, Kind::King | Kind::Pawn) {
                return Err(e.err(format!(
                    "promotion: '{t}' is not a piece this variant can promote to"
                )));
            }
            // A kind given twice would generate each of its promotions twice.
            if v.promotions.contains(&k) {
                return Err(e.err(format!("promotion: '{t}' given twice")));
            }
            v.promotions.push(k);
        }
    }
    if let Some(e) = keys.get("promotionLimit") {
        for t in e.value.split_whitespace() {
            let (k, n) = t
                .split_once(':')
                .ok_or_else(|| e.err(format!("promotionLimit: expected kind:N, got '{t}'")))?;
            let k = parse_kind(e, "promotionLimit", k)?;
            let n: u8 = n
                .parse()
                .map_err(|_| e.err(format!("promotionLimit: '{n}' is not a number")))?;
            v.limits[k.idx()] = n;
        }
    }
    if let Some(e) = keys.get("drops") {
        v.drops = parse_bool(e, "drops")?;
    }
    if let Some(e) = keys.get("demote") {
        for t in e.value.split_whitespace() {
            let (a, b) = t
                .split_once(':')
                .ok_or_else(|| e.err(format!("demote: expected kind:kind, got '{t}'")))?;
            let a = parse_kind(e, "demote", a)?;
            let b = parse_kind(e, "demote", b)?;
            v.demote[a.idx()] = b;
        }
    }
    Ok(())
}

/// The goal, the n-move rule and the rule switches.
fn read_goal_and_switches(v: &mut Variant, keys: &HashMap<String, Entry>) -> Result<(), IniError> {
    if let Some(e) = keys.get("goal") {
        v.goal = match e.value.as_str() {
            "checkmate" => Goal::Checkmate,
            "kingcapture" => Goal::KingCapture,
            x => {
                return Err(e.err(format!(
                    "goal: expected checkmate or kingcapture, got '{x}'"
                )))
            }
        };
    }
    if let Some(e) = keys.get("nMoveRule") {
        v.n_move_rule = e
            .value
            .parse()
            .map_err(|_| e.err(format!("nMoveRule: '{}' is not a number of plies", e.value)))?;
    }
    let flags: [(&str, &mut bool); 10] = [
        ("nMoveRuleResetOnPawnMove", &mut v.n_move_reset_on_pawn),
        ("enPassant", &mut v.en_passant),
        ("doubleStep", &mut v.double_step),
        ("lancerMayFaceEdge", &mut v.lancer_may_face_edge),
        ("passWhenHeld", &mut v.pass_when_held),
        ("mobilityRule", &mut v.mobility_rule),
        ("kingCapturesOwnBearer", &mut v.king_captures_own_bearer),
        ("insufficientMaterial", &mut v.insufficient_material),
        ("xboardShuffles", &mut v.xboard_shuffles),
        ("smallBoardValues", &mut v.small_board_values),
    ];
    for (k, slot) in flags {
        if let Some(e) = keys.get(k) {
            *slot = parse_bool(e, k)?;
        }
    }
    Ok(())
}

/// What the protocols call the variant and how they set it up, its win/draw/loss
/// model, network and weights.
fn read_protocol_and_eval(v: &mut Variant, keys: &HashMap<String, Entry>) -> Result<(), IniError> {
    if let Some(e) = keys.get("xboardName") {
        v.xboard_name = e.value.clone();
    }
    if let Some(e) = keys.get("xboardSetup") {
        v.xboard_setup = Some(e.value.clone()).filter(|t| !t.is_empty() && t != "none");
    }
    if let Some(e) = keys.get("chess960Variant") {
        v.chess960_variant = Some(e.value.clone()).filter(|n| !n.is_empty());
    }
    if let Some(e) = keys.get("wdlModel") {
        let nums: Vec<f64> = e
            .value
            .split_whitespace()
            .map(|t| t.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<_>>()
            .filter(|n: &Vec<f64>| n.len() == 6)
            .ok_or_else(|| e.err(format!("wdlModel: expected six numbers, got '{}'", e.value)))?;
        let mut model = [0.0; 6];
        model.copy_from_slice(&nums);
        v.wdl_model = Some(model);
    }
    if let Some(e) = keys.get("searchParams") {
        // Checked against the search's table where the engine reads the variants
        // (the rules do not know the search).
        v.search_params = e.value.clone();
    }
    for (key, field) in [("network", &mut v.network), ("weights", &mut v.weights)] {
        if let Some(e) = keys.get(key) {
            let name = e.value.as_str();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(e.err(format!("{key}: '{name}' is not a name (or 'none')")));
            }
            *field = (name != "none").then(|| name.to_string());
        }
    }
    if let Some(e) = keys.get("xboardParent") {
        if e.value.is_empty() || e.value.contains(char::is_whitespace) {
            return Err(e.err(format!("xboardParent: '{}' is not a variant name", e.value)));
        }
        v.xboard_parent = e.value.clone();
    }
    if let Some(e) = keys.get("xboardPieces") {
        v.xboard_pieces = e
            .value
            .split('|')
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect();
    }
    Ok(())
}

/// `start` (entry `e`), then the derived fields, checking that the start position
/// parses under the variant's own rules.
fn read_start(v: &mut Variant, e: &Entry) -> Result<(), IniError> {
    v.start = match e.value.as_str() {
        "random:chess960" => Start::Random(RandomSetup::Chess960),
        "random:eightpiece" => Start::Random(RandomSetup::EightPiece),
        x if x.starts_with("random:") => {
            return Err(e.err(format!(
                "start: unknown random setup '{x}' (random:chess960, random:eightpiece)"
            )))
        }
        x => Start::Fen(x.to_string()),
    };
    v.finish();
    // The start position must parse under the variant's own rules.
    let probe: &'static Variant = Box::leak(Box::new(v.clone()));
    let fen = match &v.start {
        Start::Fen(f) => f.clone(),
        Start::Random(r) => probe
            .setup_fen(*r, 0)
            .map_err(|m| e.err(format!("start: {m}")))?,
    };
    let start = Position::from_efen(probe, &fen).map_err(|m| e.err(format!("start: {m}")))?;
    v.start_phase = squares(start.occupied())
        .map(|sq| phase_weight(start.piece_at(sq).kind()))
        .sum::<i32>()
        .max(1);
    Ok(())
}

/// Section `s` and the sections it inherits from, `s` first and the root last.
pub fn chain<'a>(sections: &'a [Section], s: &'a Section) -> Result<Vec<&'a Section>, IniError> {
    let mut chain = vec![s];
    let mut cur = s;
    while let Some(p) = &cur.parent {
        let parent = sections
            .iter()
            .find(|x| &x.name == p)
            .ok_or_else(|| IniError {
                file: s.file.clone(),
                line: s.line,
                msg: format!("[{}] inherits from unknown [{p}]", cur.name),
            })?;
        if chain.iter().any(|c| c.name == parent.name) {
            return Err(IniError {
                file: s.file.clone(),
                line: s.line,
                msg: format!("[{}]: inheritance loop", s.name),
            });
        }
        chain.push(parent);
        cur = parent;
    }
    Ok(chain)
}

/// The loaded variants.
#[derive(Clone, Debug)]
pub struct Variants {
    list: Vec<&'static Variant>,
}

impl Variants {
    /// The built-in set.
    pub fn builtin() -> Variants {
        Variants::load(&[(BUILTIN_INI, "variants.ini")])
            .expect("the built-in variants.ini is valid")
    }

    /// Loads files in order, each merged over the ones before.
    pub fn load(files: &[(&str, &str)]) -> Result<Variants, IniError> {
        let mut sections: Vec<Section> = Vec::new();
        for (text, file) in files {
            for s in read_sections(text, file, Some(KEYS))? {
                match sections.iter_mut().find(|x| x.name == s.name) {
                    Some(old) => {
                        if s.parent.is_some() {
                            old.parent = s.parent;
                        }
                        old.keys.extend(s.keys);
                    }
                    None => sections.push(s),
                }
            }
        }
        let mut list = Vec::new();
        for s in &sections {
            let chain = chain(&sections, s)?;
            let mut keys: HashMap<String, Entry> = HashMap::new();
            for sec in chain.iter().rev() {
                for (k, e) in &sec.keys {
                    keys.insert(k.clone(), e.clone());
                }
            }
            let v = build_variant(&s.name, &keys, s)?;
            list.push(&*Box::leak(Box::new(v)));
        }
        Ok(Variants { list })
    }

    /// Built-in file with a user file merged over it.
    pub fn with_user_file(path: &str) -> Result<Variants, IniError> {
        let text = std::fs::read_to_string(path).map_err(|e| IniError {
            file: path.to_string(),
            line: 0,
            msg: format!("cannot read: {e}"),
        })?;
        Variants::load(&[(BUILTIN_INI, "variants.ini"), (&text, path)])
    }

    /// Looks a variant up by name, ignoring ASCII case as Fairy-Stockfish does
    /// (`Lighthouse`, PGN's `Standard`); also `standard`/`normal` = chess and
    /// `chess960` = fischerandom. An exact match wins over a case-insensitive one.
    pub fn get(&self, name: &str) -> Option<&'static Variant> {
        let lower = name.to_ascii_lowercase();
        let name = match lower.as_str() {
            "standard" | "normal" => "chess",
            "chess960" => "fischerandom",
            _ => name,
        };
        self.list
            .iter()
            .copied()
            .find(|v| v.name == name)
            .or_else(|| {
                self.list
                    .iter()
                    .copied()
                    .find(|v| v.name.eq_ignore_ascii_case(name))
            })
    }

    /// All variants in file order.
    pub fn all(&self) -> &[&'static Variant] {
        &self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_loads() {
        let v = Variants::builtin();
        for n in ["chess", "fischerandom"] {
            assert!(v.get(n).is_some(), "{n}");
        }
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = Variants::load(&[("[x]\npieces = K:king\nfoo = 1\n", "u.ini")]).unwrap_err();
        assert_eq!(e.to_string(), "u.ini:3: unknown key 'foo'");
        let e = Variants::load(&[("[x : y]\npieces = K:king\n", "u.ini")]).unwrap_err();
        assert_eq!(e.to_string(), "u.ini:1: [x] inherits from unknown [y]");
        let e = Variants::load(&[(
            "[x]\npieces = K:king P:pawn\nstart = 4k/8/8/8/8/8/8/4K3 w - - 0 1\n",
            "u.ini",
        )])
        .unwrap_err();
        assert!(e.to_string().starts_with("u.ini:3: start: "), "{e}");
    }
}
