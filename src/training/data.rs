//! Training data: the files `lancer datagen` writes and `lancer train` and `lancer tune`
//! read (docs/formats.md, Data files), with the one rule for which positions are held
//! out.
//!
//! A data file is a header, then one block per game in game order:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | `LDT1` |
//! | 1 + n | the variant's name: its length, then its letters |
//! | 8, 8, 2 | the seed, the nodes a move and the random plies it was made with |
//! | per game: 1 | `G` |
//! | 4 | the game's number |
//! | 1 | its result: 0 Black won, 1 drawn, 2 White won |
//! | 2 | how many positions follow |
//! | per position: 2 | the search's score, centipawns from White's view |
//! | … | the position ([`crate::rules::record`]) |
//!
//! A game is written only when it is over, so a file cut anywhere (a killed run) holds
//! whole games and a tail, which a resumed run cuts off. Files of text lines,
//! `EFEN | result | score` (the format before), are read too.

use crate::rules::{Position, Variant};
use rayon::prelude::*;
use std::io::{Read, Write};

/// The first bytes of a data file.
pub const MAGIC: &[u8; 4] = b"LDT1";
/// The byte that starts a game.
const GAME: u8 = b'G';

/// One labelled position.
#[derive(Clone, Copy)]
pub struct Sample {
    pub pos: Position,
    /// The game's result for White: 1, ½ or 0.
    pub result: f32,
    /// The search's score for White, centipawns.
    pub score: f32,
    /// Kept out of training to measure over-fitting ([`held_out`]).
    pub held_out: bool,
}

/// Whether positions of game `g` are held out: one game in fifty, so that no game has
/// positions on both sides. Games are counted through the files in the order given.
pub fn held_out(g: u64) -> bool {
    g % 50 == 49
}

/// What a data file was made with (its header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: String,
    pub seed: u64,
    pub nodes: u64,
    pub plies: u16,
}

impl Header {
    /// The header's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        let name = &self.variant.as_bytes()[..self.variant.len().min(255)];
        b.push(name.len() as u8);
        b.extend_from_slice(name);
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.extend_from_slice(&self.nodes.to_le_bytes());
        b.extend_from_slice(&self.plies.to_le_bytes());
        b
    }

    /// Reads a header from the start of `b`; returns it and its length.
    pub fn parse(b: &[u8]) -> Result<(Header, usize), String> {
        if b.get(..4) != Some(MAGIC.as_slice()) {
            return Err("not a lancer data file (no LDT1 header)".into());
        }
        let n = *b.get(4).ok_or("header cut short")? as usize;
        let name = b.get(5..5 + n).ok_or("header cut short")?;
        let rest = b.get(5 + n..5 + n + 18).ok_or("header cut short")?;
        let u64_at = |i: usize| u64::from_le_bytes(rest[i..i + 8].try_into().unwrap_or([0; 8]));
        Ok((
            Header {
                variant: String::from_utf8_lossy(name).into_owned(),
                seed: u64_at(0),
                nodes: u64_at(8),
                plies: u16::from_le_bytes([rest[16], rest[17]]),
            },
            5 + n + 18,
        ))
    }
}

/// One game's block: its number, its result (0, 1, 2 for Black, draw, White) and its
/// positions with the search's score for White.
pub fn game_block(g: u32, result: u8, positions: &[(Position, i16)]) -> Vec<u8> {
    let mut b = vec![GAME];
    b.extend_from_slice(&g.to_le_bytes());
    b.push(result);
    b.extend_from_slice(&(positions.len().min(u16::MAX as usize) as u16).to_le_bytes());
    for (pos, score) in positions.iter().take(u16::MAX as usize) {
        b.extend_from_slice(&score.to_le_bytes());
        pos.write_record(&mut b);
    }
    b
}

/// A game's block found in a file: where its positions start, its number, result and
/// position count.
struct Block {
    at: usize,
    game: u32,
    result: u8,
    count: u16,
}

/// Walks the game blocks of a file's bytes after the header: the whole blocks, and where
/// the whole part ends. A bad block ends the walk with an error naming its offset,
/// unless `tail_ok`, where it is taken for the cut-off tail of a killed run.
fn blocks(
    v: &'static Variant,
    b: &[u8],
    from: usize,
    tail_ok: bool,
) -> Result<(Vec<Block>, usize), String> {
    let mut out = Vec::new();
    let mut at = from;
    while at < b.len() {
        let whole = (|| -> Result<(Block, usize), String> {
            let head = b.get(at..at + 8).ok_or("a game cut short")?;
            if head[0] != GAME {
                return Err(format!("no game block at byte {at}"));
            }
            let block = Block {
                at: at + 8,
                game: u32::from_le_bytes([head[1], head[2], head[3], head[4]]),
                result: head[5],
                count: u16::from_le_bytes([head[6], head[7]]),
            };
            if block.result > 2 {
                return Err(format!("a result of {} at byte {at}", block.result));
            }
            let mut end = block.at;
            for _ in 0..block.count {
                let (_, n) = Position::read_record(v, b.get(end + 2..).unwrap_or(&[]))
                    .map_err(|e| format!("byte {end}: {e}"))?;
                end += 2 + n;
            }
            Ok((block, end))
        })();
        match whole {
            Ok((block, end)) => {
                out.push(block);
                at = end;
            }
            Err(_) if tail_ok => break,
            Err(e) => return Err(e),
        }
    }
    Ok((out, at))
}

