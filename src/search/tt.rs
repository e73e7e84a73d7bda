//! The transposition table: shared by all search threads without locks. Each entry
//! is two `AtomicU64`s, the key stored xor-ed with the data, so a torn write (one word
//! from one thread, one from another) fails the key check instead of giving bad data.

use crate::rules::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Kind of bound a stored score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// No bound (empty).
    None = 0,
    /// Score is at most this (fail low).
    Upper = 1,
    /// Score is at least this (fail high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// The table.
pub struct Tt {
    entries: Vec<Entry>,
    buckets: usize,
    age: AtomicU8,
}

fn pack(mv: Move, score: i32, eval: i32, bound: Bound) -> u64 {
    (mv.0 as u64 & 0x3FFF_FFFF)
        | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 30)
        | ((eval.clamp(-32767, 32767) as i16 as u16 as u64) << 46)
        | ((bound as u64) << 62)
}

/// Data layout (64 bits): move 30 | score 16 | eval 16 | bound 2. Depth and age live in
/// the key word's low byte, which the key check ignores.
fn unpack(data: u64) -> (Move, i32, i32, Bound) {
    let mv = Move((data & 0x3FFF_FFFF) as u32);
    let score = ((data >> 30) & 0xFFFF) as u16 as i16 as i32;
    let eval = ((data >> 46) & 0xFFFF) as u16 as i16 as i32;
    let bound = match data >> 62 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (mv, score, eval, bound)
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1) * 1024 * 1024;
        let buckets = (bytes / (16 * BUCKET)).max(1);
        let mut entries = Vec::new();
        entries.resize_with(buckets * BUCKET, Entry::default);
        Tt {
            entries,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Empties every entry.
    pub fn clear(&self) {
        for e in &self.entries {
            e.key.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search (older entries become easier to replace).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Looks `key` up.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let b = self.bucket(key);
        for e in &self.entries[b..b + BUCKET] {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed);
            if (k ^ data) & !0xFFFF == key & !0xFFFF && data != 0 {
                let meta = (k ^ data) & 0xFFFF;
                let (mv, score, eval, bound) = unpack(data);
                return Some(TtHit {
                    mv,
                    score,
                    eval,
                    depth: (meta & 0xFF) as i32,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result, replacing the shallowest or oldest entry of the bucket.
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let mut victim = b;
        let mut worst = i32::MAX;
        for i in b..b + BUCKET {
            let e = &self.entries[i];
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed);
            let meta = (k ^ data) & 0xFFFF;
            if data == 0 {
                victim = i;
                break;
            }
            if (k ^ data) & !0xFFFF == key & !0xFFFF {
                // Same position: keep the old move when the new result has none.
                let (old_mv, ..) = unpack(data);
                let mv = if mv == Move::NONE { old_mv } else { mv };
                let d = (meta & 0xFF) as i32;
                if bound == Bound::Exact || depth + 3 >= d || ((meta >> 8) as u8) != age {
                    self.write(i, key, mv, score, eval, depth, bound, age);
                }
                return;
            }
            let e_age = (meta >> 8) as u8;
            let value = (meta & 0xFF) as i32 - 8 * (age.wrapping_sub(e_age) as i32);
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        self.write(victim, key, mv, score, eval, depth, bound, age);
    }

    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        i: usize,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        age: u8,
    ) {
        let data = pack(mv, score, eval, bound);
        let meta = (depth.clamp(0, 255) as u64) | ((age as u64) << 8);
        let e = &self.entries[i];
        e.data.store(data, Ordering::Relaxed);
        e.key
            .store(((key & !0xFFFF) | meta) ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                let k = e.key.load(Ordering::Relaxed);
                data != 0 && (((k ^ data) >> 8) & 0xFF) as u8 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = Tt::new(1);
        let m = Move::normal(12, 28);
        tt.store(0xDEAD_BEEF_0000_1234, m, -250, 17, 9, Bound::Lower);
        let h = tt.probe(0xDEAD_BEEF_0000_1234).unwrap();
        assert_eq!(h.mv, m);
        assert_eq!(h.score, -250);
        assert_eq!(h.eval, 17);
        assert_eq!(h.depth, 9);
        assert_eq!(h.bound, Bound::Lower);
        assert!(tt.probe(0x1111_2222_3333_4444).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_0000_1234).is_none());
    }
}
