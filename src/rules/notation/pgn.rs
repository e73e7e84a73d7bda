//! PGN, written and read in one place: tags (the roster every writer uses is built
//! by [`tags`]), movetext with comments, NAGs and recursive variations, SAN per
//! docs/notation.md. `lancer match`, `lancer pgn-check`, `lancer annotate` and the
//! web board all go through it (docs/match.md).
//!
//! A game's moves are a [`Tree`] (`rules/tree.rs`).

use super::san::{parse_san, san};
use crate::rules::tree::{NodeId, Tree, ROOT};
use crate::rules::variant::{Start, Variant};
use crate::rules::{Color, Position, Variants};

/// A game: its tags, where it starts, its moves and its result.
#[derive(Clone)]
pub struct PgnGame {
    /// In the order written (the roster first: see [`tags`]).
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub tree: Tree,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl PgnGame {
    /// The value of tag `name` (names compared without case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_value(&self.tags, name)
    }
}

fn tag_value<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The seven tags every PGN game starts with, in order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The `TimeControl` tags of a game.
pub enum TimeTags {
    /// No clock tag.
    None,
    /// `TimeControl`.
    Both(String),
    /// `WhiteTimeControl` and `BlackTimeControl`, when the sides' controls differ.
    Each(String, String),
}

/// What the tags of a game say: the roster's values and the tags after it.
pub struct TagInfo<'a> {
    pub event: &'a str,
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    pub result: &'a str,
    pub variant: &'a Variant,
    /// The start position's EFEN as the game was set up from it.
    pub start_fen: &'a str,
    pub time: TimeTags,
    pub plies: usize,
    pub termination: crate::rules::Termination,
    pub game_number: Option<u64>,
}