/// Opens data file `path` of variant `v` to add games to: a new file gets `header`; an
/// existing one must have been made with the same header, and loses any cut-off tail.
/// Returns the file (positioned at its end), the games it holds and their positions.
pub fn resume(
    v: &'static Variant,
    path: &str,
    header: &Header,
) -> Result<(std::fs::File, u32, usize), String> {
    let err = |e: std::io::Error| format!("{path}: {e}");
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    let mut b = Vec::new();
    f.read_to_end(&mut b).map_err(err)?;
    if b.is_empty() {
        f.write_all(&header.bytes()).map_err(err)?;
        return Ok((f, 0, 0));
    }
    let (old, start) = Header::parse(&b).map_err(|e| format!("{path}: {e}"))?;
    if old != *header {
        return Err(format!(
            "{path} was made with other settings ({} seed {} nodes {} plies {}): give another file",
            old.variant, old.seed, old.nodes, old.plies
        ));
    }
    let (games, end) = blocks(v, &b, start, true)?;
    for (i, g) in games.iter().enumerate() {
        if g.game as usize != i {
            return Err(format!("{path}: game {} where game {i} belongs", g.game));
        }
    }
    f.set_len(end as u64).map_err(err)?;
    use std::io::Seek;
    f.seek(std::io::SeekFrom::Start(end as u64)).map_err(err)?;
    let positions = games.iter().map(|g| g.count as usize).sum();
    Ok((f, games.len() as u32, positions))
}

/// Reads the samples of data files of variant `v` (binary or text lines), in file
/// order. Errors name the file and the line or byte.
pub fn read(v: &'static Variant, files: &[String]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    read_each(v, files, |s| out.extend(s))?;
    Ok(out)
}

/// Reads the data files of variant `v` one at a time, in order, and gives each file's
/// samples to `take`, so that a caller keeping less than the positions never holds
/// them all.
pub fn read_each(
    v: &'static Variant,
    files: &[String],
    mut take: impl FnMut(Vec<Sample>),
) -> Result<(), String> {
    // Games before this file's, so that small files add up to held-out games too.
    let mut before = 0u64;
    for f in files {
        let mut b = Vec::new();
        std::fs::File::open(f)
            .and_then(|mut h| h.read_to_end(&mut b))
            .map_err(|e| format!("{f}: {e}"))?;
        let (samples, games) = if b.starts_with(MAGIC) {
            read_binary(v, f, &b, before)?
        } else {
            let text =
                String::from_utf8(b).map_err(|_| format!("{f}: neither a data file nor text"))?;
            read_text(v, f, &text, before)?
        };
        take(samples);
        before += games;
    }
    Ok(())
}

/// The samples of a binary file whose games follow `before` others, and its games.
fn read_binary(
    v: &'static Variant,
    f: &str,
    b: &[u8],
    before: u64,
) -> Result<(Vec<Sample>, u64), String> {
    let (h, start) = Header::parse(b).map_err(|e| format!("{f}: {e}"))?;
    if h.variant != v.name {
        return Err(format!("{f}: data of {}, not {}", h.variant, v.name));
    }
    let (games, _) = blocks(v, b, start, false).map_err(|e| format!("{f}: {e}"))?;
    let per_game: Vec<Vec<Sample>> = games
        .par_iter()
        .map(|g| {
            let result = f32::from(g.result) / 2.0;
            let mut at = g.at;
            let mut s = Vec::with_capacity(g.count as usize);
            for _ in 0..g.count {
                let score = i16::from_le_bytes([b[at], b[at + 1]]);
                // The walk above read every record already.
                if let Ok((pos, n)) = Position::read_record(v, &b[at + 2..]) {
                    s.push(Sample {
                        pos,
                        result,
                        score: f32::from(score),
                        held_out: held_out(before + u64::from(g.game)),
                    });
                    at += 2 + n;
                }
            }
            s
        })
        .collect();
    Ok((per_game.into_iter().flatten().collect(), games.len() as u64))
}

