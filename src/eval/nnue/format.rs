//! The network file: reading ([`Net::parse`], [`load`]) and writing ([`write`]) the
//! format described in docs/protocols.md, Networks.

use super::{Group, Layout, Net, HIDDEN, MAGIC, MAX_GROUPS};

/// The length of a network file with `n` groups.
pub(super) fn file_len(n: usize, h: usize) -> usize {
    4 + 2 + 2 + 2 + 2 * n + 2 + 2 * ((2 * n * 64 + 1 + 2) * h) + 4
}

fn read_u16(b: &[u8], at: &mut usize) -> Result<u16, String> {
    let s = b.get(*at..*at + 2).ok_or("network file cut short")?;
    *at += 2;
    Ok(u16::from_le_bytes([s[0], s[1]]))
}

fn read_i16s(b: &[u8], at: &mut usize, out: &mut [i16]) -> Result<(), String> {
    let s = b
        .get(*at..*at + 2 * out.len())
        .ok_or("network file cut short")?;
    for (o, c) in out.iter_mut().zip(s.chunks_exact(2)) {
        *o = i16::from_le_bytes([c[0], c[1]]);
    }
    *at += 2 * out.len();
    Ok(())
}

/// The bytes of a network file (the format above) of `layout` and `hidden` units with
/// weights already scaled.
pub fn write(
    layout: &Layout,
    residual: bool,
    hidden: usize,
    w1: impl Iterator<Item = i16>,
    b1: impl Iterator<Item = i16>,
    w2: impl Iterator<Item = i16>,
    b2: i32,
) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&u16::from(residual).to_le_bytes());
    b.extend([layout.width, layout.height]);
    b.extend_from_slice(&(layout.groups.len() as u16).to_le_bytes());
    for g in &layout.groups {
        b.extend(g.encode());
    }
    b.extend_from_slice(&(hidden as u16).to_le_bytes());
    for w in w1.chain(b1).chain(w2) {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&b2.to_le_bytes());
    b
}

impl Net {
    /// Reads a network file; `name` says where it came from.
    pub fn parse(b: &[u8], name: &str) -> Result<Net, String> {
        if b.get(..4) != Some(MAGIC.as_slice()) {
            return Err("not a lancer network (no LNN2 header)".into());
        }
        let mut at = 4;
        let flags = read_u16(b, &mut at)?;
        if flags > 1 {
            return Err(format!("network has unknown flags {flags}"));
        }
        let size = b.get(at..at + 2).ok_or("network file cut short")?;
        let (width, height) = (size[0], size[1]);
        at += 2;
        let n = read_u16(b, &mut at)? as usize;
        if n == 0 || n > MAX_GROUPS {
            return Err(format!("network has {n} input groups (1 to {MAX_GROUPS})"));
        }
        let mut groups = Vec::with_capacity(n);
        for _ in 0..n {
            let g = b.get(at..at + 2).ok_or("network file cut short")?;
            groups.push(Group::decode([g[0], g[1]])?);
            at += 2;
        }
        let layout = Layout::new(groups, width, height)?;
        let h = read_u16(b, &mut at)? as usize;
        if !(1..=HIDDEN).contains(&h) {
            return Err(format!(
                "network has {h} hidden units; this build reads 1 to {HIDDEN}"
            ));
        }
        // The length is known now: refuse a short file before reserving its weights.
        if b.len() < file_len(n, h) {
            return Err("network file cut short".into());
        }
        let mut w1 = vec![0i16; layout.inputs() * h];
        read_i16s(b, &mut at, &mut w1)?;
        let mut b1 = vec![0i16; h];
        read_i16s(b, &mut at, &mut b1)?;
        let mut w2 = vec![0i16; 2 * h];
        read_i16s(b, &mut at, &mut w2)?;
        let s = b.get(at..at + 4).ok_or("network file cut short")?;
        let b2 = i32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        if at + 4 != b.len() {
            return Err("network file has bytes after its end".into());
        }
        Ok(Net {
            layout,
            h,
            w1,
            b1,
            w2,
            b2,
            residual: flags & 1 != 0,
            name: name.to_string(),
        })
    }
}

/// Reads the network file at `path` (the `EvalFile` option, `lancer train --init`);
/// the error begins with the path.
pub fn load(path: &str) -> Result<Net, String> {
    use std::io::Read;
    // Read no more than the largest network: a device or a huge file is refused, not
    // swallowed.
    let mut b = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            f.take(file_len(MAX_GROUPS, HIDDEN) as u64 + 1)
                .read_to_end(&mut b)
        })
        .map_err(|e| format!("{path}: {e}"))?;
    Net::parse(&b, path).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::eval::nnue::DEFAULT_HIDDEN;
    use crate::rules::ini::Variants;
    use crate::rules::Variant;
    use rand::{Rng, SeedableRng};

    /// A network of `h` units and random weights for `v`'s inputs, the optional held
    /// group included where `v` has jailers.
    pub(in crate::eval::nnue) fn random_net_of(v: &Variant, seed: u64, h: usize) -> Vec<u8> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let layout = Layout::for_variant_held(v).unwrap();
        let n1 = (layout.inputs() + 1) * h;
        let w1: Vec<i16> = (0..n1).map(|_| rng.gen_range(-300i16..300)).collect();
        let w2: Vec<i16> = (0..2 * h).map(|_| rng.gen_range(-100i16..100)).collect();
        write(
            &layout,
            false,
            h,
            w1.into_iter(),
            std::iter::empty(),
            w2.into_iter(),
            1234,
        )
    }

    /// A network of [`DEFAULT_HIDDEN`] units and random weights for `v`'s inputs.
    pub(in crate::eval::nnue) fn random_net(v: &Variant, seed: u64) -> Vec<u8> {
        random_net_of(v, seed, DEFAULT_HIDDEN)
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let good = random_net(chess, 1);
        assert!(Net::parse(&good, "x").is_ok());
        let e = Net::parse(b"XXXX", "x").err().unwrap();
        assert!(e.contains("LNN2"), "{e}");
        let e = Net::parse(&good[..good.len() - 1], "x").err().unwrap();
        assert!(e.contains("cut short"), "{e}");
        let mut long = good.clone();
        long.push(0);
        assert!(Net::parse(&long, "x")
            .err()
            .unwrap()
            .contains("after its end"));
        let mut wrong = good.clone();
        wrong[8] = 99;
        let e = Net::parse(&wrong, "x").err().unwrap();
        assert!(e.contains("99 input groups"), "{e}");
        let mut flags = good.clone();
        flags[4] = 2;
        assert!(Net::parse(&flags, "x").err().unwrap().contains("flags"));
        let mut twice = good.clone();
        twice[13] = 0;
        assert!(Net::parse(&twice, "x").err().unwrap().contains("twice"));
        let mut board = good.clone();
        board[6] = 9;
        assert!(Net::parse(&board, "x").err().unwrap().contains("9x8"));
        let mut group = good.clone();
        group[10] = 7;
        let e = Net::parse(&group, "x").err().unwrap();
        assert!(e.contains("unknown input group"), "{e}");
        // A network for the lancer variants needs every facing.
        let fc = vs.get("fullcavalry").unwrap();
        let mut facing = random_net(fc, 1);
        let at = 10 + 2 * 5; // the first lancer group (after P N B Q K)
        assert_eq!(facing[at], 1);
        facing[at + 1] = 7; // two groups for north-west, none for north
        let e = Net::parse(&facing, "x").err().unwrap();
        assert!(e.contains("twice"), "{e}");
    }
}