/// The tags of a game, as cutechess writes them: the roster (with today's date),
/// `Variant` (not for chess), `FEN` and `SetUp` for a start other than the
/// variant's fixed one (always for random setups), the clock, `PlyCount`,
/// `Termination` and `GameNumber`.
pub fn tags(t: &TagInfo) -> Vec<(String, String)> {
    let v = t.variant;
    let mut out: Vec<(String, String)> = [
        ("Event", t.event.to_string()),
        ("Site", "?".to_string()),
        ("Date", today()),
        ("Round", t.round.to_string()),
        ("White", t.white.to_string()),
        ("Black", t.black.to_string()),
        ("Result", t.result.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let mut add = |k: &str, v: String| out.push((k.to_string(), v));
    if v.name != "chess" {
        add("Variant", v.name.clone());
    }
    if t.start_fen != v.default_start_fen() || matches!(v.start, Start::Random(_)) {
        add("FEN", t.start_fen.to_string());
        add("SetUp", "1".into());
    }
    match &t.time {
        TimeTags::None => {}
        TimeTags::Both(tc) => add("TimeControl", tc.clone()),
        TimeTags::Each(w, b) => {
            add("WhiteTimeControl", w.clone());
            add("BlackTimeControl", b.clone());
        }
    }
    add("PlyCount", t.plies.to_string());
    add("Termination", t.termination.text().to_string());
    if let Some(n) = t.game_number {
        add("GameNumber", n.to_string());
    }
    out
}

/// Today's date as PGN writes it (`2024.05.17`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let (y, m, d) = civil_date(secs.div_euclid(86400));
    format!("{y:04}.{m:02}.{d:02}")
}

/// The date (year, month, day) `days` days after 1970-01-01, in the proleptic
/// Gregorian calendar (Howard Hinnant's days-to-civil; no time-zone crate needed).
pub fn civil_date(days: i64) -> (i64, i64, i64) {
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// How a game is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// `lancer match -pgnout F min`: the roster (plus `FEN`, `SetUp`, `Variant`)
    /// and the main line's bare moves.
    pub minimal: bool,
    /// Black's move after a comment gets its number too (`3... Nf6`), as PGN's
    /// export form has it; cutechess, and so `lancer match`, does not.
    pub number_after_comment: bool,
}

impl Style {
    /// PGN's export form: numbers after comments, everything written.
    pub const EXPORT: Style = Style {
        minimal: false,
        number_after_comment: true,
    };
}

/// The symbols NAGs 1 to 6 are written as, appended to the move.
const GLYPHS: [&str; 6] = ["!", "?", "!!", "??", "!?", "?!"];

/// The NAG of a move symbol (`??` is 4), if it is one.
pub fn glyph_nag(s: &str) -> Option<u8> {
    GLYPHS.iter().position(|&g| g == s).map(|i| i as u8 + 1)
}

/// The symbol of a NAG 1 to 6 (`?!` for 6).
pub fn nag_glyph(nag: u8) -> Option<&'static str> {
    GLYPHS.get((nag as usize).wrapping_sub(1)).copied()
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment as written between braces (a `}` inside would end it early).
fn comment_text(c: &str) -> String {
    c.replace('}', ")")
}

/// The PGN text of a game: tags, then the moves in SAN with their NAGs, comments and
/// variations, laid out as cutechess lays it out: a move keeps its number and
/// comment on its line, lines stay under 80 characters, and Black's move gets its
/// number (`3...`) only where a line or a variation starts or after a variation.
pub fn write(g: &PgnGame, style: Style) -> String {
    let mut out = String::new();
    let tag = |out: &mut String, k: &str, v: &str| {
        let v = if v.is_empty() { "?" } else { v };
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    };
    if style.minimal {
        for (k, v) in g.tags.iter().take(7) {
            tag(&mut out, k, v);
        }
        for k in ["FEN", "SetUp", "Variant"] {
            if let Some((k, v)) = g.tags.iter().find(|(n, _)| n == k) {
                tag(&mut out, k, v);
            }
        }
    } else {
        for (k, v) in &g.tags {
            tag(&mut out, k, v);
        }
    }
    out.push('\n');
    let mut units: Vec<String> = Vec::new();
    let root = g.tree.node(ROOT);
    // The comment before the first move (cutechess: a game without a move carries
    // its end reason there, even in the minimal form).
    if !root.comment.is_empty() && (!style.minimal || g.tree.is_empty()) {
        units.push(format!("{{{}}}", comment_text(&root.comment)));
    }
    if let Some(&first) = root.children.first() {
        write_line(&g.tree, g.start, first, style, &mut units);
    }
    let mut line_len = 0;
    for unit in &units {
        if line_len == 0 {
            line_len = unit.len();
        } else if line_len + unit.len() >= 80 {
            out.push('\n');
            line_len = unit.len();
        } else {
            out.push(' ');
            line_len += unit.len() + 1;
        }
        out.push_str(unit);
    }
    if line_len > 0 {
        out.push(if line_len + g.result.len() >= 80 {
            '\n'
        } else {
            ' '
        });
    }
    out.push_str(&g.result);
    out.push_str("\n\n");
    out
}

/// Writes the line starting at `first` (played in `pos`) and its variations as
/// units: a move with its number, NAGs and comment; `(` and `)` stick to the units
/// they open and close.
fn write_line(
    tree: &Tree,
    mut pos: Position,
    first: NodeId,
    style: Style,
    units: &mut Vec<String>,
) {
    let mut id = first;
    let mut number = true;
    loop {
        let node = tree.node(id);
        let Some(m) = node.mv else { break };
        let mut unit = String::new();
        if pos.side() == Color::White {
            unit.push_str(&format!("{}. ", pos.fullmove()));
        } else if number {
            unit.push_str(&format!("{}... ", pos.fullmove()));
        }
        number = false;
        unit.push_str(&san(&pos, m));
        if !style.minimal {
            for &n in &node.nags {
                match nag_glyph(n) {
                    Some(g) => unit.push_str(g),
                    None => unit.push_str(&format!(" ${n}")),
                }
            }
            if !node.comment.is_empty() {
                unit.push_str(&format!(" {{{}}}", comment_text(&node.comment)));
                number = style.number_after_comment;
            }
        }
        units.push(unit);
        let before = pos;
        pos.do_move(m);
        // The alternatives to this move follow it.
        let parent = node.parent.unwrap_or(ROOT);
        let siblings = &tree.node(parent).children;
        if !style.minimal && siblings.first() == Some(&id) {
            for &alt in &siblings[1..] {
                let open = units.len();
                write_line(tree, before, alt, style, units);
                if units.len() > open {
                    units[open].insert(0, '(');
                    if let Some(last) = units.last_mut() {
                        last.push(')');
                    }
                    number = true;
                }
            }
        }
        match tree.node(id).children.first() {
            Some(&c) => id = c,
            None => break,
        }
    }
}

/// One game read from PGN text: its tags, its moves as SAN tokens with their
/// comments, NAGs and variations, and its result (empty when the text gives none).
#[derive(Clone, Debug, Default)]
pub struct ReadGame {
    pub tags: Vec<(String, String)>,
    pub tree: Tree<String>,
    pub result: String,
}

impl ReadGame {
    /// The value of tag `name` (names compared without case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_value(&self.tags, name)
    }

    /// The main line's SAN tokens.
    pub fn sans(&self) -> Vec<String> {
        self.tree
            .mainline()
            .into_iter()
            .filter_map(|n| self.tree.node(n).mv.clone())
            .collect()
    }

    /// The variant the tags name (`Variant`; none: chess; `Standard` is chess).
    pub fn variant(&self, variants: &Variants) -> Result<&'static Variant, String> {
        let name = self.tag("Variant").unwrap_or("chess");
        variants
            .get(name)
            .ok_or_else(|| format!("unknown variant '{name}'"))
    }

    /// The game replayed by the rules: the start (`FEN` tag, else the variant's)
    /// and every move of every line. The error names the ply and the position.
    pub fn replay(&self, variants: &Variants) -> Result<PgnGame, ReplayError> {
        let v = self.variant(variants).map_err(ReplayError::Setup)?;
        let fen = self
            .tag("FEN")
            .map(str::to_string)
            .unwrap_or_else(|| v.default_start_fen());
        let start = Position::from_efen(v, &fen)
            .map_err(|e| ReplayError::Setup(format!("bad FEN: {e}")))?;
        let mut tree = Tree::new();
        tree.node_mut(ROOT).comment = self.tree.node(ROOT).comment.clone();
        if let Some(&first) = self.tree.node(ROOT).children.first() {
            self.replay_line(first, ROOT, start, &mut tree)?;
        }
        Ok(PgnGame {
            tags: self.tags.clone(),
            start,
            tree,
            result: if self.result.is_empty() {
                "*".into()
            } else {
                self.result.clone()
            },
        })
    }
}