/// Reads `EFEN | result | score` lines (blank lines and `#` comments skipped) after
/// `before` games; blocks of 200 lines stand for games in the held-out rule.
fn read_text(
    v: &'static Variant,
    f: &str,
    text: &str,
    before: u64,
) -> Result<(Vec<Sample>, u64), String> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let games = text.lines().count().div_ceil(200) as u64;
    let samples = lines
        .par_iter()
        .map(|&(i, l)| {
            let bad = |what: &str| format!("{f}:{}: {what}", i + 1);
            let mut parts = l.split('|').map(str::trim);
            let efen = parts.next().unwrap_or("");
            let result = match parts.next() {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                Some("1/2-1/2") => 0.5,
                _ => return Err(bad("expected 'EFEN | 1-0|0-1|1/2-1/2 | score'")),
            };
            let score = match parts.next() {
                Some(s) => s
                    .parse::<f32>()
                    .map_err(|_| bad("the score is not a number"))?,
                None => 0.0,
            };
            let pos = Position::from_efen(v, efen).map_err(|e| bad(&e))?;
            Ok(Sample {
                pos,
                result,
                score,
                held_out: held_out(before + (i / 200) as u64),
            })
        })
        .collect::<Result<Vec<Sample>, String>>()?;
    Ok((samples, games))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ini::Variants;

    /// A fresh folder of the test's own (tests run at once in one process).
    fn tmp_dir(test: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("lancer-data-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn tmp(dir: &std::path::Path, name: &str) -> String {
        dir.join(name).to_str().unwrap().to_string()
    }

    #[test]
    fn games_read_back_and_a_cut_file_resumes_at_its_last_whole_game() {
        let vs = Variants::builtin();
        let v = vs.get("lighthouse").unwrap();
        let dir = tmp_dir("resume");
        let path = tmp(&dir, "lh.data");
        std::fs::remove_file(&path).ok();
        let h = Header {
            variant: v.name.clone(),
            seed: 3,
            nodes: 100,
            plies: 8,
        };
        let start = Position::from_efen(v, &v.default_start_fen()).unwrap();
        let held = Position::from_efen(v, "bnk1/pppp/4/4/4/4/PPPP/BNKR[Pr] b - - 3 9").unwrap();
        let (mut f, games, n) = resume(v, &path, &h).unwrap();
        assert_eq!((games, n), (0, 0));
        f.write_all(&game_block(0, 2, &[(start, 25), (held, -40)]))
            .unwrap();
        f.write_all(&game_block(1, 1, &[(held, 7)])).unwrap();
        // A killed run leaves half a game.
        let third = game_block(2, 0, &[(start, 1), (held, 2)]);
        f.write_all(&third[..third.len() - 3]).unwrap();
        drop(f);
        let e = read(v, std::slice::from_ref(&path)).err().unwrap();
        assert!(e.contains("lh.data"), "{e}");
        let (_, games, n) = resume(v, &path, &h).unwrap();
        assert_eq!((games, n), (2, 3));
        let s = read(v, std::slice::from_ref(&path)).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[1].pos.efen(), held.efen());
        assert_eq!((s[1].result, s[1].score), (1.0, -40.0));
        assert_eq!((s[2].result, s[2].score), (0.5, 7.0));
        // Other settings, or another variant's reader, are refused.
        let other = Header {
            seed: 4,
            ..h.clone()
        };
        assert!(resume(v, &path, &other)
            .err()
            .unwrap()
            .contains("other settings"));
        let chess = vs.get("chess").unwrap();
        let e = read(chess, std::slice::from_ref(&path)).err().unwrap();
        assert!(e.contains("data of lighthouse"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn text_lines_are_read_too_and_one_game_in_fifty_is_held_out() {
        let vs = Variants::builtin();
        let v = vs.get("chess").unwrap();
        let dir = tmp_dir("text");
        let path = tmp(&dir, "chess.txt");
        let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1-0 | 30\n";
        std::fs::write(&path, line.repeat(10_000)).unwrap();
        let s = read(v, std::slice::from_ref(&path)).unwrap();
        assert_eq!(s.len(), 10_000);
        assert_eq!(s.iter().filter(|s| s.held_out).count(), 200);
        // Files too small for a held-out game of their own add up.
        let small: Vec<String> = (0..10)
            .map(|i| {
                let p = tmp(&dir, &format!("small{i}.txt"));
                std::fs::write(&p, line.repeat(1_000)).unwrap();
                p
            })
            .collect();
        let s = read(v, &small).unwrap();
        assert_eq!(s.iter().filter(|s| s.held_out).count(), 200);
        std::fs::write(&path, "8/8 w | 1-0 | 3\n").unwrap();
        let e = read(v, std::slice::from_ref(&path)).err().unwrap();
        assert!(e.contains("chess.txt:1"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
        assert!((0..1000).filter(|&g| held_out(g)).count() == 20);
    }
}