impl ReadGame {
    /// Replays the line from `first` (played in `pos`) into `tree` after `at`, each
    /// move's variations after it, in the order the text has them.
    fn replay_line(
        &self,
        first: NodeId,
        mut at: NodeId,
        mut pos: Position,
        tree: &mut Tree,
    ) -> Result<(), ReplayError> {
        let mut id = first;
        loop {
            let node = self.tree.node(id);
            let token = node.mv.as_deref().unwrap_or("");
            let m = parse_san(&pos, token).map_err(|e| ReplayError::Move {
                ply: self.tree.depth(id),
                message: e.to_string(),
                efen: pos.efen(),
            })?;
            let new = tree.push(at, m);
            tree.node_mut(new).nags = node.nags.clone();
            tree.node_mut(new).comment = node.comment.clone();
            let siblings = &self.tree.node(node.parent.unwrap_or(ROOT)).children;
            if siblings.first() == Some(&id) {
                for &alt in &siblings[1..] {
                    self.replay_line(alt, at, pos, tree)?;
                }
            }
            pos.do_move(m);
            at = new;
            match node.children.first() {
                Some(&c) => id = c,
                None => return Ok(()),
            }
        }
    }
}

/// Why a game read from text does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The variant or the `FEN` tag.
    Setup(String),
    /// A move: its ply (1 is the first), what is wrong, and the position it was
    /// played in.
    Move {
        ply: usize,
        message: String,
        efen: String,
    },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Setup(s) => f.write_str(s),
            ReplayError::Move { ply, message, efen } => write!(f, "ply {ply}: {message} in {efen}"),
        }
    }
}

/// Splits PGN text into games. Comments (`{...}`, and `;` to the end of the
/// line), NAGs (`$n` and the symbols `!` `?` `!!` `??` `!?` `?!` after a move) and
/// variations (`(...)`, nested) are kept; move numbers and `%` escape lines are
/// dropped. A tag line after a game's moves starts the next game.
pub fn read(text: &str) -> Vec<ReadGame> {
    let mut r = Reader::default();
    for line in text.lines() {
        let l = line.trim();
        if r.comment.is_none() && r.stack.is_empty() && l.starts_with('[') && l.ends_with(']') {
            if r.in_moves {
                r.finish();
            }
            if let Some(t) = parse_tag(&l[1..l.len() - 1]) {
                r.cur.tags.push(t);
            }
            continue;
        }
        // `%` opens an escape line (PGN 6: a line for other programs, ignored).
        if l.is_empty() || (l.starts_with('%') && r.comment.is_none()) {
            if let Some(c) = r.comment.as_mut() {
                c.push('\n');
            }
            continue;
        }
        r.in_moves = true;
        r.line(line);
    }
    if r.in_moves || !r.cur.tags.is_empty() {
        r.finish();
    }
    r.games
}

/// `Key "value"` with PGN's escapes; `None` for a line that is not a tag.
fn parse_tag(inner: &str) -> Option<(String, String)> {
    let (k, v) = inner.trim().split_once(char::is_whitespace)?;
    let v = v.trim();
    let v = v.strip_prefix('"').unwrap_or(v);
    let v = v.strip_suffix('"').unwrap_or(v);
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    Some((k.to_string(), out))
}

/// The reader's state between lines.
#[derive(Default)]
struct Reader {
    games: Vec<ReadGame>,
    cur: ReadGame,
    in_moves: bool,
    /// The text of an open `{` comment.
    comment: Option<String>,
    /// The node the next move follows.
    at: NodeId,
    /// Open variations: where each one's enclosing line stood.
    stack: Vec<NodeId>,
    /// Open variations nested deeper than [`MAX_NESTING`], skipped whole.
    skipped: usize,
    tok: String,
}

/// Deepest nesting of variations kept (deeper ones are dropped): the writer and the
/// replay recurse once a level.
pub const MAX_NESTING: usize = 64;

impl Reader {
    fn finish(&mut self) {
        self.flush();
        if let Some(c) = self.comment.take() {
            self.add_comment(&c);
        }
        self.games.push(std::mem::take(&mut self.cur));
        self.in_moves = false;
        self.at = ROOT;
        self.stack.clear();
        self.skipped = 0;
    }

    fn add_comment(&mut self, c: &str) {
        let c = c.trim();
        if c.is_empty() {
            return;
        }
        let node = self.cur.tree.node_mut(self.at);
        if !node.comment.is_empty() {
            node.comment.push(' ');
        }
        node.comment.push_str(c);
    }

    fn line(&mut self, line: &str) {
        for (i, c) in line.char_indices() {
            if self.skipped > 0 && self.comment.is_none() {
                match c {
                    '(' => self.skipped += 1,
                    ')' => self.skipped -= 1,
                    '{' => self.comment = Some(String::new()),
                    _ => {}
                }
                continue;
            }
            if let Some(text) = self.comment.as_mut() {
                if c == '}' && self.skipped > 0 {
                    self.comment = None;
                    continue;
                }
                if c == '}' {
                    let t = std::mem::take(text);
                    self.comment = None;
                    self.add_comment(&t);
                } else {
                    text.push(c);
                }
                continue;
            }
            match c {
                '{' => {
                    self.flush();
                    self.comment = Some(String::new());
                }
                // `;` comments out the rest of the line (PGN 5), braces included.
                ';' => {
                    self.flush();
                    self.add_comment(&line[i + 1..]);
                    return;
                }
                '(' if self.stack.len() >= MAX_NESTING => {
                    self.flush();
                    self.skipped = 1;
                }
                '(' => {
                    self.flush();
                    // A variation replaces the last move: it starts where that
                    // move was played.
                    let parent = self.cur.tree.node(self.at).parent.unwrap_or(ROOT);
                    self.stack.push(self.at);
                    self.at = parent;
                }
                ')' => {
                    self.flush();
                    if let Some(back) = self.stack.pop() {
                        self.at = back;
                    }
                }
                c if c.is_whitespace() => self.flush(),
                c => self.tok.push(c),
            }
        }
        self.flush();
        if let Some(t) = self.comment.as_mut() {
            t.push('\n');
        }
    }

    fn flush(&mut self) {
        let t = std::mem::take(&mut self.tok);
        if t.is_empty() {
            return;
        }
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&t.as_str()) {
            if self.stack.is_empty() {
                self.cur.result = t;
            }
            return;
        }
        if let Some(n) = t.strip_prefix('$') {
            if let Ok(n) = n.parse::<u8>() {
                self.cur.tree.node_mut(self.at).nags.push(n);
            }
            return;
        }
        if let Some(n) = glyph_nag(&t) {
            self.cur.tree.node_mut(self.at).nags.push(n);
            return;
        }
        // Strip move numbers such as `12.` or `12...`.
        let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
        let t = t.trim_start_matches('.');
        // The symbols after a move are NAGs.
        let bare = t.trim_end_matches(['!', '?']);
        let suffix = &t[bare.len()..];
        if bare.is_empty() {
            return;
        }
        self.at = self.cur.tree.push(self.at, bare.to_string());
        if let Some(n) = glyph_nag(suffix) {
            self.cur.tree.node_mut(self.at).nags.push(n);
        }
    }
}

/// Replays every game of a PGN text, every variation too; the error names the game,
/// its players, the ply and the position of the first illegal move.
pub fn check(text: &str, variants: &Variants) -> Result<usize, String> {
    let games = read(text);
    for (i, g) in games.iter().enumerate() {
        g.replay(variants).map_err(|e| match e {
            ReplayError::Setup(s) => format!("game {}: {s}", i + 1),
            e => format!(
                "game {} ({} vs {}), {e}",
                i + 1,
                g.tag("White").unwrap_or_default(),
                g.tag("Black").unwrap_or_default(),
            ),
        })?;
    }
    Ok(games.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> (Variants, Position) {
        let vs = Variants::builtin();
        let v = vs.get("chess").unwrap();
        let p = Position::from_efen(v, &v.default_start_fen()).unwrap();
        (vs, p)
    }

    fn game(text: &str) -> PgnGame {
        let (vs, _) = chess();
        read(text)[0].replay(&vs).unwrap()
    }

    #[test]
    fn variations_comments_and_nags_go_round() {
        let text = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 {best by test} (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5?! $18 2. Nf3 (2. f4 exf4) 2... Nc6 *\n\n";
        let g = game(text);
        assert_eq!(g.tree.mainline().len(), 4);
        assert_eq!(g.tree.node(ROOT).children.len(), 2, "1. e4 and 1. d4");
        assert_eq!(g.tree.len(), 12);
        let out = write(&g, Style::default());
        assert_eq!(
            out,
            "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 {best by test} (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5?! $18 2. Nf3\n(2. f4 exf4) 2... Nc6 *\n\n"
        );
        let again = game(&out);
        assert_eq!(again.tree, g.tree);
        assert_eq!(write(&again, Style::default()), out);
        // The minimal form keeps the main line's bare moves.
        let min = write(
            &g,
            Style {
                minimal: true,
                ..Style::default()
            },
        );
        assert!(min.ends_with("\n1. e4 e5 2. Nf3 Nc6 *\n\n"), "{min}");
        // The export form numbers Black's move after a comment.
        let export = write(&g, Style::EXPORT);
        assert!(export.contains("1. e4 {best by test} (1. d4"), "{export}");
        let g2 = game("1. e4 {x} e5 2. Nf3 *");
        assert!(write(&g2, Style::EXPORT).contains("1. e4 {x} 1... e5 2. Nf3 *"));
        assert!(write(&g2, Style::default()).contains("1. e4 {x} e5 2. Nf3 *"));
    }

    #[test]
    fn reading_keeps_every_form_of_comment() {
        let text = "[White \"a\"]\n[Black \"b \\\"c\\\"\"]\n\n{before} 1. e4 ; to the end {not a comment\n% an escape line\ne5 {two\nlines} 2. Nf3!! 1-0\n[White \"next\"]\n\n1. d4 *";
        let games = read(text);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("black"), Some("b \"c\""));
        assert_eq!(g.sans(), ["e4", "e5", "Nf3"]);
        assert_eq!(g.result, "1-0");
        let t = &g.tree;
        assert_eq!(t.node(ROOT).comment, "before");
        let line = t.mainline();
        assert_eq!(t.node(line[0]).comment, "to the end {not a comment");
        assert_eq!(t.node(line[1]).comment, "two\nlines");
        assert_eq!(t.node(line[2]).nags, [3]);
        assert_eq!(games[1].sans(), ["d4"]);
    }

    #[test]
    fn a_bad_move_in_a_variation_is_named() {
        let (vs, _) = chess();
        let text = "[White \"a\"]\n[Black \"b\"]\n\n1. e4 (1. d4 d5 2. Kd2 Kd7 3. Qd3) e5 *";
        let e = check(text, &vs).unwrap_err();
        assert!(e.starts_with("game 1 (a vs b), ply 5: "), "{e}");
        assert!(e.contains("'Qd3'"), "{e}");
        assert_eq!(check("1. e4 e5 *", &vs), Ok(1));
        assert!(check("[Variant \"nosuch\"]\n\n1. e4 *", &vs)
            .unwrap_err()
            .contains("unknown variant"));
    }

    #[test]
    fn trees_grow_lose_branches_and_promote_them() {
        let (_, start) = chess();
        let mut t = Tree::new();
        let e4 = parse_san(&start, "e4").unwrap();
        let d4 = parse_san(&start, "d4").unwrap();
        let a = t.child_or_push(ROOT, e4);
        assert_eq!(
            t.child_or_push(ROOT, e4),
            a,
            "the same move is not added twice"
        );
        let b = t.child_or_push(ROOT, d4);
        let p = t.position(&start, b);
        let d5 = parse_san(&p, "d5").unwrap();
        let c = t.push(b, d5);
        assert!(t.on_mainline(a) && !t.on_mainline(c));
        assert_eq!(t.line(c), [b, c]);
        assert_eq!(t.depth(c), 2);
        t.promote(c);
        assert!(t.on_mainline(c));
        assert_eq!(t.mainline(), [b, c]);
        let map = t.remove(b);
        assert_eq!(t.len(), 2);
        assert_eq!(map[a], Some(1));
        assert_eq!(map[c], None);
        assert_eq!(t.mainline(), [1]);
    }

    #[test]
    fn the_roster_is_built_once_for_every_writer() {
        let vs = Variants::builtin();
        let v = vs.get("fischerandom").unwrap();
        let t = tags(&TagInfo {
            event: "e",
            round: "2",
            white: "w",
            black: "b",
            result: "*",
            variant: v,
            start_fen: &v.default_start_fen(),
            time: TimeTags::Each("1+0.1".into(), "inf".into()),
            plies: 0,
            termination: crate::rules::Termination::Unterminated,
            game_number: Some(3),
        });
        let names: Vec<&str> = t.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "Variant",
                "FEN",
                "SetUp",
                "WhiteTimeControl",
                "BlackTimeControl",
                "PlyCount",
                "Termination",
                "GameNumber"
            ],
            "a random setup always names its FEN"
        );
        assert_eq!(today().len(), 10);
        // Known dates: the epoch, the days around leap days (2000 is a leap year,
        // 1900 and 2100 are not), the end of a year, and before the epoch.
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(10956), (1999, 12, 31));
        assert_eq!(civil_date(11016), (2000, 2, 29));
        assert_eq!(civil_date(11017), (2000, 3, 1));
        assert_eq!(civil_date(19722), (2023, 12, 31));
        assert_eq!(civil_date(20794), (2026, 12, 7));
        assert_eq!(civil_date(47540), (2100, 2, 28));
        assert_eq!(civil_date(47541), (2100, 3, 1));
        assert_eq!(civil_date(-1), (1969, 12, 31));
        assert_eq!(civil_date(-25508), (1900, 3, 1));
    }
}
